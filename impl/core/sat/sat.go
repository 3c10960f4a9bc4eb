// Package sat is unsigned 64-bit arithmetic that saturates instead of wrapping, as Rust's
// saturating_add, saturating_sub and saturating_mul do in the reference's code.
package sat

import "math/bits"

// Add returns a+b, or the largest uint64 when the sum overflows.
func Add(a, b uint64) uint64 {
	s, carry := bits.Add64(a, b, 0)
	if carry != 0 {
		return ^uint64(0)
	}
	return s
}

// Sub returns a-b, or 0 when b is larger.
func Sub(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

// Mul returns a*b, or the largest uint64 when the product overflows.
func Mul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return ^uint64(0)
	}
	return lo
}
