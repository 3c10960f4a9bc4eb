package syscalls

import "math/big"

// MaxBigModExpLen is the longest base, exponent or modulus sol_big_mod_exp takes, in bytes.
const MaxBigModExpLen = 512

// BigModExp returns base^exponent mod modulus, all big-endian, as len(modulus) bytes (left-padded
// with zeros). A modulus of 0 or 1 gives all zeros, as in the reference.
func BigModExp(base, exponent, modulus []byte) []byte {
	out := make([]byte, len(modulus))
	m := new(big.Int).SetBytes(modulus)
	if m.Cmp(big.NewInt(1)) <= 0 {
		return out
	}
	r := new(big.Int).Exp(new(big.Int).SetBytes(base), new(big.Int).SetBytes(exponent), m)
	r.FillBytes(out)
	return out
}
