package pubsub

import (
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// item is one queued ledger event, or a received signature.
type item struct {
	seq uint64
	at  time.Time // when it happened, for slotsUpdates timestamps
	ev  ledger.Event

	// A signature sendTransaction received (ev is unused).
	received bool
	sig      core.Signature
	recvSlot uint64

	// SlotFrozen: how many of the slot's transaction events were queued, and whether the rest were dropped
	// (the worker then catches up from the frozen bank and the stored block).
	accepted int
	dropped  bool
}

// queue hands events from the producer (and sendTransaction) to the worker without ever blocking them.
type queue struct {
	mu        sync.Mutex
	items     []item
	wake      chan struct{}
	maxTx     int
	pendingTx int // transaction and received items queued
	closed    bool

	// The slot whose transaction events are being queued, as the producer sees it.
	slot     uint64
	accepted int
	dropped  bool
}

func (q *queue) init(maxTx int) {
	q.wake = make(chan struct{}, 1)
	q.maxTx = maxTx
	q.slot = ^uint64(0)
}

// OnEvent takes a ledger event (register it with ledger.OnEvent). It runs on the block producer's goroutine and
// only appends to the worker's queue.
func (h *Hub) OnEvent(ev ledger.Event) {
	it := item{at: time.Now(), ev: ev}
	q := &h.q
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return
	}
	switch ev.Kind {
	case ledger.TxProcessed:
		if ev.Slot != q.slot {
			q.slot, q.accepted, q.dropped = ev.Slot, 0, false
		}
		if q.dropped || q.pendingTx >= q.maxTx {
			if !q.dropped {
				h.coalesced.Add(1)
				h.log.Warn("pubsub: notification queue full; coalescing the slot's transactions into its frozen event",
					"slot", ev.Slot, "queued", q.pendingTx)
			}
			q.dropped = true
			q.mu.Unlock()
			return
		}
		q.pendingTx++
		q.accepted++
	case ledger.SlotFrozen:
		if ev.Slot == q.slot {
			it.accepted, it.dropped = q.accepted, q.dropped
		}
	}
	h.push(it)
	q.mu.Unlock()
}

// SignatureReceived reports a transaction that sendTransaction accepted, for the subscriptions that asked for
// "receivedSignature". It never blocks; under overload the notification is dropped.
func (h *Hub) SignatureReceived(sig core.Signature) {
	processed, _, _ := h.l.Slots()
	q := &h.q
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || q.pendingTx >= q.maxTx {
		return
	}
	q.pendingTx++
	h.push(item{at: time.Now(), received: true, sig: sig, recvSlot: processed})
}

// push appends it to the queue and wakes the worker. Caller holds q.mu, so item order is seq order.
func (h *Hub) push(it item) {
	it.seq = h.seq.Add(1)
	h.q.items = append(h.q.items, it)
	select {
	case h.q.wake <- struct{}{}:
	default:
	}
}

// take returns the queued items, leaving buf (emptied) as the new queue.
func (q *queue) take(buf []item) []item {
	q.mu.Lock()
	defer q.mu.Unlock()
	items := q.items
	q.items = buf[:0]
	for i := range items {
		if items[i].received || items[i].ev.Kind == ledger.TxProcessed {
			q.pendingTx--
		}
	}
	return items
}

func (h *Hub) run() {
	defer close(h.stopped)
	defer func() {
		h.q.mu.Lock()
		h.q.closed, h.q.items = true, nil
		h.q.mu.Unlock()
	}()
	var buf []item
	for {
		select {
		case <-h.stop:
			return
		case <-h.q.wake:
		}
		items := h.q.take(buf)
		for i := range items {
			h.process(&items[i])
			h.processed.Store(items[i].seq)
		}
		clear(items) // let the events' banks and transactions go
		buf = items[:0]
	}
}

// worker is the state of the worker goroutine.
type worker struct {
	l    *ledger.Ledger
	root uint64
	// records are the frozen slots not yet rooted: what each changed, to notify confirmed and finalized
	// subscriptions when the slot reaches them.
	records map[uint64]*slotRecord
	// written are the accounts the queued transactions of the working slot wrote, each with the sequence number
	// of its first write: processed subscriptions made before it hear of the slot's change when it freezes.
	written     map[core.Pubkey]uint64
	writtenSlot uint64
	// txSeqs are the sequence numbers of the working slot's queued transaction events, by signature: processed
	// signature and logs subscriptions made after one of them hear of it when the slot freezes.
	txSeqs     map[core.Signature]uint64
	firstTxSeq uint64 // the smallest of txSeqs
	created    uint64 // the newest working slot created (rewind.go)
}

// slotRecord is what a frozen slot changed. txs are its transactions as stored, kept until the slot is rooted
// so that its confirmed and finalized notifications need not read them back; nil when not known (a slot
// frozen before a restart).
type slotRecord struct {
	bank     *ledger.Bank
	accounts []core.Pubkey
	info     *ledger.BlockInfo
	txs      []*ledger.TxRecord
}

func (w *worker) init(l *ledger.Ledger) {
	w.l = l
	_, _, w.root = l.Slots()
	w.records = map[uint64]*slotRecord{}
	w.written = map[core.Pubkey]uint64{}
	w.txSeqs = map[core.Signature]uint64{}
	w.writtenSlot = ^uint64(0)
}

// process turns one item into notifications. A panic is logged, not fatal: one bad notification must not stop
// all the others.
func (h *Hub) process(it *item) {
	defer func() {
		if p := recover(); p != nil {
			h.log.Error("pubsub: notification worker panicked", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	if it.received {
		h.onReceived(it)
		return
	}
	switch it.ev.Kind {
	case ledger.TxProcessed:
		h.onTransaction(it)
	case ledger.SlotFrozen:
		h.onFrozen(it)
	case ledger.SlotConfirmed:
		h.onConfirmed(it)
	case ledger.SlotRooted:
		h.onRooted(it)
	case ledger.SlotCreated:
		h.onCreated(it)
	}
}

func (w *worker) startSlot(slot uint64) {
	if slot != w.writtenSlot {
		clear(w.written)
		clear(w.txSeqs)
		w.writtenSlot = slot
	}
}

// onTransaction notifies the processed signature, logs and vote subscriptions of a transaction executed into
// the working bank, and notes the accounts it wrote for the processed account notifications of the slot.
func (h *Hub) onTransaction(it *item) {
	ev := it.ev
	h.w.startSlot(ev.Slot)
	if len(h.w.txSeqs) == 0 {
		h.w.firstTxSeq = it.seq
	}
	h.w.txSeqs[ev.Tx.Signature()] = it.seq
	for _, wr := range ev.Result.Writes {
		if _, seen := h.w.written[wr.Pubkey]; !seen {
			h.w.written[wr.Pubkey] = it.seq
		}
	}
	keys := ev.Result.AccountKeys
	if keys == nil {
		keys = ev.Tx.Message.AccountKeys
	}
	h.notifyOutcome(it.seq, ev.Slot, ledger.Processed, ev.Tx, keys, ev.Result.Err, ev.Result.Logs)
	h.notifyVote(it.seq, ev)
}

// onFrozen notifies the processed account and program subscriptions of what the slot changed, once per account
// with its state in the frozen bank, as the reference notifies when the bank at the commitment changed the
// account. Like the reference, which counts from the slot that last changed the account when one subscribes,
// a subscription made after the slot's first write of the account does not hear of that slot. Writes outside
// transactions (the leader's fee reward), and every write of a slot whose transaction events were coalesced,
// count from the freeze. It also records what the slot changed, for its confirmed and finalized
// notifications.
func (h *Hub) onFrozen(it *item) {
	ev := it.ev
	w := &h.w
	w.records[ev.Slot] = &slotRecord{bank: ev.Bank, accounts: ev.Accounts, info: ev.Block, txs: ev.Txs}
	w.startSlot(ev.Slot)
	h.notifyAccounts(ev.Slot, ev.Bank, ledger.Processed, ev.Accounts, func(k core.Pubkey) uint64 {
		if seq, seen := w.written[k]; seen && !it.dropped {
			return seq
		}
		return it.seq
	})
	clear(w.written)
	h.catchUpOutcomes(it)
	clear(w.txSeqs)
	if it.dropped && ev.Block != nil && it.accepted < len(ev.Block.Signatures) {
		txs, err := ev.Txs, error(nil)
		if txs == nil {
			txs, err = h.blockTxs(ev.Block)
		}
		if err != nil {
			h.log.Error("pubsub: reading the transactions of a coalesced slot", "slot", ev.Slot, "err", err)
		} else {
			for _, rec := range txs[min(it.accepted, len(txs)):] {
				h.notifyOutcome(it.seq, ev.Slot, ledger.Processed, rec.Tx,
					rec.Tx.Message.FullAccountKeys(rec.Meta.LoadedAddresses), rec.Meta.Err, rec.Meta.Logs)
			}
		}
	}
	h.slotUpdate(it, rpcapi.SlotUpdateTypeCompleted, ev.Slot, nil, nil)
	if ev.Block != nil {
		h.slotUpdate(it, rpcapi.SlotUpdateTypeFrozen, ev.Slot, nil, frozenStats(ev.Block))
	}
}

// catchUpOutcomes notifies the processed signature and logs subscriptions made after a transaction of the
// frozen slot executed but before the slot froze. The reference notifies processed subscriptions when a bank
// becomes the processed one, from that bank's statuses and logs since its parent, so a subscription made while
// the slot was still open hears of the slot's transactions; here each transaction is announced as it executes,
// and this reaches the subscriptions that came after its announcement.
func (h *Hub) catchUpOutcomes(it *item) {
	ev, w := it.ev, &h.w
	// Nobody subscribed since the slot's first transaction was announced: nobody to catch up.
	if len(w.txSeqs) == 0 || ev.Block == nil || h.subscribedAt.Load() < w.firstTxSeq ||
		!h.watchesOutcomes(ledger.Processed, ev.Block.Signatures) {
		return
	}
	txs, err := ev.Txs, error(nil)
	if txs == nil {
		if txs, err = h.blockTxs(ev.Block); err != nil {
			h.log.Error("pubsub: reading the transactions of a frozen slot", "slot", ev.Slot, "err", err)
			return
		}
	}
	for _, rec := range txs {
		// A transaction without a queued event was coalesced (notified below from the freeze) or ran before
		// the hub listened.
		if seq, queued := w.txSeqs[rec.Tx.Signature()]; queued {
			h.notifyOutcomeFrom(seq, it.seq, ev.Slot, ledger.Processed, rec.Tx,
				rec.Tx.Message.FullAccountKeys(rec.Meta.LoadedAddresses), rec.Meta.Err, rec.Meta.Logs)
		}
	}
}

// watchesOutcomes reports whether a logs subscription at commitment c, or a signature subscription at c of one
// of sigs, is registered.
func (h *Hub) watchesOutcomes(c ledger.Commitment, sigs []core.Signature) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if len(h.logsAll[c]) > 0 || len(h.logsMentions[c]) > 0 {
		return true
	}
	for _, sig := range sigs {
		for _, s := range h.signatures[sig] {
			if s.commitment == c {
				return true
			}
		}
	}
	return false
}

func (h *Hub) onConfirmed(it *item) {
	if rec := h.w.records[it.ev.Slot]; rec != nil {
		h.reach(it.seq, it.ev.Slot, ledger.Confirmed, rec)
	}
	h.slotUpdate(it, rpcapi.SlotUpdateTypeOptimisticConfirmation, it.ev.Slot, nil, nil)
}

func (h *Hub) onRooted(it *item) {
	slot := it.ev.Slot
	w := &h.w
	if rec := w.records[slot]; rec != nil {
		h.reach(it.seq, slot, ledger.Finalized, rec)
	} else if info, found, err := h.l.Block(slot, ledger.Finalized); err == nil && found {
		// A slot frozen before the node (re)started: its block is stored; what it changed is not known.
		h.notifyBlock(it.seq, slot, ledger.Finalized, &slotRecord{info: info})
	}
	for s := range w.records {
		if s <= slot {
			delete(w.records, s)
		}
	}
	w.root = max(w.root, slot)
	h.broadcast(it.seq, func() subList { return h.roots }, slot)
	h.slotUpdate(it, rpcapi.SlotUpdateTypeRoot, slot, nil, nil)
}

func (h *Hub) onCreated(it *item) {
	ev := it.ev
	if h.w.rewound(ev.Slot) {
		h.rewind(ev.Parent)
	}
	h.broadcast(it.seq, func() subList { return h.slots }, slotInfo(ev.Parent, h.w.root, ev.Slot))
	parent := ev.Parent
	h.slotUpdate(it, rpcapi.SlotUpdateTypeCreatedBank, ev.Slot, &parent, nil)
}

// reach notifies the subscriptions at commitment c of a slot that reached it.
func (h *Hub) reach(seq, slot uint64, c ledger.Commitment, rec *slotRecord) {
	h.notifyAccounts(slot, rec.bank, c, rec.accounts, func(core.Pubkey) uint64 { return seq })
	h.notifyBlock(seq, slot, c, rec)
}
