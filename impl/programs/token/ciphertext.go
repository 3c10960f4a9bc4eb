package token

import (
	"crypto/sha3"
	"encoding/binary"
	"sync"

	"github.com/gtank/ristretto255"
)

// The ciphertext arithmetic of the confidential extensions, on the Ristretto255 group: twisted
// ElGamal ciphertexts (a Pedersen commitment r*H + x*G, then a decrypt handle r*P, 32 bytes
// each) add and subtract point by point, and an amount is added to a ciphertext by adding
// amount*G to its commitment. The program does this through the curve syscalls, which refuse
// points that do not decompress: every function here reports that as ok false (the program's
// CiphertextArithmeticFailed). The all-zero ciphertext is the identity twice, an encryption of
// zero.

// pendingBalanceLoBits is how many low bits of an amount the lo half of a pending balance
// holds; the hi half holds the rest, so lo + hi << 16 is the amount.
const pendingBalanceLoBits = 16

var (
	ristrettoG = ristretto255.NewElement().Base()
	// ristrettoH is the Pedersen blinding base: the point SHA3-512 of G's encoding maps to.
	ristrettoH = sync.OnceValue(func() *ristretto255.Element {
		sum := sha3.Sum512(ristrettoG.Encode(nil))
		return ristretto255.NewElement().FromUniformBytes(sum[:])
	})
)

// ciphertext is a decoded ElGamal ciphertext: commitment and handle.
type ciphertext struct{ c, d *ristretto255.Element }

func decodeRistretto(b []byte) (*ristretto255.Element, bool) {
	e := ristretto255.NewElement()
	if e.Decode(b) != nil {
		return nil, false
	}
	return e, true
}

func decodeCiphertext(b []byte) (ciphertext, bool) {
	c, ok1 := decodeRistretto(b[:32])
	d, ok2 := decodeRistretto(b[32:64])
	return ciphertext{c, d}, ok1 && ok2
}

func (x ciphertext) encode() [64]byte {
	var out [64]byte
	x.c.Encode(out[:0])
	x.d.Encode(out[32:32])
	return out
}

func scalarOf(v uint64) *ristretto255.Scalar {
	var b [32]byte
	binary.LittleEndian.PutUint64(b[:], v)
	s := ristretto255.NewScalar()
	_ = s.Decode(b[:]) // every u64 is below the group order
	return s
}

func pointAdd(a, b *ristretto255.Element) *ristretto255.Element {
	return ristretto255.NewElement().Add(a, b)
}
func pointSub(a, b *ristretto255.Element) *ristretto255.Element {
	return ristretto255.NewElement().Subtract(a, b)
}
func pointMul(v uint64, p *ristretto255.Element) *ristretto255.Element {
	return ristretto255.NewElement().ScalarMult(scalarOf(v), p)
}

// ciphertextAdd is left + right.
func ciphertextAdd(left, right []byte) ([64]byte, bool) {
	r, ok := decodeCiphertext(right)
	return pointwise(left, r, ok, pointAdd)
}

// ciphertextSub is left - right.
func ciphertextSub(left, right []byte) ([64]byte, bool) {
	r, ok := decodeCiphertext(right)
	return pointwise(left, r, ok, pointSub)
}

// combineLoHi is lo + hi * 2^16.
func combineLoHi(lo, hi []byte) (ciphertext, bool) {
	l, ok1 := decodeCiphertext(lo)
	h, ok2 := decodeCiphertext(hi)
	if !ok1 || !ok2 {
		return ciphertext{}, false
	}
	return ciphertext{pointAdd(l.c, pointMul(1<<pendingBalanceLoBits, h.c)), pointAdd(l.d, pointMul(1<<pendingBalanceLoBits, h.d))}, true
}

// ciphertextAddLoHi is left + lo + hi * 2^16.
func ciphertextAddLoHi(left, lo, hi []byte) ([64]byte, bool) {
	r, ok := combineLoHi(lo, hi)
	return pointwise(left, r, ok, pointAdd)
}

// ciphertextSubLoHi is left - (lo + hi * 2^16).
func ciphertextSubLoHi(left, lo, hi []byte) ([64]byte, bool) {
	r, ok := combineLoHi(lo, hi)
	return pointwise(left, r, ok, pointSub)
}

// pointwise is left op right, commitment with commitment and handle with handle; rightOK says
// whether right decoded.
func pointwise(left []byte, right ciphertext, rightOK bool, op func(a, b *ristretto255.Element) *ristretto255.Element) ([64]byte, bool) {
	l, ok := decodeCiphertext(left)
	if !ok || !rightOK {
		return [64]byte{}, false
	}
	return ciphertext{op(l.c, right.c), op(l.d, right.d)}.encode(), true
}

// ciphertextSubAmount is ct - amount (amount*G off the commitment).
func ciphertextSubAmount(ct []byte, amount uint64) ([64]byte, bool) {
	x, ok := decodeCiphertext(ct)
	if !ok {
		return [64]byte{}, false
	}
	return ciphertext{pointSub(x.c, pointMul(amount, ristrettoG)), x.d}.encode(), true
}

// ciphertextAddAmountWithOffset is ct + amount encrypted under pubkey with opening 1
// (amount*G + H on the commitment, the key on the handle): a deposit never leaves the all-zero
// ciphertext, which the equality proofs refuse.
func ciphertextAddAmountWithOffset(pubkey, ct []byte, amount uint64) ([64]byte, bool) {
	x, ok1 := decodeCiphertext(ct)
	p, ok2 := decodeRistretto(pubkey)
	if !ok1 || !ok2 {
		return [64]byte{}, false
	}
	return ciphertext{pointAdd(x.c, pointAdd(pointMul(amount, ristrettoG), ristrettoH())), pointAdd(x.d, p)}.encode(), true
}
