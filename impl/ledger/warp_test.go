package ledger

import (
	"context"
	"testing"
	"time"

	"ledgerd/impl/core"
)

// A chain warped to a slot starts there (the test validator's --warp-slot): its first block is at the warp slot,
// the Clock says so, every commitment level has a bank, transactions land, and a restart resumes it.
func TestWarpSlot(t *testing.T) {
	const warp = 5_000
	dir := t.TempDir()
	open := func() *Ledger {
		l, err := Open(Config{Dir: dir, SlotDuration: 10 * time.Millisecond, FinalityDepth: 4, WarpSlot: warp,
			Genesis: GenesisOptions{SlotsPerEpoch: 1_000}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		return l
	}
	l := open()
	if _, confirmed, finalized := l.Slots(); confirmed < warp || finalized < warp {
		t.Fatalf("new warped chain at confirmed %d, finalized %d; want at least %d", confirmed, finalized, warp)
	}
	if got := l.FirstAvailableBlock(); got != warp {
		t.Fatalf("first available block %d, want %d", got, warp)
	}
	for _, c := range []Commitment{Processed, Confirmed, Finalized} {
		b := l.Bank(c)
		if b == nil || b.Slot < warp || b.Env.Clock.Slot != b.Slot || b.Env.Clock.Epoch != b.Slot/1_000 {
			t.Fatalf("%v bank: %+v", c, b)
		}
	}
	alice := newKey(t)
	sig, err := l.Airdrop(context.Background(), alice.PublicKey(), LamportsPerSOL)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "finalized airdrop", func() bool {
		st, _ := l.SignatureStatuses([]core.Signature{sig}, false)
		return st[0] != nil && st[0].Status == Finalized
	})
	if got := balance(l, Finalized, alice.PublicKey()); got != LamportsPerSOL {
		t.Fatalf("finalized balance %d", got)
	}
	_, confirmed, _ := l.Slots()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l2 := open()
	if _, c2, _ := l2.Slots(); c2 < confirmed {
		t.Fatalf("restart went back from %d to %d", confirmed, c2)
	}
	if got := balance(l2, Finalized, alice.PublicKey()); got != LamportsPerSOL {
		t.Fatalf("finalized balance after restart %d", got)
	}
}
