package token_test

import (
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/token"
)

// Token-2022 runs the base instruction set with its own order of checks and errors.
func TestToken2022Base(t *testing.T) {
	t.Parallel()
	p := t22
	a, b, m := aliceTA.PublicKey(), bobTA.PublicKey(), mintKP.PublicKey()
	approve := func(h *harness) {
		h.ok([]core.Instruction{token.Approve(p, a, carol.PublicKey(), alice.PublicKey(), nil, 50)}, alice)
	}
	freeze := func(h *harness) {
		h.ok([]core.Instruction{token.FreezeAccount(p, a, m, freezer.PublicKey(), nil)}, freezer)
	}
	runCases(t, p, 1000, []instrCase{
		{name: "transfer", ix: func() core.Instruction { return token.Transfer(p, a, b, alice.PublicKey(), nil, 100) },
			signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: Transfer"},
			check: func(t *testing.T, h *harness) {
				if got := h.account(b).Amount; got != 100 {
					t.Errorf("bob %d", got)
				}
			}},
		{name: "insufficient funds", ix: func() core.Instruction { return token.Transfer(p, a, b, alice.PublicKey(), nil, 1001) },
			signers: []core.Keypair{alice}, want: custom(0, token.InsufficientFunds),
			logs: []string{"Instruction: Transfer", "Error: insufficient funds"}},
		{name: "transfer from frozen", setup: freeze, ix: func() core.Instruction { return token.Transfer(p, a, b, alice.PublicKey(), nil, 1) },
			signers: []core.Keypair{alice}, want: custom(0, token.AccountFrozen),
			logs: []string{"Instruction: Transfer", "Error: Account is frozen"}},
		{name: "zero transfer needs program accounts", ix: func() core.Instruction {
			return token.Transfer(p, a, alice.PublicKey(), alice.PublicKey(), nil, 0)
		}, signers: []core.Keypair{alice}, want: ixErr(0, "IncorrectProgramId"),
			logs: []string{"Instruction: Transfer", "Error: IncorrectProgramId"}},
		{name: "delegate transfer", setup: approve, ix: func() core.Instruction { return token.Transfer(p, a, b, carol.PublicKey(), nil, 50) },
			signers: []core.Keypair{carol}, want: success, logs: []string{"Instruction: Transfer"},
			check: func(t *testing.T, h *harness) {
				if acc := h.account(a); acc.Delegate.Some || acc.DelegatedAmount != 0 {
					t.Errorf("delegate %+v", acc)
				}
				// Token-2022's Pod none zeroes the old delegate.
				if d := h.accs[a].Data[76:108]; core.Pubkey(d) != (core.Pubkey{}) {
					t.Errorf("delegate bytes %x", d)
				}
			}},
		{name: "revoke by delegate", setup: approve, ix: func() core.Instruction { return token.Revoke(p, a, carol.PublicKey(), nil) },
			signers: []core.Keypair{carol}, want: success, logs: []string{"Instruction: Revoke"}},
		{name: "revoke by stranger", setup: approve, ix: func() core.Instruction { return token.Revoke(p, a, bob.PublicKey(), nil) },
			signers: []core.Keypair{bob}, want: custom(0, token.OwnerMismatch),
			logs: []string{"Instruction: Revoke", "Error: owner does not match"}},
		{name: "approve checked", ix: func() core.Instruction {
			return token.ApproveChecked(p, a, m, carol.PublicKey(), alice.PublicKey(), nil, 5, 2)
		}, signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: ApproveChecked"}},
		{name: "approve frozen", setup: freeze, ix: func() core.Instruction {
			return token.Approve(p, a, carol.PublicKey(), alice.PublicKey(), nil, 5)
		}, signers: []core.Keypair{alice}, want: custom(0, token.AccountFrozen),
			logs: []string{"Instruction: Approve", "Error: Account is frozen"}},
		{name: "freeze", ix: func() core.Instruction { return token.FreezeAccount(p, a, m, freezer.PublicKey(), nil) },
			signers: []core.Keypair{freezer}, want: success, logs: []string{"Instruction: FreezeAccount"}},
		{name: "thaw unfrozen", ix: func() core.Instruction { return token.ThawAccount(p, a, m, freezer.PublicKey(), nil) },
			signers: []core.Keypair{freezer}, want: custom(0, token.InvalidState),
			logs: []string{"Instruction: ThawAccount", "Error: Invalid account state for operation"}},
		{name: "thaw", setup: freeze, ix: func() core.Instruction { return token.ThawAccount(p, a, m, freezer.PublicKey(), nil) },
			signers: []core.Keypair{freezer}, want: success, logs: []string{"Instruction: ThawAccount"}},
		{name: "freeze by other", ix: func() core.Instruction { return token.FreezeAccount(p, a, m, alice.PublicKey(), nil) },
			signers: []core.Keypair{alice}, want: custom(0, token.OwnerMismatch),
			logs: []string{"Instruction: FreezeAccount", "Error: owner does not match"}},
		{name: "set owner", ix: func() core.Instruction {
			return token.SetAuthority(p, a, pk(carol), token.AuthorityAccountOwner, alice.PublicKey(), nil)
		}, signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: SetAuthority"}},
		{name: "set close authority", ix: func() core.Instruction {
			return token.SetAuthority(p, a, pk(carol), token.AuthorityCloseAccount, alice.PublicKey(), nil)
		}, signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: SetAuthority"}},
		{name: "freeze authority", ix: func() core.Instruction {
			return token.SetAuthority(p, m, nil, token.AuthorityFreezeAccount, freezer.PublicKey(), nil)
		}, signers: []core.Keypair{freezer}, want: success, logs: []string{"Instruction: SetAuthority"},
			check: func(t *testing.T, h *harness) {
				if h.mint(m).FreezeAuthority.Some {
					t.Error("freeze authority kept")
				}
			}},
		{name: "close mint authority without the extension", ix: func() core.Instruction {
			return token.SetAuthority(p, m, pk(bob), token.AuthorityCloseMint, alice.PublicKey(), nil)
		}, signers: []core.Keypair{alice}, want: ixErr(0, "InvalidAccountData"),
			logs: []string{"Instruction: SetAuthority", "Error: InvalidAccountData"}},
		{name: "owner authority on a mint", ix: func() core.Instruction {
			return token.SetAuthority(p, m, pk(bob), token.AuthorityAccountOwner, alice.PublicKey(), nil)
		}, signers: []core.Keypair{alice}, want: custom(0, token.AuthorityTypeNotSupported),
			logs: []string{"Instruction: SetAuthority", "Error: Account does not support specified authority type"}},
		{name: "unknown authority type", ix: func() core.Instruction {
			return token.SetAuthority(p, m, pk(bob), token.AuthorityType(40), alice.PublicKey(), nil)
		}, signers: []core.Keypair{alice}, want: custom(0, token.InvalidInstruction),
			logs: []string{"Instruction: SetAuthority", "Error: Invalid instruction"}},
		// 11.0.0 checks the account's owner first.
		{name: "not a mint or account", ix: func() core.Instruction {
			return token.SetAuthority(p, alice.PublicKey(), pk(bob), token.AuthorityMintTokens, alice.PublicKey(), nil)
		}, signers: []core.Keypair{alice}, want: ixErr(0, "IncorrectProgramId"),
			logs: []string{"Instruction: SetAuthority", "Error: IncorrectProgramId"}},
		{name: "burn checked", ix: func() core.Instruction { return token.BurnChecked(p, a, m, alice.PublicKey(), nil, 10, 2) },
			signers: []core.Keypair{alice}, want: success, logs: []string{"Instruction: BurnChecked"}},
		{name: "mint to checked wrong decimals", ix: func() core.Instruction { return token.MintToChecked(p, m, a, alice.PublicKey(), nil, 10, 0) },
			signers: []core.Keypair{alice}, want: custom(0, token.MintDecimalsMismatch),
			logs: []string{"Instruction: MintToChecked", "Error: decimals different from the Mint decimals"}},
		{name: "initialize account twice", ix: func() core.Instruction { return token.InitializeAccount3(p, a, m, bob.PublicKey()) },
			signers: []core.Keypair{payer}, want: custom(0, token.AlreadyInUse),
			logs: []string{"Instruction: InitializeAccount3", "Error: account or token already in use"}},
		{name: "ui amount", ix: func() core.Instruction { return token.UiAmountToAmount(p, m, "abc") },
			signers: []core.Keypair{payer}, want: ixErr(0, "InvalidArgument"),
			logs: []string{"Instruction: UiAmountToAmount", "Error: InvalidArgument"}},
	})
}
