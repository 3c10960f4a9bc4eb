package runtime_test

import (
	"ledgerd/impl/runtime/runtimetest"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

func TestV0MessageWithLoadedAddresses(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer, to := key(1), key(2).PublicKey()
	table := key(7).PublicKey()
	h.fund(payer.PublicKey(), 1e9)
	h.fund(to, 1e9)
	msg, err := core.CompileV0Message(payer.PublicKey(), []core.Instruction{system.Transfer(payer.PublicKey(), to, 5)},
		[]core.AddressLookupTableAccount{{Key: table, Addresses: []core.Pubkey{to}}}, testBlockhash)
	if err != nil {
		t.Fatal(err)
	}
	tx := &core.Transaction{Message: *msg, Signatures: make([]core.Signature, 1)}
	loaded := &core.LoadedAddresses{Writable: []core.Pubkey{to}}
	res := runtime.Execute(h.env, h.accs, tx, runtime.Options{LoadedAddresses: loaded})
	runtimetest.WantErr(t, res, "<nil>")
	if len(res.AccountKeys) != 3 || res.AccountKeys[2] != to || res.PostBalances[2] != 1e9+5 {
		t.Fatalf("keys %v post %v", res.AccountKeys, res.PostBalances)
	}
	if want := uint32(64 + 71 + 64 + 8248); res.LoadedAccountsDataSize != want {
		t.Fatalf("loaded size %d, want %d", res.LoadedAccountsDataSize, want)
	}
	// The loaded addresses must match the lookups.
	res = runtime.Execute(h.env, h.accs, tx, runtime.Options{})
	runtimetest.WantErr(t, res, `"SanitizeFailure"`)
	res = runtime.Execute(h.env, h.accs, tx, runtime.Options{LoadedAddresses: &core.LoadedAddresses{Readonly: []core.Pubkey{to}}})
	runtimetest.WantErr(t, res, `"SanitizeFailure"`)
}

func TestPrecompileKind(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	h.accs[core.Ed25519ProgramID] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true}
	h.reg.RegisterPrecompile(core.Ed25519ProgramID, runtime.ProgramFunc(func(ctx *runtime.InvokeContext) error {
		if len(ctx.Data()) == 0 || ctx.Data()[0] != 1 {
			return runtime.CustomError(2)
		}
		return nil
	}))
	res := h.exec(h.tx([]core.Instruction{testIx(core.Ed25519ProgramID, []byte{1, 0})}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	if len(res.Logs) != 0 || res.ComputeUnitsConsumed != 0 || res.Fee != 10_000 {
		t.Fatalf("logs %q cu %d fee %d", res.Logs, res.ComputeUnitsConsumed, res.Fee)
	}
	res = h.exec(h.tx([]core.Instruction{testIx(core.Ed25519ProgramID, []byte{0})}, payer))
	runtimetest.WantErr(t, res, `{"InstructionError":[0,{"Custom":2}]}`)
}

func TestLegacyExecutableChecks(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env.Features.ExecutableAccountsReadOnly = true
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	notExec := key(7).PublicKey()
	h.accs[notExec] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID}
	res := h.exec(h.tx([]core.Instruction{testIx(notExec, nil)}, payer))
	runtimetest.WantErr(t, res, `"InvalidProgramForExecution"`)
	h.env.Features.ExecutableAccountsReadOnly = false
	res = h.exec(h.tx([]core.Instruction{testIx(notExec, nil)}, payer))
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"UnsupportedProgramId"]}`)
}

func TestSysvarsThroughAccountsAndCache(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env.Clock = sysvar.Clock{Slot: 42, UnixTimestamp: 1_700_000_000}
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	reader := key(8).PublicKey()
	h.accs[reader] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true}
	var fromAccount, fromCache sysvar.Clock
	h.reg.RegisterBuiltin(reader, runtime.ProgramFunc(func(ctx *runtime.InvokeContext) error {
		if err := ctx.Consume(1); err != nil {
			return err
		}
		a, err := ctx.Account(0)
		if err != nil {
			return err
		}
		if err := fromAccount.Unmarshal(a.Data()); err != nil {
			return runtime.ErrInvalidAccountData
		}
		d, err := ctx.Sysvar(core.SysvarClockID)
		if err != nil {
			return err
		}
		if err := fromCache.Unmarshal(d); err != nil {
			return runtime.ErrInvalidAccountData
		}
		if _, err := ctx.Sysvar(core.SysvarSlotHistoryID); err != runtime.ErrUnsupportedSysvar {
			return runtime.ErrGenericError
		}
		return ctx.CheckSysvarAccount(0, core.SysvarClockID)
	}))
	res := h.exec(h.tx([]core.Instruction{testIx(reader, nil, core.Readonly(core.SysvarClockID))}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	if fromAccount.Slot != 42 || fromCache.UnixTimestamp != 1_700_000_000 {
		t.Fatalf("clock %+v %+v", fromAccount, fromCache)
	}
}

// The runtime copies an account's data before writing it, so the source is never changed.
func TestSourceDataIsNotWritten(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer, owned := key(1), key(2).PublicKey()
	h.fund(payer.PublicKey(), 1e9)
	data := []byte{1, 2, 3}
	h.accs[owned] = runtime.Account{Lamports: 1e9, Owner: testProgramID, Data: data}
	res := runtime.Execute(h.env, h.accs, h.tx([]core.Instruction{testIx(testProgramID, []byte{opWriteData, 0, 9}, core.Writable(owned))}, payer), runtime.Options{})
	runtimetest.WantErr(t, res, "<nil>")
	if data[0] != 1 || res.Writes[1].Account.Data[0] != 9 {
		t.Fatalf("source %v write %v", data, res.Writes[1].Account.Data)
	}
}
