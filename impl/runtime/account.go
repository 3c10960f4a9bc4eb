package runtime

import (
	"math"

	"ledgerd/impl/core"
)

// RentExemptRentEpoch is the rent epoch of every rent-exempt account (u64::MAX): rent
// collection is gone, and the runtime sets it on writable exempt accounts it loads.
const RentExemptRentEpoch uint64 = math.MaxUint64

// Account is the state of one account.
type Account struct {
	Lamports   uint64
	Owner      core.Pubkey
	Executable bool
	RentEpoch  uint64
	Data       []byte
}

// Clone returns a copy of a that shares no memory with it.
func (a Account) Clone() Account {
	if a.Data != nil {
		a.Data = append([]byte(nil), a.Data...)
	}
	return a
}

// AccountSource supplies the accounts a transaction reads. An account that is missing, or
// has zero lamports, does not exist. The runtime never modifies what GetAccount returns
// (data is copied before it is written), so a source may hand out shared slices.
type AccountSource interface {
	GetAccount(core.Pubkey) (Account, bool)
}

// MapSource is an AccountSource over a map, for tests and simple callers.
type MapSource map[core.Pubkey]Account

// GetAccount implements AccountSource.
func (m MapSource) GetAccount(k core.Pubkey) (Account, bool) {
	a, ok := m[k]
	return a, ok
}

// Apply stores writes into m (an account left with zero lamports is deleted), as a bank
// commits a transaction's result.
func (m MapSource) Apply(writes []AccountWrite) {
	for _, w := range writes {
		if w.Account.Lamports == 0 {
			delete(m, w.Pubkey)
			continue
		}
		m[w.Pubkey] = w.Account
	}
}

// AccountWrite is one account a transaction's result asks to store. An account with zero
// lamports no longer exists (the reference drops it from the accounts index).
type AccountWrite struct {
	Pubkey  core.Pubkey
	Account Account
}
