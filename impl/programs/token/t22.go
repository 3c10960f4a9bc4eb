package token

import (
	"encoding/binary"
	"strconv"
	"unicode/utf8"

	"ledgerd/impl/core"
)

// Token-2022's instruction data is decoded per instruction after its log line, with exact
// lengths (InvalidInstructionData otherwise), as the program's Pod decoding does.

// podData returns the data after the tag, which must be exactly n bytes.
func podData(data []byte, n int) ([]byte, error) {
	if len(data) != n+1 {
		return nil, errInvalidInstructionData
	}
	return data[1:], nil
}

// podDataWithCOptionKey returns the n bytes after the tag and the COption<Pubkey> after them
// (trailing bytes are ignored there).
func podDataWithCOptionKey(data []byte, n int) ([]byte, COption[core.Pubkey], error) {
	if len(data) < n+1 {
		return nil, COption[core.Pubkey]{}, errInvalidInstructionData
	}
	rest := data[n+1:]
	switch {
	case len(rest) >= 1 && rest[0] == 0:
		return data[1 : n+1], COption[core.Pubkey]{}, nil
	case len(rest) >= 33 && rest[0] == 1:
		return data[1 : n+1], Some(core.Pubkey(rest[1:33])), nil
	}
	return nil, COption[core.Pubkey]{}, errInvalidInstructionData
}

// supported2022 reports whether the byte is a Token-2022 instruction tag (Batch is handled
// before it, and is refused within a Batch).
func supported2022(tag Kind) bool {
	return tag < numTags
}

// transferMode selects Transfer, TransferChecked or TransferCheckedWithFee.
type transferMode struct {
	checked  bool
	decimals uint8
	withFee  bool
	fee      uint64
}

// process2022 is Token-2022's Processor::process: a Batch runs its inner instructions, any
// other data is one instruction.
func (e *exec) process2022(data []byte) error {
	if len(data) > 0 && Kind(data[0]) == KindBatch {
		e.ctx.ProgramLog("Instruction: Batch")
		return e.processBatch(data[1:])
	}
	return e.process2022Inner(data)
}

// process2022Inner is Processor::_process_inner: a token instruction, else a token-metadata
// interface instruction, else a token-group interface instruction. A Batch inside a Batch is
// InvalidInstruction.
func (e *exec) process2022Inner(data []byte) error {
	if len(data) == 0 || !supported2022(Kind(data[0])) {
		if len(data) > 0 && (Kind(data[0]) < numTags || Kind(data[0]) == KindBatch) {
			return tokenErr(InvalidInstruction)
		}
		if len(data) >= tokenMetadataDiscrimLen {
			if ix, ok := decodeMetadataInstruction(data); ok {
				return e.processTokenMetadata(&ix)
			}
			if ix, ok := decodeGroupInstruction(data); ok {
				return e.processTokenGroup(&ix)
			}
		}
		return tokenErr(InvalidInstruction)
	}
	tag := Kind(data[0])
	switch tag {
	case KindTransferFeeExtension:
		return e.processTransferFeeExtension(data[1:])
	case KindDefaultAccountStateExtension:
		return e.processDefaultAccountStateExtension(data[1:])
	case KindMemoTransferExtension:
		return e.processToggleExtension(data[1:], ExtMemoTransfer)
	case KindCpiGuardExtension:
		return e.processToggleExtension(data[1:], ExtCpiGuard)
	case KindInterestBearingMintExtension:
		return e.processInterestBearingExtension(data[1:])
	case KindMetadataPointerExtension:
		return e.processMetadataPointerExtension(data[1:])
	case KindTransferHookExtension:
		return e.processPointerExtension(data[1:], ExtTransferHook)
	case KindGroupPointerExtension:
		return e.processPointerExtension(data[1:], ExtGroupPointer)
	case KindGroupMemberPointerExtension:
		return e.processPointerExtension(data[1:], ExtGroupMemberPointer)
	case KindConfidentialTransferExtension:
		return e.processConfidentialTransferExtension(data[1:])
	case KindConfidentialTransferFeeExtension:
		return e.processConfidentialTransferFeeExtension(data[1:])
	}
	e.ctx.ProgramLog("Instruction: " + tag.String())
	switch tag {
	case KindInitializeMint, KindInitializeMint2:
		b, freeze, err := podDataWithCOptionKey(data, 33)
		if err != nil {
			return err
		}
		return e.initializeMint2022(b[0], core.Pubkey(b[1:33]), freeze, tag == KindInitializeMint)
	case KindInitializeAccount:
		return e.initializeAccount2022(nil, true)
	case KindInitializeAccount2, KindInitializeAccount3:
		b, err := podData(data, 32)
		if err != nil {
			return err
		}
		owner := core.Pubkey(b)
		return e.initializeAccount2022(&owner, tag == KindInitializeAccount2)
	case KindInitializeMultisig, KindInitializeMultisig2:
		b, err := podData(data, 1)
		if err != nil {
			return err
		}
		return e.initializeMultisig2022(b[0], tag == KindInitializeMultisig)
	case KindTransfer, KindApprove, KindMintTo, KindBurn, KindAmountToUiAmount:
		b, err := podData(data, 8)
		if err != nil {
			return err
		}
		amount := binary.LittleEndian.Uint64(b)
		switch tag {
		case KindTransfer:
			return e.transfer2022(amount, transferMode{})
		case KindApprove:
			return e.approve2022(amount, nil)
		case KindMintTo:
			return e.mintTo2022(amount, nil)
		case KindBurn:
			return e.burn2022(amount, nil, false)
		}
		return e.amountToUiAmount2022(amount)
	case KindTransferChecked, KindApproveChecked, KindMintToChecked, KindBurnChecked:
		b, err := podData(data, 9)
		if err != nil {
			return err
		}
		amount, decimals := binary.LittleEndian.Uint64(b), b[8]
		switch tag {
		case KindTransferChecked:
			return e.transfer2022(amount, transferMode{checked: true, decimals: decimals})
		case KindApproveChecked:
			return e.approve2022(amount, &decimals)
		case KindMintToChecked:
			return e.mintTo2022(amount, &decimals)
		}
		return e.burn2022(amount, &decimals, false)
	case KindRevoke:
		return e.revoke2022()
	case KindSetAuthority:
		b, newAuthority, err := podDataWithCOptionKey(data, 1)
		if err != nil {
			return err
		}
		if AuthorityType(b[0]) >= numAuthorityTypes {
			return tokenErr(InvalidInstruction)
		}
		return e.setAuthority2022(AuthorityType(b[0]), newAuthority)
	case KindCloseAccount:
		return e.closeAccount2022()
	case KindFreezeAccount, KindThawAccount:
		return e.toggleFreeze2022(tag == KindFreezeAccount)
	case KindSyncNative:
		return e.syncNative2022()
	case KindGetAccountDataSize:
		types, err := extensionTypesFrom(data[1:])
		if err != nil {
			return err
		}
		return e.getAccountDataSize2022(types)
	case KindInitializeImmutableOwner:
		return e.initializeImmutableOwner2022()
	case KindUiAmountToAmount:
		if !utf8.Valid(data[1:]) {
			return tokenErr(InvalidInstruction)
		}
		return e.uiAmountToAmount2022(string(data[1:]))
	case KindInitializeMintCloseAuthority:
		_, closeAuthority, err := podDataWithCOptionKey(data, 0)
		if err != nil {
			return err
		}
		return e.initializeMintExtension(ExtMintCloseAuthority, func(v []byte) error {
			return putOptionalKey(v, closeAuthority)
		})
	case KindReallocate:
		types, err := extensionTypesFrom(data[1:])
		if err != nil {
			return err
		}
		return e.reallocate2022(types)
	case KindInitializeNonTransferableMint:
		return e.initializeMintExtension(ExtNonTransferable, nil)
	case KindInitializePermanentDelegate:
		b, err := podData(data, 32)
		if err != nil {
			return err
		}
		return e.initializeMintExtension(ExtPermanentDelegate, func(v []byte) error {
			return putOptionalKey(v, Some(core.Pubkey(b)))
		})
	case KindCreateNativeMint:
		return e.createNativeMint()
	case KindWithdrawExcessLamports:
		return e.withdrawExcessLamports()
	case KindScaledUiAmountExtension:
		return e.processScaledUiAmountExtension(data[1:])
	case KindPausableExtension:
		return e.processPausableExtension(data[1:])
	case KindPermissionedBurnExtension:
		return e.processPermissionedBurnExtension(data[1:])
	case KindConfidentialMintBurnExtension:
		return e.processConfidentialMintBurnExtension(data[1:])
	case KindUnwrapLamports:
		amount, err := coptionU64After(data)
		if err != nil {
			return err
		}
		return e.unwrapLamports(amount)
	}
	return tokenErr(InvalidInstruction)
}

// putOptionalKey stores an authority in an OptionalNonZeroPubkey: setting the zero key is
// InvalidArgument.
func putOptionalKey(dst []byte, k COption[core.Pubkey]) error {
	if k.Some && k.Value == (core.Pubkey{}) {
		return errInvalidArgument
	}
	if k.Some {
		copy(dst[:32], k.Value[:])
	} else {
		clear(dst[:32])
	}
	return nil
}

// inCPI reports whether the program runs in a cross-program invocation.
func (e *exec) inCPI() bool { return e.ctx.StackHeight() > 1 }

// Pod base-state writers for Token-2022: only the fields an instruction sets are written.

func setAccountAmount(b []byte, v uint64) { binary.LittleEndian.PutUint64(b[accAmountOff:], v) }
func setDelegatedAmount(b []byte, v uint64) {
	binary.LittleEndian.PutUint64(b[accDelegatedAmtOff:], v)
}
func setMintSupply(b []byte, v uint64) { binary.LittleEndian.PutUint64(b[mintSupplyOff:], v) }

func (e *exec) initializeMint2022(decimals uint8, mintAuthority core.Pubkey, freeze COption[core.Pubkey], rentAccount bool) error {
	mint, err := e.acct(0)
	if err != nil {
		return err
	}
	rent, err := e.rent(rentAccount, 1)
	if err != nil {
		return err
	}
	if !rent.IsExempt(mint.lamports, uint64(len(mint.data))) {
		return tokenErr(NotRentExempt)
	}
	s, err := unpackPodUninitialized(mint.mut(), kindMint)
	if err != nil {
		return err
	}
	types, err := extensionTypes(s.tlv())
	if err != nil {
		return err
	}
	n, err := calculateAccountLen(kindMint, types)
	if err != nil {
		return err
	}
	if n != len(s.data) {
		return errInvalidAccountData
	}
	if err := checkMintExtensionCombinations(types); err != nil {
		return err
	}
	if v, err := s.extension(ExtDefaultAccountState); err == nil {
		if v[0] > byte(StateFrozen) {
			return errInvalidAccountData
		}
		if AccountState(v[0]) == StateFrozen && !freeze.Some {
			return tokenErr(MintCannotFreeze)
		}
	}
	b := s.base()
	putCOptionKey(b[mintAuthorityOff:], Some(mintAuthority), true)
	b[mintDecimalsOff] = decimals
	b[mintInitializedOff] = 1
	putCOptionKey(b[mintFreezeOff:], freeze, true)
	return s.initAccountType()
}

// checkMintExtensionCombinations rejects the combinations the program forbids.
func checkMintExtensionCombinations(types []ExtensionType) error {
	var has [numExtensionTypes]bool
	for _, t := range types {
		if t.Valid() {
			has[t] = true
		}
	}
	bad := (has[ExtConfidentialTransferFeeConfig] && !(has[ExtTransferFeeConfig] && has[ExtConfidentialTransferMint])) ||
		(has[ExtTransferFeeConfig] && has[ExtConfidentialTransferMint] && !has[ExtConfidentialTransferFeeConfig]) ||
		(has[ExtConfidentialMintBurn] && !has[ExtConfidentialTransferMint]) ||
		(has[ExtScaledUiAmount] && has[ExtInterestBearingConfig]) ||
		(has[ExtNonTransferable] && has[ExtConfidentialTransferMint] && !has[ExtConfidentialMintBurn])
	if bad {
		return tokenErr(InvalidExtensionCombination)
	}
	return nil
}

// requiredAccountExtensionsOf lists the account extensions a mint's extensions require.
func requiredAccountExtensionsOf(ms *extState) ([]ExtensionType, error) {
	mintTypes, err := extensionTypes(ms.tlv())
	if err != nil {
		return nil, err
	}
	var out []ExtensionType
	for _, t := range mintTypes {
		out = append(out, requiredAccountExtensions(t)...)
	}
	return out, nil
}

func (e *exec) initializeAccount2022(ownerArg *core.Pubkey, rentAccount bool) error {
	var account, mint *acctRef
	err := e.accts(&account, &mint)
	if err != nil {
		return err
	}
	next := 2
	var owner core.Pubkey
	if ownerArg != nil {
		owner = *ownerArg
	} else {
		o, err := e.acct(2)
		if err != nil {
			return err
		}
		owner = o.key
		next = 3
	}
	rent, err := e.rent(rentAccount, next)
	if err != nil {
		return err
	}
	s, err := unpackPodUninitialized(account.mut(), kindAccount)
	if err != nil {
		return err
	}
	if !rent.IsExempt(account.lamports, uint64(len(s.data))) {
		return tokenErr(NotRentExempt)
	}
	// The mint's owner is checked before its data (Token-2022 11.0.0 answers IncorrectProgramId for an
	// address holding nothing, not InvalidMint).
	if mint.owner != Program2022ID {
		return errIncorrectProgramID
	}
	ms, err := unpackPod(mint.data, kindMint)
	if err != nil {
		return tokenErr(InvalidMint)
	}
	if v, err := ms.extension(ExtPermanentDelegate); err == nil && optionalKey(v).Some {
		e.ctx.ProgramLog("Warning: Mint has a permanent delegate, so tokens in this account may be seized at any time")
	}
	required, err := requiredAccountExtensionsOf(&ms)
	if err != nil {
		return err
	}
	n, err := calculateAccountLen(kindAccount, required)
	if err != nil {
		return err
	}
	if n > len(s.data) {
		return errInvalidAccountData
	}
	for _, t := range required {
		if _, err := s.initExtension(t, true); err != nil {
			return err
		}
	}
	state := StateInitialized
	if v, err := ms.extension(ExtDefaultAccountState); err == nil {
		if v[0] > byte(StateFrozen) {
			return errInvalidAccountData
		}
		state = AccountState(v[0])
	}
	b := s.base()
	copy(b[accMintOff:], mint.key[:])
	copy(b[accOwnerOff:], owner[:])
	putCOptionKey(b[accCloseAuthorityOff:], COption[core.Pubkey]{}, true)
	putCOptionKey(b[accDelegateOff:], COption[core.Pubkey]{}, true)
	setDelegatedAmount(b, 0)
	b[accStateOff] = byte(state)
	if mint.key == NativeMint2022 {
		reserve := rent.MinimumBalance(uint64(len(s.data)))
		putCOptionU64(b[accIsNativeOff:], Some(reserve), true)
		amount, err := subU64(account.lamports, reserve)
		if err != nil {
			return err
		}
		setAccountAmount(b, amount)
	} else {
		putCOptionU64(b[accIsNativeOff:], COption[uint64]{}, true)
		setAccountAmount(b, 0)
	}
	return s.initAccountType()
}

func (e *exec) initializeMultisig2022(m uint8, rentAccount bool) error {
	ms, err := e.acct(0)
	if err != nil {
		return err
	}
	rent, err := e.rent(rentAccount, 1)
	if err != nil {
		return err
	}
	firstSigner := 1
	if rentAccount {
		firstSigner = 2
	}
	if len(ms.data) != MultisigSize {
		return errInvalidArgument
	}
	if ms.data[2] != 0 {
		return tokenErr(AlreadyInUse)
	}
	if !rent.IsExempt(ms.lamports, uint64(len(ms.data))) {
		return tokenErr(NotRentExempt)
	}
	d := ms.mut()
	n := uint8(max(e.numAccounts()-firstSigner, 0))
	d[0], d[1] = m, n
	if !isValidSignerIndex(int(n)) {
		return tokenErr(InvalidNumberOfProvidedSigners)
	}
	if !isValidSignerIndex(int(m)) {
		return tokenErr(InvalidNumberOfRequiredSigners)
	}
	for i := range int(n) {
		k := e.key(firstSigner + i)
		copy(d[3+32*i:], k[:])
	}
	d[2] = 1
	return nil
}

// permanentDelegate returns the mint's permanent delegate, if set.
func permanentDelegate(ms *extState) COption[core.Pubkey] {
	if v, err := ms.extension(ExtPermanentDelegate); err == nil {
		return optionalKey(v)
	}
	return COption[core.Pubkey]{}
}

// mintPaused reports a paused Pausable mint.
func mintPaused(ms *extState) bool {
	v, err := ms.extension(ExtPausable)
	return err == nil && v[32] != 0
}

// memoRequired reports whether an account requires memos on incoming transfers.
func memoRequired(s *extState) bool {
	v, err := s.extension(ExtMemoTransfer)
	return err == nil && v[0] != 0
}

// cpiGuardLocked reports whether the account's CPI Guard is on.
func cpiGuardLocked(s *extState) bool {
	v, err := s.extension(ExtCpiGuard)
	return err == nil && v[0] != 0
}

// checkPreviousSiblingIsMemo fails with NoMemo unless the instruction processed just before
// this one, at the same stack height, is a memo.
func (e *exec) checkPreviousSiblingIsMemo() error {
	if ix, ok := e.ctx.ProcessedSiblingInstruction(0); ok &&
		(ix.ProgramID == core.MemoProgramID || ix.ProgramID == core.MemoV1ProgramID) {
		return nil
	}
	return tokenErr(NoMemo)
}

// ctAllowNonConfidentialCreditsOff is allow_non_confidential_credits in a
// ConfidentialTransferAccount.
const ctAllowNonConfidentialCreditsOff = 1 + 32 + 64*3 + 36 + 1

func (e *exec) transfer2022(amount uint64, mode transferMode) error {
	src, err := e.acct(0)
	if err != nil {
		return err
	}
	next := 1
	var mintRef *acctRef
	if mode.checked {
		if mintRef, err = e.acct(1); err != nil {
			return err
		}
		next = 2
	}
	dst, err := e.acct(next)
	if err != nil {
		return err
	}
	authIdx := next + 1
	auth, err := e.acct(authIdx)
	if err != nil {
		return err
	}
	// 11.0.0 checks both token accounts' owner before reading either.
	if err := e.checkOwnedByProgram(src); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(dst); err != nil {
		return err
	}
	ss, err := unpackPod(src.mut(), kindAccount)
	if err != nil {
		return err
	}
	source := readAccountPod(ss.base())
	if source.IsFrozen() {
		return tokenErr(AccountFrozen)
	}
	if source.Amount < amount {
		return tokenErr(InsufficientFunds)
	}
	if ss.has(ExtNonTransferableAccount) {
		return tokenErr(NonTransferable)
	}
	var fee uint64
	var pd, hook COption[core.Pubkey]
	if mode.checked {
		if err := e.checkOwnedByProgram(mintRef); err != nil {
			return err
		}
		if source.Mint != mintRef.key {
			return tokenErr(MintMismatch)
		}
		ms, err := unpackPod(mintRef.data, kindMint)
		if err != nil {
			return err
		}
		if mode.decimals != ms.base()[mintDecimalsOff] {
			return tokenErr(MintDecimalsMismatch)
		}
		if v, err := ms.extension(ExtTransferFeeConfig); err == nil {
			cfg := decodeTransferFeeConfig(v)
			f, ok := cfg.EpochFee(e.ctx.Clock().Epoch).Fee(amount)
			if !ok {
				return tokenErr(Overflow)
			}
			fee = f
		}
		if mintPaused(&ms) {
			return tokenErr(MintPaused)
		}
		pd = permanentDelegate(&ms)
		if v, err := ms.extension(ExtTransferHook); err == nil {
			hook = optionalKey(v[32:])
		}
	} else if ss.has(ExtTransferHookAccount) || ss.has(ExtTransferFeeAmount) || ss.has(ExtPausableAccount) {
		return tokenErr(MintRequiredForTransfer)
	}
	if mode.withFee && fee != mode.fee {
		// The real program passes this text to msg! as a single string, so the braces are logged as they are.
		e.ctx.ProgramLog("Calculated fee {calculated_fee}, received {fee}")
		return tokenErr(FeeMismatch)
	}
	selfTransfer := src.key == dst.key
	if auth.key == source.Owner && cpiGuardLocked(&ss) && e.inCPI() {
		return tokenErr(CpiGuardTransferBlocked)
	}
	if d, ok := pd.Get(); ok && auth.key == d {
		if err := e.validateOwner(d, authIdx); err != nil {
			return err
		}
	} else if d, ok := source.Delegate.Get(); ok && auth.key == d {
		if err := e.validateOwner(d, authIdx); err != nil {
			return err
		}
		if source.DelegatedAmount < amount {
			return tokenErr(InsufficientFunds)
		}
		if !selfTransfer {
			setDelegatedAmount(ss.base(), source.DelegatedAmount-amount)
			if source.DelegatedAmount == amount {
				putCOptionKey(ss.base()[accDelegateOff:], COption[core.Pubkey]{}, true)
			}
		}
	} else if err := e.validateOwner(source.Owner, authIdx); err != nil {
		return err
	}
	if selfTransfer {
		if memoRequired(&ss) {
			return e.checkPreviousSiblingIsMemo()
		}
		return nil
	}
	ds, err := unpackPod(dst.mut(), kindAccount)
	if err != nil {
		return err
	}
	dest := readAccountPod(ds.base())
	if dest.IsFrozen() {
		return tokenErr(AccountFrozen)
	}
	if source.Mint != dest.Mint {
		return tokenErr(MintMismatch)
	}
	if memoRequired(&ds) {
		if err := e.checkPreviousSiblingIsMemo(); err != nil {
			return err
		}
	}
	if v, err := ds.extension(ExtConfidentialTransferAccount); err == nil && v[ctAllowNonConfidentialCreditsOff] == 0 {
		return tokenErr(NonConfidentialTransfersDisabled)
	}
	setAccountAmount(ss.base(), source.Amount-amount)
	credited, err := subU64(amount, fee)
	if err != nil {
		return err
	}
	newDest, err := addU64(dest.Amount, credited)
	if err != nil {
		return err
	}
	setAccountAmount(ds.base(), newDest)
	if fee > 0 {
		v, err := ds.extension(ExtTransferFeeAmount)
		if err != nil {
			return tokenErr(InvalidState)
		}
		withheld, err := addU64(binary.LittleEndian.Uint64(v), fee)
		if err != nil {
			return err
		}
		binary.LittleEndian.PutUint64(v, withheld)
	}
	if source.IsNative.Some {
		if src.lamports, err = subU64(src.lamports, amount); err != nil {
			return err
		}
		if dst.lamports, err = addU64(dst.lamports, amount); err != nil {
			return err
		}
	}
	if program, ok := hook.Get(); ok {
		return e.executeTransferHook(program, &ss, &ds, next, authIdx, amount)
	}
	return nil
}

// executeTransferHook marks both accounts as transferring, runs the hook program and clears
// the marks (the accounts at 0 and dstIdx, the mint at 1).
func (e *exec) executeTransferHook(program core.Pubkey, ss, ds *extState, dstIdx, authIdx int, amount uint64) error {
	if err := setTransferring(ss, true); err != nil {
		return err
	}
	if err := setTransferring(ds, true); err != nil {
		return err
	}
	if err := e.invokeTransferHook(program, 0, 1, dstIdx, authIdx, amount); err != nil {
		return err
	}
	for _, i := range []int{0, dstIdx} {
		r, err := e.acct(i)
		if err != nil {
			return err
		}
		s, err := unpackPod(r.mut(), kindAccount)
		if err != nil {
			return err
		}
		if err := setTransferring(&s, false); err != nil {
			return err
		}
	}
	return nil
}

func (e *exec) approve2022(amount uint64, decimals *uint8) error {
	src, err := e.acct(0)
	if err != nil {
		return err
	}
	// 11.0.0 checks the source's owner before taking the other accounts.
	if err := e.checkOwnedByProgram(src); err != nil {
		return err
	}
	next := 1
	var mintRef *acctRef
	if decimals != nil {
		if mintRef, err = e.acct(1); err != nil {
			return err
		}
		next = 2
	}
	delegate, err := e.acct(next)
	if err != nil {
		return err
	}
	ownerIdx := next + 1
	if _, err := e.acct(ownerIdx); err != nil {
		return err
	}
	ss, err := unpackPod(src.mut(), kindAccount)
	if err != nil {
		return err
	}
	source := readAccountPod(ss.base())
	if source.IsFrozen() {
		return tokenErr(AccountFrozen)
	}
	if decimals != nil {
		if err := e.checkOwnedByProgram(mintRef); err != nil {
			return err
		}
		if source.Mint != mintRef.key {
			return tokenErr(MintMismatch)
		}
		ms, err := unpackPod(mintRef.data, kindMint)
		if err != nil {
			return err
		}
		if *decimals != ms.base()[mintDecimalsOff] {
			return tokenErr(MintDecimalsMismatch)
		}
	}
	if err := e.validateOwner(source.Owner, ownerIdx); err != nil {
		return err
	}
	if cpiGuardLocked(&ss) && e.inCPI() {
		return tokenErr(CpiGuardApproveBlocked)
	}
	putCOptionKey(ss.base()[accDelegateOff:], Some(delegate.key), true)
	setDelegatedAmount(ss.base(), amount)
	return nil
}

func (e *exec) revoke2022() error {
	var src, auth *acctRef
	err := e.accts(&src, &auth)
	if err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(src); err != nil {
		return err
	}
	ss, err := unpackPod(src.mut(), kindAccount)
	if err != nil {
		return err
	}
	source := readAccountPod(ss.base())
	if source.IsFrozen() {
		return tokenErr(AccountFrozen)
	}
	expected := source.Owner
	if d, ok := source.Delegate.Get(); ok && auth.key == d {
		expected = d
	}
	if err := e.validateOwner(expected, 1); err != nil {
		return err
	}
	putCOptionKey(ss.base()[accDelegateOff:], COption[core.Pubkey]{}, true)
	setDelegatedAmount(ss.base(), 0)
	return nil
}

// mintAuthorityField locates the authority SetAuthority changes for an authority type that
// lives in a mint extension: the extension and the offset of the authority in it.
func mintAuthorityField(t AuthorityType) (ExtensionType, int, bool) {
	switch t {
	case AuthorityCloseMint:
		return ExtMintCloseAuthority, 0, true
	case AuthorityTransferFeeConfig:
		return ExtTransferFeeConfig, 0, true
	case AuthorityWithheldWithdraw:
		return ExtTransferFeeConfig, 32, true
	case AuthorityInterestRate:
		return ExtInterestBearingConfig, 0, true
	case AuthorityPermanentDelegate:
		return ExtPermanentDelegate, 0, true
	case AuthorityConfidentialTransferMint:
		return ExtConfidentialTransferMint, 0, true
	case AuthorityTransferHookProgramID:
		return ExtTransferHook, 0, true
	case AuthorityConfidentialTransferFeeConfig:
		return ExtConfidentialTransferFeeConfig, 0, true
	case AuthorityMetadataPointer:
		return ExtMetadataPointer, 0, true
	case AuthorityGroupPointer:
		return ExtGroupPointer, 0, true
	case AuthorityGroupMemberPointer:
		return ExtGroupMemberPointer, 0, true
	case AuthorityScaledUiAmount:
		return ExtScaledUiAmount, 0, true
	case AuthorityPause:
		return ExtPausable, 0, true
	case AuthorityPermissionedBurn:
		return ExtPermissionedBurn, 0, true
	}
	return 0, 0, false
}

func (e *exec) setAuthority2022(typ AuthorityType, newAuthority COption[core.Pubkey]) error {
	target, err := e.acct(0)
	if err != nil {
		return err
	}
	if _, err := e.acct(1); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(target); err != nil {
		return err
	}
	d := target.mut()
	if s, err := unpackPod(d, kindAccount); err == nil {
		a := readAccountPod(s.base())
		if a.IsFrozen() {
			return tokenErr(AccountFrozen)
		}
		switch typ {
		case AuthorityAccountOwner:
			if err := e.validateOwner(a.Owner, 1); err != nil {
				return err
			}
			if s.has(ExtImmutableOwner) {
				return tokenErr(ImmutableOwner)
			}
			if cpiGuardLocked(&s) {
				if e.inCPI() {
					return tokenErr(CpiGuardSetAuthorityBlocked)
				}
				return tokenErr(CpiGuardOwnerChangeBlocked)
			}
			k, ok := newAuthority.Get()
			if !ok {
				return tokenErr(InvalidInstruction)
			}
			b := s.base()
			copy(b[accOwnerOff:], k[:])
			putCOptionKey(b[accDelegateOff:], COption[core.Pubkey]{}, true)
			setDelegatedAmount(b, 0)
			if a.IsNative.Some {
				putCOptionKey(b[accCloseAuthorityOff:], COption[core.Pubkey]{}, true)
			}
		case AuthorityCloseAccount:
			authority := a.Owner
			if k, ok := a.CloseAuthority.Get(); ok {
				authority = k
			}
			if err := e.validateOwner(authority, 1); err != nil {
				return err
			}
			if cpiGuardLocked(&s) && e.inCPI() && newAuthority.Some {
				return tokenErr(CpiGuardSetAuthorityBlocked)
			}
			putCOptionKey(s.base()[accCloseAuthorityOff:], newAuthority, true)
		default:
			return tokenErr(AuthorityTypeNotSupported)
		}
		return nil
	}
	s, err := unpackPod(d, kindMint)
	if err != nil {
		return errInvalidAccountData
	}
	m := readMintPod(s.base())
	switch typ {
	case AuthorityMintTokens, AuthorityFreezeAccount:
		field, off, missing := m.MintAuthority, mintAuthorityOff, FixedSupply
		if typ == AuthorityFreezeAccount {
			field, off, missing = m.FreezeAuthority, mintFreezeOff, MintCannotFreeze
		}
		k, ok := field.Get()
		if !ok {
			return tokenErr(missing)
		}
		if err := e.validateOwner(k, 1); err != nil {
			return err
		}
		putCOptionKey(s.base()[off:], newAuthority, true)
		return nil
	}
	ext, off, ok := mintAuthorityField(typ)
	if !ok {
		return tokenErr(AuthorityTypeNotSupported)
	}
	v, err := s.extension(ext)
	if err != nil {
		return err
	}
	current := optionalKey(v[off:])
	if !current.Some {
		return tokenErr(AuthorityTypeNotSupported)
	}
	if err := e.validateOwner(current.Value, 1); err != nil {
		return err
	}
	return putOptionalKey(v[off:], newAuthority)
}

func (e *exec) mintTo2022(amount uint64, decimals *uint8) error {
	var mintRef, dst *acctRef
	err := e.accts(&mintRef, &dst)
	if err != nil {
		return err
	}
	if _, err := e.acct(2); err != nil {
		return err
	}
	// 11.0.0 checks the mint's and the destination's owner before reading either (IncorrectProgramId for a
	// closed account, not InvalidAccountData).
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(dst); err != nil {
		return err
	}
	ds, err := unpackPod(dst.mut(), kindAccount)
	if err != nil {
		return err
	}
	dest := readAccountPod(ds.base())
	if dest.IsFrozen() {
		return tokenErr(AccountFrozen)
	}
	if dest.IsNative.Some {
		return tokenErr(NativeNotSupported)
	}
	if mintRef.key != dest.Mint {
		return tokenErr(MintMismatch)
	}
	ms, err := unpackPod(mintRef.mut(), kindMint)
	if err != nil {
		return err
	}
	if ms.has(ExtNonTransferable) && (!ds.has(ExtImmutableOwner) || !ds.has(ExtNonTransferableAccount)) {
		return tokenErr(NonTransferableNeedsImmutableOwnership)
	}
	if mintPaused(&ms) {
		return tokenErr(MintPaused)
	}
	if ms.has(ExtConfidentialMintBurn) {
		return tokenErr(IllegalMintBurnConversion)
	}
	m := readMintPod(ms.base())
	if decimals != nil && *decimals != m.Decimals {
		return tokenErr(MintDecimalsMismatch)
	}
	k, ok := m.MintAuthority.Get()
	if !ok {
		return tokenErr(FixedSupply)
	}
	if err := e.validateOwner(k, 2); err != nil {
		return err
	}
	newAmount, err := addU64(dest.Amount, amount)
	if err != nil {
		return err
	}
	setAccountAmount(ds.base(), newAmount)
	supply, err := addU64(m.Supply, amount)
	if err != nil {
		return err
	}
	setMintSupply(ms.base(), supply)
	return nil
}

// burn2022 is Processor::process_burn: a standard burn, or with permissioned the
// PermissionedBurn extension's, where the mint's permissioned burn authority co-signs (as the
// account after the mint) and the standard burns are refused.
func (e *exec) burn2022(amount uint64, decimals *uint8, permissioned bool) error {
	var src, mintRef *acctRef
	err := e.accts(&src, &mintRef)
	if err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(src); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	authIdx := 2
	var approver *acctRef
	if permissioned {
		if approver, err = e.acct(2); err != nil {
			return err
		}
		authIdx = 3
	}
	auth, err := e.acct(authIdx)
	if err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.mut(), kindMint)
	if err != nil {
		return err
	}
	pbConfig, pbErr := ms.extension(ExtPermissionedBurn)
	var pbAuthority COption[core.Pubkey]
	if pbErr == nil {
		pbAuthority = optionalKey(pbConfig)
	}
	if !permissioned {
		if pbAuthority.Some {
			return tokenErr(InvalidInstruction)
		}
	} else {
		if pbErr != nil {
			return tokenErr(InvalidInstruction)
		}
		if !pbAuthority.Some {
			e.ctx.ProgramLog("Permissioned burn authority is None; use the standard burn")
			return tokenErr(InvalidInstruction)
		}
		if !approver.signer {
			return errMissingRequiredSignature
		}
		if approver.key != pbAuthority.Value {
			return errInvalidAccountData
		}
	}
	ss, err := unpackPod(src.mut(), kindAccount)
	if err != nil {
		return err
	}
	source := readAccountPod(ss.base())
	m := readMintPod(ms.base())
	if source.IsFrozen() {
		return tokenErr(AccountFrozen)
	}
	if source.IsNative.Some {
		return tokenErr(NativeNotSupported)
	}
	if source.Amount < amount {
		return tokenErr(InsufficientFunds)
	}
	if mintRef.key != source.Mint {
		return tokenErr(MintMismatch)
	}
	if decimals != nil && *decimals != m.Decimals {
		return tokenErr(MintDecimalsMismatch)
	}
	if mintPaused(&ms) {
		return tokenErr(MintPaused)
	}
	if ms.has(ExtConfidentialMintBurn) {
		return tokenErr(IllegalMintBurnConversion)
	}
	pd := permanentDelegate(&ms)
	if auth.key == source.Owner && cpiGuardLocked(&ss) && e.inCPI() {
		return tokenErr(CpiGuardBurnBlocked)
	}
	if !isOwnedBySystemOrIncinerator(source.Owner) {
		if d, ok := pd.Get(); ok && auth.key == d {
			if err := e.validateOwner(d, authIdx); err != nil {
				return err
			}
		} else if d, ok := source.Delegate.Get(); ok && auth.key == d {
			if err := e.validateOwner(d, authIdx); err != nil {
				return err
			}
			if source.DelegatedAmount < amount {
				return tokenErr(InsufficientFunds)
			}
			setDelegatedAmount(ss.base(), source.DelegatedAmount-amount)
			if source.DelegatedAmount == amount {
				putCOptionKey(ss.base()[accDelegateOff:], COption[core.Pubkey]{}, true)
			}
		} else if err := e.validateOwner(source.Owner, authIdx); err != nil {
			return err
		}
	}
	setAccountAmount(ss.base(), source.Amount-amount)
	supply, err := subU64(m.Supply, amount)
	if err != nil {
		return err
	}
	setMintSupply(ms.base(), supply)
	return nil
}

// Offsets of the ciphertexts a confidential account must have emptied before closing.
const (
	ctPendingLoOff = 33
	ctAvailableEnd = 33 + 64*3
)

func isZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

func (e *exec) closeAccount2022() error {
	var src, dst *acctRef
	err := e.accts(&src, &dst)
	if err != nil {
		return err
	}
	if _, err := e.acct(2); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(src); err != nil {
		return err
	}
	if src.key == dst.key {
		return errInvalidAccountData
	}
	if s, err := unpackPod(src.data, kindAccount); err == nil {
		a := readAccountPod(s.base())
		if !a.IsNative.Some && a.Amount != 0 {
			return tokenErr(NonNativeHasBalance)
		}
		authority := a.Owner
		if k, ok := a.CloseAuthority.Get(); ok {
			authority = k
		}
		if !isOwnedBySystemOrIncinerator(a.Owner) {
			if cpiGuardLocked(&s) && e.inCPI() && dst.key != a.Owner {
				return tokenErr(CpiGuardCloseAccountBlocked)
			}
			if err := e.validateOwner(authority, 2); err != nil {
				return err
			}
		} else if dst.key != core.IncineratorID {
			return errInvalidAccountData
		}
		if v, err := s.extension(ExtConfidentialTransferAccount); err == nil && !isZero(v[ctPendingLoOff:ctAvailableEnd]) {
			return tokenErr(ConfidentialTransferAccountHasBalance)
		}
		if v, err := s.extension(ExtConfidentialTransferFeeAmount); err == nil && !isZero(v) {
			return tokenErr(ConfidentialTransferFeeAccountHasWithheldFee)
		}
		if v, err := s.extension(ExtTransferFeeAmount); err == nil && binary.LittleEndian.Uint64(v) != 0 {
			return tokenErr(AccountHasWithheldTransferFees)
		}
	} else if ms, err := unpackPod(src.data, kindMint); err == nil {
		v, err := ms.extension(ExtMintCloseAuthority)
		if err != nil {
			return err
		}
		k, ok := optionalKey(v).Get()
		if !ok {
			return tokenErr(AuthorityTypeNotSupported)
		}
		if err := e.validateOwner(k, 2); err != nil {
			return err
		}
		if readMintPod(ms.base()).Supply != 0 {
			return tokenErr(MintHasSupply)
		}
	} else {
		return errUninitializedAccount
	}
	return e.closeInto(src, dst)
}

func (e *exec) toggleFreeze2022(freeze bool) error {
	var src, mintRef *acctRef
	err := e.accts(&src, &mintRef)
	if err != nil {
		return err
	}
	if _, err := e.acct(2); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(src); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ss, err := unpackPod(src.mut(), kindAccount)
	if err != nil {
		return err
	}
	source := readAccountPod(ss.base())
	if freeze == source.IsFrozen() {
		return tokenErr(InvalidState)
	}
	if source.IsNative.Some {
		return tokenErr(NativeNotSupported)
	}
	if mintRef.key != source.Mint {
		return tokenErr(MintMismatch)
	}
	ms, err := unpackPod(mintRef.data, kindMint)
	if err != nil {
		return err
	}
	k, ok := readMintPod(ms.base()).FreezeAuthority.Get()
	if !ok {
		return tokenErr(MintCannotFreeze)
	}
	if err := e.validateOwner(k, 2); err != nil {
		return err
	}
	ss.base()[accStateOff] = byte(StateInitialized)
	if freeze {
		ss.base()[accStateOff] = byte(StateFrozen)
	}
	return nil
}

func (e *exec) syncNative2022() error {
	native, err := e.acct(0)
	if err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(native); err != nil {
		return err
	}
	rent := e.ctx.Rent()
	if e.numAccounts() > 1 {
		if rent, err = e.rentFromAccount(1); err != nil {
			return err
		}
	}
	reserve := rent.MinimumBalance(uint64(len(native.data)))
	s, err := unpackPod(native.mut(), kindAccount)
	if err != nil {
		return err
	}
	if !readAccountPod(s.base()).IsNative.Some {
		return tokenErr(NonNativeNotSupported)
	}
	amount, err := subU64(native.lamports, reserve)
	if err != nil {
		return err
	}
	putCOptionU64(s.base()[accIsNativeOff:], Some(reserve), true)
	setAccountAmount(s.base(), amount)
	return nil
}

func (e *exec) getAccountDataSize2022(types []ExtensionType) error {
	for _, t := range types {
		if t.AccountType() != AccountTypeAccount {
			return tokenErr(ExtensionTypeMismatch)
		}
	}
	mintRef, err := e.acct(0)
	if err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.data, kindMint)
	if err != nil {
		return tokenErr(InvalidMint)
	}
	if mintRef.owner != Program2022ID {
		return errIncorrectProgramID
	}
	required, err := requiredAccountExtensionsOf(&ms)
	if err != nil {
		return err
	}
	n, err := calculateAccountLen(kindAccount, append(required, types...))
	if err != nil {
		return err
	}
	return e.setReturnData(binary.LittleEndian.AppendUint64(nil, uint64(n)))
}

func (e *exec) initializeImmutableOwner2022() error {
	account, err := e.acct(0)
	if err != nil {
		return err
	}
	s, err := unpackPodUninitialized(account.mut(), kindAccount)
	if err != nil {
		return err
	}
	_, err = s.initExtension(ExtImmutableOwner, true)
	return err
}

// uiMint is the mint of the UI amount conversions: owned by Token-2022 and initialized.
func (e *exec) uiMint() (extState, error) {
	mintRef, err := e.acct(0)
	if err != nil {
		return extState{}, err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return extState{}, err
	}
	ms, err := unpackPod(mintRef.data, kindMint)
	if err != nil {
		return extState{}, tokenErr(InvalidMint)
	}
	return ms, nil
}

func (e *exec) amountToUiAmount2022(amount uint64) error {
	ms, err := e.uiMint()
	if err != nil {
		return err
	}
	decimals := ms.base()[mintDecimalsOff]
	ui := AmountToUIAmountStringTrimmed(amount, decimals)
	if v, err := ms.extension(ExtInterestBearingConfig); err == nil {
		cfg := decodeInterestBearingConfig(v)
		s, ok := cfg.AmountToUIAmount(amount, decimals, e.ctx.Clock().UnixTimestamp)
		if !ok {
			return errInvalidArgument
		}
		ui = s
	} else if v, err := ms.extension(ExtScaledUiAmount); err == nil {
		ui = scaledAmountToUiAmount(v, amount, decimals, e.ctx.Clock().UnixTimestamp)
	}
	return e.setReturnData([]byte(ui))
}

func (e *exec) uiAmountToAmount2022(ui string) error {
	ms, err := e.uiMint()
	if err != nil {
		return err
	}
	decimals := ms.base()[mintDecimalsOff]
	var amount uint64
	if v, err := ms.extension(ExtInterestBearingConfig); err == nil {
		cfg := decodeInterestBearingConfig(v)
		amount, err = cfg.UIAmountToAmount(ui, decimals, e.ctx.Clock().UnixTimestamp)
		if err != nil {
			return err
		}
	} else if v, err := ms.extension(ExtScaledUiAmount); err == nil {
		if amount, err = scaledUiAmountToAmount(v, ui, decimals, e.ctx.Clock().UnixTimestamp); err != nil {
			return err
		}
	} else if amount, err = UIAmountToAmount(ui, decimals); err != nil {
		return err
	}
	return e.setReturnData(binary.LittleEndian.AppendUint64(nil, amount))
}

// initializeMintExtension initializes a mint extension on an uninitialized mint and lets set
// fill its value.
func (e *exec) initializeMintExtension(t ExtensionType, set func(v []byte) error) error {
	mint, err := e.acct(0)
	if err != nil {
		return err
	}
	s, err := unpackPodUninitialized(mint.mut(), kindMint)
	if err != nil {
		return err
	}
	v, err := s.initExtension(t, true)
	if err != nil || set == nil {
		return err
	}
	return set(v)
}

func (e *exec) reallocate2022(newTypes []ExtensionType) error {
	var account, payer, system *acctRef
	err := e.accts(&account, &payer, &system)
	if err != nil {
		return err
	}
	if _, err := e.acct(3); err != nil {
		return err
	}
	a, s, err := unpackAccountStrictWithExtensions(account.data)
	if err != nil {
		return err
	}
	if err := e.validateOwner(a.Owner, 3); err != nil {
		return err
	}
	types, err := extensionTypes(s.tlv())
	if err != nil {
		return err
	}
	for _, t := range newTypes {
		if t.AccountType() != AccountTypeAccount {
			return tokenErr(InvalidState)
		}
	}
	needed, err := calculateAccountLen(kindAccount, append(types, newTypes...))
	if err != nil {
		return err
	}
	var nativeAmount uint64
	if a.IsNative.Some {
		nativeAmount = a.Amount
	}
	account, newReserve, grown, err := e.growAccount(account, payer, system.key, needed, nativeAmount)
	if err != nil || !grown {
		return err
	}
	d := account.mut()
	if err := setAccountType(d, kindAccount); err != nil {
		return err
	}
	if a.IsNative.Some {
		a2, _, err := unpackAccountStrictWithExtensions(d)
		if err != nil {
			return err
		}
		minimum, err := addU64(newReserve, nativeAmount)
		if err != nil {
			return err
		}
		if account.lamports < minimum {
			return tokenErr(InvalidState)
		}
		a2.IsNative = Some(newReserve)
		encodeAccount(d[:AccountSize], &a2, false)
	}
	return nil
}

// growAccount resizes the token account at instruction index 0 to needed bytes (nothing when
// it is that long already), the payer funding through systemProgram what the larger
// rent-exempt reserve lacks; held is what of its lamports is not reserve (a native account's
// balance). It returns the account as it is after the transfer, the new reserve, and whether
// the account grew.
func (e *exec) growAccount(account, payer *acctRef, systemProgram core.Pubkey, needed int, held uint64) (*acctRef, uint64, bool, error) {
	if len(account.data) >= needed {
		return account, 0, false, nil
	}
	e.ctx.ProgramLog("account needs resize, +" + strconv.Itoa(needed-len(account.data)) + " bytes")
	if err := account.resize(needed); err != nil {
		return nil, 0, false, err
	}
	reserve := e.ctx.Rent().MinimumBalance(uint64(needed))
	current, err := subU64(account.lamports, held)
	if err != nil {
		return nil, 0, false, err
	}
	if reserve > current {
		transfer := binary.LittleEndian.AppendUint64([]byte{2, 0, 0, 0}, reserve-current)
		if err := e.invoke(core.Instruction{ProgramID: systemProgram, Data: transfer, Accounts: []core.AccountMeta{
			core.WritableSigner(payer.key), core.Writable(account.key),
		}}); err != nil {
			return nil, 0, false, err
		}
		if account, err = e.acct(0); err != nil {
			return nil, 0, false, err
		}
	}
	return account, reserve, true, nil
}

// unpackAccountStrictWithExtensions is StateWithExtensions::<Account>::unpack: the base
// decoded with SPL Token's strict Pack rules.
func unpackAccountStrictWithExtensions(data []byte) (Account, extState, error) {
	if err := checkMinLenAndNotMultisig(data, AccountSize); err != nil {
		return Account{}, extState{}, err
	}
	a, err := decodeAccountStrict(data[:AccountSize])
	if err != nil {
		return Account{}, extState{}, err
	}
	if a.State == StateUninitialized {
		return Account{}, extState{}, errUninitializedAccount
	}
	s, err := splitExtended(data, kindAccount, true)
	return a, s, err
}
