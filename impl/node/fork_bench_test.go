package node

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// BenchmarkForkRead: getAccountInfo over HTTP on a lazy fork of another in-process node, for an account read for
// the first time (the fork asks the cluster: one getMultipleAccounts round trip, then the account is kept) and
// for one the fork holds; and getMultipleAccounts of 100 accounts the fork has never held (one request to the
// cluster for all of them).
func BenchmarkForkRead(b *testing.B) {
	const pool = 50_000
	keys := make([]core.Pubkey, pool)
	accounts := make([]ledger.GenesisAccount, pool)
	for i := range keys {
		keys[i] = core.Pubkey{0xBE, byte(i >> 16), byte(i >> 8), byte(i)}
		accounts[i] = ledger.GenesisAccount{Pubkey: keys[i], Lamports: 1_000_000, Owner: core.SystemProgramID,
			RentEpoch: ^uint64(0), Data: make([]byte, 165)}
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	cluster, err := Start(Config{LedgerDir: b.TempDir(), RPCPort: -1, WSPort: -1, Logger: quiet,
		Genesis: ledger.GenesisOptions{Accounts: accounts}, BlockProduction: ledger.ProduceOnRequest})
	if err != nil {
		b.Fatal(err)
	}
	defer cluster.Close(context.Background())
	start := func() *Node {
		n, err := Start(Config{LedgerDir: b.TempDir(), RPCPort: -1, WSPort: -1, Logger: quiet,
			SlotDuration: 50 * time.Millisecond, Fork: &ForkOptions{URL: cluster.HTTPURL}})
		if err != nil {
			b.Fatal(err)
		}
		return n
	}
	read := func(b *testing.B, url string, k core.Pubkey) {
		r, e := benchCall(b, url, `{"jsonrpc":"2.0","id":1,"method":"getAccountInfo","params":["`+k.String()+`",{"encoding":"base64"}]}`)
		if e != nil || !strings.Contains(string(r), `"lamports":1000000`) {
			b.Fatalf("%s: %s %+v", k, r, e)
		}
	}

	b.Run("first", func(b *testing.B) {
		fork := start()
		defer fork.Close(context.Background())
		if b.N > pool {
			b.Fatalf("%d reads: the cluster holds %d accounts (use -benchtime %dx or less)", b.N, pool, pool)
		}
		b.ResetTimer()
		for i := range b.N {
			read(b, fork.HTTPURL, keys[i])
		}
	})
	b.Run("held", func(b *testing.B) {
		fork := start()
		defer fork.Close(context.Background())
		read(b, fork.HTTPURL, keys[0])
		b.ResetTimer()
		for range b.N {
			read(b, fork.HTTPURL, keys[0])
		}
	})
	b.Run("multiple-100-first", func(b *testing.B) {
		fork := start()
		defer fork.Close(context.Background())
		if b.N*100 > pool {
			b.Fatalf("%d calls of 100: the cluster holds %d accounts (use -benchtime %dx or less)", b.N, pool, pool/100)
		}
		b.ResetTimer()
		for i := range b.N {
			var sb strings.Builder
			for j := range 100 {
				if j > 0 {
					sb.WriteString(",")
				}
				sb.WriteString(`"` + keys[i*100+j].String() + `"`)
			}
			r, e := benchCall(b, fork.HTTPURL, `{"jsonrpc":"2.0","id":1,"method":"getMultipleAccounts","params":[[`+sb.String()+`]]}`)
			if e != nil || strings.Count(string(r), `"lamports":1000000`) != 100 {
				b.Fatalf("%+v", e)
			}
		}
		b.StopTimer()
		if s, _ := fork.Ledger.ForkStats(); s.Requests != uint64(b.N) {
			b.Fatalf("%d requests for %d calls", s.Requests, b.N)
		}
	})
}

// benchCall posts one request and returns its result or error.
func benchCall(b *testing.B, url, body string) (json.RawMessage, *rpcapi.Error) {
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  *rpcapi.Error   `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		b.Fatal(err)
	}
	return reply.Result, reply.Error
}
