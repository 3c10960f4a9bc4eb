package ledger

import (
	"sync/atomic"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/alt"
	"ledgerd/impl/runtime"
)

// LoadAddresses resolves m's address table lookups against b, as the reference's bank does when it
// sanitizes a v0 transaction: tables are read at b's slot (addresses appended in that slot serve
// from the next one) and a deactivated table serves while its deactivation slot is in b's
// SlotHashes. A message without lookups (legacy included) loads nothing: nil, nil. A failure is
// the transaction's error; the transaction is then rejected without being charged.
func (b *Bank) LoadAddresses(m *core.Message) (*core.LoadedAddresses, *runtime.TransactionError) {
	if m.Version != core.Version0 || len(m.AddressTableLookups) == 0 {
		return nil, nil
	}
	tableLoads.Add(1)
	slotHashes, ok := b.Env.Sysvar(core.SysvarSlotHashesID)
	if !ok {
		// The reference's SlotHashesSysvarNotFound.
		return nil, runtime.NewTransactionError(runtime.TxAccountNotFound)
	}
	return alt.LoadAddresses(m.AddressTableLookups, b, b.Slot, alt.SlotHashes(slotHashes))
}

// tableLoads counts the resolutions of lookups (tests check that a transaction's are resolved once).
var tableLoads atomic.Uint64

// Lookups are a message's address table lookups resolved once against a bank, carried from the RPC's sanitize
// step to the simulation and the producer so that the tables are read once on the transaction's way.
type Lookups struct {
	bank   *Bank
	msg    *core.Message
	Loaded *core.LoadedAddresses
	Err    *runtime.TransactionError
}

// ResolveLookups resolves m's lookups against b (see LoadAddresses).
func (b *Bank) ResolveLookups(m *core.Message) *Lookups {
	loaded, err := b.LoadAddresses(m)
	return &Lookups{bank: b, msg: m, Loaded: loaded, Err: err}
}

// lookupsIn returns m's lookups resolved against b: lk's when it was resolved against b for m and no table it
// read has been written in b since (b's other accounts are its parent's, which no longer change), else
// resolved anew.
func (b *Bank) lookupsIn(lk *Lookups, m *core.Message) (*core.LoadedAddresses, *runtime.TransactionError) {
	if lk == nil || lk.bank != b || lk.msg != m || b.wroteAny(m.AddressTableLookups) {
		return b.LoadAddresses(m)
	}
	return lk.Loaded, lk.Err
}

// wroteAny reports whether b wrote any of the lookups' tables.
func (b *Bank) wroteAny(lookups []core.AddressTableLookup) bool {
	if len(lookups) == 0 {
		return false
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, l := range lookups {
		if _, ok := b.overlay[l.AccountKey]; ok {
			return true
		}
	}
	return false
}
