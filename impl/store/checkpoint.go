package store

import (
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// Checkpoint writes a consistent copy of the whole database into dir, which must not exist yet: every batch
// committed before the call is in it (the write-ahead log is synced first, since slots commit without sync), and
// none is in it by halves. Open(dir) opens the copy as a store of its own.
//
// Table files are hard-linked where the file system allows, so a checkpoint is cheap in time and, until
// compactions replace the linked tables, in space. Commits go on meanwhile; the checkpoint must not overlap
// Close.
func (s *Store) Checkpoint(dir string) error {
	s.writeMu.Lock()
	db := s.db
	s.writeMu.Unlock()
	if db == nil {
		return errors.New("store: checkpoint of a closed store")
	}
	if err := db.Checkpoint(dir, pebble.WithFlushedWAL()); err != nil {
		return fmt.Errorf("store: checkpoint to %s: %w", dir, err)
	}
	return nil
}
