package health

import (
	"errors"
	"testing"
)

// A node whose own store failed is unknown, even with no known validator to compare with (always ok
// otherwise), and ok again once the fault clears (a full disk with room again).
func TestStorageFault(t *testing.T) {
	var fault error
	m, err := New(Config{Fault: func() error { return fault }})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if s, _ := m.Check(); s != OK {
		t.Fatalf("healthy store: %s, want ok", s)
	}
	fault = errors.New("no space left on device")
	if s, behind := m.Check(); s != Unknown || behind != 0 {
		t.Fatalf("failed store: %s %d, want unknown", s, behind)
	}
	if s := m.Status(); s != Unknown {
		t.Fatalf("/health body %q, want unknown", s)
	}
	fault = nil
	if s, _ := m.Check(); s != OK {
		t.Fatalf("store recovered: %s, want ok", s)
	}
}
