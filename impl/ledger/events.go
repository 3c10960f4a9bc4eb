package ledger

import (
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// EventKind names a step of the chain that subscribers are told about.
type EventKind uint8

const (
	// SlotCreated: a working bank was opened (Bank, Slot, Parent).
	SlotCreated EventKind = iota
	// TxProcessed: a transaction was executed into the working bank (Bank, Slot, Tx, Result).
	TxProcessed
	// SlotFrozen: the working bank was completed and persisted (Bank, Slot, Parent, Accounts, Block, Txs).
	SlotFrozen
	// SlotConfirmed: the slot became the confirmed one (Bank, Slot).
	SlotConfirmed
	// SlotRooted: the slot became finalized (Slot; Bank for the newest rooted slot, nil for older ones that
	// were rooted at once after a restart); every slot is reported once, in order.
	SlotRooted
)

func (k EventKind) String() string {
	return [...]string{"slotCreated", "txProcessed", "slotFrozen", "slotConfirmed", "slotRooted"}[k]
}

// Event is one step of the chain.
type Event struct {
	Kind   EventKind
	Slot   uint64
	Parent uint64
	Bank   *Bank
	// TxProcessed.
	Tx     *core.Transaction
	Result *runtime.Result
	// SlotFrozen: the accounts the slot wrote, the block, and its transactions as stored (in block order, so
	// notifications need not read them back).
	Accounts []core.Pubkey
	Block    *BlockInfo
	Txs      []*TxRecord
}

// blockRecords are the stored records of a frozen block's transactions, from its entries. The metadata is
// shared with the entries, which nothing changes once recorded.
func blockRecords(info *BlockInfo, entries []*txEntry) []*TxRecord {
	out := make([]*TxRecord, len(entries))
	for i, e := range entries {
		out[i] = &TxRecord{Slot: info.Slot, Index: uint32(i), BlockTime: info.BlockTime, Tx: e.tx, Meta: e.meta}
	}
	return out
}

// Start starts the block producer of a ledger opened with Config.Paused (a no-op otherwise, or after Stop).
// Listeners registered before Start hear of every slot it produces.
func (l *Ledger) Start() {
	l.startOnce.Do(func() { go l.run() })
}

// OnEvent registers fn to be called for every event, in order, on the block producer's goroutine: fn must
// return quickly and never call back into the producer (Execute, Airdrop). Register before Start, so that no
// event is missed.
func (l *Ledger) OnEvent(fn func(Event)) {
	l.eventMu.Lock()
	l.listeners = append(l.listeners, fn)
	l.eventMu.Unlock()
}

func (l *Ledger) emit(e Event) {
	l.eventMu.RLock()
	fns := l.listeners
	l.eventMu.RUnlock()
	for _, fn := range fns {
		fn(e)
	}
}
