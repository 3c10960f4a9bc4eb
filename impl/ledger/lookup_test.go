package ledger

import (
	"context"
	"slices"
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/alt"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

// frozenBank returns the bank of slot once it is frozen.
func frozenBank(t *testing.T, l *Ledger, slot uint64) *Bank {
	t.Helper()
	var b *Bank
	waitFor(t, "frozen bank", func() bool {
		l.mu.RLock()
		b = l.banks[slot]
		l.mu.RUnlock()
		return b != nil && b.Frozen()
	})
	return b
}

// TestLoadAddresses creates and extends a lookup table through transactions, then resolves a v0
// message against the bank that extended it (the new addresses do not serve yet) and against a later
// one (they do), and runs the message there with the loaded addresses.
func TestLoadAddresses(t *testing.T) {
	programs := runtime.NewRegistry(system.Module, alt.Module)
	l, err := Open(Config{Dir: t.TempDir(), SlotDuration: 10 * time.Millisecond, FinalityDepth: 4, Programs: programs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	ctx := context.Background()
	payer, authority := newKey(t), newKey(t)
	if _, err := l.Airdrop(ctx, payer.PublicKey(), 10*LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	run := func(what string, ixs []core.Instruction, signers ...core.Keypair) *Executed {
		t.Helper()
		tx, err := core.NewTransaction(payer.PublicKey(), ixs, l.Bank(Processed).LastBlockhash(), signers...)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := l.Execute(ctx, tx)
		if err != nil {
			t.Fatal(err)
		}
		if ex.Result.Err != nil {
			t.Fatalf("%s: %v\n%v", what, ex.Result.Err, ex.Result.Logs)
		}
		return ex
	}

	waitFor(t, "a slot hash", func() bool { return l.Bank(Processed).Slot > 1 })
	recent := l.Bank(Processed).ParentSlot
	createIx, table := alt.CreateLookupTable(authority.PublicKey(), payer.PublicKey(), recent)
	run("create", []core.Instruction{createIx}, payer)
	dest := []core.Pubkey{newKey(t).PublicKey(), newKey(t).PublicKey(), newKey(t).PublicKey()}
	p := payer.PublicKey()
	ex := run("extend", []core.Instruction{alt.ExtendLookupTable(table, authority.PublicKey(), &p, dest)}, payer, authority)

	// A v0 message crediting dest[0] and dest[1] and passing dest[2] read-only, through the table.
	second := core.TransferInstruction(payer.PublicKey(), dest[1], LamportsPerSOL)
	second.Accounts = append(second.Accounts, core.Readonly(dest[2]))
	ixs := []core.Instruction{core.TransferInstruction(payer.PublicKey(), dest[0], LamportsPerSOL), second}
	m, err := core.CompileV0Message(payer.PublicKey(), ixs,
		[]core.AddressLookupTableAccount{{Key: table, Addresses: dest}}, l.Bank(Processed).LastBlockhash())
	if err != nil {
		t.Fatal(err)
	}
	if len(m.AddressTableLookups) != 1 {
		t.Fatalf("lookups = %+v", m.AddressTableLookups)
	}

	// In the slot of the extension the new addresses are not usable yet.
	same := frozenBank(t, l, ex.Slot)
	if _, terr := same.LoadAddresses(m); terr == nil || terr.Kind != runtime.TxInvalidAddressLookupTableIndex {
		t.Fatalf("lookup in the extension's slot: %v", terr)
	}
	next := frozenBank(t, l, ex.Slot+1)
	loaded, terr := next.LoadAddresses(m)
	if terr != nil {
		t.Fatalf("lookup in the next slot: %v", terr)
	}
	var wantW, wantR []core.Pubkey
	for _, i := range m.AddressTableLookups[0].WritableIndexes {
		wantW = append(wantW, dest[i])
	}
	for _, i := range m.AddressTableLookups[0].ReadonlyIndexes {
		wantR = append(wantR, dest[i])
	}
	if len(wantW) != 2 || len(wantR) != 1 || !slices.Equal(loaded.Writable, wantW) || !slices.Equal(loaded.Readonly, wantR) {
		t.Fatalf("loaded = %+v, want writable %v readonly %v", loaded, wantW, wantR)
	}

	// The message runs with what was loaded.
	tx, err := core.NewSignedTransaction(m, payer)
	if err != nil {
		t.Fatal(err)
	}
	res := runtime.Execute(next.Env, next, tx, runtime.Options{LoadedAddresses: loaded, CheckBlockhash: next.BlockhashValid})
	if res.Err != nil {
		t.Fatalf("v0 transaction: %v\n%v", res.Err, res.Logs)
	}
	if want := m.FullAccountKeys(loaded); !slices.Equal(res.AccountKeys, want) || len(want) != 5 {
		t.Fatalf("account keys = %v, want %v", res.AccountKeys, want)
	}

	// On a transaction's way the lookups are resolved once: the simulation and the producer reuse those resolved
	// against the working bank (while no table they read was written there); resolved against another bank, the
	// producer resolves them again. A resolution that lands in a later working slot is retried.
	reused := false
	for try := 0; try < 50 && !reused; try++ {
		m2 := *m
		m2.RecentBlockhash = l.Bank(Processed).LastBlockhash()
		tx2, err := core.NewSignedTransaction(&m2, payer)
		if err != nil {
			t.Fatal(err)
		}
		before := tableLoads.Load()
		w := l.Bank(Processed)
		lk := w.ResolveLookups(&tx2.Message)
		sim, err := l.Simulate(w, tx2, false, lk)
		if err != nil || sim.Result.Err != nil {
			t.Fatalf("simulation with resolved lookups: %v %+v", err, sim)
		}
		ex, err := l.ExecuteResolved(ctx, tx2, lk)
		if err != nil || ex.Result.Err != nil {
			t.Fatalf("execution with resolved lookups: %v %+v", err, ex)
		}
		loads := tableLoads.Load() - before
		if ex.Slot == w.Slot {
			if loads != 1 {
				t.Fatalf("resolved %d times on the way, want once", loads)
			}
			reused = true
		} else if loads != 2 {
			t.Fatalf("executed in slot %d after resolving in %d: resolved %d times, want twice", ex.Slot, w.Slot, loads)
		}
	}
	if !reused {
		t.Fatal("no execution landed in the slot its lookups were resolved in")
	}

	// Legacy messages and messages without lookups load nothing.
	legacy, _ := core.CompileLegacyMessage(payer.PublicKey(), ixs, next.LastBlockhash())
	if got, terr := next.LoadAddresses(legacy); got != nil || terr != nil {
		t.Fatalf("legacy: %v %v", got, terr)
	}

	// Unknown tables and tables of another owner.
	missing := *m
	missing.AddressTableLookups = []core.AddressTableLookup{{AccountKey: newKey(t).PublicKey(), WritableIndexes: []uint8{0}}}
	if _, terr := next.LoadAddresses(&missing); terr == nil || terr.Kind != runtime.TxAddressLookupTableNotFound {
		t.Fatalf("missing table: %v", terr)
	}
	owned := *m
	owned.AddressTableLookups = []core.AddressTableLookup{{AccountKey: payer.PublicKey(), WritableIndexes: []uint8{0}}}
	if _, terr := next.LoadAddresses(&owned); terr == nil || terr.Kind != runtime.TxInvalidAddressLookupTableOwner {
		t.Fatalf("table of another owner: %v", terr)
	}
}
