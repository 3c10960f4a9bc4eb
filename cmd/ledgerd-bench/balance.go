package main

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// figureGetBalance is figure 1: getBalance of a funded account over HTTP on loopback, against the bare handler
// (a fixed reply of the same shape), both driven by the same closed-loop load in alternating rounds (bare,
// ledgerd, then ledgerd, bare, ...) so that drift of a noisy machine falls on both alike.
func figureGetBalance(cfg *config) []row {
	const name = "1 getBalance ledgerd / bare net/http"
	fail := func(err error) []row {
		return []row{{figure: name, mark: markSkip, note: err.Error()}}
	}
	dir := filepath.Join(cfg.tmp, "balance")
	srv, err := startNode(cfg.bin, dir, cfg.inProcess, ledger.DefaultSlotDuration)
	if err != nil {
		return fail(err)
	}
	defer stop(cfg, srv)
	faucet, err := core.ReadKeypairFile(filepath.Join(dir, ledger.FaucetFile))
	if err != nil {
		return fail(err)
	}
	body := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":[%q]}`, faucet.PublicKey())
	bare, err := startBare()
	if err != nil {
		return fail(err)
	}
	defer stop(cfg, bare)

	// Every ledgerd reply must be the balance (a finalized read of the faucet), not an error.
	checkBalance := func(reply []byte) error {
		if err := isResult(reply); err != nil {
			return err
		}
		if !bytes.Contains(reply, []byte(`"value":`)) {
			return fmt.Errorf("not a balance: %.200s", reply)
		}
		return nil
	}
	checkBare := func(reply []byte) error {
		if !bytes.Equal(reply, bareReply) {
			return fmt.Errorf("unexpected bare reply %q", reply)
		}
		return nil
	}
	measure := func(url string, d time.Duration, check func([]byte) error) (loadResult, error) {
		return closedLoop(hostPort(url), cfg.conns, time.Now().Add(d), func() ([]byte, bool) { return body, true }, check)
	}
	// Warm up both (connections, caches, the heap's size) before anything is counted.
	if _, err := measure(bare.URL(), time.Second, checkBare); err != nil {
		return fail(err)
	}
	if w, err := measure(srv.URL(), time.Second, checkBalance); err != nil {
		return fail(err)
	} else if w.Failed > 0 {
		return fail(fmt.Errorf("getBalance failed: %s", w.FirstFail))
	}

	// Besides the throughput, the server's own CPU time per request: it depends far less on what else the
	// machine runs, so the two ratios together tell a slow server from a busy machine.
	var sumL, sumB loadResult
	var cpuL, cpuB time.Duration
	for round := range cfg.rounds {
		order := []bool{false, true} // false: bare
		if round%2 == 1 {
			order = []bool{true, false}
		}
		for _, isLedgerd := range order {
			var s server = bare
			check, sum, cpu, who := checkBare, &sumB, &cpuB, "bare   "
			if isLedgerd {
				s, check, sum, cpu, who = srv, checkBalance, &sumL, &cpuL, "ledgerd"
			}
			c0, _ := cpuTime(s.Pid())
			r, err := measure(s.URL(), cfg.duration, check)
			if err != nil {
				return fail(err)
			}
			c1, _ := cpuTime(s.Pid())
			if r.Failed > 0 {
				return fail(fmt.Errorf("%s: %d failed requests, first: %s", strings.TrimSpace(who), r.Failed, r.FirstFail))
			}
			cfg.logf("round %d %s %9s req/s (%d in %v), server CPU %v", round+1, who, thousands(r.Rate()), r.OK,
				r.Elapsed.Round(time.Millisecond), c1-c0)
			sum.OK += r.OK
			sum.Elapsed += r.Elapsed
			*cpu += c1 - c0
		}
	}
	ratio := sumL.Rate() / sumB.Rate()
	perReqL := cpuL.Seconds() / float64(sumL.OK)
	perReqB := cpuB.Seconds() / float64(sumB.OK)
	conns := fmt.Sprintf("%d conns, %d × %v each", cfg.conns, cfg.rounds, cfg.duration)
	rows := []row{
		{figure: "1 getBalance over HTTP, ledgerd", measured: thousands(sumL.Rate()) + " req/s", note: conns + cpuNote(cfg, perReqL)},
		{figure: "  fixed reply, bare net/http", measured: thousands(sumB.Rate()) + " req/s", note: "same load, alternating rounds" + cpuNote(cfg, perReqB)},
		{figure: "  ratio ledgerd / bare", measured: fmt.Sprintf("%.2f", ratio), target: "≥ 0.50", mark: mark(ratio >= 0.5)},
	}
	if !cfg.inProcess && perReqL > 0 {
		rows = append(rows, row{figure: "  ratio of server CPU per request, bare / ledgerd", measured: fmt.Sprintf("%.2f", perReqB/perReqL),
			note: "informational: less sensitive to other load"})
	}
	return rows
}

// cpuNote reports a server's CPU time per request, unless the server shares this process.
func cpuNote(cfg *config, perReq float64) string {
	if cfg.inProcess || perReq <= 0 {
		return ""
	}
	return fmt.Sprintf("; %.0f µs server CPU/req", perReq*1e6)
}

func hostPort(url string) string {
	return strings.TrimPrefix(strings.TrimPrefix(url, "http://"), "https://")
}

// stop stops a server, reporting (not failing on) an unclean exit.
func stop(cfg *config, s server) {
	if err := s.Stop(); err != nil {
		cfg.logf("stopping: %v", err)
	}
}
