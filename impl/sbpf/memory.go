package sbpf

import (
	"encoding/binary"
	"sort"

	"ledgerd/impl/core/sat"
)

type memRegion struct {
	vmAddr   uint64
	data     []byte
	writable bool
	// gapSize is 0 for a contiguous region; for a gapped one (the v0 stack) it is the frame size,
	// a power of two, and lowMask is gapSize-1.
	gapSize, lowMask uint64
	end              uint64 // end of the VM address range (twice the data length when gapped)
	// dirty is the end of the host bytes written so far, so that a pooled buffer is cleared
	// only as far as it was used.
	dirty uint64
}

func makeRegion(r Region) memRegion {
	m := memRegion{vmAddr: r.VMAddr, data: r.Data, writable: r.Writable}
	n := uint64(len(r.Data))
	if r.GapSize > 0 {
		m.gapSize, m.lowMask = r.GapSize, r.GapSize-1
		n = sat.Mul(n, 2)
	}
	m.end = sat.Add(r.VMAddr, n)
	return m
}

// hostRange maps [addr, addr+n) to a host offset; ok is false outside the region. Only the start
// address of a gapped region is checked against the gaps; a range that starts in a frame and runs
// past its end continues into the next host frame, as in the reference.
//
// An address below the region start is refused without a test of its own: callers only pass
// addresses in the region's 4 GiB slot (or above its start), so the offset then wraps to at least
// 2^64-2^32, which the bounds check refuses (halved by the gap mapping, it is still far beyond any
// buffer).
func (r *memRegion) hostRange(addr, n uint64) (uint64, bool) {
	off := addr - r.vmAddr
	if r.gapSize != 0 {
		if off&r.gapSize != 0 {
			return 0, false
		}
		off = (off>>1)&^r.lowMask | off&r.lowMask
	}
	end := off + n
	if end < off || end > uint64(len(r.data)) {
		return 0, false
	}
	return off, true
}

// memory is the reference's MemoryMapping: aligned (one region per 4 GiB slot, found by the
// address's top bits) when every region sits alone in its slot, otherwise sorted and searched.
type memory struct {
	regions      []memRegion
	aligned      bool
	version      Version
	maxCallDepth int64
	frameSize    int64
}

// init builds the mapping of regions into buf (reused across executions when it is large enough).
func (m *memory) init(buf []memRegion, regions []Region, cfg *Config, version Version) error {
	*m = memory{version: version, maxCallDepth: int64(cfg.MaxCallDepth), frameSize: int64(cfg.StackFrameSize)}
	rs := buf[:0]
	for i, r := range regions {
		if r.GapSize&(r.GapSize-1) != 0 {
			return &Error{Kind: ErrInvalidMemoryRegion, Index: i}
		}
		// Insertion by address, stable: there are a handful of regions.
		mr := makeRegion(r)
		k := len(rs)
		rs = append(rs, mr)
		for k > 0 && rs[k-1].vmAddr > mr.vmAddr {
			rs[k] = rs[k-1]
			k--
		}
		rs[k] = mr
	}
	m.aligned = true
	for i := 1; i < len(rs); i++ {
		if rs[i].vmAddr>>VirtualAddressBits == rs[i-1].vmAddr>>VirtualAddressBits {
			m.aligned = false
		}
	}
	if !m.aligned {
		for i := 1; i < len(rs); i++ {
			if rs[i-1].end > rs[i].vmAddr {
				return &Error{Kind: ErrInvalidMemoryRegion, Index: i}
			}
		}
		m.regions = rs
		return nil
	}
	// Slot i must be regions[i]: insert empty regions into the missing slots (from the back, in
	// place).
	last := rs[len(rs)-1].vmAddr >> VirtualAddressBits
	if last > 64 {
		return &Error{Kind: ErrInvalidMemoryRegion, Index: len(rs) - 1}
	}
	n := len(rs)
	for len(rs) < int(last)+1 {
		rs = append(rs, memRegion{})
	}
	for i, k := n-1, len(rs)-1; k >= 0; k-- {
		if i >= 0 && rs[i].vmAddr>>VirtualAddressBits == uint64(k) {
			rs[k] = rs[i]
			i--
		} else {
			rs[k] = makeRegion(Region{VMAddr: uint64(k) * RegionSize})
		}
	}
	// A region running past its slot would be reachable only through the next slot's index.
	for i := range rs {
		if rs[i].end > uint64(i+1)*RegionSize {
			return &Error{Kind: ErrInvalidMemoryRegion, Index: i}
		}
	}
	m.regions = rs
	return nil
}

// find is the region an address belongs to for translation, or nil.
func (m *memory) find(addr uint64) *memRegion {
	if m.aligned {
		i := addr >> VirtualAddressBits
		if i < uint64(len(m.regions)) {
			return &m.regions[i]
		}
		return nil
	}
	// The last region starting at or below addr.
	i := sort.Search(len(m.regions), func(i int) bool { return m.regions[i].vmAddr > addr })
	if i == 0 {
		return nil
	}
	return &m.regions[i-1]
}

// mapRange returns the host bytes of [addr, addr+n) or an access-violation error.
func (m *memory) mapRange(addr, n uint64, access AccessType) ([]byte, error) {
	if r := m.find(addr); r != nil && (r.writable || access != Store) {
		if off, ok := r.hostRange(addr, n); ok {
			// Loads count too: a syscall holding the bytes could still write through them.
			if r.writable && off+n > r.dirty {
				r.dirty = off + n
			}
			return r.data[off : off+n : off+n], nil
		}
	}
	return nil, m.violation(access, addr, n)
}

// load reads a little-endian value of size 1, 2, 4 or 8 bytes (zero-extended).
func (m *memory) load(addr, size uint64) (uint64, bool) {
	r := m.find(addr)
	if r == nil {
		return 0, false
	}
	off, ok := r.hostRange(addr, size)
	if !ok {
		return 0, false
	}
	b := r.data[off:]
	switch size {
	case 1:
		return uint64(b[0]), true
	case 2:
		return uint64(binary.LittleEndian.Uint16(b)), true
	case 4:
		return uint64(binary.LittleEndian.Uint32(b)), true
	default:
		return binary.LittleEndian.Uint64(b), true
	}
}

// store writes the low size bytes of v little-endian.
func (m *memory) store(addr, size, v uint64) bool {
	r := m.find(addr)
	if r == nil || !r.writable {
		return false
	}
	off, ok := r.hostRange(addr, size)
	if !ok {
		return false
	}
	if off+size > r.dirty {
		r.dirty = off + size
	}
	b := r.data[off:]
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
	return true
}

// violation builds the reference's error for a failed access: a stack-frame violation when the
// address falls in stack frames -1..=max depth of a fixed-frame version, otherwise an access
// violation naming the region the address belongs to.
func (m *memory) violation(access AccessType, addr, n uint64) *Error {
	// Go's division truncates toward zero like the reference's checked_div.
	frame := satSubI64(int64(addr), int64(MMStackStart))
	if m.frameSize > 0 {
		frame /= m.frameSize
	} else {
		frame = 0
	}
	if !m.version.ManualStackFrameBump() && frame >= -1 && frame <= m.maxCallDepth {
		return &Error{Kind: ErrStackAccessViolation, Access: access, Addr: addr, Len: n, Frame: frame}
	}
	name := "allocated"
	r := m.find(addr)
	switch {
	case r == nil || addr < r.vmAddr || addr >= r.end:
		name = "unallocated"
	case addr&^(MMBytecodeStart-1) == MMBytecodeStart:
		name = "program"
	case addr&^(MMBytecodeStart-1) == MMStackStart:
		name = "stack"
	case addr&^(MMBytecodeStart-1) == MMHeapStart:
		name = "heap"
	case addr&^(MMBytecodeStart-1) == MMInputStart:
		name = "input"
	}
	return &Error{Kind: ErrAccessViolation, Access: access, Addr: addr, Len: n, Region: name}
}

func satSubI64(a, b int64) int64 {
	d := a - b
	// Overflow when the operands' signs differ and the result's sign differs from a's.
	if (a^b) < 0 && (a^d) < 0 {
		if a < 0 {
			return -1 << 63
		}
		return 1<<63 - 1
	}
	return d
}
