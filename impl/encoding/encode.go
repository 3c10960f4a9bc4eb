package encoding

import (
	"encoding/base64"
	"errors"
	"fmt"

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
func EncodeAccount(acct runtime.Account, pubkey core.Pubkey, encoding rpcapi.AccountEncoding, slice *rpcapi.DataSlice, opts Options) (rpcapi.UiAccount, error) {
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

func encodeData(acct runtime.Account, pubkey core.Pubkey, encoding rpcapi.AccountEncoding, slice *rpcapi.DataSlice, opts Options) (rpcapi.AccountData, error) {
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

func pair(text string, encoding rpcapi.AccountEncoding) rpcapi.AccountData {
	return rpcapi.AccountData{Encoded: &[2]string{text, string(encoding)}}
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
