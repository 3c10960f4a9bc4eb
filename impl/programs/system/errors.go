package system

import "ledgerd/impl/runtime"

// SystemError is the system program's custom error (InstructionError::Custom(code)).
type SystemError uint32

// The SystemError codes.
const (
	AccountAlreadyInUse SystemError = iota
	ResultWithNegativeLamports
	InvalidProgramID
	InvalidAccountDataLength
	MaxSeedLengthExceeded
	AddressWithSeedMismatch
	NonceNoRecentBlockhashes
	NonceBlockhashNotExpired
	NonceUnexpectedBlockhashValue
	numSystemErrors
)

var systemErrorInfo = [numSystemErrors]struct{ name, text string }{
	{"AccountAlreadyInUse", "an account with the same address already exists"},
	{"ResultWithNegativeLamports", "account does not have enough SOL to perform the operation"},
	{"InvalidProgramId", "cannot assign account to this program id"},
	{"InvalidAccountDataLength", "cannot allocate account data of this length"},
	{"MaxSeedLengthExceeded", "length of requested seed is too long"},
	{"AddressWithSeedMismatch", "provided address does not match addressed derived from seed"},
	{"NonceNoRecentBlockhashes", "advancing stored nonce requires a populated RecentBlockhashes sysvar"},
	{"NonceBlockhashNotExpired", "stored nonce is still in recent_blockhashes"},
	{"NonceUnexpectedBlockhashValue", "specified nonce does not match stored nonce"},
}

// Name returns the variant name ("AccountAlreadyInUse").
func (e SystemError) Name() string {
	if e < numSystemErrors {
		return systemErrorInfo[e].name
	}
	return "Unknown"
}

// Error returns the reference's Display text.
func (e SystemError) Error() string {
	if e < numSystemErrors {
		return systemErrorInfo[e].text
	}
	return "unknown system error"
}

// Instruction returns the InstructionError the program fails with.
func (e SystemError) Instruction() runtime.InstructionError { return runtime.CustomError(uint32(e)) }
