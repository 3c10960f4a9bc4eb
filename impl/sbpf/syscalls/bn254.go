package syscalls

import (
	"errors"
	"math/big"

	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fp"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
)

// The alt_bn128 syscalls speak the EIP-196/197 encodings: a G1 point is x||y, a G2 point is
// x||y with each Fq2 coordinate as c1||c0, every field element 32 bytes big-endian, and all
// zeros for the point at infinity. Their little-endian variants (op | 0x80) reverse each field
// element (G1) or each 64-byte Fq2 coordinate as a whole (G2).
//
// The reference decodes points with arkworks' uncompressed reader, which reads the two top bits
// of the last coordinate's most significant byte as flags and strips them before the range check:
// bit 6 alone makes the point infinity (whatever x and y are, once each is in range), both bits
// are an error, bit 7 alone is ignored. The decoders below keep that behaviour, because programs
// see its results.

// Operation numbers of sol_alt_bn128_group_op and sol_alt_bn128_compression.
const (
	AltBn128G1Add          = 0
	AltBn128G1Sub          = 1 // never dispatched by the reference: an invalid operation
	AltBn128G1Mul          = 2
	AltBn128Pairing        = 3
	AltBn128G2Add          = 4
	AltBn128G2Sub          = 5
	AltBn128G2Mul          = 6
	AltBn128LittleEnd      = 0x80
	AltBn128OpG1Compress   = 0
	AltBn128OpG1Decompress = 1
	AltBn128OpG2Compress   = 2
	AltBn128OpG2Decompress = 3

	bn254FieldSize       = 32
	bn254G1Size          = 64
	bn254G2Size          = 128
	bn254PairingElemSize = bn254G1Size + bn254G2Size
)

var errBn254 = errors.New("alt_bn128: invalid input")

// swapChunks turns a little-endian encoding into the big-endian one (and back): chunk is 32 for field
// elements, 64 for Fq2 coordinates.
func swapChunks(b []byte, chunk int) []byte {
	out := make([]byte, len(b))
	for i := 0; i+chunk <= len(b); i += chunk {
		for j := 0; j < chunk; j++ {
			out[i+j] = b[i+chunk-1-j]
		}
	}
	return out
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// fpFromBE reads a field element that must be below p.
func fpFromBE(b []byte) (fp.Element, bool) {
	var e fp.Element
	return e, e.SetBytesCanonical(b) == nil
}

// fpWithFlags reads a big-endian field element whose top two bits are arkworks' SWFlags:
// it returns the element, whether the infinity flag is set, whether the "negative" (greatest)
// flag is set, and false for both flags together or an element not below p.
func fpWithFlags(b []byte) (e fp.Element, infinity, negative, ok bool) {
	var buf [bn254FieldSize]byte
	copy(buf[:], b)
	flags := buf[0] >> 6
	buf[0] &= 0x3f
	if flags == 3 {
		return e, false, false, false
	}
	e, ok = fpFromBE(buf[:])
	return e, flags == 1, flags == 2, ok
}

// g1Decode reads an uncompressed big-endian G1 point; validate adds the on-curve check (G1 has
// cofactor 1, so that is the whole subgroup check).
func g1Decode(b []byte, validate bool) (bn254.G1Affine, bool) {
	var p bn254.G1Affine
	if allZero(b[:bn254G1Size]) {
		return p, true
	}
	x, ok := fpFromBE(b[:32])
	if !ok {
		return p, false
	}
	y, inf, _, ok := fpWithFlags(b[32:64])
	if !ok {
		return p, false
	}
	if inf {
		return bn254.G1Affine{}, true
	}
	p.X, p.Y = x, y
	// gnark reads (0, 0) as infinity; for arkworks it is an ordinary, off-curve point.
	if validate && ((x.IsZero() && y.IsZero()) || !p.IsOnCurve()) {
		return p, false
	}
	return p, true
}

// e2FromBE reads an Fq2 element encoded c1||c0, each below p; flags apply to c1's top bits.
func e2FromBE(b []byte, withFlags bool) (e bn254.E2, infinity, negative, ok bool) {
	if withFlags {
		e.A1, infinity, negative, ok = fpWithFlags(b[:32])
	} else {
		e.A1, ok = fpFromBE(b[:32])
	}
	if !ok {
		return e, false, false, false
	}
	e.A0, ok = fpFromBE(b[32:64])
	return e, infinity, negative, ok
}

// How much of a G2 point's validity the decoder checks: the reference checks nothing when
// compressing, the curve equation for G2 addition, and subgroup membership too for
// multiplication and pairing.
type g2Check uint8

const (
	g2NoCheck g2Check = iota
	g2OnCurve
	g2InSubgroup
)

// g2Decode reads an uncompressed big-endian G2 point.
func g2Decode(b []byte, check g2Check) (bn254.G2Affine, bool) {
	var p bn254.G2Affine
	if allZero(b[:bn254G2Size]) {
		return p, true
	}
	x, _, _, ok := e2FromBE(b[:64], false)
	if !ok {
		return p, false
	}
	y, inf, _, ok := e2FromBE(b[64:128], true)
	if !ok {
		return p, false
	}
	if inf {
		return bn254.G2Affine{}, true
	}
	p.X, p.Y = x, y
	if check != g2NoCheck && ((x.IsZero() && y.IsZero()) || !p.IsOnCurve()) {
		return p, false
	}
	if check == g2InSubgroup && !p.IsInSubGroup() {
		return p, false
	}
	return p, true
}

func g1Encode(p *bn254.G1Affine) []byte {
	out := make([]byte, bn254G1Size)
	if p.IsInfinity() {
		return out
	}
	x, y := p.X.Bytes(), p.Y.Bytes()
	copy(out[:32], x[:])
	copy(out[32:], y[:])
	return out
}

func e2Encode(dst []byte, e *bn254.E2) {
	c1, c0 := e.A1.Bytes(), e.A0.Bytes()
	copy(dst[:32], c1[:])
	copy(dst[32:64], c0[:])
}

func g2Encode(p *bn254.G2Affine) []byte {
	out := make([]byte, bn254G2Size)
	if p.IsInfinity() {
		return out
	}
	e2Encode(out[:64], &p.X)
	e2Encode(out[64:], &p.Y)
	return out
}

// toBigEndian returns input as big-endian, reversing its chunks when it is little-endian.
func toBigEndian(input []byte, littleEndian bool, chunk int) []byte {
	if littleEndian {
		return swapChunks(input, chunk)
	}
	return input
}

// AltBn128G1Addition adds two G1 points (128 bytes of input; big-endian input may be shorter
// and is zero-padded, little-endian input must be exactly 128 bytes) and returns the 64-byte sum.
func AltBn128G1Addition(input []byte, littleEndian bool) ([]byte, error) {
	const size = 2 * bn254G1Size
	if len(input) > size || (littleEndian && len(input) != size) {
		return nil, errBn254
	}
	buf := make([]byte, size)
	copy(buf, input)
	buf = toBigEndian(buf, littleEndian, bn254FieldSize)
	p, ok1 := g1Decode(buf[:64], true)
	if !ok1 {
		return nil, errBn254
	}
	q, ok2 := g1Decode(buf[64:], true)
	if !ok2 {
		return nil, errBn254
	}
	var sum bn254.G1Affine
	sum.Add(&p, &q)
	return toBigEndian(g1Encode(&sum), littleEndian, bn254FieldSize), nil
}

// AltBn128G1Multiplication multiplies a G1 point by a 32-byte scalar (any 256-bit value; input
// point||scalar, 96 bytes, big-endian zero-padded as for addition) and returns the 64-byte product.
func AltBn128G1Multiplication(input []byte, littleEndian bool) ([]byte, error) {
	const size = bn254G1Size + bn254FieldSize
	if len(input) > size || (littleEndian && len(input) != size) {
		return nil, errBn254
	}
	buf := make([]byte, size)
	copy(buf, input)
	buf = toBigEndian(buf, littleEndian, bn254FieldSize)
	p, ok := g1Decode(buf[:64], true)
	if !ok {
		return nil, errBn254
	}
	// G1 has prime order r, so the scalar acts modulo r.
	k := new(big.Int).SetBytes(buf[64:96])
	k.Mod(k, fr.Modulus())
	var prod bn254.G1Affine
	prod.ScalarMultiplication(&p, k)
	return toBigEndian(g1Encode(&prod), littleEndian, bn254FieldSize), nil
}

// AltBn128PairingCheck checks that the product of the pairings of the (G1, G2) pairs in input
// (192 bytes each) is one, and returns 32 bytes holding 1 if so, else 0 (big-endian or
// little-endian). strictLength rejects an input that is not a whole number of pairs (the
// reference's fixed length check); without it trailing bytes are ignored.
func AltBn128PairingCheck(input []byte, littleEndian, strictLength bool) ([]byte, error) {
	if strictLength && len(input)%bn254PairingElemSize != 0 {
		return nil, errBn254
	}
	n := len(input) / bn254PairingElemSize
	ps := make([]bn254.G1Affine, 0, n)
	qs := make([]bn254.G2Affine, 0, n)
	for i := 0; i < n; i++ {
		elem := input[i*bn254PairingElemSize : (i+1)*bn254PairingElemSize]
		p, ok := g1Decode(toBigEndian(elem[:bn254G1Size], littleEndian, bn254FieldSize), true)
		if !ok {
			return nil, errBn254
		}
		q, ok := g2Decode(toBigEndian(elem[bn254G1Size:], littleEndian, 2*bn254FieldSize), g2InSubgroup)
		if !ok {
			return nil, errBn254
		}
		ps = append(ps, p)
		qs = append(qs, q)
	}
	one := true
	if n > 0 {
		var err error
		if one, err = bn254.PairingCheck(ps, qs); err != nil {
			return nil, errBn254
		}
	}
	out := make([]byte, 32)
	if one {
		if littleEndian {
			out[0] = 1
		} else {
			out[31] = 1
		}
	}
	return out, nil
}

// AltBn128G2Addition adds two G2 points (exactly 256 bytes of input in either endianness; the
// points must be on the curve, not necessarily in the subgroup) and returns the 128-byte sum.
func AltBn128G2Addition(input []byte, littleEndian bool) ([]byte, error) {
	if len(input) != 2*bn254G2Size {
		return nil, errBn254
	}
	be := toBigEndian(input, littleEndian, 2*bn254FieldSize)
	p, ok := g2Decode(be[:bn254G2Size], g2OnCurve)
	if !ok {
		return nil, errBn254
	}
	q, ok := g2Decode(be[bn254G2Size:], g2OnCurve)
	if !ok {
		return nil, errBn254
	}
	var sum bn254.G2Affine
	sum.Add(&p, &q)
	return toBigEndian(g2Encode(&sum), littleEndian, 2*bn254FieldSize), nil
}

// AltBn128G2Multiplication multiplies a G2 point of the subgroup by a 32-byte scalar (input
// point||scalar, exactly 160 bytes) and returns the 128-byte product.
func AltBn128G2Multiplication(input []byte, littleEndian bool) ([]byte, error) {
	if len(input) != bn254G2Size+bn254FieldSize {
		return nil, errBn254
	}
	var point, scalar []byte
	if littleEndian {
		point = swapChunks(input[:bn254G2Size], 2*bn254FieldSize)
		scalar = reversed(input[bn254G2Size:])
	} else {
		point, scalar = input[:bn254G2Size], input[bn254G2Size:]
	}
	p, ok := g2Decode(point, g2InSubgroup)
	if !ok {
		return nil, errBn254
	}
	// The point has order r, so the scalar acts modulo r.
	k := new(big.Int).SetBytes(scalar)
	k.Mod(k, fr.Modulus())
	var prod bn254.G2Affine
	prod.ScalarMultiplication(&p, k)
	return toBigEndian(g2Encode(&prod), littleEndian, 2*bn254FieldSize), nil
}

// fpGreatest is arkworks' "y > -y" (the compressed form's flag), comparing canonical integers.
func fpGreatest(y *fp.Element) bool {
	var neg fp.Element
	neg.Neg(y)
	return y.Cmp(&neg) > 0
}

// e2Greatest compares Fq2 elements as arkworks orders them: c1 first, then c0.
func e2Greatest(y *bn254.E2) bool {
	var neg bn254.E2
	neg.Neg(y)
	if c := y.A1.Cmp(&neg.A1); c != 0 {
		return c > 0
	}
	return y.A0.Cmp(&neg.A0) > 0
}

// AltBn128G1Compress turns a 64-byte G1 point into arkworks' 32-byte compressed form: x with
// bit 7 of its most significant byte set when y is the greater root, or 0x40.. for infinity.
// The point is not checked to be on the curve (as in the reference).
func AltBn128G1Compress(input []byte, littleEndian bool) ([]byte, error) {
	if len(input) != bn254G1Size {
		return nil, errBn254
	}
	out := make([]byte, bn254FieldSize)
	if allZero(input) {
		return out, nil
	}
	be := toBigEndian(input, littleEndian, bn254FieldSize)
	x, ok := fpFromBE(be[:32])
	if !ok {
		return nil, errBn254
	}
	y, inf, _, ok := fpWithFlags(be[32:])
	if !ok {
		return nil, errBn254
	}
	if inf {
		out[0] = 0x40
	} else {
		xb := x.Bytes()
		copy(out, xb[:])
		if fpGreatest(&y) {
			out[0] |= 0x80
		}
	}
	return toBigEndian(out, littleEndian, bn254FieldSize), nil
}

// AltBn128G1Decompress is the inverse of AltBn128G1Compress: it fails when x is out of range, the
// flags are both set, or x is not the abscissa of a curve point.
func AltBn128G1Decompress(input []byte, littleEndian bool) ([]byte, error) {
	if len(input) != bn254FieldSize {
		return nil, errBn254
	}
	if allZero(input) {
		return make([]byte, bn254G1Size), nil
	}
	be := toBigEndian(input, littleEndian, bn254FieldSize)
	x, inf, greatest, ok := fpWithFlags(be)
	if !ok {
		return nil, errBn254
	}
	if inf {
		return make([]byte, bn254G1Size), nil
	}
	// y² = x³ + 3
	var rhs, y fp.Element
	rhs.Square(&x).Mul(&rhs, &x)
	var three fp.Element
	three.SetUint64(3)
	rhs.Add(&rhs, &three)
	if y.Sqrt(&rhs) == nil {
		return nil, errBn254
	}
	if fpGreatest(&y) != greatest {
		y.Neg(&y)
	}
	p := bn254.G1Affine{X: x, Y: y}
	out := make([]byte, bn254G1Size)
	xb, yb := p.X.Bytes(), p.Y.Bytes()
	copy(out[:32], xb[:])
	copy(out[32:], yb[:])
	return toBigEndian(out, littleEndian, bn254FieldSize), nil
}

// AltBn128G2Compress turns a 128-byte G2 point into the 64-byte compressed form (x, flags on
// the top bits of x.c1), without checking the point.
func AltBn128G2Compress(input []byte, littleEndian bool) ([]byte, error) {
	if len(input) != bn254G2Size {
		return nil, errBn254
	}
	out := make([]byte, 2*bn254FieldSize)
	if allZero(input) {
		return out, nil
	}
	be := toBigEndian(input, littleEndian, 2*bn254FieldSize)
	x, _, _, ok := e2FromBE(be[:64], false)
	if !ok {
		return nil, errBn254
	}
	y, inf, _, ok := e2FromBE(be[64:], true)
	if !ok {
		return nil, errBn254
	}
	if inf {
		out[0] = 0x40
	} else {
		e2Encode(out, &x)
		if e2Greatest(&y) {
			out[0] |= 0x80
		}
	}
	return toBigEndian(out, littleEndian, 2*bn254FieldSize), nil
}

// AltBn128G2Decompress is the inverse of AltBn128G2Compress (no subgroup check, as in the
// reference).
func AltBn128G2Decompress(input []byte, littleEndian bool) ([]byte, error) {
	if len(input) != 2*bn254FieldSize {
		return nil, errBn254
	}
	if allZero(input) {
		return make([]byte, bn254G2Size), nil
	}
	be := toBigEndian(input, littleEndian, 2*bn254FieldSize)
	x, inf, greatest, ok := e2FromBE(be, true)
	if !ok {
		return nil, errBn254
	}
	if inf {
		return make([]byte, bn254G2Size), nil
	}
	// y² = x³ + b' with the twist's b' = 3 / (9 + u)
	var rhs, bt, y bn254.E2
	bt.SetOne()
	bt.MulBybTwistCurveCoeff(&bt)
	rhs.Square(&x).Mul(&rhs, &x).Add(&rhs, &bt)
	if rhs.Legendre() == -1 {
		return nil, errBn254
	}
	y.Sqrt(&rhs)
	var check bn254.E2
	if !check.Square(&y).Equal(&rhs) {
		return nil, errBn254
	}
	if e2Greatest(&y) != greatest {
		y.Neg(&y)
	}
	out := make([]byte, bn254G2Size)
	e2Encode(out[:64], &x)
	e2Encode(out[64:], &y)
	return toBigEndian(out, littleEndian, 2*bn254FieldSize), nil
}
