package loader

import (
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
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
