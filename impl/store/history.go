package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"

	"github.com/cockroachdb/pebble/v2"
)

// TxRecord is a stored transaction: where it landed and the bytes the ledger encoded for it.
type TxRecord struct {
	Slot  uint64
	Index uint32 // position in its block
	Data  []byte // opaque transaction+status encoding, owned by the caller
}

// SigEntry is one entry of an address's signature list.
type SigEntry struct {
	Signature Signature
	Slot      uint64
	Index     uint32
}

// SigCursor is a position in an address's signature list (newest first): SignaturesForAddress returns the
// entries strictly older than it. To page after a signature, use its TxRecord's Slot and Index. To hide slots
// above S (a commitment level), use SigCursor{Slot: S + 1, Index: 0}.
type SigCursor struct {
	Slot  uint64
	Index uint32
}

// get returns a copy of the value of k.
func (s *Store) get(k []byte) ([]byte, bool, error) {
	v, closer, err := s.db.Get(k)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	out := bytes.Clone(v)
	if out == nil {
		out = []byte{}
	}
	return out, true, closer.Close()
}

// GetBlock returns the block stored for slot.
func (s *Store) GetBlock(slot uint64) (block []byte, found bool, err error) {
	return s.get(blockKey(slot))
}

// BlocksInRange returns, ascending, the slots in [start, end] (end inclusive) that have a block, at most limit of
// them (limit <= 0: no limit).
func (s *Store) BlocksInRange(start, end uint64, limit int) ([]uint64, error) {
	if end < start {
		return nil, nil
	}
	upper := []byte{spaceBlock + 1}
	if end != math.MaxUint64 {
		upper = blockKey(end + 1)
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: blockKey(start), UpperBound: upper})
	if err != nil {
		return nil, err
	}
	var slots []uint64
	for valid := it.First(); valid && (limit <= 0 || len(slots) < limit); valid = it.Next() {
		slots = append(slots, binary.BigEndian.Uint64(it.Key()[1:]))
	}
	return slots, errors.Join(it.Error(), it.Close())
}

// FirstBlock returns the lowest slot that has a block.
func (s *Store) FirstBlock() (slot uint64, found bool, err error) {
	return s.edgeBlock(true)
}

// LastBlock returns the highest slot that has a block.
func (s *Store) LastBlock() (slot uint64, found bool, err error) {
	return s.edgeBlock(false)
}

func (s *Store) edgeBlock(first bool) (uint64, bool, error) {
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: []byte{spaceBlock}, UpperBound: []byte{spaceBlock + 1}})
	if err != nil {
		return 0, false, err
	}
	var valid bool
	if first {
		valid = it.First()
	} else {
		valid = it.Last()
	}
	var slot uint64
	if valid {
		slot = binary.BigEndian.Uint64(it.Key()[1:])
	}
	return slot, valid, errors.Join(it.Error(), it.Close())
}

// GetTransaction returns the transaction stored under sig.
func (s *Store) GetTransaction(sig Signature) (rec TxRecord, found bool, err error) {
	v, found, err := s.get(txKey(&sig))
	if err != nil || !found {
		return TxRecord{}, false, err
	}
	if len(v) < 12 {
		return TxRecord{}, false, errors.New("store: corrupt transaction value")
	}
	return TxRecord{
		Slot:  binary.BigEndian.Uint64(v),
		Index: binary.BigEndian.Uint32(v[8:]),
		Data:  v[12:],
	}, true, nil
}

// SignaturesForAddress returns up to limit (limit <= 0: all) signatures that touched addr, newest first (by slot,
// then by index in block), starting strictly after before when it is not nil. Cost: one seek and limit steps.
func (s *Store) SignaturesForAddress(addr Pubkey, before *SigCursor, limit int) ([]SigEntry, error) {
	prefix := append([]byte{spaceSigs}, addr[:]...)
	lower := prefix
	if before != nil {
		// Keys are newest first, so "older than the cursor" is "greater than its key"; the cursor's own key plus
		// a zero byte is the smallest such key.
		lower = append(sigKey(&addr, before.Slot, before.Index), 0)
	}
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: prefixEnd(prefix)})
	if err != nil {
		return nil, err
	}
	var out []SigEntry
	for valid := it.First(); valid && (limit <= 0 || len(out) < limit); valid = it.Next() {
		k, v := it.Key(), it.Value()
		if len(k) != sigKeyLen || len(v) != 64 {
			return out, errors.Join(errors.New("store: corrupt signature entry"), it.Close())
		}
		var e SigEntry
		copy(e.Signature[:], v)
		e.Slot = ^binary.BigEndian.Uint64(k[33:])
		e.Index = ^binary.BigEndian.Uint32(k[41:])
		out = append(out, e)
	}
	return out, errors.Join(it.Error(), it.Close())
}
