package sat

import "testing"

func TestSaturation(t *testing.T) {
	t.Parallel()
	const maxU = ^uint64(0)
	for _, tt := range []struct {
		name      string
		got, want uint64
	}{
		{"add", Add(2, 3), 5},
		{"add at the limit", Add(maxU-1, 1), maxU},
		{"add past the limit", Add(maxU, 2), maxU},
		{"sub", Sub(5, 3), 2},
		{"sub below zero", Sub(3, 5), 0},
		{"mul", Mul(1<<31, 1<<32), 1 << 63},
		{"mul by zero", Mul(0, maxU), 0},
		{"mul past the limit", Mul(1<<32, 1<<32), maxU},
		{"mul just past the limit", Mul(maxU/3+1, 3), maxU},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: got %d, want %d", tt.name, tt.got, tt.want)
		}
	}
}
