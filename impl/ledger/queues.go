package ledger

import (
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Blockhash ages, as the reference counts them.
const (
	// MaxRecentBlockhashes is how many blockhashes the queue keeps.
	MaxRecentBlockhashes = 300
	// MaxProcessingAge is how many blocks after its blockhash a transaction may still be processed.
	MaxProcessingAge = 150
	// statusCacheRootedSlots is how many rooted slots the status cache keeps besides the unrooted ones.
	statusCacheRootedSlots = MaxRecentBlockhashes
)

// hashEntry is one blockhash of the queue.
type hashEntry struct {
	index                uint64 // position in the queue's history: its age is the newest index minus this
	blockHeight          uint64 // height of the block the hash ends
	lamportsPerSignature uint64
	// restored marks hashes of blocks produced before the node last started: transactions using them may be in
	// the store without being in the in-memory status cache.
	restored bool
}

// blockhashQueue holds the last MaxRecentBlockhashes blockhashes. It is owned by the producer and copied
// (cheaply, as a value of the map it points to is never changed) into each bank for readers.
type blockhashQueue struct {
	entries map[core.Hash]hashEntry
	order   []core.Hash // oldest first
	last    core.Hash
	next    uint64
}

func newBlockhashQueue() *blockhashQueue {
	return &blockhashQueue{entries: make(map[core.Hash]hashEntry, MaxRecentBlockhashes+1)}
}

func (q *blockhashQueue) register(h core.Hash, height, lamportsPerSignature uint64, restored bool) {
	q.entries[h] = hashEntry{index: q.next, blockHeight: height, lamportsPerSignature: lamportsPerSignature, restored: restored}
	q.order = append(q.order, h)
	q.last = h
	q.next++
	for len(q.order) > MaxRecentBlockhashes {
		delete(q.entries, q.order[0])
		q.order = q.order[1:]
	}
}

// snapshot returns an immutable copy for a bank.
func (q *blockhashQueue) snapshot() *hashSnapshot {
	s := &hashSnapshot{entries: make(map[core.Hash]hashEntry, len(q.entries)), order: append([]core.Hash(nil), q.order...),
		last: q.last, newest: q.next - 1}
	for k, v := range q.entries {
		s.entries[k] = v
	}
	return s
}

// hashSnapshot is the blockhash queue as one bank sees it.
type hashSnapshot struct {
	entries map[core.Hash]hashEntry
	order   []core.Hash
	last    core.Hash
	newest  uint64
}

// age returns how many hashes were registered after h, and whether h is in the queue.
func (s *hashSnapshot) age(h core.Hash) (uint64, hashEntry, bool) {
	e, ok := s.entries[h]
	if !ok {
		return 0, e, false
	}
	return s.newest - e.index, e, true
}

// valid reports whether a transaction with blockhash h may be processed, and the fee rate recorded with h.
func (s *hashSnapshot) valid(h core.Hash) (uint64, bool) {
	age, e, ok := s.age(h)
	if !ok || age > MaxProcessingAge {
		return 0, false
	}
	return e.lamportsPerSignature, true
}

// recent returns up to n blockhashes, newest first (the RecentBlockhashes sysvar).
func (s *hashSnapshot) recent(n int) []core.Hash {
	out := make([]core.Hash, 0, n)
	for i := len(s.order) - 1; i >= 0 && len(out) < n; i-- {
		out = append(out, s.order[i])
	}
	return out
}

// txStatus is what the status cache knows of a processed transaction.
type txStatus struct {
	slot uint64
	err  *runtime.TransactionError
}

// statusCache maps the signatures of recent slots to their status. The producer adds, readers look up; it
// has its own lock in the Ledger (statusMu).
type statusCache struct {
	bySig  map[core.Signature]txStatus
	bySlot map[uint64][]core.Signature
	oldest uint64 // the oldest slot held
}

func newStatusCache() *statusCache {
	return &statusCache{bySig: make(map[core.Signature]txStatus), bySlot: make(map[uint64][]core.Signature)}
}

func (c *statusCache) add(sig core.Signature, slot uint64, err *runtime.TransactionError) {
	c.bySig[sig] = txStatus{slot: slot, err: err}
	c.bySlot[slot] = append(c.bySlot[slot], sig)
}

// purge drops every slot below keepFrom.
func (c *statusCache) purge(keepFrom uint64) {
	for s := c.oldest; s < keepFrom; s++ {
		for _, sig := range c.bySlot[s] {
			if st, ok := c.bySig[sig]; ok && st.slot == s {
				delete(c.bySig, sig)
			}
		}
		delete(c.bySlot, s)
	}
	c.oldest = max(c.oldest, keepFrom)
}
