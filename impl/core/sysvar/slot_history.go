package sysvar

import "fmt"

// SlotHistoryMaxEntries is how many slots the bit vector covers (about 5 days).
const SlotHistoryMaxEntries uint64 = 1024 * 1024

// SlotHistory is the SlotHistory sysvar: one bit per slot for the last SlotHistoryMaxEntries
// slots, set when the slot has a block. Bits is the bv::BitVec<u64> storage (nil encodes as the
// crate's absent storage), BitLen its length in bits.
type SlotHistory struct {
	Bits     []uint64
	BitLen   uint64
	NextSlot uint64
}

// SlotHistoryCheck is the answer of SlotHistory.Check.
type SlotHistoryCheck uint8

const (
	SlotFuture SlotHistoryCheck = iota
	SlotTooOld
	SlotFound
	SlotNotFound
)

// NewSlotHistory returns the genesis state: only slot 0 present, next slot 1.
func NewSlotHistory() *SlotHistory {
	h := &SlotHistory{Bits: make([]uint64, SlotHistoryMaxEntries/64), BitLen: SlotHistoryMaxEntries, NextSlot: 1}
	h.setBit(0, true)
	return h
}

func (h *SlotHistory) setBit(i uint64, v bool) {
	if i >= h.BitLen || i/64 >= uint64(len(h.Bits)) {
		return
	}
	if v {
		h.Bits[i/64] |= 1 << (i % 64)
	} else {
		h.Bits[i/64] &^= 1 << (i % 64)
	}
}

func (h *SlotHistory) bit(i uint64) bool {
	if i >= h.BitLen || i/64 >= uint64(len(h.Bits)) {
		return false
	}
	return h.Bits[i/64]&(1<<(i%64)) != 0
}

// Add records that slot has a block, clearing the bits of skipped slots since NextSlot.
func (h *SlotHistory) Add(slot uint64) {
	if slot > h.NextSlot && slot-h.NextSlot >= SlotHistoryMaxEntries {
		clear(h.Bits)
	} else {
		for skipped := h.NextSlot; skipped < slot; skipped++ {
			h.setBit(skipped%SlotHistoryMaxEntries, false)
		}
	}
	h.setBit(slot%SlotHistoryMaxEntries, true)
	h.NextSlot = slot + 1
}

// Check reports whether slot is in the future, too old to know, or known present or absent.
func (h *SlotHistory) Check(slot uint64) SlotHistoryCheck {
	switch {
	case slot >= h.NextSlot:
		return SlotFuture
	case h.NextSlot-slot > SlotHistoryMaxEntries:
		return SlotTooOld
	case h.bit(slot % SlotHistoryMaxEntries):
		return SlotFound
	default:
		return SlotNotFound
	}
}

// Marshal returns the bincode encoding: Option<Box<[u64]>> (tag, u64 count, blocks), the u64 bit
// length, and the u64 next slot. The genesis state is SlotHistorySize bytes.
func (h *SlotHistory) Marshal() []byte {
	b := make([]byte, 0, 1+8+len(h.Bits)*8+16)
	if h.Bits == nil {
		b = append(b, 0)
	} else {
		b = append(b, 1)
		b = appendU64(b, uint64(len(h.Bits)))
		for _, w := range h.Bits {
			b = appendU64(b, w)
		}
	}
	b = appendU64(b, h.BitLen)
	return appendU64(b, h.NextSlot)
}

// Unmarshal reads a SlotHistory from the start of data.
func (h *SlotHistory) Unmarshal(data []byte) error {
	r := reader{b: data}
	var v SlotHistory
	switch tag := r.u8(); {
	case r.err != nil:
		return r.err
	case tag == 1:
		n := r.vecLen(8)
		v.Bits = make([]uint64, n)
		for i := range v.Bits {
			v.Bits[i] = r.u64()
		}
	case tag != 0:
		return fmt.Errorf("invalid value: integer `%d`, expected an option tag", tag)
	}
	v.BitLen = r.u64()
	v.NextSlot = r.u64()
	if r.err != nil {
		return r.err
	}
	*h = v
	return nil
}
