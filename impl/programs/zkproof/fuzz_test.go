package zkproof

import (
	"testing"

	"github.com/gtank/ristretto255"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// FuzzVerify feeds arbitrary proof data of every type to the verifiers: each must return, never
// panic, and accept nothing but what it can check (random data never verifies).
func FuzzVerify(f *testing.F) {
	for t := ZeroCiphertext; t < numProofTypes; t++ {
		f.Add(byte(t), make([]byte, DataLen(t)))
	}
	f.Fuzz(func(t *testing.T, kind byte, data []byte) {
		typ := ProofType(kind%byte(numProofTypes-1)) + 1
		n := DataLen(typ)
		if len(data) < n {
			data = append(data, make([]byte, n-len(data))...)
		}
		if _, err := Verify(typ, data[:n]); err == nil {
			// A valid proof from random bytes would be a forgery.
			t.Fatalf("random %v proof data verified", typ)
		}
	})
}

// FuzzRangeProofDecode decodes arbitrary bytes as a range proof and, when they decode, verifies
// them against one commitment: no panic, no hang.
func FuzzRangeProofDecode(f *testing.F) {
	f.Add(make([]byte, 672))
	f.Add(make([]byte, 7*32))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := decodeRangeProof(b)
		if err != nil {
			return
		}
		if len(p.L) > 8 {
			return // more rounds than the program's proofs have: verify would only refuse the size
		}
		_ = p.verify([]*ristretto255.Element{basepoint}, []int{64}, newTranscript("fuzz"))
	})
}

// FuzzProgram runs the program on arbitrary instruction data, with an arbitrary account holding
// proof data or serving as a context-state account: it must fail or succeed with an
// instruction error, never panic, and only a verified proof may write a context.
func FuzzProgram(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0}, make([]byte, 33+96), true)
	f.Add([]byte{0}, make([]byte, 33), true)
	f.Add(append([]byte{4}, make([]byte, 96)...), make([]byte, 33+32), false)
	f.Fuzz(func(t *testing.T, data, acct []byte, owned bool) {
		payer := core.KeypairFromSeed([32]byte{9})
		other := core.KeypairFromSeed([32]byte{10}).PublicKey()
		owner := core.SystemProgramID
		if owned {
			owner = ProgramID
		}
		accts := runtime.MapSource{
			payer.PublicKey(): {Lamports: 1e10, Owner: core.SystemProgramID},
			ProgramID:         {Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("zk_elgamal_proof_program")},
			other:             {Lamports: 1e9, Owner: owner, Data: acct},
		}
		ix := core.Instruction{ProgramID: ProgramID, Data: data,
			Accounts: []core.AccountMeta{core.Writable(other), core.Writable(other), core.ReadonlySigner(payer.PublicKey())}}
		hash := core.HashBytes([]byte("fuzz"))
		msg, err := core.CompileLegacyMessage(payer.PublicKey(), []core.Instruction{ix}, hash)
		if err != nil {
			t.Skip()
		}
		tx, err := core.NewSignedTransaction(msg, payer)
		if err != nil {
			t.Fatal(err)
		}
		res := runtime.Execute(runtime.DefaultEnv(hash, runtime.NewRegistry(Module)), accts, tx, runtime.Options{})
		if res.Err == nil && len(data) > 0 && data[0] != CloseContextState {
			t.Fatalf("random proof data verified: %x", data)
		}
	})
}
