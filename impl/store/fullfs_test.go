package store

import (
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
)

func commitSlot(s *Store, slot uint64) error {
	b := s.NewBatch()
	b.PutAccount(Pubkey{1}, slot, Account{Lamports: slot})
	b.PutBlock(slot, []byte{byte(slot)})
	return b.Commit(true)
}

// A full disk fails a commit at once with ENOSPC, before pebble's write-ahead log sees it, and the store takes
// writes again, nothing lost, once there is room.
func TestDiskFullFailsFastAndRecovers(t *testing.T) {
	fs := NewFullFS(vfs.Default)
	dir := t.TempDir() + "/db"
	var bg []error
	s, err := Open(dir, Options{FS: fs, OnError: func(err error) { bg = append(bg, err) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := commitSlot(s, 1); err != nil {
		t.Fatal(err)
	}
	fs.SetFull(true)
	start := time.Now()
	for slot := uint64(2); slot < 5; slot++ {
		if err := commitSlot(s, slot); !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("commit on a full disk: %v, want ENOSPC", err)
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("three refused commits took %v", d)
	}
	if a, _, found, err := s.GetAccount(Pubkey{1}, 10); err != nil || !found || a.Lamports != 1 {
		t.Fatalf("read on a full disk: %+v %v %v", a, found, err)
	}
	fs.SetFull(false)
	if err := commitSlot(s, 5); err != nil {
		t.Fatalf("commit once there is room: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if a, slot, found, err := s.GetAccount(Pubkey{1}, 10); err != nil || !found || a.Lamports != 5 || slot != 5 {
		t.Fatalf("after reopening: %+v slot %d %v %v", a, slot, found, err)
	}
	if len(bg) != 0 {
		t.Errorf("background errors: %v", bg)
	}
}

// A write that fails inside pebble (a file system that cannot report its free space, so the reserve is not
// checked) is pebble's fatal commit error: the store turns it into a permanent write error, reported to
// OnError, instead of a panic, and reads keep working.
func TestFailedWALWriteIsAnErrorNotAPanic(t *testing.T) {
	fs := NewFullFS(vfs.NewMem())
	var bg []error
	s, err := Open("db", Options{FS: fs, OnError: func(err error) { bg = append(bg, err) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := commitSlot(s, 1); err != nil {
		t.Fatal(err)
	}
	fs.SetFull(true)
	err = commitSlot(s, 2)
	if err == nil {
		t.Fatal("a commit whose log write failed succeeded")
	}
	if len(bg) == 0 {
		t.Error("the fatal error was not reported to OnError")
	}
	fs.SetFull(false)
	if err2 := commitSlot(s, 3); err2 == nil || err2.Error() != err.Error() {
		t.Errorf("a commit after pebble's fatal error: %v, want %v", err2, err)
	}
	if _, _, _, err := s.GetAccount(Pubkey{1}, 10); err != nil {
		t.Errorf("read after the failed write: %v", err)
	}
}
