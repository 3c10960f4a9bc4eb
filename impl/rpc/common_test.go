package rpc

import (
	"errors"
	"strings"
	"testing"

	"ledgerd/generated/rpcapi"
)

func TestDecodeWireErrorTexts(t *testing.T) {
	b58, b64 := "base58", "base64"
	for _, c := range []struct {
		data, enc, want string
	}{
		{"3yZe7d0l", b58, "invalid base58 encoding: InvalidCharacter { character: '0', index: 6 }"},
		{"abcé", b58, "invalid base58 encoding: NonAsciiCharacter { index: 3 }"},
		{"AAA!", b64, "invalid base64 encoding: InvalidByte(3, 33)"},
		{"AAAAA", b64, "invalid base64 encoding: InvalidLength(5)"},
		{"AAAAA", "json", "unsupported encoding: json. Supported encodings: base58, base64"},
		{strings.Repeat("1", 1684), b58, "base58 encoded T too large: 1684 bytes (max: encoded/raw 1683/1232)"},
		{strings.Repeat("A", 1648), b64, "base64 encoded T too large: 1648 bytes (max: encoded/raw 1644/1232)"},
		{strings.Repeat("A", 1644), b64, "decoded T too large: 1233 bytes (max: 1232 bytes)"},
	} {
		_, err := decodeWire(c.data, &c.enc, "T")
		var e *rpcapi.Error
		if !errors.As(err, &e) || e.Code != -32602 || e.Message != c.want {
			t.Errorf("%.20q (%s): %v, want %q", c.data, c.enc, err, c.want)
		}
	}
}
