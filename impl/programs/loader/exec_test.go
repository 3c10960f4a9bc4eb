package loader

import (
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/programs/token"
)

// TestMemoELFs runs the real memo builds (4.0 under loader v2, 1.0 under the deprecated loader,
// whose input is unaligned) at addresses of their own, with LiteSVM running the same
// transactions: outcome, logs, compute units and accounts equal, the invalid UTF-8 panic
// included.
func TestMemoELFs(t *testing.T) {
	progs := realelf.Programs(t)
	payer := testKey(1)
	memo4, memo1 := progs[realelf.Memo4], progs[realelf.Memo1]
	memo4.ID, memo1.ID = testKey(2).PublicKey(), testKey(3).PublicKey()
	memoIx := func(p core.Pubkey, text string, signers ...core.Pubkey) core.Instruction {
		metas := []core.AccountMeta{}
		for _, s := range signers {
			metas = append(metas, core.ReadonlySigner(s))
		}
		return core.Instruction{ProgramID: p, Accounts: metas, Data: []byte(text)}
	}
	b := newVMBank(t)
	second := testKey(4)
	steps := []realelf.Step{
		{Name: "memo 4.0", Tx: b.tx([]core.Instruction{memoIx(memo4.ID, "hello, ledgerd", payer.PublicKey())}, payer)},
		{Name: "memo 1.0", Tx: b.tx([]core.Instruction{memoIx(memo1.ID, "hello, ledgerd", payer.PublicKey())}, payer)},
		{Name: "memo 4.0, invalid UTF-8", Tx: b.tx([]core.Instruction{memoIx(memo4.ID, "\xff\xfe", payer.PublicKey())}, payer)},
		{Name: "memo 4.0, two signers", Tx: b.tx([]core.Instruction{memoIx(memo4.ID, "two", payer.PublicKey(), second.PublicKey())}, payer, second)},
		{Name: "memo 4.0, no signer", Tx: b.tx([]core.Instruction{memoIx(memo4.ID, "nobody")}, payer)},
		{Name: "memo 1.0 then 4.0", Tx: b.tx([]core.Instruction{memoIx(memo1.ID, "x"), memoIx(memo4.ID, "y", payer.PublicKey())}, payer)},
	}
	compareWithOracle(t, realelf.Scenario{
		Name:     "memo",
		Programs: []realelf.Program{memo4, memo1},
		Accounts: []realelf.Account{fundedAccount(payer.PublicKey()), fundedAccount(second.PublicKey())},
		Steps:    steps,
	})
}

// TestSPLTokenELF runs SPL Token 3.5.0's real build on InitializeMint, InitializeAccount,
// MintTo, Transfer and a Transfer of more than the balance, with LiteSVM running the same
// transactions: every account byte, log line and compute unit equal.
func TestSPLTokenELF(t *testing.T) {
	progs := realelf.Programs(t)
	payer, alice, bob := testKey(10), testKey(11), testKey(12)
	mint, aliceTA, bobTA := testKey(13).PublicKey(), testKey(14).PublicKey(), testKey(15).PublicKey()
	tk := core.TokenProgramID
	zeroed := func(k core.Pubkey, size int, lamports uint64) realelf.Account {
		return realelf.Account{Address: k, Lamports: lamports, Owner: tk, Data: make([]byte, size)}
	}
	b := newVMBank(t)
	steps := []realelf.Step{
		{Name: "InitializeMint", Tx: b.tx([]core.Instruction{token.InitializeMintIx(tk, mint, alice.PublicKey(), nil, 6)}, payer)},
		{Name: "InitializeAccount x2", Tx: b.tx([]core.Instruction{
			token.InitializeAccount(tk, aliceTA, mint, alice.PublicKey()),
			token.InitializeAccount(tk, bobTA, mint, bob.PublicKey())}, payer)},
		{Name: "MintTo", Tx: b.tx([]core.Instruction{token.MintTo(tk, mint, aliceTA, alice.PublicKey(), nil, 1_000_000)}, payer, alice)},
		{Name: "Transfer", Tx: b.tx([]core.Instruction{token.Transfer(tk, aliceTA, bobTA, alice.PublicKey(), nil, 250_000)}, payer, alice)},
		{Name: "Transfer too much", Tx: b.tx([]core.Instruction{token.Transfer(tk, aliceTA, bobTA, alice.PublicKey(), nil, 750_001)}, payer, alice)},
		{Name: "Transfer without the owner's signature", Tx: b.tx([]core.Instruction{func() core.Instruction {
			ix := token.Transfer(tk, aliceTA, bobTA, alice.PublicKey(), nil, 1)
			ix.Accounts[2].IsSigner = false
			return ix
		}()}, payer)},
		{Name: "InitializeMint again", Tx: b.tx([]core.Instruction{token.InitializeMintIx(tk, mint, alice.PublicKey(), nil, 6)}, payer)},
	}
	compareWithOracle(t, realelf.Scenario{
		Name:     "token",
		Programs: []realelf.Program{progs[realelf.SPLToken]},
		Accounts: []realelf.Account{fundedAccount(payer.PublicKey()), fundedAccount(alice.PublicKey()),
			zeroed(mint, token.MintSize, 1_461_600), zeroed(aliceTA, token.AccountSize, 2_039_280), zeroed(bobTA, token.AccountSize, 2_039_280)},
		Steps: steps,
	})
}
