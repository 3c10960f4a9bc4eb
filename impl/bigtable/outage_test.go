package bigtable

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/bigtable/bttest"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	start := time.Now()
	defer func() { t.Logf("%s: %v", what, time.Since(start)) }()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// run starts an uploader on its own goroutine; stop kills it and waits until it is gone.
func run(t *testing.T, c *Client, l *ledger.Ledger, state string, log *slog.Logger) (u *Uploader, stop func()) {
	t.Helper()
	u, err := NewUploader(c, l, UploaderConfig{StateFile: state, Logger: log, MinBackoff: 20 * time.Millisecond,
		MaxBackoff: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { u.Run(ctx); close(done) }()
	return u, func() { cancel(); <-done }
}

// TestUploaderOutageAndRestart cuts Bigtable off while the chain goes on, kills the uploader during the
// outage, brings Bigtable back and starts a new uploader on the same state: every rooted slot ends up in
// Bigtable, none twice missing, and the outage was logged and visible (Err, Lag) while it lasted.
func TestUploaderOutageAndRestart(t *testing.T) {
	c, p := emulatorTimeout(t, 300*time.Millisecond)
	l := chain(t)
	alice, bob := history(t, l)
	state := t.TempDir() + "/state"
	var logs syncBuffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	u, stop := run(t, c, l, state, log)
	waitFor(t, "the first upload", func() bool { return u.Lag() == 0 && u.Err() == nil })

	p.setDown(true)
	hash := l.Bank(ledger.Processed).LastBlockhash()
	during := core.NewTransferTx(alice, bob.PublicKey(), 7, hash)
	duringSlot := execute(t, l, during).Slot
	advance(t, l, 6)
	waitFor(t, "the uploader to see the outage", func() bool { return u.Err() != nil })
	if u.Lag() == 0 {
		t.Fatal("no lag reported during the outage")
	}
	// A read that needs Bigtable now fails with the cause, never as "not found".
	if _, _, found, err := NewArchive(c).Block(1); found || !isBigtableErr(err) {
		t.Fatalf("read during the outage: found %v, err %v", found, err)
	}
	if _, err := NewArchive(c).SignaturesForAddress(alice.PublicKey(), nil, nil, 5); !isBigtableErr(err) {
		t.Fatalf("address list during the outage: %v", err)
	}
	stop() // the uploader dies during the outage

	p.setDown(false)
	u2, stop2 := run(t, c, l, state, log)
	defer stop2()
	waitFor(t, "the restarted uploader to catch up", func() bool { return u2.Lag() == 0 })
	_, _, root := l.Slots()
	slots, err := NewArchive(c).Blocks(0, int(root)+10)
	if err != nil {
		t.Fatal(err)
	}
	if uint64(len(slots)) != root+1 || slots[len(slots)-1] != root {
		t.Fatalf("Bigtable holds %d blocks up to %v, want every slot 0..%d", len(slots), slots[len(slots)-1:], root)
	}
	for i, s := range slots {
		if s != uint64(i) {
			t.Fatalf("slot %d missing from Bigtable", i)
		}
	}
	if rec, found, err := NewArchive(c).Transaction(during.Signature()); err != nil || !found || rec.Slot != duringSlot {
		t.Fatalf("the transaction made during the outage: %v %v", found, err)
	}
	out := logs.String()
	if !strings.Contains(out, "upload failed; retrying") {
		t.Errorf("the outage was not logged:\n%s", out)
	}
}

// Without a state file the uploader resumes after the newest block Bigtable holds, as the reference does.
func TestUploaderResumesFromBigtable(t *testing.T) {
	c, _ := emulator(t)
	l := chain(t)
	history(t, l)
	uploadAll(t, c, l, "")
	_, _, root := l.Slots()
	advance(t, l, 3)
	u, err := NewUploader(c, l, UploaderConfig{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	from, err := u.next()
	if err != nil || from != root+1 {
		t.Fatalf("resumes at %d (%v), want %d", from, err, root+1)
	}
}

// A chain that went back below the uploaded slots (a revert) is uploaded again from its root.
func TestUploaderFollowsTheRootBack(t *testing.T) {
	c, _ := emulator(t)
	l := chain(t)
	history(t, l)
	_, _, root := l.Slots()
	u, err := NewUploader(c, l, UploaderConfig{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	u.last, u.haveLast = root+50, true
	if err := u.catchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	advance(t, l, 2)
	if err := u.catchUp(context.Background()); err != nil {
		t.Fatal(err)
	}
	if last, _ := u.Last(); last != root+2 {
		t.Fatalf("uploaded through %d, want %d", last, root+2)
	}
	if _, _, found, err := NewArchive(c).Block(root + 2); !found || err != nil {
		t.Fatalf("slot %d not uploaded after the root went back: %v", root+2, err)
	}
}

// An emulator that restarted empty has no tables: the uploader makes them again and goes on.
func TestUploaderRecreatesTablesOfARestartedEmulator(t *testing.T) {
	c, p := emulatorTimeout(t, time.Second)
	l := chain(t)
	history(t, l)
	u := uploadAll(t, c, l, "")
	srv2, err := bttest.NewServer("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv2.Close()
	p.retarget(srv2.Addr)
	advance(t, l, 2)
	_, _, root := l.Slots()
	waitFor(t, "an upload to the restarted emulator", func() bool { return u.catchUp(context.Background()) == nil })
	if _, _, found, err := NewArchive(c).Block(root); !found || err != nil {
		t.Fatalf("slot %d not in the restarted emulator: %v", root, err)
	}
}
