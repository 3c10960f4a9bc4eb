package node

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
)

func startNode(t *testing.T, dir string, reset bool) *Node {
	t.Helper()
	n, err := Start(Config{LedgerDir: dir, Reset: reset, RPCPort: -1, WSPort: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func identityAndGenesis(t *testing.T, n *Node) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c := rpcclient.New(n.HTTPURL)
	id, err := c.GetIdentity(ctx)
	if err != nil {
		t.Fatal(err)
	}
	gh, err := c.GetGenesisHash(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{id.Identity, gh} {
		if b, err := base58.Decode(s); err != nil || len(b) != 32 {
			t.Fatalf("%q is not a base58 32-byte value", s)
		}
	}
	return id.Identity, gh
}

// The identity keypair and the genesis hash are created under --ledger and survive a restart; --reset makes new ones.
func TestIdentityAndGenesisSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	n := startNode(t, dir, false)
	id1, gh1 := identityAndGenesis(t, n)
	if err := n.Close(context.Background()); err != nil {
		t.Fatal(err)
	}

	n = startNode(t, dir, false)
	id2, gh2 := identityAndGenesis(t, n)
	n.Close(context.Background())
	if id1 != id2 || gh1 != gh2 {
		t.Fatalf("after restart: identity %s -> %s, genesis %s -> %s", id1, id2, gh1, gh2)
	}

	n = startNode(t, dir, true)
	id3, gh3 := identityAndGenesis(t, n)
	n.Close(context.Background())
	if id3 == id1 || gh3 == gh1 {
		t.Fatalf("--reset kept identity %s / genesis %s", id3, gh3)
	}
}

func TestVersionHealthAndMethods(t *testing.T) {
	n := startNode(t, t.TempDir(), false)
	defer n.Close(context.Background())
	ctx := context.Background()
	c := rpcclient.New(n.HTTPURL)

	v, err := c.GetVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v.SolanaCore == "" || v.NodeCore != v.SolanaCore || v.FeatureSet == 0 {
		t.Errorf("getVersion = %+v", v)
	}
	if h, err := c.GetHealth(ctx); err != nil || h != "ok" {
		t.Errorf("getHealth = %q, %v", h, err)
	}
	resp, err := http.Get(n.HTTPURL + "/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "ok" {
		t.Errorf("/health = %q", body)
	}

	// Every method of the schema is served; a name outside it is unknown.
	if _, err := c.GetVoteAccounts(ctx, &rpcapi.GetVoteAccountsParams{}); err != nil {
		t.Errorf("getVoteAccounts error = %v", err)
	}
	var rerr *rpcapi.Error
	if err := c.Call(ctx, "getVoteAccountz", nil, new(any)); !errors.As(err, &rerr) || rerr.Code != -32601 || rerr.Message != "Method not found" {
		t.Errorf("unknown method error = %v", err)
	}

	// The OpenRPC document is served and lists every method of the table.
	var doc struct {
		Methods []struct{ Name string } `json:"methods"`
	}
	if err := c.Call(ctx, "rpc.discover", nil, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Methods) != len(rpcapi.Methods) {
		t.Errorf("rpc.discover lists %d methods, the table has %d", len(doc.Methods), len(rpcapi.Methods))
	}
}

// Over WebSocket, getVersion is served and an HTTP-only method is unknown.
func TestWebSocketDispatch(t *testing.T) {
	n := startNode(t, t.TempDir(), false)
	defer n.Close(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ws, err := rpcclient.Dial(ctx, n.WSURL)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	var v rpcapi.Version
	if err := ws.Call(ctx, rpcapi.MethodGetVersion, nil, &v); err != nil || v.SolanaCore == "" {
		t.Fatalf("ws getVersion = %+v, %v", v, err)
	}
	err = ws.Call(ctx, rpcapi.MethodGetBalance, []string{"11111111111111111111111111111111"}, new(json.RawMessage))
	if e, ok := rpcapi.AsError(err); !ok || e.Code != -32601 {
		t.Fatalf("ws getBalance error = %v, want -32601", err)
	}
}
