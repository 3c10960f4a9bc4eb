package vote

import (
	"encoding/binary"
	"unicode/utf8"

	"ledgerd/impl/core"
)

// reader reads bincode (fixed-width little-endian integers, u64 lengths, u8 option and bool
// tags). The first error sticks; later reads return zero values. limit, when positive, is the
// most bytes that may be consumed (the reference's limited_deserialize).
type reader struct {
	b     []byte
	off   int
	limit int
	bad   bool
}

func (r *reader) take(n uint64) []byte {
	if r.bad || n > uint64(len(r.b)-r.off) || (r.limit > 0 && uint64(r.off)+n > uint64(r.limit)) {
		r.bad = true
		return nil
	}
	b := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return b
}

func (r *reader) u8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *reader) i64() int64 { return int64(r.u64()) }

func (r *reader) boolean() bool {
	switch r.u8() {
	case 0:
		return false
	case 1:
		return true
	}
	r.bad = true
	return false
}

// optionTag reads an Option's tag: 0 is None, 1 is Some, anything else is an error.
func (r *reader) optionTag() bool { return r.boolean() }

func (r *reader) optU64() *uint64 {
	if !r.optionTag() || r.bad {
		return nil
	}
	v := r.u64()
	if r.bad {
		return nil
	}
	return &v
}

func (r *reader) optI64() *int64 {
	if !r.optionTag() || r.bad {
		return nil
	}
	v := r.i64()
	if r.bad {
		return nil
	}
	return &v
}

func (r *reader) pubkey() (k core.Pubkey) {
	if b := r.take(32); b != nil {
		copy(k[:], b)
	}
	return k
}

func (r *reader) hash() (h core.Hash) {
	if b := r.take(32); b != nil {
		copy(h[:], b)
	}
	return h
}

func (r *reader) str() string {
	n := r.u64()
	b := r.take(n)
	if r.bad || !utf8.Valid(b) {
		r.bad = true
		return ""
	}
	return string(b)
}

// seqLen reads a u64 length of elemSize-byte elements and refuses lengths the remaining
// data cannot hold, so a hostile length never makes us allocate.
func (r *reader) seqLen(elemSize int) int {
	n := r.u64()
	if r.bad {
		return 0
	}
	if n > uint64(len(r.b)-r.off)/uint64(elemSize) {
		r.bad = true
		return 0
	}
	return int(n)
}

// shortLen reads a compact-u16 length (short_vec).
func (r *reader) shortLen() int {
	if r.bad {
		return 0
	}
	v, n, err := core.DecodeShortU16(r.b[r.off:])
	if err != nil || (r.limit > 0 && r.off+n > r.limit) {
		r.bad = true
		return 0
	}
	r.off += n
	return int(v)
}

// varU64 reads a serde_varint u64: 7 bits a byte, low first, with the reference's checks
// (no truncated last byte, no trailing zero byte, at most 10 bytes).
func (r *reader) varU64() uint64 {
	var out uint64
	for shift := uint(0); shift < 64; shift += 7 {
		b := r.u8()
		if r.bad {
			return 0
		}
		out |= uint64(b&0x7f) << shift
		if b&0x80 == 0 {
			if uint8(out>>shift) != b || (b == 0 && (shift != 0 || out != 0)) {
				r.bad = true
				return 0
			}
			return out
		}
	}
	r.bad = true
	return 0
}

// writer appends bincode.
type writer struct{ b []byte }

func (w *writer) u8(v uint8)   { w.b = append(w.b, v) }
func (w *writer) u32(v uint32) { w.b = binary.LittleEndian.AppendUint32(w.b, v) }
func (w *writer) u64(v uint64) { w.b = binary.LittleEndian.AppendUint64(w.b, v) }
func (w *writer) i64(v int64)  { w.u64(uint64(v)) }

func (w *writer) boolean(v bool) {
	if v {
		w.u8(1)
	} else {
		w.u8(0)
	}
}

func (w *writer) pubkey(k core.Pubkey) { w.b = append(w.b, k[:]...) }
func (w *writer) hash(h core.Hash)     { w.b = append(w.b, h[:]...) }

func (w *writer) str(s string) {
	w.u64(uint64(len(s)))
	w.b = append(w.b, s...)
}

func (w *writer) optU64(v *uint64) {
	w.boolean(v != nil)
	if v != nil {
		w.u64(*v)
	}
}

func (w *writer) optI64(v *int64) {
	w.boolean(v != nil)
	if v != nil {
		w.i64(*v)
	}
}

func (w *writer) varU64(v uint64) {
	for v >= 0x80 {
		w.u8(uint8(v) | 0x80)
		v >>= 7
	}
	w.u8(uint8(v))
}
