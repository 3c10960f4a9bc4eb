package rpc

import (
	"context"
	"encoding/binary"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// BenchmarkTokenAccountsByOwner measures figure 6's target: a ledger of 1,000,000 token accounts
// (LEDGERD_BENCH_TOKEN_ACCOUNTS overrides the count), 10 per owner; getTokenAccountsByOwner and getProgramAccounts
// with an owner memcmp must answer one owner in under 20 ms, which only an index makes possible.
func BenchmarkTokenAccountsByOwner(b *testing.B) {
	n := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("LEDGERD_BENCH_TOKEN_ACCOUNTS")); err == nil && v > 0 {
		n = v
	}
	const perOwner = 10
	owners := max(n/perOwner, 1)
	owner := func(i int) core.Pubkey {
		var k core.Pubkey
		k[0] = 0xee
		binary.LittleEndian.PutUint64(k[1:], uint64(i))
		return k
	}
	mint := tkKey(0x10)
	accounts := make([]ledger.GenesisAccount, 0, n+1)
	accounts = append(accounts, tkGenesis(mint, core.TokenProgramID, tkMint(nil, uint64(n), 6)))
	for i := range n {
		var k core.Pubkey
		k[0] = 0xaa
		binary.LittleEndian.PutUint64(k[1:], uint64(i))
		accounts = append(accounts, tkGenesis(k, core.TokenProgramID, tkAccount{mint: mint, owner: owner(i % owners), amount: uint64(i), state: 1}.data()))
	}
	start := time.Now()
	l, err := ledger.Open(ledger.Config{Dir: b.TempDir(), SlotDuration: 10 * time.Millisecond, FinalityDepth: 2,
		Genesis: ledger.GenesisOptions{Accounts: accounts}})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	b.Logf("genesis of %d token accounts: %v", n, time.Since(start))
	accounts = nil
	s := NewServer(Node{Ledger: l})
	ctx := context.Background()
	who := owner(owners / 2)
	enc := rpcapi.AccountEncodingBase64

	b.Run(rpcapi.MethodGetTokenAccountsByOwner, func(b *testing.B) {
		for b.Loop() {
			r, err := s.GetTokenAccountsByOwner(ctx, &rpcapi.GetTokenAccountsByOwnerParams{Owner: who,
				Filter: rpcapi.TokenAccountsFilter{ProgramId: &rpcapi.TokenAccountsFilterProgramId{ProgramId: core.TokenProgramID.String()}},
				Config: rpcapi.Some(rpcapi.AccountInfoConfig{Encoding: &enc})})
			if err != nil || len(r.Value) != perOwner {
				b.Fatalf("%d accounts, %v", len(r.Value), err)
			}
		}
	})
	b.Run("getProgramAccounts owner memcmp", func(b *testing.B) {
		filters := []rpcapi.ProgramAccountsFilter{
			{DataSize: &rpcapi.ProgramAccountsFilterDataSize{DataSize: 165}},
			{Memcmp: &rpcapi.ProgramAccountsFilterMemcmp{Memcmp: rpcapi.MemcmpFilter{Offset: 32, Bytes: base58.Encode(who[:])}}},
		}
		for b.Loop() {
			r, err := s.GetProgramAccounts(ctx, &rpcapi.GetProgramAccountsParams{ProgramId: core.TokenProgramID,
				Config: rpcapi.Some(rpcapi.ProgramAccountsConfig{Encoding: &enc, Filters: &filters})})
			if err != nil || len(*r.Accounts) != perOwner {
				b.Fatalf("%v accounts, %v", r.Accounts, err)
			}
		}
	})
}
