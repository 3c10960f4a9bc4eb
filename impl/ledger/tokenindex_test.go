package ledger

import (
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
)

// tokenAccountData lays out an initialized token account holding 100.
func tokenAccountData(mint, owner core.Pubkey, delegate *core.Pubkey) []byte {
	a := token.Account{Mint: mint, Owner: owner, Amount: 100, State: token.StateInitialized}
	if delegate != nil {
		a.Delegate = token.Some(*delegate)
	}
	return a.AccountData()
}

func TestTokenIndexes(t *testing.T) {
	owner, mint, delegate := core.Pubkey{1}, core.Pubkey{2}, core.Pubkey{3}
	a1, a2, a3 := core.Pubkey{11}, core.Pubkey{12}, core.Pubkey{13}
	genesis := []GenesisAccount{
		{Pubkey: a1, Lamports: 2039280, Owner: core.TokenProgramID, Data: tokenAccountData(mint, owner, nil)},
		{Pubkey: a2, Lamports: 2039280, Owner: core.Token2022ProgramID, Data: tokenAccountData(mint, owner, &delegate)},
		// Not a token account: wrong program.
		{Pubkey: core.Pubkey{14}, Lamports: 2039280, Owner: core.SystemProgramID, Data: tokenAccountData(mint, owner, nil)},
	}
	l, err := Open(Config{Dir: t.TempDir(), Genesis: GenesisOptions{Accounts: genesis}, SlotDuration: 200e6, FinalityDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	list := func(b *Bank, kind IndexKind, key core.Pubkey) []core.Pubkey {
		var out []core.Pubkey
		if err := b.TokenAccounts(kind, key, func(k core.Pubkey, _ runtime.Account) bool { out = append(out, k); return true }); err != nil {
			t.Fatal(err)
		}
		slices.SortFunc(out, func(a, b core.Pubkey) int { return a.Compare(b) })
		return out
	}
	fin := l.Bank(Finalized)
	if got := list(fin, IndexTokenOwner, owner); !slices.Equal(got, []core.Pubkey{a1, a2}) {
		t.Fatalf("by owner: %v", got)
	}
	if got := list(fin, IndexTokenMint, mint); !slices.Equal(got, []core.Pubkey{a1, a2}) {
		t.Fatalf("by mint: %v", got)
	}
	if got := list(fin, IndexTokenDelegate, delegate); !slices.Equal(got, []core.Pubkey{a2}) {
		t.Fatalf("by delegate: %v", got)
	}

	// A write in the working bank shows at processed at once, and at finalized only once stored and rooted;
	// an account that changes owner leaves the old owner's list.
	// Written right after a slot opens, so the producer cannot be freezing the bank meanwhile.
	start := l.Bank(Processed)
	waitFor(t, "a new slot", func() bool { return l.Bank(Processed) != start })
	work := l.Bank(Processed)
	other := core.Pubkey{4}
	work.apply([]runtime.AccountWrite{
		{Pubkey: a3, Account: runtime.Account{Lamports: 2039280, Owner: core.TokenProgramID, Data: tokenAccountData(mint, owner, nil)}},
		{Pubkey: a1, Account: runtime.Account{Lamports: 2039280, Owner: core.TokenProgramID, Data: tokenAccountData(mint, other, nil)}},
	})
	if got := list(work, IndexTokenOwner, owner); !slices.Equal(got, []core.Pubkey{a2, a3}) {
		t.Fatalf("processed by owner: %v", got)
	}
	if got := list(l.Bank(Finalized), IndexTokenOwner, owner); !slices.Equal(got, []core.Pubkey{a1, a2}) {
		t.Fatalf("finalized by owner before rooting: %v", got)
	}
	waitFor(t, "rooted", func() bool { _, _, f := l.Slots(); return f >= work.Slot })
	if got := list(l.Bank(Finalized), IndexTokenOwner, owner); !slices.Equal(got, []core.Pubkey{a2, a3}) {
		t.Fatalf("finalized by owner after rooting: %v", got)
	}
	if got := list(l.Bank(Finalized), IndexTokenOwner, other); !slices.Equal(got, []core.Pubkey{a1}) {
		t.Fatalf("new owner: %v", got)
	}
}

// A transaction that touches a token account records its token balance before and after, with the mint's
// decimals.
func TestTokenBalancesRecorded(t *testing.T) {
	owner, mint, acct := core.Pubkey{1}, core.Pubkey{2}, core.Pubkey{11}
	mintState := token.Mint{Decimals: 6, IsInitialized: true}
	mintData := mintState.MintData()
	genesis := []GenesisAccount{
		{Pubkey: mint, Lamports: 1461600, Owner: core.TokenProgramID, Data: mintData},
		{Pubkey: acct, Lamports: 2039280, Owner: core.TokenProgramID, Data: tokenAccountData(mint, owner, nil)},
	}
	l, err := Open(Config{Dir: t.TempDir(), Genesis: GenesisOptions{Accounts: genesis}, SlotDuration: 5e6, FinalityDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	alice := newKey(t)
	if _, err := l.Airdrop(t.Context(), alice.PublicKey(), LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	tx := core.NewTransferTx(alice, acct, 1000, l.Bank(Processed).LastBlockhash())
	if ex, err := l.Execute(t.Context(), tx); err != nil || ex.Result.Err != nil {
		t.Fatal(err, ex.Result.Err)
	}
	waitFor(t, "confirmed", func() bool {
		_, found, _ := l.Transaction(tx.Signature(), Confirmed)
		return found
	})
	rec, _, _ := l.Transaction(tx.Signature(), Confirmed)
	want := TokenBalance{AccountIndex: 1, Mint: mint, Owner: owner, ProgramID: core.TokenProgramID, Amount: 100, Decimals: 6}
	if len(rec.Meta.PreTokenBalances) != 1 || rec.Meta.PreTokenBalances[0] != want ||
		len(rec.Meta.PostTokenBalances) != 1 || rec.Meta.PostTokenBalances[0] != want {
		t.Fatalf("token balances: %+v / %+v", rec.Meta.PreTokenBalances, rec.Meta.PostTokenBalances)
	}
}
