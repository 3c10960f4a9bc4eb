// Package bincode reads and writes bincode as the native programs' instructions and account
// states use it: fixed-width little-endian integers, u64 lengths, u8 tags for bool and Option
// (0 or 1, nothing else), UTF-8 strings, plus the compact forms some vote instructions carry
// (short_vec lengths and serde_varint integers).
package bincode

import (
	"encoding/binary"
	"errors"
	"math"
	"unicode/utf8"

	"ledgerd/impl/core"
)

// ErrInvalid is Reader.Err's error: the data ended early, went past the limit or broke a rule.
// Callers report it with their own error (InvalidInstructionData, InvalidAccountData).
var ErrInvalid = errors.New("bincode: invalid data")

// Reader reads bincode from a byte slice. The first failure sticks: later reads return zero
// values and Err reports it, so a decoder reads a whole layout and checks once at the end.
type Reader struct {
	b     []byte
	off   int
	limit int // the most bytes that may be consumed; 0 for no limit
	bad   bool
}

// NewReader returns a Reader of b. Bytes after what is read are ignored, as bincode::deserialize
// ignores them.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// NewLimitedReader returns a Reader of b that fails rather than consume more than limit bytes
// (the reference's limited_deserialize). A limit of 0 or less is no limit.
func NewLimitedReader(b []byte, limit int) *Reader { return &Reader{b: b, limit: max(limit, 0)} }

// Err returns ErrInvalid once a read has failed (or Fail was called), nil before.
func (r *Reader) Err() error {
	if r.bad {
		return ErrInvalid
	}
	return nil
}

// Fail marks the data invalid, for the checks a decoder makes itself (an enum tag out of range).
func (r *Reader) Fail() { r.bad = true }

// Len returns the number of unread bytes (the limit aside).
func (r *Reader) Len() int { return len(r.b) - r.off }

// Skip consumes n bytes without looking at them.
func (r *Reader) Skip(n int) { r.take(uint64(n)) }

func (r *Reader) take(n uint64) []byte {
	if r.bad || n > uint64(len(r.b)-r.off) || (r.limit > 0 && uint64(r.off)+n > uint64(r.limit)) {
		r.bad = true
		return nil
	}
	b := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return b
}

func (r *Reader) U8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *Reader) U32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *Reader) U64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *Reader) I64() int64 { return int64(r.U64()) }

func (r *Reader) F64() float64 { return math.Float64frombits(r.U64()) }

// Bool reads a bool; a tag other than 0 or 1 fails.
func (r *Reader) Bool() bool {
	switch r.U8() {
	case 0:
		return false
	case 1:
		return true
	}
	r.bad = true
	return false
}

func (r *Reader) Pubkey() (k core.Pubkey) {
	if b := r.take(32); b != nil {
		copy(k[:], b)
	}
	return k
}

func (r *Reader) Hash() (h core.Hash) {
	if b := r.take(32); b != nil {
		copy(h[:], b)
	}
	return h
}

// Str reads a String: a u64 length and that many bytes of UTF-8.
func (r *Reader) Str() string {
	n := r.U64()
	b := r.take(n)
	if r.bad || !utf8.Valid(b) {
		r.bad = true
		return ""
	}
	return string(b)
}

// OptU64 reads an Option<u64>; None is nil.
func (r *Reader) OptU64() *uint64 {
	if !r.Bool() || r.bad {
		return nil
	}
	v := r.U64()
	if r.bad {
		return nil
	}
	return &v
}

// OptI64 reads an Option<i64>; None is nil.
func (r *Reader) OptI64() *int64 {
	if !r.Bool() || r.bad {
		return nil
	}
	v := r.I64()
	if r.bad {
		return nil
	}
	return &v
}

// OptPubkey reads an Option<Pubkey>; None is nil.
func (r *Reader) OptPubkey() *core.Pubkey {
	if !r.Bool() || r.bad {
		return nil
	}
	k := r.Pubkey()
	if r.bad {
		return nil
	}
	return &k
}

// SeqLen reads the u64 length of a sequence of elemSize-byte elements and refuses lengths the
// unread data cannot hold, so a hostile length never makes the caller allocate.
func (r *Reader) SeqLen(elemSize int) int {
	n := r.U64()
	if r.bad {
		return 0
	}
	if n > uint64(len(r.b)-r.off)/uint64(elemSize) {
		r.bad = true
		return 0
	}
	return int(n)
}

// ShortLen reads a compact-u16 length (short_vec).
func (r *Reader) ShortLen() int {
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

// VarU64 reads a serde_varint u64: 7 bits a byte, low first, with the reference's checks (no
// truncated last byte, no trailing zero byte, at most 10 bytes).
func (r *Reader) VarU64() uint64 {
	var out uint64
	for shift := uint(0); shift < 64; shift += 7 {
		b := r.U8()
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

// The Append functions append the bincode of a value to b and return the extended slice, as
// encoding/binary's do. A u8 is append(b, v).

func AppendU32(b []byte, v uint32) []byte  { return binary.LittleEndian.AppendUint32(b, v) }
func AppendU64(b []byte, v uint64) []byte  { return binary.LittleEndian.AppendUint64(b, v) }
func AppendI64(b []byte, v int64) []byte   { return AppendU64(b, uint64(v)) }
func AppendF64(b []byte, v float64) []byte { return AppendU64(b, math.Float64bits(v)) }

func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func AppendPubkey(b []byte, k core.Pubkey) []byte { return append(b, k[:]...) }
func AppendHash(b []byte, h core.Hash) []byte     { return append(b, h[:]...) }

// AppendStr appends a String: its u64 length and its bytes.
func AppendStr(b []byte, s string) []byte {
	return append(AppendU64(b, uint64(len(s))), s...)
}

// AppendOptU64 appends an Option<u64>; nil is None.
func AppendOptU64(b []byte, v *uint64) []byte {
	b = AppendBool(b, v != nil)
	if v != nil {
		b = AppendU64(b, *v)
	}
	return b
}

// AppendOptI64 appends an Option<i64>; nil is None.
func AppendOptI64(b []byte, v *int64) []byte {
	b = AppendBool(b, v != nil)
	if v != nil {
		b = AppendI64(b, *v)
	}
	return b
}

// AppendOptPubkey appends an Option<Pubkey>; nil is None.
func AppendOptPubkey(b []byte, k *core.Pubkey) []byte {
	b = AppendBool(b, k != nil)
	if k != nil {
		b = AppendPubkey(b, *k)
	}
	return b
}

// AppendVarU64 appends a serde_varint u64.
func AppendVarU64(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, uint8(v)|0x80)
		v >>= 7
	}
	return append(b, uint8(v))
}
