package bincode_test

import (
	"math"
	"reflect"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/bincode"
)

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	u, i, k := uint64(7), int64(-3), core.Pubkey{1, 2, 3}
	var b []byte
	b = append(b, 0xab)
	b = bincode.AppendU32(b, 0xdeadbeef)
	b = bincode.AppendU64(b, math.MaxUint64)
	b = bincode.AppendI64(b, math.MinInt64)
	b = bincode.AppendF64(b, 0.25)
	b = bincode.AppendBool(b, true)
	b = bincode.AppendPubkey(b, k)
	b = bincode.AppendHash(b, core.Hash{9})
	b = bincode.AppendStr(b, "seed é")
	b = bincode.AppendOptU64(b, &u)
	b = bincode.AppendOptU64(b, nil)
	b = bincode.AppendOptI64(b, &i)
	b = bincode.AppendOptPubkey(b, &k)
	b = bincode.AppendOptPubkey(b, nil)
	b = bincode.AppendVarU64(b, 300)
	b = bincode.AppendVarU64(b, math.MaxUint64)
	b = core.AppendShortU16(b, 2)
	b = bincode.AppendU64(b, 2) // a sequence of two u8
	b = append(b, 5, 6)

	r := bincode.NewReader(b)
	got := []any{r.U8(), r.U32(), r.U64(), r.I64(), r.F64(), r.Bool(), r.Pubkey(), r.Hash(), r.Str(),
		*r.OptU64(), r.OptU64(), *r.OptI64(), *r.OptPubkey(), r.OptPubkey(), r.VarU64(), r.VarU64(),
		r.ShortLen(), r.SeqLen(1)}
	r.Skip(2)
	want := []any{uint8(0xab), uint32(0xdeadbeef), uint64(math.MaxUint64), int64(math.MinInt64), 0.25, true, k,
		core.Hash{9}, "seed é", u, (*uint64)(nil), i, k, (*core.Pubkey)(nil), uint64(300), uint64(math.MaxUint64),
		2, 2}
	if err := r.Err(); err != nil {
		t.Fatalf("Err() = %v, want nil", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back\n got %v\nwant %v", got, want)
	}
	if r.Len() != 0 {
		t.Errorf("Len() = %d after reading everything, want 0", r.Len())
	}
}

func TestFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		read func(*bincode.Reader)
		data []byte
	}{
		{"short u64", func(r *bincode.Reader) { r.U64() }, []byte{1, 2, 3}},
		{"bool 2", func(r *bincode.Reader) { r.Bool() }, []byte{2}},
		{"option tag 2", func(r *bincode.Reader) { r.OptU64() }, []byte{2, 0, 0, 0, 0, 0, 0, 0, 0}},
		{"string not UTF-8", func(r *bincode.Reader) { r.Str() }, bincode.AppendStr(nil, "\xff")},
		{"string longer than data", func(r *bincode.Reader) { r.Str() }, bincode.AppendU64(nil, 1<<62)},
		{"hostile sequence length", func(r *bincode.Reader) { r.SeqLen(8) }, bincode.AppendU64(nil, 1<<40)},
		{"varint trailing zero", func(r *bincode.Reader) { r.VarU64() }, []byte{0x80, 0}},
		{"varint too long", func(r *bincode.Reader) { r.VarU64() }, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02}},
		{"short_vec truncated", func(r *bincode.Reader) { r.ShortLen() }, []byte{0x80}},
		{"skip past end", func(r *bincode.Reader) { r.Skip(2) }, []byte{0}},
		{"Fail", func(r *bincode.Reader) { r.Fail() }, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := bincode.NewReader(tt.data)
			tt.read(r)
			if r.Err() == nil {
				t.Fatalf("Err() = nil, want %v", bincode.ErrInvalid)
			}
			if got := r.U8(); got != 0 {
				t.Errorf("a read after the failure = %d, want 0 (the failure sticks)", got)
			}
		})
	}
}

func TestLimit(t *testing.T) {
	t.Parallel()
	data := make([]byte, 16)
	r := bincode.NewLimitedReader(data, 12)
	r.U64()
	if r.Err() != nil {
		t.Fatalf("reading 8 of a 12-byte limit: %v", r.Err())
	}
	r.U64()
	if r.Err() == nil {
		t.Fatal("reading past the limit: Err() = nil, want ErrInvalid")
	}
}

// FuzzReader checks that no data makes a read panic or report bytes it did not have.
func FuzzReader(f *testing.F) {
	f.Add([]byte{1, 7, 0, 0, 0, 0, 0, 0, 0}, uint8(3))
	f.Add(bincode.AppendStr(nil, "abc"), uint8(5))
	f.Add([]byte{0x80, 0x80, 0x01}, uint8(11))
	f.Fuzz(func(t *testing.T, data []byte, limit uint8) {
		r := bincode.NewLimitedReader(data, int(limit))
		for op := 0; r.Err() == nil && op < 64; op++ {
			before := r.Len()
			switch op % 13 {
			case 0:
				r.U8()
			case 1:
				r.U32()
			case 2:
				r.I64()
			case 3:
				r.F64()
			case 4:
				r.Bool()
			case 5:
				r.Pubkey()
			case 6:
				r.Str()
			case 7:
				r.OptI64()
			case 8:
				r.OptPubkey()
			case 9:
				r.SeqLen(3)
			case 10:
				r.ShortLen()
			case 11:
				r.VarU64()
			case 12:
				r.Hash()
			}
			if r.Len() > before || r.Len() < 0 {
				t.Fatalf("op %d: Len went from %d to %d", op, before, r.Len())
			}
		}
	})
}
