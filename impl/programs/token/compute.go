package token

import "ledgerd/impl/core"

// Compute units. ledgerd cannot meter the sBPF builds instruction by instruction, so each
// instruction charges, when it starts, what the on-chain program consumes for it on its
// success path: figures seen in mainnet and LiteSVM logs of spl-token 3.5 where they are well
// known (Transfer 4645, TransferChecked 6200, MintTo 4492, Burn 4753, CloseAccount 2915,
// SyncNative 3045, InitializeAccount3 4188, GetAccountDataSize 1622,
// InitializeImmutableOwner 1405, ...), and estimates from the work the instruction does
// otherwise. Token-2022 walks the TLV area and has more checks; its figures are larger by a
// fixed overhead and a cost per extension-bearing account. A multisig authority adds the cost
// of verifying its signers. Failing instructions are charged the same units (the real program
// stops earlier and uses somewhat fewer); compute units of the token programs are reported,
// not compared, by the parity test.

// classicUnits are SPL Token's units per instruction tag.
var classicUnits = [KindUiAmountToAmount + 1]uint64{
	KindInitializeMint:           2967,
	KindInitializeAccount:        3443,
	KindInitializeMultisig:       2940,
	KindTransfer:                 4645,
	KindApprove:                  2904,
	KindRevoke:                   2677,
	KindSetAuthority:             2998,
	KindMintTo:                   4492,
	KindBurn:                     4753,
	KindCloseAccount:             2915,
	KindFreezeAccount:            4267,
	KindThawAccount:              4267,
	KindTransferChecked:          6200,
	KindApproveChecked:           4458,
	KindMintToChecked:            4538,
	KindBurnChecked:              4794,
	KindInitializeAccount2:       4362,
	KindSyncNative:               3045,
	KindInitializeAccount3:       4188,
	KindInitializeMultisig2:      2830,
	KindInitializeMint2:          2780,
	KindGetAccountDataSize:       1622,
	KindInitializeImmutableOwner: 1405,
	KindAmountToUiAmount:         2140,
	KindUiAmountToAmount:         2520,
}

// Units of work that are not a whole instruction.
const (
	// invalidInstructionUnits is charged for data the program cannot decode.
	invalidInstructionUnits = 1300
	// token2022Overhead is added to every Token-2022 instruction of the base set.
	token2022Overhead = 700
	// extensionInstructionUnits is charged for an extension instruction of Token-2022.
	extensionInstructionUnits = 3200
	// metadataInstructionUnits is charged for a token-metadata instruction (borsh decoding,
	// reallocation).
	metadataInstructionUnits = 9500
	// multisigBaseUnits and multisigPerSignerUnits are added when the authority is a
	// multisig.
	multisigBaseUnits      = 300
	multisigPerSignerUnits = 130
)

// token2022Units overrides the base-set figures where Token-2022 differs in kind, and gives
// the extension instructions.
var token2022Units = map[Kind]uint64{
	KindGetAccountDataSize:            2400,
	KindInitializeImmutableOwner:      1500,
	KindInitializeMintCloseAuthority:  2000,
	KindInitializeNonTransferableMint: 1800,
	KindInitializePermanentDelegate:   2100,
	KindReallocate:                    6000,
	// The instructions added with 11.0.0's parity test, near the real build's units on their success path
	// (CreateNativeMint's own units, its three system program invocations aside).
	KindCreateNativeMint:       3400,
	KindWithdrawExcessLamports: 1400,
	KindUnwrapLamports:         1200,
	// A Batch charges this, and each of its instructions its own units.
	KindBatch: 300,
}

// token2022SubUnits are the extension sub-instructions that do more than flip a field.
var token2022SubUnits = map[[2]byte]uint64{
	{byte(KindTransferFeeExtension), 1}:         8200, // TransferCheckedWithFee: a checked transfer and the fee
	{byte(KindTransferFeeExtension), 2}:         5600, // WithdrawWithheldTokensFromMint
	{byte(KindTransferFeeExtension), 3}:         6400, // WithdrawWithheldTokensFromAccounts
	{byte(KindTransferFeeExtension), 4}:         4200, // HarvestWithheldTokensToMint
	{byte(KindInterestBearingMintExtension), 1}: 4400,
	{byte(KindTransferHookExtension), 0}:        950,
	{byte(KindTransferHookExtension), 1}:        1200,
	{byte(KindGroupPointerExtension), 0}:        950,
	{byte(KindGroupPointerExtension), 1}:        1150,
	{byte(KindGroupMemberPointerExtension), 0}:  950,
	{byte(KindGroupMemberPointerExtension), 1}:  1150,
	{byte(KindScaledUiAmountExtension), 0}:      1050,
	{byte(KindScaledUiAmountExtension), 1}:      1350,
	{byte(KindPausableExtension), 0}:            1050,
	{byte(KindPausableExtension), 1}:            1250,
	{byte(KindPausableExtension), 2}:            1250,
	{byte(KindPermissionedBurnExtension), 0}:    1050,
	{byte(KindPermissionedBurnExtension), 1}:    1900,
	{byte(KindPermissionedBurnExtension), 2}:    1950,
	// The confidential instructions (those with ciphertext arithmetic, which the real build
	// does through the curve syscalls, as LiteSVM's real Token-2022 11.0.0 spends them on their
	// success path in the confidential tests).
	{byte(KindConfidentialTransferExtension), 0}:    950,
	{byte(KindConfidentialTransferExtension), 1}:    1100,
	{byte(KindConfidentialTransferExtension), 2}:    2400,
	{byte(KindConfidentialTransferExtension), 3}:    1420,
	{byte(KindConfidentialTransferExtension), 4}:    1500,
	{byte(KindConfidentialTransferExtension), 5}:    10000,
	{byte(KindConfidentialTransferExtension), 6}:    5600,
	{byte(KindConfidentialTransferExtension), 7}:    14400,
	{byte(KindConfidentialTransferExtension), 8}:    8000,
	{byte(KindConfidentialTransferExtension), 13}:   44000,
	{byte(KindConfidentialTransferExtension), 9}:    1000,
	{byte(KindConfidentialTransferExtension), 10}:   1000,
	{byte(KindConfidentialTransferExtension), 11}:   1000,
	{byte(KindConfidentialTransferExtension), 12}:   1000,
	{byte(KindConfidentialTransferFeeExtension), 0}: 1050,
	{byte(KindConfidentialTransferFeeExtension), 1}: 3400,
	{byte(KindConfidentialTransferFeeExtension), 2}: 5400,
	{byte(KindConfidentialTransferFeeExtension), 3}: 6900,
	{byte(KindConfidentialTransferFeeExtension), 4}: 1200,
	{byte(KindConfidentialTransferFeeExtension), 5}: 1200,
	{byte(KindConfidentialMintBurnExtension), 0}:    1100,
	{byte(KindConfidentialMintBurnExtension), 1}:    2600,
	{byte(KindConfidentialMintBurnExtension), 2}:    1350,
	{byte(KindConfidentialMintBurnExtension), 3}:    18450,
	{byte(KindConfidentialMintBurnExtension), 4}:    14000,
	{byte(KindConfidentialMintBurnExtension), 5}:    3400,
	{byte(KindPermissionedBurnExtension), 3}:        14000,
}

// groupUnits are the token-group interface's instructions, by discriminator.
var groupUnits = map[[8]byte]uint64{
	[8]byte(discInitializeGroup):      2000,
	[8]byte(discUpdateGroupMaxSize):   1150,
	[8]byte(discUpdateGroupAuthority): 1150,
	[8]byte(discInitializeMember):     2600,
}

// baseUnits is what an instruction with the given data charges when it starts.
func baseUnits(is2022 bool, data []byte) uint64 {
	if len(data) == 0 {
		return invalidInstructionUnits
	}
	tag := Kind(data[0])
	if !is2022 {
		if tag <= KindUiAmountToAmount {
			return classicUnits[tag]
		}
		return invalidInstructionUnits
	}
	if u, ok := token2022Units[tag]; ok {
		return u
	}
	switch {
	case tag <= KindUiAmountToAmount:
		return classicUnits[tag] + token2022Overhead
	case tag < numTags || tag == KindBatch:
		if len(data) > 1 {
			if u, ok := token2022SubUnits[[2]byte{data[0], data[1]}]; ok {
				return u
			}
		}
		return extensionInstructionUnits
	case len(data) >= tokenMetadataDiscrimLen:
		if u, ok := groupUnits[[8]byte(data[:8])]; ok {
			return u
		}
		return metadataInstructionUnits
	}
	return invalidInstructionUnits
}

// multisigUnits is the extra cost of a multisig authority with the given number of signer
// accounts.
func multisigUnits(signerAccounts int) uint64 {
	return multisigBaseUnits + multisigPerSignerUnits*uint64(max(signerAccounts, 0))
}

// ComputeUnits returns the units ledgerd charges for an instruction of the token program
// programID with data, before any multisig verification (for tests and for clients that
// want to size their compute budget).
func ComputeUnits(programID core.Pubkey, data []byte) uint64 {
	return baseUnits(programID == Program2022ID, data)
}

// MultisigComputeUnits is what a multisig authority adds, with signerAccounts accounts after
// it.
func MultisigComputeUnits(signerAccounts int) uint64 { return multisigUnits(signerAccounts) }
