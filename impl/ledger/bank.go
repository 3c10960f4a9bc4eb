package ledger

import (
	"sync"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
	"ledgerd/impl/store"
)

// Bank is the state of one slot. The working bank is written only by the block producer; once frozen a bank
// never changes. Readers may hold any bank: its accounts are its overlay (the writes of its slot) on top of the
// store as of its parent slot, and after the producer has persisted it, the store as of its own slot.
type Bank struct {
	Slot        uint64
	ParentSlot  uint64
	BlockHeight uint64
	// ParentHash is the parent's blockhash; Hash is this bank's, set when it is frozen.
	ParentHash core.Hash
	Hash       core.Hash
	BlockTime  int64
	Epoch      uint64
	// Env is the runtime environment the slot's transactions run in: its sysvars and fee rate. Readers of a
	// frozen bank want ExecEnv.
	Env *runtime.Env

	hashes *hashSnapshot
	st     *store.Store
	fault  *faultState // where a failed store read is reported
	fork   *fork       // where an account the ledger never held is read from (nil: nowhere; fork.go)

	mu        sync.RWMutex
	overlay   map[core.Pubkey]runtime.Account // nil once persisted
	frozen    bool
	frozenEnv *runtime.Env // Env once the bank's own blockhash is registered (set with frozen)
	txCount   uint64       // transactions processed up to and including this bank
	capital   uint64       // lamports in existence
	signature uint64       // signatures processed in this bank
	entries   []*txEntry
	minFee    map[core.Pubkey]uint64 // lowest prioritization fee of a transaction write-locking the account
	blockMin  uint64                 // lowest prioritization fee of any transaction (feeUnset when none)
	// Owned by the producer: the rewards the block pays besides fees, and a changed StakeHistory to persist.
	rewards      []Reward
	stakeHistory []byte
	epochStakes  epochStakes // Env.EpochStake's values, computed on first use
}

// feeUnset marks a bank without transactions in blockMin.
const feeUnset = ^uint64(0)

// txEntry is a transaction executed into a bank.
type txEntry struct {
	tx   *core.Transaction
	meta *TxMeta
	keys []core.Pubkey
}

// Frozen reports whether the bank's slot is complete.
func (b *Bank) Frozen() bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.frozen
}

// TransactionCount is the number of transactions processed up to and including this bank (so far).
func (b *Bank) TransactionCount() uint64 {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.txCount
}

// Capitalization is the total lamports in existence in this bank (so far).
func (b *Bank) Capitalization() uint64 {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.capital
}

// LastBlockhash is the newest blockhash a transaction in this bank's view may use: the bank's own once frozen,
// its parent's while it is working.
func (b *Bank) LastBlockhash() core.Hash {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.frozen {
		return b.Hash
	}
	return b.ParentHash
}

// ExecEnv is the environment a transaction simulated against the bank sees, and the bank's sysvars: while the
// bank works, Env; once frozen, Env with the bank's own blockhash registered, as the reference's completed bank
// has it. So a durable nonce advanced in a simulation against a frozen bank differs from one the bank's own
// transactions stored, as it would in the next bank.
func (b *Bank) ExecEnv() *runtime.Env {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.frozen {
		return b.frozenEnv
	}
	return b.Env
}

// completedEnv is env once blockhash is registered: the last blockhash, and the queue hs that holds it.
func completedEnv(env *runtime.Env, blockhash core.Hash, hs *hashSnapshot) *runtime.Env {
	cp := *env
	cp.Blockhash = blockhash
	cp.RecentBlockhashes = recentBlockhashEntries(hs)
	return &cp
}

// queue is the bank's blockhash queue (replaced when the bank freezes).
func (b *Bank) queue() *hashSnapshot {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.hashes
}

// BlockhashValid reports whether blockhash h is young enough for a transaction processed in this bank, and
// the fee rate recorded with it.
func (b *Bank) BlockhashValid(h core.Hash) (lamportsPerSignature uint64, ok bool) {
	hs := b.queue()
	return hs.valid(h)
}

// LamportsPerSignatureFor returns the fee rate recorded with blockhash h while h is anywhere in the bank's
// queue (the last MaxRecentBlockhashes hashes, older than a transaction may use), as fee queries see it.
func (b *Bank) LamportsPerSignatureFor(h core.Hash) (uint64, bool) {
	hs := b.queue()
	_, e, ok := hs.age(h)
	return e.lamportsPerSignature, ok
}

// recentBlockhashes returns up to n blockhashes of the bank's queue, newest first.
func (b *Bank) recentBlockhashes(n int) []core.Hash {
	hs := b.queue()
	return hs.recent(n)
}

// LastValidBlockHeight is the last block height at which a transaction using blockhash h can be processed,
// as this bank sees it.
func (b *Bank) LastValidBlockHeight(h core.Hash) (uint64, bool) {
	hs := b.queue()
	age, _, ok := hs.age(h)
	if !ok || age > MaxProcessingAge {
		return 0, false
	}
	return b.BlockHeight + MaxProcessingAge - age, true
}

// GetAccount implements runtime.AccountSource: the bank's view of the account. Sysvars come from the bank's
// environment; they are never stored. The runtime's account source cannot fail, so a store failure reads as
// a missing account here, but it is never silent: it is reported (an ERROR, the node unhealthy, the producer
// stopped), and every caller that can answer with an error reads through Account instead, as a transaction's
// execution does (see errSource).
func (b *Bank) GetAccount(k core.Pubkey) (runtime.Account, bool) {
	a, ok, _ := b.Account(k)
	return a, ok
}

// Account is GetAccount with the store's failure: a *StorageError, never an account that merely reads as
// missing.
func (b *Bank) Account(k core.Pubkey) (runtime.Account, bool, error) {
	a, ok, held, err := b.localAccount(k)
	if ok || held || err != nil || b.fork == nil {
		return a, ok, err
	}
	return b.fork.miss(b, k)
}

// localAccount is Account from the bank's own state; held reports whether the ledger holds a version of the
// account (a deleted one too) at or below the bank's slot, so a fork asks no one else about it.
func (b *Bank) localAccount(k core.Pubkey) (a runtime.Account, ok, held bool, err error) {
	if core.IsSysvarID(k) {
		if a, ok := b.ExecEnv().SysvarAccount(k); ok {
			return a, true, true, nil
		}
	}
	b.mu.RLock()
	ov := b.overlay
	var in bool
	if ov != nil {
		a, in = ov[k]
	}
	b.mu.RUnlock()
	if in {
		return a, a.Lamports > 0, true, nil
	}
	at := b.Slot
	if ov != nil {
		at = b.ParentSlot
		if b.Slot == 0 {
			return runtime.Account{}, false, false, nil
		}
	}
	return b.readStore(k, at)
}

// readStore reads the version of k at slot at. A failure is reported to the ledger's fault state.
func (b *Bank) readStore(k core.Pubkey, at uint64) (a runtime.Account, ok, held bool, err error) {
	sa, slot, found, err := b.st.GetAccount(store.Pubkey(k), at)
	if err != nil {
		return runtime.Account{}, false, false, b.fault.report(err)
	}
	if !found || sa.Lamports == 0 {
		// A deletion's version names its slot; no version at all names none (genesis writes no deletions).
		return runtime.Account{}, false, found || slot != 0, nil
	}
	return fromStore(sa), true, true, nil
}

// errSource is a bank as the account source of one execution: it keeps the first store failure, so the
// execution's result, computed as if the account were missing, is thrown away instead of answered.
type errSource struct {
	bank *Bank
	err  error
}

func (s *errSource) GetAccount(k core.Pubkey) (runtime.Account, bool) {
	a, ok, err := s.bank.Account(k)
	if err != nil && s.err == nil {
		s.err = err
	}
	return a, ok
}

// overlayAccounts calls fn with the accounts this bank wrote (deleted ones with zero lamports), when they are
// not yet in the store. It reports whether the overlay was still held.
func (b *Bank) overlayAccounts(fn func(core.Pubkey, runtime.Account)) bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.overlay == nil {
		return false
	}
	for k, a := range b.overlay {
		fn(k, a)
	}
	return true
}

// storeSlot is the slot the store must be read at under the overlay (see overlayAccounts).
func (b *Bank) storeSlot() (slot uint64, empty bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.overlay == nil {
		return b.Slot, false
	}
	return b.ParentSlot, b.Slot == 0
}

// apply stores a transaction's writes into the working bank.
func (b *Bank) apply(writes []runtime.AccountWrite) {
	b.mu.Lock()
	for _, w := range writes {
		b.overlay[w.Pubkey] = w.Account
	}
	b.mu.Unlock()
}

// feeSummary is what a frozen slot keeps for getRecentPrioritizationFees.
type feeSummary struct {
	slot     uint64
	blockMin uint64                 // lowest prioritization fee of any transaction (feeUnset when none)
	minFee   map[core.Pubkey]uint64 // lowest prioritization fee of a transaction write-locking the account
}

// maxRecentFees is how many slots the prioritization fee history covers, as the reference's cache.
const maxRecentFees = 150

// fee is the slot's lowest prioritization fee over the transactions write-locking any of accounts (max over
// the accounts, and at least the block's lowest), as the reference's prioritization fee cache reports it.
func (f *feeSummary) fee(accounts []core.Pubkey) uint64 {
	fee := f.blockMin
	if fee == feeUnset {
		fee = 0
	}
	for _, k := range accounts {
		if v, ok := f.minFee[k]; ok {
			fee = max(fee, v)
		}
	}
	return fee
}

// recentBlockhashEntries is the RecentBlockhashes sysvar of the queue hs.
func recentBlockhashEntries(hs *hashSnapshot) []sysvar.RecentBlockhashesEntry {
	var out []sysvar.RecentBlockhashesEntry
	for _, h := range hs.recent(sysvar.RecentBlockhashesMaxEntries) {
		e := hs.entries[h]
		out = append(out, sysvar.RecentBlockhashesEntry{
			Blockhash: h, FeeCalculator: sysvar.FeeCalculator{LamportsPerSignature: e.lamportsPerSignature}})
	}
	return out
}

// buildEnv makes the runtime environment of a slot.
func buildEnv(base *runtime.Env, clock sysvar.Clock, parentHash core.Hash, hs *hashSnapshot, slotHashes sysvar.SlotHashes,
	slotHistory []byte) *runtime.Env {
	env := *base
	env.Clock = clock
	env.Blockhash = parentHash
	env.RecentBlockhashes = recentBlockhashEntries(hs)
	env.SysvarData = map[core.Pubkey][]byte{
		core.SysvarSlotHashesID:  slotHashes.AccountData(),
		core.SysvarSlotHistoryID: slotHistory,
	}
	for k, v := range base.SysvarData {
		env.SysvarData[k] = v
	}
	return &env
}
