package ledger

import (
	"context"
	"sync"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/store"
)

// Local retention (--limit-ledger-size). The reference bounds its blockstore by a count of shreds, the pieces
// a block is sent in; ledgerd keeps no shreds, so it counts a block as the shreds the reference would make of
// it: one FEC set of 32 data shreds for every started 32,000 bytes of its transactions' wire form (a data
// shred carries about 1,000 bytes, and the reference pads each slot's last set to 32), at least 32 for an
// empty block. The newest rooted blocks whose count fits the limit are kept, and never fewer than a restart
// reads back (restoreKeep), nor anything not yet rooted.
const (
	shredsPerSet   = 32
	bytesPerSet    = 32_000
	pruneBatchSize = 64
)

// blockShreds is a block's shred count under that rule.
func blockShreds(txBytes int) uint64 {
	sets := (txBytes + bytesPerSet - 1) / bytesPerSet
	return uint64(max(1, sets)) * shredsPerSet
}

// retention is the state of the pruning pass.
type retention struct {
	mu     sync.Mutex
	shreds map[uint64]uint64 // cached block shred counts of kept slots
}

var retentions sync.Map // *Ledger -> *retention

func (l *Ledger) retention() *retention {
	r, _ := retentions.LoadOrStore(l, &retention{shreds: map[uint64]uint64{}})
	return r.(*retention)
}

// restoreKeep is how many slots below the tip a restart reads back (the blockhash queue, slot hashes and the
// status cache are rebuilt from them), so pruning never reaches them.
func (l *Ledger) restoreKeep() uint64 {
	if k, ok := keepOverrides.Load(l); ok {
		return k.(uint64)
	}
	return uint64(max(slotHashesKept, MaxRecentBlockhashes+int(l.depth)+1))
}

// keepOverrides lowers restoreKeep for one ledger. Only tests set it (export_test.go), to prune recent history
// without producing the 512 slots a restart needs first.
var keepOverrides sync.Map // *Ledger -> uint64

// PruneHistory deletes the oldest local blocks, their transactions and signature-list entries until the kept
// history fits maxShreds. uploaded, when not nil, is the newest slot long-term storage holds (the Bigtable
// uploader's): nothing above it is pruned, so a slot leaves the node only once it is archived. It returns the
// new first local block.
func (l *Ledger) PruneHistory(maxShreds uint64, uploaded func() (uint64, bool)) (uint64, error) {
	r := l.retention()
	r.mu.Lock()
	defer r.mu.Unlock()
	_, confirmed, root := l.Slots()
	first := l.FirstAvailableBlock()
	keep := l.restoreKeep()
	if confirmed < keep || root == 0 {
		return first, nil
	}
	limit := min(root, confirmed-keep) // the newest slot pruning may reach
	if uploaded != nil {
		up, ok := uploaded()
		if !ok {
			return first, nil
		}
		limit = min(limit, up)
	}
	// Walk down from the root, counting shreds, to the oldest slot that still fits.
	slots, err := l.st.BlocksInRange(first, root, 0)
	if err != nil {
		return first, l.fault.report(err)
	}
	var total uint64
	cut := first // slots below cut go
	for i := len(slots) - 1; i >= 0; i-- {
		s := slots[i]
		n, ok := r.shreds[s]
		if !ok {
			if n, err = l.countShreds(s); err != nil {
				return first, err
			}
			r.shreds[s] = n
		}
		if total+n > maxShreds {
			cut = s + 1
			break
		}
		total += n
	}
	cut = min(cut, limit+1)
	for first < cut {
		end := min(cut, first+pruneBatchSize)
		if err := l.pruneRange(first, end); err != nil {
			return first, err
		}
		for s := range r.shreds {
			if s < end {
				delete(r.shreds, s)
			}
		}
		first = end
	}
	return first, nil
}

// countShreds reads a block's transactions to count its shreds.
func (l *Ledger) countShreds(slot uint64) (uint64, error) {
	info, found, err := l.Block(slot, Finalized)
	if err != nil || !found {
		return shredsPerSet, err
	}
	txs, err := l.BlockTransactions(info)
	if err != nil {
		return 0, err
	}
	size := 0
	for _, t := range txs {
		size += len(t.Tx.Serialize())
	}
	return blockShreds(size), nil
}

// pruneRange deletes the history of the slots in [from, to) and moves the first available block to to.
func (l *Ledger) pruneRange(from, to uint64) error {
	slots, err := l.st.BlocksInRange(from, to-1, 0)
	if err != nil {
		return l.fault.report(err)
	}
	var sigs []store.Signature
	var addrs []store.AddrAt
	for _, s := range slots {
		info, found, err := l.Block(s, Finalized)
		if err != nil {
			return err
		}
		if !found {
			continue
		}
		txs, err := l.BlockTransactions(info)
		if err != nil {
			return err
		}
		for i, t := range txs {
			sigs = append(sigs, store.Signature(t.Tx.Signature()))
			for _, k := range recordKeys(t) {
				addrs = append(addrs, store.AddrAt{Addr: store.Pubkey(k), Slot: s, Index: uint32(i)})
			}
		}
	}
	// The first block moves before the data goes, so no reader looks for it locally while it is deleted.
	l.mu.Lock()
	l.firstSlot = to
	l.mu.Unlock()
	if err := l.st.PruneHistory(to, sigs, addrs); err != nil {
		return l.fault.report(err)
	}
	return nil
}

// recordKeys are the addresses a transaction was filed under: its static keys, then those its lookups loaded.
func recordKeys(t *TxRecord) []core.Pubkey {
	keys := t.Tx.Message.AccountKeys
	if t.Meta != nil && t.Meta.LoadedAddresses != nil {
		keys = append(append(append([]core.Pubkey(nil), keys...), t.Meta.LoadedAddresses.Writable...),
			t.Meta.LoadedAddresses.Readonly...)
	}
	return keys
}

// RunRetention prunes every interval until ctx ends (see PruneHistory); failures are reported by the fault
// state (a store failure) or by log (an archive not yet holding the slots is no failure: the pass waits).
func (l *Ledger) RunRetention(ctx context.Context, maxShreds uint64, uploaded func() (uint64, bool), every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if _, err := l.PruneHistory(maxShreds, uploaded); err != nil {
				l.log.Warn("ledger: pruning history for --limit-ledger-size", "err", err)
			}
		}
	}
}
