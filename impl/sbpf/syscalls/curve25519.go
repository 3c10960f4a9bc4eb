package syscalls

import (
	"filippo.io/edwards25519"
	"github.com/gtank/ristretto255"
)

// Curve identifiers of the sol_curve_* syscalls, and their group operations.
const (
	CurveEdwards25519   = 0
	CurveRistretto255   = 1
	CurveOpAdd          = 0
	CurveOpSub          = 1
	CurveOpMul          = 2
	MaxMultiscalarPoint = 512
)

// Edwards points are 32-byte compressed Edwards-y encodings, decoded as curve25519-dalek does:
// non-canonical y (y >= p) and a sign bit with x = 0 are accepted; results are canonical.
// Scalars must be canonical (below the group order l). Every function reports false where the
// reference's returns None.

func edwardsPoint(b *[32]byte) (*edwards25519.Point, bool) {
	p, err := new(edwards25519.Point).SetBytes(b[:])
	return p, err == nil
}

func canonicalScalar(b *[32]byte) (*edwards25519.Scalar, bool) {
	s, err := edwards25519.NewScalar().SetCanonicalBytes(b[:])
	return s, err == nil
}

func edwardsBytes(p *edwards25519.Point) (out [32]byte) {
	copy(out[:], p.Bytes())
	return out
}

// EdwardsValidate reports whether b decodes to a point of the curve.
func EdwardsValidate(b *[32]byte) bool {
	_, ok := edwardsPoint(b)
	return ok
}

// EdwardsAdd returns l + r.
func EdwardsAdd(l, r *[32]byte) ([32]byte, bool) {
	p, ok1 := edwardsPoint(l)
	q, ok2 := edwardsPoint(r)
	if !ok1 || !ok2 {
		return [32]byte{}, false
	}
	return edwardsBytes(new(edwards25519.Point).Add(p, q)), true
}

// EdwardsSub returns l - r.
func EdwardsSub(l, r *[32]byte) ([32]byte, bool) {
	p, ok1 := edwardsPoint(l)
	q, ok2 := edwardsPoint(r)
	if !ok1 || !ok2 {
		return [32]byte{}, false
	}
	return edwardsBytes(new(edwards25519.Point).Subtract(p, q)), true
}

// EdwardsMul returns scalar * point (no cofactor clearing).
func EdwardsMul(scalar, point *[32]byte) ([32]byte, bool) {
	s, ok1 := canonicalScalar(scalar)
	p, ok2 := edwardsPoint(point)
	if !ok1 || !ok2 {
		return [32]byte{}, false
	}
	return edwardsBytes(new(edwards25519.Point).ScalarMult(s, p)), true
}

// EdwardsMultiscalarMul returns the sum of scalars[i] * points[i] (the identity for none). The
// slices have equal lengths.
func EdwardsMultiscalarMul(scalars, points [][32]byte) ([32]byte, bool) {
	ss := make([]*edwards25519.Scalar, len(scalars))
	for i := range scalars {
		s, ok := canonicalScalar(&scalars[i])
		if !ok {
			return [32]byte{}, false
		}
		ss[i] = s
	}
	ps := make([]*edwards25519.Point, len(points))
	for i := range points {
		p, ok := edwardsPoint(&points[i])
		if !ok {
			return [32]byte{}, false
		}
		ps[i] = p
	}
	return edwardsBytes(new(edwards25519.Point).VarTimeMultiScalarMult(ss, ps)), true
}

// Ristretto points are canonical ristretto255 encodings; anything else is invalid.

func ristrettoElement(b *[32]byte) (*ristretto255.Element, bool) {
	e := ristretto255.NewElement()
	return e, e.Decode(b[:]) == nil
}

func ristrettoScalar(b *[32]byte) (*ristretto255.Scalar, bool) {
	s := ristretto255.NewScalar()
	return s, s.Decode(b[:]) == nil
}

func ristrettoBytes(e *ristretto255.Element) (out [32]byte) {
	copy(out[:], e.Encode(nil))
	return out
}

// RistrettoValidate reports whether b is the encoding of a ristretto255 element.
func RistrettoValidate(b *[32]byte) bool {
	_, ok := ristrettoElement(b)
	return ok
}

// RistrettoAdd returns l + r.
func RistrettoAdd(l, r *[32]byte) ([32]byte, bool) {
	p, ok1 := ristrettoElement(l)
	q, ok2 := ristrettoElement(r)
	if !ok1 || !ok2 {
		return [32]byte{}, false
	}
	return ristrettoBytes(ristretto255.NewElement().Add(p, q)), true
}

// RistrettoSub returns l - r.
func RistrettoSub(l, r *[32]byte) ([32]byte, bool) {
	p, ok1 := ristrettoElement(l)
	q, ok2 := ristrettoElement(r)
	if !ok1 || !ok2 {
		return [32]byte{}, false
	}
	return ristrettoBytes(ristretto255.NewElement().Subtract(p, q)), true
}

// RistrettoMul returns scalar * point.
func RistrettoMul(scalar, point *[32]byte) ([32]byte, bool) {
	s, ok1 := ristrettoScalar(scalar)
	p, ok2 := ristrettoElement(point)
	if !ok1 || !ok2 {
		return [32]byte{}, false
	}
	return ristrettoBytes(ristretto255.NewElement().ScalarMult(s, p)), true
}

// RistrettoMultiscalarMul returns the sum of scalars[i] * points[i] (the identity for none).
func RistrettoMultiscalarMul(scalars, points [][32]byte) ([32]byte, bool) {
	ss := make([]*ristretto255.Scalar, len(scalars))
	for i := range scalars {
		s, ok := ristrettoScalar(&scalars[i])
		if !ok {
			return [32]byte{}, false
		}
		ss[i] = s
	}
	ps := make([]*ristretto255.Element, len(points))
	for i := range points {
		p, ok := ristrettoElement(&points[i])
		if !ok {
			return [32]byte{}, false
		}
		ps[i] = p
	}
	return ristrettoBytes(ristretto255.NewElement().VarTimeMultiScalarMult(ss, ps)), true
}
