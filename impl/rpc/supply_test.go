package rpc

import (
	"context"
	"slices"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/stake"
)

// getSupply lists as non-circulating what the reference does: its fixed mainnet-beta addresses, the stake
// accounts whose lockup is in force, and those whose withdraw authority is one of its auto-staking authorities;
// not an unlocked stake account, even one whose custodian is such an authority. excludeNonCirculatingAccountsList
// empties the list and keeps the amount; getLargestAccounts' nonCirculating filter ranks the same accounts.
func TestNonCirculatingSupply(t *testing.T) {
	t.Parallel()
	rent := sysvar.DefaultRent()
	key := func() core.Pubkey { return stKeypair(t).PublicKey() }
	plain := stake.Authorized{Staker: key(), Withdrawer: key()}
	locked, withdrawer, unlocked, custodied := key(), key(), key(), key()
	accounts := []struct {
		pubkey core.Pubkey
		auth   stake.Authorized
		lockup stake.Lockup
		sol    uint64
	}{
		{locked, plain, stake.Lockup{Epoch: 1_000}, 7},
		{withdrawer, stake.Authorized{Staker: key(), Withdrawer: nonCirculatingWithdrawers[2]}, stake.Lockup{}, 5},
		{unlocked, plain, stake.Lockup{Epoch: 0}, 3},
		{custodied, plain, stake.Lockup{Custodian: nonCirculatingWithdrawers[0]}, 2},
	}
	var genesis []ledger.GenesisAccount
	for _, a := range accounts {
		acct := stake.NewInitializedAccount(a.auth, a.lockup, rent, a.sol*ledger.LamportsPerSOL)
		genesis = append(genesis, ledger.GenesisAccount{Pubkey: a.pubkey, Lamports: acct.Lamports, Owner: acct.Owner,
			RentEpoch: acct.RentEpoch, Data: acct.Data})
	}
	l, err := ledger.Open(ledger.Config{Dir: t.TempDir(), SlotDuration: 10 * time.Millisecond, FinalityDepth: 2,
		StoreInMemory: true, Genesis: ledger.GenesisOptions{Accounts: genesis}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	s := NewServer(Node{Identity: l.Genesis.IdentityPubkey(), GenesisHash: l.Genesis.HashString(), Ledger: l})
	ctx := context.Background()

	r, err := s.GetSupply(ctx, &rpcapi.GetSupplyParams{Config: rpcapi.Some(rpcapi.GetSupplyConfig{Commitment: stPtr(rpcapi.CommitmentProcessed)})})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{locked.String(), withdrawer.String()}
	for _, k := range nonCirculatingAddresses {
		want = append(want, k.String())
	}
	want = slices.Compact(slices.SortedFunc(slices.Values(want), func(a, b string) int {
		return core.MustParsePubkey(a).Compare(core.MustParsePubkey(b))
	}))
	if !slices.Equal(r.Value.NonCirculatingAccounts, want) {
		t.Errorf("nonCirculatingAccounts = %v (%d), want the fixed list and the two locked stake accounts (%d)",
			r.Value.NonCirculatingAccounts, len(r.Value.NonCirculatingAccounts), len(want))
	}
	if r.Value.NonCirculating != 12*ledger.LamportsPerSOL || r.Value.Circulating != r.Value.Total-r.Value.NonCirculating {
		t.Errorf("nonCirculating %d, circulating %d of %d; want 12 SOL non-circulating", r.Value.NonCirculating,
			r.Value.Circulating, r.Value.Total)
	}
	ex, err := s.GetSupply(ctx, &rpcapi.GetSupplyParams{Config: rpcapi.Some(rpcapi.GetSupplyConfig{Commitment: stPtr(rpcapi.CommitmentProcessed),
		ExcludeNonCirculatingAccountsList: stPtr(true)})})
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Value.NonCirculatingAccounts) != 0 || ex.Value.NonCirculating != r.Value.NonCirculating {
		t.Errorf("excluded list: %+v", ex.Value)
	}
	largest, err := s.GetLargestAccounts(ctx, &rpcapi.GetLargestAccountsParams{Config: rpcapi.Some(rpcapi.GetLargestAccountsConfig{
		Commitment: stPtr(rpcapi.CommitmentProcessed), Filter: stPtr("nonCirculating")})})
	if err != nil {
		t.Fatal(err)
	}
	if !stSameJSON(t, largest.Value, `[{"lamports":7000000000,"address":"`+locked.String()+`"},{"lamports":5000000000,"address":"`+withdrawer.String()+`"}]`) {
		t.Errorf("getLargestAccounts nonCirculating = %+v", largest.Value)
	}
}
