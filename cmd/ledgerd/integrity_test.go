package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/node"
	"ledgerd/impl/snapshot"
)

// --expected-genesis-hash refuses another chain and a malformed hash, before serving anything.
func TestExpectedGenesisHashFlag(t *testing.T) {
	dir := t.TempDir()
	l, err := ledger.Open(ledger.Config{Dir: dir, SlotDuration: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	other := core.HashBytes([]byte("another chain"))
	for _, c := range []struct{ hash, want string }{
		{other.String(), "not the expected"},
		{"not-base58!", "is not a genesis hash"},
		{"3yZe7d", "is not a genesis hash"},
	} {
		err := run([]string{"--ledger", dir, "--rpc-port", "0", "--expected-genesis-hash", c.hash}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("--expected-genesis-hash %s: %v, want an error saying %q", c.hash, err, c.want)
		}
	}
}

// A ledger whose write-ahead log was emptied is refused, and the recovery the refusal names (start from the
// newest snapshot with --reset) brings the chain back at the snapshot's slot, with the same genesis.
func TestDamagedLogRecoversFromSnapshot(t *testing.T) {
	ctx := context.Background()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	dir := filepath.Join(t.TempDir(), "ledger")
	cfg := node.Config{LedgerDir: dir, RPCPort: -1, WSPort: -1, Logger: quiet, SlotDuration: 5 * time.Millisecond,
		FinalityDepth: 2, Snapshots: snapshot.Config{FullInterval: 20, NoIncremental: true}}
	n, err := node.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	genesis := n.Genesis.Hash
	var snaps []snapshot.Info
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		snaps, _ = snapshot.List(filepath.Join(dir, snapshot.DirName))
		if _, _, root := n.Ledger.Slots(); len(snaps) > 0 && root > snaps[len(snaps)-1].Slot+10 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no snapshot")
		}
	}
	if err := n.Close(ctx); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "accounts", "*.log"))
	if len(logs) == 0 {
		t.Fatal("no log")
	}
	slices.Sort(logs)
	if err := os.Truncate(logs[len(logs)-1], 0); err != nil {
		t.Fatal(err)
	}

	if n, err := node.Start(cfg); !errors.Is(err, ledger.ErrDamaged) {
		if err == nil {
			n.Close(ctx)
		}
		t.Fatalf("start on an emptied log: %v, want a refusal", err)
	}
	cfg.FromSnapshot, cfg.Reset = filepath.Join(dir, snapshot.DirName), true
	n, err = node.Start(cfg)
	if err != nil {
		t.Fatalf("start from the snapshot: %v", err)
	}
	defer n.Close(ctx)
	newest := snaps[len(snaps)-1].Slot
	if _, _, root := n.Ledger.Slots(); root < newest || n.Genesis.Hash != genesis {
		t.Fatalf("restored at root %d (snapshot %d), genesis %x (was %x)", root, newest, n.Genesis.Hash, genesis)
	}
}
