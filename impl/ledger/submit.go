package ledger

import (
	"slices"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Simulation is the outcome of running a transaction against a bank without recording it.
type Simulation struct {
	Result *runtime.Result
	// ReplacementBlockhash is the blockhash the simulation used instead of the transaction's, when asked to.
	ReplacementBlockhash *core.Hash
	// LastValidBlockHeight goes with ReplacementBlockhash.
	LastValidBlockHeight uint64
	// Loaded are the addresses the message's lookup tables resolved to (nil without lookups).
	Loaded *core.LoadedAddresses
	// Balances of the transaction's accounts (static keys, then loaded ones) before and after it, as the reference
	// collects them for every transaction it checks: for one that was not processed, both are the bank's. Nil when
	// the accounts are unknown (its lookups failed).
	PreBalances, PostBalances []uint64
	// PreTokenBalances and PostTokenBalances are the token balances of those accounts, as getTransaction's.
	PreTokenBalances, PostTokenBalances []TokenBalance
}

// Simulate runs tx against bank as the producer would, without recording anything. With replaceBlockhash
// the message's blockhash is replaced by the bank's newest one first (signatures then no longer match, which
// the caller must not verify). lk are tx's lookups resolved against bank (nil resolves them). A store failure
// while reading the transaction's accounts is the error (a *StorageError), never a result computed as if those
// accounts were missing.
func (l *Ledger) Simulate(bank *Bank, tx *core.Transaction, replaceBlockhash bool, lk *Lookups) (*Simulation, error) {
	sim := &Simulation{}
	if replaceBlockhash {
		h := bank.LastBlockhash()
		cp := *tx
		cp.Message.RecentBlockhash = h
		tx = &cp
		sim.ReplacementBlockhash = &h
		sim.LastValidBlockHeight, _ = bank.LastValidBlockHeight(h)
	}
	if l.fork != nil {
		if err := l.fork.prefetchMessage(bank, &tx.Message); err != nil {
			return nil, err
		}
	}
	loaded, terr := bank.lookupsIn(lk, &tx.Message)
	if terr != nil {
		sim.Result = &runtime.Result{Err: terr}
		return sim, nil
	}
	sim.Loaded = loaded
	sig := tx.Signature()
	src := &recordingSource{errSource: errSource{bank: bank}}
	res := runtime.Execute(bank.ExecEnv(), src, tx, runtime.Options{
		LoadedAddresses:    loaded,
		CheckBlockhash:     bank.BlockhashValid,
		UncheckedBlockhash: l.uncheckedBlockhash(bank),
		AlreadyProcessed:   func() bool { return l.alreadyProcessed(sig, tx.Message.RecentBlockhash, bank) },
	})
	sim.Result = res
	if src.err != nil {
		return nil, src.err
	}
	keys := res.AccountKeys
	if keys == nil {
		keys = tx.Message.FullAccountKeys(loaded)
	}
	pre := src.pre
	if res.Processed {
		sim.PreBalances, sim.PostBalances = res.PreBalances, res.PostBalances
	} else {
		// The runtime stopped before loading: the balances are the bank's, the same before and after.
		sim.PreBalances = make([]uint64, len(keys))
		for i, k := range keys {
			if _, ok := pre[k]; ok {
				sim.PreBalances[i] = pre[k].Lamports
				continue
			}
			a, ok := src.GetAccount(k)
			if src.err != nil {
				return nil, src.err
			}
			if ok {
				sim.PreBalances[i] = a.Lamports
			}
		}
		pre = src.pre
		sim.PostBalances = slices.Clone(sim.PreBalances)
	}
	sim.PreTokenBalances, sim.PostTokenBalances = tokenBalances(bank, &tx.Message, keys, pre, res.Writes)
	return sim, nil
}
