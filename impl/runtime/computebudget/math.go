package computebudget

import "math/bits"

func mul64(a, b uint64) (hi, lo uint64) { return bits.Mul64(a, b) }

func div64(hi, lo, d uint64) (q, r uint64) { return bits.Div64(hi, lo, d) }
