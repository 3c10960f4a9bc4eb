package store

import (
	"path/filepath"
	"reflect"
	"testing"
)

// A checkpoint opens as a store of its own: it holds every committed batch (synced or not), and later writes to
// the source do not reach it.
func TestCheckpointRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := Open(filepath.Join(dir, "db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	alice, owner := pk(1), pk(7)
	b := s.NewBatch()
	b.PutAccount(alice, 5, acct(100, owner, "v5"))
	b.SetMetaU64("tip", 5)
	commit(t, b, true)
	b = s.NewBatch()
	b.PutAccount(alice, 6, acct(200, owner, "v6")) // unsynced: the checkpoint must still hold it
	b.PutBlock(6, []byte("block 6"))
	commit(t, b, false)

	cp := filepath.Join(dir, "snapshot", "accounts")
	if err := s.Checkpoint(cp); err != nil {
		t.Fatal(err)
	}
	if err := s.Checkpoint(cp); err == nil {
		t.Error("a checkpoint into an existing directory succeeded")
	}
	b = s.NewBatch()
	b.PutAccount(alice, 7, acct(300, owner, "v7"))
	commit(t, b, true)

	c, err := Open(cp, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tests := []struct {
		at       uint64
		want     Account
		wantSlot uint64
	}{
		{5, acct(100, owner, "v5"), 5},
		{6, acct(200, owner, "v6"), 6},
		{100, acct(200, owner, "v6"), 6}, // slot 7 was written after the checkpoint
	}
	for _, tt := range tests {
		got, slot, found, err := c.GetAccount(alice, tt.at)
		if err != nil || !found || slot != tt.wantSlot || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("checkpoint GetAccount at %d = %+v slot %d found %v err %v; want %+v slot %d",
				tt.at, got, slot, found, err, tt.want, tt.wantSlot)
		}
	}
	if tip, found, err := c.GetMetaU64("tip"); err != nil || !found || tip != 5 {
		t.Errorf("checkpoint meta tip = %d, %v, %v; want 5", tip, found, err)
	}
	if blk, found, err := c.GetBlock(6); err != nil || !found || string(blk) != "block 6" {
		t.Errorf("checkpoint block 6 = %q, %v, %v", blk, found, err)
	}
	// The source goes on independently.
	if got, _, _, _ := s.GetAccount(alice, 100); got.Lamports != 300 {
		t.Errorf("source after checkpoint: lamports %d, want 300", got.Lamports)
	}
}

func TestCheckpointClosed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := Open(filepath.Join(dir, "db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := s.Checkpoint(filepath.Join(dir, "cp")); err == nil {
		t.Error("checkpoint of a closed store succeeded")
	}
}
