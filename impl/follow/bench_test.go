package follow_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/node"
)

// BenchmarkFollowerLag measures how far a follower trails its leader under a transfer load: a leader at the
// default 400 ms slots takes b.N signed SOL transfers (skipPreflight, base64) from 32 concurrent HTTP clients, as
// the transfer figure of cmd/ledgerd-bench sends them, while a follower in the same process replays its blocks.
// The leader's confirmed slot minus the follower's is sampled every 5 ms during the load; the benchmark reports
// its largest and mean value (slots), the share of samples more than 2 slots behind, and the rate of the load.
//
//	go test -run '^$' -bench FollowerLag -benchtime 20000x ./impl/follow
func BenchmarkFollowerLag(b *testing.B) {
	leaderDir := b.TempDir()
	leader, err := node.Start(node.Config{LedgerDir: leaderDir, RPCPort: -1, WSPort: -1, Logger: quiet, NoSnapshots: true})
	if err != nil {
		b.Fatal(err)
	}
	defer leader.Close(context.Background())
	f, err := node.Start(node.Config{LedgerDir: b.TempDir(), RPCPort: -1, WSPort: -1, Logger: quiet, NoSnapshots: true,
		Follow: &node.FollowOptions{URL: leader.HTTPURL}})
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close(context.Background())
	ctx := context.Background()
	c := rpcclient.New(leader.HTTPURL)

	const conns, payers = 32, 256
	keys := make([]core.Keypair, payers)
	for i := range keys {
		var seed [32]byte
		copy(seed[:], fmt.Sprintf("follower bench payer %d", i))
		keys[i] = core.KeypairFromSeed(seed)
	}
	// Fund the payers from the faucet in a few transactions and wait until the follower has them.
	faucet := leader.Genesis.Faucet
	var fundSigs []string
	for i := 0; i < payers; i += 16 {
		var ixs []core.Instruction
		for _, k := range keys[i:min(i+16, payers)] {
			ixs = append(ixs, core.TransferInstruction(faucet.PublicKey(), k.PublicKey(), 1_000*ledger.LamportsPerSOL))
		}
		tx, err := core.NewTransaction(faucet.PublicKey(), ixs, leader.Ledger.Bank(ledger.Confirmed).LastBlockhash(), faucet)
		if err != nil {
			b.Fatal(err)
		}
		var sig string
		if err := c.Call(ctx, rpcapi.MethodSendTransaction, []any{base64.StdEncoding.EncodeToString(tx.Serialize()),
			map[string]any{"encoding": "base64", "skipPreflight": true}}, &sig); err != nil {
			b.Fatal(err)
		}
		fundSigs = append(fundSigs, sig)
	}
	_, fundedAt, _ := leader.Ledger.Slots()
	fundedAt++ // the working slot the funding landed in
	for {
		if _, fc, _ := f.Ledger.Slots(); fc > fundedAt {
			break
		}
		if err := f.Follower.Fatal(); err != nil {
			b.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}

	hash := leader.Ledger.Bank(ledger.Confirmed).LastBlockhash()
	wire := make([]string, b.N)
	for i := range wire {
		p := keys[i%payers]
		tx := core.NewTransferTx(p, keys[(i+1)%payers].PublicKey(), 1_000+uint64(i), hash)
		wire[i] = base64.StdEncoding.EncodeToString(tx.Serialize())
	}

	var lags []uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				_, lc, _ := leader.Ledger.Slots()
				_, fc, _ := f.Ledger.Slots()
				lags = append(lags, lc-min(lc, fc))
			}
		}
	}()

	b.ResetTimer()
	start := time.Now()
	var next atomic.Int64
	var failed atomic.Int64
	var wg sync.WaitGroup
	for range conns {
		wg.Go(func() {
			cl := rpcclient.New(leader.HTTPURL)
			for {
				i := next.Add(1) - 1
				if i >= int64(len(wire)) {
					return
				}
				var sig string
				if err := cl.Call(ctx, rpcapi.MethodSendTransaction, []any{wire[i], map[string]any{"encoding": "base64", "skipPreflight": true}}, &sig); err != nil {
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	// The last transfers' slot: wait until the follower has it too.
	_, lastSlot, _ := leader.Ledger.Slots()
	lastSlot++
	for {
		if _, fc, _ := f.Ledger.Slots(); fc >= lastSlot {
			break
		}
		if err := f.Follower.Fatal(); err != nil {
			b.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	b.StopTimer()
	close(stop)
	<-sampled
	if n := failed.Load(); n > 0 {
		b.Fatalf("%d transfers refused", n)
	}
	if len(lags) == 0 {
		b.Fatal("no lag sampled")
	}
	var sum, over uint64
	for _, l := range lags {
		sum += l
		if l > 2 {
			over++
		}
	}
	b.ReportMetric(float64(slices.Max(lags)), "max-lag-slots")
	b.ReportMetric(float64(sum)/float64(len(lags)), "mean-lag-slots")
	b.ReportMetric(100*float64(over)/float64(len(lags)), "%-samples>2")
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "tx/s")
	b.ReportMetric(0, "ns/op")
}
