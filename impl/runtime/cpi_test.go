package runtime_test

import (
	"ledgerd/impl/runtime/runtimetest"
	"reflect"
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

func indexOf(t *testing.T, keys []core.Pubkey, k core.Pubkey) uint8 {
	t.Helper()
	i := slices.Index(keys, k)
	if i < 0 {
		t.Fatalf("%s not in the transaction", k)
	}
	return uint8(i)
}

func TestCPIWithProgramDerivedSigner(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer, to := key(1), key(2).PublicKey()
	h.fund(payer.PublicKey(), 1e9)
	vault, bump, err := core.FindProgramAddress([][]byte{[]byte("vault")}, testProgramID)
	if err != nil {
		t.Fatal(err)
	}
	h.fund(vault, 5e9)
	res := h.exec(h.tx([]core.Instruction{testIx(testProgramID, cat([]byte{opPDATransfer, bump}, u64le(2e9)),
		core.Writable(vault), core.Writable(to), core.Readonly(core.SystemProgramID))}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res, "Program "+testID+" invoke [1]", "Program "+systemID+" invoke [2]", "Program "+systemID+" success",
		"Program "+testID+" success")
	if h.lamports(vault) != 3e9 || h.lamports(to) != 2e9 || res.ComputeUnitsConsumed != 151 {
		t.Fatalf("vault %d to %d cu %d", h.lamports(vault), h.lamports(to), res.ComputeUnitsConsumed)
	}
	keys := res.AccountKeys
	want := []runtime.InnerInstructions{{Index: 0, Instructions: []runtime.InnerInstruction{{
		ProgramIDIndex: indexOf(t, keys, core.SystemProgramID),
		Accounts:       []uint8{indexOf(t, keys, vault), indexOf(t, keys, to)},
		Data:           system.Transfer(vault, to, 2e9).Data,
		StackHeight:    2,
	}}}}
	if !reflect.DeepEqual(res.InnerInstructions, want) {
		t.Fatalf("inner instructions\n got %+v\nwant %+v", res.InnerInstructions, want)
	}
}

func TestCPIPrivilegeEscalation(t *testing.T) {
	t.Parallel()
	payer, other, to := key(1), key(3).PublicKey(), key(2).PublicKey()
	transfer := system.Transfer(other, to, 1).Data
	_, bump, _ := core.FindProgramAddress([][]byte{[]byte("vault")}, testProgramID)
	tests := []struct {
		name  string
		ix    core.Instruction
		wantL string
	}{
		{"writable", testIx(testProgramID, cat([]byte{opInvoke, 2, 2, 0, 1, 1, 1, 0, 1}, transfer),
			core.WritableSigner(payer.PublicKey()), core.Readonly(to), core.Readonly(core.SystemProgramID)),
			to.String() + "'s writable privilege escalated"},
		{"signer", testIx(testProgramID, cat([]byte{opInvoke, 2, 2, 0, 1, 1, 1, 0, 1}, transfer),
			core.Writable(other), core.Writable(to), core.Readonly(core.SystemProgramID)),
			other.String() + "'s signer privilege escalated"},
		{"seeds of another address", testIx(testProgramID, cat([]byte{opPDATransfer, bump}, u64le(1)),
			core.Writable(other), core.Writable(to), core.Readonly(core.SystemProgramID)),
			other.String() + "'s signer privilege escalated"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.fund(payer.PublicKey(), 1e9)
			h.fund(other, 1e9)
			h.fund(to, 1e9)
			res := h.exec(h.tx([]core.Instruction{tc.ix}, payer))
			runtimetest.WantErr(t, res, `{"InstructionError":[0,"PrivilegeEscalation"]}`)
			runtimetest.WantLogs(t, res, "Program "+testID+" invoke [1]", tc.wantL,
				"Program "+testID+" failed: Cross-program invocation with unauthorized signer or writable account")
			if res.InnerInstructions != nil {
				t.Fatalf("inner %+v", res.InnerInstructions)
			}
		})
	}
}

func TestCPIUnknownProgramAndAccount(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	stranger := key(9).PublicKey()
	caller := key(8).PublicKey()
	h.accs[caller] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true}
	h.reg.RegisterBuiltin(caller, runtime.ProgramFunc(func(ctx *runtime.InvokeContext) error {
		if err := ctx.Consume(1); err != nil {
			return err
		}
		if ctx.Data()[0] == 0 {
			return ctx.Invoke(system.Transfer(payer.PublicKey(), stranger, 1), nil)
		}
		return ctx.Invoke(core.Instruction{ProgramID: core.SystemProgramID, Accounts: []core.AccountMeta{core.Readonly(stranger)}}, nil)
	}))
	res := h.exec(h.tx([]core.Instruction{testIx(caller, []byte{0}, core.WritableSigner(payer.PublicKey()), core.Writable(core.SystemProgramID))}, payer))
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"MissingAccount"]}`)
	if res.Logs[1] != "Instruction references an unknown account "+stranger.String() {
		t.Fatalf("logs %q", res.Logs)
	}
	h.fund(stranger, 1e9)
	res = h.exec(h.tx([]core.Instruction{testIx(caller, []byte{1}, core.Readonly(stranger))}, payer))
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"MissingAccount"]}`)
	if res.Logs[1] != "Unknown program "+systemID {
		t.Fatalf("logs %q", res.Logs)
	}
}

func TestCPIDepth(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	res := h.exec(h.tx([]core.Instruction{testIx(testProgramID, []byte{opRecurse, 4}, core.Readonly(testProgramID))}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	var wantL []string
	for i := 1; i <= runtime.MaxStackHeight; i++ {
		wantL = append(wantL, "Program "+testID+" invoke ["+itoa(i)+"]")
	}
	for range runtime.MaxStackHeight {
		wantL = append(wantL, "Program "+testID+" success")
	}
	runtimetest.WantLogs(t, res, wantL...)
	if len(res.InnerInstructions) != 1 || len(res.InnerInstructions[0].Instructions) != 4 ||
		res.InnerInstructions[0].Instructions[3].StackHeight != 5 || res.ComputeUnitsConsumed != 5 {
		t.Fatalf("inner %+v cu %d", res.InnerInstructions, res.ComputeUnitsConsumed)
	}

	res = h.exec(h.tx([]core.Instruction{testIx(testProgramID, []byte{opRecurse, 5}, core.Readonly(testProgramID))}, payer))
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"CallDepth"]}`)
	if n := len(res.Logs); n != 10 || res.Logs[n-1] != "Program "+testID+" failed: Cross-program invocation call depth too deep" {
		t.Fatalf("logs %q", res.Logs)
	}
	// The invocation that was too deep is still in the trace, as in the reference.
	inner := res.InnerInstructions[0].Instructions
	if len(inner) != 5 || inner[4].StackHeight != 6 {
		t.Fatalf("inner %+v", inner)
	}
}

func TestCPIReentrancy(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	inner := []byte{opInvoke, 0, 0, opNoop}
	res := h.exec(h.tx([]core.Instruction{testIx(testProgramID, cat([]byte{opInvoke, 1, 2, 0, 0, 0, 1, 0, 0}, inner),
		core.Readonly(testProgramID), core.Readonly(testProgram2ID))}, payer))
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"ReentrancyNotAllowed"]}`)
	id2 := testProgram2ID.String()
	runtimetest.WantLogs(t, res, "Program "+testID+" invoke [1]", "Program "+id2+" invoke [2]",
		"Program "+id2+" failed: Cross-program invocation reentrancy not allowed for this instruction",
		"Program "+testID+" failed: Cross-program invocation reentrancy not allowed for this instruction")
	if len(res.InnerInstructions) != 1 || len(res.InnerInstructions[0].Instructions) != 1 {
		t.Fatalf("inner %+v", res.InnerInstructions)
	}
}

// A callee's changes are visible to the caller, and the caller's lamport changes must balance
// before it invokes.
func TestCPISharesAccounts(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer, to := key(1), key(2).PublicKey()
	h.fund(payer.PublicKey(), 1e9)
	var seen uint64
	caller := key(8).PublicKey()
	h.accs[caller] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true}
	h.reg.RegisterBuiltin(caller, runtime.ProgramFunc(func(ctx *runtime.InvokeContext) error {
		if err := ctx.Consume(1); err != nil {
			return err
		}
		if err := ctx.Invoke(system.Transfer(payer.PublicKey(), to, 1e6), nil); err != nil {
			return err
		}
		a, _ := ctx.Account(1)
		seen = a.Lamports()
		if ctx.Data()[0] == 1 {
			owned, _ := ctx.Account(3)
			if err := owned.CheckedSubLamports(1); err != nil {
				return err
			}
			return ctx.Invoke(system.Transfer(payer.PublicKey(), to, 1), nil)
		}
		return nil
	}))
	h.accs[key(4).PublicKey()] = runtime.Account{Lamports: 1e9, Owner: caller}
	metas := []core.AccountMeta{core.WritableSigner(payer.PublicKey()), core.Writable(to), core.Readonly(core.SystemProgramID), core.Writable(key(4).PublicKey())}
	res := h.exec(h.tx([]core.Instruction{testIx(caller, []byte{0}, metas...)}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	if seen != 1e6 {
		t.Fatalf("caller saw %d", seen)
	}
	res = h.exec(h.tx([]core.Instruction{testIx(caller, []byte{1}, metas...)}, payer))
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"UnbalancedInstruction"]}`)
}
