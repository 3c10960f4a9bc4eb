package ledger

import (
	"context"
	"testing"

	"ledgerd/impl/core"
)

// PruneHistory lets the oldest blocks go, with their transactions and signature-list entries, keeps what a
// restart reads back, and the ledger reopens on what is left.
func TestPruneHistoryKeepsARestartableLedger(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(Config{Dir: dir, FinalityDepthZero: true, BlockProduction: ProduceOnRequest})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	alice, _ := core.NewKeypair()
	if _, err := l.AdvanceSlots(ctx, 1); err != nil {
		t.Fatal(err)
	}
	tx := core.NewTransferTx(l.Genesis.Faucet, alice.PublicKey(), 1_000_000, l.Bank(Processed).LastBlockhash())
	ex, err := l.Execute(ctx, tx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.AdvanceSlots(ctx, 600); err != nil {
		t.Fatal(err)
	}
	_, confirmed, _ := l.Slots()

	// The archive guard holds pruning below what it has.
	if first, err := l.PruneHistory(1, func() (uint64, bool) { return 0, false }); err != nil || first != 0 {
		t.Fatalf("pruned to %d (%v) with nothing archived", first, err)
	}
	first, err := l.PruneHistory(1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := confirmed - l.restoreKeep() + 1; first != want || l.FirstAvailableBlock() != want {
		t.Fatalf("first block %d (%d), want %d", first, l.FirstAvailableBlock(), want)
	}
	if _, found, err := l.Block(ex.Slot, Finalized); found || err != nil {
		t.Errorf("block %d still held (%v)", ex.Slot, err)
	}
	if _, found, err := l.Transaction(tx.Signature(), Finalized); found || err != nil {
		t.Errorf("transaction still held (%v)", err)
	}
	if list, err := l.SignaturesForAddress(alice.PublicKey(), nil, nil, 10, Finalized); err != nil || len(list) != 0 {
		t.Errorf("alice still lists %d signatures (%v)", len(list), err)
	}
	slots, err := l.st.BlocksInRange(0, confirmed, 0)
	if err != nil || uint64(len(slots)) != confirmed-first+1 || slots[0] != first {
		t.Errorf("%d blocks from %v held, want %d from %d", len(slots), slots[:1], confirmed-first+1, first)
	}
	l.Stop()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	l2, err := Open(Config{Dir: dir, FinalityDepthZero: true, BlockProduction: ProduceOnRequest})
	if err != nil {
		t.Fatalf("reopening a pruned ledger: %v", err)
	}
	defer func() { l2.Stop(); l2.Close() }()
	if l2.FirstAvailableBlock() != first {
		t.Errorf("first block after reopening %d, want %d", l2.FirstAvailableBlock(), first)
	}
	if _, err := l2.AdvanceSlots(ctx, 1); err != nil {
		t.Fatal(err)
	}
}

func TestBlockShreds(t *testing.T) {
	for _, c := range []struct {
		bytes int
		want  uint64
	}{{0, 32}, {1, 32}, {32_000, 32}, {32_001, 64}, {100_000, 128}} {
		if got := blockShreds(c.bytes); got != c.want {
			t.Errorf("blockShreds(%d) = %d, want %d", c.bytes, got, c.want)
		}
	}
}
