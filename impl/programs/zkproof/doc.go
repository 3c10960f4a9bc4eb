// Package zkproof is the ZK ElGamal proof program (ZkE1Gama1Proof11111111111111111111111111111),
// a builtin of the reference: it verifies the zero-knowledge proofs of the confidential token
// extensions (sigma proofs over ElGamal ciphertexts and Pedersen commitments, and batched
// Bulletproofs range proofs) and can record a verified proof's context in a context-state
// account that other programs (Token-2022) read instead of verifying again.
//
// The group is Ristretto255 (github.com/gtank/ristretto255) and the Fiat-Shamir transcript is
// Merlin (github.com/gtank/merlin); the proof protocols on top of them are written here.
// docs/zk-elgamal-proof.md lists the layouts, transcript labels, checks, errors and costs the
// code follows.
package zkproof
