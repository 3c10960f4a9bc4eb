package token

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf8"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/internal/jsonparsed"
	"ledgerd/impl/runtime"
)

// The jsonParsed instructions of SPL Token and Token-2022, shown under the one program name "spl-token" as the
// reference's parse_token.rs does. Data is decoded as spl-token-2022's TokenInstruction::unpack decodes it
// (trailing bytes ignored), then the token-group and token-metadata interface instructions are tried. The
// confidential extensions' instructions are in parse_confidential.go.

// tokenIx is an instruction whose account indexes have all been checked against the keys.
type tokenIx struct{ *runtime.InstructionView }

func (t tokenIx) key(pos int) string { return t.Keys[t.Accounts[pos]].String() }

// keysFrom lists the addresses of the accounts from position pos on (an empty list, not null, when there are none).
func (t tokenIx) keysFrom(pos int) []string {
	list := []string{}
	for _, a := range t.Accounts[pos:] {
		list = append(list, t.Keys[a].String())
	}
	return list
}

// need fails unless the instruction has at least n accounts.
func (t tokenIx) need(n int) error {
	if len(t.Accounts) < n {
		return runtime.ErrKeyMismatch
	}
	return nil
}

// needSized is need(n) and then data of exactly size bytes (ErrNotParsable otherwise), in that order.
func (t tokenIx) needSized(data []byte, n, size int) error {
	if err := t.need(n); err != nil {
		return err
	}
	if len(data) != size {
		return runtime.ErrNotParsable
	}
	return nil
}

// info returns the info map with the accounts at the leading positions under the given names.
func (t tokenIx) info(names ...string) map[string]any {
	m := make(map[string]any, len(names)+3)
	for pos, name := range names {
		m[name] = t.key(pos)
	}
	return m
}

// signers is the reference's parse_signers: the authority at position last, or, when more accounts follow it,
// the multisig authority and its signers.
func signers(m map[string]any, accounts []uint8, keys []core.Pubkey, last int, single, multisig string) {
	if last >= len(accounts) {
		return
	}
	owner := keys[accounts[last]].String()
	if len(accounts) > last+1 {
		list := make([]string, 0, len(accounts)-last-1)
		for _, a := range accounts[last+1:] {
			list = append(list, keys[a].String())
		}
		m[multisig] = owner
		m["signers"] = list
		return
	}
	m[single] = owner
}

func (t tokenIx) signers(m map[string]any, last int, single, multisig string) {
	signers(m, t.Accounts, t.Keys, last, single, multisig)
}

// tokenData reads instruction fields; any short read sets bad.
type tokenData struct {
	b   []byte
	bad bool
}

func (d *tokenData) take(n int) []byte {
	if d.bad || len(d.b) < n {
		d.bad = true
		return make([]byte, n)
	}
	s := d.b[:n]
	d.b = d.b[n:]
	return s
}

func (d *tokenData) u8() uint8   { return d.take(1)[0] }
func (d *tokenData) u16() uint16 { return binary.LittleEndian.Uint16(d.take(2)) }
func (d *tokenData) u64() uint64 { return binary.LittleEndian.Uint64(d.take(8)) }
func (d *tokenData) pubkey() core.Pubkey {
	var k core.Pubkey
	copy(k[:], d.take(32))
	return k
}

// optPubkey is TokenInstruction::unpack_pubkey_option: a tag byte 0 or 1, then the key when 1.
func (d *tokenData) optPubkey() *core.Pubkey {
	switch d.u8() {
	case 0:
		return nil
	case 1:
		k := d.pubkey()
		return &k
	default:
		d.bad = true
		return nil
	}
}

// extensionTypes reads the rest as u16 extension types; an odd byte or an unknown type fails.
func (d *tokenData) extensionTypes() []string {
	out := []string{}
	for len(d.b) > 0 && !d.bad {
		if len(d.b) < 2 {
			d.bad = true
			break
		}
		name, ok := ExtensionTypeName(binary.LittleEndian.Uint16(d.b))
		if !ok {
			d.bad = true
			break
		}
		out = append(out, name)
		d.b = d.b[2:]
	}
	return out
}

func optKey(k *core.Pubkey) any {
	if k == nil {
		return nil
	}
	return k.String()
}

func amountString(v uint64) string { return strconv.FormatUint(v, 10) }

// authorityTypes are the reference's UiAuthorityType names, by number.
var authorityTypes = []string{
	"mintTokens", "freezeAccount", "accountOwner", "closeAccount", "transferFeeConfig", "withheldWithdraw",
	"closeMint", "interestRate", "permanentDelegate", "confidentialTransferMint", "transferHookProgramId",
	"confidentialTransferFeeConfig", "metadataPointer", "groupPointer", "groupMemberPointer", "scaledUiAmount",
	"pause", "permissionedBurn",
}

func parseTokenInstruction(ix *runtime.InstructionView) (any, error) {
	// The reference refuses an instruction without accounts, or with any index past the keys.
	if len(ix.Accounts) == 0 {
		return nil, runtime.ErrKeyMismatch
	}
	if err := ix.CheckAccounts(0); err != nil {
		return nil, err
	}
	t := tokenIx{ix}
	if parsed, err, ok := t.parseTokenInstruction(ix.Data); ok {
		return parsed, err
	}
	if parsed, err, ok := t.parseTokenGroup(ix.Data); ok {
		return parsed, err
	}
	if parsed, err, ok := t.parseTokenMetadata(ix.Data); ok {
		return parsed, err
	}
	return nil, runtime.ErrNotParsable
}

// parseTokenInstruction parses data that TokenInstruction::unpack accepts; ok is false when it does not.
func (t tokenIx) parseTokenInstruction(data []byte) (parsed any, err error, ok bool) {
	if len(data) == 0 {
		return nil, nil, false
	}
	d := &tokenData{b: data[1:]}
	var (
		typ  string
		info map[string]any
	)
	// done finishes a branch whose data decoded: the account count is checked, then the info built.
	done := func(need int, build func()) (any, error, bool) {
		if d.bad {
			return nil, nil, false
		}
		if err := t.need(need); err != nil {
			return nil, err, true
		}
		build()
		return jsonparsed.Typed(typ, info), nil, true
	}
	switch tag := data[0]; tag {
	case 0, 20:
		decimals, authority, freeze := d.u8(), d.pubkey(), d.optPubkey()
		need, names := 2, []string{"mint", "rentSysvar"}
		typ = "initializeMint"
		if tag == 20 {
			typ, need, names = "initializeMint2", 1, []string{"mint"}
		}
		return done(need, func() {
			info = t.info(names...)
			info["decimals"], info["mintAuthority"] = decimals, authority.String()
			if freeze != nil {
				info["freezeAuthority"] = freeze.String()
			}
		})
	case 1:
		typ = "initializeAccount"
		return done(4, func() { info = t.info("account", "mint", "owner", "rentSysvar") })
	case 16, 18:
		owner := d.pubkey()
		need, names := 3, []string{"account", "mint", "rentSysvar"}
		typ = "initializeAccount2"
		if tag == 18 {
			typ, need, names = "initializeAccount3", 2, []string{"account", "mint"}
		}
		return done(need, func() {
			info = t.info(names...)
			info["owner"] = owner.String()
		})
	case 2, 19:
		m := d.u8()
		need, first := 3, []string{"multisig", "rentSysvar"}
		typ = "initializeMultisig"
		if tag == 19 {
			typ, need, first = "initializeMultisig2", 2, []string{"multisig"}
		}
		return done(need, func() {
			info = t.info(first...)
			list := []string{}
			for _, a := range t.Accounts[len(first):] {
				list = append(list, t.Keys[a].String())
			}
			info["signers"], info["m"] = list, m
		})
	case 3, 4, 7, 8:
		amount := d.u64()
		var names []string
		var single, multisig string
		switch tag {
		case 3:
			typ, names, single, multisig = "transfer", []string{"source", "destination"}, "authority", "multisigAuthority"
		case 4:
			typ, names, single, multisig = "approve", []string{"source", "delegate"}, "owner", "multisigOwner"
		case 7:
			typ, names, single, multisig = "mintTo", []string{"mint", "account"}, "mintAuthority", "multisigMintAuthority"
		default:
			typ, names, single, multisig = "burn", []string{"account", "mint"}, "authority", "multisigAuthority"
		}
		return done(3, func() {
			info = t.info(names...)
			info["amount"] = amountString(amount)
			t.signers(info, 2, single, multisig)
		})
	case 5:
		typ = "revoke"
		return done(2, func() {
			info = t.info("source")
			t.signers(info, 1, "owner", "multisigOwner")
		})
	case 6:
		kind := d.u8()
		newAuthority := d.optPubkey()
		if int(kind) >= len(authorityTypes) {
			d.bad = true
		}
		typ = "setAuthority"
		return done(2, func() {
			owned := "mint"
			if kind == 2 || kind == 3 { // accountOwner, closeAccount
				owned = "account"
			}
			info = t.info(owned)
			info["authorityType"], info["newAuthority"] = authorityTypes[kind], optKey(newAuthority)
			t.signers(info, 1, "authority", "multisigAuthority")
		})
	case 9:
		typ = "closeAccount"
		return done(3, func() {
			info = t.info("account", "destination")
			t.signers(info, 2, "owner", "multisigOwner")
		})
	case 10, 11:
		typ = "freezeAccount"
		if tag == 11 {
			typ = "thawAccount"
		}
		return done(3, func() {
			info = t.info("account", "mint")
			t.signers(info, 2, "freezeAuthority", "multisigFreezeAuthority")
		})
	case 12, 13:
		amount, decimals := d.u64(), d.u8()
		third, single, multisig := "destination", "authority", "multisigAuthority"
		typ = "transferChecked"
		if tag == 13 {
			typ, third, single, multisig = "approveChecked", "delegate", "owner", "multisigOwner"
		}
		return done(4, func() {
			info = t.info("source", "mint", third)
			info["tokenAmount"] = TokenAmount(amount, decimals)
			t.signers(info, 3, single, multisig)
		})
	case 14, 15:
		amount, decimals := d.u64(), d.u8()
		names, single, multisig := []string{"mint", "account"}, "mintAuthority", "multisigMintAuthority"
		typ = "mintToChecked"
		if tag == 15 {
			typ, names, single, multisig = "burnChecked", []string{"account", "mint"}, "authority", "multisigAuthority"
		}
		return done(3, func() {
			info = t.info(names...)
			info["tokenAmount"] = TokenAmount(amount, decimals)
			t.signers(info, 2, single, multisig)
		})
	case 17, 22:
		typ = "syncNative"
		if tag == 22 {
			typ = "initializeImmutableOwner"
		}
		return done(1, func() { info = t.info("account") })
	case 21:
		types := d.extensionTypes()
		typ = "getAccountDataSize"
		return done(1, func() {
			info = t.info("mint")
			if len(types) > 0 {
				info["extensionTypes"] = types
			}
		})
	case 23:
		amount := d.u64()
		typ = "amountToUiAmount"
		return done(1, func() {
			info = t.info("mint")
			info["amount"] = amountString(amount)
		})
	case 24:
		if !utf8.Valid(d.b) {
			return nil, nil, false
		}
		uiAmount := string(d.b)
		typ = "uiAmountToAmount"
		return done(1, func() {
			info = t.info("mint")
			info["uiAmount"] = uiAmount
		})
	case 25:
		closeAuthority := d.optPubkey()
		typ = "initializeMintCloseAuthority"
		return done(1, func() {
			info = t.info("mint")
			info["newAuthority"] = optKey(closeAuthority)
		})
	case 26:
		parsed, err := t.parseTransferFee(d.b)
		return parsed, err, true
	case 28:
		// The reference wants exactly an instruction type and an account state after the prefix.
		if len(data) != 3 || data[1] > 1 || data[2] > 2 {
			return nil, runtime.ErrNotParsable, true
		}
		state := []string{"uninitialized", "initialized", "frozen"}[data[2]]
		if data[1] == 0 {
			typ = "initializeDefaultAccountState"
			return done(1, func() {
				info = t.info("mint")
				info["accountState"] = state
			})
		}
		typ = "updateDefaultAccountState"
		return done(2, func() {
			info = t.info("mint")
			info["accountState"] = state
			t.signers(info, 1, "freezeAuthority", "multisigFreezeAuthority")
		})
	case 29:
		types := d.extensionTypes()
		typ = "reallocate"
		return done(4, func() {
			info = t.info("account", "payer", "systemProgram")
			info["extensionTypes"] = types
			t.signers(info, 3, "owner", "multisigOwner")
		})
	case 30, 34:
		if len(data) < 2 || data[1] > 1 {
			return nil, runtime.ErrNotParsable, true
		}
		typ = []string{"enable", "disable"}[data[1]] + "RequiredMemoTransfers"
		if tag == 34 {
			typ = []string{"enable", "disable"}[data[1]] + "CpiGuard"
		}
		if err := t.need(2); err != nil {
			return nil, err, true
		}
		info = t.info("account")
		t.signers(info, 1, "owner", "multisigOwner")
		return jsonparsed.Typed(typ, info), nil, true
	case 31:
		typ = "createNativeMint"
		return done(3, func() { info = t.info("payer", "nativeMint", "systemProgram") })
	case 32:
		typ = "initializeNonTransferableMint"
		return done(1, func() { info = t.info("mint") })
	case 33:
		parsed, err := t.parseInterestBearing(data[1:])
		return parsed, err, true
	case 35:
		delegate := d.pubkey()
		typ = "initializePermanentDelegate"
		return done(1, func() {
			info = t.info("mint")
			info["delegate"] = delegate.String()
		})
	case 36:
		parsed, err := t.parsePointer(data[1:], "TransferHook", "programId")
		return parsed, err, true
	case 38:
		typ = "withdrawExcessLamports"
		return done(3, func() {
			info = t.info("source", "destination")
			t.signers(info, 2, "authority", "multisigAuthority")
		})
	case 39:
		parsed, err := t.parsePointer(data[1:], "MetadataPointer", "metadataAddress")
		return parsed, err, true
	case 40:
		parsed, err := t.parsePointer(data[1:], "GroupPointer", "groupAddress")
		return parsed, err, true
	case 41:
		parsed, err := t.parsePointer(data[1:], "GroupMemberPointer", "memberAddress")
		return parsed, err, true
	case 43:
		parsed, err := t.parseScaledUiAmount(data[1:])
		return parsed, err, true
	case 44:
		parsed, err := t.parsePausable(data[1:])
		return parsed, err, true
	case 45:
		var amount *uint64
		switch d.u8() {
		case 0:
		case 1:
			v := d.u64()
			amount = &v
		default:
			d.bad = true
		}
		typ = "unwrapLamports"
		return done(3, func() {
			info = t.info("source", "destination")
			if amount != nil {
				info["amount"] = amountString(*amount)
			}
			t.signers(info, 2, "authority", "multisigAuthority")
		})
	case 46:
		parsed, err := t.parsePermissionedBurn(data[1:])
		return parsed, err, true
	case 27:
		parsed, err := t.parseConfidentialTransfer(data[1:])
		return parsed, err, true
	case 37:
		parsed, err := t.parseConfidentialTransferFee(data[1:])
		return parsed, err, true
	case 42:
		parsed, err := t.parseConfidentialMintBurn(data[1:])
		return parsed, err, true
	case 255:
		parsed, err := t.parseBatch(data[1:])
		return parsed, err, true
	default:
		return nil, nil, false
	}
}

// parseBatch is the reference's parse_batch_instruction: each inner instruction is a u8 account count, a u8
// data length and the data; the accounts follow one another. Nested batches are not parsable.
func (t tokenIx) parseBatch(data []byte) (any, error) {
	instructions := []any{}
	accountCursor := 0
	for cursor := 0; cursor < len(data); {
		if cursor+2 > len(data) {
			return nil, runtime.ErrNotParsable
		}
		numAccounts, dataLen := int(data[cursor]), int(data[cursor+1])
		cursor += 2
		if cursor+dataLen > len(data) || accountCursor+numAccounts > len(t.Accounts) {
			return nil, runtime.ErrNotParsable
		}
		innerData := data[cursor : cursor+dataLen]
		innerAccounts := t.Accounts[accountCursor : accountCursor+numAccounts]
		cursor += dataLen
		accountCursor += numAccounts
		if len(innerData) > 0 && innerData[0] == 255 {
			return nil, runtime.ErrNotParsable
		}
		parsed, err := parseTokenInstruction(&runtime.InstructionView{ProgramID: t.ProgramID, Accounts: innerAccounts, Data: innerData, Keys: t.Keys})
		if err != nil {
			return nil, err
		}
		instructions = append(instructions, parsed)
	}
	return jsonparsed.Typed("batch", map[string]any{"instructions": instructions}), nil
}

// parseTransferFee parses TransferFeeInstruction data (after the 26 prefix).
func (t tokenIx) parseTransferFee(data []byte) (any, error) {
	if len(data) == 0 {
		return nil, runtime.ErrNotParsable
	}
	d := &tokenData{b: data[1:]}
	switch data[0] {
	case 0:
		configAuthority, withdrawAuthority := d.optPubkey(), d.optPubkey()
		basisPoints, maximumFee := d.u16(), d.u64()
		if d.bad {
			return nil, runtime.ErrNotParsable
		}
		if err := t.need(1); err != nil {
			return nil, err
		}
		info := t.info("mint")
		info["transferFeeBasisPoints"], info["maximumFee"] = basisPoints, maximumFee
		if configAuthority != nil {
			info["transferFeeConfigAuthority"] = configAuthority.String()
		}
		if withdrawAuthority != nil {
			info["withdrawWithheldAuthority"] = withdrawAuthority.String()
		}
		return jsonparsed.Typed("initializeTransferFeeConfig", info), nil
	case 1:
		amount, decimals, fee := d.u64(), d.u8(), d.u64()
		if d.bad {
			return nil, runtime.ErrNotParsable
		}
		if err := t.need(4); err != nil {
			return nil, err
		}
		info := t.info("source", "mint", "destination")
		info["tokenAmount"], info["feeAmount"] = TokenAmount(amount, decimals), TokenAmount(fee, decimals)
		t.signers(info, 3, "authority", "multisigAuthority")
		return jsonparsed.Typed("transferCheckedWithFee", info), nil
	case 2:
		if err := t.need(3); err != nil {
			return nil, err
		}
		info := t.info("mint", "feeRecipient")
		t.signers(info, 2, "withdrawWithheldAuthority", "multisigWithdrawWithheldAuthority")
		return jsonparsed.Typed("withdrawWithheldTokensFromMint", info), nil
	case 3:
		n := int(d.u8())
		if d.bad {
			return nil, runtime.ErrNotParsable
		}
		if err := t.need(3 + n); err != nil {
			return nil, err
		}
		info := t.info("mint", "feeRecipient")
		first := len(t.Accounts) - n
		info["sourceAccounts"] = t.keysFrom(first)
		signers(info, t.Accounts[:first], t.Keys, 2, "withdrawWithheldAuthority", "multisigWithdrawWithheldAuthority")
		return jsonparsed.Typed("withdrawWithheldTokensFromAccounts", info), nil
	case 4:
		if err := t.need(1); err != nil {
			return nil, err
		}
		info := t.info("mint")
		info["sourceAccounts"] = t.keysFrom(1)
		return jsonparsed.Typed("harvestWithheldTokensToMint", info), nil
	case 5:
		basisPoints, maximumFee := d.u16(), d.u64()
		if d.bad {
			return nil, runtime.ErrNotParsable
		}
		if err := t.need(2); err != nil {
			return nil, err
		}
		info := t.info("mint")
		info["transferFeeBasisPoints"], info["maximumFee"] = basisPoints, maximumFee
		// The reference spells the multisig key with a lower-case t.
		t.signers(info, 1, "transferFeeConfigAuthority", "multisigtransferFeeConfigAuthority")
		return jsonparsed.Typed("setTransferFee", info), nil
	default:
		return nil, runtime.ErrNotParsable
	}
}

// nonZeroKey reads an OptionalNonZeroPubkey (all zeros: none).
func nonZeroKey(b []byte) *core.Pubkey {
	k := core.Pubkey(b)
	if k.IsZero() {
		return nil
	}
	return &k
}

// parseInterestBearing parses the interest-bearing mint instructions (data after the 33 prefix); their
// payloads must have their exact size.
func (t tokenIx) parseInterestBearing(data []byte) (any, error) {
	if len(data) == 0 {
		return nil, runtime.ErrNotParsable
	}
	switch data[0] {
	case 0:
		if err := t.needSized(data, 1, 1+34); err != nil {
			return nil, err
		}
		info := t.info("mint")
		info["rateAuthority"] = optKey(nonZeroKey(data[1:33]))
		info["rate"] = int16(binary.LittleEndian.Uint16(data[33:]))
		return jsonparsed.Typed("initializeInterestBearingConfig", info), nil
	case 1:
		if err := t.needSized(data, 2, 1+2); err != nil {
			return nil, err
		}
		info := t.info("mint")
		info["newRate"] = int16(binary.LittleEndian.Uint16(data[1:]))
		t.signers(info, 1, "rateAuthority", "multisigRateAuthority")
		return jsonparsed.Typed("updateInterestBearingConfigRate", info), nil
	default:
		return nil, runtime.ErrNotParsable
	}
}

// parsePointer parses the instructions shared by the transfer hook, metadata pointer, group pointer and group
// member pointer extensions: Initialize {authority, address} and Update {address}, leaving out absent keys.
func (t tokenIx) parsePointer(data []byte, name, addressKey string) (any, error) {
	if len(data) == 0 {
		return nil, runtime.ErrNotParsable
	}
	switch data[0] {
	case 0:
		if err := t.needSized(data, 1, 1+64); err != nil {
			return nil, err
		}
		info := t.info("mint")
		if k := nonZeroKey(data[1:33]); k != nil {
			info["authority"] = k.String()
		}
		if k := nonZeroKey(data[33:65]); k != nil {
			info[addressKey] = k.String()
		}
		return jsonparsed.Typed("initialize"+name, info), nil
	case 1:
		if err := t.needSized(data, 2, 1+32); err != nil {
			return nil, err
		}
		info := t.info("mint")
		if k := nonZeroKey(data[1:33]); k != nil {
			info[addressKey] = k.String()
		}
		t.signers(info, 1, "authority", "multisigAuthority")
		return jsonparsed.Typed("update"+name, info), nil
	default:
		return nil, runtime.ErrNotParsable
	}
}

// parseScaledUiAmount parses the scaled UI amount instructions; multipliers are shown as Rust displays an f64.
func (t tokenIx) parseScaledUiAmount(data []byte) (any, error) {
	if len(data) == 0 {
		return nil, runtime.ErrNotParsable
	}
	switch data[0] {
	case 0:
		if err := t.needSized(data, 1, 1+40); err != nil {
			return nil, err
		}
		info := t.info("mint")
		info["authority"] = optKey(nonZeroKey(data[1:33]))
		info["multiplier"] = RustF64Display(math.Float64frombits(binary.LittleEndian.Uint64(data[33:])))
		return jsonparsed.Typed("initializeScaledUiAmountConfig", info), nil
	case 1:
		if err := t.needSized(data, 2, 1+16); err != nil {
			return nil, err
		}
		info := t.info("mint")
		info["newMultiplier"] = RustF64Display(math.Float64frombits(binary.LittleEndian.Uint64(data[1:])))
		info["newMultiplierTimestamp"] = int64(binary.LittleEndian.Uint64(data[9:]))
		t.signers(info, 1, "authority", "multisigAuthority")
		return jsonparsed.Typed("updateMultiplier", info), nil
	default:
		return nil, runtime.ErrNotParsable
	}
}

func (t tokenIx) parsePausable(data []byte) (any, error) {
	if len(data) == 0 {
		return nil, runtime.ErrNotParsable
	}
	switch data[0] {
	case 0:
		if err := t.needSized(data, 1, 1+32); err != nil {
			return nil, err
		}
		info := t.info("mint")
		info["authority"] = optKey(nonZeroKey(data[1:33]))
		return jsonparsed.Typed("initializePausableConfig", info), nil
	case 1, 2:
		if err := t.need(2); err != nil {
			return nil, err
		}
		info := t.info("mint")
		t.signers(info, 1, "authority", "multisigAuthority")
		return jsonparsed.Typed([]string{"", "pause", "resume"}[data[0]], info), nil
	default:
		return nil, runtime.ErrNotParsable
	}
}

// parsePermissionedBurn parses the permissioned burn instructions (data after the 46 prefix): the account count is
// checked before the payload, which must have its exact size.
func (t tokenIx) parsePermissionedBurn(data []byte) (any, error) {
	if len(data) > 0 && data[0] == 3 {
		return t.parsePermissionedConfidentialBurn(data)
	}
	if len(data) == 0 || data[0] > 2 {
		return nil, runtime.ErrNotParsable
	}
	need, size := 4, 8
	switch data[0] {
	case 0:
		need, size = 1, 32
	case 2:
		size = 9
	}
	if err := t.need(need); err != nil {
		return nil, err
	}
	if len(data) != 1+size {
		return nil, runtime.ErrNotParsable
	}
	if data[0] == 0 {
		info := t.info("mint")
		info["authority"] = core.Pubkey(data[1:33]).String()
		return jsonparsed.Typed("initializePermissionedBurnConfig", info), nil
	}
	info := t.info("account", "mint", "permissionedBurnAuthority")
	amount := binary.LittleEndian.Uint64(data[1:])
	typ := "permissionedBurn"
	if data[0] == 1 {
		info["amount"] = amountString(amount)
	} else {
		typ = "permissionedBurnChecked"
		info["tokenAmount"] = TokenAmount(amount, data[9])
	}
	t.signers(info, 3, "authority", "multisigAuthority")
	return jsonparsed.Typed(typ, info), nil
}

// Token group and token metadata interface discriminators: the first 8 bytes of sha256 of their names.
var (
	discInitializeGroup      = []byte{121, 113, 108, 39, 54, 51, 0, 4}
	discUpdateGroupMaxSize   = []byte{108, 37, 171, 143, 248, 30, 18, 110}
	discUpdateGroupAuthority = []byte{161, 105, 88, 1, 237, 221, 216, 203}
	discInitializeMember     = []byte{152, 32, 222, 176, 223, 237, 116, 134}

	discMetadataInitialize      = []byte{210, 225, 30, 162, 88, 184, 77, 141}
	discMetadataUpdateField     = []byte{221, 233, 49, 45, 181, 202, 220, 200}
	discMetadataRemoveKey       = []byte{234, 18, 32, 56, 89, 141, 37, 181}
	discMetadataUpdateAuthority = []byte{215, 228, 166, 228, 84, 100, 86, 123}
	discMetadataEmit            = []byte{250, 166, 180, 250, 13, 12, 184, 70}
)

// parseTokenGroup parses the token-group interface instructions (fixed-size payloads); ok is false when the
// data is not one.
func (t tokenIx) parseTokenGroup(data []byte) (any, error, bool) {
	if len(data) < 8 {
		return nil, nil, false
	}
	disc, rest := data[:8], data[8:]
	switch {
	case bytes.Equal(disc, discInitializeGroup) && len(rest) == 40:
		if err := t.need(3); err != nil {
			return nil, err, true
		}
		info := t.info("group", "mint", "mintAuthority")
		info["updateAuthority"] = optKey(nonZeroKey(rest[:32]))
		info["maxSize"] = binary.LittleEndian.Uint64(rest[32:])
		return jsonparsed.Typed("initializeTokenGroup", info), nil, true
	case bytes.Equal(disc, discUpdateGroupMaxSize) && len(rest) == 8:
		if err := t.need(2); err != nil {
			return nil, err, true
		}
		info := t.info("group", "updateAuthority")
		info["maxSize"] = binary.LittleEndian.Uint64(rest)
		return jsonparsed.Typed("updateTokenGroupMaxSize", info), nil, true
	case bytes.Equal(disc, discUpdateGroupAuthority) && len(rest) == 32:
		if err := t.need(2); err != nil {
			return nil, err, true
		}
		info := t.info("group", "updateAuthority")
		info["newAuthority"] = optKey(nonZeroKey(rest))
		return jsonparsed.Typed("updateTokenGroupAuthority", info), nil, true
	case bytes.Equal(disc, discInitializeMember) && len(rest) == 0:
		if err := t.need(5); err != nil {
			return nil, err, true
		}
		info := t.info("member", "memberMint", "memberMintAuthority", "group", "groupUpdateAuthority")
		return jsonparsed.Typed("initializeTokenGroupMember", info), nil, true
	}
	return nil, nil, false
}

// borsh reads borsh values; any short read or invalid value sets bad.
type borsh struct{ tokenData }

func (b *borsh) u32() uint32 { return binary.LittleEndian.Uint32(b.take(4)) }

func (b *borsh) str() string {
	n := b.u32()
	if b.bad || uint64(n) > uint64(len(b.b)) {
		b.bad = true
		return ""
	}
	s := b.take(int(n))
	if !utf8.Valid(s) {
		b.bad = true
	}
	return string(s)
}

func (b *borsh) boolean() bool {
	v := b.u8()
	if v > 1 {
		b.bad = true
	}
	return v == 1
}

func (b *borsh) optU64() *uint64 {
	switch b.u8() {
	case 0:
		return nil
	case 1:
		v := b.u64()
		return &v
	default:
		b.bad = true
		return nil
	}
}

// parseTokenMetadata parses the token-metadata interface instructions (borsh payloads, consumed exactly).
func (t tokenIx) parseTokenMetadata(data []byte) (any, error, bool) {
	if len(data) < 8 {
		return nil, nil, false
	}
	disc := data[:8]
	b := &borsh{tokenData{b: data[8:]}}
	complete := func() bool { return !b.bad && len(b.b) == 0 }
	switch {
	case bytes.Equal(disc, discMetadataInitialize):
		name, symbol, uri := b.str(), b.str(), b.str()
		if !complete() {
			return nil, nil, false
		}
		if err := t.need(4); err != nil {
			return nil, err, true
		}
		info := t.info("metadata", "updateAuthority", "mint", "mintAuthority")
		info["name"], info["symbol"], info["uri"] = name, symbol, uri
		return jsonparsed.Typed("initializeTokenMetadata", info), nil, true
	case bytes.Equal(disc, discMetadataUpdateField):
		var field string
		switch b.u8() {
		case 0:
			field = "name"
		case 1:
			field = "symbol"
		case 2:
			field = "uri"
		case 3:
			field = b.str()
		default:
			b.bad = true
		}
		value := b.str()
		if !complete() {
			return nil, nil, false
		}
		if err := t.need(2); err != nil {
			return nil, err, true
		}
		info := t.info("metadata", "updateAuthority")
		info["field"], info["value"] = field, value
		return jsonparsed.Typed("updateTokenMetadataField", info), nil, true
	case bytes.Equal(disc, discMetadataRemoveKey):
		idempotent := b.boolean()
		key := b.str()
		if !complete() {
			return nil, nil, false
		}
		if err := t.need(2); err != nil {
			return nil, err, true
		}
		info := t.info("metadata", "updateAuthority")
		info["key"], info["idempotent"] = key, idempotent
		return jsonparsed.Typed("removeTokenMetadataKey", info), nil, true
	case bytes.Equal(disc, discMetadataUpdateAuthority):
		newAuthority := b.take(32)
		if !complete() {
			return nil, nil, false
		}
		if err := t.need(2); err != nil {
			return nil, err, true
		}
		info := t.info("metadata", "updateAuthority")
		info["newAuthority"] = optKey(nonZeroKey(newAuthority))
		return jsonparsed.Typed("updateTokenMetadataAuthority", info), nil, true
	case bytes.Equal(disc, discMetadataEmit):
		start, end := b.optU64(), b.optU64()
		if !complete() {
			return nil, nil, false
		}
		if err := t.need(1); err != nil {
			return nil, err, true
		}
		info := t.info("metadata")
		if start != nil {
			info["start"] = *start
		}
		if end != nil {
			info["end"] = *end
		}
		return jsonparsed.Typed("emitTokenMetadata", info), nil, true
	}
	return nil, nil, false
}
