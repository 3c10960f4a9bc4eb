package alt

import "ledgerd/impl/runtime"

// Error is the program's custom error (InstructionError::Custom(code)), as the on-chain build
// defines it: address derivation failures, and writes it refuses to make to read-only accounts.
type Error uint32

// The program's error codes.
const (
	PubkeyErrorMaxSeedLengthExceeded Error = 0
	PubkeyErrorInvalidSeeds          Error = 1
	PubkeyErrorIllegalOwner          Error = 2
	ReadonlyDataModified             Error = 10
	ReadonlyLamportsChanged          Error = 11
)

// Error returns the text the program logs when it fails with e.
func (e Error) Error() string {
	switch e {
	case PubkeyErrorMaxSeedLengthExceeded:
		return "Length of the seed is too long for address generation"
	case PubkeyErrorInvalidSeeds:
		return "Provided seeds do not result in a valid address"
	case PubkeyErrorIllegalOwner:
		return "Provided owner is not allowed"
	case ReadonlyDataModified:
		return "Instruction modified data of a read-only account"
	case ReadonlyLamportsChanged:
		return "Instruction changed the balance of a read-only account"
	}
	return "Error: Unknown"
}

// Instruction returns the InstructionError the program fails with.
func (e Error) Instruction() runtime.InstructionError { return runtime.CustomError(uint32(e)) }

// errorLog is the line the program's entrypoint logs for a failure (ProgramError::to_str):
// "Error: <variant>" for the standard errors, the custom error's text for its own.
func errorLog(err runtime.InstructionError) string {
	if err.Kind == runtime.IxCustom {
		return Error(err.Code).Error()
	}
	return "Error: " + err.Kind.Name()
}
