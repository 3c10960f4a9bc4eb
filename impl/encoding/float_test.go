package encoding

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"ledgerd/generated/rpcapi"
)

// TestFloat64 checks the serde_json (ryu) text of f64 values, including each boundary of its
// plain and exponent forms.
func TestFloat64(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0.0"},
		{math.Copysign(0, -1), "-0.0"},
		{2, "2.0"},
		{-2, "-2.0"},
		{1.5, "1.5"},
		{0.08, "0.08"},
		{0.015, "0.015"},
		{7, "7.0"},
		{0.30000000000000004, "0.30000000000000004"},
		{123456.789, "123456.789"},
		{1e15, "1000000000000000.0"},
		{1e16, "1e16"},
		{1.5e16, "1.5e16"},
		{9007199254740993, "9007199254740992.0"},
		{1234567890123456.7, "1234567890123456.8"},
		{12345678901234567.0, "1.2345678901234568e16"},
		{1e-5, "0.00001"},
		{1.25e-5, "0.0000125"},
		{1e-6, "1e-6"},
		{1.5e-7, "1.5e-7"},
		{1.5e300, "1.5e300"},
		{5e-324, "5e-324"},
		{math.MaxFloat64, "1.7976931348623157e308"},
		{math.NaN(), "null"},
		{math.Inf(1), "null"},
		{math.Inf(-1), "null"},
	}
	for _, tt := range tests {
		b, err := json.Marshal(rpcapi.Float(tt.in))
		if err != nil {
			t.Fatalf("%v: %v", tt.in, err)
		}
		if string(b) != tt.want {
			t.Errorf("rpcapi.Float(%v) = %s, want %s", tt.in, b, tt.want)
		}
	}
}

// FuzzFloat64 checks that the text always reads back as the same float.
func FuzzFloat64(f *testing.F) {
	for _, v := range []float64{0, 2, 0.1, 1e16, 1e-6, 5e-324, math.MaxFloat64} {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		v := math.Float64frombits(bits)
		s := string(rpcapi.AppendFloat(nil, v))
		if math.IsNaN(v) || math.IsInf(v, 0) {
			if s != "null" {
				t.Fatalf("%v: got %s, want null", v, s)
			}
			return
		}
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(back) != bits {
			t.Fatalf("%v (%#x): text %s reads back as %v, %v", v, bits, s, back, err)
		}
	})
}
