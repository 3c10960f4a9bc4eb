package token

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"

	"github.com/gtank/ristretto255"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/zkproof"
	"ledgerd/impl/runtime"
)

// The confidential transfer instructions that rely on zero-knowledge proofs (ConfigureAccount,
// EmptyAccount, Withdraw, Transfer) and those that move balances between the public amount and
// the encrypted ones (Deposit, ApplyPendingBalance), as Token-2022 runs them. A proof is not
// verified here: the instruction reads the context of a proof the ZK ElGamal proof program
// verified, either in a context-state account that program owns (proof offset 0) or in the
// proof instruction at that offset from this one in the transaction (read through the
// instructions sysvar), then checks that the context is about this account's keys and
// ciphertexts.

// ConfidentialTransferAccount value offsets (the 295-byte extension).
const (
	ctElGamalPubkeyOff        = 1
	ctPendingHiOff            = 97
	ctAvailableOff            = 161
	ctDecryptableOff          = 225
	ctPendingCounterOff       = 263
	ctMaxPendingCounterOff    = 271
	ctExpectedPendingCountOff = 279
	ctActualPendingCountOff   = 287
)

// ConfidentialTransferMint value offsets.
const (
	ctmAutoApproveOff = 32
	ctmAuditorOff     = 33
)

var errUnsupportedSysvar = runtime.ErrUnsupportedSysvar

// maximumDepositAmount is the largest amount Deposit and Transfer move: 48 bits (a 16-bit lo
// and a 32-bit hi half).
const maximumDepositAmount = uint64(math.MaxUint16) + (1<<16)*uint64(math.MaxUint32)

// proofContext returns the context of a proof of type t that the instruction relies on, with
// the program's errors: offset 0 takes the next account as a context-state account of the proof
// program; another offset reads the instruction that far from this one through the
// instructions sysvar (the account at sysvarIdx, or the next one when sysvarIdx < 0).
func (e *exec) proofContext(next *int, offset int64, sysvarIdx int, t zkproof.ProofType) ([]byte, error) {
	if offset == 0 {
		r, err := e.acct(*next)
		if err != nil {
			return nil, err
		}
		*next++
		if r.owner != zkproof.ProgramID {
			return nil, errIncorrectProgramID
		}
		if len(r.data) != 33+zkproof.ContextLen(t) {
			return nil, errInvalidArgument
		}
		if zkproof.ProofType(r.data[32]) != t {
			return nil, errInvalidInstructionData
		}
		return append([]byte(nil), r.data[33:]...), nil
	}
	if sysvarIdx < 0 {
		sysvarIdx = *next
		*next++
	}
	r, err := e.acct(sysvarIdx)
	if err != nil {
		return nil, err
	}
	if r.key != core.SysvarInstructionsID {
		return nil, errUnsupportedSysvar
	}
	current, err := sysvar.LoadCurrentInstructionIndex(r.data)
	if err != nil {
		return nil, errInvalidArgument
	}
	index := int64(current) + offset
	if index < 0 {
		return nil, errInvalidArgument
	}
	ix, err := sysvar.LoadInstructionAt(r.data, int(index))
	if err != nil {
		return nil, errInvalidArgument
	}
	if ix.ProgramID != zkproof.ProgramID || len(ix.Data) == 0 || ix.Data[0] != byte(t) {
		e.ctx.ProgramLog("Unexpected proof instruction")
		return nil, errInvalidInstructionData
	}
	if len(ix.Data) != 1+zkproof.DataLen(t) {
		return nil, errInvalidInstructionData
	}
	return ix.Data[1 : 1+zkproof.ContextLen(t)], nil
}

// proofSysvar is the instructions sysvar account's index when any of the offsets reads a proof
// instruction (it then comes first, before the context-state accounts), else -1.
func (e *exec) proofSysvar(next *int, offsets ...int64) int {
	for _, o := range offsets {
		if o != 0 {
			*next++
			return *next - 1
		}
	}
	return -1
}

// proofContexts reads the proofs an instruction relies on, one of each of types at the offset
// of the same index (see proofContext), after the instructions sysvar account when any of them
// is read through it.
func (e *exec) proofContexts(next *int, offsets []int64, types ...zkproof.ProofType) ([][]byte, error) {
	sysvarIdx := e.proofSysvar(next, offsets...)
	if sysvarIdx >= 0 {
		if _, err := e.acct(sysvarIdx); err != nil {
			return nil, err
		}
	}
	out := make([][]byte, len(types))
	for i, t := range types {
		var err error
		if out[i], err = e.proofContext(next, offsets[i], sysvarIdx, t); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// validAsDestination checks that a confidential account may be credited once more.
func validAsDestination(ct []byte) error {
	if ct[ctApprovedOff] == 0 {
		return tokenErr(ConfidentialTransferAccountNotApproved)
	}
	if ct[ctAllowConfidentialCreditsOff] == 0 {
		return tokenErr(ConfidentialTransferDepositsAndTransfersDisabled)
	}
	counter := binary.LittleEndian.Uint64(ct[ctPendingCounterOff:])
	if counter == math.MaxUint64 {
		return tokenErr(Overflow)
	}
	if counter+1 > binary.LittleEndian.Uint64(ct[ctMaxPendingCounterOff:]) {
		return tokenErr(MaximumPendingBalanceCreditCounterExceeded)
	}
	return nil
}

func incrementPendingCounter(ct []byte) error {
	counter := binary.LittleEndian.Uint64(ct[ctPendingCounterOff:])
	if counter == math.MaxUint64 {
		return tokenErr(Overflow)
	}
	binary.LittleEndian.PutUint64(ct[ctPendingCounterOff:], counter+1)
	return nil
}

// creditPending adds an amount's lo and hi ciphertexts to the pending balance of a confidential
// account (ct, its ConfidentialTransferAccount) and counts the credit.
func creditPending(ct, lo, hi []byte) error {
	pendingLo, ok := ciphertextAdd(ct[ctPendingLoOff:ctPendingLoOff+64], lo)
	if !ok {
		return tokenErr(CiphertextArithmeticFailed)
	}
	pendingHi, ok := ciphertextAdd(ct[ctPendingHiOff:ctPendingHiOff+64], hi)
	if !ok {
		return tokenErr(CiphertextArithmeticFailed)
	}
	copy(ct[ctPendingLoOff:], pendingLo[:])
	copy(ct[ctPendingHiOff:], pendingHi[:])
	return incrementPendingCounter(ct)
}

// configureAccount adds the ConfidentialTransferAccount extension (the account must have room
// for it), with the ElGamal key a pubkey-validity proof vouches for.
func (e *exec) configureAccount(rest []byte) error {
	if len(rest) != 1+36+8+1 {
		return errInvalidInstructionData
	}
	var account, mintRef *acctRef
	if err := e.accts(&account, &mintRef); err != nil {
		return err
	}
	next := 2
	proof, err := e.proofContext(&next, int64(int8(rest[45])), -1, zkproof.PubkeyValidity)
	if err != nil {
		return err
	}
	return e.configure(account, mintRef, proof[:32], rest[1:37], rest[37:45], func(owner core.Pubkey) error {
		if _, err := e.acct(next); err != nil {
			return err
		}
		return e.validateOwner(owner, next)
	})
}

// elgamalRegistryProgramID owns the accounts that register an owner's ElGamal key (owner 32
// bytes, then the key).
var elgamalRegistryProgramID = core.MustParsePubkey("regVYJW7tcT8zipN5YiBvHsvR5jXW1uLFxaHSbugABg")

// configureAccountWithRegistry configures the account with the key of the owner's ElGamal
// registry account (account 2), growing the account first when a payer (account 3) and the
// system program (account 4) follow. The registry's owner stands for the account owner's
// signature.
func (e *exec) configureAccountWithRegistry() error {
	var account, mintRef, registry *acctRef
	if err := e.accts(&account, &mintRef, &registry); err != nil {
		return err
	}
	if registry.owner != elgamalRegistryProgramID {
		return errIncorrectProgramID
	}
	if e.numAccounts() > 3 {
		payer, err := e.acct(3)
		if err != nil {
			return err
		}
		if _, err := e.acct(4); err != nil {
			return err
		}
		if err := e.growForConfidential(account, payer); err != nil {
			return err
		}
		if account, err = e.acct(0); err != nil {
			return err
		}
	}
	if len(registry.data) != 64 {
		return errInvalidArgument
	}
	registryOwner := core.Pubkey(registry.data[:32])
	return e.configure(account, mintRef, registry.data[32:64], make([]byte, 36), u64Bytes(65536), func(owner core.Pubkey) error {
		if registryOwner != owner {
			return tokenErr(OwnerMismatch)
		}
		return nil
	})
}

// growForConfidential resizes a token account to hold ConfidentialTransferAccount (and
// ConfidentialTransferFeeAmount beside a TransferFeeAmount), the payer funding its rent.
func (e *exec) growForConfidential(account, payer *acctRef) error {
	s, err := unpackPod(account.data, kindAccount)
	if err != nil {
		return err
	}
	types, err := extensionTypes(s.tlv())
	if err != nil {
		return err
	}
	types = append(types, ExtConfidentialTransferAccount)
	if slices.Contains(types, ExtTransferFeeAmount) {
		types = append(types, ExtConfidentialTransferFeeAmount)
	}
	needed, err := calculateAccountLen(kindAccount, types)
	if err != nil {
		return err
	}
	account, _, grown, err := e.growAccount(account, payer, core.SystemProgramID, needed, 0)
	if err != nil || !grown {
		return err
	}
	return setAccountType(account.mut(), kindAccount)
}

// configure is ConfigureAccount's work once the ElGamal key is known: authorize checks the
// account owner's consent (a signature, or the registry's owner).
func (e *exec) configure(account, mintRef *acctRef, pubkey, decryptable, maxCredits []byte, authorize func(core.Pubkey) error) error {
	if err := e.checkOwnedByProgram(account); err != nil {
		return err
	}
	s, err := unpackPod(account.mut(), kindAccount)
	if err != nil {
		return err
	}
	acc := readAccountPod(s.base())
	if acc.Mint != mintRef.key {
		return tokenErr(MintMismatch)
	}
	if err := authorize(acc.Owner); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.data, kindMint)
	if err != nil {
		return err
	}
	ctm, err := ms.extension(ExtConfidentialTransferMint)
	if err != nil {
		return err
	}
	ct, err := s.initExtension(ExtConfidentialTransferAccount, false)
	if err != nil {
		return err
	}
	ct[ctApprovedOff] = ctm[ctmAutoApproveOff]
	copy(ct[ctElGamalPubkeyOff:], pubkey)
	copy(ct[ctMaxPendingCounterOff:], maxCredits)
	copy(ct[ctDecryptableOff:], decryptable)
	ct[ctAllowConfidentialCreditsOff] = 1
	ct[ctAllowConfidentialCreditsOff+1] = 1
	if ms.has(ExtTransferFeeConfig) {
		if _, err := s.initExtension(ExtConfidentialTransferFeeAmount, false); err != nil {
			return err
		}
	}
	return nil
}

// emptyAccount zeroes the available balance a zero-ciphertext proof shows to hold nothing; the
// pending balances must be empty already.
func (e *exec) emptyAccount(rest []byte) error {
	if len(rest) != 1+1 {
		return errInvalidInstructionData
	}
	account, err := e.acct(0)
	if err != nil {
		return err
	}
	next := 1
	proof, err := e.proofContext(&next, int64(int8(rest[1])), -1, zkproof.ZeroCiphertext)
	if err != nil {
		return err
	}
	if _, err := e.acct(next); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(account); err != nil {
		return err
	}
	s, err := unpackPod(account.mut(), kindAccount)
	if err != nil {
		return err
	}
	if err := e.validateOwner(readAccountPod(s.base()).Owner, next); err != nil {
		return err
	}
	ct, err := s.extension(ExtConfidentialTransferAccount)
	if err != nil {
		return err
	}
	if !bytes.Equal(ct[ctElGamalPubkeyOff:ctElGamalPubkeyOff+32], proof[:32]) {
		e.ctx.ProgramLog("Encryption public-key mismatch")
		return tokenErr(ConfidentialTransferElGamalPubkeyMismatch)
	}
	if !bytes.Equal(ct[ctAvailableOff:ctAvailableOff+64], proof[32:96]) {
		e.ctx.ProgramLog("Available balance mismatch")
		return tokenErr(ConfidentialTransferBalanceMismatch)
	}
	clear(ct[ctAvailableOff : ctAvailableOff+64])
	if !isZero(ct[ctPendingLoOff:ctAvailableEnd]) {
		return tokenErr(ConfidentialTransferAccountHasBalance)
	}
	return nil
}

// deposit moves amount of the public balance into the pending encrypted balance.
func (e *exec) deposit(rest []byte) error {
	if len(rest) != 1+9 {
		return errInvalidInstructionData
	}
	amount, decimals := binary.LittleEndian.Uint64(rest[1:]), rest[9]
	var account, mintRef, auth *acctRef
	if err := e.accts(&account, &mintRef, &auth); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.data, kindMint)
	if err != nil {
		return err
	}
	if mintPaused(&ms) {
		return tokenErr(MintPaused)
	}
	if decimals != readMintPod(ms.base()).Decimals {
		return tokenErr(MintDecimalsMismatch)
	}
	if ms.has(ExtConfidentialMintBurn) {
		return tokenErr(IllegalMintBurnConversion)
	}
	if err := e.checkOwnedByProgram(account); err != nil {
		return err
	}
	s, err := unpackPod(account.mut(), kindAccount)
	if err != nil {
		return err
	}
	if s.has(ExtNonTransferableAccount) {
		return tokenErr(NonTransferable)
	}
	acc := readAccountPod(s.base())
	if err := e.validateOwner(acc.Owner, 2); err != nil {
		return err
	}
	if acc.State == StateFrozen {
		return tokenErr(AccountFrozen)
	}
	if acc.Mint != mintRef.key {
		return tokenErr(MintMismatch)
	}
	if acc.IsNative.Some {
		return tokenErr(NativeNotSupported)
	}
	if acc.Amount < amount {
		return tokenErr(Overflow)
	}
	binary.LittleEndian.PutUint64(s.base()[accAmountOff:], acc.Amount-amount)
	ct, err := s.extension(ExtConfidentialTransferAccount)
	if err != nil {
		return err
	}
	if err := validAsDestination(ct); err != nil {
		return err
	}
	if amount > maximumDepositAmount {
		return tokenErr(MaximumDepositAmountExceeded)
	}
	pubkey := ct[ctElGamalPubkeyOff : ctElGamalPubkeyOff+32]
	lo, ok := ciphertextAddAmountWithOffset(pubkey, ct[ctPendingLoOff:ctPendingLoOff+64], amount&math.MaxUint16)
	if !ok {
		return tokenErr(CiphertextArithmeticFailed)
	}
	hi, ok := ciphertextAddAmountWithOffset(pubkey, ct[ctPendingHiOff:ctPendingHiOff+64], amount>>16)
	if !ok {
		return tokenErr(CiphertextArithmeticFailed)
	}
	copy(ct[ctPendingLoOff:], lo[:])
	copy(ct[ctPendingHiOff:], hi[:])
	return incrementPendingCounter(ct)
}

// applyPendingBalance adds the pending balance (lo + hi * 2^16) to the available one.
func (e *exec) applyPendingBalance(rest []byte) error {
	if len(rest) != 1+8+36 {
		return errInvalidInstructionData
	}
	var account, auth *acctRef
	if err := e.accts(&account, &auth); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(account); err != nil {
		return err
	}
	s, err := unpackPod(account.mut(), kindAccount)
	if err != nil {
		return err
	}
	acc := readAccountPod(s.base())
	if err := e.validateOwner(acc.Owner, 1); err != nil {
		return err
	}
	if acc.State == StateFrozen {
		return tokenErr(AccountFrozen)
	}
	ct, err := s.extension(ExtConfidentialTransferAccount)
	if err != nil {
		return err
	}
	available, ok := ciphertextAddLoHi(ct[ctAvailableOff:ctAvailableOff+64], ct[ctPendingLoOff:ctPendingLoOff+64],
		ct[ctPendingHiOff:ctPendingHiOff+64])
	if !ok {
		return tokenErr(CiphertextArithmeticFailed)
	}
	copy(ct[ctAvailableOff:], available[:])
	copy(ct[ctActualPendingCountOff:ctActualPendingCountOff+8], ct[ctPendingCounterOff:ctPendingCounterOff+8])
	copy(ct[ctExpectedPendingCountOff:], rest[1:9])
	copy(ct[ctDecryptableOff:], rest[9:45])
	clear(ct[ctPendingCounterOff : ctPendingCounterOff+8])
	clear(ct[ctPendingLoOff : ctPendingLoOff+128])
	return nil
}

// withdraw moves amount of the available encrypted balance to the public balance: an equality
// proof ties the remaining balance's ciphertext to a commitment a 64-bit range proof bounds.
func (e *exec) withdraw(rest []byte) error {
	if len(rest) != 1+8+1+36+1+1 {
		return errInvalidInstructionData
	}
	amount, decimals := binary.LittleEndian.Uint64(rest[1:]), rest[9]
	eqOff, rangeOff := int64(int8(rest[46])), int64(int8(rest[47]))
	var account, mintRef *acctRef
	if err := e.accts(&account, &mintRef); err != nil {
		return err
	}
	next := 2
	proofs, err := e.proofContexts(&next, []int64{eqOff, rangeOff}, zkproof.CiphertextCommitmentEquality, zkproof.BatchedRangeProofU64)
	if err != nil {
		return err
	}
	eq, rng := proofs[0], proofs[1]
	// The equality proof's commitment must be the range proof's first, of 64 bits.
	if !bytes.Equal(rng[:32], eq[96:128]) {
		return tokenErr(PedersenCommitmentMismatch)
	}
	if rng[256] != 64 {
		return tokenErr(RangeProofLengthMismatch)
	}
	authIdx := next
	if _, err := e.acct(authIdx); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.data, kindMint)
	if err != nil {
		return err
	}
	if decimals != readMintPod(ms.base()).Decimals {
		return tokenErr(MintDecimalsMismatch)
	}
	if ms.has(ExtConfidentialMintBurn) {
		return tokenErr(IllegalMintBurnConversion)
	}
	if mintPaused(&ms) {
		return tokenErr(MintPaused)
	}
	s, acc, ct, err := e.debitAccount(account, mintRef.key, authIdx, eq[:32], debitChecks{nonTransferable: true, native: true})
	if err != nil {
		return err
	}
	if amount > 0 {
		available, ok := ciphertextSubAmount(ct[ctAvailableOff:ctAvailableOff+64], amount)
		if !ok {
			return tokenErr(CiphertextArithmeticFailed)
		}
		copy(ct[ctAvailableOff:], available[:])
	}
	if !bytes.Equal(ct[ctAvailableOff:ctAvailableOff+64], eq[32:96]) {
		return tokenErr(ConfidentialTransferBalanceMismatch)
	}
	copy(ct[ctDecryptableOff:], rest[10:46])
	total, err := addU64(acc.Amount, amount)
	if err != nil {
		return err
	}
	binary.LittleEndian.PutUint64(s.base()[accAmountOff:], total)
	return nil
}

// debitChecks are where the checks of a confidential account paying out differ.
type debitChecks struct {
	nonTransferable bool  // a NonTransferable account is refused
	native          bool  // a native account is refused
	cpiGuard        error // refusal of the owner signing through a CPI when the CPI guard is on; nil: not checked
}

// debitAccount checks a confidential account paying out of its available balance (Withdraw,
// Transfer's source, Burn): owned by the program, its owner authorizing at instruction index
// authIdx, not frozen, of mint, approved for confidential transfers, its ElGamal key the
// proof's (key). It returns the account's view, its base state and its
// ConfidentialTransferAccount.
func (e *exec) debitAccount(account *acctRef, mint core.Pubkey, authIdx int, key []byte, c debitChecks) (extState, Account, []byte, error) {
	if err := e.checkOwnedByProgram(account); err != nil {
		return extState{}, Account{}, nil, err
	}
	s, err := unpackPod(account.mut(), kindAccount)
	if err != nil {
		return extState{}, Account{}, nil, err
	}
	if c.nonTransferable && s.has(ExtNonTransferableAccount) {
		return extState{}, Account{}, nil, tokenErr(NonTransferable)
	}
	acc := readAccountPod(s.base())
	if err := e.validateOwner(acc.Owner, authIdx); err != nil {
		return extState{}, Account{}, nil, err
	}
	if c.cpiGuard != nil && e.key(authIdx) == acc.Owner && cpiGuardLocked(&s) && e.inCPI() {
		return extState{}, Account{}, nil, c.cpiGuard
	}
	if acc.State == StateFrozen {
		return extState{}, Account{}, nil, tokenErr(AccountFrozen)
	}
	if acc.Mint != mint {
		return extState{}, Account{}, nil, tokenErr(MintMismatch)
	}
	if c.native && acc.IsNative.Some {
		return extState{}, Account{}, nil, tokenErr(NativeNotSupported)
	}
	ct, err := s.extension(ExtConfidentialTransferAccount)
	if err != nil {
		return extState{}, Account{}, nil, err
	}
	if ct[ctApprovedOff] == 0 {
		return extState{}, Account{}, nil, tokenErr(ConfidentialTransferAccountNotApproved)
	}
	if !bytes.Equal(key, ct[ctElGamalPubkeyOff:ctElGamalPubkeyOff+32]) {
		return extState{}, Account{}, nil, tokenErr(ConfidentialTransferElGamalPubkeyMismatch)
	}
	return s, acc, ct, nil
}

// transferProof is what a confidential transfer's proofs establish, once they agree.
type transferProof struct {
	source, destination, auditor []byte
	lo, hi                       []byte // the amount's grouped ciphertexts (source, destination, auditor handles)
	newSource                    []byte // the source's available balance after the transfer
	// With a fee: the withdraw-withheld authority's key and the fee's grouped ciphertexts
	// (destination, withdraw-withheld authority handles); nil without.
	withheldAuthority []byte
	feeLo, feeHi      []byte
}

// extractCiphertext is handle i's ElGamal ciphertext of a grouped ciphertext.
func extractCiphertext(grouped []byte, i int) []byte {
	return append(append([]byte(nil), grouped[:32]...), grouped[32*(1+i):32*(2+i)]...)
}

// verifyTransferProof reads the equality, ciphertext-validity and 128-bit range proofs of a
// Transfer and checks that they describe one transfer.
func (e *exec) verifyTransferProof(next *int, eqOff, validityOff, rangeOff int64) (transferProof, error) {
	eq, validity, err := e.verifyAmountProof(next, eqOff, validityOff, rangeOff, 0)
	if err != nil {
		return transferProof{}, err
	}
	return transferProof{source: eq[:32], destination: validity[32:64], auditor: validity[64:96], lo: validity[96:224],
		hi: validity[224:352], newSource: eq[32:96]}, nil
}

// confidentialTransfer runs Transfer and TransferWithFee: an encrypted amount leaves the
// source's available balance for the destination's pending balance. On a mint with a transfer
// fee, TransferWithFee's fee proofs also move the encrypted fee from the destination's pending
// balance to its withheld amount; on a mint without one, TransferWithFee is a Transfer (its fee
// proofs are not read), and Transfer on a fee mint lacks the fee proofs.
func (e *exec) confidentialTransfer(rest []byte, withFee bool) error {
	size := 1 + 36 + 64 + 64 + 3
	if withFee {
		size += 2
	}
	if len(rest) != size {
		return errInvalidInstructionData
	}
	offsets := make([]int64, size-165)
	for i := range offsets {
		offsets[i] = int64(int8(rest[165+i]))
	}
	var src, mintRef, dst *acctRef
	if err := e.accts(&src, &mintRef, &dst); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.data, kindMint)
	if err != nil {
		return err
	}
	if mintPaused(&ms) {
		return tokenErr(MintPaused)
	}
	ctm, err := ms.extension(ExtConfidentialTransferMint)
	if err != nil {
		return err
	}
	next := 3
	var p transferProof
	if feeConfig, err := ms.extension(ExtTransferFeeConfig); err != nil {
		rangeOff := offsets[2]
		if withFee {
			rangeOff = offsets[4]
		}
		if p, err = e.verifyTransferProof(&next, offsets[0], offsets[1], rangeOff); err != nil {
			return err
		}
	} else {
		cfg := decodeTransferFeeConfig(feeConfig)
		fee := cfg.EpochFee(e.ctx.Clock().Epoch)
		if !withFee {
			return errInvalidInstructionData
		}
		if p, err = e.verifyTransferWithFeeProof(&next, offsets, fee); err != nil {
			return err
		}
	}
	authIdx := next
	if _, err := e.acct(authIdx); err != nil {
		return err
	}
	if !bytes.Equal(ctm[ctmAuditorOff:ctmAuditorOff+32], p.auditor) {
		return tokenErr(ConfidentialTransferElGamalPubkeyMismatch)
	}
	if p.withheldAuthority != nil {
		cfc, err := ms.extension(ExtConfidentialTransferFeeConfig)
		if err != nil {
			return err
		}
		if !bytes.Equal(p.withheldAuthority, cfc[32:64]) {
			return tokenErr(ConfidentialTransferElGamalPubkeyMismatch)
		}
	}
	if !bytes.Equal(rest[37:101], extractCiphertext(p.lo, 2)) || !bytes.Equal(rest[101:165], extractCiphertext(p.hi, 2)) {
		return tokenErr(ConfidentialTransferBalanceMismatch)
	}

	// The source.
	ss, _, sct, err := e.debitAccount(src, mintRef.key, authIdx, p.source,
		debitChecks{nonTransferable: true, cpiGuard: tokenErr(CpiGuardTransferBlocked)})
	if err != nil {
		return err
	}
	available, ok := ciphertextSubLoHi(sct[ctAvailableOff:ctAvailableOff+64], extractCiphertext(p.lo, 0), extractCiphertext(p.hi, 0))
	if !ok {
		return tokenErr(CiphertextArithmeticFailed)
	}
	if !bytes.Equal(available[:], p.newSource) {
		return tokenErr(ConfidentialTransferBalanceMismatch)
	}
	copy(sct[ctAvailableOff:], available[:])
	copy(sct[ctDecryptableOff:], rest[1:37])

	// The destination (the same account on a self-transfer, seen with the source's changes).
	if err := e.checkOwnedByProgram(dst); err != nil {
		return err
	}
	ds, err := unpackPod(dst.mut(), kindAccount)
	if err != nil {
		return err
	}
	destination := readAccountPod(ds.base())
	if destination.State == StateFrozen {
		return tokenErr(AccountFrozen)
	}
	if destination.Mint != mintRef.key {
		return tokenErr(MintMismatch)
	}
	if memoRequired(&ds) {
		if err := e.checkPreviousSiblingIsMemo(); err != nil {
			return err
		}
	}
	dct, err := ds.extension(ExtConfidentialTransferAccount)
	if err != nil {
		return err
	}
	if err := validAsDestination(dct); err != nil {
		return err
	}
	if !bytes.Equal(p.destination, dct[ctElGamalPubkeyOff:ctElGamalPubkeyOff+32]) {
		return tokenErr(ConfidentialTransferElGamalPubkeyMismatch)
	}
	if err := creditPending(dct, extractCiphertext(p.lo, 1), extractCiphertext(p.hi, 1)); err != nil {
		return err
	}
	if p.feeLo != nil && src.key != dst.key {
		// The fee: off the destination's pending balance (its handles), onto its withheld
		// amount (the withdraw-withheld authority's).
		lo, ok := ciphertextSub(dct[ctPendingLoOff:ctPendingLoOff+64], extractCiphertext(p.feeLo, 0))
		if !ok {
			return tokenErr(CiphertextArithmeticFailed)
		}
		hi, ok := ciphertextSub(dct[ctPendingHiOff:ctPendingHiOff+64], extractCiphertext(p.feeHi, 0))
		if !ok {
			return tokenErr(CiphertextArithmeticFailed)
		}
		copy(dct[ctPendingLoOff:], lo[:])
		copy(dct[ctPendingHiOff:], hi[:])
		withheld, err := ds.extension(ExtConfidentialTransferFeeAmount)
		if err != nil {
			return err
		}
		sum, ok := ciphertextAddLoHi(withheld, extractCiphertext(p.feeLo, 1), extractCiphertext(p.feeHi, 1))
		if !ok {
			return tokenErr(CiphertextArithmeticFailed)
		}
		copy(withheld, sum[:])
	}

	if v, err := ms.extension(ExtTransferHook); err == nil {
		if program, ok := optionalKey(v[32:]).Get(); ok {
			// The amount is secret: the hook is told u64::MAX, as the program does.
			return e.executeTransferHook(program, &ss, &ds, 2, authIdx, math.MaxUint64)
		}
	}
	return nil
}

// The fee proof's constants: basis points in a whole, and one less (the largest delta).
const (
	maxFeeBasisPointsSubOne = MaxFeeBasisPoints - 1
)

// combinePoints is lo + hi * 2^16, on compressed points.
func combinePoints(lo, hi []byte) (*ristretto255.Element, bool) {
	l, ok1 := decodeRistretto(lo)
	h, ok2 := decodeRistretto(hi)
	if !ok1 || !ok2 {
		return nil, false
	}
	return pointAdd(l, pointMul(1<<pendingBalanceLoBits, h)), true
}

// verifyTransferWithFeeProof reads TransferWithFee's five proofs (equality, transfer amount
// validity, fee percentage-with-cap, fee validity, 256-bit range) and checks that they describe
// one transfer whose fee follows the mint's schedule.
func (e *exec) verifyTransferWithFeeProof(next *int, offsets []int64, fee TransferFee) (transferProof, error) {
	proofs, err := e.proofContexts(next, offsets, zkproof.CiphertextCommitmentEquality, zkproof.BatchedGroupedCiphertext3HandlesValidity,
		zkproof.PercentageWithCap, zkproof.BatchedGroupedCiphertext2HandlesValidity, zkproof.BatchedRangeProofU256)
	if err != nil {
		return transferProof{}, err
	}
	eq, validity, sigma, feeValidity, rng := proofs[0], proofs[1], proofs[2], proofs[3], proofs[4]
	arithmetic := tokenErr(CiphertextArithmeticFailed)
	feeCommitment, deltaCommitment, claimedCommitment := sigma[:32], sigma[32:64], sigma[64:96]
	if binary.LittleEndian.Uint64(sigma[96:104]) != fee.MaximumFee {
		return transferProof{}, tokenErr(FeeParametersMismatch)
	}
	lo, hi := validity[96:224], validity[224:352]
	feeLo, feeHi := feeValidity[64:160], feeValidity[160:256]
	if !bytes.Equal(validity[32:64], feeValidity[:32]) {
		return transferProof{}, tokenErr(ConfidentialTransferElGamalPubkeyMismatch)
	}
	claimed, ok := decodeRistretto(claimedCommitment)
	if !ok {
		return transferProof{}, arithmetic
	}
	complement := pointSub(pointMul(maxFeeBasisPointsSubOne, ristrettoG), claimed)
	amountPoint, ok := combinePoints(lo[:32], hi[:32])
	if !ok {
		return transferProof{}, arithmetic
	}
	feePoint, ok := decodeRistretto(feeCommitment)
	if !ok {
		return transferProof{}, arithmetic
	}
	net := pointSub(amountPoint, feePoint)
	expected := [][]byte{eq[96:128], lo[:32], hi[:32], claimedCommitment, complement.Encode(nil), feeLo[:32], feeHi[:32], net.Encode(nil)}
	for i, c := range expected {
		if !bytes.Equal(rng[32*i:32*i+32], c) {
			return transferProof{}, tokenErr(PedersenCommitmentMismatch)
		}
	}
	if !bytes.Equal(rng[256:264], []byte{64, 16, 32, 16, 16, 16, 32, 64}) {
		return transferProof{}, tokenErr(RangeProofLengthMismatch)
	}
	validityFee, ok := combinePoints(feeLo[:32], feeHi[:32])
	if !ok {
		return transferProof{}, arithmetic
	}
	if !bytes.Equal(eq[:32], validity[:32]) {
		return transferProof{}, tokenErr(ConfidentialTransferElGamalPubkeyMismatch)
	}
	if validityFee.Equal(feePoint) != 1 {
		return transferProof{}, tokenErr(FeeParametersMismatch)
	}
	// delta = fee * 10000 - amount * rate, the rounding the percentage proof bounds.
	delta := pointSub(pointMul(MaxFeeBasisPoints, feePoint), pointMul(uint64(fee.TransferFeeBasisPoints), amountPoint))
	if !bytes.Equal(delta.Encode(nil), deltaCommitment) {
		return transferProof{}, arithmetic
	}
	return transferProof{source: eq[:32], destination: validity[32:64], auditor: validity[64:96], lo: lo, hi: hi,
		newSource: eq[32:96], withheldAuthority: feeValidity[32:64], feeLo: feeLo, feeHi: feeHi}, nil
}
