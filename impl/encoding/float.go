package encoding

import (
	"math"
	"strconv"
)

// Float64 marshals as serde_json writes an f64 (the ryu shortest form): always with a decimal
// point or exponent, so 2.0 stays "2.0" where encoding/json would write 2; exponents without a
// plus sign or padding ("1e-7", "1.5e300"); plain decimals for magnitudes from 1e-5 up to
// 1e16; NaN and infinities as null.
type Float64 float64

// MarshalJSON implements json.Marshaler.
func (f Float64) MarshalJSON() ([]byte, error) { return AppendFloat64(nil, float64(f)), nil }

// AppendFloat64 appends f as serde_json writes it.
func AppendFloat64(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	if math.Signbit(f) {
		dst = append(dst, '-')
		f = -f
	}
	// Shortest round-trip digits, as d.ddde±x; Go and ryu agree on the digits.
	var buf [32]byte
	s := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	var digits []byte
	i := 0
	for ; s[i] != 'e'; i++ {
		if s[i] != '.' {
			digits = append(digits, s[i])
		}
	}
	exp, _ := strconv.Atoi(string(s[i+1:]))
	n := len(digits)
	e10 := exp - n + 1 // value = digits × 10^e10
	point := exp + 1   // value = 0.digits × 10^point: digits before the decimal point

	switch {
	case e10 >= 0 && point <= 16:
		dst = append(dst, digits...)
		for range point - n {
			dst = append(dst, '0')
		}
		return append(dst, '.', '0')
	case point > 0 && point <= 16:
		dst = append(dst, digits[:point]...)
		dst = append(dst, '.')
		return append(dst, digits[point:]...)
	case point > -5 && point <= 0:
		dst = append(dst, '0', '.')
		for range -point {
			dst = append(dst, '0')
		}
		return append(dst, digits...)
	default:
		dst = append(dst, digits[0])
		if n > 1 {
			dst = append(dst, '.')
			dst = append(dst, digits[1:]...)
		}
		dst = append(dst, 'e')
		return strconv.AppendInt(dst, int64(point-1), 10)
	}
}
