package core

import "errors"

// SanitizeError is the reference's SanitizeError: the reason a structurally decodable message
// is inconsistent. Its text is the reference's Display form, which getFeeForMessage reports
// (`invalid transaction message: index out of bounds`).
type SanitizeError uint8

const (
	SanitizeIndexOutOfBounds SanitizeError = iota + 1
	SanitizeValueOutOfBounds
	SanitizeInvalidValue
)

func (e SanitizeError) Error() string {
	switch e {
	case SanitizeIndexOutOfBounds:
		return "index out of bounds"
	case SanitizeValueOutOfBounds:
		return "value out of bounds"
	case SanitizeInvalidValue:
		return "invalid value"
	default:
		return "unknown sanitize error"
	}
}

// ErrSanitizeFailure is the transaction-level error every SanitizeError becomes
// (TransactionError::SanitizeFailure); sendTransaction reports it as
// `invalid transaction: Transaction failed to sanitize accounts offsets correctly`.
var ErrSanitizeFailure = errors.New("Transaction failed to sanitize accounts offsets correctly")

// TransactionSanitizeError is what Transaction.Sanitize returns: its text is that of
// ErrSanitizeFailure (errors.Is matches it) and it unwraps to the SanitizeError cause.
type TransactionSanitizeError struct{ Cause SanitizeError }

func (e *TransactionSanitizeError) Error() string        { return ErrSanitizeFailure.Error() }
func (e *TransactionSanitizeError) Unwrap() error        { return e.Cause }
func (e *TransactionSanitizeError) Is(target error) bool { return target == ErrSanitizeFailure }

// MaxAccountKeys is the most accounts a v0 message can address: indexes are u8.
const MaxAccountKeys = 256

// Sanitize applies the reference's structural checks for the message's version. It returns nil
// or a SanitizeError.
func (m *Message) Sanitize() error {
	if m.Version == Version0 {
		return m.sanitizeV0()
	}
	return m.sanitizeLegacy()
}

func (m *Message) sanitizeLegacy() error {
	h := m.Header
	nkeys := len(m.AccountKeys)
	// The signing area and the read-only unsigned area must not overlap.
	if int(h.NumRequiredSignatures)+int(h.NumReadonlyUnsignedAccounts) > nkeys {
		return SanitizeIndexOutOfBounds
	}
	// There must be a writable signer: the fee payer.
	if h.NumReadonlySignedAccounts >= h.NumRequiredSignatures {
		return SanitizeIndexOutOfBounds
	}
	for i := range m.Instructions {
		ix := &m.Instructions[i]
		if int(ix.ProgramIDIndex) >= nkeys {
			return SanitizeIndexOutOfBounds
		}
		// The fee payer cannot be a program.
		if ix.ProgramIDIndex == 0 {
			return SanitizeIndexOutOfBounds
		}
		for _, a := range ix.Accounts {
			if int(a) >= nkeys {
				return SanitizeIndexOutOfBounds
			}
		}
	}
	return nil
}

func (m *Message) sanitizeV0() error {
	h := m.Header
	nstatic := len(m.AccountKeys)
	if int(h.NumRequiredSignatures)+int(h.NumReadonlyUnsignedAccounts) > nstatic {
		return SanitizeIndexOutOfBounds
	}
	if h.NumReadonlySignedAccounts >= h.NumRequiredSignatures {
		return SanitizeInvalidValue
	}
	ndynamic := 0
	for i := range m.AddressTableLookups {
		l := &m.AddressTableLookups[i]
		n := len(l.WritableIndexes) + len(l.ReadonlyIndexes)
		// Every lookup must load at least one account.
		if n == 0 {
			return SanitizeInvalidValue
		}
		ndynamic += n
	}
	if nstatic == 0 {
		return SanitizeInvalidValue
	}
	total := nstatic + ndynamic
	if total > MaxAccountKeys {
		return SanitizeIndexOutOfBounds
	}
	maxAccount := total - 1
	// Program ids must be static keys, so programs are known without loading tables.
	maxProgram := nstatic - 1
	for i := range m.Instructions {
		ix := &m.Instructions[i]
		if int(ix.ProgramIDIndex) > maxProgram {
			return SanitizeIndexOutOfBounds
		}
		if ix.ProgramIDIndex == 0 {
			return SanitizeIndexOutOfBounds
		}
		for _, a := range ix.Accounts {
			if int(a) > maxAccount {
				return SanitizeIndexOutOfBounds
			}
		}
	}
	return nil
}

// Sanitize applies the message checks and then the signature-count checks of the reference's
// VersionedTransaction::sanitize: exactly one signature per required signer, and no more
// signatures than static keys. It returns nil or a *TransactionSanitizeError.
func (tx *Transaction) Sanitize() error {
	if err := tx.Message.Sanitize(); err != nil {
		return &TransactionSanitizeError{Cause: err.(SanitizeError)}
	}
	required := int(tx.Message.Header.NumRequiredSignatures)
	switch {
	case required > len(tx.Signatures):
		return &TransactionSanitizeError{Cause: SanitizeIndexOutOfBounds}
	case required < len(tx.Signatures):
		return &TransactionSanitizeError{Cause: SanitizeInvalidValue}
	}
	if len(tx.Signatures) > len(tx.Message.AccountKeys) {
		return &TransactionSanitizeError{Cause: SanitizeIndexOutOfBounds}
	}
	return nil
}

// Account-lock errors, raised when a transaction is prepared for execution (after sanitize).
// The texts are the reference's TransactionError Display forms.
var (
	ErrAccountLoadedTwice  = errors.New("Account loaded twice")
	ErrTooManyAccountLocks = errors.New("Transaction locked too many accounts")
)

// MaxTxAccountLocks is the default limit on the accounts one transaction may lock.
const MaxTxAccountLocks = 128

// HasDuplicateKeys reports whether keys holds any key twice.
func HasDuplicateKeys(keys []Pubkey) bool {
	if len(keys) > 64 {
		seen := make(map[Pubkey]struct{}, len(keys))
		for _, k := range keys {
			if _, ok := seen[k]; ok {
				return true
			}
			seen[k] = struct{}{}
		}
		return false
	}
	// Quadratic but allocation-free: faster than a set for the short lists transactions carry.
	for i := 1; i < len(keys); i++ {
		for j := 0; j < i; j++ {
			if keys[i] == keys[j] {
				return true
			}
		}
	}
	return false
}

// ValidateAccountLocks applies the reference's validate_account_locks to the full list of a
// transaction's account keys (static and loaded): more than limit keys is
// ErrTooManyAccountLocks, a repeated key is ErrAccountLoadedTwice.
func ValidateAccountLocks(keys []Pubkey, limit int) error {
	if len(keys) > limit {
		return ErrTooManyAccountLocks
	}
	if HasDuplicateKeys(keys) {
		return ErrAccountLoadedTwice
	}
	return nil
}

// HasDuplicates reports whether the message's static keys repeat a key.
func (m *Message) HasDuplicates() bool { return HasDuplicateKeys(m.AccountKeys) }
