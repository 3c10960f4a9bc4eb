package core

import (
	"bytes"
	"testing"
)

func TestShortU16Encoding(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v   uint16
		enc []byte
	}{
		{0x0000, []byte{0x00}},
		{0x007f, []byte{0x7f}},
		{0x0080, []byte{0x80, 0x01}},
		{0x00ff, []byte{0xff, 0x01}},
		{0x0100, []byte{0x80, 0x02}},
		{0x07ff, []byte{0xff, 0x0f}},
		{0x3fff, []byte{0xff, 0x7f}},
		{0x4000, []byte{0x80, 0x80, 0x01}},
		{0x7fff, []byte{0xff, 0xff, 0x01}},
		{0xffff, []byte{0xff, 0xff, 0x03}},
	}
	for _, tt := range tests {
		got := AppendShortU16(nil, tt.v)
		if !bytes.Equal(got, tt.enc) {
			t.Errorf("encode %#x = %x, want %x", tt.v, got, tt.enc)
		}
		if ShortU16Len(tt.v) != len(tt.enc) {
			t.Errorf("ShortU16Len(%#x) = %d, want %d", tt.v, ShortU16Len(tt.v), len(tt.enc))
		}
		v, n, err := DecodeShortU16(append(tt.enc, 0xaa))
		if err != nil || v != tt.v || n != len(tt.enc) {
			t.Errorf("decode %x = %#x,%d,%v", tt.enc, v, n, err)
		}
	}
}

func TestShortU16Errors(t *testing.T) {
	t.Parallel()
	const (
		alias    = "invalid value: alias encoding, expected strict form encoding"
		three    = "invalid value: continue signal on byte-three, expected a terminal signal on or before byte-three"
		eof      = "io error: failed to fill whole buffer"
		overflow = "invalid value: integer `%d`, expected a value in the range [0, 65535]"
	)
	tests := []struct {
		in   []byte
		want string
	}{
		{[]byte{0x80, 0x00}, alias},
		{[]byte{0x80, 0x80, 0x00}, alias},
		{[]byte{0xff, 0x00}, alias},
		{[]byte{0xff, 0x80, 0x00}, alias},
		{[]byte{0x80, 0x81, 0x00}, alias},
		{[]byte{0xff, 0xff, 0x00}, alias},
		{[]byte{0x81, 0x80, 0x00, 0x00}, alias},
		{[]byte{}, eof},
		{[]byte{0x80}, eof},
		{[]byte{0xff, 0xff}, eof},
		{[]byte{0x80, 0x80, 0x80, 0x00}, three},
		{[]byte{0xff, 0xff, 0xff}, three},
		{[]byte{0x80, 0x80, 0x04}, "invalid value: integer `65536`, expected a value in the range [0, 65535]"},
		{[]byte{0x80, 0x80, 0x06}, "invalid value: integer `98304`, expected a value in the range [0, 65535]"},
		{[]byte{0xff, 0xff, 0x7f}, "invalid value: integer `2097151`, expected a value in the range [0, 65535]"},
	}
	for _, tt := range tests {
		_, _, err := DecodeShortU16(tt.in)
		if err == nil || err.Error() != tt.want {
			t.Errorf("DecodeShortU16(%x) error = %v, want %q", tt.in, err, tt.want)
		}
	}
}

func TestShortU16Exhaustive(t *testing.T) {
	t.Parallel()
	for v := 0; v <= 0xffff; v++ {
		enc := AppendShortU16(nil, uint16(v))
		got, n, err := DecodeShortU16(enc)
		if err != nil || int(got) != v || n != len(enc) {
			t.Fatalf("v=%d enc=%x got=%d n=%d err=%v", v, enc, got, n, err)
		}
	}
}

func FuzzShortU16(f *testing.F) {
	for _, s := range [][]byte{{0}, {0x80, 0x01}, {0xff, 0xff, 0x03}, {0x80, 0x00}, {0x80, 0x80, 0x04}, {}} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, n, err := DecodeShortU16(b)
		if err != nil {
			if _, ok := err.(*DecodeError); !ok {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		// Strict decoding means the encoding is canonical: it round trips byte for byte.
		if enc := AppendShortU16(nil, v); !bytes.Equal(enc, b[:n]) {
			t.Fatalf("decoded %x as %d, which encodes as %x", b[:n], v, enc)
		}
	})
}
