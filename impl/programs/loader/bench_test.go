package loader

import (
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
)

// BenchmarkTokenTransferELF executes an SPL Token transfer from the real 3.5.0 ELF (under loader
// v2, from the program cache) in process: one transaction per iteration, committed, alternating
// direction. ns/op is the time per transaction.
func BenchmarkTokenTransferELF(b *testing.B) {
	progs := realelf.Programs(b)
	bank := newVMBank(b)
	tk := core.TokenProgramID
	bank.addProgram(tk, core.BPFLoaderProgramID, progs[realelf.SPLToken].ELF, 0)
	payer, alice, bob := testKey(80), testKey(81), testKey(82)
	mint, aliceTA, bobTA := testKey(83).PublicKey(), testKey(84).PublicKey(), testKey(85).PublicKey()
	for _, k := range []core.Pubkey{payer.PublicKey(), alice.PublicKey(), bob.PublicKey()} {
		bank.accounts[k] = runtime.Account{Lamports: 1e15, Owner: core.SystemProgramID}
	}
	bank.accounts[mint] = runtime.Account{Lamports: 1_461_600, Owner: tk, Data: make([]byte, token.MintSize)}
	bank.accounts[aliceTA] = runtime.Account{Lamports: 2_039_280, Owner: tk, Data: make([]byte, token.AccountSize)}
	bank.accounts[bobTA] = runtime.Account{Lamports: 2_039_280, Owner: tk, Data: make([]byte, token.AccountSize)}
	for i, ixs := range [][]core.Instruction{
		{token.InitializeMintIx(tk, mint, alice.PublicKey(), nil, 6)},
		{token.InitializeAccount(tk, aliceTA, mint, alice.PublicKey()), token.InitializeAccount(tk, bobTA, mint, bob.PublicKey())},
		{token.MintTo(tk, mint, aliceTA, alice.PublicKey(), nil, 1_000_000)},
	} {
		signers := []core.Keypair{payer}
		if i == 2 {
			signers = append(signers, alice)
		}
		if res := bank.run(ixs, signers...); res.Err != nil {
			b.Fatalf("setup: %v %q", res.Err, res.Logs)
		}
	}
	there := bank.tx([]core.Instruction{token.Transfer(tk, aliceTA, bobTA, alice.PublicKey(), nil, 1)}, payer, alice)
	back := bank.tx([]core.Instruction{token.Transfer(tk, bobTA, aliceTA, bob.PublicKey(), nil, 1)}, payer, bob)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		tx := there
		if i%2 == 1 {
			tx = back
		}
		if res := bank.execute(tx); res.Err != nil {
			b.Fatalf("transfer: %v %q", res.Err, res.Logs)
		}
	}
}
