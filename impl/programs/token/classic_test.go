package token_test

import (
	"encoding/base64"
	"encoding/binary"
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
)

// instrCase is one instruction of a token program run against a prepared bank: the error
// the transaction ends with, and the program's log lines ("Program log: " omitted).
type instrCase struct {
	name    string
	setup   func(h *harness)
	ix      func() core.Instruction
	signers []core.Keypair
	want    string
	errText string // the failed line's text; derived from want for custom errors
	logs    []string
	extra   uint64 // compute units beyond the instruction's base (multisig)
	check   func(t *testing.T, h *harness)
}

func runCases(t *testing.T, programID core.Pubkey, amount uint64, cases []instrCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.setup(programID, amount)
			if tc.setup != nil {
				tc.setup(h)
			}
			ix := tc.ix()
			res := h.exec([]core.Instruction{ix}, tc.signers...)
			runtimetest.WantErr(t, res, tc.want)
			errText := tc.errText
			if tc.want != success && errText == "" {
				errText = res.Err.Instruction.Error()
			}
			units := token.ComputeUnits(programID, ix.Data) + tc.extra
			runtimetest.WantLogs(t, res, programLogs(programID.String(), units, 200_000, errText, tc.logs...)...)
			if tc.check != nil {
				tc.check(t, h)
			}
		})
	}
}

func TestClassicTransfer(t *testing.T) {
	t.Parallel()
	p := token.ProgramID
	a, b, m := aliceTA.PublicKey(), bobTA.PublicKey(), mintKP.PublicKey()
	transfer := func(amount uint64) func() core.Instruction {
		return func() core.Instruction { return token.Transfer(p, a, b, alice.PublicKey(), nil, amount) }
	}
	runCases(t, p, 1000, []instrCase{
		{name: "success", ix: transfer(100), signers: []core.Keypair{alice}, want: success,
			logs: []string{"Instruction: Transfer"}, check: func(t *testing.T, h *harness) {
				if got := h.account(a).Amount; got != 900 {
					t.Errorf("alice %d, want 900", got)
				}
				if got := h.account(b).Amount; got != 100 {
					t.Errorf("bob %d, want 100", got)
				}
			}},
		{name: "insufficient funds", ix: transfer(1001), signers: []core.Keypair{alice}, want: custom(0, token.InsufficientFunds),
			logs: []string{"Instruction: Transfer", "Error: insufficient funds"}},
		{name: "owner mismatch", ix: func() core.Instruction { return token.Transfer(p, a, b, bob.PublicKey(), nil, 1) },
			signers: []core.Keypair{bob}, want: custom(0, token.OwnerMismatch),
			logs: []string{"Instruction: Transfer", "Error: owner does not match"}},
		{name: "missing signature", ix: func() core.Instruction {
			ix := token.Transfer(p, a, b, alice.PublicKey(), nil, 1)
			ix.Accounts[2].IsSigner = false
			return ix
		}, signers: []core.Keypair{bob}, want: ixErr(0, "MissingRequiredSignature"),
			logs: []string{"Instruction: Transfer", "Error: MissingRequiredSignature"}},
		{name: "mint mismatch", setup: func(h *harness) {
			h.createMint(p, mint2KP, alice.PublicKey(), nil, 2)
			h.createAccount(p, carolTA, mint2KP.PublicKey(), carol.PublicKey(), token.AccountSize)
		}, ix: func() core.Instruction { return token.Transfer(p, a, carolTA.PublicKey(), alice.PublicKey(), nil, 1) },
			signers: []core.Keypair{alice}, want: custom(0, token.MintMismatch),
			logs: []string{"Instruction: Transfer", "Error: Account not associated with this Mint"}},
		{name: "frozen", setup: func(h *harness) {
			h.ok([]core.Instruction{token.FreezeAccount(p, a, m, freezer.PublicKey(), nil)}, freezer)
		}, ix: transfer(1), signers: []core.Keypair{alice}, want: custom(0, token.AccountFrozen),
			logs: []string{"Instruction: Transfer", "Error: Account is frozen"}},
		{name: "uninitialized destination", setup: func(h *harness) {
			h.ok([]core.Instruction{system.CreateAccount(payer.PublicKey(), carolTA.PublicKey(), h.rent(165), 165, p)}, payer, carolTA)
		}, ix: func() core.Instruction { return token.Transfer(p, a, carolTA.PublicKey(), alice.PublicKey(), nil, 1) },
			signers: []core.Keypair{alice}, want: ixErr(0, "UninitializedAccount"),
			logs: []string{"Instruction: Transfer", "Error: UninitializedAccount"}},
		{name: "not enough accounts", ix: func() core.Instruction {
			ix := token.Transfer(p, a, b, alice.PublicKey(), nil, 1)
			ix.Accounts = ix.Accounts[:2]
			return ix
		}, signers: []core.Keypair{alice}, want: ixErr(0, "NotEnoughAccountKeys"),
			logs: []string{"Instruction: Transfer", "Error: NotEnoughAccountKeys"}},
		{name: "self transfer", ix: func() core.Instruction { return token.Transfer(p, a, a, alice.PublicKey(), nil, 10) },
			signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: Transfer"},
			check: func(t *testing.T, h *harness) {
				if got := h.account(a).Amount; got != 1000 {
					t.Errorf("alice %d, want 1000", got)
				}
			}},
		{name: "read-only destination", ix: func() core.Instruction {
			ix := token.Transfer(p, a, b, alice.PublicKey(), nil, 1)
			ix.Accounts[1].IsWritable = false
			return ix
		}, signers: []core.Keypair{alice}, want: ixErr(0, "ReadonlyDataModified"),
			logs: []string{"Instruction: Transfer"}},
		{name: "zero amount to read-only destination", ix: func() core.Instruction {
			ix := token.Transfer(p, a, b, alice.PublicKey(), nil, 0)
			ix.Accounts[1].IsWritable = false
			return ix
		}, signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: Transfer"}},
		{name: "checked", ix: func() core.Instruction { return token.TransferChecked(p, a, m, b, alice.PublicKey(), nil, 5, 2) },
			signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: TransferChecked"}},
		{name: "checked wrong decimals", ix: func() core.Instruction { return token.TransferChecked(p, a, m, b, alice.PublicKey(), nil, 5, 3) },
			signers: []core.Keypair{alice}, want: custom(0, token.MintDecimalsMismatch),
			logs: []string{"Instruction: TransferChecked", "Error: decimals different from the Mint decimals"}},
		{name: "checked wrong mint", ix: func() core.Instruction {
			return token.TransferChecked(p, a, token.NativeMint, b, alice.PublicKey(), nil, 5, 2)
		}, signers: []core.Keypair{alice}, want: custom(0, token.MintMismatch),
			logs: []string{"Instruction: TransferChecked", "Error: Account not associated with this Mint"}},
	})
}

var carolTA = key(12)

func TestClassicDelegate(t *testing.T) {
	t.Parallel()
	p := token.ProgramID
	a, b, m := aliceTA.PublicKey(), bobTA.PublicKey(), mintKP.PublicKey()
	approve := func(h *harness) {
		h.ok([]core.Instruction{token.Approve(p, a, carol.PublicKey(), alice.PublicKey(), nil, 50)}, alice)
	}
	runCases(t, p, 1000, []instrCase{
		{name: "approve", ix: func() core.Instruction { return token.Approve(p, a, carol.PublicKey(), alice.PublicKey(), nil, 50) },
			signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: Approve"},
			check: func(t *testing.T, h *harness) {
				acc := h.account(a)
				if d, ok := acc.Delegate.Get(); !ok || d != carol.PublicKey() || acc.DelegatedAmount != 50 {
					t.Errorf("delegate %v %d", acc.Delegate, acc.DelegatedAmount)
				}
			}},
		{name: "approve checked wrong decimals", ix: func() core.Instruction {
			return token.ApproveChecked(p, a, m, carol.PublicKey(), alice.PublicKey(), nil, 50, 9)
		}, signers: []core.Keypair{alice}, want: custom(0, token.MintDecimalsMismatch),
			logs: []string{"Instruction: ApproveChecked", "Error: decimals different from the Mint decimals"}},
		{name: "delegate transfer", setup: approve, ix: func() core.Instruction {
			return token.Transfer(p, a, b, carol.PublicKey(), nil, 30)
		}, signers: []core.Keypair{carol}, want: success, logs: []string{"Instruction: Transfer"},
			check: func(t *testing.T, h *harness) {
				if acc := h.account(a); acc.DelegatedAmount != 20 || acc.Amount != 970 {
					t.Errorf("delegated %d amount %d", acc.DelegatedAmount, acc.Amount)
				}
			}},
		{name: "delegate over allowance", setup: approve, ix: func() core.Instruction {
			return token.Transfer(p, a, b, carol.PublicKey(), nil, 51)
		}, signers: []core.Keypair{carol}, want: custom(0, token.InsufficientFunds),
			logs: []string{"Instruction: Transfer", "Error: insufficient funds"}},
		{name: "delegate uses up allowance", setup: approve, ix: func() core.Instruction {
			return token.Transfer(p, a, b, carol.PublicKey(), nil, 50)
		}, signers: []core.Keypair{carol}, want: success, logs: []string{"Instruction: Transfer"},
			check: func(t *testing.T, h *harness) {
				acc := h.account(a)
				if acc.Delegate.Some || acc.DelegatedAmount != 0 {
					t.Errorf("delegate %v %d", acc.Delegate, acc.DelegatedAmount)
				}
				// SPL Token's pack leaves the old delegate's bytes after the none tag.
				if d := h.accs[a].Data[76:108]; core.Pubkey(d) != carol.PublicKey() {
					t.Errorf("delegate bytes %x", d)
				}
			}},
		{name: "revoke", setup: approve, ix: func() core.Instruction { return token.Revoke(p, a, alice.PublicKey(), nil) },
			signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: Revoke"},
			check: func(t *testing.T, h *harness) {
				if acc := h.account(a); acc.Delegate.Some || acc.DelegatedAmount != 0 {
					t.Errorf("delegate %v", acc.Delegate)
				}
			}},
		{name: "revoke by delegate", setup: approve, ix: func() core.Instruction { return token.Revoke(p, a, carol.PublicKey(), nil) },
			signers: []core.Keypair{carol}, want: custom(0, token.OwnerMismatch),
			logs: []string{"Instruction: Revoke", "Error: owner does not match"}},
		{name: "delegate burn", setup: approve, ix: func() core.Instruction { return token.Burn(p, a, m, carol.PublicKey(), nil, 10) },
			signers: []core.Keypair{carol}, want: success, logs: []string{"Instruction: Burn"},
			check: func(t *testing.T, h *harness) {
				if s := h.mint(m).Supply; s != 990 {
					t.Errorf("supply %d", s)
				}
			}},
	})
}

func TestClassicMintBurn(t *testing.T) {
	t.Parallel()
	p := token.ProgramID
	a, m := aliceTA.PublicKey(), mintKP.PublicKey()
	runCases(t, p, 1000, []instrCase{
		{name: "mint to", ix: func() core.Instruction { return token.MintTo(p, m, a, alice.PublicKey(), nil, 5) },
			signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: MintTo"},
			check: func(t *testing.T, h *harness) {
				if s := h.mint(m).Supply; s != 1005 {
					t.Errorf("supply %d", s)
				}
			}},
		{name: "mint to checked", ix: func() core.Instruction { return token.MintToChecked(p, m, a, alice.PublicKey(), nil, 5, 2) },
			signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: MintToChecked"}},
		{name: "mint by other", ix: func() core.Instruction { return token.MintTo(p, m, a, bob.PublicKey(), nil, 5) },
			signers: []core.Keypair{bob}, want: custom(0, token.OwnerMismatch),
			logs: []string{"Instruction: MintTo", "Error: owner does not match"}},
		{name: "mint overflow", ix: func() core.Instruction { return token.MintTo(p, m, a, alice.PublicKey(), nil, ^uint64(0)) },
			signers: []core.Keypair{alice}, want: custom(0, token.Overflow),
			logs: []string{"Instruction: MintTo", "Error: Operation overflowed"}},
		{name: "fixed supply", setup: func(h *harness) {
			h.ok([]core.Instruction{token.SetAuthority(p, m, nil, token.AuthorityMintTokens, alice.PublicKey(), nil)}, alice)
		}, ix: func() core.Instruction { return token.MintTo(p, m, a, alice.PublicKey(), nil, 5) },
			signers: []core.Keypair{alice}, want: custom(0, token.FixedSupply),
			logs: []string{"Instruction: MintTo", "Error: the total supply of this token is fixed"}},
		{name: "mint to native", ix: func() core.Instruction {
			return token.MintTo(p, token.NativeMint, wsolTA.PublicKey(), alice.PublicKey(), nil, 5)
		}, setup: func(h *harness) {
			h.createAccount(p, wsolTA, token.NativeMint, alice.PublicKey(), token.AccountSize)
		}, signers: []core.Keypair{alice}, want: custom(0, token.NativeNotSupported),
			logs: []string{"Instruction: MintTo", "Error: Instruction does not support native tokens"}},
		{name: "burn", ix: func() core.Instruction { return token.Burn(p, a, m, alice.PublicKey(), nil, 400) },
			signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: Burn"},
			check: func(t *testing.T, h *harness) {
				if s, b := h.mint(m).Supply, h.account(a).Amount; s != 600 || b != 600 {
					t.Errorf("supply %d balance %d", s, b)
				}
			}},
		{name: "burn checked wrong decimals", ix: func() core.Instruction { return token.BurnChecked(p, a, m, alice.PublicKey(), nil, 1, 0) },
			signers: []core.Keypair{alice}, want: custom(0, token.MintDecimalsMismatch),
			logs: []string{"Instruction: BurnChecked", "Error: decimals different from the Mint decimals"}},
		{name: "burn too much", ix: func() core.Instruction { return token.Burn(p, a, m, alice.PublicKey(), nil, 1001) },
			signers: []core.Keypair{alice}, want: custom(0, token.InsufficientFunds),
			logs: []string{"Instruction: Burn", "Error: insufficient funds"}},
	})
}

var wsolTA = key(13)

func TestClassicAuthoritiesAndFreeze(t *testing.T) {
	t.Parallel()
	p := token.ProgramID
	a, b, m := aliceTA.PublicKey(), bobTA.PublicKey(), mintKP.PublicKey()
	runCases(t, p, 1000, []instrCase{
		{name: "freeze", ix: func() core.Instruction { return token.FreezeAccount(p, a, m, freezer.PublicKey(), nil) },
			signers: []core.Keypair{freezer}, want: success, logs: []string{"Instruction: FreezeAccount"},
			check: func(t *testing.T, h *harness) {
				if !h.account(a).IsFrozen() {
					t.Error("not frozen")
				}
			}},
		{name: "freeze twice", setup: func(h *harness) {
			h.ok([]core.Instruction{token.FreezeAccount(p, a, m, freezer.PublicKey(), nil)}, freezer)
		}, ix: func() core.Instruction { return token.FreezeAccount(p, a, m, freezer.PublicKey(), nil) },
			signers: []core.Keypair{freezer}, want: custom(0, token.InvalidState),
			logs: []string{"Instruction: FreezeAccount", "Error: Invalid account state for operation"}},
		{name: "thaw", setup: func(h *harness) {
			h.ok([]core.Instruction{token.FreezeAccount(p, a, m, freezer.PublicKey(), nil)}, freezer)
		}, ix: func() core.Instruction { return token.ThawAccount(p, a, m, freezer.PublicKey(), nil) },
			signers: []core.Keypair{freezer}, want: success, logs: []string{"Instruction: ThawAccount"}},
		{name: "freeze without authority", setup: func(h *harness) {
			h.ok([]core.Instruction{token.SetAuthority(p, m, nil, token.AuthorityFreezeAccount, freezer.PublicKey(), nil)}, freezer)
		}, ix: func() core.Instruction { return token.FreezeAccount(p, a, m, freezer.PublicKey(), nil) },
			signers: []core.Keypair{freezer}, want: custom(0, token.MintCannotFreeze),
			logs: []string{"Instruction: FreezeAccount", "Error: This token mint cannot freeze accounts"}},
		{name: "set owner", ix: func() core.Instruction {
			return token.SetAuthority(p, a, pk(carol), token.AuthorityAccountOwner, alice.PublicKey(), nil)
		}, signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: SetAuthority"},
			check: func(t *testing.T, h *harness) {
				if o := h.account(a).Owner; o != carol.PublicKey() {
					t.Errorf("owner %s", o)
				}
			}},
		{name: "remove owner", ix: func() core.Instruction {
			return token.SetAuthority(p, a, nil, token.AuthorityAccountOwner, alice.PublicKey(), nil)
		}, signers: []core.Keypair{alice}, want: custom(0, token.InvalidInstruction),
			logs: []string{"Instruction: SetAuthority", "Error: Invalid instruction"}},
		{name: "close authority", ix: func() core.Instruction {
			return token.SetAuthority(p, a, pk(carol), token.AuthorityCloseAccount, alice.PublicKey(), nil)
		}, signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: SetAuthority"},
			check: func(t *testing.T, h *harness) {
				if c, ok := h.account(a).CloseAuthority.Get(); !ok || c != carol.PublicKey() {
					t.Errorf("close authority %v", c)
				}
			}},
		{name: "mint authority on account", ix: func() core.Instruction {
			return token.SetAuthority(p, a, pk(carol), token.AuthorityMintTokens, alice.PublicKey(), nil)
		}, signers: []core.Keypair{alice}, want: custom(0, token.AuthorityTypeNotSupported),
			logs: []string{"Instruction: SetAuthority", "Error: Account does not support specified authority type"}},
		{name: "new mint authority", ix: func() core.Instruction {
			return token.SetAuthority(p, m, pk(bob), token.AuthorityMintTokens, alice.PublicKey(), nil)
		}, signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: SetAuthority"},
			check: func(t *testing.T, h *harness) {
				if k, _ := h.mint(m).MintAuthority.Get(); k != bob.PublicKey() {
					t.Errorf("mint authority %s", k)
				}
			}},
		{name: "token-2022 authority type", ix: func() core.Instruction {
			return token.SetAuthority(p, m, pk(bob), token.AuthorityCloseMint, alice.PublicKey(), nil)
		}, signers: []core.Keypair{alice}, want: custom(0, token.InvalidInstruction),
			logs: []string{"Error: Invalid instruction"}},
		{name: "not a mint or account", ix: func() core.Instruction {
			return token.SetAuthority(p, alice.PublicKey(), pk(bob), token.AuthorityMintTokens, alice.PublicKey(), nil)
		}, signers: []core.Keypair{alice}, want: ixErr(0, "InvalidArgument"),
			logs: []string{"Instruction: SetAuthority", "Error: InvalidArgument"}},
		{name: "close", setup: func(h *harness) {
			h.ok([]core.Instruction{token.Transfer(p, a, b, alice.PublicKey(), nil, 1000)}, alice)
		}, ix: func() core.Instruction { return token.CloseAccount(p, a, carol.PublicKey(), alice.PublicKey(), nil) },
			signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: CloseAccount"},
			check: func(t *testing.T, h *harness) {
				if _, ok := h.accs[a]; ok {
					t.Error("closed account still exists")
				}
				if got := h.accs[carol.PublicKey()].Lamports; got != 10e9+h.rent(token.AccountSize) {
					t.Errorf("carol %d", got)
				}
			}},
		{name: "close with balance", ix: func() core.Instruction { return token.CloseAccount(p, a, carol.PublicKey(), alice.PublicKey(), nil) },
			signers: []core.Keypair{alice}, want: custom(0, token.NonNativeHasBalance),
			logs: []string{"Instruction: CloseAccount", "Error: Non-native account can only be closed if its balance is zero"}},
		{name: "close into itself", ix: func() core.Instruction { return token.CloseAccount(p, b, b, bob.PublicKey(), nil) },
			signers: []core.Keypair{bob}, want: ixErr(0, "InvalidAccountData"),
			logs: []string{"Instruction: CloseAccount", "Error: InvalidAccountData"}},
	})
}

func TestClassicInitialize(t *testing.T) {
	t.Parallel()
	p := token.ProgramID
	m := mintKP.PublicKey()
	newMint := func(h *harness) {
		h.ok([]core.Instruction{system.CreateAccount(payer.PublicKey(), mint2KP.PublicKey(), h.rent(82), 82, p)}, payer, mint2KP)
	}
	runCases(t, p, 0, []instrCase{
		{name: "initialize mint with rent sysvar", setup: newMint, ix: func() core.Instruction {
			return token.InitializeMintIx(p, mint2KP.PublicKey(), alice.PublicKey(), nil, 6)
		}, signers: []core.Keypair{payer}, want: success, logs: []string{"Instruction: InitializeMint"},
			check: func(t *testing.T, h *harness) {
				want := token.Mint{MintAuthority: token.Some(alice.PublicKey()), Decimals: 6, IsInitialized: true}
				if got := h.mint(mint2KP.PublicKey()); got != want {
					t.Errorf("mint %+v", got)
				}
			}},
		{name: "initialize mint twice", ix: func() core.Instruction {
			return token.InitializeMint2(p, m, alice.PublicKey(), nil, 6)
		}, signers: []core.Keypair{payer}, want: custom(0, token.AlreadyInUse),
			logs: []string{"Instruction: InitializeMint2", "Error: account or token already in use"}},
		{name: "initialize mint not rent exempt", setup: func(h *harness) {
			h.accs[mint2KP.PublicKey()] = runtime.Account{Lamports: h.rent(82) - 1, Owner: p, Data: make([]byte, 82)}
		}, ix: func() core.Instruction {
			return token.InitializeMint2(p, mint2KP.PublicKey(), alice.PublicKey(), nil, 6)
		},
			signers: []core.Keypair{payer}, want: custom(0, token.NotRentExempt),
			logs: []string{"Instruction: InitializeMint2", "Error: Lamport balance below rent-exempt threshold"}},
		{name: "initialize mint wrong rent account", setup: newMint, ix: func() core.Instruction {
			ix := token.InitializeMintIx(p, mint2KP.PublicKey(), alice.PublicKey(), nil, 6)
			ix.Accounts[1].Pubkey = core.SysvarClockID
			return ix
		}, signers: []core.Keypair{payer}, want: ixErr(0, "InvalidArgument"),
			logs: []string{"Instruction: InitializeMint", "Error: InvalidArgument"}},
		{name: "initialize account with uninitialized mint", setup: func(h *harness) {
			newMint(h)
			h.ok([]core.Instruction{system.CreateAccount(payer.PublicKey(), carolTA.PublicKey(), h.rent(165), 165, p)}, payer, carolTA)
		}, ix: func() core.Instruction {
			return token.InitializeAccount(p, carolTA.PublicKey(), mint2KP.PublicKey(), carol.PublicKey())
		}, signers: []core.Keypair{payer}, want: custom(0, token.InvalidMint),
			logs: []string{"Instruction: InitializeAccount", "Error: Invalid Mint"}},
		{name: "initialize account2", setup: func(h *harness) {
			h.ok([]core.Instruction{system.CreateAccount(payer.PublicKey(), carolTA.PublicKey(), h.rent(165), 165, p)}, payer, carolTA)
		}, ix: func() core.Instruction { return token.InitializeAccount2(p, carolTA.PublicKey(), m, carol.PublicKey()) },
			signers: []core.Keypair{payer}, want: success, logs: []string{"Instruction: InitializeAccount2"},
			check: func(t *testing.T, h *harness) {
				if a := h.account(carolTA.PublicKey()); a.Owner != carol.PublicKey() || a.Mint != m || a.State != token.StateInitialized {
					t.Errorf("account %+v", a)
				}
			}},
		{name: "initialize account of a mint owned by another program", setup: func(h *harness) {
			h.accs[mint2KP.PublicKey()] = runtime.Account{Lamports: h.rent(82), Owner: token.Program2022ID, Data: h.accs[m].Data}
			h.ok([]core.Instruction{system.CreateAccount(payer.PublicKey(), carolTA.PublicKey(), h.rent(165), 165, p)}, payer, carolTA)
		}, ix: func() core.Instruction {
			return token.InitializeAccount3(p, carolTA.PublicKey(), mint2KP.PublicKey(), carol.PublicKey())
		}, signers: []core.Keypair{payer}, want: ixErr(0, "IncorrectProgramId"),
			logs: []string{"Instruction: InitializeAccount3", "Error: IncorrectProgramId"}},
		{name: "initialize account wrong size", setup: func(h *harness) {
			h.ok([]core.Instruction{system.CreateAccount(payer.PublicKey(), carolTA.PublicKey(), h.rent(170), 170, p)}, payer, carolTA)
		}, ix: func() core.Instruction { return token.InitializeAccount3(p, carolTA.PublicKey(), m, carol.PublicKey()) },
			signers: []core.Keypair{payer}, want: ixErr(0, "InvalidAccountData"),
			logs: []string{"Instruction: InitializeAccount3", "Error: InvalidAccountData"}},
		{name: "immutable owner is a no-op", setup: func(h *harness) {
			h.ok([]core.Instruction{system.CreateAccount(payer.PublicKey(), carolTA.PublicKey(), h.rent(165), 165, p)}, payer, carolTA)
		}, ix: func() core.Instruction { return token.InitializeImmutableOwner(p, carolTA.PublicKey()) },
			signers: []core.Keypair{payer}, want: success,
			logs: []string{"Instruction: InitializeImmutableOwner", "Please upgrade to SPL Token 2022 for immutable owner support"}},
		{name: "invalid instruction", ix: func() core.Instruction { return core.Instruction{ProgramID: p, Data: []byte{25}} },
			signers: []core.Keypair{payer}, want: custom(0, token.InvalidInstruction), logs: []string{"Error: Invalid instruction"}},
		{name: "empty data", ix: func() core.Instruction { return core.Instruction{ProgramID: p} },
			signers: []core.Keypair{payer}, want: custom(0, token.InvalidInstruction), logs: []string{"Error: Invalid instruction"}},
		{name: "short amount", ix: func() core.Instruction {
			return core.Instruction{ProgramID: p, Data: []byte{3, 1, 2}, Accounts: []core.AccountMeta{core.Writable(m)}}
		}, signers: []core.Keypair{payer}, want: custom(0, token.InvalidInstruction), logs: []string{"Error: Invalid instruction"}},
	})
}

func TestClassicQueries(t *testing.T) {
	t.Parallel()
	p := token.ProgramID
	m := mintKP.PublicKey()
	tests := []struct {
		name string
		ix   core.Instruction
		want string
		logs []string
		ret  []byte
	}{
		{"data size", token.GetAccountDataSize(p, m), success, []string{"Instruction: GetAccountDataSize"},
			binary.LittleEndian.AppendUint64(nil, 165)},
		{"data size of a non-mint", token.GetAccountDataSize(p, aliceTA.PublicKey()), custom(0, token.InvalidMint),
			[]string{"Instruction: GetAccountDataSize", "Error: Invalid Mint"}, nil},
		{"amount to ui", token.AmountToUiAmount(p, m, 12345), success, []string{"Instruction: AmountToUiAmount"}, []byte("123.45")},
		{"amount to ui trims", token.AmountToUiAmount(p, m, 100), success, []string{"Instruction: AmountToUiAmount"}, []byte("1")},
		{"ui to amount", token.UiAmountToAmount(p, m, "1.5"), success, []string{"Instruction: UiAmountToAmount"},
			binary.LittleEndian.AppendUint64(nil, 150)},
		{"ui to amount too precise", token.UiAmountToAmount(p, m, "1.505"), ixErr(0, "InvalidArgument"),
			[]string{"Instruction: UiAmountToAmount", "Error: InvalidArgument"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.setup(p, 0)
			res := h.exec([]core.Instruction{tc.ix}, payer)
			runtimetest.WantErr(t, res, tc.want)
			errText := ""
			if tc.want != success {
				errText = res.Err.Instruction.Error()
			}
			want := programLogs(tokenID, token.ComputeUnits(p, tc.ix.Data), 200_000, errText, tc.logs...)
			if tc.ret != nil {
				want = slices.Insert(want, len(want)-1, "Program return: "+tokenID+" "+b64(tc.ret))
				if res.ReturnData == nil || string(res.ReturnData.Data) != string(tc.ret) {
					t.Errorf("return data %v, want %q", res.ReturnData, tc.ret)
				}
			}
			runtimetest.WantLogs(t, res, want...)
		})
	}
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
