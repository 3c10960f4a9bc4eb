package stake

import (
	"encoding/binary"
	"math"
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

func (r *reader) f64() float64 { return math.Float64frombits(r.u64()) }

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

func (r *reader) optPubkey() *core.Pubkey {
	if !r.optionTag() || r.bad {
		return nil
	}
	k := r.pubkey()
	if r.bad {
		return nil
	}
	return &k
}

func (r *reader) pubkey() (k core.Pubkey) {
	if b := r.take(32); b != nil {
		copy(k[:], b)
	}
	return k
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

// writer appends bincode.
type writer struct{ b []byte }

func (w *writer) u8(v uint8)    { w.b = append(w.b, v) }
func (w *writer) u32(v uint32)  { w.b = binary.LittleEndian.AppendUint32(w.b, v) }
func (w *writer) u64(v uint64)  { w.b = binary.LittleEndian.AppendUint64(w.b, v) }
func (w *writer) i64(v int64)   { w.u64(uint64(v)) }
func (w *writer) f64(v float64) { w.u64(math.Float64bits(v)) }

func (w *writer) boolean(v bool) {
	if v {
		w.u8(1)
	} else {
		w.u8(0)
	}
}

func (w *writer) pubkey(k core.Pubkey) { w.b = append(w.b, k[:]...) }

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

func (w *writer) optPubkey(k *core.Pubkey) {
	w.boolean(k != nil)
	if k != nil {
		w.pubkey(*k)
	}
}
