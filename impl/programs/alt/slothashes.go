package alt

import (
	"encoding/binary"

	"ledgerd/impl/core/sysvar"
)

const slotHashesMaxEntries = sysvar.SlotHashesMaxEntries

// programSlotHashes is SlotHashes as the on-chain program reads it (SlotHashesSysvar): the
// sysvar account's 512 entry slots, whatever the list's length, so the zero padding after the
// last entry reads as slot 0. Finding slot 0 in the padding is a quirk of the reference that
// the program keeps (a table can be created from "recent" slot 0).
type programSlotHashes [slotHashesMaxEntries]uint64

func readProgramSlotHashes(data []byte) *programSlotHashes {
	var s programSlotHashes
	for i := range s {
		off := 8 + i*40
		if off+8 > len(data) {
			break
		}
		s[i] = binary.LittleEndian.Uint64(data[off:])
	}
	return &s
}

// search is the binary search of Rust's slice::binary_search_by of the program's toolchain,
// which stops at the first equal element. It also counts the halvings that went left (the
// target is newer than the probed entry) and right, whose costs differ.
func (s *programSlotHashes) search(slot uint64) (pos int, found bool, left, right int) {
	lo, hi, size := 0, len(s), len(s)
	for lo < hi {
		mid := lo + size/2
		switch e := s[mid]; {
		case slot > e:
			left++
			hi = mid
		case slot < e:
			right++
			lo = mid + 1
		default:
			return mid, true, left, right
		}
		size = hi - lo
	}
	return lo, false, left, right
}
