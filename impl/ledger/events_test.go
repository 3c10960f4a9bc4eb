package ledger

import (
	"sync"
	"testing"
	"time"
)

// A paused ledger produces nothing until Start, so a listener registered in between hears of the first slot it
// produces; Stop and Close work on a ledger that never started.
func TestPausedLedgerStartsOnStart(t *testing.T) {
	l, err := Open(Config{Dir: t.TempDir(), SlotDuration: 2 * time.Millisecond, FinalityDepth: 1, Paused: true,
		StoreInMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	before, _, _ := l.Slots()
	time.Sleep(20 * time.Millisecond) // ten slot durations
	if now, _, _ := l.Slots(); now != before {
		t.Fatalf("a paused ledger moved from slot %d to %d", before, now)
	}
	var mu sync.Mutex
	var events []Event
	l.OnEvent(func(e Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	})
	l.Start()
	l.Start() // a second Start is a no-op
	waitFor(t, "a frozen slot", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(events) > 0
	})
	mu.Lock()
	first := events[0]
	mu.Unlock()
	if first.Slot != before {
		t.Errorf("first event is %s of slot %d, want one of slot %d (the working slot at Start)", first.Kind, first.Slot, before)
	}

	never, err := Open(Config{Dir: t.TempDir(), Paused: true, StoreInMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- never.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close of a ledger that never started hangs")
	}
}
