package ledger

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
	"ledgerd/impl/store"
)

// Snapshots and reverts (anvil's evm_snapshot / evm_revert) ride on the store's layout: accounts are versioned
// by slot and the store knows which accounts got a version since its last Root, so reverting to a frozen slot S
// is deleting what was written above S (account versions, blocks, transactions, signature lists: a cost that
// follows the writes since S, not the number of accounts) and rebuilding the in-memory state of the chain from
// the stored blocks up to S, as a restart would. While a snapshot is held, pruning stays below the point it had
// reached when the snapshot was taken, so every version a read at the restored commitment levels needs is kept.
// Snapshots live in memory: a restart forgets them.

// snapshots are the held snapshots, oldest first.
type snapshots struct {
	next uint64
	list []chainSnapshot
}

type chainSnapshot struct {
	id           uint64
	slot         uint64
	pruneCap     uint64 // the prune point when the snapshot was taken
	stakeHistory []byte
}

// pruneSlot is the slot the store may prune below, wanted, held back by the oldest snapshot.
func (l *Ledger) pruneSlot(wanted uint64) uint64 {
	if len(l.dev.snaps.list) > 0 {
		return min(wanted, l.dev.snaps.list[0].pruneCap)
	}
	return wanted
}

// Snapshot ends the working slot (so the snapshot holds everything processed) and returns the id of a
// snapshot of the chain at that slot, for Revert.
func (l *Ledger) Snapshot(ctx context.Context) (id, slot uint64, err error) {
	cerr := l.onProducer(ctx, func() {
		if err = l.produceSlot(); err != nil {
			return
		}
		slot = l.confirmed
		pruneCap := uint64(0)
		if l.root > pruneLag {
			pruneCap = l.root - pruneLag
		}
		var sh []byte
		if sh, _, err = l.st.GetMeta(metaStakeHistory); err != nil {
			err = l.fault.report(err)
			return
		}
		l.dev.snaps.next++
		id = l.dev.snaps.next
		l.dev.snaps.list = append(l.dev.snaps.list, chainSnapshot{id: id, slot: slot, pruneCap: pruneCap,
			stakeHistory: slices.Clone(sh)})
	})
	if cerr != nil {
		return 0, 0, cerr
	}
	return id, slot, err
}

// Revert returns the chain to the state of snapshot id, at every commitment level: the snapshot's slot is
// confirmed again, finalized trails it by the finality depth, and what came after it (slots, transactions,
// account changes, the working slot) is gone. The snapshot and every later one are used up; earlier ones stay.
// It reports false for an id that is not held. The accounts the revert changed get a new slot that writes their
// restored state, so every account subscription hears of them at each commitment level as of any change.
func (l *Ledger) Revert(ctx context.Context, id uint64) (ok bool, err error) {
	cerr := l.onProducer(ctx, func() {
		i := slices.IndexFunc(l.dev.snaps.list, func(s chainSnapshot) bool { return s.id == id })
		if i < 0 {
			return
		}
		if err = l.revertTo(l.dev.snaps.list[i]); err != nil {
			return
		}
		l.dev.snaps.list = l.dev.snaps.list[:i]
		ok = true
	})
	if cerr != nil {
		return false, cerr
	}
	return ok, err
}

// revertTo is Revert on the producer's goroutine.
func (l *Ledger) revertTo(snap chainSnapshot) error {
	if l.fault.isDamaged() || l.pending != nil {
		return l.errNotProduced()
	}
	s := snap.slot
	// The transactions of the slots above s, found from their blocks.
	var txs []store.RevertedTx
	var hash core.Hash
	for slot := s; slot <= l.confirmed; slot++ {
		raw, found, err := l.st.GetBlock(slot)
		if err != nil {
			return l.fault.report(err)
		}
		if !found {
			if slot == s {
				return fmt.Errorf("%w: the block of slot %d is gone", ErrInvalidCheat, s)
			}
			continue
		}
		info, err := decodeBlock(raw)
		if err != nil {
			return &StorageError{Err: fmt.Errorf("the block of slot %d does not decode: %w", slot, err)}
		}
		if slot == s {
			hash = info.Blockhash
			continue
		}
		for _, sig := range info.Signatures {
			rec, found, err := l.st.GetTransaction(store.Signature(sig))
			if err != nil {
				return l.fault.report(err)
			}
			t := store.RevertedTx{Sig: store.Signature(sig), Slot: slot}
			if found {
				t.Index = rec.Index
				if tx, meta, err := decodeTx(rec.Data); err == nil {
					for _, k := range tx.Message.FullAccountKeys(meta.LoadedAddresses) {
						t.Addrs = append(t.Addrs, store.Pubkey(k))
					}
				}
			}
			txs = append(txs, t)
		}
	}
	// The working slot's writes were never stored; they are reverted too.
	changed := map[core.Pubkey]struct{}{}
	l.working.overlayAccounts(func(k core.Pubkey, _ runtime.Account) { changed[k] = struct{}{} })

	if from := l.st.RevertableFrom(); s < from {
		return fmt.Errorf("%w: slot %d is pruned (the oldest slot a revert can reach is %d)", ErrInvalidCheat, s, from)
	}
	// The slot record must not claim a slot the store is about to lose.
	if err := l.recorder.rewind(&slotRecord{Slot: s, Hash: hash, Genesis: core.Hash(l.Genesis.Hash)}); err != nil {
		return &StorageError{Err: fmt.Errorf("writing the slot record: %w", err)}
	}
	metas := map[string][]byte{metaTip: binary.BigEndian.AppendUint64(nil, s)}
	if snap.stakeHistory != nil {
		metas[metaStakeHistory] = snap.stakeHistory
	}
	if l.fork != nil {
		l.fork.revertAbove(s, metas)
	}
	reverted, err := l.st.RevertAbove(s, txs, metas)
	if err != nil {
		return l.fault.report(err)
	}
	for _, k := range reverted {
		changed[core.Pubkey(k)] = struct{}{}
	}
	if snap.stakeHistory != nil {
		l.baseEnv.SysvarData[core.SysvarStakeHistoryID] = snap.stakeHistory
	}

	// Rebuild the in-memory chain as a restart at s would, aside, then put it in place.
	fresh := l.aside()
	if err := fresh.restore(s); err != nil {
		return err
	}
	return l.adopt(fresh, changed, nil)
}

// aside is an empty in-memory chain over l's store and settings, for restore or createGenesis to fill.
func (l *Ledger) aside() *Ledger {
	fresh := &Ledger{
		Genesis: l.Genesis, cfg: l.cfg, log: l.log, st: l.st, fault: l.fault, baseEnv: l.baseEnv,
		schedule: l.schedule, depth: l.depth, banks: make(map[uint64]*Bank), status: newStatusCache(),
		queue: newBlockhashQueue(), slotHistory: sysvar.NewSlotHistory(), perf: l.perf, fork: l.fork,
	}
	fresh.dev.timeOffset.Store(l.dev.timeOffset.Load())
	return fresh
}

// adopt puts the in-memory chain fresh (rebuilt from the store) in place of l's, then writes the accounts in
// changed again with their state in it (restored gives it, for those it holds; the others are read), in a slot
// of their own, so subscribers, which heard of the states that are gone, hear of the restored ones at each
// commitment level.
func (l *Ledger) adopt(fresh *Ledger, changed map[core.Pubkey]struct{}, restored map[core.Pubkey]runtime.Account) error {
	l.mu.Lock()
	l.working, l.banks, l.confirmed, l.root = fresh.working, fresh.banks, fresh.confirmed, fresh.root
	l.firstSlot = fresh.firstSlot
	l.recentFees = nil
	l.mu.Unlock()
	l.statusMu.Lock()
	l.status = fresh.status
	l.statusMu.Unlock()
	l.queue, l.slotHashes, l.slotHistory, l.tower = fresh.queue, fresh.slotHashes, fresh.slotHistory, fresh.tower

	w := l.working
	writes := make([]runtime.AccountWrite, 0, len(changed))
	for _, k := range slices.SortedFunc(maps.Keys(changed), func(a, b core.Pubkey) int { return bytes.Compare(a[:], b[:]) }) {
		if core.IsSysvarID(k) {
			continue
		}
		a, found := restored[k]
		if !found && restored == nil {
			var err error
			if a, found, err = w.Account(k); err != nil {
				return err
			}
		}
		if !found {
			a = runtime.Account{}
		}
		writes = append(writes, runtime.AccountWrite{Pubkey: k, Account: a})
	}
	w.apply(writes)
	l.emit(Event{Kind: SlotCreated, Slot: w.Slot, Parent: w.ParentSlot, Bank: w})
	return l.produceSlot()
}

// ResetNetwork returns the chain to its genesis (surfnet_resetNetwork): the store is emptied and the genesis
// written again, from the genesis configuration (with the start-up accounts, programs and clones it holds), as a
// new chain's; every snapshot is dropped. As a revert, the accounts the reset changed are then written again in
// a new slot, whose number it returns. It costs a scan of the accounts (each may have changed since genesis):
// unlike a revert it cannot follow the store's list of recent writes, which pruning empties as slots root.
func (l *Ledger) ResetNetwork(ctx context.Context) (slot uint64, err error) {
	cerr := l.onProducer(ctx, func() {
		if err = l.resetToGenesis(); err == nil {
			slot = l.confirmed
		}
	})
	if cerr != nil {
		return 0, cerr
	}
	return slot, err
}

// resetToGenesis is ResetNetwork on the producer's goroutine.
func (l *Ledger) resetToGenesis() error {
	if l.fault.isDamaged() || l.pending != nil {
		return l.errNotProduced()
	}
	// The accounts the reset changes: those held now that the genesis lacks or holds otherwise, and those of the
	// genesis held no more. The scan reads the confirmed slot, the working slot's writes override it.
	genesis := map[core.Pubkey]runtime.Account{}
	for _, a := range genesisAccounts(l.Genesis, &l.baseEnv.Rent, l.cfg.Programs.Modules()) {
		genesis[a.Pubkey] = runtime.Account{Lamports: a.Lamports, Owner: a.Owner, Executable: a.Executable,
			RentEpoch: a.RentEpoch, Data: a.Data}
	}
	overlay := map[core.Pubkey]runtime.Account{}
	l.working.overlayAccounts(func(k core.Pubkey, a runtime.Account) { overlay[k] = a })
	changed := map[core.Pubkey]struct{}{}
	held := map[core.Pubkey]struct{}{}
	note := func(k core.Pubkey, a runtime.Account) {
		held[k] = struct{}{}
		if g, ok := genesis[k]; !ok || !sameState(&a, &g) {
			changed[k] = struct{}{}
		}
	}
	err := l.st.ScanAccounts(l.confirmed, func(sk store.Pubkey, _ uint64, sa store.Account) bool {
		if _, over := overlay[core.Pubkey(sk)]; !over {
			note(core.Pubkey(sk), runtime.Account{Lamports: sa.Lamports, Owner: core.Pubkey(sa.Owner),
				Executable: sa.Executable, RentEpoch: sa.RentEpoch, Data: sa.Data})
		}
		return true
	})
	if err != nil {
		return l.fault.report(err)
	}
	for k, a := range overlay {
		if a.Lamports > 0 {
			note(k, a)
		} else {
			changed[k] = struct{}{} // deleted in the working slot: held still at confirmed
		}
	}
	for k := range genesis {
		if _, ok := held[k]; !ok {
			changed[k] = struct{}{}
		}
	}
	if l.fork != nil {
		// On a fork the original state of an account the genesis lacks is the cluster's, asked anew (surfpool
		// fetches it again), before anything is wiped: a cluster that cannot answer leaves the chain as it was.
		var lacking []core.Pubkey
		for k := range changed {
			if _, ok := genesis[k]; !ok && !core.IsSysvarID(k) {
				lacking = append(lacking, k)
			}
		}
		fresh, err := l.ForkFresh(lacking)
		if err != nil {
			return err
		}
		maps.Copy(genesis, fresh)
	}
	g := l.Genesis
	warp := l.cfg.WarpSlot
	rec := &slotRecord{Slot: warp, Hash: blockhash(core.Hash(g.Hash), warp, nil), Genesis: core.Hash(g.Hash)}
	if err := l.recorder.rewind(rec); err != nil {
		return &StorageError{Err: fmt.Errorf("writing the slot record: %w", err)}
	}
	if err := l.st.Wipe(); err != nil {
		return l.fault.report(err)
	}
	l.baseEnv.SysvarData[core.SysvarStakeHistoryID] = sysvar.StakeHistory{}.AccountData()
	l.dev.snaps.list = nil
	if l.fork != nil {
		// What the fork settled after the genesis is gone with the store; the next read asks the remote again.
		l.fork.revertAbove(warp, map[string][]byte{})
	}
	fresh := l.aside()
	if err := fresh.createGenesis(); err != nil {
		return l.fault.report(err)
	}
	return l.adopt(fresh, changed, genesis)
}

func sameState(a, b *runtime.Account) bool {
	return a.Lamports == b.Lamports && a.Owner == b.Owner && a.Executable == b.Executable &&
		a.RentEpoch == b.RentEpoch && bytes.Equal(a.Data, b.Data)
}

// rewind makes the slot record say rec now, before the store loses the slots after it (a recorder write already
// under way finishes first; later ones carry later slots).
func (r *slotRecorder) rewind(rec *slotRecord) error {
	if r == nil {
		return nil
	}
	r.writeMu.Lock()
	defer r.writeMu.Unlock()
	r.mu.Lock()
	r.next = nil
	r.mu.Unlock()
	return writeSlotRecord(r.dir, rec)
}
