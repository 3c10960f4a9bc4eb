//go:build unix

package realelf

import (
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/token"
)

func keypair(seed byte) core.Keypair {
	var s [32]byte
	s[0], s[31] = seed, 0x5a
	return core.KeypairFromSeed(s)
}

func funded(k core.Pubkey) Account {
	return Account{Address: k, Lamports: 10_000_000_000, Owner: core.SystemProgramID}
}

// TestOracleMemo runs the memo builds in LiteSVM at addresses of their own (so LiteSVM's bundled copies cannot be
// what answers): memo 4.0 under loader v2 logs the signer and the memo; memo 1.0 under the deprecated loader logs
// nothing of its own; invalid UTF-8 makes memo 4.0 panic.
func TestOracleMemo(t *testing.T) {
	progs := Programs(t)
	payer := keypair(1)
	memo4, memo1 := Program(progs[Memo4]), Program(progs[Memo1])
	memo4.ID, memo1.ID = keypair(2).PublicKey(), keypair(3).PublicKey()
	memoIx := func(p core.Pubkey, text string) core.Instruction {
		return core.Instruction{ProgramID: p, Accounts: []core.AccountMeta{core.ReadonlySigner(payer.PublicKey())}, Data: []byte(text)}
	}
	sc := Scenario{
		Name:     "memo",
		Programs: []Program{memo4, memo1},
		Accounts: []Account{funded(payer.PublicKey())},
		Steps: []Step{
			{Name: "memo 4.0", Payer: payer, Instructions: []core.Instruction{memoIx(memo4.ID, "hello, ledgerd")}},
			{Name: "memo 1.0", Payer: payer, Instructions: []core.Instruction{memoIx(memo1.ID, "hello, ledgerd")}},
			{Name: "memo 4.0, invalid UTF-8", Payer: payer, Instructions: []core.Instruction{memoIx(memo4.ID, "\xff\xfe")}},
		},
	}
	res := LiteSVM(t).Run(sc)[0]

	p4, p1 := memo4.ID.String(), memo1.ID.String()
	want := []struct {
		err   string
		logs  []string
		units uint64
	}{
		{"null", []string{
			"Program " + p4 + " invoke [1]",
			"Program log: Signed by:",
			"Program log: " + payer.PublicKey().String(),
			"Program log: Memo (len 14)",
			"Program log: hello, ledgerd",
			"Program " + p4 + " consumed 513 of 200000 compute units",
			"Program " + p4 + " success",
		}, 513},
		{"null", []string{
			"Program " + p1 + " invoke [1]",
			"Program " + p1 + " consumed 643 of 200000 compute units",
			"Program " + p1 + " success",
		}, 643},
		// The memo program panics on invalid UTF-8 (after logging the signer and the length), so the runtime
		// reports the panic rather than a program error.
		{`{"InstructionError":[0,"ProgramFailedToComplete"]}`, []string{
			"Program " + p4 + " invoke [1]",
			"Program log: Signed by:",
			"Program log: " + payer.PublicKey().String(),
			"Program log: Memo (len 2)",
			"Program " + p4 + " consumed 498 of 200000 compute units",
			"Program " + p4 + " failed: invalid utf-8 sequence of 1 bytes from index 0: [255, 254]",
		}, 498},
	}
	for i, w := range want {
		r := res[i]
		name := sc.Steps[i].Name
		if !jsonEq(string(r.Err), w.err) {
			t.Errorf("%s: err %s (%s), want %s", name, r.Err, r.ErrDebug, w.err)
		}
		if !slices.Equal(r.Logs, w.logs) {
			t.Errorf("%s: logs\n %q\nwant\n %q", name, r.Logs, w.logs)
		}
		if r.ComputeUnits != w.units {
			t.Errorf("%s: %d compute units, want %d", name, r.ComputeUnits, w.units)
		}
		if r.Fee != 5000 {
			t.Errorf("%s: fee %d, want 5000", name, r.Fee)
		}
	}
}

func jsonEq(a, b string) bool {
	return strings.Join(strings.Fields(a), "") == strings.Join(strings.Fields(b), "")
}

// TestOracleToken runs SPL Token 3.5.0 in LiteSVM in place of its bundled p-token (the logs name the instructions,
// which p-token does not): InitializeMint, two InitializeAccount, MintTo, Transfer, and a Transfer of more than the
// balance; the accounts afterwards hold what the instructions wrote.
func TestOracleToken(t *testing.T) {
	progs := Programs(t)
	payer, alice, bob := keypair(10), keypair(11), keypair(12)
	mint, aliceTA, bobTA := keypair(13).PublicKey(), keypair(14).PublicKey(), keypair(15).PublicKey()
	tk := core.TokenProgramID
	zeroed := func(k core.Pubkey, size int, lamports uint64) Account {
		return Account{Address: k, Lamports: lamports, Owner: tk, Data: make([]byte, size)}
	}
	steps := []Step{
		{Name: "InitializeMint", Payer: payer, Instructions: []core.Instruction{
			token.InitializeMintIx(tk, mint, alice.PublicKey(), nil, 6)}},
		{Name: "InitializeAccount x2", Payer: payer, Instructions: []core.Instruction{
			token.InitializeAccount(tk, aliceTA, mint, alice.PublicKey()),
			token.InitializeAccount(tk, bobTA, mint, bob.PublicKey())}},
		{Name: "MintTo", Payer: payer, Signers: []core.Keypair{alice}, Instructions: []core.Instruction{
			token.MintTo(tk, mint, aliceTA, alice.PublicKey(), nil, 1_000_000)}},
		{Name: "Transfer", Payer: payer, Signers: []core.Keypair{alice}, Instructions: []core.Instruction{
			token.Transfer(tk, aliceTA, bobTA, alice.PublicKey(), nil, 250_000)}},
		{Name: "Transfer too much", Payer: payer, Signers: []core.Keypair{alice}, Instructions: []core.Instruction{
			token.Transfer(tk, aliceTA, bobTA, alice.PublicKey(), nil, 750_001)}},
	}
	sc := Scenario{
		Name:     "token",
		Programs: []Program{progs[SPLToken]},
		Accounts: []Account{funded(payer.PublicKey()), funded(alice.PublicKey()),
			zeroed(mint, token.MintSize, 1_461_600), zeroed(aliceTA, token.AccountSize, 2_039_280), zeroed(bobTA, token.AccountSize, 2_039_280)},
		Steps: steps,
	}
	bundled := sc
	bundled.Name, bundled.Programs = "token, LiteSVM's own build", nil
	// With the feature that swaps in p-token deactivated, LiteSVM installs SPL Token 3.5.0 itself, under loader v2
	// as the scenario above does: the same logs and units.
	withoutPToken := bundled
	withoutPToken.Name, withoutPToken.Deactivate = "token, p-token feature off", []core.Pubkey{replaceSPLTokenWithPToken}
	all := LiteSVM(t).Run(sc, bundled, withoutPToken)
	res := all[0]

	tkS := tk.String()
	ok := func(ix string, units, limit uint64) []string {
		return []string{"Program " + tkS + " invoke [1]", "Program log: Instruction: " + ix,
			fmt.Sprintf("Program %s consumed %d of %d compute units", tkS, units, limit), "Program " + tkS + " success"}
	}
	want := []struct {
		err   string
		logs  []string
		units uint64
	}{
		{"null", ok("InitializeMint", 2920, 200_000), 2920},
		{"null", append(ok("InitializeAccount", 4501, 400_000), ok("InitializeAccount", 4501, 395_499)...), 9002},
		{"null", ok("MintTo", 4492, 200_000), 4492},
		{"null", ok("Transfer", 4645, 200_000), 4645},
		{`{"InstructionError":[0,{"Custom":1}]}`, []string{"Program " + tkS + " invoke [1]", "Program log: Instruction: Transfer",
			"Program log: Error: insufficient funds", "Program " + tkS + " consumed 4300 of 200000 compute units",
			"Program " + tkS + " failed: custom program error: 0x1"}, 4300},
	}
	for i, w := range want {
		r := res[i]
		if !jsonEq(string(r.Err), w.err) {
			t.Errorf("%s: err %s (%s), want %s", steps[i].Name, r.Err, r.ErrDebug, w.err)
		}
		if !slices.Equal(r.Logs, w.logs) {
			t.Errorf("%s: logs\n %q\nwant\n %q", steps[i].Name, r.Logs, w.logs)
		}
		if r.ComputeUnits != w.units {
			t.Errorf("%s: %d compute units, want %d", steps[i].Name, r.ComputeUnits, w.units)
		}
	}

	// The token amounts (u64 at 64 in an account, supply u64 at 36 in the mint) after the transfer and after the
	// failed one, which changes nothing.
	amounts := map[core.Pubkey]struct{ off, want int }{mint: {36, 1_000_000}, aliceTA: {64, 750_000}, bobTA: {64, 250_000}}
	for _, step := range []int{3, 4} {
		for k, w := range amounts {
			a, found := res[step].Account(k)
			if !found || !a.Exists || a.Owner != tk || len(a.Data) < w.off+8 {
				t.Fatalf("%s: account %s missing or not a token account: %+v", steps[step].Name, k, a)
			}
			if got := binary.LittleEndian.Uint64(a.Data[w.off:]); got != uint64(w.want) {
				t.Errorf("%s: %s holds %d, want %d", steps[step].Name, k, got, w.want)
			}
		}
	}

	// LiteSVM's own build at the SPL Token address (p-token, as every feature is enabled) does the same with other
	// logs and units: the scenario above did run the ELF it was given.
	for i, r := range all[1] {
		if !jsonEq(string(r.Err), want[i].err) {
			t.Errorf("p-token, %s: err %s, want %s", steps[i].Name, r.Err, want[i].err)
		}
		if slices.Equal(r.Logs, want[i].logs) || r.ComputeUnits == want[i].units {
			t.Errorf("p-token, %s: the logs and units of SPL Token 3.5.0 (%d units, %q)", steps[i].Name, r.ComputeUnits, r.Logs)
		}
	}
	for i, r := range all[2] {
		if !jsonEq(string(r.Err), want[i].err) || !slices.Equal(r.Logs, want[i].logs) || r.ComputeUnits != want[i].units {
			t.Errorf("p-token feature off, %s: err %s, %d units, logs %q; want SPL Token 3.5.0's", steps[i].Name, r.Err, r.ComputeUnits, r.Logs)
		}
	}
}

// replaceSPLTokenWithPToken is the feature under which LiteSVM (and the reference) runs p-token at the SPL Token
// address.
var replaceSPLTokenWithPToken = core.MustParsePubkey("ptokFjwyJtrwCa9Kgo9xoDS59V4QccBGEaRFnRPnSdP")
