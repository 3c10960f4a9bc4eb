package node

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/health"
	"ledgerd/impl/snapshot"
)

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

// post sends one raw JSON-RPC request and returns the raw reply, without its final newline.
func post(t *testing.T, url, body string) string {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strings.TrimSuffix(string(b), "\n")
}

func getHealthBody(t *testing.T, n *Node) string {
	t.Helper()
	resp, err := http.Get(n.HTTPURL + "/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Errorf("/health status %d", resp.StatusCode)
	}
	return string(b)
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The node takes full and incremental snapshots as it roots slots and reports them; a new node started from
// them (the directory of snapshots) holds a balance created before the snapshot, with the same identity.
func TestSnapshotsAndStartFromSnapshot(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "ledger")
	n, err := Start(Config{LedgerDir: dir, RPCPort: -1, WSPort: -1, Logger: quietLog,
		SlotDuration: 5 * time.Millisecond, FinalityDepth: 2,
		Snapshots: snapshot.Config{FullInterval: 20, IncrementalInterval: 5}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { n.Close(ctx) }()
	c := rpcclient.New(n.HTTPURL)
	id1, _ := identityAndGenesis(t, n)

	k, err := core.NewKeypair()
	if err != nil {
		t.Fatal(err)
	}
	const lamports = 2_000_000_000
	if _, err := n.Ledger.Airdrop(ctx, k.PublicKey(), lamports); err != nil {
		t.Fatal(err)
	}
	processed, _, _ := n.Ledger.Slots()

	var got rpcapi.SnapshotSlotInfo
	eventually(t, "a full snapshot after the airdrop and an incremental one on it", func() bool {
		got, err = c.GetHighestSnapshotSlot(ctx)
		return err == nil && got.Full > processed && got.Incremental != nil
	})
	if got.Full%20 != 0 || *got.Incremental%5 != 0 || *got.Incremental <= got.Full {
		t.Errorf("getHighestSnapshotSlot = {full %d, incremental %d}", got.Full, *got.Incremental)
	}
	if full, err := c.GetSnapshotSlot(ctx); err != nil || full%20 != 0 || full < got.Full {
		t.Errorf("getSnapshotSlot = %d, %v (highest full was %d)", full, err, got.Full)
	}
	if err := n.Close(ctx); err != nil {
		t.Fatal(err)
	}

	// An existing ledger is not overwritten without Reset.
	if _, err := Start(Config{LedgerDir: dir, FromSnapshot: filepath.Join(dir, snapshot.DirName), RPCPort: -1, WSPort: -1, Logger: quietLog}); err == nil {
		t.Fatal("started from a snapshot over an existing ledger without Reset")
	}
	n, err = Start(Config{LedgerDir: filepath.Join(t.TempDir(), "restored"), FromSnapshot: filepath.Join(dir, snapshot.DirName),
		RPCPort: -1, WSPort: -1, Logger: quietLog, SlotDuration: 5 * time.Millisecond, FinalityDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	c = rpcclient.New(n.HTTPURL)
	id2, _ := identityAndGenesis(t, n)
	if id2 != id1 {
		t.Errorf("identity after restore %s, want %s", id2, id1)
	}
	bal, err := c.GetBalance(ctx, &rpcapi.GetBalanceParams{Pubkey: k.PublicKey()})
	if err != nil || bal.Value != lamports {
		t.Errorf("getBalance after restore = %+v, %v; want %d", bal, err, lamports)
	}
}

func TestNoSnapshot(t *testing.T) {
	t.Parallel()
	n, err := Start(Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, Logger: quietLog,
		SlotDuration: 5 * time.Millisecond, FinalityDepth: 2, NoSnapshots: true})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(context.Background())
	for _, m := range []string{rpcapi.MethodGetHighestSnapshotSlot, rpcapi.MethodGetSnapshotSlot} {
		want := `{"jsonrpc":"2.0","error":{"code":-32008,"message":"No snapshot"},"id":1}`
		if got := post(t, n.HTTPURL, `{"jsonrpc":"2.0","id":1,"method":"`+m+`"}`); got != want {
			t.Errorf("%s = %s, want %s", m, got, want)
		}
	}
}

// peerNode is a JSON-RPC endpoint standing in for another node: it answers getIdentity, getSlot, getVersion and
// getGenesisHash, or HTTP 503 while down.
type peerNode struct {
	*httptest.Server
	identity string

	mu   sync.Mutex
	slot uint64
	down bool
}

func newPeerNode(t *testing.T, identity string) *peerNode {
	p := &peerNode{identity: identity, down: true}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		p.mu.Lock()
		slot, down := p.slot, p.down
		p.mu.Unlock()
		if down {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		result := map[string]string{
			rpcapi.MethodGetIdentity:    fmt.Sprintf(`{"identity":%q}`, p.identity),
			rpcapi.MethodGetSlot:        fmt.Sprint(slot),
			rpcapi.MethodGetVersion:     `{"solana-core":"2.2.1","feature-set":42}`,
			rpcapi.MethodGetGenesisHash: `"11111111111111111111111111111111"`,
		}[req.Method]
		fmt.Fprintf(w, `{"jsonrpc":"2.0","result":%s,"id":%s}`, result, req.ID)
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *peerNode) set(slot uint64, down bool) {
	p.mu.Lock()
	p.slot, p.down = slot, down
	p.mu.Unlock()
}

// The four health rules through /health and getHealth, with a node that stays at confirmed slot 0 and a known
// validator whose slot the test sets.
func TestHealthRules(t *testing.T) {
	t.Parallel()
	known := core.KeypairFromSeed([32]byte{9}).PublicKey().String()
	peer := newPeerNode(t, known)
	start := func(h health.Config) *Node {
		t.Helper()
		h.PollInterval = 5 * time.Millisecond
		n, err := Start(Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, Logger: quietLog,
			SlotDuration: time.Hour, NoSnapshots: true, Health: h})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { n.Close(context.Background()) })
		return n
	}
	const (
		okReply      = `{"jsonrpc":"2.0","result":"ok","id":1}`
		unknownReply = `{"jsonrpc":"2.0","error":{"code":-32005,"message":"Node is unhealthy","data":{"numSlotsBehind":null}},"id":1}`
		behindReply  = `{"jsonrpc":"2.0","error":{"code":-32005,"message":"Node is behind by 129 slots","data":{"numSlotsBehind":129}},"id":1}`
	)
	expect := func(n *Node, body, reply string) {
		t.Helper()
		eventually(t, "/health "+body, func() bool { return getHealthBody(t, n) == body })
		if got := post(t, n.HTTPURL, `{"jsonrpc":"2.0","id":1,"method":"getHealth"}`); got != reply {
			t.Errorf("getHealth = %s\nwant %s", got, reply)
		}
	}

	// 1. No known validator: ok, whatever the peers.
	expect(start(health.Config{Peers: []string{peer.URL}}), "ok", okReply)

	n := start(health.Config{KnownValidators: []string{known}, Peers: []string{peer.URL}})
	// 4. Known validators, none heard from.
	expect(n, "unknown", unknownReply)
	// 2. Within the distance (128 by default).
	peer.set(128, false)
	expect(n, "ok", okReply)
	// 3. Beyond it.
	peer.set(129, false)
	expect(n, "behind", behindReply)
	peer.set(5, false)
	expect(n, "ok", okReply)
}

// getClusterNodes lists this node with its real addresses, then the peers with what they answered; every key of
// the reference's shape is present, null where there is no such service.
func TestGetClusterNodes(t *testing.T) {
	t.Parallel()
	peerID := core.KeypairFromSeed([32]byte{8}).PublicKey().String()
	peer := newPeerNode(t, peerID)
	silent := newPeerNode(t, core.KeypairFromSeed([32]byte{7}).PublicKey().String()) // never answers
	peer.set(10, false)
	n, err := Start(Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, Logger: quietLog, NoSnapshots: true,
		Health: health.Config{Peers: []string{peer.URL, silent.URL}, PollInterval: 5 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(context.Background())
	id, genesisHash := identityAndGenesis(t, n)

	var nodes []map[string]any
	eventually(t, "the peer in getClusterNodes", func() bool {
		var reply struct{ Result []map[string]any }
		json.Unmarshal([]byte(post(t, n.HTTPURL, `{"jsonrpc":"2.0","id":1,"method":"getClusterNodes"}`)), &reply)
		nodes = reply.Result
		return len(nodes) == 2 && nodes[1]["shredVersion"] != nil
	})
	keys := []string{"clientId", "featureSet", "gossip", "pubkey", "pubsub", "rpc", "serveRepair", "shredVersion", "tpu",
		"tpuForwards", "tpuForwardsQuic", "tpuQuic", "tpuVote", "tvu", "version"}
	hostPort := func(u string) string { p, _ := url.Parse(u); return p.Host }
	gh, _ := core.ParsePubkey(genesisHash)
	info := n.cluster.info // the UDP ports the node holds for the validator services
	wantSelf := map[string]any{"pubkey": id, "rpc": hostPort(n.HTTPURL), "pubsub": hostPort(n.WSURL),
		"version": "4.3.0", "featureSet": float64(3271415109), "shredVersion": float64(health.ShredVersion(gh)),
		"clientId": "Agave", "gossip": info.Gossip, "tvu": info.TVU, "tpuQuic": info.TPUQuic,
		"tpuForwardsQuic": info.TPUForwardsQuic, "tpuVote": info.TPUVote, "serveRepair": info.ServeRepair}
	wantPeer := map[string]any{"pubkey": peerID, "rpc": hostPort(peer.URL), "version": "2.2.1",
		"featureSet": float64(42), "shredVersion": float64(1)}
	for i, want := range []map[string]any{wantSelf, wantPeer} {
		for _, k := range keys {
			if _, ok := want[k]; !ok {
				want[k] = nil
			}
		}
		if !reflect.DeepEqual(nodes[i], want) {
			t.Errorf("node %d = %v\nwant %v", i, nodes[i], want)
		}
	}
}
