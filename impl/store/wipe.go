package store

import (
	"github.com/cockroachdb/pebble/v2"
)

// Wipe deletes everything the store holds, in one synced batch, leaving it as a new store: a chain reset to its
// genesis (surfnet_resetNetwork) writes its genesis again afterwards. Every key opens with an ASCII space tag,
// so one range deletion covers them all; compactions reclaim the space later.
func (s *Store) Wipe() error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	if err := b.DeleteRange([]byte{0}, []byte{0xff}, nil); err != nil {
		return err
	}
	if err := s.commit(b, pebble.Sync); err != nil {
		return err
	}
	s.dirtyFloor = 0
	return nil
}
