package main

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// payers is how many funded accounts sign the transfers: distinct payers (and amounts) make every transaction
// distinct, as real traffic is.
const payers = 256

// figureTransfers is figure 3: signed SOL transfers sent with sendTransaction (base64) over HTTP by cfg.conns
// concurrent clients, timed from the first send until the node has processed every one of them, with preflight
// and without. The transactions are signed before the clock starts; the node runs at its default 400 ms slots.
func figureTransfers(cfg *config) []row {
	const name = "3 transfers via sendTransaction"
	skip := func(err error) []row { return []row{{figure: name, mark: markSkip, note: err.Error()}} }
	dir := filepath.Join(cfg.tmp, "transfers")
	srv, err := startNode(cfg.bin, dir, cfg.inProcess, ledger.DefaultSlotDuration)
	if err != nil {
		return skip(err)
	}
	defer stop(cfg, srv)
	ctx := context.Background()
	cl := rpcclient.New(srv.URL())
	faucet, err := core.ReadKeypairFile(filepath.Join(dir, ledger.FaucetFile))
	if err != nil {
		return skip(err)
	}
	keys := make([]core.Keypair, payers)
	for i := range keys {
		var seed [32]byte
		copy(seed[:], fmt.Sprintf("ledgerd-bench payer %d", i))
		keys[i] = core.KeypairFromSeed(seed)
	}
	if err := fundPayers(ctx, cl, faucet, keys); err != nil {
		return skip(fmt.Errorf("funding the payers: %w", err))
	}
	cfg.logf("%d payers funded and finalized", payers)

	var rows []row
	for _, skipPreflight := range []bool{false, true} {
		figure := fmt.Sprintf("3 transfers, skipPreflight=%v", skipPreflight)
		if skipPreflight {
			figure = "  transfers, skipPreflight=true"
		}
		r, err := sendTransfers(cfg, cl, srv.URL(), srv.Pid(), keys, skipPreflight)
		if err != nil {
			rows = append(rows, row{figure: figure, mark: markSkip, note: err.Error()})
			continue
		}
		rows = append(rows, row{figure: figure, measured: thousands(r.rate) + " tx/s", target: "≥ 5,000/s",
			mark: mark(r.rate >= 5000), note: r.note})
	}
	if rss, err := vmRSS(srv.Pid()); err == nil && !cfg.inProcess {
		rows = append(rows, row{figure: "  VmRSS after the transfers", measured: mb(float64(rss)), note: "informational"})
	}
	if cfg.memprofile != "" {
		if err := writeHeapProfile(cfg.memprofile); err != nil {
			cfg.logf("heap profile: %v", err)
		}
	}
	return rows
}

// fundPayers gives each payer 100 SOL from the faucet and waits until the funding is finalized, since
// preflight reads the finalized bank by default.
func fundPayers(ctx context.Context, cl *rpcclient.Client, faucet core.Keypair, keys []core.Keypair) error {
	bh, err := latestBlockhash(ctx, cl)
	if err != nil {
		return err
	}
	var sigs []string
	for start := 0; start < len(keys); start += transfersPerTx {
		var ixs []core.Instruction
		for _, k := range keys[start:min(len(keys), start+transfersPerTx)] {
			ixs = append(ixs, core.TransferInstruction(faucet.PublicKey(), k.PublicKey(), 100*ledger.LamportsPerSOL))
		}
		tx, err := core.NewTransaction(faucet.PublicKey(), ixs, bh, faucet)
		if err != nil {
			return err
		}
		sig, err := sendTx(ctx, cl, tx)
		if err != nil {
			return err
		}
		sigs = append(sigs, sig)
	}
	return waitFinalized(ctx, cl, sigs)
}

// sendTx sends a signed transaction (base64, with preflight) and returns its signature.
func sendTx(ctx context.Context, cl *rpcclient.Client, tx *core.Transaction) (string, error) {
	return cl.SendTransaction(ctx, &rpcapi.SendTransactionParams{
		Transaction: base64.StdEncoding.EncodeToString(tx.Serialize()),
		Config:      rpcapi.Some(rpcapi.SendTransactionConfig{Encoding: ptr("base64")}),
	})
}

// waitFinalized waits (60 s at most) until every signature is finalized, and fails on the first that failed.
func waitFinalized(ctx context.Context, cl *rpcclient.Client, sigs []string) error {
	return waitStatus(ctx, cl, sigs, rpcapi.TransactionConfirmationStatusFinalized)
}

// waitStatus waits (60 s at most) until every signature has reached the confirmation status want (processed,
// confirmed or finalized), and fails on the first that failed.
func waitStatus(ctx context.Context, cl *rpcclient.Client, texts []string, want rpcapi.TransactionConfirmationStatus) error {
	sigs, err := parseSignatures(texts)
	if err != nil {
		return err
	}
	level := map[rpcapi.TransactionConfirmationStatus]int{rpcapi.TransactionConfirmationStatusProcessed: 1,
		rpcapi.TransactionConfirmationStatusConfirmed: 2, rpcapi.TransactionConfirmationStatusFinalized: 3}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		done := 0
		for start := 0; start < len(sigs); start += 256 {
			st, err := cl.GetSignatureStatuses(ctx, &rpcapi.GetSignatureStatusesParams{Signatures: sigs[start:min(len(sigs), start+256)]})
			if err != nil {
				return err
			}
			for _, s := range st.Value {
				if s != nil && s.Err != nil {
					return fmt.Errorf("setup transaction failed: %v", s.Err)
				}
				if s != nil && s.ConfirmationStatus != nil && level[*s.ConfirmationStatus] >= level[want] {
					done++
				}
			}
		}
		if done == len(sigs) {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("setup transactions not %s after 60 s", want)
}

type transferRun struct {
	rate float64
	note string
}

// sendTransfers signs cfg.txs transfers (payer i%payers to the next payer, amounts distinct per payer), sends
// them, waits until the transaction count shows them all processed, then checks every signature's status.
func sendTransfers(cfg *config, cl *rpcclient.Client, url string, pid int, keys []core.Keypair, skipPreflight bool) (transferRun, error) {
	return sendSigned(cfg, cl, url, pid, "transfers", skipPreflight, func(i int, bh core.Hash) (*core.Transaction, error) {
		return core.NewTransferTx(keys[i%payers], keys[(i+1)%payers].PublicKey(), uint64(1+i/payers), bh), nil
	})
}

// sendSigned signs cfg.txs transactions made by sign (the i-th of them, on a fresh blockhash) before the clock
// starts, sends them with sendTransaction over cfg.conns connections, waits until the transaction count shows
// them all processed, then checks every signature's status. what names the transactions in the note.
func sendSigned(cfg *config, cl *rpcclient.Client, url string, pid int, what string, skipPreflight bool,
	sign func(i int, bh core.Hash) (*core.Transaction, error)) (transferRun, error) {
	ctx := context.Background()
	bh, err := latestBlockhash(ctx, cl)
	if err != nil {
		return transferRun{}, err
	}
	bodies := make([][]byte, cfg.txs)
	sigs := make([]string, cfg.txs)
	var (
		wg       sync.WaitGroup
		next     atomic.Int64
		errOnce  sync.Once
		firstErr error
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < cfg.txs; i = int(next.Add(1) - 1) {
				tx, err := sign(i, bh)
				if err != nil {
					errOnce.Do(func() { firstErr = err })
					return
				}
				sigs[i] = tx.Signature().String()
				bodies[i] = fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"sendTransaction","params":[%q,{"encoding":"base64","skipPreflight":%v}]}`,
					i, base64.StdEncoding.EncodeToString(tx.Serialize()), skipPreflight)
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return transferRun{}, firstErr
	}

	before, err := transactionCount(ctx, cl)
	if err != nil {
		return transferRun{}, err
	}
	var sent atomic.Int64
	cpu0, _ := cpuTime(pid)
	t0 := time.Now()
	res, err := closedLoop(hostPort(url), cfg.conns, time.Time{}, func() ([]byte, bool) {
		i := sent.Add(1) - 1
		if i >= int64(len(bodies)) {
			return nil, false
		}
		return bodies[i], true
	}, isResult)
	if err != nil {
		return transferRun{}, err
	}
	sendTime := time.Since(t0)
	if res.Failed > 0 {
		return transferRun{}, fmt.Errorf("%d of %d sends failed, first: %s", res.Failed, cfg.txs, res.FirstFail)
	}
	// Processed: the producer has executed them into its working bank (visible at commitment processed).
	var after uint64
	for deadline := time.Now().Add(60 * time.Second); ; {
		if after, err = transactionCount(ctx, cl); err != nil {
			return transferRun{}, err
		}
		if after >= before+uint64(cfg.txs) || time.Now().After(deadline) {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	elapsed := time.Since(t0)
	cpu1, _ := cpuTime(pid)
	ok, failed, missing, err := statuses(ctx, cl, sigs)
	if err != nil {
		return transferRun{}, err
	}
	rate := float64(cfg.txs) / elapsed.Seconds()
	cfg.logf("%s, skipPreflight=%v: %d sent in %v, all processed after %v: %s tx/s; statuses ok %d, failed %d, missing %d; count +%d",
		what, skipPreflight, cfg.txs, sendTime.Round(time.Millisecond), elapsed.Round(time.Millisecond), thousands(rate), ok, failed, missing, after-before)
	if ok != cfg.txs {
		return transferRun{}, fmt.Errorf("only %d of %d %s succeeded (%d failed, %d unknown)", ok, cfg.txs, what, failed, missing)
	}
	note := fmt.Sprintf("%s %s, %d conns, %d payers; all succeeded", thousands(float64(cfg.txs)), what, cfg.conns, payers)
	if !cfg.inProcess && cpu1 > cpu0 {
		// The node's CPU per transfer, and what two cores given to the node alone would then sustain: a figure
		// that a machine busy with other work (or with this load generator) does not drag down.
		perTx := (cpu1 - cpu0).Seconds() / float64(cfg.txs)
		note += fmt.Sprintf("; %.0f µs node CPU/tx (2 cores: %s/s)", perTx*1e6, thousands(2/perTx))
	}
	return transferRun{rate: rate, note: note}, nil
}

func latestBlockhash(ctx context.Context, cl *rpcclient.Client) (core.Hash, error) {
	r, err := cl.GetLatestBlockhash(ctx, &rpcapi.GetLatestBlockhashParams{})
	if err != nil {
		return core.Hash{}, err
	}
	return core.ParseHash(r.Value.Blockhash)
}

func transactionCount(ctx context.Context, cl *rpcclient.Client) (uint64, error) {
	return cl.GetTransactionCount(ctx, &rpcapi.GetTransactionCountParams{
		Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: ptr(rpcapi.CommitmentProcessed)})})
}

// parseSignatures parses the signatures sendTransaction answered.
func parseSignatures(texts []string) ([]core.Signature, error) {
	sigs := make([]core.Signature, len(texts))
	for i, s := range texts {
		sig, err := core.ParseSignature(s)
		if err != nil {
			return nil, fmt.Errorf("signature %q: %w", s, err)
		}
		sigs[i] = sig
	}
	return sigs, nil
}

// statuses looks every signature up, 256 at a time.
func statuses(ctx context.Context, cl *rpcclient.Client, texts []string) (ok, failed, missing int, err error) {
	sigs, err := parseSignatures(texts)
	if err != nil {
		return 0, 0, 0, err
	}
	for start := 0; start < len(sigs); start += 256 {
		r, err := cl.GetSignatureStatuses(ctx, &rpcapi.GetSignatureStatusesParams{Signatures: sigs[start:min(len(sigs), start+256)]})
		if err != nil {
			return 0, 0, 0, err
		}
		for _, s := range r.Value {
			switch {
			case s == nil:
				missing++
			case s.Err != nil:
				failed++
			default:
				ok++
			}
		}
	}
	return ok, failed, missing, nil
}

func ptr[T any](v T) *T { return &v }

// writeHeapProfile writes the live heap (after a collection) of this process, where the node runs.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	return errors.Join(pprof.WriteHeapProfile(f), f.Close())
}
