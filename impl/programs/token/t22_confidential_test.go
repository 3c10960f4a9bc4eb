//go:build unix

package token_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"io"
	"maps"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/gtank/ristretto255"

	"ledgerd/conformance/npmdeps"
	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/programs/computebudget"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/programs/zkproof"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
)

// prover is the reference's zk-sdk making the proofs of a confidential flow (zkproof's
// testdata/zksdk/flow.mjs), one JSON request and answer per line.
type prover struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Reader
}

func newProver(t *testing.T) *prover {
	npmdeps.Require(t, "the zk-sdk makes the proofs")
	dir := filepath.Join("..", "zkproof", "testdata", "zksdk")
	npmdeps.Install(t, dir, filepath.Join(dir, ".npm-ci.lock"))
	cmd := exec.Command("node", "flow.mjs")
	cmd.Dir = dir
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		cmd.Wait()
	})
	return &prover{t: t, in: in, out: bufio.NewReader(out)}
}

func (p *prover) call(req map[string]any) map[string]string {
	p.t.Helper()
	b, _ := json.Marshal(req)
	if _, err := p.in.Write(append(b, '\n')); err != nil {
		p.t.Fatal(err)
	}
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		p.t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(line, &raw); err != nil {
		p.t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range raw {
		switch v := v.(type) {
		case string:
			out[k] = v
		case float64:
			out[k] = strconv.Itoa(int(v))
		}
	}
	if out["error"] != "" {
		p.t.Fatalf("prover %v: %s", req["op"], out["error"])
	}
	return out
}

func unhex(t *testing.T, s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// ctView is a ConfidentialTransferAccount's fields the test reads.
type ctView struct{ pubkey, pendingLo, pendingHi, available, decryptable []byte }

func confidentialOf(t *testing.T, h *harness, k core.Pubkey) ctView {
	t.Helper()
	v := extensionOf(t, h.accs[k].Data, token.ExtConfidentialTransferAccount)
	return ctView{v[1:33], v[33:97], v[97:161], v[161:225], v[225:261]}
}

// extensionOf finds extension typ in an account's TLV area (after the 165-byte base and the
// account type byte: u16 type, u16 length, value).
func extensionOf(t *testing.T, d []byte, typ token.ExtensionType) []byte {
	t.Helper()
	for i := 166; i+4 <= len(d); {
		ty, n := int(d[i])|int(d[i+1])<<8, int(d[i+2])|int(d[i+3])<<8
		if ty == int(typ) {
			return d[i+4 : i+4+n]
		}
		if ty == 0 {
			break
		}
		i += 4 + n
	}
	t.Fatalf("no extension %v", typ)
	return nil
}

// minus is ciphertext - amount*G, the program's own arithmetic on the commitment.
func minus(t *testing.T, ct []byte, amount uint64) []byte {
	t.Helper()
	c := ristretto255.NewElement()
	if err := c.Decode(ct[:32]); err != nil {
		t.Fatal(err)
	}
	var s [32]byte
	for i := range 8 {
		s[i] = byte(amount >> (8 * i))
	}
	sc := ristretto255.NewScalar()
	if err := sc.Decode(s[:]); err != nil {
		t.Fatal(err)
	}
	c.Subtract(c, ristretto255.NewElement().ScalarBaseMult(sc))
	return append(c.Encode(nil), ct[32:]...)
}

// minusLoHi is ct - (lo + hi * 2^16), lo and hi given as ElGamal ciphertexts.
func minusLoHi(t *testing.T, ct, lo, hi []byte) []byte { return combineLoHi(t, ct, lo, hi, true) }

// plusLoHi is ct + (lo + hi * 2^16), lo and hi given as ElGamal ciphertexts.
func plusLoHi(t *testing.T, ct, lo, hi []byte) []byte { return combineLoHi(t, ct, lo, hi, false) }

// combineLoHi is ct + (lo + hi * 2^16), or ct - (lo + hi * 2^16) when subtract is set.
func combineLoHi(t *testing.T, ct, lo, hi []byte, subtract bool) []byte {
	t.Helper()
	var out []byte
	for half := range 2 {
		var pts [3]*ristretto255.Element
		for i, b := range [][]byte{ct, lo, hi} {
			pts[i] = ristretto255.NewElement()
			if err := pts[i].Decode(b[32*half : 32*half+32]); err != nil {
				t.Fatal(err)
			}
		}
		var s [32]byte
		s[2] = 1 // 2^16
		sc := ristretto255.NewScalar()
		_ = sc.Decode(s[:])
		r := ristretto255.NewElement().Add(pts[1], ristretto255.NewElement().ScalarMult(sc, pts[2]))
		if subtract {
			r.Negate(r)
		}
		out = append(out, ristretto255.NewElement().Add(pts[0], r).Encode(nil)...)
	}
	return out
}

// handle is the ElGamal ciphertext of handle i of a 3-handle grouped ciphertext.
func handle(grouped []byte, i int) []byte {
	return append(append([]byte(nil), grouped[:32]...), grouped[32*(1+i):32*(2+i)]...)
}

// contexts makes the context-state accounts of one test (keys from seed 100 up).
type contexts struct {
	h    *harness
	next byte
	made []core.Pubkey
}

// verify verifies proof data of type typ with the proof program into a new context-state
// account of alice's and returns the account.
func (c *contexts) verify(t *testing.T, typ zkproof.ProofType, data []byte) core.Pubkey {
	t.Helper()
	c.next++
	k := key(100 + c.next).PublicKey()
	c.h.accs[k] = runtime.Account{Lamports: 1e9, Owner: zkproof.ProgramID, Data: make([]byte, 33+zkproof.ContextLen(typ))}
	c.made = append(c.made, k)
	ixs := []core.Instruction{{ProgramID: zkproof.ProgramID, Data: append([]byte{byte(typ)}, data...),
		Accounts: []core.AccountMeta{core.Writable(k), core.Readonly(alice.PublicKey())}}}
	if typ == zkproof.BatchedRangeProofU256 {
		// 368,000 units: more than an instruction gets by default (SetComputeUnitLimit 400,000).
		ixs = append([]core.Instruction{{ProgramID: core.ComputeBudgetProgramID, Data: []byte{2, 0x80, 0x1a, 0x06, 0}}}, ixs...)
	}
	c.h.ok(ixs, payer)
	return k
}

// confidentialHarness is a harness with the proof and compute budget programs, recording every
// transaction for compareWithLiteSVM.
func confidentialHarness(t *testing.T) (*harness, *contexts, *[]flowStep) {
	h := newHarness(t)
	steps := &[]flowStep{}
	h.onExec = func(tx *core.Transaction, res *runtime.Result) {
		*steps = append(*steps, flowStep{tx: tx.Serialize(), res: res, accs: maps.Clone(h.accs)})
	}
	h.env.Programs.Add(zkproof.Module, computebudget.Module)
	h.accs[zkproof.ProgramID] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("zk_elgamal_proof_program")}
	h.accs[core.ComputeBudgetProgramID] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("compute_budget_program")}
	return h, &contexts{h: h}, steps
}

// TestConfidentialTransferFlow runs Token-2022's confidential transfer with real proofs made
// by the reference's zk-sdk: configuring two accounts (one with its proof in the same
// transaction, read through the instructions sysvar, one from a context-state account),
// depositing, applying the pending balance, withdrawing, transferring between the accounts and
// emptying one; the encrypted balances decrypt to what the steps moved, and proofs about
// other balances, keys or amounts are refused with the program's errors.
func TestConfidentialTransferFlow(t *testing.T) {
	t.Parallel()
	p := newProver(t)
	h, zc, steps := confidentialHarness(t)
	A, B, M := alice.PublicKey(), bob.PublicKey(), mintKP.PublicKey()
	kpA, kpB, kpAud := p.call(map[string]any{"op": "keypair"}), p.call(map[string]any{"op": "keypair"}), p.call(map[string]any{"op": "keypair"})
	auditor := [32]byte(unhex(t, kpAud["pubkey"]))
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtConfidentialTransferMint}, 0,
		token.InitializeConfidentialTransferMint(M, &A, true, &auditor)), success)
	a, b := aliceTA.PublicKey(), bobTA.PublicKey()
	h.createAccount22(aliceTA, A, []token.ExtensionType{token.ExtConfidentialTransferAccount})
	h.createAccount22(bobTA, B, []token.ExtensionType{token.ExtConfidentialTransferAccount})

	// Alice's proof is the next instruction; bob's sits in a context-state account.
	proofA := unhex(t, p.call(map[string]any{"op": "pubkeyValidity", "kp": kpA["id"]})["data"])
	h.ok([]core.Instruction{
		token.ConfigureConfidentialAccount(a, M, A, nil, [36]byte{1}, 65536, 1, core.SysvarInstructionsID),
		{ProgramID: zkproof.ProgramID, Data: append([]byte{byte(zkproof.PubkeyValidity)}, proofA...)},
	}, alice)
	proofB := unhex(t, p.call(map[string]any{"op": "pubkeyValidity", "kp": kpB["id"]})["data"])
	ctxB := zc.verify(t, zkproof.PubkeyValidity, proofB)
	// A context of another size is refused.
	runtimetest.WantErr(t, h.exec([]core.Instruction{token.EmptyConfidentialAccount(b, B, nil, 0, ctxB)}, bob),
		ixErr(0, "InvalidArgument"))
	h.ok([]core.Instruction{token.ConfigureConfidentialAccount(b, M, B, nil, [36]byte{}, 65536, 0, ctxB)}, bob)
	if va, vb := confidentialOf(t, h, a), confidentialOf(t, h, b); hex.EncodeToString(va.pubkey) != kpA["pubkey"] ||
		hex.EncodeToString(vb.pubkey) != kpB["pubkey"] || va.decryptable[0] != 1 {
		t.Fatalf("configured keys %x %x", va.pubkey, vb.pubkey)
	}
	decrypt := func(kp map[string]string, ct []byte) string {
		return p.call(map[string]any{"op": "decrypt", "kp": kp["id"], "ciphertext": hex.EncodeToString(ct)})["amount"]
	}

	// Deposit 600 of 1000, apply it.
	h.ok([]core.Instruction{token.MintTo(t22, M, a, A, nil, 1000)}, alice)
	runtimetest.WantErr(t, h.exec([]core.Instruction{token.DepositConfidential(a, M, A, nil, 600, 3)}, alice), custom(0, token.MintDecimalsMismatch))
	h.ok([]core.Instruction{token.DepositConfidential(a, M, A, nil, 600, 2)}, alice)
	if got := decrypt(kpA, confidentialOf(t, h, a).pendingLo); got != "600" {
		t.Fatalf("pending lo holds %s", got)
	}
	h.ok([]core.Instruction{token.ApplyPendingConfidentialBalance(a, A, nil, 1, [36]byte{2})}, alice)
	va := confidentialOf(t, h, a)
	if got := decrypt(kpA, va.available); got != "600" || !bytes.Equal(va.pendingLo, make([]byte, 64)) {
		t.Fatalf("available holds %s", got)
	}

	// Withdraw 100: the proofs are about the balance left, 500.
	left := minus(t, va.available, 100)
	w := p.call(map[string]any{"op": "withdraw", "kp": kpA["id"], "ciphertext": hex.EncodeToString(left), "remaining": "500"})
	eq := zc.verify(t, zkproof.CiphertextCommitmentEquality, unhex(t, w["equality"]))
	rng := zc.verify(t, zkproof.BatchedRangeProofU64, unhex(t, w["range"]))
	wantCode(t, h.exec([]core.Instruction{token.WithdrawConfidential(a, M, A, nil, 101, 2, [36]byte{3}, 0, 0, eq, rng)}, alice),
		custom(0, token.ConfidentialTransferBalanceMismatch), "Error: Balance mismatch")
	wantCode(t, h.exec([]core.Instruction{token.WithdrawConfidential(a, M, A, nil, 100, 2, [36]byte{3}, 0, 0, rng, eq)}, alice),
		ixErr(0, "InvalidArgument"), "")
	// The equality proof in the transaction (the instruction before this one, through the
	// sysvar), the range proof in its context account: a proof instruction of the wrong type
	// first, then the right one.
	eqIx := core.Instruction{ProgramID: zkproof.ProgramID, Data: append([]byte{byte(zkproof.CiphertextCommitmentEquality)}, unhex(t, w["equality"])...)}
	wantCode(t, h.exec([]core.Instruction{eqIx, token.WithdrawConfidential(a, M, A, nil, 100, 2, [36]byte{3}, -1, -1,
		core.SysvarInstructionsID)}, alice), ixErr(1, "InvalidInstructionData"), "Unexpected proof instruction")
	wantCode(t, h.exec([]core.Instruction{eqIx, token.WithdrawConfidential(a, M, A, nil, 100, 2, [36]byte{3}, -5, 0,
		core.SysvarInstructionsID, rng)}, alice), ixErr(1, "InvalidArgument"), "")
	h.ok([]core.Instruction{eqIx, token.WithdrawConfidential(a, M, A, nil, 100, 2, [36]byte{3}, -1, 0, core.SysvarInstructionsID, rng)}, alice)
	if got := decrypt(kpA, confidentialOf(t, h, a).available); got != "500" {
		t.Fatalf("available after withdrawing holds %s", got)
	}

	// Transfer 70 000 to bob (more than the 16-bit lo half): 430 of alice's 500... scaled.
	h.ok([]core.Instruction{token.MintTo(t22, M, a, A, nil, 100_000)}, alice)
	h.ok([]core.Instruction{token.DepositConfidential(a, M, A, nil, 100_000, 2)}, alice)
	h.ok([]core.Instruction{token.ApplyPendingConfidentialBalance(a, A, nil, 1, [36]byte{4})}, alice)
	va = confidentialOf(t, h, a)
	tc := p.call(map[string]any{"op": "transferCiphertexts", "source": kpA["pubkey"], "destination": kpB["pubkey"],
		"auditor": kpAud["pubkey"], "amount": "70000"})
	lo, hi := unhex(t, tc["lo"]), unhex(t, tc["hi"])
	newSource := minusLoHi(t, va.available, handle(lo, 0), handle(hi, 0))
	tp := p.call(map[string]any{"op": "transfer", "kp": kpA["id"], "transfer": tc["id"], "newSource": hex.EncodeToString(newSource),
		"remaining": "30500"})
	teq := zc.verify(t, zkproof.CiphertextCommitmentEquality, unhex(t, tp["equality"]))
	tval := zc.verify(t, zkproof.BatchedGroupedCiphertext3HandlesValidity, unhex(t, tp["validity"]))
	trng := zc.verify(t, zkproof.BatchedRangeProofU128, unhex(t, tp["range"]))
	audLo, audHi := [64]byte(handle(lo, 2)), [64]byte(handle(hi, 2))
	// A 128-bit range proof where Withdraw wants a 64-bit one: same context size, another type.
	runtimetest.WantErr(t, h.exec([]core.Instruction{token.WithdrawConfidential(a, M, A, nil, 1, 2, [36]byte{}, 0, 0, teq, trng)}, alice),
		ixErr(0, "InvalidInstructionData"))
	// The auditor's ciphertexts in the instruction must be the proof's.
	wantCode(t, h.exec([]core.Instruction{token.TransferConfidential(a, M, b, A, nil, [36]byte{5}, audHi, audLo, 0, 0, 0, teq, tval, trng)}, alice),
		custom(0, token.ConfidentialTransferBalanceMismatch), "Error: Balance mismatch")
	// Bob cannot spend alice's proofs.
	wantCode(t, h.exec([]core.Instruction{token.TransferConfidential(b, M, a, B, nil, [36]byte{5}, audLo, audHi, 0, 0, 0, teq, tval, trng)}, bob),
		custom(0, token.ConfidentialTransferElGamalPubkeyMismatch), "")
	h.ok([]core.Instruction{token.TransferConfidential(a, M, b, A, nil, [36]byte{5}, audLo, audHi, 0, 0, 0, teq, tval, trng)}, alice)
	if got := decrypt(kpA, confidentialOf(t, h, a).available); got != "30500" {
		t.Fatalf("alice holds %s after sending", got)
	}
	h.ok([]core.Instruction{token.ApplyPendingConfidentialBalance(b, B, nil, 1, [36]byte{6})}, bob)
	vb := confidentialOf(t, h, b)
	if got := decrypt(kpB, vb.available); got != "70000" {
		t.Fatalf("bob holds %s after receiving", got)
	}
	if got := decrypt(kpAud, audLo[:]); got != "4464" { // 70000 & 0xffff
		t.Fatalf("the auditor reads %s", got)
	}

	// Bob withdraws everything, then empties the account with a zero-ciphertext proof.
	empty := minus(t, vb.available, 70_000)
	w = p.call(map[string]any{"op": "withdraw", "kp": kpB["id"], "ciphertext": hex.EncodeToString(empty), "remaining": "0"})
	h.ok([]core.Instruction{token.WithdrawConfidential(b, M, B, nil, 70_000, 2, [36]byte{7}, 0, 0,
		zc.verify(t, zkproof.CiphertextCommitmentEquality, unhex(t, w["equality"])),
		zc.verify(t, zkproof.BatchedRangeProofU64, unhex(t, w["range"])))}, bob)
	zero := p.call(map[string]any{"op": "zeroCiphertext", "kp": kpB["id"], "ciphertext": hex.EncodeToString(empty)})
	zctx := zc.verify(t, zkproof.ZeroCiphertext, unhex(t, zero["data"]))
	wantCode(t, h.exec([]core.Instruction{token.EmptyConfidentialAccount(a, A, nil, 0, zctx)}, alice),
		custom(0, token.ConfidentialTransferElGamalPubkeyMismatch), "Encryption public-key mismatch")
	h.ok([]core.Instruction{token.EmptyConfidentialAccount(b, B, nil, 0, zctx)}, bob)
	if !bytes.Equal(confidentialOf(t, h, b).available, make([]byte, 64)) {
		t.Fatal("bob's available balance is not the zero ciphertext")
	}
	h.ok([]core.Instruction{token.Transfer(t22, b, a, B, nil, 70_000)}, bob)
	h.ok([]core.Instruction{token.CloseAccount(t22, b, B, B, nil)}, bob)

	compareWithLiteSVM(t, *steps, zc.made, []core.Pubkey{payer.PublicKey(), A, B, M, a, b})
}

// flowStep is one executed transaction of a flow and the accounts after it.
type flowStep struct {
	tx   []byte
	res  *runtime.Result
	accs runtime.MapSource
}

var consumedLine = regexp.MustCompile(`^(Program \S+) consumed \d+ of \d+ compute units$`)

// normalizedLogs drops the compute units of the "consumed" lines: ledgerd charges Token-2022's
// units by estimate (compute.go), which the parity tests report but do not compare.
func normalizedLogs(logs []string) []string {
	out := make([]string, len(logs))
	for i, l := range logs {
		out[i] = consumedLine.ReplaceAllString(l, "$1 consumed")
	}
	return out
}

// compareWithLiteSVM replays the flow's transactions in LiteSVM, which runs the real
// Token-2022 11.0.0 build and the reference's ZK ElGamal proof program, from the same accounts
// (the funded keys, and the context-state accounts the test made), and requires the same
// outcome, logs and watched accounts (the context-state accounts too, once they exist) after
// every step.
func compareWithLiteSVM(t *testing.T, steps []flowStep, contextAccounts, watch []core.Pubkey, extra ...core.Pubkey) {
	t.Helper()
	var initial []realelf.Account
	for _, k := range []core.Keypair{payer, alice, bob, carol, freezer, other} {
		initial = append(initial, realelf.Account{Address: k.PublicKey(), Lamports: 10_000_000_000, Owner: core.SystemProgramID})
	}
	// Accounts the test set up outside transactions, as they were at the start.
	for _, k := range extra {
		a := steps[0].accs[k]
		initial = append(initial, realelf.Account{Address: k, Lamports: a.Lamports, Owner: a.Owner, Executable: a.Executable, Data: a.Data})
		watch = append(watch, k)
	}
	for _, k := range contextAccounts {
		watch = append(watch, k)
		initial = append(initial, realelf.Account{Address: k, Lamports: 1_000_000_000, Owner: zkproof.ProgramID,
			Data: make([]byte, len(steps[len(steps)-1].accs[k].Data))})
	}
	sc := realelf.Scenario{Name: "confidential", Accounts: initial}
	for i, st := range steps {
		tx, err := core.DecodeTransaction(st.tx)
		if err != nil {
			t.Fatal(err)
		}
		sc.Steps = append(sc.Steps, realelf.Step{Name: strconv.Itoa(i), Tx: tx, Watch: watch})
	}
	for i, l := range realelf.LiteSVM(t).Run(sc)[0] {
		st := steps[i]
		lerr := string(l.Err)
		if l.Succeeded() {
			lerr = "<nil>"
		}
		if got := runtimetest.ErrString(st.res.Err); got != lerr {
			t.Errorf("step %d: ledgerd %s, LiteSVM %s", i, got, lerr)
		}
		if g, w := normalizedLogs(st.res.Logs), normalizedLogs(l.Logs); !slices.Equal(g, w) {
			t.Errorf("step %d logs:\nledgerd %q\nLiteSVM %q", i, g, w)
		}
		for _, la := range l.Accounts {
			k := la.Address
			ga, ok := st.accs[k]
			if !ok && slices.Contains(contextAccounts, k) {
				continue // not yet made on ledgerd's side; LiteSVM holds it from the start
			}
			exists := ok && (ga.Lamports > 0 || len(ga.Data) > 0)
			if exists != la.Exists {
				t.Errorf("step %d: %s exists %v on ledgerd, %v on LiteSVM", i, k, exists, la.Exists)
				continue
			}
			if !exists {
				continue
			}
			if ga.Lamports != la.Lamports || ga.Owner != la.Owner || !bytes.Equal(ga.Data, la.Data) {
				t.Errorf("step %d: %s is %d lamports, owner %s, data %x on ledgerd; %d, %s, %x on LiteSVM", i, k,
					ga.Lamports, ga.Owner, ga.Data, la.Lamports, la.Owner, la.Data)
			}
		}
	}
}

// TestConfidentialTransferWithFee sends a confidential transfer on a mint with a 1% transfer
// fee: TransferWithFee's five proofs (made by the reference's zk-sdk) move the amount less the
// fee to the destination's pending balance and the fee to its withheld amount, readable by the
// withdraw-withheld authority's key; Transfer lacks the fee proofs. LiteSVM agrees at every step.
func TestConfidentialTransferWithFee(t *testing.T) {
	t.Parallel()
	p := newProver(t)
	h, zc, steps := confidentialHarness(t)
	A, B, M := alice.PublicKey(), bob.PublicKey(), mintKP.PublicKey()
	kpA, kpB := p.call(map[string]any{"op": "keypair"}), p.call(map[string]any{"op": "keypair"})
	kpAud, kpWithheld := p.call(map[string]any{"op": "keypair"}), p.call(map[string]any{"op": "keypair"})
	auditor, withheldKey := [32]byte(unhex(t, kpAud["pubkey"])), [32]byte(unhex(t, kpWithheld["pubkey"]))
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtTransferFeeConfig, token.ExtConfidentialTransferMint,
		token.ExtConfidentialTransferFeeConfig}, 0,
		token.InitializeTransferFeeConfig(M, &A, &A, 100, 1_000_000),
		token.InitializeConfidentialTransferMint(M, &A, true, &auditor),
		token.InitializeConfidentialTransferFeeConfig(M, &A, withheldKey)), success)
	a, b := aliceTA.PublicKey(), bobTA.PublicKey()
	exts := []token.ExtensionType{token.ExtConfidentialTransferAccount, token.ExtConfidentialTransferFeeAmount}
	h.createAccount22(aliceTA, A, exts)
	h.createAccount22(bobTA, B, exts)
	for _, c := range []struct {
		account, owner core.Pubkey
		kp             map[string]string
		signer         core.Keypair
	}{{a, A, kpA, alice}, {b, B, kpB, bob}} {
		proof := unhex(t, p.call(map[string]any{"op": "pubkeyValidity", "kp": c.kp["id"]})["data"])
		h.ok([]core.Instruction{token.ConfigureConfidentialAccount(c.account, M, c.owner, nil, [36]byte{}, 65536, 0,
			zc.verify(t, zkproof.PubkeyValidity, proof))}, c.signer)
	}
	h.ok([]core.Instruction{token.MintTo(t22, M, a, A, nil, 100_000)}, alice)
	h.ok([]core.Instruction{token.DepositConfidential(a, M, A, nil, 100_000, 2)}, alice)
	h.ok([]core.Instruction{token.ApplyPendingConfidentialBalance(a, A, nil, 1, [36]byte{})}, alice)
	decrypt := func(kp map[string]string, ct []byte) string {
		return p.call(map[string]any{"op": "decrypt", "kp": kp["id"], "ciphertext": hex.EncodeToString(ct)})["amount"]
	}

	va := confidentialOf(t, h, a)
	tc := p.call(map[string]any{"op": "transferCiphertexts", "source": kpA["pubkey"], "destination": kpB["pubkey"],
		"auditor": kpAud["pubkey"], "amount": "70000"})
	lo, hi := unhex(t, tc["lo"]), unhex(t, tc["hi"])
	newSource := minusLoHi(t, va.available, handle(lo, 0), handle(hi, 0))
	tp := p.call(map[string]any{"op": "transferWithFee", "kp": kpA["id"], "transfer": tc["id"], "newSource": hex.EncodeToString(newSource),
		"remaining": "30000", "destination": kpB["pubkey"], "withheld": kpWithheld["pubkey"], "bps": "100", "maxFee": "1000000"})
	if tp["fee"] != "700" {
		t.Fatalf("fee %s", tp["fee"])
	}
	ctxs := []core.Pubkey{
		zc.verify(t, zkproof.CiphertextCommitmentEquality, unhex(t, tp["equality"])),
		zc.verify(t, zkproof.BatchedGroupedCiphertext3HandlesValidity, unhex(t, tp["validity"])),
		zc.verify(t, zkproof.PercentageWithCap, unhex(t, tp["percentage"])),
		zc.verify(t, zkproof.BatchedGroupedCiphertext2HandlesValidity, unhex(t, tp["feeValidity"])),
		zc.verify(t, zkproof.BatchedRangeProofU256, unhex(t, tp["range"])),
	}
	audLo, audHi := [64]byte(handle(lo, 2)), [64]byte(handle(hi, 2))
	plain := token.TransferConfidential(a, M, b, A, nil, [36]byte{}, audLo, audHi, 0, 0, 0, ctxs[0], ctxs[1], ctxs[4])
	runtimetest.WantErr(t, h.exec([]core.Instruction{plain}, alice), ixErr(0, "InvalidInstructionData"))
	// The proofs in the wrong places: the percentage proof where the fee validity proof belongs.
	swapped := token.TransferConfidentialWithFee(a, M, b, A, nil, [36]byte{}, audLo, audHi, [5]int8{},
		ctxs[0], ctxs[1], ctxs[3], ctxs[2], ctxs[4])
	runtimetest.WantErr(t, h.exec([]core.Instruction{swapped}, alice), ixErr(0, "InvalidArgument"))
	h.ok([]core.Instruction{token.TransferConfidentialWithFee(a, M, b, A, nil, [36]byte{}, audLo, audHi, [5]int8{}, ctxs...)}, alice)
	if got := p.call(map[string]any{"op": "decrypt", "kp": kpA["id"], "ciphertext": hex.EncodeToString(confidentialOf(t, h, a).available)})["amount"]; got != "30000" {
		t.Fatalf("alice holds %s", got)
	}
	h.ok([]core.Instruction{token.ApplyPendingConfidentialBalance(b, B, nil, 1, [36]byte{})}, bob)
	if got := p.call(map[string]any{"op": "decrypt", "kp": kpB["id"], "ciphertext": hex.EncodeToString(confidentialOf(t, h, b).available)})["amount"]; got != "69300" {
		t.Fatalf("bob holds %s", got)
	}
	withheld := extensionOf(t, h.accs[b].Data, token.ExtConfidentialTransferFeeAmount)
	if got := decrypt(kpWithheld, withheld); got != "700" {
		t.Fatalf("the withheld fee reads %s", got)
	}

	// The withdraw-withheld authority (alice) takes bob's withheld fee into her account.
	wd := p.call(map[string]any{"op": "ctEquality", "kp": kpWithheld["id"], "pubkey": kpA["pubkey"],
		"ciphertext": hex.EncodeToString(withheld), "amount": "700"})
	wdCtx := zc.verify(t, zkproof.CiphertextCiphertextEquality, unhex(t, wd["data"]))
	wantCode(t, h.exec([]core.Instruction{token.WithdrawWithheldConfidentialFromAccounts(M, a, B, nil, [36]byte{}, 0,
		[]core.Pubkey{wdCtx}, b)}, bob), custom(0, token.OwnerMismatch), "")
	h.ok([]core.Instruction{token.WithdrawWithheldConfidentialFromAccounts(M, a, A, nil, [36]byte{}, 0, []core.Pubkey{wdCtx}, b)}, alice)
	if got := decrypt(kpA, confidentialOf(t, h, a).available); got != "30700" {
		t.Fatalf("alice holds %s with the fee", got)
	}
	if !bytes.Equal(extensionOf(t, h.accs[b].Data, token.ExtConfidentialTransferFeeAmount), make([]byte, 64)) {
		t.Fatal("bob's withheld fee was not taken")
	}

	// Another transfer (fee 100), harvested to the mint, then withdrawn from it.
	va = confidentialOf(t, h, a)
	tc = p.call(map[string]any{"op": "transferCiphertexts", "source": kpA["pubkey"], "destination": kpB["pubkey"],
		"auditor": kpAud["pubkey"], "amount": "10000"})
	lo, hi = unhex(t, tc["lo"]), unhex(t, tc["hi"])
	newSource = minusLoHi(t, va.available, handle(lo, 0), handle(hi, 0))
	tp = p.call(map[string]any{"op": "transferWithFee", "kp": kpA["id"], "transfer": tc["id"], "newSource": hex.EncodeToString(newSource),
		"remaining": "20700", "destination": kpB["pubkey"], "withheld": kpWithheld["pubkey"], "bps": "100", "maxFee": "1000000"})
	ctxs = []core.Pubkey{
		zc.verify(t, zkproof.CiphertextCommitmentEquality, unhex(t, tp["equality"])),
		zc.verify(t, zkproof.BatchedGroupedCiphertext3HandlesValidity, unhex(t, tp["validity"])),
		zc.verify(t, zkproof.PercentageWithCap, unhex(t, tp["percentage"])),
		zc.verify(t, zkproof.BatchedGroupedCiphertext2HandlesValidity, unhex(t, tp["feeValidity"])),
		zc.verify(t, zkproof.BatchedRangeProofU256, unhex(t, tp["range"])),
	}
	h.ok([]core.Instruction{token.TransferConfidentialWithFee(a, M, b, A, nil, [36]byte{}, [64]byte(handle(lo, 2)), [64]byte(handle(hi, 2)),
		[5]int8{}, ctxs...)}, alice)
	// The mint among the sources: the program panics on borrowing its data twice.
	res := h.exec([]core.Instruction{token.HarvestWithheldConfidentialToMint(M, b, M)}, payer)
	runtimetest.WantErr(t, res, ixErr(0, "ProgramFailedToComplete"))
	// An account of no fee (the mint's ATA-less payer) is logged and skipped.
	res = h.ok([]core.Instruction{token.HarvestWithheldConfidentialToMint(M, b, a, payer.PublicKey())}, payer)
	wantLogLines(t, res, "ConfidentialTransferFeeInstruction::HarvestWithheldTokensToMint",
		"Error harvesting from "+payer.PublicKey().String()+": State is invalid for requested operation")
	mintWithheld := extensionOf(t, h.accs[M].Data, token.ExtConfidentialTransferFeeConfig)[65:129]
	if got := decrypt(kpWithheld, mintWithheld); got != "100" {
		t.Fatalf("the mint withholds %s", got)
	}
	wd = p.call(map[string]any{"op": "ctEquality", "kp": kpWithheld["id"], "pubkey": kpA["pubkey"],
		"ciphertext": hex.EncodeToString(mintWithheld), "amount": "100"})
	h.ok([]core.Instruction{token.WithdrawWithheldConfidentialFromMint(M, a, A, nil, [36]byte{}, 0,
		zc.verify(t, zkproof.CiphertextCiphertextEquality, unhex(t, wd["data"])))}, alice)
	if got := decrypt(kpA, confidentialOf(t, h, a).available); got != "20800" {
		t.Fatalf("alice holds %s with the mint's fees", got)
	}
	compareWithLiteSVM(t, *steps, zc.made, []core.Pubkey{payer.PublicKey(), A, B, M, a, b})
}

// TestConfidentialMintBurn mints to and burns from a confidential account with real proofs:
// the encrypted supply follows (the burn pending until applied), decrypting to what was minted
// less what was burnt, and rotating the supply key re-encrypts it. LiteSVM agrees at every step.
func TestConfidentialMintBurn(t *testing.T) {
	t.Parallel()
	p := newProver(t)
	h, zc, steps := confidentialHarness(t)
	A, M := alice.PublicKey(), mintKP.PublicKey()
	call := func(req map[string]any) map[string]string { return p.call(req) }
	kpA, kpS, kpS2, kpAud := call(map[string]any{"op": "keypair"}), call(map[string]any{"op": "keypair"}),
		call(map[string]any{"op": "keypair"}), call(map[string]any{"op": "keypair"})
	decrypt := func(kp map[string]string, ct []byte) string {
		return call(map[string]any{"op": "decrypt", "kp": kp["id"], "ciphertext": hex.EncodeToString(ct)})["amount"]
	}
	auditor, supplyKey := [32]byte(unhex(t, kpAud["pubkey"])), [32]byte(unhex(t, kpS["pubkey"]))
	// Burns need the permissioned burn authority (carol) too.
	C := carol.PublicKey()
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtConfidentialTransferMint, token.ExtConfidentialMintBurn,
		token.ExtPermissionedBurn}, 0,
		token.InitializeConfidentialTransferMint(M, &A, true, &auditor),
		token.InitializeConfidentialMintBurn(M, supplyKey, [36]byte{}),
		token.InitializePermissionedBurn(M, C)), success)
	a := aliceTA.PublicKey()
	h.createAccount22(aliceTA, A, []token.ExtensionType{token.ExtConfidentialTransferAccount})
	proof := unhex(t, call(map[string]any{"op": "pubkeyValidity", "kp": kpA["id"]})["data"])
	h.ok([]core.Instruction{token.ConfigureConfidentialAccount(a, M, A, nil, [36]byte{}, 65536, 0,
		zc.verify(t, zkproof.PubkeyValidity, proof))}, alice)
	supplyOf := func() []byte { return extensionOf(t, h.accs[M].Data, token.ExtConfidentialMintBurn) }
	// Deposits are refused on a mint-burn mint.
	runtimetest.WantErr(t, h.exec([]core.Instruction{token.DepositConfidential(a, M, A, nil, 0, 2)}, alice),
		custom(0, token.IllegalMintBurnConversion))

	// Mint 5000: the amount under alice's key (first), the supply key and the auditor's.
	tc := call(map[string]any{"op": "transferCiphertexts", "source": kpA["pubkey"], "destination": kpS["pubkey"],
		"auditor": kpAud["pubkey"], "amount": "5000"})
	lo, hi := unhex(t, tc["lo"]), unhex(t, tc["hi"])
	newSupply := plusLoHi(t, supplyOf()[:64], handle(lo, 1), handle(hi, 1))
	tp := call(map[string]any{"op": "transfer", "kp": kpS["id"], "transfer": tc["id"], "newSource": hex.EncodeToString(newSupply), "remaining": "5000"})
	ctxs := []core.Pubkey{
		zc.verify(t, zkproof.CiphertextCommitmentEquality, unhex(t, tp["equality"])),
		zc.verify(t, zkproof.BatchedGroupedCiphertext3HandlesValidity, unhex(t, tp["validity"])),
		zc.verify(t, zkproof.BatchedRangeProofU128, unhex(t, tp["range"])),
	}
	audLo, audHi := [64]byte(handle(lo, 2)), [64]byte(handle(hi, 2))
	wantCode(t, h.exec([]core.Instruction{token.ConfidentialMintTo(a, M, bob.PublicKey(), nil, [36]byte{9}, audLo, audHi, [3]int8{}, ctxs...)}, bob),
		custom(0, token.OwnerMismatch), "")
	h.ok([]core.Instruction{token.ConfidentialMintTo(a, M, A, nil, [36]byte{9}, audLo, audHi, [3]int8{}, ctxs...)}, alice)
	if got := decrypt(kpS, supplyOf()[:64]); got != "5000" {
		t.Fatalf("supply %s", got)
	}
	h.ok([]core.Instruction{token.ApplyPendingConfidentialBalance(a, A, nil, 1, [36]byte{})}, alice)
	available := confidentialOf(t, h, a).available
	if got := decrypt(kpA, available); got != "5000" {
		t.Fatalf("alice holds %s", got)
	}

	// Burn 2000 of alice's: pending on the mint until applied.
	tc = call(map[string]any{"op": "transferCiphertexts", "source": kpA["pubkey"], "destination": kpS["pubkey"],
		"auditor": kpAud["pubkey"], "amount": "2000"})
	lo, hi = unhex(t, tc["lo"]), unhex(t, tc["hi"])
	remaining := minusLoHi(t, available, handle(lo, 0), handle(hi, 0))
	tp = call(map[string]any{"op": "transfer", "kp": kpA["id"], "transfer": tc["id"], "newSource": hex.EncodeToString(remaining), "remaining": "3000"})
	ctxs = []core.Pubkey{
		zc.verify(t, zkproof.CiphertextCommitmentEquality, unhex(t, tp["equality"])),
		zc.verify(t, zkproof.BatchedGroupedCiphertext3HandlesValidity, unhex(t, tp["validity"])),
		zc.verify(t, zkproof.BatchedRangeProofU128, unhex(t, tp["range"])),
	}
	bLo, bHi := [64]byte(handle(lo, 2)), [64]byte(handle(hi, 2))
	res := h.exec([]core.Instruction{token.ConfidentialBurnFrom(a, M, A, nil, [36]byte{}, bLo, bHi, [3]int8{}, ctxs...)}, alice)
	runtimetest.WantErr(t, res, custom(0, token.InvalidInstruction))
	burn := token.PermissionedConfidentialBurn(a, M, C, A, nil, [36]byte{}, bLo, bHi, [3]int8{}, ctxs...)
	unsigned := burn
	unsigned.Accounts = slices.Clone(burn.Accounts)
	unsigned.Accounts[5].IsSigner = false
	runtimetest.WantErr(t, h.exec([]core.Instruction{unsigned}, alice), ixErr(0, "MissingRequiredSignature"))
	wrong := token.PermissionedConfidentialBurn(a, M, bob.PublicKey(), A, nil, [36]byte{}, bLo, bHi, [3]int8{}, ctxs...)
	runtimetest.WantErr(t, h.exec([]core.Instruction{wrong}, alice, bob), ixErr(0, "InvalidAccountData"))
	h.ok([]core.Instruction{burn}, alice, carol)
	if got := decrypt(kpS, supplyOf()[132:196]); got != "2000" {
		t.Fatalf("pending burn %s", got)
	}
	// The supply key cannot rotate while a burn is pending.
	rot := call(map[string]any{"op": "ctEquality", "kp": kpS["id"], "pubkey": kpS2["pubkey"],
		"ciphertext": hex.EncodeToString(supplyOf()[:64]), "amount": "5000"})
	rotCtx := zc.verify(t, zkproof.CiphertextCiphertextEquality, unhex(t, rot["data"]))
	wantCode(t, h.exec([]core.Instruction{token.RotateSupplyElGamalPubkey(M, A, nil, [32]byte(unhex(t, kpS2["pubkey"])), 0, rotCtx)}, alice),
		custom(0, token.PendingBalanceNonZero), "")
	h.ok([]core.Instruction{token.ApplyPendingBurn(M, A, nil)}, alice)
	if got := decrypt(kpS, supplyOf()[:64]); got != "3000" {
		t.Fatalf("supply after the burn %s", got)
	}

	// Rotate the supply key: the supply is now the new key's encryption of 3000.
	rot = call(map[string]any{"op": "ctEquality", "kp": kpS["id"], "pubkey": kpS2["pubkey"],
		"ciphertext": hex.EncodeToString(supplyOf()[:64]), "amount": "3000"})
	h.ok([]core.Instruction{token.RotateSupplyElGamalPubkey(M, A, nil, [32]byte(unhex(t, kpS2["pubkey"])), 0,
		zc.verify(t, zkproof.CiphertextCiphertextEquality, unhex(t, rot["data"])))}, alice)
	if got, key := decrypt(kpS2, supplyOf()[:64]), hex.EncodeToString(supplyOf()[100:132]); got != "3000" || key != kpS2["pubkey"] {
		t.Fatalf("rotated supply %s under %s", got, key)
	}
	compareWithLiteSVM(t, *steps, zc.made, []core.Pubkey{payer.PublicKey(), A, M, a, C})
}

// TestConfigureAccountWithRegistry configures accounts with the key of their owner's ElGamal
// registry account: one grown to fit (the payer funds the rent), one already sized; a registry
// of another owner or not owned by the registry program is refused. LiteSVM agrees.
func TestConfigureAccountWithRegistry(t *testing.T) {
	t.Parallel()
	h, zc, steps := confidentialHarness(t)
	A, B, M := alice.PublicKey(), bob.PublicKey(), mintKP.PublicKey()
	regA, regB, fake := key(90).PublicKey(), key(91).PublicKey(), key(92).PublicKey()
	registry := func(owner core.Pubkey, elgamal byte) []byte {
		return append(append([]byte(nil), owner[:]...), bytes.Repeat([]byte{elgamal}, 32)...)
	}
	h.accs[regA] = runtime.Account{Lamports: 1e9, Owner: token.ElGamalRegistryProgramID, Data: registry(A, 7)}
	h.accs[regB] = runtime.Account{Lamports: 1e9, Owner: token.ElGamalRegistryProgramID, Data: registry(B, 8)}
	h.accs[fake] = runtime.Account{Lamports: 1e9, Owner: core.SystemProgramID, Data: registry(A, 9)}
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtConfidentialTransferMint}, 0,
		token.InitializeConfidentialTransferMint(M, &A, false, nil)), success)
	a, b := aliceTA.PublicKey(), bobTA.PublicKey()
	h.createAccount22(aliceTA, A, nil)
	h.createAccount22(bobTA, B, []token.ExtensionType{token.ExtConfidentialTransferAccount})
	P := payer.PublicKey()
	runtimetest.WantErr(t, h.exec([]core.Instruction{token.ConfigureConfidentialAccountWithRegistry(a, M, fake, &P)}, payer),
		ixErr(0, "IncorrectProgramId"))
	runtimetest.WantErr(t, h.exec([]core.Instruction{token.ConfigureConfidentialAccountWithRegistry(a, M, regB, &P)}, payer),
		custom(0, token.OwnerMismatch))
	// Without a payer the account has no room for the extension.
	runtimetest.WantErr(t, h.exec([]core.Instruction{token.ConfigureConfidentialAccountWithRegistry(a, M, regA, nil)}, payer),
		ixErr(0, "InvalidAccountData"))
	res := h.ok([]core.Instruction{token.ConfigureConfidentialAccountWithRegistry(a, M, regA, &P)}, payer)
	wantLogLines(t, res, "ConfidentialTransferInstruction::ConfigureAccountWithRegistry", "account needs resize, +300 bytes")
	h.ok([]core.Instruction{token.ConfigureConfidentialAccountWithRegistry(b, M, regB, nil)}, payer)
	if va, vb := confidentialOf(t, h, a), confidentialOf(t, h, b); va.pubkey[0] != 7 || vb.pubkey[0] != 8 {
		t.Fatalf("registered keys %x %x", va.pubkey, vb.pubkey)
	}
	compareWithLiteSVM(t, *steps, zc.made, []core.Pubkey{P, A, B, M, a, b}, regA, regB, fake)
}
