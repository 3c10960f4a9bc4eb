package rpc

import (
	"context"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/ledger"
)

// requestAirdrop answers an empty faucet and a capped recipient with their own errors (which the transport does
// not log), and an airdrop over the per-request cap with the reference's bare -32603.
func TestRequestAirdropRefusals(t *testing.T) {
	l, err := ledger.Open(ledger.Config{Dir: t.TempDir(), SlotDuration: 10 * time.Millisecond, FinalityDepth: 2,
		StoreInMemory: true, Genesis: ledger.GenesisOptions{FaucetLamports: 10 * ledger.LamportsPerSOL},
		AirdropCap: 8 * ledger.LamportsPerSOL, AirdropPerTimeCap: 7 * ledger.LamportsPerSOL})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	s := NewServer(Node{Identity: l.Genesis.IdentityPubkey(), GenesisHash: l.Genesis.HashString(), Ledger: l})
	ctx := context.Background()
	to := "83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri"
	other := "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
	for _, c := range []struct {
		name     string
		pubkey   string
		lamports uint64
		code     int
		message  string
	}{
		{"first", to, 6 * ledger.LamportsPerSOL, 0, ""},
		{"over the per-request cap", other, 9 * ledger.LamportsPerSOL, -32603, "Internal error"},
		{"past the per-time cap", to, 2 * ledger.LamportsPerSOL, -32096, "airdrop refused: " + to +
			" may receive at most 7000000000 lamports every 60 s; 6000000000 given, 2000000000 requested"},
		{"empty", other, 5 * ledger.LamportsPerSOL, -32095,
			"airdrop refused: the faucet holds 3999995000 lamports, the request needs 5000005000"},
	} {
		sig, err := s.RequestAirdrop(ctx, &rpcapi.RequestAirdropParams{Pubkey: c.pubkey, Lamports: c.lamports})
		if c.code == 0 {
			if err != nil || sig == "" {
				t.Fatalf("%s: %q, %v", c.name, sig, err)
			}
			continue
		}
		e, ok := rpcapi.AsError(err)
		if !ok || int(e.Code) != c.code || e.Message != c.message {
			t.Errorf("%s: got %v, want %d %q", c.name, err, c.code, c.message)
		}
	}
}
