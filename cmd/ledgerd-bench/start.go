package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// figureStart is figure 2: the time from starting ledgerd to the first 200 "ok" on GET /health, on a new
// ledger and on one holding 100,000 accounts. The binary is what users start, so it is the figure; a start in
// this process (node.Start, no exec, a warm runtime) is reported beside it to show what the exec costs.
func figureStart(cfg *config) []row {
	var rows []row
	newDir := func(tag string, i int) string { return filepath.Join(cfg.tmp, fmt.Sprintf("start-%s-%d", tag, i)) }

	// A new ledger each time: genesis, keypairs and the store are created by the start being measured.
	bin, err := startTimes(cfg, func(i int) (server, time.Duration, error) { return startLedgerd(cfg.bin, newDir("new", i)) })
	if err != nil {
		return []row{{figure: "2 start to /health, new ledger", mark: markSkip, note: err.Error()}}
	}
	inp, err := startTimes(cfg, func(i int) (server, time.Duration, error) {
		return startInProc(newDir("new-inproc", i), ledger.DefaultSlotDuration)
	})
	if err != nil {
		return []row{{figure: "2 start to /health, new ledger", mark: markSkip, note: err.Error()}}
	}
	rows = append(rows,
		row{figure: "2 start to /health, new ledger (binary)", measured: ms(median(bin)), target: "< 200 ms",
			mark: mark(median(bin) < 200*time.Millisecond), note: spread(bin)},
		row{figure: "  same, in process (node.Start)", measured: ms(median(inp)), note: spread(inp)})

	// The large ledger is built once, through the ledger's own transaction pipeline.
	name := fmt.Sprintf("2 start to /health, %s accounts (binary)", thousands(float64(cfg.accounts)))
	dir := filepath.Join(cfg.tmp, "start-large")
	t0 := time.Now()
	built, err := buildLargeLedger(dir, cfg.accounts)
	if err != nil {
		return append(rows, row{figure: name, mark: markSkip, note: "building the ledger: " + err.Error()})
	}
	size, _ := dirSize(dir)
	cfg.logf("built %s accounts in %v (%d transactions, tip slot %d, %s on disk)", thousands(float64(cfg.accounts)),
		time.Since(t0).Round(100*time.Millisecond), built.txs, built.tip, mb(float64(size.total)))

	var last server
	large, err := startTimes(cfg, func(i int) (server, time.Duration, error) {
		s, d, err := startLedgerd(cfg.bin, dir)
		if err == nil && i == cfg.starts-1 {
			last = s // kept running for the check below
			return nopStop{s}, d, nil
		}
		return s, d, err
	})
	if err != nil {
		return append(rows, row{figure: name, mark: markSkip, note: err.Error()})
	}
	check, served := checkLargeLedger(last, built)
	stop(cfg, last)
	largeIn, err := startTimes(cfg, func(int) (server, time.Duration, error) { return startInProc(dir, ledger.DefaultSlotDuration) })
	if err != nil {
		return append(rows, row{figure: name, mark: markSkip, note: err.Error()})
	}
	return append(rows,
		row{figure: name, measured: ms(median(large)), target: "< 500 ms", mark: mark(served && median(large) < 500*time.Millisecond),
			note: spread(large) + "; " + check},
		row{figure: "  same, in process (node.Start)", measured: ms(median(largeIn)), note: spread(largeIn)})
}

// startTimes starts and stops a node cfg.starts times and returns how long each took to become healthy.
func startTimes(cfg *config, start func(i int) (server, time.Duration, error)) ([]time.Duration, error) {
	var out []time.Duration
	for i := range cfg.starts {
		s, d, err := start(i)
		if err != nil {
			return nil, err
		}
		if err := s.Stop(); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	cfg.logf("starts: %v", out)
	return out, nil
}

// nopStop keeps a server running past startTimes.
type nopStop struct{ server }

func (nopStop) Stop() error { return nil }

func spread(ds []time.Duration) string {
	lo, hi := ds[0], ds[0]
	for _, d := range ds {
		lo, hi = min(lo, d), max(hi, d)
	}
	return fmt.Sprintf("median of %d, range %s to %s", len(ds), ms(lo), ms(hi))
}

// largeLedger describes a built ledger: how to find its accounts again.
type largeLedger struct {
	accounts int
	txs      int
	tip      uint64
}

// largeAccount is the i-th account of a large ledger and the balance it was given. The addresses are hashes
// (a transfer may go to any address) and every balance is distinct, so a check reads back the right account.
func largeAccount(i int) (core.Pubkey, uint64) {
	h := sha256.Sum256(binary.LittleEndian.AppendUint64([]byte("ledgerd-bench account "), uint64(i)))
	return core.Pubkey(h), 1_000_000 + uint64(i)
}

// transfersPerTx is how many transfers to new accounts fit in one legacy transaction of at most 1,232 bytes
// (each adds a 32-byte key and a 17-byte instruction to a 166-byte frame).
const transfersPerTx = 20

// buildLargeLedger creates a ledger in dir whose faucet funds n new accounts, with transactions executed by the
// ledger's producer like any sent transaction (signed, fees paid, blocks and history written), at 5 ms slots.
// It then lets 600 more slots pass, so the ledger holds a full window of recent blocks (what a restart
// replays) as a ledger that ran for a while does, and closes it.
func buildLargeLedger(dir string, n int) (largeLedger, error) {
	l, err := ledger.Open(ledger.Config{Dir: dir, SlotDuration: 5 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return largeLedger{}, err
	}
	faucet := l.Genesis.Faucet
	ntx := (n + transfersPerTx - 1) / transfersPerTx
	var (
		next     atomic.Int64
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	for range 8 { // enough submitters to fill the producer's batches
		wg.Go(func() {
			for {
				t := int(next.Add(1) - 1)
				if t >= ntx {
					return
				}
				ixs := make([]core.Instruction, 0, transfersPerTx)
				for i := t * transfersPerTx; i < min(n, (t+1)*transfersPerTx); i++ {
					to, lamports := largeAccount(i)
					ixs = append(ixs, core.TransferInstruction(faucet.PublicKey(), to, lamports))
				}
				// The blockhash is taken just before the submission: at 5 ms slots one lives 750 ms.
				tx, err := core.NewTransaction(faucet.PublicKey(), ixs, l.Bank(ledger.Processed).LastBlockhash(), faucet)
				if err == nil {
					var ex *ledger.Executed
					if ex, err = l.Execute(context.Background(), tx); err == nil && ex.Result.Err != nil {
						err = fmt.Errorf("transaction %d: %v", t, ex.Result.Err)
					}
				}
				if err != nil {
					errOnce.Do(func() { firstErr = err })
					next.Store(int64(ntx))
					return
				}
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return largeLedger{}, errors.Join(firstErr, l.Close())
	}
	p, _, _ := l.Slots()
	for q := p; q < p+600; q, _, _ = l.Slots() {
		time.Sleep(20 * time.Millisecond)
	}
	tip, _, _ := l.Slots()
	return largeLedger{accounts: n, txs: ntx, tip: tip}, l.Close()
}

// checkLargeLedger reads a few of the built accounts back from the started node with getBalance: the start
// figure counts only if the node serves the accounts it was started on.
func checkLargeLedger(s server, built largeLedger) (string, bool) {
	rng := rand.New(rand.NewPCG(1, 2))
	picks := []int{0, built.accounts - 1, rng.IntN(built.accounts), rng.IntN(built.accounts)}
	cl := rpcclient.New(s.URL())
	for _, i := range picks {
		pk, want := largeAccount(i)
		got, err := cl.GetBalance(context.Background(), &rpcapi.GetBalanceParams{Pubkey: pk})
		if err != nil {
			return "getBalance check failed: " + err.Error(), false
		}
		if got.Value != want {
			return fmt.Sprintf("getBalance check failed: account %d holds %d, want %d", i, got.Value, want), false
		}
	}
	return fmt.Sprintf("%d accounts read back with getBalance", len(picks)), true
}
