package ledger

import (
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
	slotHashes, ok := b.Env.Sysvar(core.SysvarSlotHashesID)
	if !ok {
		// The reference's SlotHashesSysvarNotFound.
		return nil, runtime.NewTransactionError(runtime.TxAccountNotFound)
	}
	return alt.LoadAddresses(m.AddressTableLookups, b, b.Slot, alt.SlotHashes(slotHashes))
}
