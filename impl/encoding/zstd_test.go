package encoding

import (
	"math/rand/v2"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// zstdShapes are data of the shapes accounts have, in sizes from a few bytes to several blocks: zeros, random
// bytes, random keys between zeros, a short alphabet, a repeated phrase with mutations, and text.
func zstdShapes(rng *rand.Rand) []func(n int) []byte {
	return []func(n int) []byte{
		func(n int) []byte { return make([]byte, n) },
		func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			return b
		},
		func(n int) []byte {
			b := make([]byte, n)
			for i := 0; i < n; i += 64 {
				for j := i; j < min(i+32, n); j++ {
					b[j] = byte(rng.Uint32())
				}
			}
			return b
		},
		func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = "abcab"[rng.IntN(5)]
			}
			return b
		},
		func(n int) []byte {
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(i % (3 + rng.IntN(40)))
				if rng.IntN(50) == 0 {
					b[i] = byte(rng.Uint32())
				}
			}
			return b
		},
		func(n int) []byte {
			words := []string{"account ", "token ", "mint ", "authority ", "lamports ", "the ", "of ", "vote ", "{\"a\":", "1, "}
			var b []byte
			for len(b) < n {
				b = append(b, words[rng.IntN(len(words))]...)
			}
			return b[:n]
		},
	}
}

// BenchmarkBase64ZstdText is a 4 KiB text-like account, whose literals libzstd Huffman-codes, so referenceBlock
// declines it: libzstd writes it with cgo, klauspost/compress without.
func BenchmarkBase64ZstdText(b *testing.B) {
	data := zstdShapes(rand.New(rand.NewPCG(1, 1)))[5](4096)
	acct := runtime.Account{Owner: otherOwner, Data: data}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeAccount(acct, core.Pubkey{}, Base64Zstd, nil, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
