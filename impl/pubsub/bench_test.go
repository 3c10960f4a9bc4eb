package pubsub_test

// The target: 10,000 account subscriptions over 100 connections; a transfer that changes a watched
// account is notified within 50 ms (p99) of its slot reaching the subscription's commitment, and the memory of
// those subscriptions stays under 50 MB.
//
//	go test -run '^$' -bench AccountNotificationLatency -benchtime 4000x ./impl/pubsub
//	go test -run '^$' -bench HubMemory -benchtime 1x ./impl/pubsub

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/node"
	"ledgerd/impl/pubsub"
)

const (
	benchConns   = 100
	benchPerConn = 100
)

// BenchmarkAccountNotificationLatency runs a node with 10,000 confirmed account subscriptions (100 connections,
// 100 accounts each) and sends b.N transfers to watched accounts. It reports the latency from the slot's
// confirmation (the ledger event) to the client's receipt of the notification, and the heap the connections
// and subscriptions add to the process: the node's side plus 100 minimal in-process clients (the generated
// client is not used here: it buffers 1024 notifications per subscription, which would dwarf the node).
//
// "paced" sends one transfer per millisecond (a steady 400 per 400 ms slot); "burst" sends them back to back,
// so that thousands of notifications fall due at the same confirmation.
func BenchmarkAccountNotificationLatency(b *testing.B) {
	b.Run("paced", func(b *testing.B) { benchmarkLatency(b, time.Millisecond) })
	b.Run("burst", func(b *testing.B) { benchmarkLatency(b, 0) })
}

func benchmarkLatency(b *testing.B, pace time.Duration) {
	n, err := node.Start(node.Config{LedgerDir: b.TempDir(), RPCPort: -1, WSPort: -1,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close(context.Background())

	var confirmedAt sync.Map // slot -> time.Time
	n.Ledger.OnEvent(func(ev ledger.Event) {
		if ev.Kind == ledger.SlotConfirmed {
			confirmedAt.Store(ev.Slot, time.Now())
		}
	})

	ctx := context.Background()
	before := heap()
	var (
		mu        sync.Mutex
		latencies []time.Duration
		received  = make(chan struct{}, 1<<20)
	)
	accounts := make([]core.Pubkey, 0, benchConns*benchPerConn)
	for range benchConns {
		ws, _, err := websocket.Dial(ctx, n.WSURL, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer ws.CloseNow()
		for i := range benchPerConn {
			kp, _ := core.NewKeypair()
			req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"accountSubscribe","params":["%s",{"encoding":"base64","commitment":"confirmed"}]}`,
				i, kp.PublicKey())
			if err := ws.Write(ctx, websocket.MessageText, []byte(req)); err != nil {
				b.Fatal(err)
			}
			if _, reply, err := ws.Read(ctx); err != nil || !bytes.Contains(reply, []byte(`"result"`)) {
				b.Fatalf("subscribe: %s %v", reply, err)
			}
			accounts = append(accounts, kp.PublicKey())
		}
		go func() {
			var note struct {
				Params struct {
					Result struct {
						Context struct{ Slot uint64 }
					}
				}
			}
			for {
				_, msg, err := ws.Read(ctx)
				if err != nil {
					return
				}
				at := time.Now()
				if json.Unmarshal(msg, &note) != nil {
					continue
				}
				if t0, ok := confirmedAt.Load(note.Params.Result.Context.Slot); ok {
					mu.Lock()
					latencies = append(latencies, at.Sub(t0.(time.Time)))
					mu.Unlock()
				}
				received <- struct{}{}
			}
		}()
	}
	subscribed := heap()
	if s := n.PubSub.Stats(); s.Subscriptions != benchConns*benchPerConn {
		b.Fatalf("stats %+v", s)
	}

	// Signed beforehand (the blockhash stays valid for a minute), so that signing does not compete with the
	// node for the CPU.
	txs := make([]*core.Transaction, b.N)
	blockhash := n.Ledger.Bank(ledger.Processed).LastBlockhash()
	for i := range txs {
		txs[i] = core.NewTransferTx(n.Genesis.Faucet, accounts[i%len(accounts)], 1_000_000+uint64(i), blockhash)
	}
	b.ResetTimer()
	var tick <-chan time.Time
	if pace > 0 {
		t := time.NewTicker(pace)
		defer t.Stop()
		tick = t.C
	}
	// A burst goes in rounds of at most burstRound transfers, each waited for: a client whose send queue
	// overflows is disconnected by design, which a benchmark of any length would otherwise provoke.
	round := len(txs)
	if pace == 0 {
		round = burstRound
	}
	for start := 0; start < len(txs); start += round {
		end := min(start+round, len(txs))
		for i := start; i < end; i++ {
			if ex, err := n.Ledger.Execute(ctx, txs[i]); err != nil || ex.Result.Err != nil {
				b.Fatalf("transfer %d: %v %v", i, err, ex)
			}
			if tick != nil {
				<-tick
			}
		}
		timeout := time.After(30 * time.Second)
		for range end - start {
			select {
			case <-received:
			case <-timeout:
				b.Fatalf("only some of %d notifications arrived", end-start)
			}
		}
	}
	b.StopTimer()

	mu.Lock()
	defer mu.Unlock()
	slices.Sort(latencies)
	pct := func(p float64) float64 {
		return float64(latencies[min(len(latencies)-1, int(float64(len(latencies))*p))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(latencies[len(latencies)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(subscribed-before)/(1<<20), "subs-heap-MB")
}

// burstRound is how many back-to-back transfers a burst sends before waiting for their notifications.
const burstRound = 1000

// BenchmarkHubMemory measures the hub's own heap for 10,000 account subscriptions over 100 connections (no
// transport, no clients).
func BenchmarkHubMemory(b *testing.B) {
	l, err := ledger.Open(ledger.Config{Dir: b.TempDir(), StoreInMemory: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	var perSub float64
	for range b.N {
		before := heap()
		h := pubsub.New(l, pubsub.Config{})
		commitment := rpcapi.CommitmentConfirmed
		for c := range benchConns {
			conn := &nopConn{id: c}
			for range benchPerConn {
				kp, _ := core.NewKeypair()
				if _, err := h.Account(conn, &rpcapi.AccountSubscribeParams{Pubkey: kp.PublicKey(),
					Config: rpcapi.Some(rpcapi.AccountInfoConfig{Commitment: &commitment})}); err != nil {
					b.Fatal(err)
				}
			}
		}
		after := heap()
		perSub = float64(after-before) / (benchConns * benchPerConn)
		runtime.KeepAlive(h)
		h.Close()
	}
	b.ReportMetric(perSub, "B/sub")
	b.ReportMetric(perSub*benchConns*benchPerConn/(1<<20), "hub-MB")
}

type nopConn struct{ id int }

func (*nopConn) Notify(string, any) error { return nil }
func (*nopConn) OnClose(func())           {}

func heap() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
