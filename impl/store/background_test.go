package store

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
)

// countKeys counts every key of the store, and returns the iteration's error.
func countKeys(t *testing.T, s *Store) (int, error) {
	t.Helper()
	it, err := s.db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for v := it.First(); v; v = it.Next() {
		n++
	}
	return n, it.Close()
}

// A compaction over a damaged table fails, and the failure reaches OnError (pebble's event listener), so the
// owner learns of the damage even when no request reads it; no key is dropped. pebble v1.1.5 did neither on
// this store: the compaction succeeded and 3,855 of 16,000 keys were gone, without any error.
func TestCompactionOverDamagedTableReachesOnError(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Three overlapping tables (pebble compacts some of them on its own): every account in each.
	for slot := uint64(1); slot <= 3; slot++ {
		b := s.NewBatch()
		for i := range 2000 {
			b.PutAccount(Pubkey{byte(i), byte(i >> 8)}, slot, Account{Lamports: slot, Data: make([]byte, 64)})
		}
		if err := b.Commit(true); err != nil {
			t.Fatal(err)
		}
		if err := s.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	before, err := countKeys(t, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	ssts, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	sort.Strings(ssts)
	if len(ssts) < 2 {
		t.Fatalf("%d tables", len(ssts))
	}
	raw, err := os.ReadFile(ssts[0])
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		raw[len(raw)/3+i] ^= 0xa5
	}
	if err := os.WriteFile(ssts[0], raw, 0o644); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	var reported []error
	s, err = Open(dir, Options{OnError: func(err error) { mu.Lock(); reported = append(reported, err); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.db.Compact(context.Background(), []byte{0}, []byte{0xff}, false); err == nil {
		t.Error("a compaction over a damaged table succeeded")
	}
	if n, err := countKeys(t, s); err == nil && n != before {
		t.Errorf("%d of %d keys left without an error", n, before)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reported) == 0 {
		t.Fatal("the failed compaction did not reach OnError")
	}
	if !IsCorruption(reported[0]) {
		t.Errorf("reported %v, want a corruption", reported[0])
	}
}
