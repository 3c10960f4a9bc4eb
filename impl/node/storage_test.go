package node

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"

	"ledgerd/impl/store"
)

// A full disk as the JSON-RPC client sees it: /health unknown, getHealth -32005, requestAirdrop and
// sendTransaction answered at once with a -32603 that names the cause, reads still served; all back to normal
// once there is room.
func TestDiskFullOverJSONRPC(t *testing.T) {
	fs := store.NewFullFS(vfs.Default)
	n, err := Start(Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, Logger: quietLog,
		SlotDuration: 5 * time.Millisecond, FinalityDepth: 2, NoSnapshots: true, StoreFS: fs})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(context.Background())
	const to = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"
	airdrop := `{"jsonrpc":"2.0","id":1,"method":"requestAirdrop","params":["` + to + `",1000000000]}`
	if reply := post(t, n.HTTPURL, airdrop); !strings.Contains(reply, `"result"`) {
		t.Fatalf("airdrop with room: %s", reply)
	}
	fs.SetLow(true)
	deadline := time.Now().Add(5 * time.Second)
	for n.Ledger.StorageFault() == nil {
		if time.Now().After(deadline) {
			t.Fatal("no fault on a full disk")
		}
		time.Sleep(2 * time.Millisecond)
	}
	if body := getHealthBody(t, n); body != "unknown" {
		t.Errorf("/health on a full disk: %q", body)
	}
	var reply struct {
		Error *struct {
			Code    int
			Message string
		}
	}
	decode := func(raw string) {
		t.Helper()
		reply.Error = nil
		if err := json.Unmarshal([]byte(raw), &reply); err != nil || reply.Error == nil {
			t.Fatalf("want an error reply: %s", raw)
		}
	}
	decode(post(t, n.HTTPURL, `{"jsonrpc":"2.0","id":1,"method":"getHealth"}`))
	if reply.Error.Code != -32005 {
		t.Errorf("getHealth on a full disk: %+v", *reply.Error)
	}
	start := time.Now()
	decode(post(t, n.HTTPURL, airdrop))
	if reply.Error.Code != -32603 || !strings.Contains(reply.Error.Message, "no space left on device") {
		t.Errorf("requestAirdrop on a full disk: %+v", *reply.Error)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the refused airdrop took %v", d)
	}
	if raw := post(t, n.HTTPURL, `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["`+to+`",{"commitment":"processed"}]}`); !strings.Contains(raw, `"value":1000000000`) {
		t.Errorf("getBalance on a full disk: %s", raw)
	}
	fs.SetLow(false)
	for n.Ledger.StorageFault() != nil {
		if time.Now().After(deadline.Add(5 * time.Second)) {
			t.Fatal("the fault did not clear once there was room")
		}
		time.Sleep(2 * time.Millisecond)
	}
	if body := getHealthBody(t, n); body != "ok" {
		t.Errorf("/health with room again: %q", body)
	}
	if raw := post(t, n.HTTPURL, airdrop); !strings.Contains(raw, `"result"`) {
		t.Fatalf("airdrop with room again: %s", raw)
	}
}
