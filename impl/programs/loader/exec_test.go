package loader

import (
	"bytes"
	"crypto/sha256"
	"slices"
	"strings"
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/programs/ata"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
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

// TestNativeInvokesELF runs the native Associated Token Account program, which invokes the
// token program, against SPL Token's real ELF: native -> sBPF invocations (GetAccountDataSize,
// InitializeAccount3, and the system program in between). LiteSVM runs the ATA build itself, so
// the ATA's own log lines and units are its build's: the outcome, the token program's lines and
// every account byte must be equal (the units left when the token program starts are not: the
// native ATA charges its build's units only approximately).
func TestNativeInvokesELF(t *testing.T) {
	progs := realelf.Programs(t)
	payer, wallet := testKey(70), testKey(71)
	mint := testKey(72).PublicKey()
	tk := core.TokenProgramID
	mintData := make([]byte, token.MintSize)
	mintData[45] = 1 // initialized, 0 decimals, no authorities
	b := newVMBank(t, ata.Module)
	b.accounts[core.AssociatedTokenProgramID] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true}
	ataAddr := ata.Address(wallet.PublicKey(), mint, tk)
	steps := []realelf.Step{
		{Name: "Create", Tx: b.tx([]core.Instruction{ata.Create(payer.PublicKey(), wallet.PublicKey(), mint, tk)}, payer)},
		{Name: "Create again", Tx: b.tx([]core.Instruction{ata.Create(payer.PublicKey(), wallet.PublicKey(), mint, tk)}, payer)},
		{Name: "CreateIdempotent", Tx: b.tx([]core.Instruction{ata.CreateIdempotent(payer.PublicKey(), wallet.PublicKey(), mint, tk)}, payer)},
	}
	sc := realelf.Scenario{
		Name:     "ata",
		Programs: []realelf.Program{progs[realelf.SPLToken]},
		Accounts: []realelf.Account{fundedAccount(payer.PublicKey()),
			{Address: mint, Lamports: 1_461_600, Owner: tk, Data: mintData},
			{Address: ataAddr, Lamports: 0}},
		Steps: steps,
	}
	for i := range sc.Programs {
		sc.Programs[i].SHA256 = sha256.Sum256(sc.Programs[i].ELF)
	}
	oracle := realelf.LiteSVM(t).Run(sc)[0]
	for _, p := range sc.Programs {
		b.addProgram(p.ID, p.Loader, p.ELF, 0)
	}
	for _, a := range sc.Accounts {
		if a.Lamports > 0 {
			b.accounts[a.Address] = runtime.Account{Lamports: a.Lamports, Owner: a.Owner, Data: append([]byte(nil), a.Data...)}
		}
	}
	tokenLines := func(logs []string) []string {
		var out []string
		depth := 0
		for _, l := range logs {
			switch {
			case strings.HasPrefix(l, "Program "+tk.String()+" invoke"):
				depth++
			case depth > 0:
				if strings.HasPrefix(l, "Program "+tk.String()+" success") || strings.HasPrefix(l, "Program "+tk.String()+" failed") {
					depth--
				}
			default:
				continue
			}
			// The units left when the token program starts depend on what the ATA program
			// charged before, which its native build only approximates.
			if i := strings.Index(l, " of "); i > 0 && strings.HasSuffix(l, " compute units") {
				l = l[:i]
			}
			out = append(out, l)
		}
		return out
	}
	for i, st := range steps {
		got, want := b.execute(st.Tx), oracle[i]
		if !jsonEq(errJSON(got), string(want.Err)) {
			t.Errorf("%s: err %s, LiteSVM %s; logs %q / %q", st.Name, errJSON(got), want.Err, got.Logs, want.Logs)
		}
		if g, w := tokenLines(got.Logs), tokenLines(want.Logs); !slices.Equal(g, w) {
			t.Errorf("%s: token program logs\n %q\nLiteSVM\n %q", st.Name, g, w)
		}
		w, _ := want.Account(ataAddr)
		g, ok := b.accounts[ataAddr]
		if ok != w.Exists || (ok && (g.Lamports != w.Lamports || g.Owner != w.Owner || !bytes.Equal(g.Data, w.Data))) {
			t.Errorf("%s: associated account %+v, LiteSVM %+v", st.Name, g, w)
		}
	}
	if len(tokenLines(oracle[0].Logs)) == 0 {
		t.Error("the token program did not run")
	}
}
