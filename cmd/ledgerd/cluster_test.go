package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
)

// The snapshot and health flags reach the node: a known validator far ahead makes /health "behind", snapshots
// appear at the given intervals, and a second binary starts from them.
func TestSnapshotAndHealthFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	known := core.KeypairFromSeed([32]byte{5}).PublicKey().String()
	peer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body [512]byte
		n, _ := r.Body.Read(body[:])
		reply := `{"jsonrpc":"2.0","result":1000000,"id":1}`
		if s := string(body[:n]); strings.Contains(s, `"getIdentity"`) {
			reply = fmt.Sprintf(`{"jsonrpc":"2.0","result":{"identity":%q},"id":1}`, known)
		} else if !strings.Contains(s, `"getSlot"`) {
			reply = `{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":1}`
		}
		io.WriteString(w, reply)
	}))
	defer peer.Close()

	bin := buildBinary(t)
	ledgerDir := filepath.Join(t.TempDir(), "ledger")
	cmd, httpURL := startBinary(t, bin, "--ledger", ledgerDir, "--slot-ms", "5", "--finality-depth", "1",
		"--snapshot-interval-slots", "10", "--incremental-snapshot-interval-slots", "5",
		"--known-validator", known, "--peer", peer.URL, "--health-check-slot-distance", "100")
	ctx := context.Background()
	c := rpcclient.New(httpURL)
	waitUntil(t, "/health behind", func() bool { return healthBody(httpURL) == "behind" })
	var snap rpcapi.SnapshotSlotInfo
	waitUntil(t, "full and incremental snapshots", func() bool {
		var err error
		snap, err = c.GetHighestSnapshotSlot(ctx)
		return err == nil && snap.Incremental != nil
	})
	if snap.Full%10 != 0 || *snap.Incremental%5 != 0 {
		t.Errorf("getHighestSnapshotSlot = %d, %d", snap.Full, *snap.Incremental)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()

	_, httpURL = startBinary(t, bin, "--ledger", filepath.Join(t.TempDir(), "restored"),
		"--snapshot", filepath.Join(ledgerDir, "snapshots"), "--snapshot-interval-slots", "0")
	c = rpcclient.New(httpURL)
	processed := rpcapi.Commitment(rpcapi.CommitmentProcessed)
	slot, err := c.GetSlot(ctx, &rpcapi.GetSlotParams{Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: &processed})})
	if err != nil || slot < snap.Full {
		t.Errorf("restored node at slot %d, %v; the snapshot was at %d", slot, err, snap.Full)
	}
	if h := healthBody(httpURL); h != "ok" {
		t.Errorf("restored node without known validators: /health %q", h)
	}
}

func healthBody(httpURL string) string {
	resp, err := http.Get(httpURL + "/health")
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Two nodes on loopback: B knows A as its known validator. B is ok while both run; B paused for a while (its
// slots stop) comes back behind A; A paused (it stops answering) leaves B unable to tell: unknown. /health and
// getHealth agree at each step.
func TestTwoNodesHealth(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	a, aURL := startBinary(t, bin, "--ledger", t.TempDir(), "--slot-ms", "20", "--finality-depth", "2")
	aID, err := rpcclient.New(aURL).GetIdentity(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b, bURL := startBinary(t, bin, "--ledger", t.TempDir(), "--slot-ms", "20", "--finality-depth", "2",
		"--known-validator", aID.Identity, "--peer", aURL, "--health-check-slot-distance", "50",
		"--health-check-poll-interval", "100ms", "--health-check-stale-after", "1s")
	c := rpcclient.New(bURL)
	getHealth := func() string {
		_, err := c.GetHealth(context.Background())
		if err == nil {
			return "ok"
		}
		e, _ := rpcapi.AsError(err)
		if e == nil || e.Code != -32005 {
			return "error: " + err.Error()
		}
		return e.Message
	}

	waitUntil(t, "B ok", func() bool { return healthBody(bURL) == "ok" && getHealth() == "ok" })

	// B stops for 3 s (150 slots of A); resumed, it trails A by more than the distance.
	b.Process.Signal(syscall.SIGSTOP)
	time.Sleep(3 * time.Second)
	b.Process.Signal(syscall.SIGCONT)
	waitUntil(t, "B behind", func() bool {
		return healthBody(bURL) == "behind" && strings.HasPrefix(getHealth(), "Node is behind by ")
	})

	// A stops answering: after its last answer goes stale, B cannot tell.
	a.Process.Signal(syscall.SIGSTOP)
	defer a.Process.Signal(syscall.SIGCONT)
	waitUntil(t, "B unknown", func() bool { return healthBody(bURL) == "unknown" && getHealth() == "Node is unhealthy" })
}
