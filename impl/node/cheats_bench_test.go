package node

import (
	"context"
	"encoding/base64"
	"io"
	"log/slog"
	"strconv"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// BenchmarkTransactionModeTPS sends transfers one after the other over HTTP to a node in transaction mode:
// every sendTransaction (with its preflight) answers once its transaction's slot is frozen and persisted, so
// the rate is confirmed transactions per second of one sequential client.
func BenchmarkTransactionModeTPS(b *testing.B) {
	n, err := Start(Config{LedgerDir: b.TempDir(), RPCPort: -1, WSPort: -1, BlockProduction: ledger.ProducePerTransaction,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close(context.Background())
	ctx := context.Background()
	c := rpcclient.New(n.HTTPURL)
	payer, err := core.NewKeypair()
	if err != nil {
		b.Fatal(err)
	}
	var res rpcapi.RpcResponseNull
	if err := c.Call(ctx, rpcapi.MethodSurfnetSetAccount, []any{payer.PublicKey().String(), map[string]any{"lamports": uint64(1_000_000) * ledger.LamportsPerSOL}}, &res); err != nil {
		b.Fatal(err)
	}
	to, _ := core.NewKeypair()
	var hash core.Hash
	start := time.Now()
	for i := 0; b.Loop(); i++ {
		if i%100 == 0 { // a blockhash is valid for 150 slots, one slot per transaction here
			var bh struct {
				Value struct {
					Blockhash string `json:"blockhash"`
				} `json:"value"`
			}
			if err := c.Call(ctx, rpcapi.MethodGetLatestBlockhash, []any{map[string]string{"commitment": "confirmed"}}, &bh); err != nil {
				b.Fatal(err)
			}
			if hash, err = core.ParseHash(bh.Value.Blockhash); err != nil {
				b.Fatal(err)
			}
		}
		tx := core.NewTransferTx(payer, to.PublicKey(), 1_000_000+uint64(i), hash)
		var sig string
		if err := c.Call(ctx, rpcapi.MethodSendTransaction, []any{base64.StdEncoding.EncodeToString(tx.Serialize()),
			map[string]any{"encoding": "base64", "preflightCommitment": "processed"}}, &sig); err != nil {
			b.Fatalf("transfer %d: %v", i, err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "tx/s")
	_, confirmed, _ := n.Ledger.Slots()
	b.Logf("confirmed slot %s after %d transfers", strconv.FormatUint(confirmed, 10), b.N)
}
