package zkproof

import (
	"crypto/sha3"
	"encoding/binary"
	"sync"

	"github.com/gtank/ristretto255"
)

// point is a compressed Ristretto point as proofs and contexts carry it.
type point = [32]byte

// basepoint is G, Ristretto255's generator (the value base of Pedersen commitments).
var basepoint = ristretto255.NewElement().Base()

// pedersenH is H, the blinding base of Pedersen commitments: the point SHA3-512 of G's
// encoding maps to, so nobody knows its discrete log relative to G.
var pedersenH = sync.OnceValue(func() *ristretto255.Element {
	sum := sha3.Sum512(basepoint.Encode(nil))
	return ristretto255.NewElement().FromUniformBytes(sum[:])
})

// decodePoint decompresses p; ok is false for an encoding that is not canonical or not on
// the group.
func decodePoint(p *point) (*ristretto255.Element, bool) {
	e := ristretto255.NewElement()
	if e.Decode(p[:]) != nil {
		return nil, false
	}
	return e, true
}

// isIdentity reports whether e is the group's identity.
func isIdentity(e *ristretto255.Element) bool { return e.Equal(ristretto255.NewElement()) == 1 }

// decodeScalar reads a canonical scalar (below the group order), as the proofs require.
func decodeScalar(b []byte) (*ristretto255.Scalar, error) {
	s := ristretto255.NewScalar()
	if s.Decode(b) != nil {
		return nil, deserialization
	}
	return s, nil
}

// scalarU64 is v as a scalar.
func scalarU64(v uint64) *ristretto255.Scalar {
	var b [32]byte
	binary.LittleEndian.PutUint64(b[:], v)
	s := ristretto255.NewScalar()
	if err := s.Decode(b[:]); err != nil {
		panic("zkproof: a u64 is a canonical scalar") // unreachable: every u64 is below the order
	}
	return s
}

func add(a, b *ristretto255.Scalar) *ristretto255.Scalar { return ristretto255.NewScalar().Add(a, b) }
func sub(a, b *ristretto255.Scalar) *ristretto255.Scalar {
	return ristretto255.NewScalar().Subtract(a, b)
}
func mul(a, b *ristretto255.Scalar) *ristretto255.Scalar {
	return ristretto255.NewScalar().Multiply(a, b)
}
func neg(a *ristretto255.Scalar) *ristretto255.Scalar { return ristretto255.NewScalar().Negate(a) }

var scalarOne = scalarU64(1)

// msm accumulates the terms of one multiscalar multiplication.
type msm struct {
	scalars []*ristretto255.Scalar
	points  []*ristretto255.Element
}

func (m *msm) add(s *ristretto255.Scalar, p *ristretto255.Element) {
	m.scalars = append(m.scalars, s)
	m.points = append(m.points, p)
}

// isIdentity reports whether the sum of the terms is the identity: the verification
// equations are written so that a valid proof sums to it.
func (m *msm) isIdentity() bool {
	return isIdentity(ristretto255.NewElement().VarTimeMultiScalarMult(m.scalars, m.points))
}

// reader takes fixed-size fields off a byte string the caller has sized.
type reader struct {
	b   []byte
	off int
}

func (r *reader) point() *point {
	var p point
	copy(p[:], r.b[r.off:r.off+32])
	r.off += 32
	return &p
}

func (r *reader) bytes(n int) []byte {
	b := r.b[r.off : r.off+n]
	r.off += n
	return b
}
