//go:build unix

package zkproof

import "testing"

// BenchmarkVerify verifies a real proof of each type (made by the reference's zk-sdk).
func BenchmarkVerify(b *testing.B) {
	for _, v := range freshVectors(b) {
		typ := proofTypeByName[v.Name]
		b.Run(v.Name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Verify(typ, v.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
