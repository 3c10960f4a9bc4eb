package sbpf

import (
	"encoding/binary"
	"math/bits"
)

// HashSymbolName is the key of a syscall or function in the registries: MurmurHash3 x86 32-bit with
// seed 0 over the name's bytes (for internal functions the loader hashes the target pc as 8
// little-endian bytes).
func HashSymbolName(name []byte) uint32 {
	const c1, c2 = 0xcc9e2d51, 0x1b873593
	var h uint32
	n := len(name)
	i := 0
	for ; i+4 <= n; i += 4 {
		k := binary.LittleEndian.Uint32(name[i:])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
		h = bits.RotateLeft32(h, 13)
		h = h*5 + 0xe6546b64
	}
	var k uint32
	switch n - i {
	case 3:
		k ^= uint32(name[i+2]) << 16
		fallthrough
	case 2:
		k ^= uint32(name[i+1]) << 8
		fallthrough
	case 1:
		k ^= uint32(name[i])
		k *= c1
		k = bits.RotateLeft32(k, 15)
		k *= c2
		h ^= k
	}
	h ^= uint32(n)
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// HashPC is the function-registry key of an internal function at instruction index pc (v0-v2).
func HashPC(pc uint64) uint32 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], pc)
	return HashSymbolName(b[:])
}
