package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/cockroachdb/pebble/v2"
)

// Account is one version of an account. A version with zero lamports records a deletion.
type Account struct {
	Lamports   uint64
	Owner      [32]byte
	Executable bool
	RentEpoch  uint64
	Data       []byte
}

// Account value encoding. The first byte names the format:
//
//	0 tombstone: the account was deleted at this slot; nothing follows.
//	1 account:   flags[1] | uvarint lamports | owner[32] unless flagSystemOwner
//	             | uvarint rentEpoch unless flagRentEpochMax | data (the rest of the value).
//
// The flags drop the two fields that are almost always the same: most accounts are owned by the system program
// (the all-zero pubkey) and rent-exempt accounts carry rentEpoch = 2^64-1.
const (
	formatTombstone = 0
	formatAccount   = 1

	flagExecutable   = 1 << 0
	flagSystemOwner  = 1 << 1
	flagRentEpochMax = 1 << 2
	flagsKnown       = flagExecutable | flagSystemOwner | flagRentEpochMax
)

var errCorrupt = errors.New("store: corrupt account value")

// appendAccount appends the encoding of a to dst.
func appendAccount(dst []byte, a *Account) []byte {
	if a.Lamports == 0 {
		return append(dst, formatTombstone)
	}
	var flags byte
	if a.Executable {
		flags |= flagExecutable
	}
	if a.Owner == ([32]byte{}) {
		flags |= flagSystemOwner
	}
	if a.RentEpoch == math.MaxUint64 {
		flags |= flagRentEpochMax
	}
	dst = append(dst, formatAccount, flags)
	dst = binary.AppendUvarint(dst, a.Lamports)
	if flags&flagSystemOwner == 0 {
		dst = append(dst, a.Owner[:]...)
	}
	if flags&flagRentEpochMax == 0 {
		dst = binary.AppendUvarint(dst, a.RentEpoch)
	}
	return append(dst, a.Data...)
}

func encodedAccountLen(a *Account) int {
	return 2 + binary.MaxVarintLen64*2 + 32 + len(a.Data)
}

// decodeAccount decodes v. deleted reports a tombstone. The returned Data never aliases v.
func decodeAccount(v []byte) (a Account, deleted bool, err error) {
	if len(v) == 0 {
		return a, false, errCorrupt
	}
	switch v[0] {
	case formatTombstone:
		if len(v) != 1 {
			return a, false, errCorrupt
		}
		return a, true, nil
	case formatAccount:
	default:
		return a, false, fmt.Errorf("store: unknown account format %d", v[0])
	}
	if len(v) < 2 || v[1]&^flagsKnown != 0 {
		return a, false, errCorrupt
	}
	flags, rest := v[1], v[2:]
	var n int
	if a.Lamports, n = binary.Uvarint(rest); n <= 0 || a.Lamports == 0 {
		return Account{}, false, errCorrupt
	}
	rest = rest[n:]
	if flags&flagSystemOwner == 0 {
		if len(rest) < 32 {
			return Account{}, false, errCorrupt
		}
		copy(a.Owner[:], rest)
		rest = rest[32:]
	}
	if flags&flagRentEpochMax == 0 {
		if a.RentEpoch, n = binary.Uvarint(rest); n <= 0 || a.RentEpoch == math.MaxUint64 {
			return Account{}, false, errCorrupt
		}
		rest = rest[n:]
	} else {
		a.RentEpoch = math.MaxUint64
	}
	a.Executable = flags&flagExecutable != 0
	if len(rest) > 0 {
		a.Data = bytes.Clone(rest)
	}
	return a, false, nil
}

// GetAccount returns the newest version of pubkey at or below atSlot and the slot that wrote it. found is false
// when there is no such version or it records a deletion (then slot is the deleting slot, or 0 when there is no
// version at all). One SeekPrefixGE, none when the read cache holds the account (executable accounts and large
// ones, in their newest version; see readCache). The returned Data may be shared with other readers: it must not
// be modified.
func (s *Store) GetAccount(pubkey Pubkey, atSlot uint64) (acct Account, slot uint64, found bool, err error) {
	if a, slot, ok := s.reads.get(&pubkey, atSlot); ok {
		return a, slot, true, nil
	}
	gen := s.reads.generation()
	it, err := s.db.NewIter(nil)
	if err != nil {
		return Account{}, 0, false, err
	}
	acct, slot, found, err = seekAccount(it, &pubkey, atSlot, true)
	if err == nil && found && cacheable(&acct) {
		// Readers share the bytes: an append by one must not write into spare capacity the others hold.
		acct.Data = acct.Data[:len(acct.Data):len(acct.Data)]
		// Only the newest version may be cached: a read below the slot of a newer one must not find it. The
		// same iterator sees the same state of the store.
		if atSlot == math.MaxUint64 {
			s.reads.put(&pubkey, slot, acct, gen)
		} else if it.SeekPrefixGE(accountKey(&pubkey, math.MaxUint64)) && accountKeySlot(it.Key()) == slot {
			s.reads.put(&pubkey, slot, acct, gen)
		}
		err = it.Error()
	}
	return acct, slot, found, errors.Join(err, it.Close())
}

// seekAccount positions it on the newest version of pubkey at or below atSlot and decodes it. A lone read
// seeks by prefix, so bloom filters skip the tables without pubkey; a run of reads in ascending pubkey order (a
// merge join against an index) seeks plainly: its candidates exist, so filters would only cost a filter block
// read per seek, while ascending plain seeks step through data blocks already loaded.
func seekAccount(it *pebble.Iterator, pubkey *Pubkey, atSlot uint64, byPrefix bool) (Account, uint64, bool, error) {
	key := accountKey(pubkey, atSlot)
	if byPrefix {
		if !it.SeekPrefixGE(key) {
			return Account{}, 0, false, it.Error()
		}
	} else if !it.SeekGE(key) || !bytes.HasPrefix(it.Key(), key[:accountPrefLen]) {
		return Account{}, 0, false, it.Error()
	}
	slot := accountKeySlot(it.Key())
	v, err := it.ValueAndErr()
	if err != nil {
		return Account{}, 0, false, err
	}
	acct, deleted, err := decodeAccount(v)
	if err != nil || deleted {
		return Account{}, slot, false, err
	}
	return acct, slot, true, nil
}

// ScanAccounts calls fn, in pubkey order, with the newest live version at or below atSlot of every account; fn
// returns false to stop. It reads the whole account space: for startup and whole-ledger queries, not per request.
func (s *Store) ScanAccounts(atSlot uint64, fn func(pubkey Pubkey, slot uint64, acct Account) bool) error {
	it, err := s.db.NewIter(&pebble.IterOptions{
		LowerBound: []byte{spaceAccount},
		UpperBound: []byte{spaceAccount + 1},
	})
	if err != nil {
		return err
	}
	err = scanAccounts(it, atSlot, fn)
	return errors.Join(err, it.Close())
}

func scanAccounts(it *pebble.Iterator, atSlot uint64, fn func(Pubkey, uint64, Account) bool) error {
	var pubkey Pubkey
	valid := it.First()
	for valid {
		k := it.Key()
		if len(k) != accountKeyLen {
			return errCorrupt
		}
		copy(pubkey[:], k[1:accountPrefLen])
		slot := accountKeySlot(k)
		if slot > atSlot {
			// Versions of one account are newest first: jump past the ones above atSlot.
			if !it.SeekGE(accountKey(&pubkey, atSlot)) {
				break
			}
			if !bytes.Equal(it.Key()[1:accountPrefLen], pubkey[:]) {
				continue // no version at or below atSlot; the iterator is on the next account
			}
			slot = accountKeySlot(it.Key())
		}
		v, err := it.ValueAndErr()
		if err != nil {
			return err
		}
		acct, deleted, err := decodeAccount(v)
		if err != nil {
			return err
		}
		if !deleted && !fn(pubkey, slot, acct) {
			return nil
		}
		valid = it.NextPrefix()
	}
	return it.Error()
}

// ProgramAccounts calls fn, in pubkey order, with every account owned by owner at atSlot; fn returns false to stop.
// Candidates come from the owner index and each is re-read at atSlot, so stale candidates are dropped and the
// cost follows the number of candidates of this owner, not the number of accounts.
func (s *Store) ProgramAccounts(owner Pubkey, atSlot uint64, fn func(pubkey Pubkey, acct Account) bool) error {
	prefix := indexPrefix(IndexProgramOwner, &owner)
	idx, err := s.db.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixEnd(prefix)})
	if err != nil {
		return err
	}
	accts, err := s.db.NewIter(&pebble.IterOptions{
		LowerBound: []byte{spaceAccount},
		UpperBound: []byte{spaceAccount + 1},
	})
	if err != nil {
		return errors.Join(err, idx.Close())
	}
	err = func() error {
		var pubkey Pubkey
		for valid := idx.First(); valid; valid = idx.Next() {
			k := idx.Key()
			if len(k) != len(prefix)+32 {
				return errCorrupt
			}
			copy(pubkey[:], k[len(prefix):])
			acct, _, found, err := seekAccount(accts, &pubkey, atSlot, false)
			if err != nil {
				return err
			}
			if found && acct.Owner == owner && !fn(pubkey, acct) {
				return nil
			}
		}
		return idx.Error()
	}()
	return errors.Join(err, accts.Close(), idx.Close())
}
