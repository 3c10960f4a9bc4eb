package precompile

import (
	"testing"
)

// The time to verify one signature of each precompile, with the message inline.
func BenchmarkVerify(b *testing.B) {
	msg := []byte("benchmark message of a typical size for an off-chain signed payload")
	edData := edInstruction(msg)
	addr := EthAddress(k1Key.PubKey().SerializeUncompressed()[1:])
	sig, rid := k1Sign(msg)
	k1Data := NewSecp256k1Instruction(addr, sig, rid, msg, 0)
	r1Data := NewSecp256r1Instruction(r1Compressed(), r1SignB(b, msg), msg)
	for _, c := range []struct {
		name string
		v    Verifier
		data []byte
	}{{"ed25519", VerifyEd25519, edData}, {"secp256k1", VerifySecp256k1, k1Data}, {"secp256r1", VerifySecp256r1, r1Data}} {
		b.Run(c.name, func(b *testing.B) {
			datas := [][]byte{c.data}
			for b.Loop() {
				if err := c.v(c.data, datas); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
