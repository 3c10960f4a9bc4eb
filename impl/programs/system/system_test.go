package system_test

import (
	"bytes"
	"ledgerd/impl/runtime/runtimetest"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/nonce"
)

var (
	payer = key(1)
	alice = key(2)
	bob   = key(3)
	base  = key(4)
	auth  = key(5)
	nacct = key(6) // a nonce account
)

const (
	success  = "<nil>"
	invoke   = "Program " + systemID + " invoke [1]"
	succeed  = "Program " + systemID + " success"
	failedTo = "Program " + systemID + " failed: "
)

// pdaOwner ends with the PDA marker, which CreateWithSeed refuses as an owner.
var pdaOwner = func() core.Pubkey {
	var k core.Pubkey
	copy(k[32-len(core.PDAMarker):], core.PDAMarker)
	return k
}()

func seeded(b core.Pubkey, seed string, owner core.Pubkey) core.Pubkey {
	k, err := core.CreateWithSeed(b, seed, owner)
	if err != nil {
		panic(err)
	}
	return k
}

func TestInstructions(t *testing.T) {
	t.Parallel()
	withSeed := seeded(base.PublicKey(), "seed", otherOwner)
	systemSeeded := seeded(base.PublicKey(), "vault", core.SystemProgramID)
	tests := []struct {
		name    string
		setup   func(h *harness)
		ixs     []core.Instruction
		signers []core.Keypair
		want    string
		logs    []string // the lines between invoke and success/failed of the last instruction
		check   func(t *testing.T, h *harness)
	}{
		{name: "create account", ixs: []core.Instruction{system.CreateAccount(payer.PublicKey(), alice.PublicKey(), 2e6, 10, otherOwner)},
			signers: []core.Keypair{payer, alice}, want: success, check: func(t *testing.T, h *harness) {
				a := h.accs[alice.PublicKey()]
				if a.Lamports != 2e6 || a.Owner != otherOwner || !bytes.Equal(a.Data, make([]byte, 10)) {
					t.Fatalf("account %+v", a)
				}
			}},
		{name: "create account in use", setup: func(h *harness) { h.fund(alice.PublicKey(), 1) },
			ixs: []core.Instruction{system.CreateAccount(payer.PublicKey(), alice.PublicKey(), 2e6, 10, otherOwner)}, signers: []core.Keypair{payer, alice},
			want: `{"InstructionError":[0,{"Custom":0}]}`, logs: []string{"Create Account: account " + addr(alice.PublicKey()) + " already in use"}},
		{name: "create account unsigned", ixs: []core.Instruction{unsign(system.CreateAccount(payer.PublicKey(), alice.PublicKey(), 2e6, 10, otherOwner), alice.PublicKey())},
			signers: []core.Keypair{payer}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`,
			logs: []string{"Allocate: 'to' account " + addr(alice.PublicKey()) + " must sign"}},
		{name: "create account from unsigned", setup: func(h *harness) { h.fund(bob.PublicKey(), 1e9) },
			ixs:     []core.Instruction{unsign(system.CreateAccount(bob.PublicKey(), alice.PublicKey(), 2e6, 10, otherOwner), bob.PublicKey())},
			signers: []core.Keypair{payer, alice}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`,
			logs: []string{"Transfer: `from` account " + bob.PublicKey().String() + " must sign"}},
		{name: "create account too large", ixs: []core.Instruction{system.CreateAccount(payer.PublicKey(), alice.PublicKey(), 2e6, 10*1024*1024+1, otherOwner)},
			signers: []core.Keypair{payer, alice}, want: `{"InstructionError":[0,{"Custom":3}]}`,
			logs: []string{"Allocate: requested 10485761, max allowed 10485760"}},
		{name: "create account of 10 MiB", setup: func(h *harness) { h.fund(payer.PublicKey(), 1e12) },
			ixs:     []core.Instruction{system.CreateAccount(payer.PublicKey(), alice.PublicKey(), 73_000_000_000, 10*1024*1024, otherOwner)},
			signers: []core.Keypair{payer, alice}, want: success},
		{name: "create account insufficient lamports", ixs: []core.Instruction{system.CreateAccount(payer.PublicKey(), alice.PublicKey(), 2e10, 0, otherOwner)},
			signers: []core.Keypair{payer, alice}, want: `{"InstructionError":[0,{"Custom":1}]}`,
			logs: []string{"Transfer: insufficient lamports 9999990000, need 20000000000"}},
		{name: "create account from data account", setup: func(h *harness) {
			h.accs[bob.PublicKey()] = runtime.Account{Lamports: 1e9, Owner: core.SystemProgramID, Data: []byte{1}}
		}, ixs: []core.Instruction{system.CreateAccount(bob.PublicKey(), alice.PublicKey(), 1e6, 0, otherOwner)},
			signers: []core.Keypair{payer, bob, alice}, want: `{"InstructionError":[0,"InvalidArgument"]}`,
			logs: []string{"Transfer: `from` must not carry data"}},
		{name: "create account one account", ixs: []core.Instruction{{ProgramID: core.SystemProgramID,
			Accounts: []core.AccountMeta{core.WritableSigner(payer.PublicKey())},
			Data:     system.Instruction{Kind: system.KindCreateAccount}.Encode()}},
			signers: []core.Keypair{payer}, want: `{"InstructionError":[0,"MissingAccount"]}`},
		{name: "create account with seed", ixs: []core.Instruction{system.CreateAccountWithSeed(payer.PublicKey(), withSeed, base.PublicKey(), "seed", 1e6, 3, otherOwner)},
			signers: []core.Keypair{payer, base}, want: success, check: func(t *testing.T, h *harness) {
				if a := h.accs[withSeed]; a.Owner != otherOwner || len(a.Data) != 3 || a.Lamports != 1e6 {
					t.Fatalf("account %+v", a)
				}
			}},
		{name: "create account with seed mismatch", ixs: []core.Instruction{system.CreateAccountWithSeed(payer.PublicKey(), alice.PublicKey(), base.PublicKey(), "seed", 1e6, 3, otherOwner)},
			signers: []core.Keypair{payer, base}, want: `{"InstructionError":[0,{"Custom":5}]}`,
			logs: []string{"Create: address " + alice.PublicKey().String() + " does not match derived address " + withSeed.String()}},
		{name: "create account with long seed", ixs: []core.Instruction{system.CreateAccountWithSeed(payer.PublicKey(), alice.PublicKey(), base.PublicKey(), strings.Repeat("s", 33), 1e6, 3, otherOwner)},
			signers: []core.Keypair{payer, base}, want: `{"InstructionError":[0,"MaxSeedLengthExceeded"]}`},
		{name: "create account with illegal owner", ixs: []core.Instruction{system.CreateAccountWithSeed(payer.PublicKey(), alice.PublicKey(), base.PublicKey(), "seed", 1e6, 3, pdaOwner)},
			signers: []core.Keypair{payer, base}, want: `{"InstructionError":[0,"IllegalOwner"]}`},
		{name: "create account with seed, base unsigned", ixs: []core.Instruction{unsign(system.CreateAccountWithSeed(payer.PublicKey(), withSeed, base.PublicKey(), "seed", 1e6, 3, otherOwner), base.PublicKey())},
			signers: []core.Keypair{payer}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`,
			logs: []string{"Allocate: 'to' account " + seededAddr(withSeed, base.PublicKey()) + " must sign"}},

		{name: "assign", setup: func(h *harness) { h.fund(alice.PublicKey(), 1e9) }, ixs: []core.Instruction{system.Assign(alice.PublicKey(), otherOwner)},
			signers: []core.Keypair{payer, alice}, want: success, check: func(t *testing.T, h *harness) {
				if h.accs[alice.PublicKey()].Owner != otherOwner {
					t.Fatal("not assigned")
				}
			}},
		{name: "assign unsigned", setup: func(h *harness) { h.fund(alice.PublicKey(), 1e9) }, ixs: []core.Instruction{unsign(system.Assign(alice.PublicKey(), otherOwner), alice.PublicKey())},
			signers: []core.Keypair{payer}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`,
			logs: []string{"Assign: account " + addr(alice.PublicKey()) + " must sign"}},
		{name: "assign to the current owner needs no signature", setup: func(h *harness) { h.fund(alice.PublicKey(), 1e9) },
			ixs: []core.Instruction{unsign(system.Assign(alice.PublicKey(), core.SystemProgramID), alice.PublicKey())}, signers: []core.Keypair{payer}, want: success},
		{name: "assign an account of another program", setup: func(h *harness) {
			h.accs[alice.PublicKey()] = runtime.Account{Lamports: 1e9, Owner: otherOwner}
		}, ixs: []core.Instruction{system.Assign(alice.PublicKey(), core.SystemProgramID)}, signers: []core.Keypair{payer, alice},
			want: `{"InstructionError":[0,"ModifiedProgramId"]}`},
		{name: "assign with seed", setup: func(h *harness) { h.fund(withSeed, 1e9) },
			ixs: []core.Instruction{system.AssignWithSeed(withSeed, base.PublicKey(), "seed", otherOwner)}, signers: []core.Keypair{payer, base}, want: success,
			check: func(t *testing.T, h *harness) {
				if h.accs[withSeed].Owner != otherOwner {
					t.Fatal("not assigned")
				}
			}},

		{name: "transfer", ixs: []core.Instruction{system.Transfer(payer.PublicKey(), alice.PublicKey(), 1e6)}, signers: []core.Keypair{payer}, want: success,
			check: func(t *testing.T, h *harness) {
				if h.accs[alice.PublicKey()].Lamports != 1e6 || h.accs[payer.PublicKey()].Lamports != 1e10-5000-1e6 {
					t.Fatal("balances")
				}
			}},
		{name: "transfer to self", ixs: []core.Instruction{system.Transfer(payer.PublicKey(), payer.PublicKey(), 1e6)}, signers: []core.Keypair{payer}, want: success,
			check: func(t *testing.T, h *harness) {
				if h.accs[payer.PublicKey()].Lamports != 1e10-5000 {
					t.Fatal("balance")
				}
			}},
		{name: "transfer unsigned", setup: func(h *harness) { h.fund(alice.PublicKey(), 1e9) },
			ixs: []core.Instruction{unsign(system.Transfer(alice.PublicKey(), bob.PublicKey(), 1e6), alice.PublicKey())}, signers: []core.Keypair{payer},
			want: `{"InstructionError":[0,"MissingRequiredSignature"]}`, logs: []string{"Transfer: `from` account " + alice.PublicKey().String() + " must sign"}},
		{name: "transfer to read-only", setup: func(h *harness) { h.fund(alice.PublicKey(), 1e9) },
			ixs: []core.Instruction{readonly(system.Transfer(payer.PublicKey(), alice.PublicKey(), 1e6), alice.PublicKey())}, signers: []core.Keypair{payer},
			want: `{"InstructionError":[0,"ReadonlyLamportChange"]}`},
		{name: "transfer from an account of another program", setup: func(h *harness) {
			h.accs[alice.PublicKey()] = runtime.Account{Lamports: 1e9, Owner: otherOwner}
		}, ixs: []core.Instruction{system.Transfer(alice.PublicKey(), bob.PublicKey(), 1e6)}, signers: []core.Keypair{payer, alice},
			want: `{"InstructionError":[0,"ExternalAccountLamportSpend"]}`},
		{name: "transfer one account", ixs: []core.Instruction{{ProgramID: core.SystemProgramID, Accounts: []core.AccountMeta{core.WritableSigner(payer.PublicKey())},
			Data: system.Instruction{Kind: system.KindTransfer, Lamports: 1}.Encode()}}, signers: []core.Keypair{payer}, want: `{"InstructionError":[0,"MissingAccount"]}`},
		{name: "transfer with seed", setup: func(h *harness) { h.fund(systemSeeded, 1e9) },
			ixs:     []core.Instruction{system.TransferWithSeed(systemSeeded, base.PublicKey(), "vault", core.SystemProgramID, alice.PublicKey(), 1e6)},
			signers: []core.Keypair{payer, base}, want: success, check: func(t *testing.T, h *harness) {
				if h.accs[systemSeeded].Lamports != 1e9-1e6 || h.accs[alice.PublicKey()].Lamports != 1e6 {
					t.Fatal("balances")
				}
			}},
		{name: "transfer with seed, base unsigned", setup: func(h *harness) { h.fund(systemSeeded, 1e9) },
			ixs:     []core.Instruction{unsign(system.TransferWithSeed(systemSeeded, base.PublicKey(), "vault", core.SystemProgramID, alice.PublicKey(), 1e6), base.PublicKey())},
			signers: []core.Keypair{payer}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`,
			logs: []string{"Transfer: 'from' account " + base.PublicKey().String() + " must sign"}},
		{name: "transfer with seed mismatch", setup: func(h *harness) { h.fund(bob.PublicKey(), 1e9) },
			ixs:     []core.Instruction{system.TransferWithSeed(bob.PublicKey(), base.PublicKey(), "vault", core.SystemProgramID, alice.PublicKey(), 1e6)},
			signers: []core.Keypair{payer, base}, want: `{"InstructionError":[0,{"Custom":5}]}`,
			logs: []string{"Transfer: 'from' address " + bob.PublicKey().String() + " does not match derived address " + systemSeeded.String()}},

		{name: "allocate", setup: func(h *harness) { h.fund(alice.PublicKey(), 1e9) }, ixs: []core.Instruction{system.Allocate(alice.PublicKey(), 100)},
			signers: []core.Keypair{payer, alice}, want: success, check: func(t *testing.T, h *harness) {
				if a := h.accs[alice.PublicKey()]; len(a.Data) != 100 || a.Owner != core.SystemProgramID {
					t.Fatalf("account %+v", a)
				}
			}},
		{name: "allocate in use", setup: func(h *harness) {
			h.accs[alice.PublicKey()] = runtime.Account{Lamports: 1e9, Owner: core.SystemProgramID, Data: []byte{0}}
		}, ixs: []core.Instruction{system.Allocate(alice.PublicKey(), 100)}, signers: []core.Keypair{payer, alice},
			want: `{"InstructionError":[0,{"Custom":0}]}`, logs: []string{"Allocate: account " + addr(alice.PublicKey()) + " already in use"}},
		{name: "allocate unsigned", ixs: []core.Instruction{unsign(system.Allocate(alice.PublicKey(), 100), alice.PublicKey())},
			signers: []core.Keypair{payer}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`,
			logs: []string{"Allocate: 'to' account " + addr(alice.PublicKey()) + " must sign"}},
		{name: "allocate with seed", setup: func(h *harness) { h.fund(withSeed, 1e9) },
			ixs: []core.Instruction{system.AllocateWithSeed(withSeed, base.PublicKey(), "seed", 64, otherOwner)}, signers: []core.Keypair{payer, base}, want: success,
			check: func(t *testing.T, h *harness) {
				if a := h.accs[withSeed]; len(a.Data) != 64 || a.Owner != otherOwner {
					t.Fatalf("account %+v", a)
				}
			}},
		{name: "bad data", ixs: []core.Instruction{{ProgramID: core.SystemProgramID, Data: []byte{2, 0, 0}}}, signers: []core.Keypair{payer},
			want: `{"InstructionError":[0,"InvalidInstructionData"]}`},
		{name: "unknown instruction", ixs: []core.Instruction{{ProgramID: core.SystemProgramID, Data: []byte{14, 0, 0, 0}}}, signers: []core.Keypair{payer},
			want: `{"InstructionError":[0,"InvalidInstructionData"]}`},
		{name: "create account allow prefund is gated", ixs: []core.Instruction{system.CreateAccountAllowPrefund(alice.PublicKey(), payer.PublicKey(), 1e6, 0, otherOwner)},
			signers: []core.Keypair{payer, alice}, want: `{"InstructionError":[0,"InvalidInstructionData"]}`},
		{name: "create account allow prefund", setup: func(h *harness) {
			h.env.Features.CreateAccountAllowPrefund = true
			h.fund(alice.PublicKey(), 5)
		}, ixs: []core.Instruction{system.CreateAccountAllowPrefund(alice.PublicKey(), payer.PublicKey(), 1e6, 1, otherOwner)},
			signers: []core.Keypair{payer, alice}, want: success, check: func(t *testing.T, h *harness) {
				if a := h.accs[alice.PublicKey()]; a.Lamports != 1e6+5 || a.Owner != otherOwner || len(a.Data) != 1 {
					t.Fatalf("account %+v", a)
				}
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			env := *h.env
			h.env = &env
			h.fund(payer.PublicKey(), 1e10)
			if tc.setup != nil {
				tc.setup(h)
			}
			res := h.exec(tc.ixs, tc.signers...)
			runtimetest.WantErr(t, res, tc.want)
			if res.ComputeUnitsConsumed != 150*uint64(len(tc.ixs)) {
				t.Fatalf("cu %d", res.ComputeUnitsConsumed)
			}
			last := succeed
			if res.Err != nil {
				last = failedTo + res.Err.Instruction.Error()
			}
			want := append(append([]string{invoke}, tc.logs...), last)
			if got := res.Logs[len(res.Logs)-len(want):]; !equal(got, want) {
				t.Fatalf("logs\n got %q\nwant %q", res.Logs, want)
			}
			if tc.check != nil {
				tc.check(t, h)
			}
		})
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// createNonce creates and initializes nacct with authority auth in the current bank.
func createNonce(t *testing.T, h *harness, lamports uint64) {
	t.Helper()
	res := h.exec(system.CreateNonceAccount(payer.PublicKey(), nacct.PublicKey(), auth.PublicKey(), lamports), payer, nacct)
	runtimetest.WantErr(t, res, success)
}

func TestNonceLifecycle(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.fund(payer.PublicKey(), 1e10)
	createNonce(t, h, 1e8)
	a := h.accs[nacct.PublicKey()]
	want := nonce.NewInitialized(auth.PublicKey(), nonce.DurableNonceFromBlockhash(blockhash1), 5000).Encode()
	if a.Owner != core.SystemProgramID || a.Lamports != 1e8 || !bytes.Equal(a.Data, want) {
		t.Fatalf("nonce account %+v", a)
	}
	// The exact layout: version 1, state 1, authority, durable nonce, lamports per signature.
	if a.Data[0] != 1 || a.Data[4] != 1 || !bytes.Equal(a.Data[8:40], func() []byte { k := auth.PublicKey(); return k[:] }()) {
		t.Fatalf("layout %x", a.Data)
	}

	// Advancing in the same bank fails.
	res := h.exec([]core.Instruction{system.AdvanceNonceAccount(nacct.PublicKey(), auth.PublicKey())}, payer, auth)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,{"Custom":7}]}`)
	runtimetest.WantLogs(t, res, invoke, "Advance nonce account: nonce can only advance once per slot", failedTo+"custom program error: 0x7")

	h.newBank(blockhash2)
	res = h.exec([]core.Instruction{unsign(system.AdvanceNonceAccount(nacct.PublicKey(), auth.PublicKey()), auth.PublicKey())}, payer)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"MissingRequiredSignature"]}`)
	runtimetest.WantLogs(t, res, invoke, "Advance nonce account: Account "+auth.PublicKey().String()+" must be a signer", failedTo+"missing required signature for instruction")
	res = h.exec([]core.Instruction{system.AdvanceNonceAccount(nacct.PublicKey(), auth.PublicKey())}, payer, auth)
	runtimetest.WantErr(t, res, success)
	if s := h.nonceState(nacct.PublicKey()); s.Data.DurableNonce != nonce.DurableNonceFromBlockhash(blockhash2) || s.Version != nonce.Current {
		t.Fatalf("state %+v", s)
	}

	// Authorize bob, then only bob may act.
	res = h.exec([]core.Instruction{system.AuthorizeNonceAccount(nacct.PublicKey(), auth.PublicKey(), bob.PublicKey())}, payer, auth)
	runtimetest.WantErr(t, res, success)
	res = h.exec([]core.Instruction{system.AuthorizeNonceAccount(nacct.PublicKey(), auth.PublicKey(), auth.PublicKey())}, payer, auth)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"MissingRequiredSignature"]}`)
	runtimetest.WantLogs(t, res, invoke, "Authorize nonce account: Account "+bob.PublicKey().String()+" must sign", failedTo+"missing required signature for instruction")

	// Withdraw: a part that leaves the rent-exempt minimum, not more, then everything.
	res = h.exec([]core.Instruction{system.WithdrawNonceAccount(nacct.PublicKey(), bob.PublicKey(), alice.PublicKey(), 1e8-nonceRentMinimum)}, payer, bob)
	runtimetest.WantErr(t, res, success)
	res = h.exec([]core.Instruction{system.WithdrawNonceAccount(nacct.PublicKey(), bob.PublicKey(), alice.PublicKey(), 1)}, payer, bob)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"InsufficientFunds"]}`)
	runtimetest.WantLogs(t, res, invoke, "Withdraw nonce account: insufficient lamports 1447680, need 1447681", failedTo+"insufficient funds for instruction")
	// Withdrawing everything in the bank the nonce was advanced in is refused.
	res = h.exec([]core.Instruction{system.WithdrawNonceAccount(nacct.PublicKey(), bob.PublicKey(), alice.PublicKey(), nonceRentMinimum)}, payer, bob)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,{"Custom":7}]}`)
	runtimetest.WantLogs(t, res, invoke, "Withdraw nonce account: nonce can only advance once per slot", failedTo+"custom program error: 0x7")
	h.newBank(core.HashBytes([]byte("bank 3")))
	res = h.exec([]core.Instruction{system.WithdrawNonceAccount(nacct.PublicKey(), auth.PublicKey(), alice.PublicKey(), nonceRentMinimum)}, payer, auth)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"MissingRequiredSignature"]}`)
	runtimetest.WantLogs(t, res, invoke, "Withdraw nonce account: Account "+bob.PublicKey().String()+" must sign", failedTo+"missing required signature for instruction")
	res = h.exec([]core.Instruction{system.WithdrawNonceAccount(nacct.PublicKey(), bob.PublicKey(), alice.PublicKey(), nonceRentMinimum)}, payer, bob)
	runtimetest.WantErr(t, res, success)
	if _, ok := h.accs[nacct.PublicKey()]; ok || h.accs[alice.PublicKey()].Lamports != 1e8 {
		t.Fatalf("nonce account %+v alice %d", h.accs[nacct.PublicKey()], h.accs[alice.PublicKey()].Lamports)
	}
}

func TestNonceErrors(t *testing.T) {
	t.Parallel()
	initialized := func(h *harness) { createNonce(t, h, 1e8) }
	uninitialized := func(h *harness) {
		h.accs[nacct.PublicKey()] = runtime.Account{Lamports: 1e8, Owner: core.SystemProgramID, Data: make([]byte, 80)}
	}
	nk := nacct.PublicKey()
	tests := []struct {
		name    string
		setup   func(h *harness)
		ix      core.Instruction
		signers []core.Keypair
		want    string
		logs    []string
	}{
		{"initialize twice", initialized, system.InitializeNonceAccount(nk, auth.PublicKey()), nil,
			`{"InstructionError":[0,"InvalidAccountData"]}`, []string{"Initialize nonce account: Account " + nk.String() + " state is invalid"}},
		{"initialize underfunded", func(h *harness) {
			h.accs[nk] = runtime.Account{Lamports: 1e6, Owner: core.SystemProgramID, Data: make([]byte, 80)}
		}, system.InitializeNonceAccount(nk, auth.PublicKey()), nil,
			`{"InstructionError":[0,"InsufficientFunds"]}`, []string{"Initialize nonce account: insufficient lamports 1000000, need 1447680"}},
		{"initialize empty account", func(h *harness) { h.fund(nk, 1e8) }, system.InitializeNonceAccount(nk, auth.PublicKey()), nil,
			`{"InstructionError":[0,"InvalidAccountData"]}`, nil},
		{"initialize read-only", uninitialized, readonly(system.InitializeNonceAccount(nk, auth.PublicKey()), nk), nil,
			`{"InstructionError":[0,"InvalidArgument"]}`, []string{"Initialize nonce account: Account " + nk.String() + " must be writeable"}},
		{"initialize with the wrong sysvar", uninitialized, func() core.Instruction {
			ix := system.InitializeNonceAccount(nk, auth.PublicKey())
			ix.Accounts[2].Pubkey = core.SysvarClockID
			return ix
		}(), nil, `{"InstructionError":[0,"InvalidArgument"]}`, nil},
		{"initialize without sysvars", uninitialized, func() core.Instruction {
			ix := system.InitializeNonceAccount(nk, auth.PublicKey())
			ix.Accounts = ix.Accounts[:1]
			return ix
		}(), nil, `{"InstructionError":[0,"MissingAccount"]}`, nil},
		{"initialize without recent blockhashes", func(h *harness) {
			uninitialized(h)
			h.env.RecentBlockhashes = nil
		}, system.InitializeNonceAccount(nk, auth.PublicKey()), nil,
			`{"InstructionError":[0,{"Custom":6}]}`, []string{"Initialize nonce account: recent blockhash list is empty"}},
		{"advance uninitialized", uninitialized, system.AdvanceNonceAccount(nk, auth.PublicKey()), []core.Keypair{auth},
			`{"InstructionError":[0,"InvalidAccountData"]}`, []string{"Advance nonce account: Account " + nk.String() + " state is invalid"}},
		{"advance read-only", initialized, readonly(system.AdvanceNonceAccount(nk, auth.PublicKey()), nk), []core.Keypair{auth},
			`{"InstructionError":[0,"InvalidArgument"]}`, []string{"Advance nonce account: Account " + nk.String() + " must be writeable"}},
		{"advance without recent blockhashes", func(h *harness) {
			initialized(h)
			h.env.RecentBlockhashes = nil
		}, system.AdvanceNonceAccount(nk, auth.PublicKey()), []core.Keypair{auth},
			`{"InstructionError":[0,{"Custom":6}]}`, []string{"Advance nonce account: recent blockhash list is empty"}},
		{"advance a data account", func(h *harness) {
			h.accs[nk] = runtime.Account{Lamports: 1e8, Owner: core.SystemProgramID, Data: []byte{1, 2, 3}}
		}, system.AdvanceNonceAccount(nk, auth.PublicKey()), []core.Keypair{auth}, `{"InstructionError":[0,"InvalidAccountData"]}`, nil},
		{"advance another program's account", func(h *harness) {
			h.accs[nk] = runtime.Account{Lamports: 1e8, Owner: otherOwner,
				Data: nonce.NewInitialized(auth.PublicKey(), core.Hash{1}, 5000).Encode()}
		}, system.AdvanceNonceAccount(nk, auth.PublicKey()), []core.Keypair{auth}, `{"InstructionError":[0,"ExternalAccountDataModified"]}`, nil},
		{"withdraw uninitialized needs the account's signature", uninitialized,
			system.WithdrawNonceAccount(nk, auth.PublicKey(), alice.PublicKey(), 10), []core.Keypair{auth},
			`{"InstructionError":[0,"MissingRequiredSignature"]}`, []string{"Withdraw nonce account: Account " + nk.String() + " must sign"}},
		{"withdraw uninitialized too much", uninitialized,
			system.WithdrawNonceAccount(nk, nk, alice.PublicKey(), 2e8), []core.Keypair{nacct},
			`{"InstructionError":[0,"InsufficientFunds"]}`, []string{"Withdraw nonce account: insufficient lamports 100000000, need 200000000"}},
		{"withdraw read-only", initialized, readonly(system.WithdrawNonceAccount(nk, auth.PublicKey(), alice.PublicKey(), 1), nk), []core.Keypair{auth},
			`{"InstructionError":[0,"InvalidArgument"]}`, []string{"Withdraw nonce account: Account " + nk.String() + " must be writeable"}},
		{"withdraw with the wrong rent sysvar", initialized, func() core.Instruction {
			ix := system.WithdrawNonceAccount(nk, auth.PublicKey(), alice.PublicKey(), 1)
			ix.Accounts[3].Pubkey = core.SysvarClockID
			return ix
		}(), []core.Keypair{auth}, `{"InstructionError":[0,"InvalidArgument"]}`, nil},
		{"withdraw overflow", initialized, system.WithdrawNonceAccount(nk, auth.PublicKey(), alice.PublicKey(), ^uint64(0)), []core.Keypair{auth},
			`{"InstructionError":[0,"InsufficientFunds"]}`, nil},
		{"authorize uninitialized", uninitialized, system.AuthorizeNonceAccount(nk, auth.PublicKey(), bob.PublicKey()), []core.Keypair{auth},
			`{"InstructionError":[0,"InvalidAccountData"]}`, []string{"Authorize nonce account: Account " + nk.String() + " state is invalid"}},
		{"authorize read-only", initialized, readonly(system.AuthorizeNonceAccount(nk, auth.PublicKey(), bob.PublicKey()), nk), []core.Keypair{auth},
			`{"InstructionError":[0,"InvalidArgument"]}`, []string{"Authorize nonce account: Account " + nk.String() + " must be writeable"}},
		{"upgrade current", initialized, system.UpgradeNonceAccount(nk), nil, `{"InstructionError":[0,"InvalidArgument"]}`, nil},
		{"upgrade uninitialized legacy", uninitialized, system.UpgradeNonceAccount(nk), nil, `{"InstructionError":[0,"InvalidArgument"]}`, nil},
		{"upgrade another program's account", func(h *harness) {
			h.accs[nk] = runtime.Account{Lamports: 1e8, Owner: otherOwner, Data: make([]byte, 80)}
		}, system.UpgradeNonceAccount(nk), nil, `{"InstructionError":[0,"InvalidAccountOwner"]}`, nil},
		{"upgrade read-only", uninitialized, readonly(system.UpgradeNonceAccount(nk), nk), nil, `{"InstructionError":[0,"InvalidArgument"]}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			env := *h.env
			h.env = &env
			h.fund(payer.PublicKey(), 1e10)
			tc.setup(h)
			res := h.exec([]core.Instruction{tc.ix}, append([]core.Keypair{payer}, tc.signers...)...)
			runtimetest.WantErr(t, res, tc.want)
			want := append(append([]string{invoke}, tc.logs...), failedTo+res.Err.Instruction.Error())
			if !equal(res.Logs, want) {
				t.Fatalf("logs\n got %q\nwant %q", res.Logs, want)
			}
		})
	}
}

func TestUpgradeLegacyNonce(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.fund(payer.PublicKey(), 1e10)
	legacy := nonce.Versions{Version: nonce.Legacy, Initialized: true, Data: nonce.Data{
		Authority: auth.PublicKey(), DurableNonce: blockhash1, LamportsPerSignature: 5000}}
	h.accs[nacct.PublicKey()] = runtime.Account{Lamports: 1e8, Owner: core.SystemProgramID, Data: legacy.Encode()}
	res := h.exec([]core.Instruction{system.UpgradeNonceAccount(nacct.PublicKey())}, payer)
	runtimetest.WantErr(t, res, success)
	s := h.nonceState(nacct.PublicKey())
	if s.Version != nonce.Current || s.Data.DurableNonce != nonce.DurableNonceFromBlockhash(blockhash1) || s.Data.Authority != auth.PublicKey() {
		t.Fatalf("state %+v", s)
	}
}

func TestDurableNonceTransactions(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.fund(payer.PublicKey(), 1e10)
	createNonce(t, h, 1e8)
	durable := nonce.DurableNonceFromBlockhash(blockhash1)
	advance := system.AdvanceNonceAccount(nacct.PublicKey(), auth.PublicKey())

	// In the bank the nonce was set in, it cannot advance: the blockhash is not found.
	res := h.run(durable, []core.Instruction{advance, system.Transfer(payer.PublicKey(), alice.PublicKey(), 1e6)}, payer, auth)
	runtimetest.WantErr(t, res, `"BlockhashNotFound"`)

	h.newBank(blockhash2)
	next := nonce.DurableNonceFromBlockhash(blockhash2)
	// Advance not first: not a durable transaction.
	res = h.run(durable, []core.Instruction{system.Transfer(payer.PublicKey(), alice.PublicKey(), 1e6), advance}, payer, auth)
	runtimetest.WantErr(t, res, `"BlockhashNotFound"`)
	// The authority did not sign.
	res = h.run(durable, []core.Instruction{unsign(advance, auth.PublicKey()), system.Transfer(payer.PublicKey(), alice.PublicKey(), 1e6)}, payer)
	runtimetest.WantErr(t, res, `"BlockhashNotFound"`)
	// Another nonce value.
	res = h.run(core.HashBytes([]byte("nope")), []core.Instruction{advance, system.Transfer(payer.PublicKey(), alice.PublicKey(), 1e6)}, payer, auth)
	runtimetest.WantErr(t, res, `"BlockhashNotFound"`)

	// A failing durable transaction pays its fee and still advances the nonce.
	res = h.run(durable, []core.Instruction{advance, system.Transfer(payer.PublicKey(), alice.PublicKey(), 1e12)}, payer, auth)
	runtimetest.WantErr(t, res, `{"InstructionError":[1,{"Custom":1}]}`)
	if !res.Processed || res.Fee != 10_000 || len(res.Writes) != 2 {
		t.Fatalf("processed %v fee %d writes %+v", res.Processed, res.Fee, res.Writes)
	}
	if s := h.nonceState(nacct.PublicKey()); s.Data.DurableNonce != next || s.Data.Authority != auth.PublicKey() {
		t.Fatalf("nonce not advanced: %+v", s)
	}
	if h.accs[payer.PublicKey()].Lamports != 1e10-10_000-1e8-10_000 || h.accs[nacct.PublicKey()].Lamports != 1e8 {
		t.Fatalf("payer %d nonce %d", h.accs[payer.PublicKey()].Lamports, h.accs[nacct.PublicKey()].Lamports)
	}
	// The old value is spent.
	res = h.run(durable, []core.Instruction{advance, system.Transfer(payer.PublicKey(), alice.PublicKey(), 1e6)}, payer, auth)
	runtimetest.WantErr(t, res, `"BlockhashNotFound"`)

	// In the next bank the new value works, and the transfer happens.
	h.newBank(core.HashBytes([]byte("bank 3")))
	res = h.run(next, []core.Instruction{advance, system.Transfer(payer.PublicKey(), alice.PublicKey(), 1e6)}, payer, auth)
	runtimetest.WantErr(t, res, success)
	if h.accs[alice.PublicKey()].Lamports != 1e6 || h.nonceState(nacct.PublicKey()).Data.DurableNonce != nonce.DurableNonceFromBlockhash(core.HashBytes([]byte("bank 3"))) {
		t.Fatal("durable transaction not applied")
	}
}

// An initialized nonce account can pay fees but must keep its rent-exempt minimum.
func TestNonceAccountPaysFees(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.fund(payer.PublicKey(), 1e10)
	createNonce(t, h, nonceRentMinimum+5000)
	res := h.exec([]core.Instruction{system.Transfer(alice.PublicKey(), bob.PublicKey(), 0)}, nacct, alice)
	runtimetest.WantErr(t, res, `"InsufficientFundsForFee"`)
	h.fund(alice.PublicKey(), 1e9)
	res = h.exec([]core.Instruction{system.Transfer(alice.PublicKey(), bob.PublicKey(), 1e6)}, nacct, alice)
	runtimetest.WantErr(t, res, `"InsufficientFundsForFee"`) // two signatures: 10,000
	res = h.exec([]core.Instruction{system.AdvanceNonceAccount(nacct.PublicKey(), nacct.PublicKey())}, nacct)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"MissingRequiredSignature"]}`)
	if got := h.accs[nacct.PublicKey()].Lamports; got != nonceRentMinimum {
		t.Fatalf("nonce lamports %d", got)
	}
}
