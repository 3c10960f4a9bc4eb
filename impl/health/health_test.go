package health

import (
	"io"
	"log/slog"
	"net/url"
	"sync/atomic"
	"testing"
	"time"

	"ledgerd/impl/core"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func pubkey(seed byte) string { return core.KeypairFromSeed([32]byte{seed}).PublicKey().String() }

// clock is a settable time for the staleness rule.
type clock struct{ offset atomic.Int64 }

func (c *clock) now() time.Time          { return time.Now().Add(time.Duration(c.offset.Load())) }
func (c *clock) advance(d time.Duration) { c.offset.Add(int64(d)) }

func newMonitor(t *testing.T, cfg Config) *Monitor {
	t.Helper()
	cfg.PollInterval = orDefault(cfg.PollInterval, 10*time.Millisecond)
	cfg.Logger = quiet
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}

// waitCheck waits until the monitor reports status and behind.
func waitCheck(t *testing.T, m *Monitor, status string, behind uint64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s, n := m.Check()
		if s == status && n == behind {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Check() = %s, %d; want %s, %d", s, n, status, behind)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func TestRules(t *testing.T) {
	t.Parallel()
	known, other := pubkey(1), pubkey(2)
	mine := uint64(1000)
	var clk clock

	// Rule 1: no known validator, ok whatever the peers say.
	far := newFakePeer(t, known, 1_000_000)
	m := newMonitor(t, Config{Peers: []string{far.URL}, Slot: func() uint64 { return mine }})
	if s, n := m.Check(); s != OK || n != 0 {
		t.Errorf("without known validators: %s, %d", s, n)
	}

	// Rule 4: known validators, no slot of theirs yet.
	p := newFakePeer(t, known, mine)
	p.set(known, mine, true)
	m = newMonitor(t, Config{KnownValidators: []string{known}, Peers: []string{p.URL},
		Slot: func() uint64 { return mine }, now: clk.now})
	time.Sleep(30 * time.Millisecond) // a few polls that fail
	if s, n := m.Check(); s != Unknown || n != 0 {
		t.Errorf("peer down from the start: %s, %d", s, n)
	}

	// Rule 2: within the distance, inclusive; and ahead of the cluster.
	p.set(known, mine+DefaultSlotDistance, false)
	waitCheck(t, m, OK, 0)
	p.set(known, mine-500, false)
	waitCheck(t, m, OK, 0)

	// Rule 3: one slot further.
	p.set(known, mine+DefaultSlotDistance+1, false)
	waitCheck(t, m, Behind, DefaultSlotDistance+1)
	p.set(known, mine+5000, false)
	waitCheck(t, m, Behind, 5000)

	// A peer that stops answering counts for StaleAfter, then the node cannot tell.
	p.set(known, mine+5000, true)
	time.Sleep(30 * time.Millisecond)
	waitCheck(t, m, Behind, 5000)
	clk.advance(DefaultStaleAfter + time.Second)
	waitCheck(t, m, Unknown, 0)

	// A node with another identity behind the address is not a known validator.
	p.set(other, mine+5000, false)
	time.Sleep(30 * time.Millisecond)
	waitCheck(t, m, Unknown, 0)
	p.set(known, mine+5000, false)
	waitCheck(t, m, Behind, 5000)

	// getSlot is asked at commitment confirmed.
	p.mu.Lock()
	commitments := p.commitments
	p.mu.Unlock()
	for _, c := range commitments {
		if c != "confirmed" {
			t.Fatalf("getSlot commitments %v", commitments)
		}
	}
}

// The highest slot of the known validators counts; an unknown peer's slot does not.
func TestHighestKnownValidator(t *testing.T) {
	t.Parallel()
	a, b, stranger := pubkey(1), pubkey(2), pubkey(3)
	pa, pb, ps := newFakePeer(t, a, 100), newFakePeer(t, b, 400), newFakePeer(t, stranger, 9_000)
	m := newMonitor(t, Config{KnownValidators: []string{a, b}, Peers: []string{pa.URL, pb.URL, ps.URL, pa.URL},
		Slot: func() uint64 { return 200 }, SlotDistance: 100})
	waitCheck(t, m, Behind, 200)
	pb.set(b, 300, false)
	waitCheck(t, m, OK, 0)

	var peers []Peer
	deadline := time.Now().Add(5 * time.Second)
	for peers = m.Peers(); len(peers) < 3 && time.Now().Before(deadline); peers = m.Peers() {
		time.Sleep(2 * time.Millisecond)
	}
	if len(peers) != 3 {
		t.Fatalf("Peers() = %+v, want 3 (duplicates dropped)", peers)
	}
	for i, want := range []struct {
		url, identity string
	}{{pa.URL, a}, {pb.URL, b}, {ps.URL, stranger}} {
		got := peers[i]
		u, _ := url.Parse(want.url)
		if got.URL != want.url || got.Identity != want.identity || got.RPC != u.Host {
			t.Errorf("peer %d = %+v, want %s %s", i, got, want.url, want.identity)
		}
		if got.Version == nil || *got.Version != "2.2.1" || got.FeatureSet == nil || *got.FeatureSet != 123456789 ||
			got.ShredVersion == nil || *got.ShredVersion != 1 {
			t.Errorf("peer %d version/featureSet/shredVersion = %v %v %v", i, got.Version, got.FeatureSet, got.ShredVersion)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	t.Parallel()
	for _, cfg := range []Config{
		{KnownValidators: []string{"not-a-pubkey"}, Slot: func() uint64 { return 0 }},
		{KnownValidators: []string{pubkey(1)}}, // no slot source
		{Peers: []string{"127.0.0.1:8899"}},
		{Peers: []string{"ftp://host:1"}},
	} {
		if m, err := New(cfg); err == nil {
			m.Close()
			t.Errorf("New(%+v) succeeded", cfg)
		}
	}
}

func TestRPCAddr(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"http://127.0.0.1:8899":       "127.0.0.1:8899",
		"http://127.0.0.1:8899/":      "127.0.0.1:8899",
		"https://rpc.example.com":     "rpc.example.com:443",
		"http://localhost":            "localhost:80",
		"http://[::1]:8899/some/path": "[::1]:8899",
	} {
		if got, err := rpcAddr(in); err != nil || got != want {
			t.Errorf("rpcAddr(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestShredVersion(t *testing.T) {
	t.Parallel()
	var h [32]byte
	if v := ShredVersion(h); v != 1 {
		t.Errorf("zero hash: %d, want 1", v)
	}
	h[0], h[1], h[2], h[3] = 0x12, 0x34, 0x01, 0x01 // folds to 0x1335
	if v := ShredVersion(h); v != 0x1336 {
		t.Errorf("ShredVersion = %#x, want 0x1336", v)
	}
	h = [32]byte{0: 0xff, 1: 0xff}
	if v := ShredVersion(h); v != 0xffff {
		t.Errorf("saturating: %#x", v)
	}
}
