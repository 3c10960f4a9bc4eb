package token_test

import (
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
)

func forBothPrograms(t *testing.T, f func(t *testing.T, p core.Pubkey)) {
	for _, p := range []core.Pubkey{token.ProgramID, token.Program2022ID} {
		t.Run(p.String()[:8], func(t *testing.T) {
			t.Parallel()
			f(t, p)
		})
	}
}

// createMultisig creates msigKP with alice, bob and carol as signers, m of them required.
func (h *harness) createMultisig(p core.Pubkey, m uint8) {
	h.t.Helper()
	h.ok([]core.Instruction{
		system.CreateAccount(payer.PublicKey(), msigKP.PublicKey(), h.rent(token.MultisigSize), token.MultisigSize, p),
		token.InitializeMultisig2(p, msigKP.PublicKey(), []core.Pubkey{alice.PublicKey(), bob.PublicKey(), carol.PublicKey()}, m),
	}, payer, msigKP)
}

func TestMultisig(t *testing.T) {
	t.Parallel()
	forBothPrograms(t, func(t *testing.T, p core.Pubkey) {
		h := newHarness(t)
		h.setup(p, 0)
		h.createMultisig(p, 2)
		ms, err := token.UnpackMultisig(h.accs[msigKP.PublicKey()].Data)
		if err != nil || ms.M != 2 || ms.N != 3 || ms.Signers[2] != carol.PublicKey() {
			t.Fatalf("multisig %+v %v", ms, err)
		}
		msig := msigKP.PublicKey()
		h.createAccount(p, carolTA, mintKP.PublicKey(), msig, token.AccountSize)
		h.ok([]core.Instruction{token.MintTo(p, mintKP.PublicKey(), carolTA.PublicKey(), alice.PublicKey(), nil, 100)}, alice)

		transfer := func(signers ...core.Keypair) *runtimeResult {
			keys := make([]core.Pubkey, len(signers))
			for i, s := range signers {
				keys[i] = s.PublicKey()
			}
			ix := token.Transfer(p, carolTA.PublicKey(), bobTA.PublicKey(), msig, keys, 10)
			return &runtimeResult{h.exec([]core.Instruction{ix}, append([]core.Keypair{payer}, signers...)...), ix}
		}
		r := transfer(alice, carol)
		runtimetest.WantErr(t, r.res, success)
		units := token.ComputeUnits(p, r.ix.Data) + token.MultisigComputeUnits(2)
		runtimetest.WantLogs(t, r.res, programLogs(p.String(), units, 200_000, "", "Instruction: Transfer")...)
		if got := h.account(bobTA.PublicKey()).Amount; got != 10 {
			t.Errorf("bob %d", got)
		}
		runtimetest.WantErr(t, transfer(alice).res, ixErr(0, "MissingRequiredSignature"))
		runtimetest.WantErr(t, transfer(alice, alice).res, ixErr(0, "MissingRequiredSignature"))
		runtimetest.WantErr(t, transfer(alice, other).res, ixErr(0, "MissingRequiredSignature"))
		runtimetest.WantErr(t, transfer(other, bob, carol).res, success)

		// A listed signer that does not sign fails even when enough others do.
		ix := token.Transfer(p, carolTA.PublicKey(), bobTA.PublicKey(), msig, []core.Pubkey{alice.PublicKey(), bob.PublicKey(), carol.PublicKey()}, 1)
		ix.Accounts[5].IsSigner = false
		runtimetest.WantErr(t, h.exec([]core.Instruction{ix}, payer, alice, bob), ixErr(0, "MissingRequiredSignature"))

		// Initialization errors.
		h.ok([]core.Instruction{system.CreateAccount(payer.PublicKey(), mint2KP.PublicKey(), h.rent(token.MultisigSize), token.MultisigSize, p)}, payer, mint2KP)
		many := make([]core.Pubkey, 12)
		for i := range many {
			many[i] = key(byte(100 + i)).PublicKey()
		}
		runtimetest.WantErr(t, h.exec([]core.Instruction{token.InitializeMultisig2(p, mint2KP.PublicKey(), many, 1)}, payer),
			custom(0, token.InvalidNumberOfProvidedSigners))
		runtimetest.WantErr(t, h.exec([]core.Instruction{token.InitializeMultisig2(p, mint2KP.PublicKey(), many[:2], 0)}, payer),
			custom(0, token.InvalidNumberOfRequiredSigners))
		runtimetest.WantErr(t, h.exec([]core.Instruction{token.InitializeMultisig(p, msig, many[:2], 1)}, payer),
			custom(0, token.AlreadyInUse))
	})
}

type runtimeResult struct {
	res *runtime.Result
	ix  core.Instruction
}

func TestWrappedSOL(t *testing.T) {
	t.Parallel()
	forBothPrograms(t, func(t *testing.T, p core.Pubkey) {
		h := newHarness(t)
		native := token.NativeMintOf(p)
		rent := h.rent(token.AccountSize)
		a, b := wsolTA.PublicKey(), carolTA.PublicKey()
		h.ok([]core.Instruction{
			system.CreateAccount(payer.PublicKey(), a, rent+1e9, token.AccountSize, p),
			token.InitializeAccount3(p, a, native, alice.PublicKey()),
		}, payer, wsolTA)
		acc := h.account(a)
		if r, ok := acc.IsNative.Get(); !ok || r != rent || acc.Amount != 1e9 {
			t.Fatalf("native account %+v", acc)
		}
		// Lamports sent to the account count once synced.
		h.ok([]core.Instruction{system.Transfer(alice.PublicKey(), a, 5e8), token.SyncNative(p, a)}, alice)
		if got := h.account(a).Amount; got != 15e8 {
			t.Fatalf("synced amount %d", got)
		}
		// Transfers move lamports with the tokens.
		h.createAccount(p, carolTA, native, bob.PublicKey(), token.AccountSize)
		h.ok([]core.Instruction{token.TransferChecked(p, a, native, b, alice.PublicKey(), nil, 4e8, 9)}, alice)
		if got, want := h.accs[b].Lamports, rent+4e8; got != want || h.account(b).Amount != 4e8 {
			t.Fatalf("destination lamports %d, want %d", got, want)
		}
		if got, want := h.accs[a].Lamports, rent+11e8; got != want {
			t.Fatalf("source lamports %d, want %d", got, want)
		}
		// Closing returns everything to the owner's chosen destination.
		before := h.accs[alice.PublicKey()].Lamports
		h.ok([]core.Instruction{token.CloseAccount(p, a, alice.PublicKey(), alice.PublicKey(), nil)}, alice)
		fee := uint64(5000)
		if got, want := h.accs[alice.PublicKey()].Lamports, before-fee+rent+11e8; got != want {
			t.Fatalf("alice lamports %d, want %d", got, want)
		}
		// Native accounts cannot be burned or minted, and plain accounts cannot be synced.
		runtimetest.WantErr(t, h.exec([]core.Instruction{token.Burn(p, b, native, bob.PublicKey(), nil, 1)}, bob),
			custom(0, token.NativeNotSupported))
		h.setup(p, 0)
		runtimetest.WantErr(t, h.exec([]core.Instruction{token.SyncNative(p, aliceTA.PublicKey())}, payer),
			custom(0, token.NonNativeNotSupported))
	})
}
