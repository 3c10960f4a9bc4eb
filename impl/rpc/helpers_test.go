package rpc

import (
	"testing"
	"time"

	"ledgerd/impl/ledger"
)

// newTestServer starts a ledger with fast slots (in a temporary directory) and returns its handler.
func newTestServer(t *testing.T) (*Server, *ledger.Ledger) {
	t.Helper()
	l, err := ledger.Open(ledger.Config{Dir: t.TempDir(), SlotDuration: 10 * time.Millisecond, FinalityDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	g := l.Genesis
	return NewServer(Node{Identity: g.IdentityPubkey(), GenesisHash: g.HashString(), Ledger: l}), l
}

// waitFinalized waits until the processed slot of now is finalized.
func waitFinalized(t *testing.T, l *ledger.Ledger) {
	t.Helper()
	target, _, _ := l.Slots()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, _, f := l.Slots(); f >= target {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting for finality")
		}
		time.Sleep(2 * time.Millisecond)
	}
}
