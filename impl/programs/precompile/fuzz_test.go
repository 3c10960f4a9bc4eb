package precompile

import (
	"crypto/ed25519"
	"testing"

	"ledgerd/impl/core"
)

// FuzzVerify feeds arbitrary instruction data (and a second instruction) to the three
// precompiles: the offsets they parse may point anywhere, and they must answer nil or one of
// the precompile errors, never panic.
func FuzzVerify(f *testing.F) {
	priv := ed25519.NewKeyFromSeed(make([]byte, 32))
	var pub core.Pubkey
	copy(pub[:], priv.Public().(ed25519.PublicKey))
	f.Add(NewEd25519Instruction(pub, core.Signature(ed25519.Sign(priv, []byte("m"))), []byte("m")), []byte{})
	f.Add(NewSecp256k1Instruction([20]byte{}, [64]byte{1}, 0, []byte("m"), 0), []byte("other"))
	f.Add(NewSecp256r1Instruction([33]byte{2}, [64]byte{1}, []byte("m")), []byte{1, 2})
	f.Add([]byte{1, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, []byte{})
	f.Add([]byte{8, 0}, []byte{})
	f.Fuzz(func(t *testing.T, data, other []byte) {
		datas := [][]byte{data, other}
		for _, v := range []Verifier{VerifyEd25519, VerifySecp256k1, VerifySecp256r1} {
			err := v(data, datas)
			if err == nil {
				continue
			}
			if _, ok := err.(Error); !ok || err.(Error) > InvalidInstructionDataSize {
				t.Fatalf("error %v (%T) is not a precompile error", err, err)
			}
		}
	})
}
