package store

import (
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// IndexKind names a secondary index: the key an account is found by.
type IndexKind byte

// The secondary indexes. The byte values are stored in keys: never renumber them.
const (
	// IndexProgramOwner finds accounts by owning program. PutAccount maintains it; AddIndex need not be called.
	IndexProgramOwner IndexKind = 'p'
	// IndexTokenOwner finds token accounts by the wallet that owns them.
	IndexTokenOwner IndexKind = 'o'
	// IndexTokenMint finds token accounts by mint.
	IndexTokenMint IndexKind = 'm'
	// IndexTokenDelegate finds token accounts by delegate.
	IndexTokenDelegate IndexKind = 'd'
)

func (k IndexKind) valid() bool {
	switch k {
	case IndexProgramOwner, IndexTokenOwner, IndexTokenMint, IndexTokenDelegate:
		return true
	}
	return false
}

func (k IndexKind) String() string {
	switch k {
	case IndexProgramOwner:
		return "program-owner"
	case IndexTokenOwner:
		return "token-owner"
	case IndexTokenMint:
		return "token-mint"
	case IndexTokenDelegate:
		return "token-delegate"
	}
	return fmt.Sprintf("IndexKind(%d)", byte(k))
}

// IndexScan calls fn, in pubkey order, with every candidate account filed under (kind, key); fn returns false to
// stop. Candidates may be stale: the caller re-reads each account at its slot and checks that it still matches.
func (s *Store) IndexScan(kind IndexKind, key Pubkey, fn func(pubkey Pubkey) bool) error {
	if !kind.valid() {
		return fmt.Errorf("store: unknown index kind %v", kind)
	}
	prefix := indexPrefix(kind, &key)
	it, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixEnd(prefix)})
	if err != nil {
		return err
	}
	err = func() error {
		var pubkey Pubkey
		for valid := it.First(); valid; valid = it.Next() {
			k := it.Key()
			if len(k) != len(prefix)+32 {
				return errCorrupt
			}
			copy(pubkey[:], k[len(prefix):])
			if !fn(pubkey) {
				return nil
			}
		}
		return it.Error()
	}()
	return errors.Join(err, it.Close())
}
