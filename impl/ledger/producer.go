package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/store"
)

// submission is a transaction handed to the producer, with where to send its result.
type submission struct {
	tx      *core.Transaction
	lookups *Lookups // resolved by the caller, reused when still valid in the working bank
	result  chan *Executed
}

// Executed is the outcome of a transaction the producer ran in its working bank.
type Executed struct {
	Slot   uint64
	Result *runtime.Result

	err error // the producer refused it (the store cannot take writes, or failed a read of it)
}

// maxBatch bounds how many queued transactions the producer runs before it looks at the clock again.
const maxBatch = 256

// run is the block producer: it executes submitted transactions into the working bank and, every slot
// interval, freezes it and opens the next.
func (l *Ledger) run() {
	defer close(l.stopped)
	timer := time.NewTimer(time.Until(l.nextTick))
	defer timer.Stop()
	for {
		select {
		case s := <-l.submit:
			l.executeNext(s)
			for n := 1; n < maxBatch; n++ {
				select {
				case s := <-l.submit:
					l.executeNext(s)
					continue
				default:
				}
				break
			}
		case fn := <-l.dev.control:
			fn()
		case <-timer.C:
			l.clockTick()
			// Slots are paced against the ideal schedule, not the time the last freeze took; a producer that
			// fell far behind (a suspended machine) starts afresh instead of producing a burst of slots.
			l.nextTick = l.nextTick.Add(l.cfg.SlotDuration)
			if now := time.Now(); l.nextTick.Before(now) {
				l.nextTick = now.Add(l.cfg.SlotDuration)
			}
			timer.Reset(time.Until(l.nextTick))
		case <-l.stop:
			// Drain what was accepted, then persist it as a last block so nothing processed is lost.
			for {
				select {
				case s := <-l.submit:
					l.execute(s)
					continue
				default:
				}
				break
			}
			if l.pending != nil {
				l.commitFrozen()
			} else if l.working.entriesLen() > 0 && !l.fault.isDamaged() {
				l.freeze()
			}
			return
		}
	}
}

func (b *Bank) entriesLen() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.entries)
}

// Execute runs tx in the working bank and waits for the result. The transaction must be sanitized and its
// signatures verified by the caller.
func (l *Ledger) Execute(ctx context.Context, tx *core.Transaction) (*Executed, error) {
	return l.ExecuteResolved(ctx, tx, nil)
}

// ExecuteResolved is Execute with tx's address lookups already resolved (Bank.ResolveLookups): the producer
// reuses them when they were resolved against its working bank and still hold there.
func (l *Ledger) ExecuteResolved(ctx context.Context, tx *core.Transaction, lk *Lookups) (*Executed, error) {
	if err := l.writeRefused(); err != nil {
		return nil, err // at once: the producer would refuse it
	}
	if l.cfg.Replica {
		return nil, ErrReplica
	}
	if l.fork != nil {
		// Asked here, not on the producer's goroutine, so a slow remote holds up this transaction only.
		if err := l.fork.prefetchMessage(l.Bank(Processed), &tx.Message); err != nil {
			return nil, err
		}
	}
	s := &submission{tx: tx, lookups: lk, result: make(chan *Executed, 1)}
	select {
	case l.submit <- s:
	case <-l.stop:
		return nil, errClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case r := <-s.result:
		return r, r.err
	case <-l.stopped:
		// The producer drains the queue before it stops, so a result is there unless it never ran.
		select {
		case r := <-s.result:
			return r, r.err
		default:
			return nil, errClosed
		}
	}
}

// execute runs one submission in the working bank and records it when it is processed.
func (l *Ledger) execute(s *submission) {
	b := l.working
	if l.fork != nil {
		l.fork.materialize(b)
	}
	if err := l.writeRefused(); err != nil || l.pending != nil {
		if err == nil { // a frozen slot waits for the store; only a fault holds it there
			err = &StorageError{Err: errors.New("the last slot is not yet persisted")}
		}
		s.result <- &Executed{Slot: b.Slot, err: err}
		return
	}
	sig := s.tx.Signature()
	opts := runtime.Options{
		CheckBlockhash:     b.BlockhashValid,
		UncheckedBlockhash: l.uncheckedBlockhash(b),
		AlreadyProcessed:   func() bool { return l.alreadyProcessed(sig, s.tx.Message.RecentBlockhash, b) },
	}
	var res *runtime.Result
	src := &recordingSource{errSource: errSource{bank: b}}
	loaded, terr := b.lookupsIn(s.lookups, &s.tx.Message)
	if terr != nil {
		res = &runtime.Result{Err: terr} // not processed: no fee, as in the reference
	} else {
		opts.LoadedAddresses = loaded
		res = runtime.Execute(b.Env, src, s.tx, opts)
	}
	if src.err != nil {
		// The result was computed against an account that failed to read: neither recorded nor answered.
		s.result <- &Executed{Slot: b.Slot, err: src.err}
		return
	}
	if res.Processed {
		l.record(b, s.tx, res, src.pre, loaded)
		l.emit(Event{Kind: TxProcessed, Slot: b.Slot, Bank: b, Tx: s.tx, Result: res})
	}
	s.result <- &Executed{Slot: b.Slot, Result: res}
}

// alreadyProcessed reports whether the transaction with signature sig is in the status cache. Transactions
// whose blockhash predates the node's start may have been processed before it: those are also looked up in
// the store.
func (l *Ledger) alreadyProcessed(sig core.Signature, recent core.Hash, b *Bank) bool {
	l.statusMu.RLock()
	_, ok := l.status.bySig[sig]
	l.statusMu.RUnlock()
	if ok {
		return true
	}
	hs := b.queue()
	if _, e, found := hs.age(recent); found && e.restored {
		_, found, err := l.st.GetTransaction(store.Signature(sig))
		return found || err != nil
	}
	return false
}

// record stores a processed transaction's writes and metadata in the working bank.
func (l *Ledger) record(b *Bank, tx *core.Transaction, res *runtime.Result, preTokens map[core.Pubkey]runtime.Account,
	loaded *core.LoadedAddresses) {
	meta, keys := txMetaOf(b, tx, res, preTokens, loaded)
	l.recordMeta(b, tx, res, meta, keys)
}

// txMetaOf is the metadata record stores for a processed transaction (a replica compares it with its leader's
// before recording it).
func txMetaOf(b *Bank, tx *core.Transaction, res *runtime.Result, preTokens map[core.Pubkey]runtime.Account,
	loaded *core.LoadedAddresses) (*TxMeta, []core.Pubkey) {
	meta := &TxMeta{
		Err: res.Err, Fee: res.Fee, PreBalances: res.PreBalances, PostBalances: res.PostBalances, Logs: res.Logs,
		InnerInstructions: res.InnerInstructions, ReturnData: res.ReturnData,
		ComputeUnitsConsumed: res.ComputeUnitsConsumed, LoadedAddresses: loaded,
	}
	if meta.Logs == nil {
		meta.Logs = []string{}
	}
	if meta.InnerInstructions == nil {
		meta.InnerInstructions = []runtime.InnerInstructions{}
	}
	keys := res.AccountKeys
	if keys == nil {
		keys = tx.Message.AccountKeys
	}
	meta.PreTokenBalances, meta.PostTokenBalances = tokenBalances(b, &tx.Message, keys, preTokens, res.Writes)
	return meta, keys
}

// recordMeta applies a processed transaction's writes to the working bank and records it with meta.
func (l *Ledger) recordMeta(b *Bank, tx *core.Transaction, res *runtime.Result, meta *TxMeta, keys []core.Pubkey) {
	b.apply(res.Writes)
	price := res.Budget.ComputeUnitPrice
	b.mu.Lock()
	b.entries = append(b.entries, &txEntry{tx: tx, meta: meta, keys: keys})
	b.txCount++
	b.signature += uint64(len(tx.Signatures))
	b.blockMin = min(b.blockMin, price)
	for i, k := range keys {
		if tx.Message.IsWritable(i) {
			if f, ok := b.minFee[k]; !ok || price < f {
				b.minFee[k] = price
			}
		}
	}
	b.mu.Unlock()
	l.statusMu.Lock()
	l.status.add(tx.Signature(), b.Slot, res.Err)
	l.statusMu.Unlock()
	l.perf.addTransactions(1)
}

// blockhash chains a block to its parent: SHA-256 over the parent's blockhash, the slot, and the signatures of
// the block's transactions in order.
func blockhash(parent core.Hash, slot uint64, sigs []core.Signature) core.Hash {
	h := sha256.New()
	h.Write(parent[:])
	h.Write(binary.LittleEndian.AppendUint64(nil, slot))
	for i := range sigs {
		h.Write(sigs[i][:])
	}
	return core.Hash(h.Sum(nil))
}

// freeze completes the working bank: fees to the leader, the blockhash, one synced store batch with its
// accounts, block and transactions; then the commitment levels move and the next bank opens.
func (l *Ledger) freeze() {
	b := l.working
	if l.fork != nil {
		l.fork.materialize(b) // the accounts fetched since the last transaction belong to this slot
	}
	b.mu.RLock()
	entries := b.entries
	b.mu.RUnlock()

	sigs := make([]core.Signature, len(entries))
	failed := make([]bool, len(entries))
	var collected, burned uint64
	gov := l.FeeRateGovernor()
	for i, e := range entries {
		sigs[i] = e.tx.Signature()
		failed[i] = e.meta.Err != nil
		// The signature fee, half of which is burned, counts the precompiles' signatures too.
		sigFee := runtime.SignatureCount(e.tx) * runtime.DefaultLamportsPerSignature
		sigFee = min(sigFee, e.meta.Fee)
		_, burn := gov.Burn(sigFee)
		burned += burn
		collected += e.meta.Fee - burn
	}
	rewards := b.rewards
	if collected > 0 {
		// The leader (this node) is paid the unburned part of the fees, as a "Fee" reward of the block.
		id := l.Genesis.Identity.PublicKey()
		acct, _ := b.GetAccount(id)
		if acct.Lamports == 0 {
			acct.Owner = core.SystemProgramID
			acct.RentEpoch = runtime.RentExemptRentEpoch
		}
		acct.Lamports += collected
		b.apply([]runtime.AccountWrite{{Pubkey: id, Account: acct}})
		rewards = append(rewards, Reward{Pubkey: id, Lamports: int64(collected), PostBalance: acct.Lamports, RewardType: "Fee"})
	}

	hash := blockhash(b.ParentHash, b.Slot, sigs)
	// Register the hash before the bank shows it: a client reading the frozen bank's blockhash must be able to
	// use it at once.
	l.queue.register(hash, b.BlockHeight, runtime.DefaultLamportsPerSignature, false)
	l.slotHashes.Add(b.Slot, hash)
	hashes := l.queue.snapshot()
	b.mu.Lock()
	b.Hash = hash
	b.frozen = true
	b.hashes = hashes
	b.frozenEnv = completedEnv(b.Env, hash, hashes)
	b.capital -= burned
	info := &BlockInfo{
		Slot: b.Slot, ParentSlot: b.ParentSlot, BlockHeight: b.BlockHeight, Blockhash: hash,
		PreviousBlockhash: b.ParentHash, BlockTime: b.BlockTime, TransactionCount: b.txCount,
		Capitalization: b.capital, EpochStartTimestamp: b.Env.Clock.EpochStartTimestamp,
		Signatures: sigs, Failed: failed, Rewards: rewards,
	}
	overlay := b.overlay
	b.mu.Unlock()

	l.pending = &frozenSlot{bank: b, info: info, overlay: overlay, entries: entries, hashes: hashes}
	l.commitFrozen()
}

// frozenSlot is a frozen bank waiting to be persisted (see commitFrozen).
type frozenSlot struct {
	bank    *Bank
	info    *BlockInfo
	overlay map[core.Pubkey]runtime.Account
	entries []*txEntry
	hashes  *hashSnapshot
}

// tick is the producer's slot timer: it freezes the working bank, or, while a frozen one could not be
// persisted, retries that. A damaged store builds nothing.
func (l *Ledger) tick() {
	switch {
	case l.fault.isDamaged():
	case l.pending != nil:
		l.commitFrozen()
	default:
		l.freeze()
	}
}

// commitFrozen persists the pending frozen bank and only then reports it: confirmed, perhaps rooting an older
// slot, and the next bank opened. A slot is never reported confirmed or finalized before it is durable: when
// the store refuses the write (a full disk), the bank stays frozen and pending, the fault makes the node
// unhealthy and refuses writes, and the next tick tries again; nothing processed is lost.
func (l *Ledger) commitFrozen() {
	if l.fault.isDamaged() { // damage found while this slot froze: nothing more is written or reported
		return
	}
	p := l.pending
	if l.replicaRefuses(p.info) { // a replayed block that froze otherwise than its leader's: never persisted
		return
	}
	b, info, overlay, hashes := p.bank, p.info, p.overlay, p.hashes
	if err := l.persist(b, info, overlay, p.entries); err != nil {
		_ = l.fault.report(err)
		return
	}
	l.pending = nil
	l.fault.writable()
	b.mu.Lock()
	b.overlay, b.entries = nil, nil // the store has them now
	b.mu.Unlock()

	root := uint64(0)
	if b.Slot > l.depth {
		root = b.Slot - l.depth
	}
	next := l.newBank(b, hashes)
	if next.Epoch != b.Epoch {
		l.beginEpoch(next)
	}
	l.mu.Lock()
	l.banks[b.Slot] = b
	l.confirmed = b.Slot
	prevRoot := l.root
	l.root = max(l.root, root)
	for s := range l.banks {
		if s < l.root {
			delete(l.banks, s)
		}
	}
	l.working = next
	l.recentFees = append(l.recentFees, &feeSummary{slot: b.Slot, blockMin: b.blockMin, minFee: b.minFee})
	if len(l.recentFees) > maxRecentFees {
		l.recentFees = l.recentFees[1:]
	}
	l.mu.Unlock()

	l.statusMu.Lock()
	if l.root > statusCacheRootedSlots {
		l.status.purge(l.root - statusCacheRootedSlots)
	}
	l.statusMu.Unlock()

	if l.root > prevRoot && l.root > pruneLag {
		if err := l.st.Root(l.pruneSlot(l.root - pruneLag)); err != nil {
			// Pruning is retried at the next root; the fault says why it failed (logged once).
			_ = l.fault.report(err)
		}
	}
	l.perf.addSlot(b.Slot, l.cfg.Now())

	written := make([]core.Pubkey, 0, len(overlay))
	for k := range overlay {
		written = append(written, k)
	}
	l.emit(Event{Kind: SlotFrozen, Slot: b.Slot, Parent: b.ParentSlot, Bank: b, Accounts: written, Block: info,
		Txs: blockRecords(info, p.entries)})
	l.emit(Event{Kind: SlotConfirmed, Slot: b.Slot, Bank: b})
	for s := prevRoot + 1; s <= root && root > prevRoot; s++ {
		l.mu.RLock()
		rb := l.banks[s]
		l.mu.RUnlock()
		l.emit(Event{Kind: SlotRooted, Slot: s, Bank: rb})
	}
	l.emit(Event{Kind: SlotCreated, Slot: next.Slot, Parent: b.Slot, Bank: next})
	l.castVote(b)
}

// persist writes a frozen bank in one synced batch: a slot is durable before it is reported confirmed.
func (l *Ledger) persist(b *Bank, info *BlockInfo, overlay map[core.Pubkey]runtime.Account, entries []*txEntry) error {
	batch := l.st.NewBatch()
	for k, a := range overlay {
		batch.PutAccount(store.Pubkey(k), b.Slot, store.Account{Lamports: a.Lamports, Owner: a.Owner,
			Executable: a.Executable, RentEpoch: a.RentEpoch, Data: a.Data})
		indexTokenAccount(batch, k, &a)
	}
	for i, e := range entries {
		sig := e.tx.Signature()
		batch.PutTransaction(store.Signature(sig), b.Slot, uint32(i), encodeTx(e.tx, e.meta))
		for _, k := range e.keys {
			batch.AddSignatureForAddress(store.Pubkey(k), b.Slot, uint32(i), store.Signature(sig))
		}
	}
	batch.PutBlock(b.Slot, encodeBlock(info))
	if b.stakeHistory != nil {
		batch.SetMeta(metaStakeHistory, b.stakeHistory)
	}
	batch.SetMetaU64(metaTip, b.Slot)
	if l.fork != nil {
		l.fork.addToBatch(batch, b.Slot, overlay)
	}
	if err := batch.Commit(true); err != nil {
		return err
	}
	if l.fork != nil {
		l.fork.committed(b.Slot)
	}
	return nil
}
