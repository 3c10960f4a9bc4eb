package computebudget_test

import (
	"testing"

	"ledgerd/impl/runtime/computebudget"
)

func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		data []byte
		want computebudget.Instruction
		ok   bool
	}{
		{[]byte{0}, computebudget.Instruction{Kind: computebudget.KindUnused}, true},
		{[]byte{1, 0, 0x80, 0, 0}, computebudget.Instruction{Kind: computebudget.KindRequestHeapFrame, Value: 32 * 1024}, true},
		{[]byte{2, 0x40, 0x0d, 0x03, 0}, computebudget.Instruction{Kind: computebudget.KindSetComputeUnitLimit, Value: 200_000}, true},
		{[]byte{3, 1, 0, 0, 0, 0, 0, 0, 0, 99}, computebudget.Instruction{Kind: computebudget.KindSetComputeUnitPrice, Value: 1}, true},
		{[]byte{4, 0, 0, 1, 0}, computebudget.Instruction{Kind: computebudget.KindSetLoadedAccountsDataSizeLimit, Value: 65536}, true},
		{nil, computebudget.Instruction{}, false},
		{[]byte{5, 0, 0, 0, 0}, computebudget.Instruction{}, false},
		{[]byte{2, 0, 0, 0}, computebudget.Instruction{}, false},
		{[]byte{3, 0, 0, 0, 0, 0, 0, 0}, computebudget.Instruction{}, false},
	}
	for _, tc := range tests {
		got, err := computebudget.Decode(tc.data)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("%x: %+v %v", tc.data, got, err)
		}
	}
	if got := computebudget.SetComputeUnitPrice(7).Data; len(got) != 9 || got[0] != 3 || got[1] != 7 {
		t.Errorf("price data %x", got)
	}
	if computebudget.KindSetComputeUnitLimit.String() != "SetComputeUnitLimit" {
		t.Error("kind name")
	}
}

func TestPrioritizationFee(t *testing.T) {
	t.Parallel()
	tests := []struct{ price, limit, want uint64 }{
		{0, 200_000, 0},
		{1, 1, 1},
		{1, 1_000_000, 1},
		{1, 1_000_001, 2},
		{1_000_000, 6000, 6000},
		{10, 203_000, 3},
		{^uint64(0), 1_400_000, ^uint64(0)},
		{^uint64(0) / 1_400_000, 1_400_000, 18_446_744_073_709}, // the largest price that does not saturate
	}
	for _, tc := range tests {
		if got := computebudget.PrioritizationFee(tc.price, tc.limit); got != tc.want {
			t.Errorf("fee(%d, %d) = %d, want %d", tc.price, tc.limit, got, tc.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{2, 1, 2, 3, 4})
	f.Add([]byte{3, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := computebudget.Decode(data)
		if err != nil {
			return
		}
		if again, err := computebudget.Decode(ix.Encode()); err != nil || again != ix {
			t.Fatalf("%x: %+v %v", data, again, err)
		}
	})
}
