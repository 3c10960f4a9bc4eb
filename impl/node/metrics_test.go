package node

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
	"github.com/coder/websocket"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/store"
)

// scrape reads GET /metrics and parses it as Prometheus text.
func scrape(t *testing.T, n *Node) (map[string]*dto.MetricFamily, string) {
	t.Helper()
	resp, err := http.Get(n.HTTPURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %s: %s", resp.Status, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("GET /metrics Content-Type %q, want the text format", ct)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(strings.NewReader(string(body)))
	if err != nil {
		t.Fatalf("GET /metrics does not parse: %v\n%s", err, body)
	}
	return fams, string(body)
}

// value returns the value of the series of family name whose labels include want; found is false without one.
func value(fams map[string]*dto.MetricFamily, name string, want map[string]string) (v float64, found bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
next:
	for _, m := range f.Metric {
		have := map[string]string{}
		for _, lp := range m.Label {
			have[lp.GetName()] = lp.GetValue()
		}
		for k, v := range want {
			if have[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue(), true
		case m.Gauge != nil:
			return m.Gauge.GetValue(), true
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount()), true
		}
	}
	return 0, false
}

func mustValue(t *testing.T, fams map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	t.Helper()
	v, ok := value(fams, name, labels)
	if !ok {
		t.Fatalf("no %s%v in /metrics", name, labels)
	}
	return v
}

func httpCounts(method, code string) map[string]string {
	return map[string]string{"transport": "http", "method": method, "code": code}
}

// GET /metrics counts the calls by method and code (each member of a batch, an unknown method under one
// "unknown" label), the WebSocket's subscribe calls, subscriptions and connections, the transactions executed,
// and holds the slots getSlot answers, the faucet's balance and a storage fault of 0.
func TestMetrics(t *testing.T) {
	n, err := Start(Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, BlockProduction: ledger.ProduceOnRequest,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(context.Background())
	url := n.HTTPURL
	faucet := n.Genesis.Faucet.PublicKey().String()

	before, _ := scrape(t, n)
	txsBefore, _ := value(before, "ledgerd_transactions_processed_total", nil)

	for i := range 3 {
		mustCall(t, url, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"getBalance","params":["`+faucet+`"]}`)
	}
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":4,"method":"getBalance","params":["not a key"]}`); e == nil || e.Code != -32602 {
		t.Fatalf("getBalance of a bad key: %+v, want -32602", e)
	}
	if _, e := rawCall(t, url, `{"jsonrpc":"2.0","id":5,"method":"noSuchMethodXyz","params":[]}`); e == nil || e.Code != -32601 {
		t.Fatalf("unknown method: %+v, want -32601", e)
	}
	resp, err := http.Post(url, "application/json", strings.NewReader(
		`[{"jsonrpc":"2.0","id":1,"method":"getEpochInfo"},{"jsonrpc":"2.0","id":2,"method":"getEpochInfo"},`+
			`{"jsonrpc":"2.0","id":3,"method":"getVersion"}]`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	// A transfer: the faucet's airdrop.
	to := core.KeypairFromSeed([32]byte{7}).PublicKey().String()
	const lamports = 5_000_000_000
	faucetBefore := mustValue(t, before, "ledgerd_faucet_balance_lamports", nil)
	mustCall(t, url, `{"jsonrpc":"2.0","id":6,"method":"requestAirdrop","params":["`+to+`",`+strconv.Itoa(lamports)+`]}`)

	// A subscription over the WebSocket, left open while scraping.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, n.WSURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()
	if err := ws.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","id":1,"method":"slotSubscribe"}`)); err != nil {
		t.Fatal(err)
	}
	if _, msg, err := ws.Read(ctx); err != nil || !strings.Contains(string(msg), `"result"`) {
		t.Fatalf("slotSubscribe: %s, %v", msg, err)
	}

	fams, text := scrape(t, n)
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"ledgerd_rpc_requests_total", httpCounts(rpcapi.MethodGetBalance, "0"), 3},
		{"ledgerd_rpc_requests_total", httpCounts(rpcapi.MethodGetBalance, "-32602"), 1},
		{"ledgerd_rpc_requests_total", httpCounts("unknown", "-32601"), 1},
		{"ledgerd_rpc_requests_total", httpCounts(rpcapi.MethodGetEpochInfo, "0"), 2},
		{"ledgerd_rpc_requests_total", httpCounts(rpcapi.MethodGetVersion, "0"), 1},
		{"ledgerd_rpc_requests_total", httpCounts(rpcapi.MethodRequestAirdrop, "0"), 1},
		{"ledgerd_rpc_requests_total", map[string]string{"transport": "websocket", "method": rpcapi.MethodSlotSubscribe, "code": "0"}, 1},
		{"ledgerd_rpc_request_duration_seconds", map[string]string{"transport": "http", "method": rpcapi.MethodGetBalance}, 4},
		{"ledgerd_subscriptions", map[string]string{"kind": rpcapi.MethodSlotSubscribe}, 1},
		{"ledgerd_subscriptions", map[string]string{"kind": rpcapi.MethodAccountSubscribe}, 0},
		{"ledgerd_connections", map[string]string{"kind": "websocket"}, 1},
		{"ledgerd_storage_fault", nil, 0},
		{"ledgerd_transactions_processed_total", nil, txsBefore + 1},
		{"ledgerd_transactions_failed_total", nil, 0},
		{"ledgerd_faucet_balance_lamports", nil, faucetBefore - lamports - 5000}, // and the fee of one signature
	} {
		if got := mustValue(t, fams, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	var bal struct{ Value uint64 }
	if err := json.Unmarshal(mustCall(t, url, `{"jsonrpc":"2.0","id":9,"method":"getBalance","params":["`+faucet+`",{"commitment":"processed"}]}`), &bal); err != nil {
		t.Fatal(err)
	}
	if got := mustValue(t, fams, "ledgerd_faucet_balance_lamports", nil); got != float64(bal.Value) {
		t.Errorf("faucet balance %v, getBalance %d", got, bal.Value)
	}
	if strings.Contains(text, "noSuchMethodXyz") {
		t.Error("an unknown method's name became a label")
	}
	if v := mustValue(t, fams, "ledgerd_connections", map[string]string{"kind": "http"}); v < 1 {
		t.Errorf("http connections %v while scraping over one", v)
	}
	if v := mustValue(t, fams, "ledgerd_store_disk_usage_bytes", nil); v <= 0 {
		t.Errorf("store disk usage %v", v)
	}
	for _, name := range []string{"ledgerd_store_compaction_debt_bytes", "ledgerd_store_read_amplification"} {
		mustValue(t, fams, name, nil)
	}

	// The slots match getSlot at each commitment (the chain moves only when asked in this mode).
	mustCall(t, url, `{"jsonrpc":"2.0","id":7,"method":"ledgerd_advanceSlots","params":[3]}`)
	fams, _ = scrape(t, n)
	for _, c := range []string{"processed", "confirmed", "finalized"} {
		var slot uint64
		if err := json.Unmarshal(mustCall(t, url, `{"jsonrpc":"2.0","id":8,"method":"getSlot","params":[{"commitment":"`+c+`"}]}`), &slot); err != nil {
			t.Fatal(err)
		}
		if got := mustValue(t, fams, "ledgerd_slot", map[string]string{"commitment": c}); got != float64(slot) {
			t.Errorf("ledgerd_slot{commitment=%q} = %v, getSlot %d", c, got, slot)
		}
		if c == "finalized" {
			if got := mustValue(t, fams, "ledgerd_root_slot", nil); got != float64(slot) {
				t.Errorf("ledgerd_root_slot = %v, finalized slot %d", got, slot)
			}
		}
	}
	if got := mustValue(t, fams, "ledgerd_slot", map[string]string{"commitment": "processed"}); got < 3 {
		t.Errorf("processed slot %v after advancing 3 slots", got)
	}
}

// Without metrics the path is not served.
func TestNoMetrics(t *testing.T) {
	n, err := Start(Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, NoMetrics: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(context.Background())
	resp, err := http.Get(n.HTTPURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		t.Error("GET /metrics served with NoMetrics")
	}
}

// ledgerd_storage_fault is 1 while the store's disk is full and 0 again once there is room, so an alert can
// watch it.
func TestMetricsStorageFault(t *testing.T) {
	fs := store.NewFullFS(vfs.Default)
	n, err := Start(Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, Logger: quietLog,
		SlotDuration: 5 * time.Millisecond, FinalityDepth: 2, NoSnapshots: true, StoreFS: fs})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(context.Background())
	fault := func() float64 {
		t.Helper()
		fams, _ := scrape(t, n)
		return mustValue(t, fams, "ledgerd_storage_fault", nil)
	}
	if f := fault(); f != 0 {
		t.Fatalf("storage fault %v on a healthy store", f)
	}
	fs.SetLow(true)
	deadline := time.Now().Add(5 * time.Second)
	for n.Ledger.StorageFault() == nil {
		if time.Now().After(deadline) {
			t.Fatal("no fault on a full disk")
		}
		time.Sleep(2 * time.Millisecond)
	}
	if f := fault(); f != 1 {
		t.Errorf("storage fault %v on a full disk", f)
	}
	fs.SetLow(false)
	for n.Ledger.StorageFault() != nil {
		if time.Now().After(deadline.Add(5 * time.Second)) {
			t.Fatal("the fault did not clear once there was room")
		}
		time.Sleep(2 * time.Millisecond)
	}
	if f := fault(); f != 0 {
		t.Errorf("storage fault %v with room again", f)
	}
}
