package ledger

import (
	"context"
	"slices"
	"testing"
	"time"

	"ledgerd/impl/core"
)

func TestSnapshotRevertEveryCommitment(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(Config{Dir: dir, SlotDuration: 5 * time.Millisecond, FinalityDepth: 2,
		BlockProduction: ProduceOnRequest, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { l.Close() }()
	ev := listen(l)
	ctx := context.Background()
	alice, bob := newPubkey(t), newPubkey(t)
	if _, err := l.Airdrop(ctx, alice, 5*LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	if _, err := l.AdvanceSlots(ctx, 3); err != nil {
		t.Fatal(err)
	}
	id, snapSlot, err := l.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Changes past the snapshot, confirmed and finalized far beyond the prune lag, and one only processed.
	if _, err := l.Airdrop(ctx, alice, LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	bobSig, err := l.Airdrop(ctx, bob, 2*LamportsPerSOL)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.AdvanceSlots(ctx, pruneLag+20); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Airdrop(ctx, alice, 3*LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	if got := balance(l, Finalized, alice); got != 6*LamportsPerSOL {
		t.Fatalf("finalized alice before the revert: %d", got)
	}
	ev.mu.Lock()
	eventsBefore := len(ev.events)
	ev.mu.Unlock()

	ok, err := l.Revert(ctx, id)
	if err != nil || !ok {
		t.Fatalf("Revert = %v, %v", ok, err)
	}
	for _, c := range []Commitment{Processed, Confirmed, Finalized} {
		if got := balance(l, c, alice); got != 5*LamportsPerSOL {
			t.Errorf("%s alice after revert = %d, want 5 SOL", c, got)
		}
		if got := balance(l, c, bob); got != 0 {
			t.Errorf("%s bob after revert = %d, want none", c, got)
		}
	}
	p, c, r := l.Slots()
	if c != snapSlot+1 || p != c+1 || r != c-2 {
		t.Fatalf("slots after revert: processed %d confirmed %d root %d (snapshot at %d)", p, c, r, snapSlot)
	}
	if recs, err := l.SignaturesForAddress(bob, nil, nil, 10, Confirmed); err != nil || len(recs) != 0 {
		t.Fatalf("bob's history after revert: %d, %v", len(recs), err)
	}
	if _, found, err := l.Transaction(bobSig, Confirmed); found || err != nil {
		t.Fatalf("bob's airdrop still stored: %v %v", found, err)
	}
	if st, _ := l.SignatureStatuses([]core.Signature{bobSig}, true); st[0] != nil {
		t.Fatalf("bob's airdrop still has a status: %+v", st[0])
	}
	// The restored accounts are written again in one slot, so subscribers hear of them.
	var restored *Event
	ev.mu.Lock()
	after := slices.Clone(ev.events[eventsBefore:])
	ev.mu.Unlock()
	for _, e := range after {
		if e.Kind == SlotFrozen {
			restored = &e
			break
		}
	}
	if restored == nil || restored.Slot != snapSlot+1 || !slices.Contains(restored.Accounts, alice) ||
		!slices.Contains(restored.Accounts, bob) {
		t.Fatalf("the slot after the revert does not announce alice and bob: %+v", restored)
	}
	if again, err := l.Revert(ctx, id); again || err != nil {
		t.Fatalf("a used snapshot reverts again: %v %v", again, err)
	}
	// The chain goes on, and survives a restart.
	if _, err := l.Airdrop(ctx, bob, LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	if _, err := l.AdvanceSlots(ctx, 3); err != nil {
		t.Fatal(err)
	}
	_, c, _ = l.Slots()
	l.Close()
	l, err = Open(Config{Dir: dir, SlotDuration: 5 * time.Millisecond, FinalityDepth: 2, BlockProduction: ProduceOnRequest})
	if err != nil {
		t.Fatalf("reopening after a revert: %v", err)
	}
	if _, c2, _ := l.Slots(); c2 < c {
		t.Fatalf("reopened at %d, was %d", c2, c)
	}
	if got := balance(l, Confirmed, bob); got != LamportsPerSOL {
		t.Fatalf("bob after restart %d", got)
	}
	if got := balance(l, Confirmed, alice); got != 5*LamportsPerSOL {
		t.Fatalf("alice after restart %d", got)
	}
}

func TestRevertKeepsEarlierSnapshots(t *testing.T) {
	l := openMode(t, ProduceOnClock, 1)
	listen(l)
	ctx := context.Background()
	alice := newPubkey(t)
	id1, _, err := l.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Airdrop(ctx, alice, LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	id2, _, err := l.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Airdrop(ctx, alice, LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	id3, _, err := l.Snapshot(ctx)
	if err != nil || id2 <= id1 || id3 <= id2 {
		t.Fatalf("ids %d %d %d, %v", id1, id2, id3, err)
	}
	if ok, err := l.Revert(ctx, id2); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if got := balance(l, Processed, alice); got != LamportsPerSOL {
		t.Fatalf("after revert to 2: %d", got)
	}
	if ok, _ := l.Revert(ctx, id3); ok {
		t.Fatal("a snapshot taken after the reverted one survived")
	}
	if ok, err := l.Revert(ctx, id1); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if got := balance(l, Confirmed, alice); got != 0 {
		t.Fatalf("after revert to 1: %d", got)
	}
}
