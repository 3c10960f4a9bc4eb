package store

// Key layout.
//
// Every key opens with one ASCII byte naming its space. Integers are big-endian, so byte order is numeric order;
// ^x is the bitwise complement of x, so within a space a larger x sorts first. Fixed widths everywhere, so no
// separators are needed and a prefix of a key is a prefix of exactly the keys it names.
//
//	space  key                                       value
//	a      a | pubkey[32] | ^slot[8]                 account version (see account.go); newest version first
//	b      b | slot[8]                               block bytes (opaque to the store); ascending slots
//	x      x | signature[64]                         slot[8] | index-in-block[4] | transaction+status bytes (opaque)
//	s      s | address[32] | ^slot[8] | ^index[4]    signature[64]; per address, newest first
//	o      o | owner[32] | pubkey[32]                empty; program-owner index (candidates, may be stale)
//	t      t | kind[1] | key[32] | pubkey[32]        empty; token indexes, kind 'o' owner, 'm' mint, 'd' delegate
//	r      r | pubkey[32] | kind[1] | key[32]        slot[8]; reverse of o and t: the newest slot whose version of
//	                                                 pubkey asserted the entry (kind 'p' stands for the o space)
//	d      d | slot[8] | pubkey[32]                  empty; pubkey got a version at slot and Root has not yet
//	                                                 examined it
//	m      m | name                                  metadata value (see meta.go)
//
// Why each shape:
//   - a: GetAccount(P, S) is one SeekPrefixGE(a|P|^S): the first key at or after it with prefix a|P is the newest
//     version at or below S. The pebble comparer splits a-keys after the pubkey, so bloom filters (built on that
//     prefix) let a point read skip sstables that hold no version of P.
//   - s: "the newest N signatures of A before cursor C" is one seek to the key just after s|A|^C.slot|^C.index
//     and N steps.
//   - o, t: a query for one owner or mint scans only its own entries, so its cost follows the matches, not the
//     number of accounts. Entries may be stale (the account changed later); readers re-check.
//   - r: lets Root find (and delete) the index entries of an account without knowing how they were derived.
//   - d: makes Root incremental: it visits only the accounts written since the previous root.

import "encoding/binary"

// Key space tags.
const (
	spaceAccount   = 'a'
	spaceBlock     = 'b'
	spaceTx        = 'x'
	spaceSigs      = 's'
	spaceOwnerIdx  = 'o'
	spaceTokenIdx  = 't'
	spaceReverse   = 'r'
	spaceDirty     = 'd'
	spaceMeta      = 'm'
	accountKeyLen  = 1 + 32 + 8
	accountPrefLen = 1 + 32
	sigKeyLen      = 1 + 32 + 8 + 4
	reverseKeyLen  = 1 + 32 + 1 + 32
	dirtyKeyLen    = 1 + 8 + 32
)

func accountKey(pubkey *Pubkey, slot uint64) []byte {
	k := make([]byte, 0, accountKeyLen)
	k = append(k, spaceAccount)
	k = append(k, pubkey[:]...)
	return binary.BigEndian.AppendUint64(k, ^slot)
}

// accountKeySlot returns the slot of an a-key; the caller has checked its length.
func accountKeySlot(k []byte) uint64 { return ^binary.BigEndian.Uint64(k[accountPrefLen:]) }

func blockKey(slot uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{spaceBlock}, slot)
}

func txKey(sig *Signature) []byte {
	k := make([]byte, 0, 1+64)
	k = append(k, spaceTx)
	return append(k, sig[:]...)
}

func sigKey(addr *Pubkey, slot uint64, idx uint32) []byte {
	k := make([]byte, 0, sigKeyLen)
	k = append(k, spaceSigs)
	k = append(k, addr[:]...)
	k = binary.BigEndian.AppendUint64(k, ^slot)
	return binary.BigEndian.AppendUint32(k, ^idx)
}

// indexPrefix returns the prefix under which the candidates of (kind, key) live.
func indexPrefix(kind IndexKind, key *Pubkey) []byte {
	k := make([]byte, 0, 1+1+32+32)
	if kind == IndexProgramOwner {
		k = append(k, spaceOwnerIdx)
	} else {
		k = append(k, spaceTokenIdx, byte(kind))
	}
	return append(k, key[:]...)
}

func indexKey(kind IndexKind, key, pubkey *Pubkey) []byte {
	return append(indexPrefix(kind, key), pubkey[:]...)
}

func reverseKey(pubkey *Pubkey, kind IndexKind, key *Pubkey) []byte {
	k := make([]byte, 0, reverseKeyLen)
	k = append(k, spaceReverse)
	k = append(k, pubkey[:]...)
	k = append(k, byte(kind))
	return append(k, key[:]...)
}

func dirtyKey(slot uint64, pubkey *Pubkey) []byte {
	k := make([]byte, 0, dirtyKeyLen)
	k = append(k, spaceDirty)
	k = binary.BigEndian.AppendUint64(k, slot)
	return append(k, pubkey[:]...)
}

func metaKey(name string) []byte {
	return append([]byte{spaceMeta}, name...)
}

// prefixEnd returns the smallest key greater than every key with the given prefix (an exclusive upper bound), or
// nil when there is none (the prefix is all 0xff).
func prefixEnd(prefix []byte) []byte {
	end := append([]byte(nil), prefix...)
	for i := len(end) - 1; i >= 0; i-- {
		if end[i] != 0xff {
			end[i]++
			return end[:i+1]
		}
	}
	return nil
}

// keySplit is the pebble comparer's Split: an account key's prefix is its space and pubkey (so bloom filters answer
// "does this table hold any version of P"); every other key is its own prefix.
func keySplit(k []byte) int {
	if len(k) == accountKeyLen && k[0] == spaceAccount {
		return accountPrefLen
	}
	return len(k)
}
