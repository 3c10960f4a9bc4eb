package ledger

import (
	"context"
	"reflect"
	"sync"
	"testing"
	"time"

	"ledgerd/impl/core"
)

// A paused ledger produces nothing until Start, so a listener registered in between hears of the first slot it
// produces; Stop and Close work on a ledger that never started.
func TestPausedLedgerStartsOnStart(t *testing.T) {
	l, err := Open(Config{Dir: t.TempDir(), SlotDuration: 2 * time.Millisecond, FinalityDepth: 1, Paused: true,
		StoreInMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	before, _, _ := l.Slots()
	time.Sleep(20 * time.Millisecond) // ten slot durations
	if now, _, _ := l.Slots(); now != before {
		t.Fatalf("a paused ledger moved from slot %d to %d", before, now)
	}
	var mu sync.Mutex
	var events []Event
	l.OnEvent(func(e Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	})
	l.Start()
	l.Start() // a second Start is a no-op
	waitFor(t, "a frozen slot", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(events) > 0
	})
	mu.Lock()
	first := events[0]
	mu.Unlock()
	if first.Slot != before {
		t.Errorf("first event is %s of slot %d, want one of slot %d (the working slot at Start)", first.Kind, first.Slot, before)
	}

	never, err := Open(Config{Dir: t.TempDir(), Paused: true, StoreInMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- never.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close of a ledger that never started hangs")
	}
}

// The records a SlotFrozen event carries are the block's transactions exactly as a reader gets them back from
// the store, so notifications built from them match getBlock.
func TestFrozenEventCarriesTheStoredRecords(t *testing.T) {
	l, err := Open(Config{Dir: t.TempDir(), SlotDuration: 20 * time.Millisecond, FinalityDepth: 1, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	var mu sync.Mutex
	var frozen []Event
	l.OnEvent(func(e Event) {
		if e.Kind == SlotFrozen && len(e.Txs) > 0 {
			mu.Lock()
			frozen = append(frozen, e)
			mu.Unlock()
		}
	})
	l.Start()
	ctx := context.Background()
	alice, bob := newKey(t), newKey(t)
	if _, err := l.Airdrop(ctx, alice.PublicKey(), LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	for _, lamports := range []uint64{1_000_000, 2 * LamportsPerSOL} { // the second fails, paying its fee
		tx := core.NewTransferTx(alice, bob.PublicKey(), lamports, l.Bank(Processed).LastBlockhash())
		if _, err := l.Execute(ctx, tx); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	waitFor(t, "the transactions' slots to freeze", func() bool {
		mu.Lock()
		defer mu.Unlock()
		n = 0
		for _, e := range frozen {
			n += len(e.Txs)
		}
		return n >= 3
	})
	mu.Lock()
	defer mu.Unlock()
	for _, e := range frozen {
		stored, err := l.BlockTransactions(e.Block)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(e.Txs, stored) {
			for i := range min(len(e.Txs), len(stored)) {
				t.Errorf("slot %d tx %d:\n event %+v %+v\nstored %+v %+v", e.Slot, i, e.Txs[i], e.Txs[i].Meta,
					stored[i], stored[i].Meta)
			}
			t.Fatalf("slot %d: the event's %d records differ from the %d stored", e.Slot, len(e.Txs), len(stored))
		}
	}
}
