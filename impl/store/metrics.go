package store

import "github.com/cockroachdb/pebble/v2"

// Metrics returns pebble's metrics of the database (its disk use, compaction debt and read amplification, which
// the node's /metrics exposes), nil once the store is closed. It waits for a commit in progress, never for long.
func (s *Store) Metrics() *pebble.Metrics {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.db == nil {
		return nil
	}
	return s.db.Metrics()
}
