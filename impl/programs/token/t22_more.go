package token

import (
	"bytes"
	"encoding/binary"
	"math"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Token-2022's instructions beyond the base set and the older extensions: Batch,
// CreateNativeMint, WithdrawExcessLamports, UnwrapLamports, the pointer extensions (group,
// group member, transfer hook, metadata), the token-group interface, ScaledUiAmount, Pausable
// and PermissionedBurn, with the program's order of checks, errors and log lines.

// batchHeaderLen is a Batch entry's header: the number of accounts and the length of the data.
const batchHeaderLen = 2

// processBatch is Processor::process_batch: each entry takes the next accounts and runs its
// data as one instruction over them; the entries share the accounts' working copies, and the
// first failure fails the whole batch.
func (e *exec) processBatch(data []byte) error {
	outer := e.window
	defer func() { e.window = outer }()
	base, left := outer.base, outer.n
	for {
		if len(data) < batchHeaderLen {
			return tokenErr(InvalidInstruction)
		}
		n, end := int(data[0]), batchHeaderLen+int(data[1])
		if n > left {
			return errNotEnoughAccountKeys
		}
		if end > len(data) {
			return tokenErr(InvalidInstruction)
		}
		inner := data[batchHeaderLen:end]
		if err := e.ctx.Consume(baseUnits(true, inner)); err != nil {
			return runtimeError{err}
		}
		e.window.base, e.window.n = base, n
		if err := e.process2022Inner(inner); err != nil {
			return err
		}
		if end == len(data) {
			return nil
		}
		base, left = base+n, left-n
		data = data[end:]
	}
}

// coptionU64After reads the COption<u64> after an instruction's tag (unpack_u64_option:
// trailing bytes are ignored).
func coptionU64After(data []byte) (COption[uint64], error) {
	rest := data[1:]
	switch {
	case len(rest) >= 1 && rest[0] == 0:
		return COption[uint64]{}, nil
	case len(rest) >= 9 && rest[0] == 1:
		return Some(binary.LittleEndian.Uint64(rest[1:9])), nil
	}
	return COption[uint64]{}, errInvalidInstructionData
}

// nativeMintSeeds are the seeds of Token-2022's native mint, a program address of the program.
var nativeMintSeeds = [][]byte{[]byte("native-mint"), {255}}

// System program instructions the token program invokes.
func systemTransfer(from, to core.Pubkey, lamports uint64) core.Instruction {
	return core.Instruction{ProgramID: core.SystemProgramID, Data: binary.LittleEndian.AppendUint64([]byte{2, 0, 0, 0}, lamports),
		Accounts: []core.AccountMeta{core.WritableSigner(from), core.Writable(to)}}
}

func systemAllocate(account core.Pubkey, space uint64) core.Instruction {
	return core.Instruction{ProgramID: core.SystemProgramID, Data: binary.LittleEndian.AppendUint64([]byte{8, 0, 0, 0}, space),
		Accounts: []core.AccountMeta{core.WritableSigner(account)}}
}

func systemAssign(account, owner core.Pubkey) core.Instruction {
	return core.Instruction{ProgramID: core.SystemProgramID, Data: append([]byte{1, 0, 0, 0}, owner[:]...),
		Accounts: []core.AccountMeta{core.WritableSigner(account)}}
}

// createNativeMint funds, allocates and assigns the native mint through the system program,
// signing for its program address, then writes the wrapped SOL mint (9 decimals, no
// authorities).
func (e *exec) createNativeMint() error {
	var payer, native *acctRef
	err := e.accts(&payer, &native)
	if err != nil {
		return err
	}
	if _, err := e.acct(2); err != nil {
		return err
	}
	if native.key != NativeMint2022 {
		return tokenErr(InvalidMint)
	}
	minimum := e.ctx.Rent().MinimumBalance(MintSize)
	var diff uint64
	if minimum > native.lamports {
		diff = minimum - native.lamports
	}
	payerKey, nativeKey := payer.key, native.key
	if err := e.invokeSigned(systemTransfer(payerKey, nativeKey, diff), nil); err != nil {
		return err
	}
	if err := e.invokeSigned(systemAllocate(nativeKey, MintSize), [][][]byte{nativeMintSeeds}); err != nil {
		return err
	}
	if err := e.invokeSigned(systemAssign(nativeKey, Program2022ID), [][][]byte{nativeMintSeeds}); err != nil {
		return err
	}
	if native, err = e.acct(1); err != nil {
		return err
	}
	d := native.mut()
	if len(d) != MintSize {
		return errInvalidAccountData
	}
	copy(d, NativeMintData())
	return nil
}

// withdrawExcessLamports moves what a token account, mint or multisig holds above its
// rent-exempt reserve to the destination, with the account's owner, the mint's authority (or
// the mint itself when it has none) or the multisig's signers as authority.
func (e *exec) withdrawExcessLamports() error {
	var src, dst, auth *acctRef
	err := e.accts(&src, &dst, &auth)
	if err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(src); err != nil {
		return err
	}
	if s, err := unpackPod(src.data, kindAccount); err == nil {
		a := readAccountPod(s.base())
		if a.IsNative.Some {
			return tokenErr(NativeNotSupported)
		}
		if err := e.validateOwner(a.Owner, 2); err != nil {
			return err
		}
		if cpiGuardLocked(&s) && e.inCPI() {
			return tokenErr(CpiGuardTransferBlocked)
		}
	} else if ms, err := unpackPod(src.data, kindMint); err == nil {
		if k, ok := readMintPod(ms.base()).MintAuthority.Get(); ok {
			if err := e.validateOwner(k, 2); err != nil {
				return err
			}
		} else if src.key == auth.key {
			if !auth.signer {
				return errMissingRequiredSignature
			}
		} else {
			return tokenErr(AuthorityTypeNotSupported)
		}
	} else if len(src.data) == MultisigSize {
		if err := e.validateOwner(src.key, 2); err != nil {
			return err
		}
	} else {
		return tokenErr(InvalidState)
	}
	reserve := e.ctx.Rent().MinimumBalance(uint64(len(src.data)))
	if src.lamports < reserve {
		return tokenErr(NotRentExempt)
	}
	amount := src.lamports - reserve
	src.lamports -= amount
	if dst.lamports, err = addU64(dst.lamports, amount); err != nil {
		return err
	}
	return nil
}

// unwrapLamports takes amount (all when none) of a wrapped SOL account's tokens out as
// lamports to the destination, by its owner or delegate.
func (e *exec) unwrapLamports(opt COption[uint64]) error {
	var src, dst, auth *acctRef
	err := e.accts(&src, &dst, &auth)
	if err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(src); err != nil {
		return err
	}
	s, err := unpackPod(src.mut(), kindAccount)
	if err != nil {
		return err
	}
	a := readAccountPod(s.base())
	amount, remaining := a.Amount, uint64(0)
	if v, ok := opt.Get(); ok {
		if v > a.Amount {
			return tokenErr(InsufficientFunds)
		}
		amount, remaining = v, a.Amount-v
	}
	if !a.IsNative.Some {
		return tokenErr(NonNativeNotSupported)
	}
	if d, ok := a.Delegate.Get(); ok && auth.key == d {
		if err := e.validateOwner(d, 2); err != nil {
			return err
		}
		if a.DelegatedAmount < amount {
			return tokenErr(InsufficientFunds)
		}
		setDelegatedAmount(s.base(), a.DelegatedAmount-amount)
		if a.DelegatedAmount == amount {
			putCOptionKey(s.base()[accDelegateOff:], COption[core.Pubkey]{}, true)
		}
	} else if err := e.validateOwner(a.Owner, 2); err != nil {
		return err
	}
	if cpiGuardLocked(&s) && e.inCPI() {
		return tokenErr(CpiGuardTransferBlocked)
	}
	if amount == 0 {
		return nil
	}
	setAccountAmount(s.base(), remaining)
	if src.key != dst.key {
		if src.lamports, err = subU64(src.lamports, amount); err != nil {
			return err
		}
		if dst.lamports, err = addU64(dst.lamports, amount); err != nil {
			return err
		}
	}
	return nil
}

// pointerExtension names an extension whose instructions are Initialize {authority, address}
// and Update {address}, as their log lines and messages spell them.
type pointerExtension struct {
	instruction string // "GroupPointerInstruction"
	noneMessage string
}

var pointerExtensions = map[ExtensionType]pointerExtension{
	ExtMetadataPointer: {"MetadataPointerInstruction",
		"The metadata pointer extension requires at least an authority or an address for initialization, neither was provided"},
	ExtGroupPointer: {"GroupPointerInstruction",
		"The group pointer extension requires at least an authority or an address for initialization, neither was provided"},
	ExtGroupMemberPointer: {"GroupMemberPointerInstruction",
		"The group member pointer extension requires at least an authority or an address for initialization, neither was provided"},
	ExtTransferHook: {"TransferHookInstruction",
		"The transfer hook extension requires at least an authority or a program id for initialization, neither was provided"},
}

// processPointerExtension runs the Initialize and Update of the metadata pointer, group
// pointer, group member pointer and transfer hook extensions: an authority (32 bytes, zero for
// none) and an address, the address the authority may change. A transfer hook's program may
// not be Token-2022 itself.
func (e *exec) processPointerExtension(rest []byte, t ExtensionType) error {
	px := pointerExtensions[t]
	sub, err := subType(rest, 2)
	if err != nil {
		return err
	}
	if sub == 0 {
		e.ctx.ProgramLog(px.instruction + "::Initialize")
		if len(rest) != 1+64 {
			return errInvalidInstructionData
		}
		authority, address := optionalKey(rest[1:33]), optionalKey(rest[33:65])
		mintRef, err := e.acct(0)
		if err != nil {
			return err
		}
		if err := e.checkOwnedByProgram(mintRef); err != nil {
			return err
		}
		s, err := unpackPodUninitialized(mintRef.mut(), kindMint)
		if err != nil {
			return err
		}
		if t != ExtTransferHook && !authority.Some && !address.Some {
			e.ctx.ProgramLog(px.noneMessage)
			return tokenErr(InvalidInstruction)
		}
		v, err := s.initExtension(t, true)
		if err != nil {
			return err
		}
		copy(v[:32], rest[1:33])
		if t == ExtTransferHook {
			if address.Some && address.Value == e.programID {
				return errIncorrectProgramID
			}
			if !address.Some && !authority.Some {
				e.ctx.ProgramLog(px.noneMessage)
				return tokenErr(InvalidInstruction)
			}
		}
		copy(v[32:64], rest[33:65])
		return nil
	}
	e.ctx.ProgramLog(px.instruction + "::Update")
	if len(rest) != 1+32 {
		return errInvalidInstructionData
	}
	v, err := e.authorizedMintExtension(t, NoAuthorityExists)
	if err != nil {
		return err
	}
	if address := optionalKey(rest[1:33]); t == ExtTransferHook && address.Some && address.Value == e.programID {
		return errIncorrectProgramID
	}
	copy(v[32:64], rest[1:33])
	return nil
}

// processMetadataPointerExtension runs the MetadataPointer instructions.
func (e *exec) processMetadataPointerExtension(rest []byte) error {
	return e.processPointerExtension(rest, ExtMetadataPointer)
}

// ---------------------------------------------------------------------------------------------
// The token-group interface

// TokenGroupError is the token-group interface's custom error, which Token-2022 returns from
// the group instructions.
type TokenGroupError uint32

// The TokenGroupError codes.
const (
	GroupSizeExceedsNewMaxSize TokenGroupError = 3_406_457_176 + iota
	GroupSizeExceedsMaxSize
	GroupImmutable
	GroupIncorrectMintAuthority
	GroupIncorrectUpdateAuthority
	GroupMemberAccountIsGroupAccount
)

var groupErrorText = [...]string{
	"Size is greater than proposed max size",
	"Size is greater than max size",
	"Group is immutable",
	"Incorrect mint authority has signed the instruction",
	"Incorrect update authority has signed the instruction",
	"Member account should not be the same as the group account",
}

// Error returns the Display text.
func (e TokenGroupError) Error() string {
	if i := int(e - GroupSizeExceedsNewMaxSize); e >= GroupSizeExceedsNewMaxSize && i < len(groupErrorText) {
		return groupErrorText[i]
	}
	return "Unknown"
}

func (e TokenGroupError) err() error { return runtime.CustomError(uint32(e)) }

// The token-group interface's instruction kinds.
const (
	KindInitializeTokenGroup Kind = 512 + iota
	KindUpdateTokenGroupMaxSize
	KindUpdateTokenGroupAuthority
	KindInitializeTokenGroupMember
)

// groupInstruction is a decoded token-group interface instruction.
type groupInstruction struct {
	kind            Kind
	updateAuthority []byte // InitializeGroup's, or UpdateGroupAuthority's new one (32 bytes)
	maxSize         uint64
}

// decodeGroupInstruction is TokenGroupInstruction::unpack: an 8-byte discriminator and a
// payload of exactly its size.
func decodeGroupInstruction(data []byte) (groupInstruction, bool) {
	if len(data) < 8 {
		return groupInstruction{}, false
	}
	disc, rest := data[:8], data[8:]
	switch {
	case bytes.Equal(disc, discInitializeGroup) && len(rest) == 40:
		return groupInstruction{kind: KindInitializeTokenGroup, updateAuthority: rest[:32], maxSize: binary.LittleEndian.Uint64(rest[32:])}, true
	case bytes.Equal(disc, discUpdateGroupMaxSize) && len(rest) == 8:
		return groupInstruction{kind: KindUpdateTokenGroupMaxSize, maxSize: binary.LittleEndian.Uint64(rest)}, true
	case bytes.Equal(disc, discUpdateGroupAuthority) && len(rest) == 32:
		return groupInstruction{kind: KindUpdateTokenGroupAuthority, updateAuthority: rest}, true
	case bytes.Equal(disc, discInitializeMember) && len(rest) == 0:
		return groupInstruction{kind: KindInitializeTokenGroupMember}, true
	}
	return groupInstruction{}, false
}

// TokenGroup and TokenGroupMember value layouts.
const (
	groupUpdateAuthorityOff = 0
	groupMintOff            = 32
	groupSizeOff            = 64
	groupMaxSizeOff         = 72
	memberMintOff           = 0
	memberGroupOff          = 32
	memberNumberOff         = 64
)

func (e *exec) processTokenGroup(ix *groupInstruction) error {
	switch ix.kind {
	case KindInitializeTokenGroup:
		e.ctx.ProgramLog("TokenGroupInstruction: InitializeGroup")
		return e.initializeGroup(ix)
	case KindUpdateTokenGroupMaxSize:
		e.ctx.ProgramLog("TokenGroupInstruction: UpdateGroupMaxSize")
	case KindUpdateTokenGroupAuthority:
		e.ctx.ProgramLog("TokenGroupInstruction: UpdateGroupAuthority")
	default:
		e.ctx.ProgramLog("TokenGroupInstruction: InitializeMember")
		return e.initializeMember()
	}
	return e.updateGroup(ix)
}

// checkMintAuthoritySigned is the group instructions' check of the mint at index mintIdx: a
// Token-2022 mint whose mint authority signs as the account at authIdx and that has the
// pointer extension t.
func (e *exec) checkMintAuthoritySigned(mintIdx, authIdx int, t ExtensionType, missing string) error {
	mintRef, err := e.acct(mintIdx)
	if err != nil {
		return err
	}
	auth, err := e.acct(authIdx)
	if err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.data, kindMint)
	if err != nil {
		return err
	}
	if !auth.signer {
		return errMissingRequiredSignature
	}
	if k, ok := readMintPod(ms.base()).MintAuthority.Get(); !ok || k != auth.key {
		return GroupIncorrectMintAuthority.err()
	}
	if _, err := ms.extension(t); err != nil {
		e.ctx.ProgramLog(missing)
		return tokenErr(InvalidExtensionCombination)
	}
	return nil
}

func (e *exec) initializeGroup(ix *groupInstruction) error {
	var group, mintRef *acctRef
	err := e.accts(&group, &mintRef)
	if err != nil {
		return err
	}
	if _, err := e.acct(2); err != nil {
		return err
	}
	if group.key != mintRef.key {
		e.ctx.ProgramLog("Group configurations for a mint must be initialized in the mint itself.")
		return tokenErr(MintMismatch)
	}
	if err := e.checkMintAuthoritySigned(1, 2, ExtGroupPointer,
		"A mint with group configurations must have the group-pointer extension initialized"); err != nil {
		return err
	}
	value := make([]byte, 80)
	copy(value[groupUpdateAuthorityOff:], ix.updateAuthority)
	copy(value[groupMintOff:], mintRef.key[:])
	binary.LittleEndian.PutUint64(value[groupMaxSizeOff:], ix.maxSize)
	return e.allocAndSerialize(group, ExtTokenGroup, value)
}

// checkUpdateAuthority is the group's check of its update authority: it signs, exists and is
// the one signing.
func checkUpdateAuthority(auth *acctRef, expected []byte) error {
	if !auth.signer {
		return errMissingRequiredSignature
	}
	k := optionalKey(expected)
	if !k.Some {
		return GroupImmutable.err()
	}
	if k.Value != auth.key {
		return GroupIncorrectUpdateAuthority.err()
	}
	return nil
}

// groupValue returns the TokenGroup of the mint at index i for writing.
func (e *exec) groupValue(i int) ([]byte, error) {
	group, err := e.acct(i)
	if err != nil {
		return nil, err
	}
	if err := e.checkOwnedByProgram(group); err != nil {
		return nil, err
	}
	s, err := unpackPod(group.mut(), kindMint)
	if err != nil {
		return nil, err
	}
	return s.extension(ExtTokenGroup)
}

func (e *exec) updateGroup(ix *groupInstruction) error {
	if _, err := e.acct(0); err != nil {
		return err
	}
	auth, err := e.acct(1)
	if err != nil {
		return err
	}
	v, err := e.groupValue(0)
	if err != nil {
		return err
	}
	if err := checkUpdateAuthority(auth, v[groupUpdateAuthorityOff:groupUpdateAuthorityOff+32]); err != nil {
		return err
	}
	if ix.kind == KindUpdateTokenGroupAuthority {
		copy(v[groupUpdateAuthorityOff:], ix.updateAuthority)
		return nil
	}
	if binary.LittleEndian.Uint64(v[groupSizeOff:]) > ix.maxSize {
		return GroupSizeExceedsNewMaxSize.err()
	}
	binary.LittleEndian.PutUint64(v[groupMaxSizeOff:], ix.maxSize)
	return nil
}

func (e *exec) initializeMember() error {
	var member, memberMint *acctRef
	err := e.accts(&member, &memberMint)
	if err != nil {
		return err
	}
	if _, err := e.acct(2); err != nil {
		return err
	}
	group, err := e.acct(3)
	if err != nil {
		return err
	}
	groupAuth, err := e.acct(4)
	if err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(group); err != nil {
		return err
	}
	if member.key != memberMint.key {
		e.ctx.ProgramLog("Group member configurations for a mint must be initialized in the mint itself.")
		return tokenErr(MintMismatch)
	}
	if err := e.checkMintAuthoritySigned(1, 2, ExtGroupMemberPointer,
		"A mint with group member configurations must have the group-member-pointer extension initialized"); err != nil {
		return err
	}
	if member.key == group.key {
		return GroupMemberAccountIsGroupAccount.err()
	}
	v, err := e.groupValue(3)
	if err != nil {
		return err
	}
	if err := checkUpdateAuthority(groupAuth, v[groupUpdateAuthorityOff:groupUpdateAuthorityOff+32]); err != nil {
		return err
	}
	size := binary.LittleEndian.Uint64(v[groupSizeOff:])
	if size == math.MaxUint64 || size+1 > binary.LittleEndian.Uint64(v[groupMaxSizeOff:]) {
		return GroupSizeExceedsMaxSize.err()
	}
	binary.LittleEndian.PutUint64(v[groupSizeOff:], size+1)
	value := make([]byte, 72)
	copy(value[memberMintOff:], memberMint.key[:])
	copy(value[memberGroupOff:], group.key[:])
	binary.LittleEndian.PutUint64(value[memberNumberOff:], size+1)
	return e.allocAndSerialize(member, ExtTokenGroupMember, value)
}

// allocAndSerialize writes the fixed-size extension t of an initialized mint, growing the
// account to fit (alloc_and_serialize, without overwriting: an existing entry is
// ExtensionAlreadyInitialized).
func (e *exec) allocAndSerialize(r *acctRef, t ExtensionType, value []byte) error {
	prev := len(r.data)
	s, err := unpackPod(r.data, kindMint)
	if err != nil {
		return err
	}
	newLen, err := s.newAccountLenFor(t, len(value))
	if err != nil {
		return err
	}
	if newLen > prev {
		if err := r.resize(newLen); err != nil {
			return err
		}
	}
	if prev <= AccountSize {
		if err := setAccountType(r.mut(), kindMint); err != nil {
			return err
		}
	}
	s, err = unpackPod(r.mut(), kindMint)
	if err != nil {
		return err
	}
	v, err := s.initExtension(t, false)
	if err != nil {
		return err
	}
	copy(v, value)
	return nil
}

// ---------------------------------------------------------------------------------------------
// ScaledUiAmount

// ScaledUiAmountConfig value layout.
const (
	suaMultiplierOff    = 32
	suaNewTimestampOff  = 40
	suaNewMultiplierOff = 48
)

// validMultiplier is try_validate_multiplier: positive and normal.
func validMultiplier(b []byte) error {
	f := math.Float64frombits(binary.LittleEndian.Uint64(b))
	if math.Signbit(f) || f == 0 || math.IsInf(f, 0) || math.IsNaN(f) || math.Abs(f) < 0x1p-1022 {
		return tokenErr(InvalidScale)
	}
	return nil
}

func (e *exec) processScaledUiAmountExtension(rest []byte) error {
	sub, err := subType(rest, 2)
	if err != nil {
		return err
	}
	if sub == 0 {
		e.ctx.ProgramLog("ScaledUiAmountMintInstruction::Initialize")
		if len(rest) != 1+40 {
			return errInvalidInstructionData
		}
		authority, multiplier := rest[1:33], rest[33:41]
		mintRef, err := e.acct(0)
		if err != nil {
			return err
		}
		if err := e.checkOwnedByProgram(mintRef); err != nil {
			return err
		}
		s, err := unpackPodUninitialized(mintRef.mut(), kindMint)
		if err != nil {
			return err
		}
		v, err := s.initExtension(ExtScaledUiAmount, true)
		if err != nil {
			return err
		}
		copy(v, authority)
		if err := validMultiplier(multiplier); err != nil {
			return err
		}
		copy(v[suaMultiplierOff:], multiplier)
		binary.LittleEndian.PutUint64(v[suaNewTimestampOff:], 0)
		copy(v[suaNewMultiplierOff:], multiplier)
		return nil
	}
	e.ctx.ProgramLog("ScaledUiAmountMintInstruction::UpdateScale")
	if len(rest) != 1+16 {
		return errInvalidInstructionData
	}
	multiplier, timestamp := rest[1:9], int64(binary.LittleEndian.Uint64(rest[9:17]))
	v, err := e.authorizedMintExtension(ExtScaledUiAmount, NoAuthorityExists)
	if err != nil {
		return err
	}
	if err := validMultiplier(multiplier); err != nil {
		return err
	}
	now := e.ctx.Clock().UnixTimestamp
	if now >= int64(binary.LittleEndian.Uint64(v[suaNewTimestampOff:])) {
		copy(v[suaMultiplierOff:], v[suaNewMultiplierOff:suaNewMultiplierOff+8])
	}
	copy(v[suaNewMultiplierOff:], multiplier)
	binary.LittleEndian.PutUint64(v[suaNewTimestampOff:], uint64(max(timestamp, 0)))
	if now >= timestamp {
		copy(v[suaMultiplierOff:], multiplier)
	}
	return nil
}

// scaledTotalMultiplier is the multiplier in force at now divided by 10^decimals, as the
// program computes it.
func scaledTotalMultiplier(v []byte, decimals uint8, now int64) float64 {
	m := math.Float64frombits(binary.LittleEndian.Uint64(v[suaMultiplierOff:]))
	if now >= int64(binary.LittleEndian.Uint64(v[suaNewTimestampOff:])) {
		m = math.Float64frombits(binary.LittleEndian.Uint64(v[suaNewMultiplierOff:]))
	}
	return m / numPow(10, int(decimals))
}

// scaledAmountToUiAmount is ScaledUiAmountConfig::amount_to_ui_amount (the program's, which
// scales before rounding to the decimals; the account views truncate first).
func scaledAmountToUiAmount(v []byte, amount uint64, decimals uint8, now int64) string {
	return trimUiAmount(formatRustFixed(float64(amount)*scaledTotalMultiplier(v, decimals, now), decimals), decimals)
}

// scaledUiAmountToAmount is ScaledUiAmountConfig::try_ui_amount_into_amount: the string read
// as an f64, unscaled and truncated.
func scaledUiAmountToAmount(v []byte, ui string, decimals uint8, now int64) (uint64, error) {
	f, err := parseRustF64(ui)
	if err != nil {
		return 0, errInvalidArgument
	}
	amount := f / scaledTotalMultiplier(v, decimals, now)
	if amount > float64(math.MaxUint64) || amount < 0 || math.IsNaN(amount) {
		return 0, errInvalidArgument
	}
	if amount >= float64(math.MaxUint64) {
		return math.MaxUint64, nil
	}
	return uint64(math.Trunc(amount)), nil
}

// ---------------------------------------------------------------------------------------------
// Pausable and PermissionedBurn

func (e *exec) processPausableExtension(rest []byte) error {
	sub, err := subType(rest, 3)
	if err != nil {
		return err
	}
	if sub == 0 {
		e.ctx.ProgramLog("PausableInstruction::Initialize")
		if len(rest) != 1+32 {
			return errInvalidInstructionData
		}
		return e.initializeAuthorityExtension(ExtPausable, core.Pubkey(rest[1:33]))
	}
	pause := sub == 1
	if pause {
		e.ctx.ProgramLog("PausableInstruction::Pause")
	} else {
		e.ctx.ProgramLog("PausableInstruction::Resume")
	}
	v, err := e.authorizedMintExtension(ExtPausable, AuthorityTypeNotSupported)
	if err != nil {
		return err
	}
	v[32] = 0
	if pause {
		v[32] = 1
	}
	return nil
}

// authorizedMintExtension is the mint (account 0, owned by the program) and its extension t, once the
// extension's authority (its first 32 bytes) has signed as account 1 (or through a multisig there);
// noAuthority is the error of an extension without one.
func (e *exec) authorizedMintExtension(t ExtensionType, noAuthority TokenError) ([]byte, error) {
	mintRef, err := e.acct(0)
	if err != nil {
		return nil, err
	}
	if _, err := e.acct(1); err != nil {
		return nil, err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return nil, err
	}
	ms, err := unpackPod(mintRef.mut(), kindMint)
	if err != nil {
		return nil, err
	}
	v, err := ms.extension(t)
	if err != nil {
		return nil, err
	}
	authority := optionalKey(v)
	if !authority.Some {
		return nil, tokenErr(noAuthority)
	}
	if err := e.validateOwner(authority.Value, 1); err != nil {
		return nil, err
	}
	return v, nil
}

// initializeAuthorityExtension initializes Pausable or PermissionedBurn on an uninitialized
// mint with a required (non-zero) authority.
func (e *exec) initializeAuthorityExtension(t ExtensionType, authority core.Pubkey) error {
	mintRef, err := e.acct(0)
	if err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	return e.initializeMintExtension(t, func(v []byte) error { return putOptionalKey(v, Some(authority)) })
}

func (e *exec) processPermissionedBurnExtension(rest []byte) error {
	sub, err := subType(rest, 4)
	if err != nil {
		return err
	}
	switch sub {
	case 0:
		e.ctx.ProgramLog("PermissionedBurnInstruction::Initialize")
		if len(rest) != 1+32 {
			return errInvalidInstructionData
		}
		return e.initializeAuthorityExtension(ExtPermissionedBurn, core.Pubkey(rest[1:33]))
	case 1:
		e.ctx.ProgramLog("PermissionedBurnInstruction::Burn")
		if len(rest) != 1+8 {
			return errInvalidInstructionData
		}
		return e.burn2022(binary.LittleEndian.Uint64(rest[1:]), nil, true)
	case 2:
		e.ctx.ProgramLog("PermissionedBurnInstruction::BurnChecked")
		if len(rest) != 1+9 {
			return errInvalidInstructionData
		}
		decimals := rest[9]
		return e.burn2022(binary.LittleEndian.Uint64(rest[1:]), &decimals, true)
	}
	e.ctx.ProgramLog("PermissionedBurnInstruction::ConfidentialBurn")
	return e.confidentialBurn(rest, true)
}

// ---------------------------------------------------------------------------------------------
// The confidential extensions' instructions: the mints' configuration, account approval and
// the credit switches here; configuring, emptying, depositing to, withdrawing from and
// transferring between confidential accounts (with or without a fee) and applying pending
// balances in t22_confidential.go; harvesting and withdrawing encrypted fees, confidential
// mints and burns and rotating the supply key in t22_confidential_more.go.

// ConfidentialTransferAccount value offsets.
const (
	ctApprovedOff                 = 0
	ctAllowConfidentialCreditsOff = 1 + 32 + 64*3 + 36
)

var confidentialTransferNames = [...]string{"InitializeMint", "UpdateMint", "ConfigureAccount", "ApproveAccount",
	"EmptyAccount", "Deposit", "Withdraw", "Transfer", "ApplyPendingBalance", "EnableConfidentialCredits",
	"DisableConfidentialCredits", "EnableNonConfidentialCredits", "DisableNonConfidentialCredits", "TransferWithFee",
	"ConfigureAccountWithRegistry"}

func (e *exec) processConfidentialTransferExtension(rest []byte) error {
	sub, err := subType(rest, byte(len(confidentialTransferNames)))
	if err != nil {
		return err
	}
	e.ctx.ProgramLog("ConfidentialTransferInstruction::" + confidentialTransferNames[sub])
	switch sub {
	case 0: // InitializeMint: authority, auto-approve, auditor ElGamal key
		if len(rest) != 1+65 {
			return errInvalidInstructionData
		}
		mintRef, err := e.acct(0)
		if err != nil {
			return err
		}
		if err := e.checkOwnedByProgram(mintRef); err != nil {
			return err
		}
		return e.initializeMintExtension(ExtConfidentialTransferMint, func(v []byte) error {
			copy(v, rest[1:66])
			return nil
		})
	case 1: // UpdateMint: auto-approve, auditor ElGamal key
		if len(rest) != 1+33 {
			return errInvalidInstructionData
		}
		mintRef, err := e.acct(0)
		if err != nil {
			return err
		}
		auth, err := e.acct(1)
		if err != nil {
			return err
		}
		if err := e.checkOwnedByProgram(mintRef); err != nil {
			return err
		}
		ms, err := unpackPod(mintRef.mut(), kindMint)
		if err != nil {
			return err
		}
		v, err := ms.extension(ExtConfidentialTransferMint)
		if err != nil {
			return err
		}
		authority := optionalKey(v)
		if !authority.Some {
			return tokenErr(NoAuthorityExists)
		}
		if !auth.signer {
			return errMissingRequiredSignature
		}
		if authority.Value != auth.key {
			return tokenErr(OwnerMismatch)
		}
		copy(v[32:], rest[1:34])
		return nil
	case 2:
		return e.configureAccount(rest)
	case 3:
		return e.approveConfidentialAccount()
	case 4:
		return e.emptyAccount(rest)
	case 5:
		return e.deposit(rest)
	case 6:
		return e.withdraw(rest)
	case 7, 13:
		return e.confidentialTransfer(rest, sub == 13)
	case 8:
		return e.applyPendingBalance(rest)
	case 14:
		return e.configureAccountWithRegistry()
	case 9, 10, 11, 12:
		off := ctAllowConfidentialCreditsOff
		if sub >= 11 {
			off++
		}
		return e.allowCredits(off, sub == 9 || sub == 11)
	}
	return tokenErr(InvalidInstruction)
}

func (e *exec) approveConfidentialAccount() error {
	var account, mintRef, auth *acctRef
	err := e.accts(&account, &mintRef, &auth)
	if err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(account); err != nil {
		return err
	}
	s, err := unpackPod(account.mut(), kindAccount)
	if err != nil {
		return err
	}
	if mintRef.key != readAccountPod(s.base()).Mint {
		return tokenErr(MintMismatch)
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.data, kindMint)
	if err != nil {
		return err
	}
	v, err := ms.extension(ExtConfidentialTransferMint)
	if err != nil {
		return err
	}
	authority := optionalKey(v)
	if !authority.Some {
		return tokenErr(NoAuthorityExists)
	}
	if !auth.signer || auth.key != authority.Value {
		return errMissingRequiredSignature
	}
	ct, err := s.extension(ExtConfidentialTransferAccount)
	if err != nil {
		return err
	}
	ct[ctApprovedOff] = 1
	return nil
}

// allowCredits sets the confidential account flag at off (confidential or non-confidential
// credits) as the account's owner asks.
func (e *exec) allowCredits(off int, allow bool) error {
	account, err := e.acct(0)
	if err != nil {
		return err
	}
	if _, err := e.acct(1); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(account); err != nil {
		return err
	}
	s, err := unpackPod(account.mut(), kindAccount)
	if err != nil {
		return err
	}
	if err := e.validateOwner(readAccountPod(s.base()).Owner, 1); err != nil {
		return err
	}
	ct, err := s.extension(ExtConfidentialTransferAccount)
	if err != nil {
		return err
	}
	ct[off] = 0
	if allow {
		ct[off] = 1
	}
	return nil
}

var confidentialTransferFeeNames = [...]string{"InitializeConfidentialTransferFeeConfig", "WithdrawWithheldTokensFromMint",
	"WithdrawWithheldTokensFromAccounts", "HarvestWithheldTokensToMint", "EnableHarvestToMint", "DisableHarvestToMint"}

// ConfidentialTransferFeeConfig value offsets.
const ctfHarvestToMintOff = 64

func (e *exec) processConfidentialTransferFeeExtension(rest []byte) error {
	sub, err := subType(rest, byte(len(confidentialTransferFeeNames)))
	if err != nil {
		return err
	}
	e.ctx.ProgramLog("ConfidentialTransferFeeInstruction::" + confidentialTransferFeeNames[sub])
	switch sub {
	case 0: // authority, the withdraw-withheld authority's ElGamal key
		if len(rest) != 1+64 {
			return errInvalidInstructionData
		}
		mintRef, err := e.acct(0)
		if err != nil {
			return err
		}
		if err := e.checkOwnedByProgram(mintRef); err != nil {
			return err
		}
		return e.initializeMintExtension(ExtConfidentialTransferFeeConfig, func(v []byte) error {
			copy(v, rest[1:65])
			v[ctfHarvestToMintOff] = 1
			return nil
		})
	case 1:
		return e.ctWithdrawWithheldFromMint(rest)
	case 2:
		return e.ctWithdrawWithheldFromAccounts(rest)
	case 3:
		return e.ctHarvestWithheldToMint()
	case 4, 5:
		v, err := e.authorizedMintExtension(ExtConfidentialTransferFeeConfig, NoAuthorityExists)
		if err != nil {
			return err
		}
		v[ctfHarvestToMintOff] = 0
		if sub == 4 {
			v[ctfHarvestToMintOff] = 1
		}
		return nil
	}
	return tokenErr(InvalidInstruction)
}

var confidentialMintBurnNames = [...]string{"InitializeMint", "RotateSupplyElGamal", "UpdateDecryptableSupply",
	"ConfidentialMint", "ConfidentialBurn", "ApplyPendingBurn"}

// ConfidentialMintBurn value offsets.
const (
	cmbDecryptableSupplyOff = 64
	cmbSupplyPubkeyOff      = 100
)

func (e *exec) processConfidentialMintBurnExtension(rest []byte) error {
	sub, err := subType(rest, byte(len(confidentialMintBurnNames)))
	if err != nil {
		return err
	}
	e.ctx.ProgramLog("ConfidentialMintBurnInstruction::" + confidentialMintBurnNames[sub])
	switch sub {
	case 0: // the supply's ElGamal key, its decryptable (AE) form
		if len(rest) != 1+68 {
			return errInvalidInstructionData
		}
		mintRef, err := e.acct(0)
		if err != nil {
			return err
		}
		if err := e.checkOwnedByProgram(mintRef); err != nil {
			return err
		}
		return e.initializeMintExtension(ExtConfidentialMintBurn, func(v []byte) error {
			copy(v[cmbSupplyPubkeyOff:], rest[1:33])
			copy(v[cmbDecryptableSupplyOff:], rest[33:69])
			return nil
		})
	case 1:
		return e.rotateSupplyElGamalPubkey(rest)
	case 3:
		return e.confidentialMint(rest)
	case 4:
		return e.confidentialBurn(rest, false)
	case 5:
		return e.applyPendingBurn()
	case 2: // the new decryptable supply, by the mint authority
		if len(rest) != 1+36 {
			return errInvalidInstructionData
		}
		mintRef, err := e.acct(0)
		if err != nil {
			return err
		}
		if err := e.checkOwnedByProgram(mintRef); err != nil {
			return err
		}
		ms, err := unpackPod(mintRef.mut(), kindMint)
		if err != nil {
			return err
		}
		v, err := ms.extension(ExtConfidentialMintBurn)
		if err != nil {
			return err
		}
		if _, err := e.acct(1); err != nil {
			return err
		}
		k, ok := readMintPod(ms.base()).MintAuthority.Get()
		if !ok {
			return tokenErr(NoAuthorityExists)
		}
		if err := e.validateOwner(k, 1); err != nil {
			return err
		}
		copy(v[cmbDecryptableSupplyOff:], rest[1:37])
		return nil
	}
	return tokenErr(InvalidInstruction)
}
