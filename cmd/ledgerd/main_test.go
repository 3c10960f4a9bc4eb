package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
)

// The binary prints the URLs it serves, answers /health, and exits cleanly (status 0) on SIGTERM.
func TestBinaryServesAndStopsOnSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	cmd, httpURL := startBinary(t, bin, "--ledger", t.TempDir())
	resp, err := http.Get(httpURL + "/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" {
		t.Fatalf("/health = %q", body)
	}

	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10 s after SIGTERM")
	}
}

func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ledgerd")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// startBinary runs the binary on free ports and returns it with its HTTP URL once it has printed its URLs.
func startBinary(t *testing.T, bin string, args ...string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--rpc-port", "0", "--ws-port", "0", "--log-level", "warn"}, args...)...)
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	var httpURL string
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if u, ok := strings.CutPrefix(sc.Text(), "JSON RPC URL: "); ok {
			httpURL = u
		}
		if strings.HasPrefix(sc.Text(), "WebSocket PubSub URL: ws://") {
			break
		}
	}
	if httpURL == "" {
		t.Fatal("the binary did not print its URLs")
	}
	go io.Copy(io.Discard, stdout)
	return cmd, httpURL
}

// A node killed with SIGKILL loses nothing that it reported finalized: after a restart on the same ledger the
// airdrops are there, with their balances and statuses.
func TestSIGKILLKeepsFinalized(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	flags := []string{"--ledger", dir, "--slot-ms", "20", "--finality-depth", "3"}
	cmd, url := startBinary(t, bin, flags...)
	ctx := context.Background()
	c := rpcclient.New(url)

	var sigs []core.Signature
	var keys []string
	for i := range 5 {
		k, _ := core.NewKeypair()
		sig, err := c.RequestAirdrop(ctx, &rpcapi.RequestAirdropParams{Pubkey: k.PublicKey(), Lamports: uint64(1_000_000 + i)})
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := core.ParseSignature(sig)
		if err != nil {
			t.Fatal(err)
		}
		sigs, keys = append(sigs, parsed), append(keys, k.PublicKey().String())
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, err := c.GetSignatureStatuses(ctx, &rpcapi.GetSignatureStatusesParams{Signatures: sigs})
		if err != nil {
			t.Fatal(err)
		}
		final := 0
		for _, s := range st.Value {
			if s != nil && s.ConfirmationStatus != nil && *s.ConfirmationStatus == "finalized" {
				final++
			}
		}
		if final == len(sigs) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("airdrops not finalized: %d of %d", final, len(sigs))
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Kill() // SIGKILL: no chance to flush anything
	cmd.Wait()

	_, url = startBinary(t, bin, flags...)
	c = rpcclient.New(url)
	for i, k := range keys {
		fin := rpcapi.CommitmentFinalized
		bal, err := c.GetBalance(ctx, &rpcapi.GetBalanceParams{Pubkey: core.MustParsePubkey(k), Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: &fin})})
		if err != nil {
			t.Fatal(err)
		}
		if bal.Value != uint64(1_000_000+i) {
			t.Fatalf("balance of airdrop %d after SIGKILL = %d", i, bal.Value)
		}
	}
	st, err := c.GetSignatureStatuses(ctx, &rpcapi.GetSignatureStatusesParams{Signatures: sigs,
		Config: rpcapi.Some(rpcapi.GetSignatureStatusesConfig{SearchTransactionHistory: true})})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range st.Value {
		if s == nil {
			t.Fatalf("status of airdrop %d lost after SIGKILL", i)
		}
	}
}
