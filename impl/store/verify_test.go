package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/record"
)

// fillStore writes n accounts of 200 bytes over a few batches and flushes them into tables.
func fillStore(tb testing.TB, s *Store, n int) {
	tb.Helper()
	for i := 0; i < n; {
		b := s.NewBatch()
		for end := min(i+1000, n); i < end; i++ {
			var k Pubkey
			binary.BigEndian.PutUint64(k[:], uint64(i))
			data := make([]byte, 200)
			for j := range data {
				data[j] = byte(uint32(i*131+j*7919) >> 3) // not all zeros: tables hold what accounts take
			}
			b.PutAccount(k, uint64(i/1000), Account{Lamports: uint64(i) + 1, Data: data})
		}
		if err := b.Commit(false); err != nil {
			tb.Fatal(err)
		}
	}
	if err := s.Flush(); err != nil {
		tb.Fatal(err)
	}
}

func TestVerifyFindsADamagedTable(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fillStore(t, s, 5000)
	st, err := s.Verify()
	if err != nil || st.Points < 5000 {
		t.Fatalf("verify of a sound store: %+v, %v", st, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	tables, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	if len(tables) == 0 {
		t.Fatal("no table")
	}
	raw, err := os.ReadFile(tables[0])
	if err != nil {
		t.Fatal(err)
	}
	for i := range 4 {
		raw[len(raw)/3+i] ^= 0x5a
	}
	if err := os.WriteFile(tables[0], raw, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Verify(); err == nil || !IsCorruption(err) {
		t.Fatalf("verify of a damaged table: %v (corruption: %v)", err, IsCorruption(err))
	}
}

// Pebble refuses to open a store whose older write-ahead log is damaged (the newest is replayed up to the
// damage instead) with the log reader's error wrapped: that is damage, as a corruption error is; a missing
// permission or a held lock is not.
func TestIsCorruption(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("pebble: error when replaying WAL: %w", record.ErrInvalidChunk), true},
		{fmt.Errorf("replaying: %w", record.ErrZeroedChunk), true},
		{fmt.Errorf("table: %w", pebble.ErrCorruption), true},
		{errCorrupt, true},
		{os.ErrPermission, false},
		{errors.New("resource temporarily unavailable"), false},
		{nil, false},
	} {
		if got := IsCorruption(c.err); got != c.want {
			t.Errorf("IsCorruption(%v) = %v", c.err, got)
		}
	}
}

// BenchmarkVerify reads a store of 100,000 accounts of 200 bytes per iteration; it reports the tables' size.
func BenchmarkVerify(b *testing.B) {
	dir := b.TempDir()
	s, err := Open(dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	fillStore(b, s, 100_000)
	tables, _ := filepath.Glob(filepath.Join(dir, "*.sst"))
	var size int64
	for _, t := range tables {
		if st, err := os.Stat(t); err == nil {
			size += st.Size()
		}
	}
	b.SetBytes(size)
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Verify(); err != nil {
			b.Fatal(err)
		}
	}
}
