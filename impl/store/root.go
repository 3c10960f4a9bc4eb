package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

type rootStats struct {
	accounts        int // accounts examined
	versionsDeleted int
	indexesDeleted  int
}

// Root records that rootSlot is rooted (finalized) and prunes what no read at or above it can see:
//
//   - for each account written since the previous Root, every version older than its newest version at or below
//     rootSlot; that version too when it records a deletion;
//   - the index entries of those accounts that no version from that one on asserts (see Batch.AddIndex).
//
// Reads at slots below rootSlot may see pruned history afterwards. Root visits only the accounts written since
// the previous Root (the d key space), sets MetaRoot, and commits with sync: it is the durability point of the
// finalized slot (see the package comment). A rootSlot at or below the previous one is a no-op.
func (s *Store) Root(rootSlot uint64) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if rootSlot < s.dirtyFloor {
		return nil
	}
	b := s.db.NewBatch()
	defer b.Close()
	stats, err := s.prune(b, rootSlot)
	if err != nil {
		return err
	}
	floor := rootSlot + 1
	if err := errors.Join(
		b.Set(metaKey(MetaRoot), binary.BigEndian.AppendUint64(nil, rootSlot), nil),
		b.Set(metaKey(metaDirtyFloor), binary.BigEndian.AppendUint64(nil, floor), nil),
	); err != nil {
		return err
	}
	if err := s.commit(b, pebble.Sync); err != nil { // the space reserve and pebble's fatal errors, as Batch.Commit
		return err
	}
	s.dirtyFloor = floor
	s.rootStats = stats
	return nil
}

// prune adds to b the deletions of Root(rootSlot). The caller holds writeMu.
func (s *Store) prune(b *pebble.Batch, rootSlot uint64) (st rootStats, err error) {
	// Collect the dirty accounts of slots [dirtyFloor, rootSlot], deleting their entries. The scan starts at the
	// floor, so it never walks over the tombstones of entries deleted by earlier Roots.
	dirty, err := s.db.NewIter(&pebble.IterOptions{
		LowerBound: dirtyKey(s.dirtyFloor, &Pubkey{}),
		UpperBound: dirtyUpper(rootSlot),
	})
	if err != nil {
		return st, err
	}
	var pubkeys []Pubkey
	for valid := dirty.First(); valid; valid = dirty.Next() {
		k := dirty.Key()
		if len(k) != dirtyKeyLen {
			return st, errors.Join(errCorrupt, dirty.Close())
		}
		pubkeys = append(pubkeys, Pubkey(k[9:]))
		if err := b.Delete(k, nil); err != nil {
			return st, errors.Join(err, dirty.Close())
		}
	}
	if err := errors.Join(dirty.Error(), dirty.Close()); err != nil {
		return st, err
	}
	slices.SortFunc(pubkeys, func(a, b Pubkey) int { return bytes.Compare(a[:], b[:]) })
	pubkeys = slices.Compact(pubkeys)

	it, err := s.db.NewIter(nil)
	if err != nil {
		return st, err
	}
	defer func() { err = errors.Join(err, it.Close()) }()
	for i := range pubkeys {
		if err := pruneAccount(b, it, &pubkeys[i], rootSlot, &st); err != nil {
			return st, err
		}
	}
	return st, nil
}

func dirtyUpper(rootSlot uint64) []byte {
	if rootSlot == ^uint64(0) {
		return []byte{spaceDirty + 1}
	}
	return binary.BigEndian.AppendUint64([]byte{spaceDirty}, rootSlot+1)
}

// pruneAccount deletes the shadowed versions and the stale index entries of pubkey at rootSlot.
func pruneAccount(b *pebble.Batch, it *pebble.Iterator, pubkey *Pubkey, rootSlot uint64, st *rootStats) error {
	st.accounts++
	if !it.SeekPrefixGE(accountKey(pubkey, rootSlot)) {
		return it.Error() // no version at or below the root: nothing is shadowed
	}
	kept := accountKeySlot(it.Key())
	v, err := it.ValueAndErr()
	if err != nil {
		return err
	}
	// Index entries asserted before the kept version are stale; so are those asserted by a kept deletion.
	staleBelow := kept
	if len(v) > 0 && v[0] == formatTombstone {
		// A deletion at or below the root reads the same as no version at all, for every read the root allows.
		if err := b.Delete(it.Key(), nil); err != nil {
			return err
		}
		st.versionsDeleted++
		staleBelow = kept + 1
	}
	for it.Next() {
		if err := b.Delete(it.Key(), nil); err != nil {
			return err
		}
		st.versionsDeleted++
	}
	if err := it.Error(); err != nil {
		return err
	}

	prefix := append([]byte{spaceReverse}, pubkey[:]...)
	for valid := it.SeekGE(prefix); valid && bytes.HasPrefix(it.Key(), prefix); valid = it.Next() {
		k := it.Key()
		v, err := it.ValueAndErr()
		if err != nil {
			return err
		}
		if len(k) != reverseKeyLen || len(v) != 8 {
			return errCorrupt
		}
		if binary.BigEndian.Uint64(v) >= staleBelow {
			continue
		}
		kind, key := IndexKind(k[33]), Pubkey(k[34:])
		if err := errors.Join(b.Delete(k, nil), b.Delete(indexKey(kind, &key, pubkey), nil)); err != nil {
			return err
		}
		st.indexesDeleted++
	}
	return it.Error()
}
