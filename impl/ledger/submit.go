package ledger

import (
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
	loaded, terr := bank.lookupsIn(lk, &tx.Message)
	if terr != nil {
		sim.Result = &runtime.Result{Err: terr}
		return sim, nil
	}
	sim.Loaded = loaded
	sig := tx.Signature()
	src := &errSource{bank: bank}
	sim.Result = runtime.Execute(bank.ExecEnv(), src, tx, runtime.Options{
		LoadedAddresses:  loaded,
		CheckBlockhash:   bank.BlockhashValid,
		AlreadyProcessed: func() bool { return l.alreadyProcessed(sig, tx.Message.RecentBlockhash, bank) },
	})
	if src.err != nil {
		return nil, src.err
	}
	return sim, nil
}
