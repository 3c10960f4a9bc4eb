package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// RevertedTx names a stored transaction that a revert deletes, with the addresses whose signature lists hold it.
type RevertedTx struct {
	Sig   Signature
	Slot  uint64
	Index uint32
	Addrs []Pubkey
}

// RevertAbove deletes, in one synced batch, everything written at slots above slot: every account version (the
// d space names the accounts written since the last Root, so the cost follows the writes since slot, not the
// number of accounts), every block, and the transactions txs with their signature-list entries; metas are set
// in the same batch. Index entries asserted only by deleted versions stay, as stale candidates readers re-check.
// It returns the accounts whose versions it deleted. It fails when Root already examined a slot above slot: the versions a read at slot needs may be pruned.
func (s *Store) RevertAbove(slot uint64, txs []RevertedTx, metas map[string][]byte) (reverted []Pubkey, err error) {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.dirtyFloor > slot+1 {
		return nil, fmt.Errorf("store: cannot revert to slot %d: slots up to %d are already pruned", slot, s.dirtyFloor-1)
	}
	b := s.db.NewBatch()
	defer b.Close()
	dirty, err := s.db.NewIter(&pebble.IterOptions{
		LowerBound: dirtyKey(slot+1, &Pubkey{}),
		UpperBound: []byte{spaceDirty + 1},
	})
	if err != nil {
		return nil, err
	}
	var pubkeys []Pubkey
	for valid := dirty.First(); valid; valid = dirty.Next() {
		k := dirty.Key()
		if len(k) != dirtyKeyLen {
			return nil, errors.Join(errCorrupt, dirty.Close())
		}
		pubkeys = append(pubkeys, Pubkey(k[9:]))
	}
	if err := errors.Join(dirty.Error(), dirty.Close()); err != nil {
		return nil, err
	}
	slices.SortFunc(pubkeys, func(a, b Pubkey) int { return bytes.Compare(a[:], b[:]) })
	pubkeys = slices.Compact(pubkeys)
	var errs []error
	errs = append(errs, b.DeleteRange(dirtyKey(slot+1, &Pubkey{}), []byte{spaceDirty + 1}, nil))
	for i := range pubkeys {
		// Versions sort newest first: [newest possible, slot) is every version above slot.
		errs = append(errs, b.DeleteRange(accountKey(&pubkeys[i], ^uint64(0)), accountKey(&pubkeys[i], slot), nil))
	}
	errs = append(errs, b.DeleteRange(blockKey(slot+1), []byte{spaceBlock + 1}, nil))
	for i := range txs {
		t := &txs[i]
		errs = append(errs, b.Delete(txKey(&t.Sig), nil))
		for j := range t.Addrs {
			errs = append(errs, b.Delete(sigKey(&t.Addrs[j], t.Slot, t.Index), nil))
		}
	}
	for name, v := range metas {
		errs = append(errs, b.Set(metaKey(name), v, nil))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := s.commit(b, pebble.Sync); err != nil {
		return nil, err
	}
	return pubkeys, nil
}

// RevertableFrom is the lowest slot RevertAbove can still revert to.
func (s *Store) RevertableFrom() uint64 {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.dirtyFloor == 0 {
		return 0
	}
	return s.dirtyFloor - 1
}
