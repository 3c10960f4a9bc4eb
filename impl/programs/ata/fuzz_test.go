package ata_test

import (
	"testing"

	"ledgerd/impl/programs/ata"
)

// FuzzDecode: instruction data never panics the decoder; what decodes is empty data (Create)
// or exactly the variant's tag byte.
func FuzzDecode(f *testing.F) {
	for _, d := range [][]byte{nil, {0}, {1}, {2}, {3}, {0, 0}, {255}} {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		k, err := ata.Decode(data)
		if err != nil {
			return
		}
		switch {
		case len(data) == 0 && k != ata.KindCreate:
			t.Fatalf("empty data decoded to %v", k)
		case len(data) == 1 && byte(k) != data[0]:
			t.Fatalf("%x decoded to %v", data, k)
		case len(data) > 1:
			t.Fatalf("%x decoded to %v despite trailing bytes", data, k)
		case k.String() == "Unknown":
			t.Fatalf("%x decoded to an unknown variant", data)
		}
	})
}
