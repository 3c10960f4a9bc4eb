package zkproof

import "github.com/gtank/ristretto255"

// The encodings of the ElGamal and Pedersen values in proof contexts: each a compressed
// point, a ciphertext its commitment then its decrypt handle, a grouped ciphertext its
// commitment then one handle per public key.
const (
	pubkeyLen     = 32
	commitmentLen = 32
	ciphertextLen = 64
)

func groupedLen(handles int) int { return 32 * (1 + handles) }

// decodePubkey decompresses an ElGamal public key.
func decodePubkey(p *point) (*ristretto255.Element, error) {
	e, ok := decodePoint(p)
	if !ok {
		return nil, errPubkeyDeserialization
	}
	return e, nil
}

// decodeCommitment decompresses a Pedersen commitment (the reference reports a bad one as a
// ciphertext that does not deserialize).
func decodeCommitment(p *point) (*ristretto255.Element, error) {
	e, ok := decodePoint(p)
	if !ok {
		return nil, errCiphertextDeserialization
	}
	return e, nil
}

// groupedCiphertext is a decoded ElGamal ciphertext (one handle) or grouped ciphertext (one
// handle per key): a commitment C and the handles D.
type groupedCiphertext struct {
	c *ristretto255.Element
	d []*ristretto255.Element
}

// decodeCiphertext decodes the commitment and handles of b, which holds 32*(1+handles) bytes.
func decodeCiphertext(b []byte) (groupedCiphertext, error) {
	var g groupedCiphertext
	for i := 0; i < len(b); i += 32 {
		e, ok := decodePoint((*point)(b[i : i+32]))
		if !ok {
			return groupedCiphertext{}, errCiphertextDeserialization
		}
		if i == 0 {
			g.c = e
		} else {
			g.d = append(g.d, e)
		}
	}
	return g, nil
}

// batch returns lo + t*hi, commitment and handles alike.
func batch(lo, hi groupedCiphertext, t *ristretto255.Scalar) groupedCiphertext {
	out := groupedCiphertext{c: ristretto255.NewElement().Add(lo.c, ristretto255.NewElement().ScalarMult(t, hi.c))}
	for i := range lo.d {
		out.d = append(out.d, ristretto255.NewElement().Add(lo.d[i], ristretto255.NewElement().ScalarMult(t, hi.d[i])))
	}
	return out
}
