// Package syscalls holds the syscalls sBPF programs call, as the reference node registers them:
// logging, memory operations, hashing, program-derived addresses, sysvar getters, return data,
// the instruction stack and trace, compute units, epoch stake, and the cryptographic primitives
// (secp256k1 recovery, curve25519 Edwards and Ristretto groups, alt_bn128 group operations,
// pairing and point compression, Poseidon, big modular exponentiation). Register adds them to an
// sbpf.Loader for a feature set; each one charges the reference's compute units, translates guest
// pointers in the reference's order (so the same bad pointer gives the same error) and fails
// with the reference's error. Whatever a syscall needs from the runtime (logs, return data,
// sysvars, the instruction trace, stake, cross-program invocation) comes through the Host the
// runtime hands the VM.
//
// The cryptography is the pure functions of this package (Hashv, Secp256k1Recover, Edwards*,
// Ristretto*, AltBn128*, Poseidon, BigModExp), built on maintained libraries, never hand-rolled:
//
//   - SHA-256: the standard library.
//   - Keccak-256: golang.org/x/crypto/sha3's legacy Keccak (the original padding, not SHA3-256).
//   - BLAKE3: github.com/zeebo/blake3, a complete, assembly-accelerated implementation.
//   - secp256k1: github.com/decred/dcrd/dcrec/secp256k1/v4, whose compact-signature recovery
//     has the reference's libsecp256k1 semantics (high-s accepted, zero or overflowing r/s refused).
//   - Edwards25519: filippo.io/edwards25519, which decodes points as curve25519-dalek does
//     (non-canonical y accepted) and has constant- and variable-time multiscalar multiplication.
//   - Ristretto255: github.com/gtank/ristretto255, canonical encodings and scalars as dalek's.
//   - BN254: github.com/consensys/gnark-crypto (field, G1/G2 arithmetic, subgroup checks,
//     pairing); only the byte formats (EIP-196/197 encodings and arkworks' flag bits and
//     compressed form) are written here.
//   - Poseidon: github.com/iden3/go-iden3-crypto, circomlib's Poseidon over BN254 with x^5 and the
//     circom constants, the permutation the reference's light-poseidon implements (checked on the
//     reference's vectors for 1 to 12 inputs).
//   - Big modular exponentiation: math/big.
package syscalls
