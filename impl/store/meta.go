package store

import (
	"encoding/binary"
	"fmt"
)

// Metadata names. Values are opaque bytes unless marked u64 (8 bytes, big-endian; use SetMetaU64 / GetMetaU64).
// Names starting with "store." are the store's own bookkeeping.
const (
	MetaRoot             = "root"              // u64: latest rooted (finalized) slot; written by Root
	MetaFrozen           = "frozen"            // u64: latest frozen (confirmed) slot
	MetaBlockHeight      = "block-height"      // u64: block height of the latest frozen slot
	MetaTransactionCount = "tx-count"          // u64: transactions processed up to the latest frozen slot
	MetaGenesis          = "genesis"           // the ledger's genesis description (opaque)
	metaDirtyFloor       = "store.dirty-floor" // u64: every d-entry below this slot has been processed by Root
)

// GetMeta returns the value stored under name.
func (s *Store) GetMeta(name string) (value []byte, found bool, err error) {
	return s.get(metaKey(name))
}

// GetMetaU64 returns the u64 stored under name with SetMetaU64.
func (s *Store) GetMetaU64(name string) (v uint64, found bool, err error) {
	b, found, err := s.get(metaKey(name))
	if err != nil || !found {
		return 0, false, err
	}
	if len(b) != 8 {
		return 0, false, fmt.Errorf("store: meta %q is %d bytes, not a u64", name, len(b))
	}
	return binary.BigEndian.Uint64(b), true, nil
}

// LatestRoot returns the slot of the latest Root call that committed.
func (s *Store) LatestRoot() (slot uint64, found bool, err error) {
	return s.GetMetaU64(MetaRoot)
}
