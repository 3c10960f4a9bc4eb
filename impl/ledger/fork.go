package ledger

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/store"
)

// A lazy fork (--fork-url, as anvil's and surfpool's): the remote cluster's accounts lie under the ledger's own.
// A read of an account the ledger has never held, at any commitment, asks the remote once; the answer (an
// account, or none) is then the ledger's: written into the working bank as a cheat write is (so subscriptions,
// the owner and token indexes and every commitment level follow it like any change), and from that slot on only
// the ledger's own state counts, so an account deleted here stays deleted. A bank older than that slot sees the
// remote's answer, as if the account had been there from the start. What the ledger has settled this way is
// remembered in the store (one meta key per account), so a restart asks again about nothing.
//
// The remote is asked through AccountSource; the ledger imports no network client.

// AccountSource reads accounts from the cluster a ledger forks.
type AccountSource interface {
	// Accounts returns keys' accounts, in order; nil where the cluster has none. The error says why the cluster
	// could not answer (after its own bounded retries).
	Accounts(ctx context.Context, keys []core.Pubkey) ([]*runtime.Account, error)
	// String names the cluster in errors (its URL).
	String() string
}

// ForkConfig makes a ledger a lazy fork of another cluster.
type ForkConfig struct {
	Source AccountSource
	// Offline are accounts never fetched (surfnet_offlineAccount without owned accounts).
	Offline []core.Pubkey
	// Timeout bounds one read that asks the remote, its dependencies included (default 30 s).
	Timeout time.Duration
}

// ForkError is a read the fork's remote could not answer. It answers JSON-RPC as -32603 with the cause in the
// message, never as a missing account.
type ForkError struct {
	Source string
	Err    error
}

func (e *ForkError) Error() string {
	return fmt.Sprintf("Internal error: the account is not held here and the forked cluster %s did not answer: %v", e.Source, e.Err)
}
func (e *ForkError) Unwrap() error  { return e.Err }
func (e *ForkError) ErrorCode() int { return -32603 }
func (e *ForkError) ErrorData() any { return nil }

// metaForkPrefix names the meta key recording the slot from which the ledger holds an account (8 bytes), or,
// empty, that a revert forgot it.
const metaForkPrefix = "fork.settled."

func metaForkName(k core.Pubkey) string { return metaForkPrefix + string(k[:]) }

// fork is a ledger's state as a lazy fork.
type fork struct {
	l       *Ledger
	src     AccountSource
	timeout time.Duration

	mu      sync.Mutex
	entries map[core.Pubkey]*forkEntry
	// queue are fetched accounts the producer has yet to write into its working bank.
	queue []core.Pubkey
	// unpersisted are settled entries whose meta key is not yet stored; withBase are entries still keeping the
	// remote's account for banks older than their slot.
	unpersisted, withBase []core.Pubkey
	offline               map[core.Pubkey]bool
	offlineOwners         map[core.Pubkey]bool

	requests, fetched atomic.Uint64
	fetchMu           sync.Mutex
}

// forkEntry is what the fork knows of one account.
type forkEntry struct {
	// pending: fetched, not yet written into a working bank; every bank reads base.
	pending bool
	// slot: from this slot on the ledger's own state is the account's.
	slot uint64
	// base is the remote's account (nil: none), for banks older than slot.
	base      *runtime.Account
	persisted bool
}

func newFork(l *Ledger, c *ForkConfig) *fork {
	f := &fork{l: l, src: c.Source, timeout: c.Timeout, entries: map[core.Pubkey]*forkEntry{},
		offline: map[core.Pubkey]bool{}, offlineOwners: map[core.Pubkey]bool{}}
	if f.timeout <= 0 {
		f.timeout = 30 * time.Second
	}
	for _, k := range c.Offline {
		f.offline[k] = true
	}
	return f
}

// entry returns what the fork knows of k: from memory, or from the store after a restart.
func (f *fork) entry(k core.Pubkey) (*forkEntry, error) {
	f.mu.Lock()
	e, ok := f.entries[k]
	f.mu.Unlock()
	if ok {
		return e, nil
	}
	v, found, err := f.l.st.GetMeta(metaForkName(k))
	if err != nil {
		return nil, f.l.fault.report(err)
	}
	if !found || len(v) != 8 {
		return nil, nil
	}
	e = &forkEntry{slot: binary.BigEndian.Uint64(v), persisted: true}
	f.mu.Lock()
	if prev, ok := f.entries[k]; ok {
		e = prev
	} else {
		f.entries[k] = e
	}
	f.mu.Unlock()
	return e, nil
}

// miss answers a read of k by bank b, which holds no version of it.
func (f *fork) miss(b *Bank, k core.Pubkey) (runtime.Account, bool, error) {
	if core.IsSysvarID(k) {
		return runtime.Account{}, false, nil
	}
	e, err := f.entry(k)
	if err != nil {
		return runtime.Account{}, false, err
	}
	if e == nil {
		if err := f.fetch([]core.Pubkey{k}); err != nil {
			return runtime.Account{}, false, err
		}
		f.mu.Lock()
		e = f.entries[k]
		f.mu.Unlock()
		if e == nil { // offline, or owned by an offline program
			return runtime.Account{}, false, nil
		}
	}
	f.mu.Lock()
	pending, slot, base := e.pending, e.slot, e.base
	f.mu.Unlock()
	if pending || b.Slot < slot {
		if base == nil {
			return runtime.Account{}, false, nil
		}
		return *base, true, nil
	}
	// The ledger holds the account from slot on: read again, since the producer may have written it into this
	// very bank after the first read looked.
	a, ok, _, err := b.localAccount(k)
	return a, ok, err
}

// fetch asks the remote about the accounts among keys the ledger has never held, with what they need to be used:
// an upgradeable program's program data, a token account's mint. Each request carries up to MaxForkBatch
// addresses.
func (f *fork) fetch(keys []core.Pubkey) error {
	// One fetch at a time, each deciding what is unknown once the one before it settled its keys, so concurrent
	// first reads of an account ask the remote once (the requests are bounded, so the wait is too).
	f.fetchMu.Lock()
	defer f.fetchMu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), f.timeout)
	defer cancel()
	want, err := f.unknown(keys)
	for round := 0; len(want) > 0 && err == nil; round++ {
		var deps []core.Pubkey
		if deps, err = f.fetchOnce(ctx, want); err != nil {
			return err
		}
		if round == 2 { // a program's data or a token account's mint: nothing goes deeper
			break
		}
		want, err = f.unknown(deps)
	}
	return err
}

// MaxForkBatch is the most addresses one request to the remote carries (getMultipleAccounts' limit).
const MaxForkBatch = 100

func (f *fork) fetchOnce(ctx context.Context, want []core.Pubkey) (deps []core.Pubkey, err error) {
	err = f.request(ctx, want, func(k core.Pubkey, a *runtime.Account) {
		if _, known := f.entries[k]; known {
			return // another read settled it meanwhile
		}
		if a != nil && f.offlineOwners[a.Owner] {
			return // excluded, as surfpool's offline owners: not fetched, not remembered
		}
		f.entries[k] = &forkEntry{pending: true, base: a}
		f.queue = append(f.queue, k)
		if a != nil {
			deps = append(deps, forkDependencies(a)...)
		}
	})
	return deps, err
}

// request asks the remote for keys in chunks of MaxForkBatch, counted, and calls each for every key of a chunk
// with its deployable account or nil, holding f.mu.
func (f *fork) request(ctx context.Context, keys []core.Pubkey, each func(core.Pubkey, *runtime.Account)) error {
	for start := 0; start < len(keys); start += MaxForkBatch {
		chunk := keys[start:min(start+MaxForkBatch, len(keys))]
		f.requests.Add(1)
		accts, err := f.src.Accounts(ctx, chunk)
		if err == nil && len(accts) != len(chunk) {
			err = fmt.Errorf("%d accounts answered for %d asked", len(accts), len(chunk))
		}
		if err != nil {
			return &ForkError{Source: f.src.String(), Err: err}
		}
		f.fetched.Add(uint64(len(chunk)))
		f.mu.Lock()
		for i, k := range chunk {
			each(k, deployable(accts[i]))
		}
		f.mu.Unlock()
	}
	return nil
}

// unknown returns the distinct keys of keys that are neither settled, fetched, offline, sysvars, nor held by the
// working bank.
func (f *fork) unknown(keys []core.Pubkey) ([]core.Pubkey, error) {
	working := f.l.Bank(Processed)
	seen := make(map[core.Pubkey]bool, len(keys))
	var out []core.Pubkey
	for _, k := range keys {
		if seen[k] || core.IsSysvarID(k) {
			continue
		}
		seen[k] = true
		f.mu.Lock()
		off := f.offline[k]
		f.mu.Unlock()
		if off {
			continue
		}
		e, err := f.entry(k)
		if err != nil {
			return nil, err
		}
		if e != nil {
			continue
		}
		_, ok, held, err := working.localAccount(k)
		if err != nil {
			return nil, err
		}
		if !ok && !held {
			out = append(out, k)
		}
	}
	return out, nil
}

// deployable returns a fetched account, a program-data account with its deployment slot set to 0: the remote's
// slots are not this chain's, and a program deployed at a slot the fork has not reached would read as not
// deployed (the test validator's --clone-upgradeable-program does the same).
func deployable(a *runtime.Account) *runtime.Account {
	// UpgradeableLoaderState::ProgramData: the tag 3 (u32), the slot (u64), an optional authority.
	if a == nil || a.Owner != core.BPFLoaderUpgradeableProgramID || len(a.Data) < 13 || binary.LittleEndian.Uint32(a.Data) != 3 {
		return a
	}
	cp := *a
	cp.Data = bytes.Clone(a.Data)
	binary.LittleEndian.PutUint64(cp.Data[4:12], 0)
	return &cp
}

// forkDependencies are the accounts a fetched account is useless without: an upgradeable program's program
// data, a token account's mint.
func forkDependencies(a *runtime.Account) []core.Pubkey {
	switch a.Owner {
	case core.BPFLoaderUpgradeableProgramID:
		// UpgradeableLoaderState::Program: the tag 2 (u32), then the program-data address.
		if len(a.Data) >= 36 && binary.LittleEndian.Uint32(a.Data) == 2 {
			return []core.Pubkey{core.Pubkey(a.Data[4:36])}
		}
	case core.TokenProgramID, core.Token2022ProgramID:
		// A token account is 165 bytes, or longer with the account type 2 at byte 165 (Token-2022's extensions);
		// its mint comes first.
		if len(a.Data) == 165 || len(a.Data) > 165 && a.Data[165] == 2 {
			return []core.Pubkey{core.Pubkey(a.Data[:32])}
		}
	}
	return nil
}

// prefetchMessage fetches, in as few requests as it can, the accounts a message loads that the ledger has never
// held: its static keys and lookup tables, then the addresses the tables give it (read through bank).
func (f *fork) prefetchMessage(bank *Bank, m *core.Message) error {
	keys := append([]core.Pubkey(nil), m.AccountKeys...)
	for _, lk := range m.AddressTableLookups {
		keys = append(keys, lk.AccountKey)
	}
	if err := f.fetch(keys); err != nil {
		return err
	}
	var listed []core.Pubkey
	for _, lk := range m.AddressTableLookups {
		t, ok, err := bank.Account(lk.AccountKey)
		if err != nil {
			return err
		}
		if !ok || t.Owner != core.AddressLookupTableProgramID {
			continue // the runtime refuses it with the reference's error
		}
		for _, idx := range append(append([]uint8(nil), lk.WritableIndexes...), lk.ReadonlyIndexes...) {
			if off := lookupTableMetaSize + 32*int(idx); off+32 <= len(t.Data) {
				listed = append(listed, core.Pubkey(t.Data[off:off+32]))
			}
		}
	}
	return f.fetch(listed)
}

// lookupTableMetaSize is the size of an address lookup table's header, before its addresses.
const lookupTableMetaSize = 56

// materialize writes the fetched accounts into the working bank b, on the producer's goroutine: the slot that
// holds them from now on. An account something already wrote in b keeps that write.
func (f *fork) materialize(b *Bank) {
	if b.Frozen() { // a frozen slot the store has yet to take (a full disk): the next working bank takes them
		return
	}
	// The keys stay queued, so pendingAccounts lists them, until they are in the bank: a scan running beside
	// this sees each account one way or the other.
	f.mu.Lock()
	q := slices.Clone(f.queue)
	f.mu.Unlock()
	if len(q) == 0 {
		return
	}
	var writes []runtime.AccountWrite
	var added uint64
	var done []core.Pubkey
	handled := map[core.Pubkey]bool{}
	for _, k := range q {
		f.mu.Lock()
		e := f.entries[k]
		f.mu.Unlock()
		if e == nil || !e.pending {
			handled[k] = true
			continue
		}
		_, _, held, err := b.localAccount(k)
		if err != nil { // a store failure (reported): it stays queued for the next transaction or slot
			continue
		}
		handled[k] = true
		if !held && e.base != nil {
			writes = append(writes, runtime.AccountWrite{Pubkey: k, Account: *e.base})
			added += e.base.Lamports
		}
		done = append(done, k)
	}
	if len(writes) > 0 { // not transactions: a follower cannot replay past them (replica.go)
		_ = f.l.noteCheat(b.Slot)
	}
	b.apply(writes)
	// The fetched lamports join the chain's capitalization, as a cheat write's do.
	b.mu.Lock()
	b.capital += added
	b.mu.Unlock()
	f.mu.Lock()
	f.queue = slices.DeleteFunc(f.queue, func(k core.Pubkey) bool { return handled[k] })
	for _, k := range done {
		e := f.entries[k]
		e.pending, e.slot = false, b.Slot
		f.unpersisted = append(f.unpersisted, k)
		if e.base != nil {
			f.withBase = append(f.withBase, k)
		}
	}
	f.mu.Unlock()
}

// addToBatch adds to the batch persisting slot the meta keys of the accounts settled up to it, and settles the
// accounts the slot wrote that the fork knew nothing of (created here, or held since genesis): once deleted and
// pruned, they must not be asked of the remote.
func (f *fork) addToBatch(batch *store.Batch, slot uint64, overlay map[core.Pubkey]runtime.Account) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for k := range overlay {
		if _, ok := f.entries[k]; !ok && !core.IsSysvarID(k) {
			f.entries[k] = &forkEntry{slot: slot}
			f.unpersisted = append(f.unpersisted, k)
		}
	}
	for _, k := range f.unpersisted {
		if e := f.entries[k]; e != nil && !e.pending && e.slot <= slot {
			batch.SetMeta(metaForkName(k), binary.BigEndian.AppendUint64(nil, e.slot))
		}
	}
}

// committed records that the batch of slot is stored, and lets go of the remote's accounts no readable bank
// is old enough to need.
func (f *fork) committed(slot uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	keep := f.unpersisted[:0]
	for _, k := range f.unpersisted {
		e := f.entries[k]
		switch {
		case e == nil:
		case !e.pending && e.slot <= slot:
			e.persisted = true
		default:
			keep = append(keep, k)
		}
	}
	f.unpersisted = keep
	// A reader may hold a bank a little older than the root (see pruneLag).
	horizon := f.l.depth + pruneLag
	keepBase := f.withBase[:0]
	for _, k := range f.withBase {
		if e := f.entries[k]; e != nil && e.base != nil {
			if e.slot+horizon < slot {
				e.base = nil
				continue
			}
			keepBase = append(keepBase, k)
		}
	}
	f.withBase = keepBase
}

// revertAbove forgets what the fork settled above slot s (a revert removed those writes; the next read asks the
// remote again), and adds to metas the store's part of it.
func (f *fork) revertAbove(s uint64, metas map[string][]byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for k, e := range f.entries {
		if e.pending || e.slot <= s {
			continue
		}
		delete(f.entries, k)
		if e.persisted {
			metas[metaForkName(k)] = []byte{}
		}
	}
}

// Prefetch reads from the forked cluster, in batches, the accounts among keys the ledger has never held (a
// getMultipleAccounts), so that the reads that follow find them. Without a fork it does nothing.
func (l *Ledger) Prefetch(keys []core.Pubkey) error {
	if l.fork == nil {
		return nil
	}
	return l.fork.fetch(keys)
}

// OfflineAccount keeps k from being fetched from the forked cluster, and with includeOwned every account it
// owns (surfnet_offlineAccount). Accounts already held stay. Without a fork nothing is fetched anyway.
func (l *Ledger) OfflineAccount(k core.Pubkey, includeOwned bool) {
	if l.fork == nil {
		return
	}
	l.fork.mu.Lock()
	defer l.fork.mu.Unlock()
	l.fork.offline[k] = true
	if includeOwned {
		l.fork.offlineOwners[k] = true
	}
}

// ForkStats are the requests made to the forked cluster and the addresses they asked for.
type ForkStats struct{ Requests, Accounts uint64 }

// ForkStats reports what the fork asked of its remote; ok is false when the ledger is no fork.
func (l *Ledger) ForkStats() (s ForkStats, ok bool) {
	if l.fork == nil {
		return s, false
	}
	return ForkStats{Requests: l.fork.requests.Load(), Accounts: l.fork.fetched.Load()}, true
}

// ForkSource names the forked cluster ("" when the ledger is no fork).
func (l *Ledger) ForkSource() string {
	if l.fork == nil {
		return ""
	}
	return l.fork.src.String()
}

var errNoForkSource = errors.New("ledger: ForkConfig without a Source")

// pendingAccounts calls fn with the fetched accounts the producer has yet to write: every bank reads them, so a
// scan lists them as it lists the bank's own writes. A nil fork has none.
func (f *fork) pendingAccounts(fn func(core.Pubkey, runtime.Account)) {
	if f == nil {
		return
	}
	f.mu.Lock()
	var ks []core.Pubkey
	var as []runtime.Account
	for _, k := range f.queue {
		if e := f.entries[k]; e != nil && e.pending && e.base != nil {
			ks, as = append(ks, k), append(as, *e.base)
		}
	}
	f.mu.Unlock()
	for i, k := range ks {
		fn(k, as[i])
	}
}

// ForkFresh asks the forked cluster anew, whatever the fork remembers, for keys' accounts and what they need (an
// upgradeable program's program data, a token account's mint), and takes keys off the offline list: what
// surfnet_resetAccount writes on a fork, where an account's original state is the cluster's (surfpool drops it to
// fetch it again). The map holds the accounts the cluster has; it is nil without a fork.
func (l *Ledger) ForkFresh(keys []core.Pubkey) (map[core.Pubkey]runtime.Account, error) {
	f := l.fork
	if f == nil || len(keys) == 0 {
		return nil, nil
	}
	f.mu.Lock()
	for _, k := range keys {
		delete(f.offline, k)
		delete(f.offlineOwners, k)
	}
	f.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), f.timeout)
	defer cancel()
	out := map[core.Pubkey]runtime.Account{}
	want := keys
	for round := 0; round < 2 && len(want) > 0; round++ {
		var deps []core.Pubkey
		err := f.request(ctx, want, func(k core.Pubkey, a *runtime.Account) {
			if a != nil && !f.offlineOwners[a.Owner] {
				out[k] = *a
				for _, d := range forkDependencies(a) {
					if _, ok := out[d]; !ok && !slices.Contains(keys, d) {
						deps = append(deps, d)
					}
				}
			}
		})
		if err != nil {
			return nil, err
		}
		want = deps
	}
	return out, nil
}
