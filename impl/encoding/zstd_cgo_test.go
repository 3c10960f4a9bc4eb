//go:build cgo

package encoding

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"testing"

	"github.com/DataDog/zstd"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// newStreamFrame is libzstd's frame of data from a new stream at level 3, written then ended, as the reference's
// zstd crate makes it (through DataDog/zstd's own writer, not the reused contexts under test).
func newStreamFrame(t *testing.T, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zstd.NewWriterLevel(&buf, 3)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// With cgo, base64+zstd is libzstd's frame byte for byte, as the reference's streaming writer makes it, for data
// of every shape and size (several blocks included), from the reused contexts as from new streams; and the Go
// reproduction of libzstd's block (referenceBlock), where it applies, is libzstd's own block.
func TestBase64ZstdIsLibzstd(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 5))
	shapes := zstdShapes(rng)
	reproduced := 0
	for round := range 300 {
		n := 1 + rng.IntN(4000)
		switch {
		case round%50 == 0:
			n = 128<<10 + rng.IntN(32<<10) // more than one block
		case round%5 == 0:
			n = 4000 + rng.IntN(60_000)
		}
		data := shapes[round%len(shapes)](n)
		want := newStreamFrame(t, data)
		if got, ok := libzstdStream(data); !ok || !bytes.Equal(got, want) {
			t.Errorf("round %d (%d bytes, shape %d): a reused context's frame differs from a new stream's", round, n, round%len(shapes))
		}
		if block, ok := referenceBlock(data); ok {
			reproduced++
			if got := append(referenceZstdHeader[:], block...); !bytes.Equal(got, want) {
				t.Errorf("round %d (%d bytes, shape %d): referenceBlock differs from libzstd:\n got % x\nwant % x",
					round, n, round%len(shapes), got, want)
			}
		}
		acct, err := EncodeAccount(runtime.Account{Owner: otherOwner, Data: data}, core.Pubkey{}, Base64Zstd, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := acct.Data.Encoded[0]; got != base64.StdEncoding.EncodeToString(want) {
			t.Errorf("round %d (%d bytes, shape %d): base64+zstd is not libzstd's frame", round, n, round%len(shapes))
		}
	}
	if reproduced < 50 {
		t.Errorf("only %d of 300 inputs went through referenceBlock", reproduced)
	}
	// libzstd's frame of no data is the single-segment one the reference writes for an empty account.
	if f := base64.StdEncoding.EncodeToString(newStreamFrame(t, nil)); f != "KLUv/SAAAQAA" {
		t.Errorf("libzstd's empty frame %s", f)
	}
	if f, ok := libzstdStream(nil); !ok || base64.StdEncoding.EncodeToString(f) != "KLUv/SAAAQAA" {
		t.Errorf("a reused context's empty frame % x", f)
	}
}

// FuzzZstdIsLibzstd: with cgo, base64+zstd of any data is the frame of a new libzstd stream.
func FuzzZstdIsLibzstd(f *testing.F) {
	f.Add([]byte("test data"))
	f.Add(bytes.Repeat([]byte("abcab"), 300))
	f.Add(make([]byte, 5000))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := compressZstd(data)
		if !ok {
			t.Fatal("not compressed")
		}
		if want := newStreamFrame(t, data); !bytes.Equal(got, want) {
			t.Fatalf("% x\nis not libzstd's\n% x", got, want)
		}
	})
}
