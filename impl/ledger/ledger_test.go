package ledger

import (
	"context"
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

func openTest(t *testing.T, dir string, depth uint64) *Ledger {
	t.Helper()
	l, err := Open(Config{Dir: dir, SlotDuration: 10 * time.Millisecond, FinalityDepth: depth})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// waitFor polls cond until it holds or a few seconds pass.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func balance(l *Ledger, c Commitment, k core.Pubkey) uint64 {
	a, _ := l.Bank(c).GetAccount(k)
	return a.Lamports
}

func newKey(t *testing.T) core.Keypair {
	k, err := core.NewKeypair()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestAirdropTransferCommitmentAndRestart(t *testing.T) {
	dir := t.TempDir()
	l := openTest(t, dir, 4)
	ctx := context.Background()
	alice, bob := newKey(t), newKey(t)

	sig, err := l.Airdrop(ctx, alice.PublicKey(), 10*LamportsPerSOL)
	if err != nil {
		t.Fatal(err)
	}
	if got := balance(l, Processed, alice.PublicKey()); got != 10*LamportsPerSOL {
		t.Fatalf("processed balance after airdrop = %d", got)
	}
	// A second identical airdrop is a new transaction, not a duplicate.
	sig2, err := l.Airdrop(ctx, alice.PublicKey(), 10*LamportsPerSOL)
	if err != nil || sig2 == sig {
		t.Fatalf("second airdrop: %v (same signature: %v)", err, sig2 == sig)
	}
	tx := core.NewTransferTx(alice, bob.PublicKey(), 1_000_000, l.Bank(Processed).LastBlockhash())
	ex, err := l.Execute(ctx, tx)
	if err != nil || ex.Result.Err != nil {
		t.Fatalf("transfer: %v %v", err, ex.Result.Err)
	}
	// The same transaction again is refused.
	ex2, _ := l.Execute(ctx, tx)
	if ex2.Result.Err == nil || ex2.Result.Err.Kind != runtime.TxAlreadyProcessed {
		t.Fatalf("duplicate: %v", ex2.Result.Err)
	}
	waitFor(t, "finalized transfer", func() bool {
		st, _ := l.SignatureStatuses([]core.Signature{tx.Signature()}, false)
		return st[0] != nil && st[0].Status == Finalized
	})
	if got := balance(l, Finalized, bob.PublicKey()); got != 1_000_000 {
		t.Fatalf("finalized bob = %d", got)
	}
	if got := balance(l, Finalized, alice.PublicKey()); got != 20*LamportsPerSOL-1_000_000-5000 {
		t.Fatalf("finalized alice = %d", got)
	}
	rec, found, err := l.Transaction(tx.Signature(), Finalized)
	if err != nil || !found || rec.Meta.Fee != 5000 || len(rec.Meta.Logs) == 0 {
		t.Fatalf("transaction record: %v %v %+v", err, found, rec)
	}
	block, found, err := l.Block(rec.Slot, Confirmed)
	if err != nil || !found || block.Signatures[rec.Index] != tx.Signature() {
		t.Fatalf("block: %v %v", err, found)
	}
	sigs, err := l.SignaturesForAddress(bob.PublicKey(), nil, nil, 10, Confirmed)
	if err != nil || len(sigs) != 1 || sigs[0].Tx.Signature() != tx.Signature() {
		t.Fatalf("signatures for bob: %v %d", err, len(sigs))
	}
	_, confirmed, _ := l.Slots()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	l2 := openTest(t, dir, 4)
	if _, c2, _ := l2.Slots(); c2 < confirmed {
		t.Fatalf("restart went back from %d to %d", confirmed, c2)
	}
	if got := balance(l2, Processed, bob.PublicKey()); got != 1_000_000 {
		t.Fatalf("bob after restart = %d", got)
	}
	st, _ := l2.SignatureStatuses([]core.Signature{tx.Signature()}, false)
	if st[0] == nil {
		t.Fatal("status cache lost the transfer across a restart")
	}
	// The old blockhash is still young: replaying the transfer after the restart is still a duplicate.
	ex3, _ := l2.Execute(ctx, tx)
	if ex3.Result.Err == nil || ex3.Result.Err.Kind != runtime.TxAlreadyProcessed {
		t.Fatalf("duplicate after restart: %v", ex3.Result.Err)
	}
	if l2.Genesis.Hash != l.Genesis.Hash {
		t.Fatal("genesis hash changed across a restart")
	}
}

func TestBlockhashChainAndHeights(t *testing.T) {
	l := openTest(t, t.TempDir(), 2)
	waitFor(t, "a few slots", func() bool { _, c, _ := l.Slots(); return c >= 5 })
	var prev *BlockInfo
	for s := uint64(0); s <= 5; s++ {
		b, found, err := l.Block(s, Confirmed)
		if err != nil || !found {
			t.Fatalf("block %d: %v %v", s, found, err)
		}
		if b.BlockHeight != s {
			t.Fatalf("height of %d = %d", s, b.BlockHeight)
		}
		if prev != nil {
			if b.PreviousBlockhash != prev.Blockhash || b.ParentSlot != prev.Slot {
				t.Fatalf("block %d does not chain to %d", s, prev.Slot)
			}
			if want := blockhash(prev.Blockhash, s, b.Signatures); b.Blockhash != want {
				t.Fatalf("blockhash of %d is not the chained hash", s)
			}
		}
		prev = b
	}
}
