package store

import (
	"github.com/cockroachdb/pebble/v2"
)

// AddrAt is one entry of an address's signature list.
type AddrAt struct {
	Addr  Pubkey
	Slot  uint64
	Index uint32
}

// PruneHistory deletes, in one synced batch, the blocks of the slots below `below`, the transactions sigs
// (theirs) and the signature-list entries addrs (theirs): the history a bounded ledger lets go once it is
// older than what it keeps. Accounts are untouched.
func (s *Store) PruneHistory(below uint64, sigs []Signature, addrs []AddrAt) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	b := s.db.NewBatch()
	defer b.Close()
	if err := b.DeleteRange(blockKey(0), blockKey(below), nil); err != nil {
		return err
	}
	for i := range sigs {
		if err := b.Delete(txKey(&sigs[i]), nil); err != nil {
			return err
		}
	}
	for i := range addrs {
		if err := b.Delete(sigKey(&addrs[i].Addr, addrs[i].Slot, addrs[i].Index), nil); err != nil {
			return err
		}
	}
	return s.commit(b, pebble.Sync)
}
