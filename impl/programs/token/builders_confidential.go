package token

import (
	"encoding/binary"
	"slices"

	"ledgerd/impl/core"
)

// Builders of ConfidentialTransfer's instructions that read proofs. proofAccounts are the
// accounts that carry the proofs, in the program's order: the instructions sysvar when any
// offset is non-zero, then one context-state account for each proof whose offset is 0.

// extensionData is the data builder of an extension's instructions: its kind, the
// sub-instruction, then the fields.
func extensionData(kind Kind) func(sub byte, fields ...[]byte) []byte {
	return func(sub byte, fields ...[]byte) []byte {
		return slices.Concat(append([][]byte{{byte(kind), sub}}, fields...)...)
	}
}

var (
	ctData  = extensionData(KindConfidentialTransferExtension)
	ctfData = extensionData(KindConfidentialTransferFeeExtension)
	cmbData = extensionData(KindConfidentialMintBurnExtension)
	pbData  = extensionData(KindPermissionedBurnExtension)
)

func u64Bytes(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }

func proofMetas(proofAccounts []core.Pubkey) []core.AccountMeta {
	metas := make([]core.AccountMeta, len(proofAccounts))
	for i, k := range proofAccounts {
		metas[i] = core.Readonly(k)
	}
	return metas
}

// ConfigureConfidentialAccount builds ConfigureAccount: the account starts with a zero balance
// whose decryptable form is decryptableZero, accepting at most maxPendingCredits pending
// credits, with the ElGamal key of a pubkey-validity proof.
func ConfigureConfidentialAccount(account, mint, owner core.Pubkey, signers []core.Pubkey, decryptableZero [36]byte,
	maxPendingCredits uint64, proofOffset int8, proofAccounts ...core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account), core.Readonly(mint)}, proofMetas(proofAccounts)...)
	return ix(Program2022ID, ctData(2, decryptableZero[:], u64Bytes(maxPendingCredits), []byte{byte(proofOffset)}),
		append(metas, authorityMetas(owner, signers)...)...)
}

// EmptyConfidentialAccount builds EmptyAccount, with a zero-ciphertext proof of the available
// balance.
func EmptyConfidentialAccount(account, owner core.Pubkey, signers []core.Pubkey, proofOffset int8, proofAccounts ...core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account)}, proofMetas(proofAccounts)...)
	return ix(Program2022ID, ctData(4, []byte{byte(proofOffset)}), append(metas, authorityMetas(owner, signers)...)...)
}

// DepositConfidential builds Deposit: amount of the public balance into the pending balance.
func DepositConfidential(account, mint, owner core.Pubkey, signers []core.Pubkey, amount uint64, decimals uint8) core.Instruction {
	metas := []core.AccountMeta{core.Writable(account), core.Readonly(mint)}
	return ix(Program2022ID, ctData(5, u64Bytes(amount), []byte{decimals}), append(metas, authorityMetas(owner, signers)...)...)
}

// WithdrawConfidential builds Withdraw, with the equality and 64-bit range proofs of the
// remaining balance.
func WithdrawConfidential(account, mint, owner core.Pubkey, signers []core.Pubkey, amount uint64, decimals uint8,
	newDecryptable [36]byte, equalityOffset, rangeOffset int8, proofAccounts ...core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account), core.Readonly(mint)}, proofMetas(proofAccounts)...)
	return ix(Program2022ID, ctData(6, u64Bytes(amount), []byte{decimals}, newDecryptable[:], []byte{byte(equalityOffset), byte(rangeOffset)}),
		append(metas, authorityMetas(owner, signers)...)...)
}

// TransferConfidential builds Transfer, with the equality, ciphertext-validity and 128-bit range
// proofs; auditorLo and auditorHi are the amount's halves under the auditor's key.
func TransferConfidential(source, mint, destination, owner core.Pubkey, signers []core.Pubkey, newDecryptable [36]byte,
	auditorLo, auditorHi [64]byte, equalityOffset, validityOffset, rangeOffset int8, proofAccounts ...core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(source), core.Readonly(mint), core.Writable(destination)}, proofMetas(proofAccounts)...)
	return ix(Program2022ID, ctData(7, newDecryptable[:], auditorLo[:], auditorHi[:],
		[]byte{byte(equalityOffset), byte(validityOffset), byte(rangeOffset)}), append(metas, authorityMetas(owner, signers)...)...)
}

// ApplyPendingConfidentialBalance builds ApplyPendingBalance: expectedCredits is the pending
// credit counter the owner's client saw, newDecryptable the new available balance's
// decryptable form.
func ApplyPendingConfidentialBalance(account, owner core.Pubkey, signers []core.Pubkey, expectedCredits uint64, newDecryptable [36]byte) core.Instruction {
	return ix(Program2022ID, ctData(8, u64Bytes(expectedCredits), newDecryptable[:]),
		append([]core.AccountMeta{core.Writable(account)}, authorityMetas(owner, signers)...)...)
}

// TransferConfidentialWithFee builds TransferWithFee: offsets are the equality, transfer amount
// validity, fee percentage-with-cap, fee validity and 256-bit range proofs'.
func TransferConfidentialWithFee(source, mint, destination, owner core.Pubkey, signers []core.Pubkey, newDecryptable [36]byte,
	auditorLo, auditorHi [64]byte, offsets [5]int8, proofAccounts ...core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(source), core.Readonly(mint), core.Writable(destination)}, proofMetas(proofAccounts)...)
	off := make([]byte, 5)
	for i, o := range offsets {
		off[i] = byte(o)
	}
	return ix(Program2022ID, ctData(13, newDecryptable[:], auditorLo[:], auditorHi[:], off), append(metas, authorityMetas(owner, signers)...)...)
}

// WithdrawWithheldConfidentialFromMint builds ConfidentialTransferFee's
// WithdrawWithheldTokensFromMint: the mint's encrypted withheld fees to destination, with a
// ciphertext-ciphertext equality proof, by the mint's withdraw-withheld authority.
func WithdrawWithheldConfidentialFromMint(mint, destination, authority core.Pubkey, signers []core.Pubkey, newDecryptable [36]byte,
	proofOffset int8, proofAccounts ...core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(mint), core.Writable(destination)}, proofMetas(proofAccounts)...)
	return ix(Program2022ID, ctfData(1, []byte{byte(proofOffset)}, newDecryptable[:]), append(metas, authorityMetas(authority, signers)...)...)
}

// WithdrawWithheldConfidentialFromAccounts builds WithdrawWithheldTokensFromAccounts: the
// encrypted withheld fees of sources to destination.
func WithdrawWithheldConfidentialFromAccounts(mint, destination, authority core.Pubkey, signers []core.Pubkey, newDecryptable [36]byte,
	proofOffset int8, proofAccounts []core.Pubkey, sources ...core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Readonly(mint), core.Writable(destination)}, proofMetas(proofAccounts)...)
	metas = append(metas, authorityMetas(authority, signers)...)
	for _, s := range sources {
		metas = append(metas, core.Writable(s))
	}
	return ix(Program2022ID, ctfData(2, []byte{byte(len(sources)), byte(proofOffset)}, newDecryptable[:]), metas...)
}

// HarvestWithheldConfidentialToMint builds HarvestWithheldTokensToMint: the sources'
// encrypted withheld fees to the mint's.
func HarvestWithheldConfidentialToMint(mint core.Pubkey, sources ...core.Pubkey) core.Instruction {
	metas := []core.AccountMeta{core.Writable(mint)}
	for _, s := range sources {
		metas = append(metas, core.Writable(s))
	}
	return ix(Program2022ID, ctfData(3), metas...)
}

// RotateSupplyElGamalPubkey builds ConfidentialMintBurn's RotateSupplyElGamalPubkey, with a
// ciphertext-ciphertext equality proof from the supply under the old key to the new one.
func RotateSupplyElGamalPubkey(mint, authority core.Pubkey, signers []core.Pubkey, newKey [32]byte, proofOffset int8,
	proofAccounts ...core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(mint)}, proofMetas(proofAccounts)...)
	return ix(Program2022ID, cmbData(1, newKey[:], []byte{byte(proofOffset)}), append(metas, authorityMetas(authority, signers)...)...)
}

// ConfidentialMintTo builds ConfidentialMintBurn's Mint, with the equality (new supply),
// validity and 128-bit range proofs.
func ConfidentialMintTo(account, mint, authority core.Pubkey, signers []core.Pubkey, newDecryptableSupply [36]byte,
	auditorLo, auditorHi [64]byte, offsets [3]int8, proofAccounts ...core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account), core.Writable(mint)}, proofMetas(proofAccounts)...)
	return ix(Program2022ID, cmbData(3, newDecryptableSupply[:], auditorLo[:], auditorHi[:], []byte{byte(offsets[0]), byte(offsets[1]), byte(offsets[2])}),
		append(metas, authorityMetas(authority, signers)...)...)
}

// ConfidentialBurnFrom builds ConfidentialMintBurn's Burn, with the equality (remaining
// balance), validity and 128-bit range proofs.
func ConfidentialBurnFrom(account, mint, owner core.Pubkey, signers []core.Pubkey, newDecryptable [36]byte,
	auditorLo, auditorHi [64]byte, offsets [3]int8, proofAccounts ...core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account), core.Writable(mint)}, proofMetas(proofAccounts)...)
	return ix(Program2022ID, cmbData(4, newDecryptable[:], auditorLo[:], auditorHi[:], []byte{byte(offsets[0]), byte(offsets[1]), byte(offsets[2])}),
		append(metas, authorityMetas(owner, signers)...)...)
}

// ApplyPendingBurn builds ConfidentialMintBurn's ApplyPendingBurn, by the mint authority.
func ApplyPendingBurn(mint, authority core.Pubkey, signers []core.Pubkey) core.Instruction {
	return ix(Program2022ID, cmbData(5), append([]core.AccountMeta{core.Writable(mint)}, authorityMetas(authority, signers)...)...)
}

// ElGamalRegistryProgramID owns the ElGamal registry accounts ConfigureAccountWithRegistry reads.
var ElGamalRegistryProgramID = elgamalRegistryProgramID

// ConfigureConfidentialAccountWithRegistry builds ConfigureAccountWithRegistry: the account
// takes the key of the owner's ElGamal registry account; with a payer, the account grows to
// hold the extension first.
func ConfigureConfidentialAccountWithRegistry(account, mint, registry core.Pubkey, payer *core.Pubkey) core.Instruction {
	metas := []core.AccountMeta{core.Writable(account), core.Readonly(mint), core.Readonly(registry)}
	if payer != nil {
		metas = append(metas, core.WritableSigner(*payer), core.Readonly(core.SystemProgramID))
	}
	return ix(Program2022ID, ctData(14), metas...)
}

// PermissionedConfidentialBurn builds PermissionedBurn's ConfidentialBurn: a confidential burn
// also signed by the mint's permissioned burn authority (after the proof accounts).
func PermissionedConfidentialBurn(account, mint, burnAuthority, owner core.Pubkey, signers []core.Pubkey, newDecryptable [36]byte,
	auditorLo, auditorHi [64]byte, offsets [3]int8, proofAccounts ...core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account), core.Writable(mint)}, proofMetas(proofAccounts)...)
	metas = append(metas, core.ReadonlySigner(burnAuthority))
	data := pbData(3, newDecryptable[:], auditorLo[:], auditorHi[:], []byte{byte(offsets[0]), byte(offsets[1]), byte(offsets[2])})
	return ix(Program2022ID, data, append(metas, authorityMetas(owner, signers)...)...)
}
