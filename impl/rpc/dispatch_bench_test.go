package rpc

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/ledger"
)

// The generated dispatch over the real handler, for the methods figure 1 and the clients call most: params split,
// decoded into the typed struct, validated (keys decoded once), the handler run and its result encoded.
func benchDispatch(b *testing.B, method, params string) {
	l, err := ledger.Open(ledger.Config{Dir: b.TempDir(), SlotDuration: time.Hour, FinalityDepth: 2})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	g := l.Genesis
	d := &rpcapi.Dispatcher{Handler: NewServer(Node{Identity: g.IdentityPubkey(), GenesisHash: g.HashString(), Ledger: l})}
	raw := json.RawMessage(params)
	ctx := context.Background()
	if _, err := d.Call(ctx, method, raw, false); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r, err := d.Call(ctx, method, raw, false)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := json.Marshal(r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDispatchGetBalance(b *testing.B) {
	benchDispatch(b, rpcapi.MethodGetBalance, `["11111111111111111111111111111111",{"commitment":"processed"}]`)
}

func BenchmarkDispatchGetMultipleAccounts(b *testing.B) {
	benchDispatch(b, rpcapi.MethodGetMultipleAccounts, `[["11111111111111111111111111111111","SysvarC1ock11111111111111111111111111111111","SysvarRent111111111111111111111111111111111"],{"encoding":"base64","commitment":"processed"}]`)
}

func BenchmarkDispatchGetSignatureStatuses(b *testing.B) {
	benchDispatch(b, rpcapi.MethodGetSignatureStatuses, `[["1111111111111111111111111111111111111111111111111111111111111111"],{"searchTransactionHistory":false}]`)
}
