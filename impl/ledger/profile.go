package ledger

import (
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Profiles (surfnet_profileTransaction): a simulation that also records, around each top-level instruction, the
// state of the instruction's accounts, through the runtime's instruction observer. Only a profile sets the
// observer, so transactions that are sent run the instruction loop as before.

// ProfiledAccount is one account of a profile: its state before and after, nil where it does not exist.
type ProfiledAccount struct {
	Pubkey   core.Pubkey
	Writable bool
	Before   *runtime.Account
	After    *runtime.Account
}

// InstructionProfile is what one top-level instruction did.
type InstructionProfile struct {
	Accounts []ProfiledAccount // the instruction's accounts, then its program
	Units    uint64
	Logs     []string
	Err      *runtime.TransactionError
}

// TransactionProfile is a profiled simulation: every account of the transaction (static keys, then loaded ones)
// before and after it, and each top-level instruction that ran, in order.
type TransactionProfile struct {
	Slot         uint64
	Accounts     []ProfiledAccount
	Instructions []InstructionProfile
	Result       *runtime.Result
}

// Profile runs tx against bank as Simulate does, recording nothing in the chain. lk are tx's lookups resolved
// against bank (nil resolves them). A store failure while reading the accounts is the error.
func (l *Ledger) Profile(bank *Bank, tx *core.Transaction, lk *Lookups) (*TransactionProfile, error) {
	p := &TransactionProfile{Slot: bank.Slot}
	loaded, terr := bank.lookupsIn(lk, &tx.Message)
	if terr != nil {
		p.Result = &runtime.Result{Err: terr}
		return p, nil
	}
	m := &tx.Message
	keys := m.FullAccountKeys(loaded)
	writable := make(map[core.Pubkey]bool, len(keys))
	for i, k := range keys {
		writable[k] = writable[k] || m.IsWritableLoaded(i, loaded)
	}
	sig := tx.Signature()
	src := &errSource{bank: bank}
	var open *InstructionProfile
	res := runtime.Execute(bank.ExecEnv(), src, tx, runtime.Options{
		LoadedAddresses:    loaded,
		CheckBlockhash:     bank.BlockhashValid,
		UncheckedBlockhash: l.uncheckedBlockhash(bank),
		AlreadyProcessed:   func() bool { return l.alreadyProcessed(sig, m.RecentBlockhash, bank) },
		OnInstruction: func(step runtime.InstructionStep) {
			if !step.Done {
				open = &InstructionProfile{}
				for _, a := range step.Accounts {
					open.Accounts = append(open.Accounts, ProfiledAccount{Pubkey: a.Pubkey, Writable: writable[a.Pubkey],
						Before: existing(a.Account)})
				}
				return
			}
			if open == nil {
				return
			}
			for i, a := range step.Accounts {
				if i < len(open.Accounts) && open.Accounts[i].Pubkey == a.Pubkey {
					open.Accounts[i].After = existing(a.Account)
				}
			}
			open.Units, open.Logs, open.Err = step.Units, step.Logs, step.Err
			p.Instructions = append(p.Instructions, *open)
			open = nil
		},
	})
	if src.err != nil {
		return nil, src.err
	}
	p.Result = res
	written := make(map[core.Pubkey]runtime.Account, len(res.Writes))
	for _, w := range res.Writes {
		written[w.Pubkey] = w.Account
	}
	seen := make(map[core.Pubkey]bool, len(keys))
	for _, k := range keys {
		if seen[k] {
			continue
		}
		seen[k] = true
		a := ProfiledAccount{Pubkey: k, Writable: writable[k]}
		if k == core.SysvarInstructionsID {
			p.Accounts = append(p.Accounts, a)
			continue
		}
		before, found, err := bank.Account(k)
		if err != nil {
			return nil, err
		}
		if !found && core.IsSysvarID(k) {
			before, found = bank.ExecEnv().SysvarAccount(k)
		}
		if found && before.Lamports > 0 {
			b := before.Clone()
			a.Before = &b
		}
		a.After = a.Before
		if w, ok := written[k]; ok {
			a.After = existing(w)
		}
		p.Accounts = append(p.Accounts, a)
	}
	return p, nil
}

// existing is a copy of a, or nil for an account that does not exist (no lamports).
func existing(a runtime.Account) *runtime.Account {
	if a.Lamports == 0 {
		return nil
	}
	c := a.Clone()
	return &c
}
