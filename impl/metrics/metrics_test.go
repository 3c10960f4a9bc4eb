package metrics

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/jsonrpc"
	"ledgerd/impl/ledger"
)

var _ jsonrpc.Observer = (*Metrics)(nil)

func openLedger(t testing.TB) *ledger.Ledger {
	t.Helper()
	l, err := ledger.Open(ledger.Config{Dir: t.TempDir(), Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// A method the node does not serve is counted under "unknown", whatever the client sent: the label's values stay
// the schema's methods.
func TestUnknownMethodsShareOneLabel(t *testing.T) {
	m := New(Config{Ledger: openLedger(t)})
	for _, name := range []string{rpcapi.MethodGetBalance, "getbalance", "nope", "", strings.Repeat("x", 1000), rpcapi.MethodGetBalance} {
		m.ObserveCall(name, false, jsonrpc.CodeMethodNotFound, time.Millisecond)
	}
	m.ObserveCall(rpcapi.MethodSlotSubscribe, true, 0, time.Millisecond)
	m.ObserveCall("rpc.discover", false, 0, time.Millisecond)
	if n := testutil.CollectAndCount(m.requests); n != 4 {
		t.Errorf("%d request series, want 4 (getBalance, unknown, slotSubscribe, rpc.discover)", n)
	}
	for _, c := range []struct {
		transport, method, code string
		want                    float64
	}{
		{"http", rpcapi.MethodGetBalance, "-32601", 2},
		{"http", Unknown, "-32601", 4},
		{"websocket", rpcapi.MethodSlotSubscribe, "0", 1},
		{"http", "rpc.discover", "0", 1},
	} {
		if got := testutil.ToFloat64(m.requests.WithLabelValues(c.transport, c.method, c.code)); got != c.want {
			t.Errorf("%s %s %s = %v, want %v", c.transport, c.method, c.code, got, c.want)
		}
	}
}

// The whole registry gathers without error (every collector's figures are consistent with its descriptions).
func TestGather(t *testing.T) {
	m := New(Config{Ledger: openLedger(t), Connections: func() map[string]int { return map[string]int{TransportHTTP: 2} }})
	problems, err := testutil.GatherAndLint(m.Registry())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("lint: %s: %s", p.Metric, p.Text)
	}
}

func BenchmarkObserveCall(b *testing.B) {
	m := New(Config{Ledger: openLedger(b)})
	b.ReportAllocs()
	for b.Loop() {
		m.ObserveCall(rpcapi.MethodGetBalance, false, 0, 300*time.Microsecond)
	}
}
