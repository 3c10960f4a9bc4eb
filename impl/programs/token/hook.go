package token

import (
	"bytes"
	"encoding/binary"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// The transfer hook's execution: a checked transfer of a mint whose TransferHook names a
// program marks both token accounts as transferring, invokes the program's Execute with the
// transfer's accounts and the extra accounts its validation account lists (resolved as
// spl-tlv-account-resolution resolves them), then clears the marks.

// executeDiscriminator is the transfer-hook interface's Execute instruction: the first 8
// bytes of sha256("spl-transfer-hook-interface:execute").
var executeDiscriminator = []byte{105, 37, 101, 197, 75, 251, 102, 26}

// extraAccountMetasSeed is the seed, with the mint, of a hook program's validation account.
var extraAccountMetasSeed = []byte("extra-account-metas")

// AccountResolutionError is spl-tlv-account-resolution's custom error, which a transfer fails
// with when its hook's extra accounts cannot be resolved.
type AccountResolutionError uint32

// The AccountResolutionError codes the resolution returns.
const (
	ResolutionIncorrectAccount         AccountResolutionError = 2_724_315_840
	ResolutionInvalidBytesForSeed      AccountResolutionError = 2_724_315_840 + 9
	ResolutionInstructionDataTooSmall  AccountResolutionError = 2_724_315_840 + 11
	ResolutionAccountNotFound          AccountResolutionError = 2_724_315_840 + 12
	ResolutionAccountDataTooSmall      AccountResolutionError = 2_724_315_840 + 15
	ResolutionInvalidBytesForPubkeyDat AccountResolutionError = 2_724_315_840 + 18
)

func (e AccountResolutionError) err() error { return runtime.CustomError(uint32(e)) }

// TransferHookExecute builds the transfer-hook interface's Execute instruction for program,
// without extra accounts.
func TransferHookExecute(program, source, mint, destination, authority core.Pubkey, amount uint64) core.Instruction {
	return core.Instruction{ProgramID: program, Data: binary.LittleEndian.AppendUint64(bytes.Clone(executeDiscriminator), amount),
		Accounts: []core.AccountMeta{core.Readonly(source), core.Readonly(mint), core.Readonly(destination), core.Readonly(authority)}}
}

// ExtraAccountMetasAddress is the validation account of a hook program for mint.
func ExtraAccountMetasAddress(mint, program core.Pubkey) core.Pubkey {
	k, _, _ := core.FindProgramAddress([][]byte{extraAccountMetasSeed, mint[:]}, program)
	return k
}

// setTransferring sets the TransferHookAccount flag of a token account.
func setTransferring(s *extState, on bool) error {
	v, err := s.extension(ExtTransferHookAccount)
	if err != nil {
		return err
	}
	v[0] = 0
	if on {
		v[0] = 1
	}
	return nil
}

// hookAccount is one account of the Execute invocation: its meta and where the program's
// instruction holds it (its data is read for seeds).
type hookAccount struct {
	meta core.AccountMeta
	idx  int
}

// invokeTransferHook runs the hook program's Execute (invoke_execute) for a transfer whose
// accounts are at the given instruction indexes; the accounts after the authority are where
// the validation account and the extra accounts are looked for.
func (e *exec) invokeTransferHook(program core.Pubkey, srcIdx, mintIdx, dstIdx, authIdx int, amount uint64) error {
	ix := TransferHookExecute(program, e.key(srcIdx), e.key(mintIdx), e.key(dstIdx), e.key(authIdx), amount)
	infos := []int{srcIdx, mintIdx, dstIdx, authIdx}
	additional := make([]int, 0, e.numAccounts()-authIdx-1)
	for i := authIdx + 1; i < e.numAccounts(); i++ {
		additional = append(additional, i)
	}
	findAdditional := func(k core.Pubkey) (int, bool) {
		for _, i := range additional {
			if e.key(i) == k {
				return i, true
			}
		}
		return 0, false
	}
	validation := ExtraAccountMetasAddress(e.key(mintIdx), program)
	if vi, ok := findAdditional(validation); ok {
		ix.Accounts = append(ix.Accounts, core.Readonly(validation))
		infos = append(infos, vi)
		v, err := e.acct(vi)
		if err != nil {
			return err
		}
		metas, err := extraAccountMetas(v.data)
		if err != nil {
			return err
		}
		for _, m := range metas {
			meta, err := e.resolveExtraMeta(m, &ix, infos)
			if err != nil {
				return err
			}
			deEscalate(&meta, ix.Accounts)
			i, ok := findAdditional(meta.Pubkey)
			if !ok {
				return ResolutionIncorrectAccount.err()
			}
			ix.Accounts = append(ix.Accounts, meta)
			infos = append(infos, i)
		}
	}
	return e.invoke(ix)
}

// deEscalate is de_escalate_account_meta: an account the instruction already holds read-only
// stays read-only, and no extra account signs.
func deEscalate(meta *core.AccountMeta, metas []core.AccountMeta) {
	found, writable := false, false
	for _, m := range metas {
		if m.Pubkey == meta.Pubkey {
			found = true
			writable = writable || m.IsWritable
		}
	}
	if found && !writable {
		meta.IsWritable = false
	}
	meta.IsSigner = false
}

// extraAccountMeta is one entry of a validation account's list: a discriminator (0 a fixed
// address, 1 a program address of the hook, 2 a key found in data, 128+i a program address
// of the program at account i), its 32-byte address configuration and its privileges.
type extraAccountMeta struct {
	discriminator      byte
	config             [32]byte
	signer, isWritable bool
}

const extraAccountMetaLen = 1 + 32 + 1 + 1

// tlvTypeNotFound is spl-type-length-value's TypeNotFound; listTooSmall is spl-list-view's
// BufferTooSmall (a list longer than its entry).
var (
	tlvTypeNotFound = runtime.CustomError(1_202_666_432)
	listTooSmall    = runtime.CustomError(1)
)

// extraAccountMetas reads the Execute entry of a validation account as ExtraAccountMetaList
// does: the TLV area (entries of an 8-byte discriminator, a u32 length and the value, ended by
// the data or by a zero discriminator) must be well formed, the Execute entry is the first with
// its discriminator, and its value is a u32 count and whole metas, the count within them.
func extraAccountMetas(data []byte) ([]extraAccountMeta, error) {
	for start := 0; start < len(data); { // TlvStateBorrowed::unpack
		if len(data) < start+8 {
			if !isZero(data[start:]) {
				return nil, errInvalidAccountData
			}
			break
		}
		if isZero(data[start : start+8]) {
			break
		}
		if len(data) < start+12 {
			return nil, errInvalidAccountData
		}
		end := start + 12 + int(binary.LittleEndian.Uint32(data[start+8:]))
		if end > len(data) || end < start {
			return nil, errInvalidAccountData
		}
		start = end
	}
	var v []byte
	for start := 0; ; { // get_first_bytes
		if start >= len(data) || len(data) < start+12 {
			return nil, errInvalidAccountData
		}
		disc := data[start : start+8]
		end := start + 12 + int(binary.LittleEndian.Uint32(data[start+8:]))
		if bytes.Equal(disc, executeDiscriminator) {
			v = data[start+12 : end]
			break
		}
		if isZero(disc) {
			return nil, tlvTypeNotFound
		}
		start = end
	}
	if len(v) < 4 {
		return nil, listTooSmall
	}
	if (len(v)-4)%extraAccountMetaLen != 0 {
		return nil, errInvalidArgument
	}
	count := uint64(binary.LittleEndian.Uint32(v))
	if count > uint64((len(v)-4)/extraAccountMetaLen) {
		return nil, listTooSmall
	}
	out := make([]extraAccountMeta, count)
	for i := range out {
		b := v[4+i*extraAccountMetaLen:]
		out[i] = extraAccountMeta{discriminator: b[0], config: [32]byte(b[1:33]), signer: b[33] != 0, isWritable: b[34] != 0}
	}
	return out, nil
}

// resolveExtraMeta is ExtraAccountMeta::resolve against the Execute instruction built so far
// (its data, and the accounts in infos, by position).
func (e *exec) resolveExtraMeta(m extraAccountMeta, ix *core.Instruction, infos []int) (core.AccountMeta, error) {
	keyAt := func(i int) (core.Pubkey, []byte, bool) {
		if i >= len(infos) {
			return core.Pubkey{}, nil, false
		}
		r, err := e.acct(infos[i])
		if err != nil {
			return core.Pubkey{}, nil, false
		}
		return r.key, r.data, true
	}
	meta := core.AccountMeta{IsSigner: m.signer, IsWritable: m.isWritable}
	switch d := m.discriminator; {
	case d == 0:
		meta.Pubkey = core.Pubkey(m.config)
	case d == 1 || d >= 128:
		program := ix.ProgramID
		if d >= 128 {
			k, _, ok := keyAt(int(d - 128))
			if !ok {
				return meta, ResolutionAccountNotFound.err()
			}
			program = k
		}
		seeds, err := unpackSeeds(m.config[:], ix.Data, keyAt)
		if err != nil {
			return meta, err
		}
		k, _, err := core.FindProgramAddress(seeds, program)
		if err != nil {
			return meta, runtimeError{runtime.ErrProgramFailedToComplete}
		}
		meta.Pubkey = k
	case d == 2:
		k, err := resolveKeyData(m.config[:], ix.Data, keyAt)
		if err != nil {
			return meta, err
		}
		meta.Pubkey = k
	default:
		return meta, errInvalidAccountData
	}
	return meta, nil
}

// unpackSeeds reads a program address's seed configurations (Seed::unpack_address_config) and
// resolves each to its bytes.
func unpackSeeds(config, data []byte, keyAt func(int) (core.Pubkey, []byte, bool)) ([][]byte, error) {
	var seeds [][]byte
	for i := 0; i < len(config); {
		rest := config[i+1:]
		switch config[i] {
		case 0:
			return seeds, nil
		case 1: // a literal
			if len(rest) < 1 || len(rest)-1 < int(rest[0]) {
				return nil, ResolutionInvalidBytesForSeed.err()
			}
			seeds = append(seeds, rest[1:1+int(rest[0])])
			i += 2 + int(rest[0])
		case 2: // bytes of the instruction data
			if len(rest) < 2 {
				return nil, ResolutionInvalidBytesForSeed.err()
			}
			start, end := int(rest[0]), int(rest[0])+int(rest[1])
			if end > len(data) {
				return nil, ResolutionInstructionDataTooSmall.err()
			}
			seeds = append(seeds, data[start:end])
			i += 3
		case 3: // an account's address
			if len(rest) < 1 {
				return nil, ResolutionInvalidBytesForSeed.err()
			}
			k, _, ok := keyAt(int(rest[0]))
			if !ok {
				return nil, ResolutionAccountNotFound.err()
			}
			seeds = append(seeds, bytes.Clone(k[:]))
			i += 2
		case 4: // bytes of an account's data
			if len(rest) < 3 {
				return nil, ResolutionInvalidBytesForSeed.err()
			}
			_, d, ok := keyAt(int(rest[0]))
			if !ok {
				return nil, ResolutionAccountNotFound.err()
			}
			start, end := int(rest[1]), int(rest[1])+int(rest[2])
			if len(d) < end {
				return nil, ResolutionAccountDataTooSmall.err()
			}
			seeds = append(seeds, bytes.Clone(d[start:end]))
			i += 4
		default:
			return nil, errInvalidAccountData
		}
	}
	return seeds, nil
}

// resolveKeyData reads a key from the instruction data or an account's data (PubkeyData).
func resolveKeyData(config, data []byte, keyAt func(int) (core.Pubkey, []byte, bool)) (core.Pubkey, error) {
	switch config[0] {
	case 1:
		start := int(config[1])
		if start+32 > len(data) {
			return core.Pubkey{}, ResolutionInstructionDataTooSmall.err()
		}
		return core.Pubkey(data[start : start+32]), nil
	case 2:
		_, d, ok := keyAt(int(config[1]))
		if !ok {
			return core.Pubkey{}, ResolutionAccountNotFound.err()
		}
		start := int(config[2])
		if len(d) < start+32 {
			return core.Pubkey{}, ResolutionAccountDataTooSmall.err()
		}
		return core.Pubkey(d[start : start+32]), nil
	}
	return core.Pubkey{}, errInvalidAccountData
}
