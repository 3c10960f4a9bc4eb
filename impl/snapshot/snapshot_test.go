package snapshot

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func openLedger(t *testing.T, dir string) *ledger.Ledger {
	t.Helper()
	l, err := ledger.Open(ledger.Config{Dir: dir, SlotDuration: 5 * time.Millisecond, FinalityDepth: 2, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		want Info
		ok   bool
	}{
		{"snapshot-100-4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM", Info{Kind: Full, Slot: 100, Hash: "4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM"}, true},
		{"incremental-snapshot-100-125-4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM", Info{Kind: Incremental, Base: 100, Slot: 125, Hash: "4uQeVj5tqViQh7yWWGStvkEG1Zmhx6uasJtWCJziofM"}, true},
		{"incremental-snapshot-125-100-abc", Info{}, false}, // base after slot
		{"snapshot-100-0OIl", Info{}, false},                // not base58
		{"tmp-snapshot-100-abc", Info{}, false},
		{"snapshot-100-abc.tar.zst", Info{}, false},
	}
	for _, tt := range tests {
		got, ok := parseName(tt.name)
		if ok != tt.ok || (ok && (got != tt.want || got.Name() != tt.name)) {
			t.Errorf("parseName(%q) = %+v, %v; want %+v, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRetain(t *testing.T) {
	t.Parallel()
	full := func(s uint64) Info { return Info{Kind: Full, Slot: s} }
	incr := func(b, s uint64) Info { return Info{Kind: Incremental, Base: b, Slot: s} }
	infos := []Info{full(20), full(40), full(60), incr(20, 25), incr(40, 45), incr(40, 50), incr(40, 55), incr(60, 65), incr(60, 70), incr(60, 75)}
	sortInfos(infos)
	keep, drop := retain(infos, 2, 2)
	wantKeep := []Info{full(40), full(60), incr(40, 55), incr(60, 70), incr(60, 75)}
	wantDrop := []Info{full(20), incr(20, 25), incr(40, 45), incr(40, 50), incr(60, 65)}
	if !reflect.DeepEqual(keep, wantKeep) || !reflect.DeepEqual(drop, wantDrop) {
		t.Errorf("retain:\n keep %v\n drop %v\nwant\n keep %v\n drop %v", keep, drop, wantKeep, wantDrop)
	}
	f, inc, ok := Highest(keep)
	if !ok || f.Slot != 60 || inc == nil || inc.Slot != 75 {
		t.Errorf("Highest = %v, %v, %v; want 60, 75", f, inc, ok)
	}
	if _, inc, ok := Highest([]Info{full(20), incr(0, 25)}); !ok || inc != nil {
		t.Errorf("Highest with an incremental of another base: %v, %v", inc, ok)
	}
	if _, _, ok := Highest([]Info{incr(20, 25)}); ok {
		t.Error("Highest without a full snapshot is ok")
	}
}

// Over a real ledger with short intervals: full and incremental snapshots appear at the right slots, old ones are
// pruned, the directory agrees with what is reported, and a snapshot restores into a ledger that holds a
// balance created before it.
func TestSnapshotterOverLedger(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "ledger")
	l := openLedger(t, dir)
	closed := false
	defer func() {
		if !closed {
			l.Close()
		}
	}()

	// A debris directory of a crashed snapshot is removed at start.
	debris := filepath.Join(dir, DirName, tmpPrefix+"snapshot-5-abc")
	if err := os.MkdirAll(debris, 0o755); err != nil {
		t.Fatal(err)
	}
	s, err := New(l, Config{LedgerDir: dir, FullInterval: 20, IncrementalInterval: 5, MaxFull: 2, MaxIncremental: 2, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := os.Stat(debris); !os.IsNotExist(err) {
		t.Errorf("debris left: %v", err)
	}
	if _, _, ok := s.Highest(); ok {
		t.Fatal("a snapshot before any was taken")
	}

	k, err := core.NewKeypair()
	if err != nil {
		t.Fatal(err)
	}
	const lamports = 1_234_567_890
	if _, err := l.Airdrop(context.Background(), k.PublicKey(), lamports); err != nil {
		t.Fatal(err)
	}
	processed, _, _ := l.Slots()

	// Three full snapshots after the airdrop, so the first full one has been pruned.
	waitFor(t, "three full snapshots", 30*time.Second, func() bool {
		full, _, ok := s.Highest()
		return ok && full >= processed+60
	})
	s.Close()
	snaps := s.Snapshots()
	onDisk, err := List(s.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(snaps, onDisk) {
		t.Errorf("reported %v, on disk %v", snaps, onDisk)
	}
	var fulls, incrs []Info
	for _, i := range snaps {
		if i.Kind == Full {
			fulls = append(fulls, i)
			if i.Slot%20 != 0 {
				t.Errorf("full snapshot at slot %d, not a multiple of 20", i.Slot)
			}
		} else {
			incrs = append(incrs, i)
			if i.Slot%5 != 0 || i.Slot%20 == 0 || i.Base >= i.Slot {
				t.Errorf("incremental snapshot %s", i.Name())
			}
		}
		if !isSnapshot(i.Path) {
			t.Errorf("%s lacks the database or genesis.json", i.Path)
		}
	}
	if len(fulls) != 2 {
		t.Errorf("full snapshots kept: %v, want the newest 2", fulls)
	}
	perBase := map[uint64]int{}
	for _, i := range incrs {
		perBase[i.Base]++
		if i.Base != fulls[0].Slot && i.Base != fulls[len(fulls)-1].Slot {
			t.Errorf("incremental snapshot %s of a removed full snapshot", i.Name())
		}
	}
	if perBase[fulls[len(fulls)-1].Slot] > 2 || perBase[fulls[0].Slot] > 1 {
		t.Errorf("incremental snapshots kept per base: %v", perBase)
	}
	full, inc, _ := s.Highest()
	hf, hi, _ := Highest(snaps)
	if full != hf.Slot || (inc == nil) != (hi == nil) || (inc != nil && *inc != hi.Slot) {
		t.Errorf("Highest = %d, %v; want %d, %v", full, inc, hf.Slot, hi)
	}
	// The name carries the blockhash of its slot.
	if b, found, err := l.Block(hf.Slot, ledger.Finalized); err != nil || !found || b.Blockhash.String() != hf.Hash {
		t.Errorf("snapshot %s: block %v found %v err %v", hf.Name(), b, found, err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	closed = true

	// A node starts from the directory of snapshots (its newest) and from one snapshot, and holds the balance.
	for _, from := range []string{s.Dir(), fulls[0].Path} {
		restored := filepath.Join(t.TempDir(), "restored")
		used, err := Restore(from, restored, false)
		if err != nil {
			t.Fatal(err)
		}
		if from == s.Dir() && used != snaps[len(snaps)-1].Path && used != fulls[len(fulls)-1].Path {
			t.Errorf("restored from %s", used)
		}
		if _, err := Restore(from, restored, false); err == nil {
			t.Error("restore into a non-empty ledger directory succeeded")
		}
		if _, err := Restore(from, restored, true); err != nil {
			t.Errorf("restore replacing a ledger directory: %v", err)
		}
		r := openLedger(t, restored)
		a, ok := r.Bank(ledger.Finalized).GetAccount(k.PublicKey())
		_, _, root := r.Slots()
		r.Close()
		if !ok || a.Lamports != lamports {
			t.Errorf("restored from %s: balance %d (found %v), want %d", used, a.Lamports, ok, lamports)
		}
		info, _ := parseName(filepath.Base(used))
		if root < info.Slot {
			t.Errorf("restored from %s: root %d, before the snapshot's slot", used, root)
		}
	}
	// A ledger rolls back to a snapshot of its own, which lies inside it.
	if _, err := Restore(s.Dir(), dir, true); err != nil {
		t.Fatal(err)
	}
	r := openLedger(t, dir)
	a, ok := r.Bank(ledger.Finalized).GetAccount(k.PublicKey())
	r.Close()
	if !ok || a.Lamports != lamports {
		t.Errorf("rolled back: balance %d (found %v), want %d", a.Lamports, ok, lamports)
	}
	if _, err := os.Stat(filepath.Join(dir, DirName)); !os.IsNotExist(err) {
		t.Errorf("the rolled back ledger still has its snapshots: %v", err)
	}
	if _, err := Restore(t.TempDir(), filepath.Join(t.TempDir(), "x"), false); err == nil {
		t.Error("restore from a directory without snapshots succeeded")
	}
}
