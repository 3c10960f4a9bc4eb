package syscalls

import (
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// Result codes of sol_secp256k1_recover (the reference's Secp256k1RecoverError as a u64).
const (
	Secp256k1InvalidHash       = 1
	Secp256k1InvalidRecoveryID = 2
	Secp256k1InvalidSignature  = 3
)

// Secp256k1Recover recovers the public key that signed hash with the 64-byte signature r||s
// (big-endian, unnormalized s allowed) and recovery id, and returns it as the 64 bytes X||Y
// (big-endian, without the 0x04 prefix), with code 0. On failure it returns one of the codes
// above: a recovery id that does not fit a byte or is above 3, or a signature whose r or s is
// zero or not below the group order, whose r names no curve point, or that recovers the point at
// infinity. Every 32-byte hash is acceptable (it is reduced modulo the group order).
func Secp256k1Recover(hash *[32]byte, recoveryID uint64, sig *[64]byte) ([64]byte, uint64) {
	var out [64]byte
	if recoveryID > 3 {
		return out, Secp256k1InvalidRecoveryID
	}
	// decred takes the compact form: a header byte 27+id, then r and s.
	var compact [65]byte
	compact[0] = 27 + byte(recoveryID)
	copy(compact[1:], sig[:])
	pub, _, err := ecdsa.RecoverCompact(compact[:], hash[:])
	if err != nil {
		return out, Secp256k1InvalidSignature
	}
	copy(out[:], pub.SerializeUncompressed()[1:])
	return out, 0
}
