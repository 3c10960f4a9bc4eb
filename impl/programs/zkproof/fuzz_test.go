package zkproof

import (
	"testing"

	"github.com/gtank/ristretto255"
)

// FuzzVerify feeds arbitrary proof data of every type to the verifiers: each must return, never
// panic, and accept nothing but what it can check (random data never verifies).
func FuzzVerify(f *testing.F) {
	for t := ZeroCiphertext; t < numProofTypes; t++ {
		f.Add(byte(t), make([]byte, DataLen(t)))
	}
	f.Fuzz(func(t *testing.T, kind byte, data []byte) {
		typ := ProofType(kind%byte(numProofTypes-1)) + 1
		n := DataLen(typ)
		if len(data) < n {
			data = append(data, make([]byte, n-len(data))...)
		}
		if _, err := Verify(typ, data[:n]); err == nil {
			// A valid proof from random bytes would be a forgery.
			t.Fatalf("random %v proof data verified", typ)
		}
	})
}

// FuzzRangeProofDecode decodes arbitrary bytes as a range proof and, when they decode, verifies
// them against one commitment: no panic, no hang.
func FuzzRangeProofDecode(f *testing.F) {
	f.Add(make([]byte, 672))
	f.Add(make([]byte, 7*32))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := decodeRangeProof(b)
		if err != nil {
			return
		}
		if len(p.L) > 8 {
			return // more rounds than the program's proofs have: verify would only refuse the size
		}
		_ = p.verify([]*ristretto255.Element{basepoint}, []int{64}, newTranscript("fuzz"))
	})
}
