package ledger

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

func newPubkey(t *testing.T) core.Pubkey { return newKey(t).PublicKey() }

// An emptied faucet refuses with FaucetEmptyError, saying what it holds, and executes nothing.
func TestFaucetEmpty(t *testing.T) {
	l, err := Open(Config{Dir: t.TempDir(), SlotDuration: 5 * time.Millisecond, FinalityDepth: 1, StoreInMemory: true,
		Genesis: GenesisOptions{FaucetLamports: 10 * LamportsPerSOL}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	ctx := context.Background()
	if _, err := l.Airdrop(ctx, newPubkey(t), 6*LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	faucet := l.Genesis.Faucet.PublicKey()
	before := balance(l, Processed, faucet)
	_, err = l.Airdrop(ctx, newPubkey(t), 6*LamportsPerSOL)
	var empty *FaucetEmptyError
	if !errors.As(err, &empty) {
		t.Fatalf("second airdrop: %v, want a FaucetEmptyError", err)
	}
	if want := uint64(4*LamportsPerSOL - 5000); empty.Available != want || empty.Needed != uint64(6*LamportsPerSOL+5000) {
		t.Errorf("got %+v, want %d available and %d needed", empty, want, 6*LamportsPerSOL+5000)
	}
	// Nothing executed: the faucet paid no fee (a transaction count would also see the node's votes).
	if after := balance(l, Processed, faucet); after != before {
		t.Errorf("a refused airdrop changed the faucet's balance from %d to %d", before, after)
	}
	// What is left can still be given.
	if _, err := l.Airdrop(ctx, newPubkey(t), empty.Available-5000); err != nil {
		t.Fatalf("airdrop of the rest: %v", err)
	}
}

// With a per-time cap, one recipient gets at most the cap per slice, others are counted apart, a refused or
// failed request counts nothing, and the next slice starts afresh. Without a cap nothing is counted.
func TestFaucetPerTimeCap(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1_700_000_000, 0)
	clock := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	}
	l, err := Open(Config{Dir: t.TempDir(), SlotDuration: 5 * time.Millisecond, FinalityDepth: 1, StoreInMemory: true,
		AirdropPerTimeCap: 3 * LamportsPerSOL, AirdropTimeSlice: time.Minute, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	ctx := context.Background()
	a, b := newPubkey(t), newPubkey(t)
	if _, err := l.Airdrop(ctx, a, 2*LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	_, err = l.Airdrop(ctx, a, 2*LamportsPerSOL)
	var limited *FaucetLimitError
	if !errors.As(err, &limited) || limited.Given != 2*LamportsPerSOL || limited.Cap != 3*LamportsPerSOL {
		t.Fatalf("second airdrop to a: %v, want a FaucetLimitError with 2 SOL given", err)
	}
	if _, err := l.Airdrop(ctx, a, LamportsPerSOL); err != nil {
		t.Fatalf("airdrop up to the cap: %v", err)
	}
	if _, err := l.Airdrop(ctx, b, 3*LamportsPerSOL); err != nil {
		t.Fatalf("another recipient: %v", err)
	}
	if _, err := l.Airdrop(ctx, b, 4*LamportsPerSOL); !errors.As(err, &limited) {
		t.Fatalf("a request over the cap by itself: %v", err)
	}
	// A transfer too small for a new account fails on chain: its signature is the answer, as the reference's
	// faucet sends without preflight, and the recipient gets nothing, which is not counted.
	c := newPubkey(t)
	sig, err := l.Airdrop(ctx, c, 1)
	if err != nil {
		t.Fatalf("airdrop of 1 lamport to a new account: %v, want its signature", err)
	}
	if st, err := l.SignatureStatuses([]core.Signature{sig}, false); err != nil || st[0] == nil || st[0].Err == nil ||
		st[0].Err.Kind != runtime.TxInsufficientFundsForRent {
		t.Fatalf("status of the failed airdrop: %+v %v, want InsufficientFundsForRent", st, err)
	}
	if _, err := l.Airdrop(ctx, c, 3*LamportsPerSOL); err != nil {
		t.Fatalf("after a failed airdrop: %v", err)
	}
	mu.Lock()
	now = now.Add(time.Minute)
	mu.Unlock()
	if _, err := l.Airdrop(ctx, a, 3*LamportsPerSOL); err != nil {
		t.Fatalf("the next slice: %v", err)
	}

	uncapped, err := Open(Config{Dir: t.TempDir(), SlotDuration: 5 * time.Millisecond, FinalityDepth: 1, StoreInMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { uncapped.Close() })
	for range 3 {
		if _, err := uncapped.Airdrop(ctx, a, DefaultAirdropCap); err != nil {
			t.Fatalf("uncapped faucet: %v", err)
		}
	}
}
