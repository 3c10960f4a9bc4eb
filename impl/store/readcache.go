package store

import "sync"

// Accounts a transaction reads whole but that rarely change (program accounts, and the program data behind
// them: 134 kB for SPL Token, read once to count the transaction's loaded data size and once to find the
// program's ELF) would otherwise be sought in the LSM and copied out of it on every read. The read cache keeps
// their newest decoded version in memory instead, handing the same bytes to every reader.
const (
	// readCacheMinData is the data length from which a non-executable account is worth caching: below it a
	// copy costs less than the seek that finds it anyway.
	readCacheMinData = 4 << 10
	// readCacheMaxBytes bounds the data the cache holds; past it the cache starts over.
	readCacheMaxBytes = 64 << 20
)

// cacheable reports whether a decoded account is kept by the read cache.
func cacheable(a *Account) bool { return a.Executable || len(a.Data) >= readCacheMinData }

// readCache holds the newest version of some accounts, each with the slot that wrote it: while an entry is
// held, no commit has happened since a read found it to be the account's newest version, so it is the answer
// of every read at or above its slot. Every commit empties it (the store's writes come a slot at a time, so an
// entry is read back at most once per slot), and bumps gen, so a read that began before a commit cannot put
// back what that commit replaced.
type readCache struct {
	mu    sync.Mutex
	gen   uint64
	bytes int
	m     map[Pubkey]cachedAccount
}

type cachedAccount struct {
	slot uint64
	acct Account
}

// get returns the cached version of k for a read at atSlot.
func (c *readCache) get(k *Pubkey, atSlot uint64) (Account, uint64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[*k]
	if !ok || e.slot > atSlot {
		return Account{}, 0, false
	}
	return e.acct, e.slot, true
}

// generation is the cache's generation before a read of the store begins.
func (c *readCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// put caches a, the newest version of k, written at slot, as read by a read that began at generation gen: if a
// commit came in between, a may be stale and is dropped.
func (c *readCache) put(k *Pubkey, slot uint64, a Account, gen uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || len(a.Data) > readCacheMaxBytes {
		return
	}
	if c.m == nil {
		c.m = make(map[Pubkey]cachedAccount)
	}
	if old, ok := c.m[*k]; ok {
		c.bytes -= len(old.acct.Data)
	}
	if c.bytes+len(a.Data) > readCacheMaxBytes {
		clear(c.m)
		c.bytes = 0
	}
	c.m[*k] = cachedAccount{slot: slot, acct: a}
	c.bytes += len(a.Data)
}

// invalidate empties the cache; a commit calls it once its writes are visible.
func (c *readCache) invalidate() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	clear(c.m)
	c.bytes = 0
}

// len reports how many accounts the cache holds (tests).
func (c *readCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
