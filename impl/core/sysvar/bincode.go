// Package sysvar holds the sysvar account layouts with their exact bincode encodings (the bytes
// programs and RPC clients read from the sysvar accounts), and the arithmetic that comes with
// them: epoch schedule, rent exemption and the fee rate governor.
//
// Every type has Marshal (the exact bincode bytes) and Unmarshal. Unmarshal reads a prefix and
// ignores trailing bytes, as bincode::deserialize does: sysvar accounts are often longer than
// their content (SlotHashes is always 20488 bytes).
package sysvar

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrUnexpectedEOF is the error for data that ends early; the text is the reference's.
var ErrUnexpectedEOF = errors.New("io error: unexpected end of file")

type reader struct {
	b   []byte
	off int
	err error
}

func (r *reader) need(n int) bool {
	if r.err != nil {
		return false
	}
	if len(r.b)-r.off < n {
		r.err = ErrUnexpectedEOF
		return false
	}
	return true
}

func (r *reader) u8() uint8 {
	if !r.need(1) {
		return 0
	}
	v := r.b[r.off]
	r.off++
	return v
}

func (r *reader) u64() uint64 {
	if !r.need(8) {
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b[r.off:])
	r.off += 8
	return v
}

func (r *reader) i64() int64 { return int64(r.u64()) }

func (r *reader) f64() float64 { return math.Float64frombits(r.u64()) }

func (r *reader) bool() bool {
	v := r.u8()
	if r.err == nil && v > 1 {
		r.err = fmt.Errorf("invalid value: integer `%d`, expected a boolean", v)
	}
	return v == 1
}

func (r *reader) hash(out *[32]byte) {
	if !r.need(32) {
		return
	}
	copy(out[:], r.b[r.off:])
	r.off += 32
}

// vecLen reads a u64 length of a vector of elemSize-byte elements and checks that the data
// could hold it, so a hostile length cannot make us allocate.
func (r *reader) vecLen(elemSize int) int {
	n := r.u64()
	if r.err != nil {
		return 0
	}
	if n > uint64(len(r.b)-r.off)/uint64(elemSize) {
		r.err = ErrUnexpectedEOF
		return 0
	}
	return int(n)
}

func appendU64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// padTo returns b zero-extended to n bytes (b unchanged if already as long).
func padTo(b []byte, n int) []byte {
	if len(b) >= n {
		return b
	}
	out := make([]byte, n)
	copy(out, b)
	return out
}

// f64ToU64 converts as Rust's `as u64` does: saturating, NaN to 0.
func f64ToU64(f float64) uint64 {
	switch {
	case f != f || f <= 0:
		return 0
	case f >= 18446744073709551615.0:
		return math.MaxUint64
	default:
		return uint64(f)
	}
}
