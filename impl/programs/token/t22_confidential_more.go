package token

import (
	"bytes"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/zkproof"
)

// ConfidentialTransferFee's withheld-fee instructions and ConfidentialMintBurn's proof
// instructions, as Token-2022 runs them (see t22_confidential.go for how proofs are read).

// ConfidentialTransferFeeConfig value offsets (authority, the withdraw-withheld authority's
// ElGamal key, harvest-to-mint flag, withheld amount).
const (
	ctfWithheldKeyOff    = 32
	ctfWithheldAmountOff = 65
)

// ConfidentialMintBurn's pending burn, after the supply (64), decryptable supply (36) and
// supply key (32).
const cmbPendingBurnOff = 132

// programPanic is the on-chain program aborting (a Rust panic), as the BPF loader reports it:
// ProgramFailedToComplete, with the source location in the failure line.
type programPanic struct{ at string }

func (p programPanic) Error() string { return "SBF program Panicked in " + p.at }

// harvestBorrowPanic is where the program panics when a harvest source is the mint itself,
// whose data it already holds borrowed (RefCell's "already borrowed").
var harvestBorrowPanic = runtimeError{programPanic{"program/src/extension/confidential_transfer_fee/processor.rs at 313:58"}}

// validAsWithheldDestination checks that fees may be withdrawn into a confidential account.
func validAsWithheldDestination(ct []byte) error {
	if ct[ctApprovedOff] == 0 {
		return tokenErr(ConfidentialTransferAccountNotApproved)
	}
	if ct[ctAllowConfidentialCreditsOff] == 0 {
		return tokenErr(ConfidentialTransferDepositsAndTransfersDisabled)
	}
	return nil
}

// withheldDestination is the destination of a withdrawal of encrypted withheld fees: a token
// account of mint, not frozen, whose confidential extension takes credits. It returns the
// account's view and that extension.
func (e *exec) withheldDestination(dst *acctRef, mint core.Pubkey) (extState, []byte, error) {
	if err := e.checkOwnedByProgram(dst); err != nil {
		return extState{}, nil, err
	}
	ds, err := unpackPod(dst.mut(), kindAccount)
	if err != nil {
		return extState{}, nil, err
	}
	destination := readAccountPod(ds.base())
	if destination.Mint != mint {
		return extState{}, nil, tokenErr(MintMismatch)
	}
	if destination.State == StateFrozen {
		return extState{}, nil, tokenErr(AccountFrozen)
	}
	dct, err := ds.extension(ExtConfidentialTransferAccount)
	if err != nil {
		return extState{}, nil, err
	}
	if err := validAsWithheldDestination(dct); err != nil {
		return extState{}, nil, err
	}
	return ds, dct, nil
}

// withheldKeysMatch checks a withdrawal's equality proof against its two keys: the mint's
// withdraw-withheld ElGamal key (cfc, its ConfidentialTransferFeeConfig) and the destination's
// (dct, its ConfidentialTransferAccount).
func withheldKeysMatch(proof, cfc, dct []byte) error {
	if !bytes.Equal(proof[:32], cfc[ctfWithheldKeyOff:ctfWithheldKeyOff+32]) ||
		!bytes.Equal(proof[32:64], dct[ctElGamalPubkeyOff:ctElGamalPubkeyOff+32]) {
		return tokenErr(ConfidentialTransferElGamalPubkeyMismatch)
	}
	return nil
}

// withdrawWithheldAuthority is the mint's TransferFeeConfig withdraw-withheld authority.
func withdrawWithheldAuthority(ms *extState) (core.Pubkey, error) {
	v, err := ms.extension(ExtTransferFeeConfig)
	if err != nil {
		return core.Pubkey{}, err
	}
	k, ok := decodeTransferFeeConfig(v).WithdrawWithheldAuthority.Get()
	if !ok {
		return core.Pubkey{}, tokenErr(NoAuthorityExists)
	}
	return k, nil
}

// ctWithdrawWithheldFromMint moves the mint's encrypted withheld fees to a destination account:
// a ciphertext-ciphertext equality proof re-encrypts them under the destination's key.
func (e *exec) ctWithdrawWithheldFromMint(rest []byte) error {
	if len(rest) != 1+1+36 {
		return errInvalidInstructionData
	}
	var mintRef, dst *acctRef
	if err := e.accts(&mintRef, &dst); err != nil {
		return err
	}
	next := 2
	proof, err := e.proofContext(&next, int64(int8(rest[1])), -1, zkproof.CiphertextCiphertextEquality)
	if err != nil {
		return err
	}
	authIdx := next
	if _, err := e.acct(authIdx); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.mut(), kindMint)
	if err != nil {
		return err
	}
	authority, err := withdrawWithheldAuthority(&ms)
	if err != nil {
		return err
	}
	if err := e.validateOwner(authority, authIdx); err != nil {
		return err
	}
	cfc, err := ms.extension(ExtConfidentialTransferFeeConfig)
	if err != nil {
		return err
	}
	_, dct, err := e.withheldDestination(dst, mintRef.key)
	if err != nil {
		return err
	}
	if err := withheldKeysMatch(proof, cfc, dct); err != nil {
		return err
	}
	if !bytes.Equal(proof[64:128], cfc[ctfWithheldAmountOff:ctfWithheldAmountOff+64]) {
		return tokenErr(ConfidentialTransferBalanceMismatch)
	}
	available, ok := ciphertextAdd(dct[ctAvailableOff:ctAvailableOff+64], proof[128:192])
	if !ok {
		return tokenErr(CiphertextArithmeticFailed)
	}
	copy(dct[ctAvailableOff:], available[:])
	copy(dct[ctDecryptableOff:], rest[2:38])
	clear(cfc[ctfWithheldAmountOff : ctfWithheldAmountOff+64])
	return nil
}

// harvestWithheld takes the encrypted withheld fees of a token account of mint (zeroing them),
// or reports why it cannot, as the program's harvest_from_account does.
func (e *exec) harvestWithheld(mint core.Pubkey, r *acctRef) ([]byte, TokenError, bool) {
	s, err := unpackPod(r.mut(), kindAccount)
	if err != nil {
		return nil, InvalidState, false
	}
	if readAccountPod(s.base()).Mint != mint {
		return nil, MintMismatch, false
	}
	if r.owner != e.programID {
		return nil, InvalidState, false
	}
	v, err := s.extension(ExtConfidentialTransferFeeAmount)
	if err != nil {
		return nil, InvalidState, false
	}
	out := append([]byte(nil), v...)
	clear(v)
	return out, 0, true
}

// ctLogHarvestError is the line the program logs for an account it cannot harvest (it goes
// on with the others).
func (e *exec) ctLogHarvestError(k core.Pubkey, err TokenError) {
	e.ctx.ProgramLog("Error harvesting from " + k.String() + ": " + err.Error())
}

// ctWithdrawWithheldFromAccounts moves the encrypted withheld fees of the listed token accounts
// (the last numAccounts accounts; the ones before them after the authority are its multisig
// signers) to a destination account.
func (e *exec) ctWithdrawWithheldFromAccounts(rest []byte) error {
	if len(rest) != 1+1+1+36 {
		return errInvalidInstructionData
	}
	numAccounts := int(rest[1])
	var mintRef, dst *acctRef
	if err := e.accts(&mintRef, &dst); err != nil {
		return err
	}
	next := 2
	proof, err := e.proofContext(&next, int64(int8(rest[2])), -1, zkproof.CiphertextCiphertextEquality)
	if err != nil {
		return err
	}
	authIdx := next
	if _, err := e.acct(authIdx); err != nil {
		return err
	}
	numSigners := max(e.numAccounts()-authIdx-1-numAccounts, 0)
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.mut(), kindMint)
	if err != nil {
		return err
	}
	authority, err := withdrawWithheldAuthority(&ms)
	if err != nil {
		return err
	}
	if err := e.validateOwnerSigners(authority, authIdx, authIdx+1+numSigners); err != nil {
		return err
	}
	ds, dct, err := e.withheldDestination(dst, mintRef.key)
	if err != nil {
		return err
	}
	cfc, err := ms.extension(ExtConfidentialTransferFeeConfig)
	if err != nil {
		return err
	}
	if err := withheldKeysMatch(proof, cfc, dct); err != nil {
		return err
	}
	aggregate := make([]byte, 64)
	for i := authIdx + 1 + numSigners; i < e.numAccounts(); i++ {
		r, err := e.acct(i)
		if err != nil {
			return err
		}
		var withheld []byte
		if r.key == dst.key {
			// Self-harvest: the destination's own withheld fees, through its view.
			ds, err = unpackPod(dst.mut(), kindAccount)
			if err != nil {
				return err
			}
			v, err := ds.extension(ExtConfidentialTransferFeeAmount)
			if err != nil {
				return tokenErr(InvalidState)
			}
			withheld = append([]byte(nil), v...)
			clear(v)
		} else {
			if r.key == mintRef.key {
				return harvestBorrowPanic
			}
			v, why, ok := e.harvestWithheld(mintRef.key, r)
			if !ok {
				e.ctLogHarvestError(r.key, why)
				continue
			}
			withheld = v
		}
		sum, ok := ciphertextAdd(aggregate, withheld)
		if !ok {
			return tokenErr(CiphertextArithmeticFailed)
		}
		aggregate = sum[:]
	}
	if !bytes.Equal(proof[64:128], aggregate) {
		return tokenErr(ConfidentialTransferBalanceMismatch)
	}
	ds, err = unpackPod(dst.mut(), kindAccount)
	if err != nil {
		return err
	}
	if dct, err = ds.extension(ExtConfidentialTransferAccount); err != nil {
		return err
	}
	available, ok := ciphertextAdd(dct[ctAvailableOff:ctAvailableOff+64], proof[128:192])
	if !ok {
		return errInvalidInstructionData
	}
	copy(dct[ctAvailableOff:], available[:])
	copy(dct[ctDecryptableOff:], rest[3:39])
	return nil
}

// ctHarvestWithheldToMint adds the encrypted withheld fees of the listed accounts to the mint's.
func (e *exec) ctHarvestWithheldToMint() error {
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
	if _, err := ms.extension(ExtTransferFeeConfig); err != nil {
		return err
	}
	cfc, err := ms.extension(ExtConfidentialTransferFeeConfig)
	if err != nil {
		return err
	}
	if cfc[ctfHarvestToMintOff] == 0 {
		return tokenErr(HarvestToMintDisabled)
	}
	for i := 1; i < e.numAccounts(); i++ {
		r, err := e.acct(i)
		if err != nil {
			return err
		}
		if r.key == mintRef.key {
			return harvestBorrowPanic
		}
		withheld, why, ok := e.harvestWithheld(mintRef.key, r)
		if !ok {
			e.ctLogHarvestError(r.key, why)
			continue
		}
		sum, ok := ciphertextAdd(cfc[ctfWithheldAmountOff:ctfWithheldAmountOff+64], withheld)
		if !ok {
			return tokenErr(CiphertextArithmeticFailed)
		}
		copy(cfc[ctfWithheldAmountOff:], sum[:])
	}
	return nil
}

// verifyAmountProof reads the equality, 3-handle validity and 128-bit range proofs of a
// Transfer, a confidential mint or burn, and checks them against each other: the equality
// proof's key must be the validity proof's key number keyIndex (the source of a transfer or
// burn, the supply of a mint), and the range proof must bound the equality proof's commitment
// (64 bits) and the amount's halves (16 and 32 bits, then 16 of padding).
func (e *exec) verifyAmountProof(next *int, eqOff, validityOff, rangeOff int64, keyIndex int) (eq, validity []byte, err error) {
	proofs, err := e.proofContexts(next, []int64{eqOff, validityOff, rangeOff}, zkproof.CiphertextCommitmentEquality,
		zkproof.BatchedGroupedCiphertext3HandlesValidity, zkproof.BatchedRangeProofU128)
	if err != nil {
		return nil, nil, err
	}
	eq, validity, rng := proofs[0], proofs[1], proofs[2]
	if !bytes.Equal(eq[:32], validity[32*keyIndex:32*keyIndex+32]) {
		return nil, nil, tokenErr(ConfidentialTransferElGamalPubkeyMismatch)
	}
	lo, hi := validity[96:224], validity[224:352]
	for i, c := range [][]byte{eq[96:128], lo[:32], hi[:32]} {
		if !bytes.Equal(rng[32*i:32*i+32], c) {
			return nil, nil, tokenErr(PedersenCommitmentMismatch)
		}
	}
	if !bytes.Equal(rng[256:260], []byte{64, 16, 32, 16}) {
		return nil, nil, tokenErr(RangeProofLengthMismatch)
	}
	return eq, validity, nil
}

// rotateSupplyElGamalPubkey re-encrypts the confidential supply under a new key (a
// ciphertext-ciphertext equality proof from the old key's ciphertext to the new one's).
func (e *exec) rotateSupplyElGamalPubkey(rest []byte) error {
	if len(rest) != 1+32+1 {
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
	mintAuthority := readMintPod(ms.base()).MintAuthority
	cmb, err := ms.extension(ExtConfidentialMintBurn)
	if err != nil {
		return err
	}
	next := 1
	proof, err := e.proofContext(&next, int64(int8(rest[33])), -1, zkproof.CiphertextCiphertextEquality)
	if err != nil {
		return err
	}
	supplyKey := cmb[cmbSupplyPubkeyOff : cmbSupplyPubkeyOff+32]
	if isZero(supplyKey) {
		return tokenErr(InvalidState)
	}
	if !bytes.Equal(supplyKey, proof[:32]) {
		return tokenErr(ConfidentialTransferElGamalPubkeyMismatch)
	}
	if !bytes.Equal(cmb[:64], proof[64:128]) {
		return errInvalidInstructionData
	}
	if !isZero(cmb[cmbPendingBurnOff : cmbPendingBurnOff+64]) {
		return tokenErr(PendingBalanceNonZero)
	}
	authIdx := next
	if _, err := e.acct(authIdx); err != nil {
		return err
	}
	authority, ok := mintAuthority.Get()
	if !ok {
		return tokenErr(NoAuthorityExists)
	}
	if err := e.validateOwner(authority, authIdx); err != nil {
		return err
	}
	copy(cmb[cmbSupplyPubkeyOff:], proof[32:64])
	copy(cmb[:64], proof[128:192])
	return nil
}

// confidentialMint mints an encrypted amount to a confidential account's pending balance and
// adds it to the encrypted supply.
func (e *exec) confidentialMint(rest []byte) error {
	if len(rest) != 1+36+64+64+3 {
		return errInvalidInstructionData
	}
	var account, mintRef *acctRef
	if err := e.accts(&account, &mintRef); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.mut(), kindMint)
	if err != nil {
		return err
	}
	mintAuthority := readMintPod(ms.base()).MintAuthority
	ctm, err := ms.extension(ExtConfidentialTransferMint)
	if err != nil {
		return err
	}
	if mintPaused(&ms) {
		return tokenErr(MintPaused)
	}
	if err := e.checkOwnedByProgram(account); err != nil {
		return err
	}
	s, err := unpackPod(account.mut(), kindAccount)
	if err != nil {
		return err
	}
	if ms.has(ExtNonTransferable) && (!s.has(ExtImmutableOwner) || !s.has(ExtNonTransferableAccount)) {
		return tokenErr(NonTransferableNeedsImmutableOwnership)
	}
	cmb, err := ms.extension(ExtConfidentialMintBurn)
	if err != nil {
		return err
	}
	next := 2
	eq, validity, err := e.verifyAmountProof(&next, int64(int8(rest[165])), int64(int8(rest[166])), int64(int8(rest[167])), 1)
	if err != nil {
		return err
	}
	authIdx := next
	if _, err := e.acct(authIdx); err != nil {
		return err
	}
	authority, ok := mintAuthority.Get()
	if !ok {
		return tokenErr(NoAuthorityExists)
	}
	if err := e.validateOwner(authority, authIdx); err != nil {
		return err
	}
	acc := readAccountPod(s.base())
	if acc.State == StateFrozen {
		return tokenErr(AccountFrozen)
	}
	if acc.Mint != mintRef.key {
		return tokenErr(MintMismatch)
	}
	if acc.IsNative.Some {
		return tokenErr(NativeNotSupported)
	}
	ct, err := s.extension(ExtConfidentialTransferAccount)
	if err != nil {
		return err
	}
	if err := validAsDestination(ct); err != nil {
		return err
	}
	if !bytes.Equal(validity[:32], ct[ctElGamalPubkeyOff:ctElGamalPubkeyOff+32]) {
		return errInvalidInstructionData
	}
	if !bytes.Equal(ctm[ctmAuditorOff:ctmAuditorOff+32], validity[64:96]) {
		return tokenErr(ConfidentialTransferElGamalPubkeyMismatch)
	}
	lo, hi := validity[96:224], validity[224:352]
	if !bytes.Equal(rest[37:101], extractCiphertext(lo, 2)) || !bytes.Equal(rest[101:165], extractCiphertext(hi, 2)) {
		return tokenErr(ConfidentialTransferBalanceMismatch)
	}
	if err := creditPending(ct, extractCiphertext(lo, 0), extractCiphertext(hi, 0)); err != nil {
		return err
	}
	if !bytes.Equal(cmb[cmbSupplyPubkeyOff:cmbSupplyPubkeyOff+32], validity[32:64]) {
		return errInvalidInstructionData
	}
	supply, ok := ciphertextAddLoHi(cmb[:64], extractCiphertext(lo, 1), extractCiphertext(hi, 1))
	if !ok {
		return tokenErr(CiphertextArithmeticFailed)
	}
	copy(cmb[:64], supply[:])
	if !bytes.Equal(cmb[:64], eq[32:96]) {
		return tokenErr(ConfidentialTransferBalanceMismatch)
	}
	copy(cmb[cmbDecryptableSupplyOff:], rest[1:37])
	return nil
}

// confidentialBurn burns an encrypted amount of a confidential account's available balance,
// adding it to the mint's pending burn. permissioned is PermissionedBurn's variant, which also
// needs the mint's permissioned burn authority to sign (its account comes before the owner's).
func (e *exec) confidentialBurn(rest []byte, permissioned bool) error {
	if len(rest) != 1+36+64+64+3 {
		return errInvalidInstructionData
	}
	var account, mintRef *acctRef
	if err := e.accts(&account, &mintRef); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.mut(), kindMint)
	if err != nil {
		return err
	}
	ctm, err := ms.extension(ExtConfidentialTransferMint)
	if err != nil {
		return err
	}
	if mintPaused(&ms) {
		return tokenErr(MintPaused)
	}
	next := 2
	eq, validity, err := e.verifyAmountProof(&next, int64(int8(rest[165])), int64(int8(rest[166])), int64(int8(rest[167])), 0)
	if err != nil {
		return err
	}
	approverIdx := -1
	if permissioned {
		approverIdx = next
		next++
	}
	authIdx := next
	if permissioned {
		if _, err := e.acct(approverIdx); err != nil {
			return err
		}
	}
	if _, err := e.acct(authIdx); err != nil {
		return err
	}
	var burnAuthority *core.Pubkey
	pb, pbErr := ms.extension(ExtPermissionedBurn)
	if pbErr == nil {
		if k, ok := optionalKey(pb).Get(); ok {
			burnAuthority = &k
		}
	}
	if !permissioned {
		if burnAuthority != nil {
			return tokenErr(InvalidInstruction)
		}
	} else {
		if pbErr != nil {
			return tokenErr(InvalidInstruction)
		}
		if burnAuthority == nil {
			e.ctx.ProgramLog("Permissioned burn authority is None; use the standard burn")
			return tokenErr(InvalidInstruction)
		}
		approver, _ := e.acct(approverIdx)
		if !approver.signer {
			return errMissingRequiredSignature
		}
		if approver.key != *burnAuthority {
			return errInvalidAccountData
		}
	}
	cmb, err := ms.extension(ExtConfidentialMintBurn)
	if err != nil {
		return err
	}
	_, _, ct, err := e.debitAccount(account, mintRef.key, authIdx, eq[:32], debitChecks{cpiGuard: tokenErr(CpiGuardBurnBlocked)})
	if err != nil {
		return err
	}
	lo, hi := validity[96:224], validity[224:352]
	if !bytes.Equal(rest[37:101], extractCiphertext(lo, 2)) || !bytes.Equal(rest[101:165], extractCiphertext(hi, 2)) {
		return tokenErr(ConfidentialTransferBalanceMismatch)
	}
	available, ok := ciphertextSubLoHi(ct[ctAvailableOff:ctAvailableOff+64], extractCiphertext(lo, 0), extractCiphertext(hi, 0))
	if !ok {
		return tokenErr(CiphertextArithmeticFailed)
	}
	if !bytes.Equal(available[:], eq[32:96]) {
		return tokenErr(ConfidentialTransferBalanceMismatch)
	}
	if !bytes.Equal(ctm[ctmAuditorOff:ctmAuditorOff+32], validity[64:96]) {
		return tokenErr(ConfidentialTransferElGamalPubkeyMismatch)
	}
	copy(ct[ctAvailableOff:], available[:])
	copy(ct[ctDecryptableOff:], rest[1:37])
	if !bytes.Equal(cmb[cmbSupplyPubkeyOff:cmbSupplyPubkeyOff+32], validity[32:64]) {
		return errInvalidInstructionData
	}
	pending, ok := ciphertextAddLoHi(cmb[cmbPendingBurnOff:cmbPendingBurnOff+64], extractCiphertext(lo, 1), extractCiphertext(hi, 1))
	if !ok {
		return tokenErr(CiphertextArithmeticFailed)
	}
	copy(cmb[cmbPendingBurnOff:], pending[:])
	return nil
}

// applyPendingBurn takes the pending burn off the encrypted supply.
func (e *exec) applyPendingBurn() error {
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
	mintAuthority := readMintPod(ms.base()).MintAuthority
	cmb, err := ms.extension(ExtConfidentialMintBurn)
	if err != nil {
		return err
	}
	if _, err := e.acct(1); err != nil {
		return err
	}
	authority, ok := mintAuthority.Get()
	if !ok {
		return tokenErr(NoAuthorityExists)
	}
	if err := e.validateOwner(authority, 1); err != nil {
		return err
	}
	supply, ok := ciphertextSub(cmb[:64], cmb[cmbPendingBurnOff:cmbPendingBurnOff+64])
	if !ok {
		return tokenErr(CiphertextArithmeticFailed)
	}
	copy(cmb[:64], supply[:])
	clear(cmb[cmbPendingBurnOff : cmbPendingBurnOff+64])
	return nil
}
