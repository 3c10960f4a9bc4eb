package rpc

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"ledgerd/impl/core"
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

// viaJSON calls handler h as a request reaches it: params (Go values, marshaled as the positional array a client
// sends) are decoded and validated first, so that keys in bad form and lists over their limits get the errors
// the dispatcher gives before any handler runs.
func viaJSON[P any, PP interface {
	*P
	UnmarshalJSON([]byte) error
	Validate() error
}, R any](h func(context.Context, PP) (R, error), params ...any) (R, error) {
	var zero R
	for len(params) > 0 && params[len(params)-1] == nil {
		params = params[:len(params)-1]
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return zero, err
	}
	p := PP(new(P))
	if err := p.UnmarshalJSON(raw); err != nil {
		return zero, err
	}
	if err := p.Validate(); err != nil {
		return zero, err
	}
	return h(context.Background(), p)
}

// mustSignatures parses signatures a test knows to be valid.
func mustSignatures(list []string) []core.Signature {
	out := make([]core.Signature, len(list))
	for i, s := range list {
		sig, err := core.ParseSignature(s)
		if err != nil {
			panic(err)
		}
		out[i] = sig
	}
	return out
}
