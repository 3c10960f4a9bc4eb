package store

import (
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/record"
)

// VerifyStats says what Verify read.
type VerifyStats struct {
	Points     int64 // point keys read, every version and deletion included
	Tombstones int   // range deletions read
}

// Verify reads every entry of every table and memtable of the database, so that each block's checksum is
// checked, and checks that the levels are consistent (keys ordered, newer versions above older ones). It costs
// one read of the whole database: it is meant for a start on demand (--verify-ledger), not for every start.
// A damaged table is reported as an error for which IsCorruption holds.
func (s *Store) Verify() (VerifyStats, error) {
	s.writeMu.Lock()
	db := s.db
	s.writeMu.Unlock()
	if db == nil {
		return VerifyStats{}, errors.New("store: verify of a closed store")
	}
	var st pebble.CheckLevelsStats
	if err := db.CheckLevels(&st); err != nil {
		return VerifyStats{Points: st.NumPoints, Tombstones: st.NumTombstones}, fmt.Errorf("store: verify: %w", err)
	}
	return VerifyStats{Points: st.NumPoints, Tombstones: st.NumTombstones}, nil
}

// IsCorruption reports whether err says that the database's files are damaged (a table or log that fails its
// checksum or does not parse), as opposed to an error of the environment (permissions, a lock, a full disk).
func IsCorruption(err error) bool {
	return pebble.IsCorruptionError(err) || errors.Is(err, record.ErrInvalidChunk) ||
		errors.Is(err, record.ErrZeroedChunk) || errors.Is(err, errCorrupt)
}
