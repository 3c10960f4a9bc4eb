package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"

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
// the caller must not verify). A store failure while reading the transaction's accounts is the error (a
// *StorageError), never a result computed as if those accounts were missing.
func (l *Ledger) Simulate(bank *Bank, tx *core.Transaction, replaceBlockhash bool) (*Simulation, error) {
	sim := &Simulation{}
	if replaceBlockhash {
		h := bank.LastBlockhash()
		cp := *tx
		cp.Message.RecentBlockhash = h
		tx = &cp
		sim.ReplacementBlockhash = &h
		sim.LastValidBlockHeight, _ = bank.LastValidBlockHeight(h)
	}
	loaded, terr := bank.LoadAddresses(&tx.Message)
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

// ErrAirdropTooLarge is returned for an airdrop over the per-request cap.
var ErrAirdropTooLarge = errors.New("airdrop request too large")

// Airdrop transfers lamports from the faucet to to, through the producer like any transaction, and returns
// its signature once it is processed.
func (l *Ledger) Airdrop(ctx context.Context, to core.Pubkey, lamports uint64) (core.Signature, error) {
	if lamports > l.cfg.AirdropCap {
		return core.Signature{}, fmt.Errorf("%w: requested %d lamports, the cap is %d", ErrAirdropTooLarge, lamports, l.cfg.AirdropCap)
	}
	// Airdrops run one at a time so that identical requests get different blockhashes (an identical transaction
	// would be refused as already processed): each try uses the next older valid blockhash.
	l.airdropMu.Lock()
	defer l.airdropMu.Unlock()
	tried := map[core.Hash]bool{}
	for wait := 0; wait < 20; wait++ {
		bank := l.Bank(Processed)
		for _, h := range bank.recentBlockhashes(MaxProcessingAge / 2) {
			if tried[h] {
				continue
			}
			tried[h] = true
			tx := core.NewTransferTx(l.Genesis.Faucet, to, lamports, h)
			ex, err := l.Execute(ctx, tx)
			if err != nil {
				return core.Signature{}, err
			}
			if res := ex.Result; res.Err == nil {
				return tx.Signature(), nil
			} else if res.Err.Kind != runtime.TxAlreadyProcessed && res.Err.Kind != runtime.TxBlockhashNotFound {
				return core.Signature{}, fmt.Errorf("airdrop failed: %v", res.Err)
			}
		}
		// Every usable blockhash carried an identical airdrop already: wait for the next slot's.
		for l.Bank(Processed) == bank {
			select {
			case <-ctx.Done():
				return core.Signature{}, ctx.Err()
			case <-l.stop:
				return core.Signature{}, errClosed
			case <-time.After(l.cfg.SlotDuration / 4):
			}
		}
	}
	return core.Signature{}, errors.New("airdrop failed: no unused blockhash for an identical request")
}
