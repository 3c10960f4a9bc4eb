package token

import "ledgerd/impl/runtime"

// TokenError is the programs' custom error (InstructionError::Custom(code)). SPL Token uses
// codes 0 to 19; Token-2022 shares them and adds the rest.
type TokenError uint32

// The TokenError codes, in the order of spl-token-2022's error.rs.
const (
	NotRentExempt TokenError = iota
	InsufficientFunds
	InvalidMint
	MintMismatch
	OwnerMismatch
	FixedSupply
	AlreadyInUse
	InvalidNumberOfProvidedSigners
	InvalidNumberOfRequiredSigners
	UninitializedState
	NativeNotSupported
	NonNativeHasBalance
	InvalidInstruction
	InvalidState
	Overflow
	AuthorityTypeNotSupported
	MintCannotFreeze
	AccountFrozen
	MintDecimalsMismatch
	NonNativeNotSupported
	ExtensionTypeMismatch
	ExtensionBaseMismatch
	ExtensionAlreadyInitialized
	ConfidentialTransferAccountHasBalance
	ConfidentialTransferAccountNotApproved
	ConfidentialTransferDepositsAndTransfersDisabled
	ConfidentialTransferElGamalPubkeyMismatch
	ConfidentialTransferBalanceMismatch
	MintHasSupply
	NoAuthorityExists
	TransferFeeExceedsMaximum
	MintRequiredForTransfer
	FeeMismatch
	FeeParametersMismatch
	ImmutableOwner
	AccountHasWithheldTransferFees
	NoMemo
	NonTransferable
	NonTransferableNeedsImmutableOwnership
	MaximumPendingBalanceCreditCounterExceeded
	MaximumDepositAmountExceeded
	CpiGuardSettingsLocked
	CpiGuardTransferBlocked
	CpiGuardBurnBlocked
	CpiGuardCloseAccountBlocked
	CpiGuardApproveBlocked
	CpiGuardSetAuthorityBlocked
	CpiGuardOwnerChangeBlocked
	ExtensionNotFound
	NonConfidentialTransfersDisabled
	ConfidentialTransferFeeAccountHasWithheldFee
	InvalidExtensionCombination
	InvalidLengthForAlloc
	AccountDecryption
	ProofGeneration
	InvalidProofInstructionOffset
	HarvestToMintDisabled
	SplitProofContextStateAccountsNotSupported
	NotEnoughProofContextStateAccounts
	MalformedCiphertext
	CiphertextArithmeticFailed
	PedersenCommitmentMismatch
	RangeProofLengthMismatch
	IllegalBitLength
	FeeCalculation
	IllegalMintBurnConversion
	InvalidScale
	MintPaused
	PendingBalanceNonZero
	numTokenErrors
)

// tokenErrorInfo holds each variant's name, its Display text (thiserror) and the line the
// program logs when it fails with it (ToStr).
var tokenErrorInfo = [numTokenErrors]struct{ name, text, log string }{
	{"NotRentExempt", "Lamport balance below rent-exempt threshold", "Error: Lamport balance below rent-exempt threshold"},
	{"InsufficientFunds", "Insufficient funds", "Error: insufficient funds"},
	{"InvalidMint", "Invalid Mint", "Error: Invalid Mint"},
	{"MintMismatch", "Account not associated with this Mint", "Error: Account not associated with this Mint"},
	{"OwnerMismatch", "Owner does not match", "Error: owner does not match"},
	{"FixedSupply", "Fixed supply", "Error: the total supply of this token is fixed"},
	{"AlreadyInUse", "Already in use", "Error: account or token already in use"},
	{"InvalidNumberOfProvidedSigners", "Invalid number of provided signers", "Error: Invalid number of provided signers"},
	{"InvalidNumberOfRequiredSigners", "Invalid number of required signers", "Error: Invalid number of required signers"},
	{"UninitializedState", "State is uninitialized", "Error: State is uninitialized"},
	{"NativeNotSupported", "Instruction does not support native tokens", "Error: Instruction does not support native tokens"},
	{"NonNativeHasBalance", "Non-native account can only be closed if its balance is zero", "Error: Non-native account can only be closed if its balance is zero"},
	{"InvalidInstruction", "Invalid instruction", "Error: Invalid instruction"},
	{"InvalidState", "State is invalid for requested operation", "Error: Invalid account state for operation"},
	{"Overflow", "Operation overflowed", "Error: Operation overflowed"},
	{"AuthorityTypeNotSupported", "Account does not support specified authority type", "Error: Account does not support specified authority type"},
	{"MintCannotFreeze", "This token mint cannot freeze accounts", "Error: This token mint cannot freeze accounts"},
	{"AccountFrozen", "Account is frozen", "Error: Account is frozen"},
	{"MintDecimalsMismatch", "The provided decimals value different from the Mint decimals", "Error: decimals different from the Mint decimals"},
	{"NonNativeNotSupported", "Instruction does not support non-native tokens", "Error: Instruction does not support non-native tokens"},
	{"ExtensionTypeMismatch", "Extension type does not match already existing extensions", "Error: New extension type does not match already existing extensions"},
	{"ExtensionBaseMismatch", "Extension does not match the base type provided", "Error: Extension does not match the base type provided"},
	{"ExtensionAlreadyInitialized", "Extension already initialized on this account", "Error: Extension already initialized on this account"},
	{"ConfidentialTransferAccountHasBalance", "An account can only be closed if its confidential balance is zero", "Error: An account can only be closed if its confidential balance is zero"},
	{"ConfidentialTransferAccountNotApproved", "Account not approved for confidential transfers", "Error: Account not approved for confidential transfers"},
	{"ConfidentialTransferDepositsAndTransfersDisabled", "Account not accepting deposits or transfers", "Error: Account not accepting deposits or transfers"},
	{"ConfidentialTransferElGamalPubkeyMismatch", "ElGamal public key mismatch", "Error: ElGamal public key mismatch"},
	{"ConfidentialTransferBalanceMismatch", "Balance mismatch", "Error: Balance mismatch"},
	{"MintHasSupply", "Mint has non-zero supply. Burn all tokens before closing the mint", "Error: Mint has non-zero supply. Burn all tokens before closing the mint"},
	{"NoAuthorityExists", "No authority exists to perform the desired operation", "Error: No authority exists to perform the desired operation"},
	{"TransferFeeExceedsMaximum", "Transfer fee exceeds maximum of 10,000 basis points", "Error: Transfer fee exceeds maximum of 10,000 basis points"},
	{"MintRequiredForTransfer", "Mint required for this account to transfer tokens, use `transfer_checked` or `transfer_checked_with_fee`", "Mint required for this account to transfer tokens, use `transfer_checked` or `transfer_checked_with_fee`"},
	{"FeeMismatch", "Calculated fee does not match expected fee", "Calculated fee does not match expected fee"},
	{"FeeParametersMismatch", "Fee parameters associated with zero-knowledge proofs do not match fee parameters in mint", "Fee parameters associated with zero-knowledge proofs do not match fee parameters in mint"},
	{"ImmutableOwner", "The owner authority cannot be changed", "The owner authority cannot be changed"},
	{"AccountHasWithheldTransferFees", "An account can only be closed if its withheld fee balance is zero, harvest fees to the mint and try again", "Error: An account can only be closed if its withheld fee balance is zero, harvest fees to the mint and try again"},
	{"NoMemo", "No memo in previous instruction; required for recipient to receive a transfer", "Error: No memo in previous instruction required for recipient to receive a transfer"},
	{"NonTransferable", "Transfer is disabled for this mint", "Transfer is disabled for this mint"},
	{"NonTransferableNeedsImmutableOwnership", "Non-transferable tokens can't be minted to an account without immutable ownership", "Non-transferable tokens can't be minted to an account without immutable ownership"},
	{"MaximumPendingBalanceCreditCounterExceeded", "The total number of `Deposit` and `Transfer` instructions to an account cannot exceed the associated `maximum_pending_balance_credit_counter`", "The total number of `Deposit` and `Transfer` instructions to an account cannot exceed the associated `maximum_pending_balance_credit_counter`"},
	{"MaximumDepositAmountExceeded", "Deposit amount exceeds maximum limit", "Deposit amount exceeds maximum limit"},
	{"CpiGuardSettingsLocked", "CPI Guard cannot be enabled or disabled in CPI", "CPI Guard status cannot be changed in CPI"},
	{"CpiGuardTransferBlocked", "CPI Guard is enabled, and a program attempted to transfer user funds via CPI without using a delegate", "CPI Guard is enabled, and a program attempted to transfer user funds without using a delegate"},
	{"CpiGuardBurnBlocked", "CPI Guard is enabled, and a program attempted to burn user funds via CPI without using a delegate", "CPI Guard is enabled, and a program attempted to burn user funds without using a delegate"},
	{"CpiGuardCloseAccountBlocked", "CPI Guard is enabled, and a program attempted to close an account via CPI without returning lamports to owner", "CPI Guard is enabled, and a program attempted to close an account without returning lamports to owner"},
	{"CpiGuardApproveBlocked", "CPI Guard is enabled, and a program attempted to approve a delegate via CPI", "CPI Guard is enabled, and a program attempted to approve a delegate"},
	{"CpiGuardSetAuthorityBlocked", "CPI Guard is enabled, and a program attempted to add or replace an authority via CPI", "CPI Guard is enabled, and a program attempted to add or change an authority"},
	{"CpiGuardOwnerChangeBlocked", "Account ownership cannot be changed while CPI Guard is enabled", "Account ownership cannot be changed while CPI Guard is enabled"},
	{"ExtensionNotFound", "Extension not found in account data", "Extension not found in account data"},
	{"NonConfidentialTransfersDisabled", "Non-confidential transfers disabled", "Non-confidential transfers disabled"},
	{"ConfidentialTransferFeeAccountHasWithheldFee", "An account can only be closed if the confidential withheld fee is zero", "Account has non-zero confidential withheld fee"},
	{"InvalidExtensionCombination", "A mint or an account is initialized to an invalid combination of extensions", "Mint or account is initialized to an invalid combination of extensions"},
	{"InvalidLengthForAlloc", "Extension allocation with overwrite must use the same length", "Extension allocation with overwrite must use the same length"},
	{"AccountDecryption", "Failed to decrypt a confidential transfer account", "Failed to decrypt a confidential transfer account"},
	{"ProofGeneration", "Failed to generate proof", "Failed to generate proof"},
	{"InvalidProofInstructionOffset", "An invalid proof instruction offset was provided", "An invalid proof instruction offset was provided"},
	{"HarvestToMintDisabled", "Harvest of withheld tokens to mint is disabled", "Harvest of withheld tokens to mint is disabled"},
	{"SplitProofContextStateAccountsNotSupported", "Split proof context state accounts not supported for instruction", "Split proof context state accounts not supported for instruction"},
	{"NotEnoughProofContextStateAccounts", "Not enough proof context state accounts provided", "Not enough proof context state accounts provided"},
	{"MalformedCiphertext", "Ciphertext is malformed", "Ciphertext is malformed"},
	{"CiphertextArithmeticFailed", "Ciphertext arithmetic failed", "Ciphertext arithmetic failed"},
	{"PedersenCommitmentMismatch", "Pedersen commitment mismatch", "Pedersen commitments did not match"},
	{"RangeProofLengthMismatch", "Range proof length mismatch", "Range proof lengths did not match"},
	{"IllegalBitLength", "Illegal transfer amount bit length", "Illegal transfer amount bit length"},
	{"FeeCalculation", "Fee calculation failed", "Transfer fee calculation failed"},
	{"IllegalMintBurnConversion", "Withdraw / Deposit not allowed for confidential-mint-burn", "Conversions from normal to confidential token balance and vice versa are illegal if the confidential-mint-burn extension is enabled"},
	{"InvalidScale", "Invalid scale for scaled ui amount", "Invalid scale for scaled ui amount"},
	{"MintPaused", "Transferring, minting, and burning is paused on this mint", "Transferring, minting, and burning is paused on this mint"},
	{"PendingBalanceNonZero", "Key rotation attempted while pending balance is not zero", "Key rotation attempted while pending balance is not zero"},
}

// Name returns the variant name ("InsufficientFunds").
func (e TokenError) Name() string {
	if e < numTokenErrors {
		return tokenErrorInfo[e].name
	}
	return "Unknown"
}

// Error returns the variant's Display text ("Insufficient funds").
func (e TokenError) Error() string {
	if e < numTokenErrors {
		return tokenErrorInfo[e].text
	}
	return "Unknown"
}

// LogText returns the line the program logs when it fails with e, after "Program log: "
// ("Error: insufficient funds").
func (e TokenError) LogText() string {
	if e < numTokenErrors {
		return tokenErrorInfo[e].log
	}
	return "Error: Unknown"
}

// Instruction returns the InstructionError the program fails with.
func (e TokenError) Instruction() runtime.InstructionError { return runtime.CustomError(uint32(e)) }

// TokenMetadataError is the token-metadata interface's custom error, which Token-2022 returns
// from the metadata instructions.
type TokenMetadataError uint32

// The TokenMetadataError codes.
const (
	MetadataIncorrectAccount TokenMetadataError = 901_952_957 + iota
	MetadataMintHasNoMintAuthority
	MetadataIncorrectMintAuthority
	MetadataIncorrectUpdateAuthority
	MetadataImmutable
	MetadataKeyNotFound
)

var metadataErrorText = [...]string{
	"Incorrect account provided",
	"Mint has no mint authority",
	"Incorrect mint authority has signed the instruction",
	"Incorrect metadata update authority has signed the instruction",
	"Token metadata has no update authority",
	"Key not found in metadata account",
}

// Error returns the Display text.
func (e TokenMetadataError) Error() string {
	if i := int(e - MetadataIncorrectAccount); e >= MetadataIncorrectAccount && i < len(metadataErrorText) {
		return metadataErrorText[i]
	}
	return "Unknown"
}

// Instruction returns the InstructionError the program fails with.
func (e TokenMetadataError) Instruction() runtime.InstructionError {
	return runtime.CustomError(uint32(e))
}

// errorLogText is what the programs' entrypoints log for a failing instruction: the
// ToStr text of a TokenError, "Error: Unknown" for other custom codes (the metadata
// errors), and "Error: <Variant>" for the builtin program errors.
func errorLogText(e runtime.InstructionError) string {
	if e.Kind == runtime.IxCustom {
		return TokenError(e.Code).LogText()
	}
	return "Error: " + e.Kind.Name()
}

// Shorthands for the InstructionErrors the programs return.
var (
	errInvalidArgument          = runtime.ErrInvalidArgument
	errInvalidInstructionData   = runtime.ErrInvalidInstructionData
	errInvalidAccountData       = runtime.ErrInvalidAccountData
	errAccountDataTooSmall      = runtime.ErrAccountDataTooSmall
	errIncorrectProgramID       = runtime.ErrIncorrectProgramID
	errMissingRequiredSignature = runtime.ErrMissingRequiredSignature
	errUninitializedAccount     = runtime.ErrUninitializedAccount
	errNotEnoughAccountKeys     = runtime.ErrNotEnoughAccountKeys
	errBorshIoError             = runtime.ErrBorshIoError
	errInvalidRealloc           = runtime.ErrInvalidRealloc
)

// tokenErr returns e as an InstructionError (as a Go error).
func tokenErr(e TokenError) error { return e.Instruction() }
