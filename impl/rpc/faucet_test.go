package rpc

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/parse"
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
		sig, err := viaJSON(s.RequestAirdrop, c.pubkey, c.lamports)
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

// requestAirdrop of an amount too small to make a new account rent-exempt answers the transaction's signature,
// as the reference's faucet (which sends without preflight) does, and the transaction fails on chain with
// InsufficientFundsForRent, the fee paid by the faucet.
func TestRequestAirdropFailingOnChain(t *testing.T) {
	s, l := newTestServer(t)
	to, err := core.NewKeypair()
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.RequestAirdrop(context.Background(), &rpcapi.RequestAirdropParams{Pubkey: to.PublicKey(), Lamports: 1})
	if err != nil {
		t.Fatalf("requestAirdrop of 1 lamport: %v, want the signature", err)
	}
	sig, err := core.ParseSignature(got)
	if err != nil {
		t.Fatalf("answer %q: %v", got, err)
	}
	st, err := l.SignatureStatuses([]core.Signature{sig}, false)
	if err != nil || st[0] == nil {
		t.Fatalf("status of %s: %v %v", got, st, err)
	}
	if e, _ := json.Marshal(parse.TransactionErr(st[0].Err)); string(e) != `{"InsufficientFundsForRent":{"account_index":1}}` {
		t.Errorf("err %s, want InsufficientFundsForRent of account 1", e)
	}
	if acct, _ := l.Bank(ledger.Processed).GetAccount(to.PublicKey()); acct.Lamports != 0 {
		t.Errorf("recipient holds %d lamports, want none", acct.Lamports)
	}
}
