package core

import "strconv"

// The compact-u16 ("shortvec") length encoding: 7 bits per byte, least significant group
// first, the high bit set on every byte but the last, at most 3 bytes. Decoding is strict:
// a zero byte after the first (an alias of a shorter encoding), a continuation bit on the third
// byte, or a value above 65535 is an error, as in the reference.

// MaxShortU16Len is the longest encoding of a shortvec length.
const MaxShortU16Len = 3

// DecodeError is a failure to read a transaction, message or shortvec from its wire form. Its
// text is the one the reference's bincode/serde decoding reports, so the RPC layer can build
// `failed to deserialize {type}: {error}` from it.
type DecodeError struct{ msg string }

func (e *DecodeError) Error() string { return e.msg }

// Decode errors with fixed texts.
var (
	// ErrUnexpectedEOF: the input ended early (bincode reading from a byte slice reader).
	ErrUnexpectedEOF = &DecodeError{"io error: failed to fill whole buffer"}
	// ErrShortVecAlias: a zero byte after the first, i.e. a longer encoding of a smaller value.
	ErrShortVecAlias = &DecodeError{"invalid value: alias encoding, expected strict form encoding"}
	// ErrShortVecByteThreeContinues: the third byte has its continuation bit set.
	ErrShortVecByteThreeContinues = &DecodeError{"invalid value: continue signal on byte-three, expected a terminal signal on or before byte-three"}
	// ErrTrailingBytes: bytes left over where the whole input had to be consumed.
	ErrTrailingBytes = &DecodeError{"Slice had bytes remaining after deserialization"}
	// ErrOffChainMessage: version 127, whose prefix 0xff starts off-chain messages.
	ErrOffChainMessage = &DecodeError{"off-chain messages are not accepted"}
)

func shortVecOverflow(v uint32) *DecodeError {
	return &DecodeError{"invalid value: integer `" + strconv.FormatUint(uint64(v), 10) + "`, expected a value in the range [0, 65535]"}
}

func invalidMessageVersion(v uint8) *DecodeError {
	return &DecodeError{"invalid value: integer `" + strconv.FormatUint(uint64(v), 10) + "`, expected a valid transaction message version"}
}

// ShortU16Len returns the number of bytes AppendShortU16 writes for v.
func ShortU16Len(v uint16) int {
	switch {
	case v < 1<<7:
		return 1
	case v < 1<<14:
		return 2
	default:
		return 3
	}
}

// AppendShortU16 appends the compact encoding of v.
func AppendShortU16(dst []byte, v uint16) []byte {
	for {
		b := byte(v & 0x7f)
		v >>= 7
		if v == 0 {
			return append(dst, b)
		}
		dst = append(dst, b|0x80)
	}
}

// DecodeShortU16 reads a compact-u16 from the start of b and returns the value and the number of
// bytes it took. Errors are *DecodeError values with the reference's texts.
func DecodeShortU16(b []byte) (uint16, int, error) {
	var val uint32
	for i := 0; i < MaxShortU16Len; i++ {
		if i >= len(b) {
			return 0, 0, ErrUnexpectedEOF
		}
		elem := b[i]
		if elem == 0 && i != 0 {
			return 0, 0, ErrShortVecAlias
		}
		done := elem&0x80 == 0
		if i == MaxShortU16Len-1 && !done {
			return 0, 0, ErrShortVecByteThreeContinues
		}
		val |= uint32(elem&0x7f) << (7 * i)
		if val > 0xffff {
			return 0, 0, shortVecOverflow(val)
		}
		if done {
			return uint16(val), i + 1, nil
		}
	}
	// Unreachable: the third byte is either terminal or rejected above.
	return 0, 0, ErrShortVecByteThreeContinues
}
