package syscalls

import (
	"crypto/sha256"
	"hash"

	"github.com/zeebo/blake3"
	"golang.org/x/crypto/sha3"
)

// HashKind selects the function of the three hashing syscalls, which share their cost model,
// slice limit and argument layout.
type HashKind uint8

const (
	SHA256    HashKind = iota // sol_sha256
	Keccak256                 // sol_keccak256: the original Keccak padding (Ethereum's), not SHA3-256
	Blake3                    // sol_blake3
)

func (k HashKind) String() string {
	switch k {
	case SHA256:
		return "Sha256"
	case Keccak256:
		return "Keccak256"
	case Blake3:
		return "Blake3"
	}
	return "unknown"
}

func (k HashKind) new() hash.Hash {
	switch k {
	case Keccak256:
		return sha3.NewLegacyKeccak256()
	case Blake3:
		return blake3.New()
	}
	return sha256.New()
}

// Hashv is the hash of the concatenation of parts, as the hashing syscalls compute it.
func Hashv(kind HashKind, parts ...[]byte) [32]byte {
	h := kind.new()
	for _, p := range parts {
		h.Write(p)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}
