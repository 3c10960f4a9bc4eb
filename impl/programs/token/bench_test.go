package token_test

import (
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
)

// benchmarkTransfer executes one signed token transfer per iteration against the same bank
// state (the writes are not committed), the work a block producer does per transfer.
func benchmarkTransfer(b *testing.B, programID core.Pubkey, checked bool) {
	h := newHarness(b)
	h.setup(programID, 1e9)
	ix := token.Transfer(programID, aliceTA.PublicKey(), bobTA.PublicKey(), alice.PublicKey(), nil, 1)
	if checked {
		ix = token.TransferChecked(programID, aliceTA.PublicKey(), mintKP.PublicKey(), bobTA.PublicKey(), alice.PublicKey(), nil, 1, 2)
	}
	msg, err := core.CompileLegacyMessage(alice.PublicKey(), []core.Instruction{ix}, h.env.Blockhash)
	if err != nil {
		b.Fatal(err)
	}
	tx, err := core.NewSignedTransaction(msg, alice)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res := runtime.Execute(h.env, h.accs, tx, runtime.Options{})
		if res.Err != nil {
			b.Fatal(res.Err)
		}
	}
}

func BenchmarkTransfer(b *testing.B)            { benchmarkTransfer(b, token.ProgramID, false) }
func BenchmarkTransferChecked(b *testing.B)     { benchmarkTransfer(b, token.ProgramID, true) }
func BenchmarkTransferChecked2022(b *testing.B) { benchmarkTransfer(b, token.Program2022ID, true) }
