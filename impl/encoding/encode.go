package encoding

import (
	"encoding/base64"
	"errors"
	"fmt"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// The account encoding names, as the schema spells them.
const (
	Binary     = rpcapi.AccountEncodingBinary
	Base58     = rpcapi.AccountEncodingBase58
	Base64     = rpcapi.AccountEncodingBase64
	Base64Zstd = rpcapi.AccountEncodingBase64Zstd
	JSONParsed = rpcapi.AccountEncodingJsonParsed
)

// MaxBase58Bytes is the most (sliced) data binary and base58 will encode: base-58 encoding is
// quadratic in the length.
const MaxBase58Bytes = 128

// DataTooLargeForBase58 replaces oversized base-58 data in PubSub notifications.
const DataTooLargeForBase58 = "error: data too large for bs58 encoding"

// ErrUnknownEncoding is returned for an encoding name this package does not know. Request
// validation should have refused it already, so it is not a client error here.
var ErrUnknownEncoding = errors.New("unknown account encoding")

// Options tune EncodeAccount.
type Options struct {
	// Notification selects the PubSub behaviour: base-58 data over MaxBase58Bytes becomes
	// DataTooLargeForBase58 instead of an error.
	Notification bool
	// Lookup lets jsonParsed parsers read other accounts at the same bank. Nil means none.
	Lookup Lookup
	// Programs are the modules whose account parsers jsonParsed uses; nil means the shipped
	// list (impl/programs), which is also what the node runs.
	Programs *runtime.Registry
}

// EncodeAccount renders acct, stored at pubkey, in the given encoding. slice may be nil. The
// only client error is the -32600 of rpcapi.NewOversizedBase58DataError, for binary or base58
// data over MaxBase58Bytes after slicing, outside notifications.
func EncodeAccount(acct runtime.Account, pubkey core.Pubkey, encoding string, slice *rpcapi.DataSlice, opts Options) (rpcapi.UiAccount, error) {
	data, err := encodeData(acct, pubkey, encoding, slice, opts)
	if err != nil {
		return rpcapi.UiAccount{}, err
	}
	return rpcapi.UiAccount{
		Lamports:   acct.Lamports,
		Owner:      acct.Owner.String(),
		Data:       data,
		Executable: acct.Executable,
		RentEpoch:  acct.RentEpoch,
		Space:      uint64(len(acct.Data)),
	}, nil
}

func encodeData(acct runtime.Account, pubkey core.Pubkey, encoding string, slice *rpcapi.DataSlice, opts Options) (rpcapi.AccountData, error) {
	switch encoding {
	case Binary, Base58:
		sliced := SliceData(acct.Data, slice)
		var text string
		switch {
		case len(sliced) <= MaxBase58Bytes:
			text = base58.Encode(sliced)
		case opts.Notification:
			text = DataTooLargeForBase58
		default:
			return rpcapi.AccountData{}, rpcapi.NewOversizedBase58DataError()
		}
		if encoding == Binary {
			return rpcapi.AccountData{Binary: &text}, nil
		}
		return pair(text, Base58), nil
	case Base64:
		return pair(base64.StdEncoding.EncodeToString(SliceData(acct.Data, slice)), Base64), nil
	case Base64Zstd:
		sliced := SliceData(acct.Data, slice)
		if compressed, ok := compressZstd(sliced); ok {
			return pair(base64.StdEncoding.EncodeToString(compressed), Base64Zstd), nil
		}
		return pair(base64.StdEncoding.EncodeToString(sliced), Base64), nil
	case JSONParsed:
		if parsed, err := ParseWith(opts.Programs, pubkey, acct, opts.Lookup); err == nil {
			return rpcapi.AccountData{Parsed: parsed}, nil
		}
		return pair(base64.StdEncoding.EncodeToString(SliceData(acct.Data, slice)), Base64), nil
	default:
		return rpcapi.AccountData{}, fmt.Errorf("%w %q", ErrUnknownEncoding, encoding)
	}
}

func pair(text, encoding string) rpcapi.AccountData {
	return rpcapi.AccountData{Encoded: &[2]string{text, encoding}}
}

// SliceData applies a dataSlice: an offset at or past the end gives no data, and a length
// running past the end stops at the end. A nil slice gives all of data.
func SliceData(data []byte, slice *rpcapi.DataSlice) []byte {
	if slice == nil {
		return data
	}
	n := uint64(len(data))
	if slice.Offset >= n {
		return data[:0:0]
	}
	end := n
	if slice.Length < n-slice.Offset {
		end = slice.Offset + slice.Length
	}
	return data[slice.Offset:end]
}

// zstdEncoder is shared: EncodeAll is safe for concurrent use. Zero frames are on so that empty
// data still gives a decodable frame; checksums are off, as libzstd's default. The window is
// libzstd's for level 3 when the content size is unknown (2 MiB), so that the header the frame
// gets below (which declares that window) is true of every match the encoder makes.
var zstdEncoder = sync.OnceValues(func() (*zstd.Encoder, error) {
	return zstd.NewWriter(nil,
		zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithEncoderCRC(false),
		zstd.WithZeroFrames(true),
		zstd.WithWindowSize(referenceZstdWindow))
})

// The reference compresses with the zstd crate's streaming writer at level 0 (libzstd's
// default, level 3): the data goes in with write calls and the frame is ended afterwards, so
// libzstd never learns the content size. Its frame header is then the magic number, a frame
// header descriptor of 0 (no single segment, no content size, no checksum, no dictionary) and
// the window descriptor of level 3's window log 21. Empty data is the exception: nothing is
// written before the end, libzstd takes the size as known (0) and writes a single-segment
// header with a one-byte content size, which is what the encoder below writes for it too.
const (
	referenceZstdWindow     = 1 << 21
	referenceZstdWindowDesc = 0x58 // exponent 21-10 = 11 in the top five bits, mantissa 0
)

var zstdMagic = [4]byte{0x28, 0xb5, 0x2f, 0xfd}

func compressZstd(data []byte) ([]byte, bool) {
	enc, err := zstdEncoder()
	if err != nil {
		return nil, false
	}
	if len(data) == 0 {
		return enc.EncodeAll(data, nil), true
	}
	out := make([]byte, 0, 6+len(data)/2+16)
	out = append(out, zstdMagic[:]...)
	out = append(out, 0x00, referenceZstdWindowDesc)
	if block, ok := referenceBlock(data); ok {
		return append(out, block...), true
	}
	blocks, ok := zstdFrameBlocks(enc.EncodeAll(data, make([]byte, 0, len(data)/2+16)))
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
