package loader

import (
	"encoding/base64"
	"encoding/binary"

	"ledgerd/impl/programs/internal/jsonparsed"
	"ledgerd/impl/runtime"
)

// upgradeableShape is the parsed form of one upgradeable loader instruction: its type, the
// info keys of the accounts it always has, the keys of trailing accounts shown when present
// (null otherwise), and how many accounts it needs.
type upgradeableShape struct {
	typ      string
	accounts []string
	optional []string
	need     int
}

var upgradeableShapes = map[uint32]upgradeableShape{
	TagInitializeBuffer: {typ: "initializeBuffer", accounts: []string{"account"}, need: 1},
	TagWrite:            {typ: "write", accounts: []string{"account", "authority"}, need: 2},
	TagDeployWithMaxDataLen: {typ: "deployWithMaxDataLen", accounts: []string{"payerAccount", "programDataAccount",
		"programAccount", "bufferAccount", "rentSysvar", "clockSysvar", "systemProgram", "authority"}, need: 8},
	TagUpgrade: {typ: "upgrade", accounts: []string{"programDataAccount", "programAccount", "bufferAccount",
		"spillAccount", "rentSysvar", "clockSysvar", "authority"}, need: 7},
	TagSetAuthority:        {typ: "setAuthority", accounts: []string{"account", "authority"}, optional: []string{"newAuthority"}, need: 2},
	TagSetAuthorityChecked: {typ: "setAuthorityChecked", accounts: []string{"account", "authority", "newAuthority"}, need: 3},
	TagClose:               {typ: "close", accounts: []string{"account", "recipient", "authority"}, optional: []string{"programAccount"}, need: 3},
	TagExtendProgram: {typ: "extendProgram", accounts: []string{"programDataAccount", "programAccount"},
		optional: []string{"systemProgram", "payerAccount"}, need: 2},
	TagMigrate: {typ: "migrate", accounts: []string{"programDataAccount", "programAccount", "authority"}, need: 3},
}

// parseUpgradeableInstruction is the reference's parse_bpf_upgradeable_loader: the data must
// decode (bincode, trailing bytes ignored; ExtendProgramChecked, withdrawn from the interface
// with its feature, does not), every account index must be in range, and the instruction must
// have the accounts its type needs.
func parseUpgradeableInstruction(ix *runtime.InstructionView) (any, error) {
	d, err := decodeUnlimited(ix.Data)
	if err != nil {
		return nil, runtime.ErrNotParsable
	}
	shape, ok := upgradeableShapes[d.Tag]
	if !ok {
		return nil, runtime.ErrNotParsable
	}
	if err := ix.CheckAccounts(shape.need); err != nil {
		return nil, err
	}
	info := make(map[string]any, 10)
	for pos, name := range shape.accounts {
		info[name] = ix.Keys[ix.Accounts[pos]].String()
	}
	for i, name := range shape.optional {
		pos := len(shape.accounts) + i
		if pos < len(ix.Accounts) {
			info[name] = ix.Keys[ix.Accounts[pos]].String()
		} else {
			info[name] = nil
		}
	}
	switch d.Tag {
	case TagInitializeBuffer:
		// The authority is shown only when given (the reference adds the key, not a null).
		if len(ix.Accounts) > 1 {
			info["authority"] = ix.Keys[ix.Accounts[1]].String()
		}
	case TagWrite:
		info["offset"], info["bytes"] = d.Offset, base64.StdEncoding.EncodeToString(d.Bytes)
	case TagDeployWithMaxDataLen:
		info["maxDataLen"] = d.MaxDataLen
	case TagExtendProgram:
		info["additionalBytes"] = d.AdditionalBytes
	}
	return jsonparsed.Typed(shape.typ, info), nil
}

// decodeUnlimited decodes as the parser's plain bincode does: no 1232-byte read limit (inner
// instructions of a CPI may be longer than a packet).
func decodeUnlimited(data []byte) (UpgradeableInstruction, error) {
	if len(data) >= 16 && binary.LittleEndian.Uint32(data) == TagWrite {
		n := binary.LittleEndian.Uint64(data[8:])
		if n > uint64(len(data)-16) {
			return UpgradeableInstruction{}, errBadInstruction
		}
		return UpgradeableInstruction{Tag: TagWrite, Offset: binary.LittleEndian.Uint32(data[4:]), Bytes: data[16 : 16+n]}, nil
	}
	return DecodeUpgradeable(data)
}

// parseLoaderV2Instruction is the reference's parse_bpf_loader for BPF loader 2's (long refused)
// LoaderInstruction: Write { offset: u32, bytes: Vec<u8> } and Finalize.
func parseLoaderV2Instruction(ix *runtime.InstructionView) (any, error) {
	if len(ix.Data) < 4 {
		return nil, runtime.ErrNotParsable
	}
	tag := binary.LittleEndian.Uint32(ix.Data)
	var offset uint32
	var bytes []byte
	switch tag {
	case 0:
		if len(ix.Data) < 16 {
			return nil, runtime.ErrNotParsable
		}
		offset = binary.LittleEndian.Uint32(ix.Data[4:])
		n := binary.LittleEndian.Uint64(ix.Data[8:])
		if n > uint64(len(ix.Data)-16) {
			return nil, runtime.ErrNotParsable
		}
		bytes = ix.Data[16 : 16+n]
	case 1:
	default:
		return nil, runtime.ErrNotParsable
	}
	// Only the first account is checked against the keys, as the reference does.
	account, err := ix.AccountString(0)
	if err != nil {
		return nil, err
	}
	if tag == 0 {
		return jsonparsed.Typed("write", map[string]any{
			"offset": offset, "bytes": base64.StdEncoding.EncodeToString(bytes), "account": account}), nil
	}
	if len(ix.Accounts) < 2 {
		return nil, runtime.ErrKeyMismatch
	}
	return jsonparsed.Typed("finalize", map[string]any{"account": account}), nil
}
