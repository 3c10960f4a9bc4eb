package encoding

// The reference compresses with the zstd crate's streaming writer at level 0 (libzstd's
// default, level 3): the data goes in with write calls and the frame is ended afterwards, so
// libzstd never learns the content size. Its frame header is then the magic number, a frame
// header descriptor of 0 (no single segment, no content size, no checksum, no dictionary) and
// the window descriptor of level 3's window log 21. Empty data is the exception: nothing is
// written before the end, libzstd takes the size as known (0) and writes a single-segment
// header with a one-byte content size.
//
// Which encoder writes the blocks depends on the build. referenceBlock reproduces libzstd's
// block in Go for the common small accounts, and is always used where it applies (it is the
// faster). The rest goes to libzstd itself when the build has cgo (zstd_cgo.go: the same
// library and calls as the reference, so the same bytes), and to klauspost/compress otherwise
// (zstd_nocgo.go: the same header and data, other blocks).
const (
	referenceZstdWindow     = 1 << 21
	referenceZstdWindowDesc = 0x58 // exponent 21-10 = 11 in the top five bits, mantissa 0
)

var zstdMagic = [4]byte{0x28, 0xb5, 0x2f, 0xfd}

// referenceZstdHeader is the frame header of non-empty data.
var referenceZstdHeader = [6]byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, referenceZstdWindowDesc}

func compressZstd(data []byte) ([]byte, bool) {
	if len(data) == 0 {
		return emptyZstdFrame()
	}
	out := make([]byte, 0, 6+len(data)/2+16)
	out = append(out, referenceZstdHeader[:]...)
	if block, ok := referenceBlock(data); ok {
		return append(out, block...), true
	}
	blocks, ok := otherZstdBlocks(data)
	if !ok {
		return nil, false
	}
	return append(out, blocks...), true
}

// zstdFrameBlocks returns what follows the frame header of a single frame without dictionary:
// the blocks (and a checksum, were one written).
func zstdFrameBlocks(frame []byte) ([]byte, bool) {
	if len(frame) < 5 || [4]byte(frame[:4]) != zstdMagic {
		return nil, false
	}
	fhd := frame[4]
	singleSegment := fhd&0x20 != 0
	if fhd&0x03 != 0 || fhd&0x08 != 0 { // a dictionary id or the reserved bit: not ours
		return nil, false
	}
	n := 5
	if !singleSegment {
		n++ // window descriptor
	}
	switch fhd >> 6 {
	case 0:
		if singleSegment {
			n++
		}
	case 1:
		n += 2
	case 2:
		n += 4
	case 3:
		n += 8
	}
	if len(frame) < n {
		return nil, false
	}
	return frame[n:], true
}
