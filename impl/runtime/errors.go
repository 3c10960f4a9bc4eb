package runtime

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// InstructionErrorKind is a variant of the reference's InstructionError enum. The numbering
// is the enum's declaration order, which is also its bincode tag; never reorder.
type InstructionErrorKind uint8

// The InstructionError variants, in the order of the current SDK.
const (
	IxGenericError InstructionErrorKind = iota
	IxInvalidArgument
	IxInvalidInstructionData
	IxInvalidAccountData
	IxAccountDataTooSmall
	IxInsufficientFunds
	IxIncorrectProgramID
	IxMissingRequiredSignature
	IxAccountAlreadyInitialized
	IxUninitializedAccount
	IxUnbalancedInstruction
	IxModifiedProgramID
	IxExternalAccountLamportSpend
	IxExternalAccountDataModified
	IxReadonlyLamportChange
	IxReadonlyDataModified
	IxDuplicateAccountIndex
	IxExecutableModified
	IxRentEpochModified
	IxNotEnoughAccountKeys
	IxAccountDataSizeChanged
	IxAccountNotExecutable
	IxAccountBorrowFailed
	IxAccountBorrowOutstanding
	IxDuplicateAccountOutOfSync
	IxCustom
	IxInvalidError
	IxExecutableDataModified
	IxExecutableLamportChange
	IxExecutableAccountNotRentExempt
	IxUnsupportedProgramID
	IxCallDepth
	IxMissingAccount
	IxReentrancyNotAllowed
	IxMaxSeedLengthExceeded
	IxInvalidSeeds
	IxInvalidRealloc
	IxComputationalBudgetExceeded
	IxPrivilegeEscalation
	IxProgramEnvironmentSetupFailure
	IxProgramFailedToComplete
	IxProgramFailedToCompile
	IxImmutable
	IxIncorrectAuthority
	IxBorshIoError
	IxAccountNotRentExempt
	IxInvalidAccountOwner
	IxArithmeticOverflow
	IxUnsupportedSysvar
	IxIllegalOwner
	IxMaxAccountsDataAllocationsExceeded
	IxMaxAccountsExceeded
	IxMaxInstructionTraceLengthExceeded
	IxBuiltinProgramsMustConsumeComputeUnits
	IxBailOut
	numInstructionErrorKinds
)

// instructionErrorInfo holds each variant's serde name and Display text.
var instructionErrorInfo = [numInstructionErrorKinds]struct{ name, text string }{
	IxGenericError:                           {"GenericError", "generic instruction error"},
	IxInvalidArgument:                        {"InvalidArgument", "invalid program argument"},
	IxInvalidInstructionData:                 {"InvalidInstructionData", "invalid instruction data"},
	IxInvalidAccountData:                     {"InvalidAccountData", "invalid account data for instruction"},
	IxAccountDataTooSmall:                    {"AccountDataTooSmall", "account data too small for instruction"},
	IxInsufficientFunds:                      {"InsufficientFunds", "insufficient funds for instruction"},
	IxIncorrectProgramID:                     {"IncorrectProgramId", "incorrect program id for instruction"},
	IxMissingRequiredSignature:               {"MissingRequiredSignature", "missing required signature for instruction"},
	IxAccountAlreadyInitialized:              {"AccountAlreadyInitialized", "instruction requires an uninitialized account"},
	IxUninitializedAccount:                   {"UninitializedAccount", "instruction requires an initialized account"},
	IxUnbalancedInstruction:                  {"UnbalancedInstruction", "sum of account balances before and after instruction do not match"},
	IxModifiedProgramID:                      {"ModifiedProgramId", "instruction illegally modified the program id of an account"},
	IxExternalAccountLamportSpend:            {"ExternalAccountLamportSpend", "instruction spent from the balance of an account it does not own"},
	IxExternalAccountDataModified:            {"ExternalAccountDataModified", "instruction modified data of an account it does not own"},
	IxReadonlyLamportChange:                  {"ReadonlyLamportChange", "instruction changed the balance of a read-only account"},
	IxReadonlyDataModified:                   {"ReadonlyDataModified", "instruction modified data of a read-only account"},
	IxDuplicateAccountIndex:                  {"DuplicateAccountIndex", "instruction contains duplicate accounts"},
	IxExecutableModified:                     {"ExecutableModified", "instruction changed executable bit of an account"},
	IxRentEpochModified:                      {"RentEpochModified", "instruction modified rent epoch of an account"},
	IxNotEnoughAccountKeys:                   {"NotEnoughAccountKeys", "insufficient account keys for instruction"},
	IxAccountDataSizeChanged:                 {"AccountDataSizeChanged", "program other than the account's owner changed the size of the account data"},
	IxAccountNotExecutable:                   {"AccountNotExecutable", "instruction expected an executable account"},
	IxAccountBorrowFailed:                    {"AccountBorrowFailed", "instruction tries to borrow reference for an account which is already borrowed"},
	IxAccountBorrowOutstanding:               {"AccountBorrowOutstanding", "instruction left account with an outstanding borrowed reference"},
	IxDuplicateAccountOutOfSync:              {"DuplicateAccountOutOfSync", "instruction modifications of multiply-passed account differ"},
	IxCustom:                                 {"Custom", ""},
	IxInvalidError:                           {"InvalidError", "program returned invalid error code"},
	IxExecutableDataModified:                 {"ExecutableDataModified", "instruction changed executable accounts data"},
	IxExecutableLamportChange:                {"ExecutableLamportChange", "instruction changed the balance of an executable account"},
	IxExecutableAccountNotRentExempt:         {"ExecutableAccountNotRentExempt", "executable accounts must be rent exempt"},
	IxUnsupportedProgramID:                   {"UnsupportedProgramId", "Unsupported program id"},
	IxCallDepth:                              {"CallDepth", "Cross-program invocation call depth too deep"},
	IxMissingAccount:                         {"MissingAccount", "An account required by the instruction is missing"},
	IxReentrancyNotAllowed:                   {"ReentrancyNotAllowed", "Cross-program invocation reentrancy not allowed for this instruction"},
	IxMaxSeedLengthExceeded:                  {"MaxSeedLengthExceeded", "Length of the seed is too long for address generation"},
	IxInvalidSeeds:                           {"InvalidSeeds", "Provided seeds do not result in a valid address"},
	IxInvalidRealloc:                         {"InvalidRealloc", "Failed to reallocate account data"},
	IxComputationalBudgetExceeded:            {"ComputationalBudgetExceeded", "Computational budget exceeded"},
	IxPrivilegeEscalation:                    {"PrivilegeEscalation", "Cross-program invocation with unauthorized signer or writable account"},
	IxProgramEnvironmentSetupFailure:         {"ProgramEnvironmentSetupFailure", "Failed to create program execution environment"},
	IxProgramFailedToComplete:                {"ProgramFailedToComplete", "Program failed to complete"},
	IxProgramFailedToCompile:                 {"ProgramFailedToCompile", "Program failed to compile"},
	IxImmutable:                              {"Immutable", "Account is immutable"},
	IxIncorrectAuthority:                     {"IncorrectAuthority", "Incorrect authority provided"},
	IxBorshIoError:                           {"BorshIoError", "Failed to serialize or deserialize account data"},
	IxAccountNotRentExempt:                   {"AccountNotRentExempt", "An account does not have enough lamports to be rent-exempt"},
	IxInvalidAccountOwner:                    {"InvalidAccountOwner", "Invalid account owner"},
	IxArithmeticOverflow:                     {"ArithmeticOverflow", "Program arithmetic overflowed"},
	IxUnsupportedSysvar:                      {"UnsupportedSysvar", "Unsupported sysvar"},
	IxIllegalOwner:                           {"IllegalOwner", "Provided owner is not allowed"},
	IxMaxAccountsDataAllocationsExceeded:     {"MaxAccountsDataAllocationsExceeded", "Accounts data allocations exceeded the maximum allowed per transaction"},
	IxMaxAccountsExceeded:                    {"MaxAccountsExceeded", "Max accounts exceeded"},
	IxMaxInstructionTraceLengthExceeded:      {"MaxInstructionTraceLengthExceeded", "Max instruction trace length exceeded"},
	IxBuiltinProgramsMustConsumeComputeUnits: {"BuiltinProgramsMustConsumeComputeUnits", "Builtin programs must consume compute units"},
	IxBailOut:                                {"BailOut", "Block production bailed out"},
}

// Name returns the variant's name as serde writes it ("InvalidArgument", "Custom").
func (k InstructionErrorKind) Name() string {
	if k < numInstructionErrorKinds {
		return instructionErrorInfo[k].name
	}
	return "InstructionErrorKind(" + strconv.Itoa(int(k)) + ")"
}

// InstructionError is the reason an instruction failed: a variant of the reference's
// InstructionError, with the program's code for Custom. It is a comparable value, so
// errors.Is and == work against the Err* variables.
type InstructionError struct {
	Kind InstructionErrorKind
	Code uint32 // the custom error code; 0 unless Kind is IxCustom
}

// CustomError returns InstructionError::Custom(code), a program-specific error.
func CustomError(code uint32) InstructionError {
	return InstructionError{Kind: IxCustom, Code: code}
}

// The InstructionError values without data.
var (
	ErrGenericError                           = InstructionError{Kind: IxGenericError}
	ErrInvalidArgument                        = InstructionError{Kind: IxInvalidArgument}
	ErrInvalidInstructionData                 = InstructionError{Kind: IxInvalidInstructionData}
	ErrInvalidAccountData                     = InstructionError{Kind: IxInvalidAccountData}
	ErrAccountDataTooSmall                    = InstructionError{Kind: IxAccountDataTooSmall}
	ErrInsufficientFunds                      = InstructionError{Kind: IxInsufficientFunds}
	ErrIncorrectProgramID                     = InstructionError{Kind: IxIncorrectProgramID}
	ErrMissingRequiredSignature               = InstructionError{Kind: IxMissingRequiredSignature}
	ErrAccountAlreadyInitialized              = InstructionError{Kind: IxAccountAlreadyInitialized}
	ErrUninitializedAccount                   = InstructionError{Kind: IxUninitializedAccount}
	ErrUnbalancedInstruction                  = InstructionError{Kind: IxUnbalancedInstruction}
	ErrModifiedProgramID                      = InstructionError{Kind: IxModifiedProgramID}
	ErrExternalAccountLamportSpend            = InstructionError{Kind: IxExternalAccountLamportSpend}
	ErrExternalAccountDataModified            = InstructionError{Kind: IxExternalAccountDataModified}
	ErrReadonlyLamportChange                  = InstructionError{Kind: IxReadonlyLamportChange}
	ErrReadonlyDataModified                   = InstructionError{Kind: IxReadonlyDataModified}
	ErrDuplicateAccountIndex                  = InstructionError{Kind: IxDuplicateAccountIndex}
	ErrExecutableModified                     = InstructionError{Kind: IxExecutableModified}
	ErrRentEpochModified                      = InstructionError{Kind: IxRentEpochModified}
	ErrNotEnoughAccountKeys                   = InstructionError{Kind: IxNotEnoughAccountKeys}
	ErrAccountDataSizeChanged                 = InstructionError{Kind: IxAccountDataSizeChanged}
	ErrAccountNotExecutable                   = InstructionError{Kind: IxAccountNotExecutable}
	ErrAccountBorrowFailed                    = InstructionError{Kind: IxAccountBorrowFailed}
	ErrAccountBorrowOutstanding               = InstructionError{Kind: IxAccountBorrowOutstanding}
	ErrDuplicateAccountOutOfSync              = InstructionError{Kind: IxDuplicateAccountOutOfSync}
	ErrInvalidError                           = InstructionError{Kind: IxInvalidError}
	ErrExecutableDataModified                 = InstructionError{Kind: IxExecutableDataModified}
	ErrExecutableLamportChange                = InstructionError{Kind: IxExecutableLamportChange}
	ErrExecutableAccountNotRentExempt         = InstructionError{Kind: IxExecutableAccountNotRentExempt}
	ErrUnsupportedProgramID                   = InstructionError{Kind: IxUnsupportedProgramID}
	ErrCallDepth                              = InstructionError{Kind: IxCallDepth}
	ErrMissingAccount                         = InstructionError{Kind: IxMissingAccount}
	ErrReentrancyNotAllowed                   = InstructionError{Kind: IxReentrancyNotAllowed}
	ErrMaxSeedLengthExceeded                  = InstructionError{Kind: IxMaxSeedLengthExceeded}
	ErrInvalidSeeds                           = InstructionError{Kind: IxInvalidSeeds}
	ErrInvalidRealloc                         = InstructionError{Kind: IxInvalidRealloc}
	ErrComputationalBudgetExceeded            = InstructionError{Kind: IxComputationalBudgetExceeded}
	ErrPrivilegeEscalation                    = InstructionError{Kind: IxPrivilegeEscalation}
	ErrProgramEnvironmentSetupFailure         = InstructionError{Kind: IxProgramEnvironmentSetupFailure}
	ErrProgramFailedToComplete                = InstructionError{Kind: IxProgramFailedToComplete}
	ErrProgramFailedToCompile                 = InstructionError{Kind: IxProgramFailedToCompile}
	ErrImmutable                              = InstructionError{Kind: IxImmutable}
	ErrIncorrectAuthority                     = InstructionError{Kind: IxIncorrectAuthority}
	ErrBorshIoError                           = InstructionError{Kind: IxBorshIoError}
	ErrAccountNotRentExempt                   = InstructionError{Kind: IxAccountNotRentExempt}
	ErrInvalidAccountOwner                    = InstructionError{Kind: IxInvalidAccountOwner}
	ErrArithmeticOverflow                     = InstructionError{Kind: IxArithmeticOverflow}
	ErrUnsupportedSysvar                      = InstructionError{Kind: IxUnsupportedSysvar}
	ErrIllegalOwner                           = InstructionError{Kind: IxIllegalOwner}
	ErrMaxAccountsDataAllocationsExceeded     = InstructionError{Kind: IxMaxAccountsDataAllocationsExceeded}
	ErrMaxAccountsExceeded                    = InstructionError{Kind: IxMaxAccountsExceeded}
	ErrMaxInstructionTraceLengthExceeded      = InstructionError{Kind: IxMaxInstructionTraceLengthExceeded}
	ErrBuiltinProgramsMustConsumeComputeUnits = InstructionError{Kind: IxBuiltinProgramsMustConsumeComputeUnits}
	ErrBailOut                                = InstructionError{Kind: IxBailOut}
)

// Error returns the reference's Display text ("custom program error: 0x1").
func (e InstructionError) Error() string {
	if e.Kind == IxCustom {
		return "custom program error: 0x" + strconv.FormatUint(uint64(e.Code), 16)
	}
	if e.Kind < numInstructionErrorKinds {
		return instructionErrorInfo[e.Kind].text
	}
	return "unknown instruction error " + strconv.Itoa(int(e.Kind))
}

// MarshalJSON writes the serde form: a string for unit variants, {"Custom":n} for Custom.
// BorshIoError is the bare string, as in SDK v3.
func (e InstructionError) MarshalJSON() ([]byte, error) {
	if e.Kind >= numInstructionErrorKinds {
		return nil, fmt.Errorf("runtime: unknown InstructionError kind %d", e.Kind)
	}
	if e.Kind == IxCustom {
		return []byte(`{"Custom":` + strconv.FormatUint(uint64(e.Code), 10) + `}`), nil
	}
	return []byte(`"` + instructionErrorInfo[e.Kind].name + `"`), nil
}

var instructionErrorByName = func() map[string]InstructionErrorKind {
	m := make(map[string]InstructionErrorKind, numInstructionErrorKinds)
	for k := range numInstructionErrorKinds {
		m[instructionErrorInfo[k].name] = k
	}
	return m
}()

// UnmarshalJSON reads the serde form. It also accepts SDK v2's {"BorshIoError":"..."}.
func (e *InstructionError) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		var name string
		if err := json.Unmarshal(data, &name); err != nil {
			return err
		}
		k, ok := instructionErrorByName[name]
		if !ok || k == IxCustom {
			return fmt.Errorf("runtime: unknown InstructionError %q", name)
		}
		*e = InstructionError{Kind: k}
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return err
	}
	if len(obj) != 1 {
		return errors.New("runtime: InstructionError object must have one key")
	}
	for name, raw := range obj {
		switch name {
		case "Custom":
			var code uint32
			if err := json.Unmarshal(raw, &code); err != nil {
				return err
			}
			*e = CustomError(code)
			return nil
		case "BorshIoError":
			*e = ErrBorshIoError
			return nil
		}
		return fmt.Errorf("runtime: unknown InstructionError %q", name)
	}
	return nil
}

// TransactionErrorKind is a variant of the reference's TransactionError enum, numbered in
// declaration order (its bincode tag); never reorder.
type TransactionErrorKind uint8

// The TransactionError variants, in the order of the current SDK.
const (
	TxAccountInUse TransactionErrorKind = iota
	TxAccountLoadedTwice
	TxAccountNotFound
	TxProgramAccountNotFound
	TxInsufficientFundsForFee
	TxInvalidAccountForFee
	TxAlreadyProcessed
	TxBlockhashNotFound
	TxInstructionError
	TxCallChainTooDeep
	TxMissingSignatureForFee
	TxInvalidAccountIndex
	TxSignatureFailure
	TxInvalidProgramForExecution
	TxSanitizeFailure
	TxClusterMaintenance
	TxAccountBorrowOutstanding
	TxWouldExceedMaxBlockCostLimit
	TxUnsupportedVersion
	TxInvalidWritableAccount
	TxWouldExceedMaxAccountCostLimit
	TxWouldExceedAccountDataBlockLimit
	TxTooManyAccountLocks
	TxAddressLookupTableNotFound
	TxInvalidAddressLookupTableOwner
	TxInvalidAddressLookupTableData
	TxInvalidAddressLookupTableIndex
	TxInvalidRentPayingAccount
	TxWouldExceedMaxVoteCostLimit
	TxWouldExceedAccountDataTotalLimit
	TxDuplicateInstruction
	TxInsufficientFundsForRent
	TxMaxLoadedAccountsDataSizeExceeded
	TxInvalidLoadedAccountsDataSizeLimit
	TxResanitizationNeeded
	TxProgramExecutionTemporarilyRestricted
	TxUnbalancedTransaction
	TxProgramCacheHitMaxLimit
	TxCommitCancelled
	numTransactionErrorKinds
)

var transactionErrorInfo = [numTransactionErrorKinds]struct{ name, text string }{
	TxAccountInUse:                          {"AccountInUse", "Account in use"},
	TxAccountLoadedTwice:                    {"AccountLoadedTwice", "Account loaded twice"},
	TxAccountNotFound:                       {"AccountNotFound", "Attempt to debit an account but found no record of a prior credit."},
	TxProgramAccountNotFound:                {"ProgramAccountNotFound", "Attempt to load a program that does not exist"},
	TxInsufficientFundsForFee:               {"InsufficientFundsForFee", "Insufficient funds for fee"},
	TxInvalidAccountForFee:                  {"InvalidAccountForFee", "This account may not be used to pay transaction fees"},
	TxAlreadyProcessed:                      {"AlreadyProcessed", "This transaction has already been processed"},
	TxBlockhashNotFound:                     {"BlockhashNotFound", "Blockhash not found"},
	TxInstructionError:                      {"InstructionError", ""},
	TxCallChainTooDeep:                      {"CallChainTooDeep", "Loader call chain is too deep"},
	TxMissingSignatureForFee:                {"MissingSignatureForFee", "Transaction requires a fee but has no signature present"},
	TxInvalidAccountIndex:                   {"InvalidAccountIndex", "Transaction contains an invalid account reference"},
	TxSignatureFailure:                      {"SignatureFailure", "Transaction did not pass signature verification"},
	TxInvalidProgramForExecution:            {"InvalidProgramForExecution", "This program may not be used for executing instructions"},
	TxSanitizeFailure:                       {"SanitizeFailure", "Transaction failed to sanitize accounts offsets correctly"},
	TxClusterMaintenance:                    {"ClusterMaintenance", "Transactions are currently disabled due to cluster maintenance"},
	TxAccountBorrowOutstanding:              {"AccountBorrowOutstanding", "Transaction processing left an account with an outstanding borrowed reference"},
	TxWouldExceedMaxBlockCostLimit:          {"WouldExceedMaxBlockCostLimit", "Transaction would exceed max Block Cost Limit"},
	TxUnsupportedVersion:                    {"UnsupportedVersion", "Transaction version is unsupported"},
	TxInvalidWritableAccount:                {"InvalidWritableAccount", "Transaction loads a writable account that cannot be written"},
	TxWouldExceedMaxAccountCostLimit:        {"WouldExceedMaxAccountCostLimit", "Transaction would exceed max account limit within the block"},
	TxWouldExceedAccountDataBlockLimit:      {"WouldExceedAccountDataBlockLimit", "Transaction would exceed account data limit within the block"},
	TxTooManyAccountLocks:                   {"TooManyAccountLocks", "Transaction locked too many accounts"},
	TxAddressLookupTableNotFound:            {"AddressLookupTableNotFound", "Transaction loads an address table account that doesn't exist"},
	TxInvalidAddressLookupTableOwner:        {"InvalidAddressLookupTableOwner", "Transaction loads an address table account with an invalid owner"},
	TxInvalidAddressLookupTableData:         {"InvalidAddressLookupTableData", "Transaction loads an address table account with invalid data"},
	TxInvalidAddressLookupTableIndex:        {"InvalidAddressLookupTableIndex", "Transaction address table lookup uses an invalid index"},
	TxInvalidRentPayingAccount:              {"InvalidRentPayingAccount", "Transaction leaves an account with a lower balance than rent-exempt minimum"},
	TxWouldExceedMaxVoteCostLimit:           {"WouldExceedMaxVoteCostLimit", "Transaction would exceed max Vote Cost Limit"},
	TxWouldExceedAccountDataTotalLimit:      {"WouldExceedAccountDataTotalLimit", "Transaction would exceed total account data limit"},
	TxDuplicateInstruction:                  {"DuplicateInstruction", ""},
	TxInsufficientFundsForRent:              {"InsufficientFundsForRent", ""},
	TxMaxLoadedAccountsDataSizeExceeded:     {"MaxLoadedAccountsDataSizeExceeded", "Transaction exceeded max loaded accounts data size cap"},
	TxInvalidLoadedAccountsDataSizeLimit:    {"InvalidLoadedAccountsDataSizeLimit", "LoadedAccountsDataSizeLimit set for transaction must be greater than 0."},
	TxResanitizationNeeded:                  {"ResanitizationNeeded", "ResanitizationNeeded"},
	TxProgramExecutionTemporarilyRestricted: {"ProgramExecutionTemporarilyRestricted", ""},
	TxUnbalancedTransaction:                 {"UnbalancedTransaction", "Sum of account balances before and after transaction do not match"},
	TxProgramCacheHitMaxLimit:               {"ProgramCacheHitMaxLimit", "Program cache hit max limit"},
	TxCommitCancelled:                       {"CommitCancelled", "CommitCancelled"},
}

// Name returns the variant's serde name ("BlockhashNotFound").
func (k TransactionErrorKind) Name() string {
	if k < numTransactionErrorKinds {
		return transactionErrorInfo[k].name
	}
	return "TransactionErrorKind(" + strconv.Itoa(int(k)) + ")"
}

// TransactionError is the reason a transaction failed: a variant of the reference's
// TransactionError. Index is the instruction index of InstructionError and
// DuplicateInstruction, and the account_index of InsufficientFundsForRent and
// ProgramExecutionTemporarilyRestricted; Instruction is the InstructionError's payload.
type TransactionError struct {
	Kind        TransactionErrorKind
	Index       uint8
	Instruction InstructionError
}

// NewTransactionError returns a variant without data (for the data variants use the
// dedicated constructors).
func NewTransactionError(kind TransactionErrorKind) *TransactionError {
	return &TransactionError{Kind: kind}
}

// InstructionErrorAt returns InstructionError(index, err).
func InstructionErrorAt(index uint8, err InstructionError) *TransactionError {
	return &TransactionError{Kind: TxInstructionError, Index: index, Instruction: err}
}

// DuplicateInstructionError returns DuplicateInstruction(index).
func DuplicateInstructionError(index uint8) *TransactionError {
	return &TransactionError{Kind: TxDuplicateInstruction, Index: index}
}

// InsufficientFundsForRentError returns InsufficientFundsForRent { account_index }.
func InsufficientFundsForRentError(accountIndex uint8) *TransactionError {
	return &TransactionError{Kind: TxInsufficientFundsForRent, Index: accountIndex}
}

// ProgramExecutionTemporarilyRestrictedError returns that variant for accountIndex.
func ProgramExecutionTemporarilyRestrictedError(accountIndex uint8) *TransactionError {
	return &TransactionError{Kind: TxProgramExecutionTemporarilyRestricted, Index: accountIndex}
}

// Error returns the reference's Display text, which the RPC layer puts into messages such as
// "Transaction simulation failed: <text>".
func (e TransactionError) Error() string {
	switch e.Kind {
	case TxInstructionError:
		return "Error processing Instruction " + strconv.Itoa(int(e.Index)) + ": " + e.Instruction.Error()
	case TxDuplicateInstruction:
		return "Transaction contains a duplicate instruction (" + strconv.Itoa(int(e.Index)) + ") that is not allowed"
	case TxInsufficientFundsForRent:
		return "Transaction results in an account (" + strconv.Itoa(int(e.Index)) + ") with insufficient funds for rent"
	case TxProgramExecutionTemporarilyRestricted:
		return "Execution of the program referenced by account at index " + strconv.Itoa(int(e.Index)) + " is temporarily restricted."
	}
	if e.Kind < numTransactionErrorKinds {
		return transactionErrorInfo[e.Kind].text
	}
	return "unknown transaction error " + strconv.Itoa(int(e.Kind))
}

// String is Error (the Display text).
func (e TransactionError) String() string { return e.Error() }

// Is makes errors.Is compare TransactionErrors by value.
func (e TransactionError) Is(target error) bool {
	switch t := target.(type) {
	case TransactionError:
		return e == t
	case *TransactionError:
		return t != nil && e == *t
	}
	return false
}

// MarshalJSON writes the serde (externally tagged) form: "BlockhashNotFound",
// {"InstructionError":[0,{"Custom":1}]}, {"DuplicateInstruction":0},
// {"InsufficientFundsForRent":{"account_index":2}}.
func (e TransactionError) MarshalJSON() ([]byte, error) {
	if e.Kind >= numTransactionErrorKinds {
		return nil, fmt.Errorf("runtime: unknown TransactionError kind %d", e.Kind)
	}
	name := transactionErrorInfo[e.Kind].name
	idx := strconv.Itoa(int(e.Index))
	switch e.Kind {
	case TxInstructionError:
		inner, err := e.Instruction.MarshalJSON()
		if err != nil {
			return nil, err
		}
		return []byte(`{"InstructionError":[` + idx + `,` + string(inner) + `]}`), nil
	case TxDuplicateInstruction:
		return []byte(`{"DuplicateInstruction":` + idx + `}`), nil
	case TxInsufficientFundsForRent, TxProgramExecutionTemporarilyRestricted:
		return []byte(`{"` + name + `":{"account_index":` + idx + `}}`), nil
	}
	return []byte(`"` + name + `"`), nil
}

var transactionErrorByName = func() map[string]TransactionErrorKind {
	m := make(map[string]TransactionErrorKind, numTransactionErrorKinds)
	for k := range numTransactionErrorKinds {
		m[transactionErrorInfo[k].name] = k
	}
	return m
}()

// UnmarshalJSON reads the serde form written by MarshalJSON.
func (e *TransactionError) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		var name string
		if err := json.Unmarshal(data, &name); err != nil {
			return err
		}
		k, ok := transactionErrorByName[name]
		if !ok || k == TxInstructionError || k == TxDuplicateInstruction ||
			k == TxInsufficientFundsForRent || k == TxProgramExecutionTemporarilyRestricted {
			return fmt.Errorf("runtime: unknown TransactionError %q", name)
		}
		*e = TransactionError{Kind: k}
		return nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return err
	}
	if len(obj) != 1 {
		return errors.New("runtime: TransactionError object must have one key")
	}
	for name, raw := range obj {
		k, ok := transactionErrorByName[name]
		if !ok {
			return fmt.Errorf("runtime: unknown TransactionError %q", name)
		}
		switch k {
		case TxInstructionError:
			var pair []json.RawMessage
			if err := json.Unmarshal(raw, &pair); err != nil {
				return err
			}
			if len(pair) != 2 {
				return errors.New("runtime: InstructionError must be [index, error]")
			}
			var idx uint8
			if err := json.Unmarshal(pair[0], &idx); err != nil {
				return err
			}
			var ie InstructionError
			if err := ie.UnmarshalJSON(pair[1]); err != nil {
				return err
			}
			*e = TransactionError{Kind: k, Index: idx, Instruction: ie}
			return nil
		case TxDuplicateInstruction:
			var idx uint8
			if err := json.Unmarshal(raw, &idx); err != nil {
				return err
			}
			*e = TransactionError{Kind: k, Index: idx}
			return nil
		case TxInsufficientFundsForRent, TxProgramExecutionTemporarilyRestricted:
			var v struct {
				AccountIndex *uint8 `json:"account_index"`
			}
			if err := json.Unmarshal(raw, &v); err != nil {
				return err
			}
			if v.AccountIndex == nil {
				return errors.New("runtime: missing account_index")
			}
			*e = TransactionError{Kind: k, Index: *v.AccountIndex}
			return nil
		}
		return fmt.Errorf("runtime: TransactionError %q has no data", name)
	}
	return nil
}

// MarshalBinary writes the bincode form the reference stores in its ledger: a u32 variant tag,
// then the variant's data (u8 index; InstructionError's u32 tag and, for Custom, u32 code).
func (e TransactionError) MarshalBinary() ([]byte, error) {
	if e.Kind >= numTransactionErrorKinds {
		return nil, fmt.Errorf("runtime: unknown TransactionError kind %d", e.Kind)
	}
	b := binary.LittleEndian.AppendUint32(nil, uint32(e.Kind))
	switch e.Kind {
	case TxInstructionError:
		if e.Instruction.Kind >= numInstructionErrorKinds {
			return nil, fmt.Errorf("runtime: unknown InstructionError kind %d", e.Instruction.Kind)
		}
		b = append(b, e.Index)
		b = binary.LittleEndian.AppendUint32(b, uint32(e.Instruction.Kind))
		if e.Instruction.Kind == IxCustom {
			b = binary.LittleEndian.AppendUint32(b, e.Instruction.Code)
		}
	case TxDuplicateInstruction, TxInsufficientFundsForRent, TxProgramExecutionTemporarilyRestricted:
		b = append(b, e.Index)
	}
	return b, nil
}

// UnmarshalBinary reads the bincode form; b must hold exactly one value.
func (e *TransactionError) UnmarshalBinary(b []byte) error {
	bad := errors.New("runtime: malformed TransactionError")
	if len(b) < 4 {
		return bad
	}
	tag := binary.LittleEndian.Uint32(b)
	if tag >= uint32(numTransactionErrorKinds) {
		return bad
	}
	k := TransactionErrorKind(tag)
	rest := b[4:]
	v := TransactionError{Kind: k}
	switch k {
	case TxInstructionError:
		if len(rest) < 5 {
			return bad
		}
		v.Index = rest[0]
		itag := binary.LittleEndian.Uint32(rest[1:])
		if itag >= uint32(numInstructionErrorKinds) {
			return bad
		}
		v.Instruction.Kind = InstructionErrorKind(itag)
		rest = rest[5:]
		if v.Instruction.Kind == IxCustom {
			if len(rest) < 4 {
				return bad
			}
			v.Instruction.Code = binary.LittleEndian.Uint32(rest)
			rest = rest[4:]
		}
	case TxDuplicateInstruction, TxInsufficientFundsForRent, TxProgramExecutionTemporarilyRestricted:
		if len(rest) < 1 {
			return bad
		}
		v.Index = rest[0]
		rest = rest[1:]
	}
	if len(rest) != 0 {
		return bad
	}
	*e = v
	return nil
}
