package syscalls

import (
	"errors"
	"math/big"

	"github.com/iden3/go-iden3-crypto/poseidon"
)

// sol_poseidon is Poseidon over the BN254 scalar field with the x^5 S-box and circom's round
// constants and MDS matrices (width = inputs + 1, 8 full rounds, a zero domain tag first), which
// is what the reference's light-poseidon implements; iden3's package is circomlib's
// implementation of the same permutation.

// Poseidon parameters and endianness values of sol_poseidon.
const (
	PoseidonBn254X5        = 0
	PoseidonBigEndian      = 0
	PoseidonLittleEndian   = 1
	PoseidonMaxInputs      = 12
	poseidonModulusByteLen = 32
)

var errPoseidon = errors.New("poseidon: invalid input")

// Poseidon hashes 1 to 12 inputs, each a field element of at most 32 bytes in the given
// endianness (exactly 32 when enforcePadding, SIMD-0359), below the field modulus and not empty.
// The 32-byte result has the same endianness.
func Poseidon(inputs [][]byte, littleEndian, enforcePadding bool) ([32]byte, error) {
	var out [32]byte
	if len(inputs) == 0 || len(inputs) > PoseidonMaxInputs {
		return out, errPoseidon
	}
	elems := make([]*big.Int, len(inputs))
	for i, in := range inputs {
		if len(in) == 0 || len(in) > poseidonModulusByteLen ||
			(enforcePadding && len(in) != poseidonModulusByteLen) {
			return out, errPoseidon
		}
		be := in
		if littleEndian {
			be = reversed(in)
		}
		elems[i] = new(big.Int).SetBytes(be)
	}
	// Hash rejects elements not below the modulus.
	h, err := poseidon.Hash(elems)
	if err != nil {
		return out, errPoseidon
	}
	h.FillBytes(out[:])
	if littleEndian {
		copy(out[:], reversed(out[:]))
	}
	return out, nil
}

func reversed(b []byte) []byte {
	out := make([]byte, len(b))
	for i := range b {
		out[len(b)-1-i] = b[i]
	}
	return out
}
