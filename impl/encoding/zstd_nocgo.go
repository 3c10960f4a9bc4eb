//go:build !cgo

package encoding

import (
	"sync"

	"github.com/klauspost/compress/zstd"
)

// Without cgo there is no libzstd: klauspost/compress writes the blocks referenceBlock does not
// reproduce. Its frame decodes to the same bytes as the reference's, under the reference's
// header, from other blocks.

// zstdEncoder is shared: EncodeAll is safe for concurrent use. Zero frames are on so that empty
// data still gives a decodable frame; checksums are off, as libzstd's default. The window is
// libzstd's for level 3 when the content size is unknown (2 MiB), so that the header the frame
// gets (which declares that window) is true of every match the encoder makes.
var zstdEncoder = sync.OnceValues(func() (*zstd.Encoder, error) {
	return zstd.NewWriter(nil,
		zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithEncoderCRC(false),
		zstd.WithZeroFrames(true),
		zstd.WithWindowSize(referenceZstdWindow))
})

// libzstdAvailable reports whether the blocks come from libzstd (zstd_cgo.go).
const libzstdAvailable = false

// emptyZstdFrame is libzstd's frame of no data, which klauspost writes the same: a single
// segment with a content size of 0 and one empty raw block.
func emptyZstdFrame() ([]byte, bool) {
	enc, err := zstdEncoder()
	if err != nil {
		return nil, false
	}
	return enc.EncodeAll(nil, nil), true
}

func otherZstdBlocks(data []byte) ([]byte, bool) {
	enc, err := zstdEncoder()
	if err != nil {
		return nil, false
	}
	return zstdFrameBlocks(enc.EncodeAll(data, make([]byte, 0, len(data)/2+16)))
}
