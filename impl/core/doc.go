// Package core owns the protocol primitives every other ledgerd package builds on: public keys,
// signatures and hashes with their base58 forms, Ed25519 keypairs, the compact-u16 ("shortvec")
// length encoding, legacy and v0 transaction messages with their exact wire codecs and sanitize
// rules, signature verification (single and batched), program-derived addresses, the well-known
// program and sysvar addresses, and a small message compiler for tests and clients.
//
// Wire formats, error texts and rules follow the reference implementation (Agave and the Solana
// SDK) byte for byte, because real clients and the reference's RPC behaviour depend on them.
// The sysvar account layouts live in the sub-package sysvar.
package core
