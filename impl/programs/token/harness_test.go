package token_test

import (
	"slices"
	"strconv"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/memo"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
)

var (
	blockhash = core.HashBytes([]byte("token bank"))
	tokenID   = token.ProgramID.String()
	token22ID = token.Program2022ID.String()
)

const success = "<nil>"

func key(seed byte) core.Keypair { return core.KeypairFromSeed([32]byte{seed, 'T'}) }

// Well-known keys of the tests.
var (
	payer   = key(1)
	alice   = key(2)
	bob     = key(3)
	carol   = key(4)
	mintKP  = key(5)
	mint2KP = key(6)
	aliceTA = key(7) // alice's token account
	bobTA   = key(8) // bob's token account
	msigKP  = key(9)
	freezer = key(10)
	other   = key(11)
)

type harness struct {
	t    testing.TB
	env  *runtime.Env
	accs runtime.MapSource
	// onExec, when set, sees every executed transaction once its writes are committed.
	onExec func(tx *core.Transaction, res *runtime.Result)
}

func newHarness(t testing.TB) *harness {
	reg := runtime.NewRegistry()
	reg.Add(system.Module)
	reg.Add(memo.Modules...)
	reg.Add(token.Modules...)
	h := &harness{t: t, env: runtime.DefaultEnv(blockhash, reg), accs: runtime.MapSource{}}
	h.accs[core.SystemProgramID] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true}
	for _, id := range []core.Pubkey{token.ProgramID, token.Program2022ID, memo.ProgramIDV1, memo.ProgramIDV3} {
		h.accs[id] = runtime.Account{Lamports: 1e9, Owner: core.BPFLoaderUpgradeableProgramID, Executable: true}
	}
	for _, k := range []core.Keypair{payer, alice, bob, carol, freezer, other} {
		h.fund(k.PublicKey(), 10e9)
	}
	h.accs[token.NativeMint] = runtime.Account{Lamports: h.rent(token.MintSize), Owner: token.ProgramID, Data: token.NativeMintData(), RentEpoch: runtime.RentExemptRentEpoch}
	h.accs[token.NativeMint2022] = runtime.Account{Lamports: h.rent(token.MintSize), Owner: token.Program2022ID, Data: token.NativeMintData(), RentEpoch: runtime.RentExemptRentEpoch}
	return h
}

func (h *harness) fund(k core.Pubkey, lamports uint64) {
	h.accs[k] = runtime.Account{Lamports: lamports, Owner: core.SystemProgramID}
}

func (h *harness) rent(size int) uint64 { return h.env.Rent.MinimumBalance(uint64(size)) }

// exec signs and executes a transaction paid by the first signer, committing its writes.
func (h *harness) exec(ixs []core.Instruction, signers ...core.Keypair) *runtime.Result {
	h.t.Helper()
	msg, err := core.CompileLegacyMessage(signers[0].PublicKey(), ixs, h.env.Blockhash)
	if err != nil {
		h.t.Fatal(err)
	}
	var unique []core.Keypair
	for _, s := range signers {
		if !slices.ContainsFunc(unique, func(u core.Keypair) bool { return u.PublicKey() == s.PublicKey() }) {
			unique = append(unique, s)
		}
	}
	tx, err := core.NewSignedTransaction(msg, unique...)
	if err != nil {
		h.t.Fatal(err)
	}
	if !tx.VerifySignatures() {
		h.t.Fatal("signatures do not verify")
	}
	res := runtime.Execute(h.env, h.accs, tx, runtime.Options{})
	h.accs.Apply(res.Writes)
	if h.onExec != nil {
		h.onExec(tx, res)
	}
	return res
}

// ok executes and requires success.
func (h *harness) ok(ixs []core.Instruction, signers ...core.Keypair) *runtime.Result {
	h.t.Helper()
	res := h.exec(ixs, signers...)
	runtimetest.WantErr(h.t, res, success)
	return res
}

// createMint creates and initializes a plain mint.
func (h *harness) createMint(programID core.Pubkey, mint core.Keypair, authority core.Pubkey, freeze *core.Pubkey, decimals uint8) {
	h.t.Helper()
	h.ok([]core.Instruction{
		system.CreateAccount(payer.PublicKey(), mint.PublicKey(), h.rent(token.MintSize), token.MintSize, programID),
		token.InitializeMint2(programID, mint.PublicKey(), authority, freeze, decimals),
	}, payer, mint)
}

// createAccount creates and initializes a plain token account of size bytes.
func (h *harness) createAccount(programID core.Pubkey, account core.Keypair, mint, owner core.Pubkey, size int, pre ...core.Instruction) {
	h.t.Helper()
	ixs := []core.Instruction{system.CreateAccount(payer.PublicKey(), account.PublicKey(), h.rent(size), uint64(size), programID)}
	ixs = append(ixs, pre...)
	ixs = append(ixs, token.InitializeAccount3(programID, account.PublicKey(), mint, owner))
	h.ok(ixs, payer, account)
}

// setup creates mintKP (decimals 2, authority alice, freeze authority freezer), alice's
// and bob's token accounts, and mints amount to alice.
func (h *harness) setup(programID core.Pubkey, amount uint64) {
	h.t.Helper()
	f := freezer.PublicKey()
	h.createMint(programID, mintKP, alice.PublicKey(), &f, 2)
	h.createAccount(programID, aliceTA, mintKP.PublicKey(), alice.PublicKey(), token.AccountSize)
	h.createAccount(programID, bobTA, mintKP.PublicKey(), bob.PublicKey(), token.AccountSize)
	if amount > 0 {
		h.ok([]core.Instruction{token.MintTo(programID, mintKP.PublicKey(), aliceTA.PublicKey(), alice.PublicKey(), nil, amount)}, alice)
	}
}

func (h *harness) account(k core.Pubkey) token.Account {
	h.t.Helper()
	a, err := token.UnpackAccount(h.accs[k].Data)
	if err != nil {
		h.t.Fatalf("account %s: %v", k, err)
	}
	return a
}

func (h *harness) mint(k core.Pubkey) token.Mint {
	h.t.Helper()
	m, err := token.UnpackMint(h.accs[k].Data)
	if err != nil {
		h.t.Fatalf("mint %s: %v", k, err)
	}
	return m
}

func (h *harness) extension(k core.Pubkey, t token.ExtensionType) any {
	h.t.Helper()
	_, exts, err := token.ParseExtensions(h.accs[k].Data)
	if err != nil {
		h.t.Fatalf("extensions of %s: %v", k, err)
	}
	for _, e := range exts {
		if e.Type == t {
			v, err := e.Value()
			if err != nil {
				h.t.Fatalf("extension %s: %v", t, err)
			}
			return v
		}
	}
	h.t.Fatalf("%s has no %s", k, t)
	return nil
}

// programLogs is the log of one top-level instruction of programID that consumed units of
// limit and ended with errText ("" for success).
func programLogs(programID string, units, limit uint64, errText string, lines ...string) []string {
	out := []string{"Program " + programID + " invoke [1]"}
	for _, l := range lines {
		out = append(out, "Program log: "+l)
	}
	out = append(out, "Program "+programID+" consumed "+strconv.FormatUint(units, 10)+" of "+strconv.FormatUint(limit, 10)+" compute units")
	if errText == "" {
		return append(out, "Program "+programID+" success")
	}
	return append(out, "Program "+programID+" failed: "+errText)
}

func pk(k core.Keypair) *core.Pubkey {
	p := k.PublicKey()
	return &p
}

func custom(ix int, code token.TokenError) string {
	return `{"InstructionError":[` + strconv.Itoa(ix) + `,{"Custom":` + strconv.Itoa(int(code)) + `}]}`
}

func ixErr(ix int, name string) string {
	return `{"InstructionError":[` + strconv.Itoa(ix) + `,"` + name + `"]}`
}

func hexCode(code token.TokenError) string {
	return "custom program error: 0x" + strconv.FormatUint(uint64(code), 16)
}
