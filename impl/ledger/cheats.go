package ledger

import (
	"context"
	"fmt"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Cheat writes (surfnet_setAccount and the like) change accounts as a transaction would: they go into the
// working bank, so they are visible at processed at once, their slot's freeze persists them with the owner and
// token indexes and notifies the account subscriptions, and they reach confirmed and finalized with that slot.
// In transaction mode a cheat write is a slot of its own, as a transaction is.

// AccountReader reads the working bank's accounts for a cheat.
type AccountReader func(core.Pubkey) (runtime.Account, bool, error)

// CheatWrite computes, from the working bank's state, the writes of one cheat (an account with zero lamports is
// deleted). It runs on the producer's goroutine, so nothing changes between its reads and its writes.
type CheatWrite func(read AccountReader, owned func(owner core.Pubkey) ([]core.Pubkey, error)) ([]runtime.AccountWrite, error)

// Cheat applies the writes fn computes to the working bank and returns the slot they were written in.
func (l *Ledger) Cheat(ctx context.Context, fn CheatWrite) (slot uint64, err error) {
	cerr := l.onProducer(ctx, func() {
		if err = l.writeRefused(); err != nil {
			return
		}
		if l.pending != nil {
			err = l.errNotProduced()
			return
		}
		b := l.working
		slot = b.Slot
		read := func(k core.Pubkey) (runtime.Account, bool, error) {
			if core.IsSysvarID(k) {
				return runtime.Account{}, false, fmt.Errorf("%w: %s is a sysvar, which the node computes", ErrInvalidCheat, k)
			}
			return b.Account(k)
		}
		owned := func(owner core.Pubkey) ([]core.Pubkey, error) {
			var out []core.Pubkey
			err := b.ProgramAccounts(owner, func(k core.Pubkey, _ runtime.Account) bool {
				out = append(out, k)
				return true
			})
			return out, err
		}
		var writes []runtime.AccountWrite
		if writes, err = fn(read, owned); err != nil || len(writes) == 0 {
			return
		}
		var added, removed uint64
		for _, w := range writes {
			if core.IsSysvarID(w.Pubkey) {
				err = fmt.Errorf("%w: %s is a sysvar, which the node computes", ErrInvalidCheat, w.Pubkey)
				return
			}
			prev, _, rerr := b.Account(w.Pubkey)
			if rerr != nil {
				err = rerr
				return
			}
			added += w.Account.Lamports
			removed += prev.Lamports
		}
		if err = l.noteCheat(b.Slot); err != nil {
			return
		}
		b.apply(writes)
		// Lamports made or destroyed by a cheat change the capitalization, as the supply methods report it.
		b.mu.Lock()
		b.capital = b.capital + added - removed
		b.mu.Unlock()
		if l.cfg.BlockProduction == ProducePerTransaction {
			err = l.produceSlot()
		}
	})
	if cerr != nil {
		return 0, cerr
	}
	return slot, err
}
