package runtime_test

import (
	"ledgerd/impl/runtime/runtimetest"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

var testID = testProgramID.String()

func TestAccountRules(t *testing.T) {
	t.Parallel()
	payer := key(1)
	owned := key(2).PublicKey()   // owned by the test program, 8 bytes of data
	zeroed := key(3).PublicKey()  // owned by the test program, zeroed data
	foreign := key(4).PublicKey() // a system account
	newOwner := key(5).PublicKey()
	poor := key(6).PublicKey() // owned by the test program, rent paying
	tests := []struct {
		name  string
		data  []byte
		metas []core.AccountMeta
		want  string
		check func(t *testing.T, h *harness)
	}{
		{"write owned", []byte{opWriteData, 0, 7}, []core.AccountMeta{core.Writable(owned)}, "<nil>", func(t *testing.T, h *harness) {
			if h.accs[owned].Data[0] != 7 {
				t.Fatal("data not written")
			}
		}},
		{"write foreign", []byte{opWriteData, 0, 7}, []core.AccountMeta{core.Writable(foreign)}, `{"InstructionError":[0,"ExternalAccountDataModified"]}`, nil},
		{"write read-only", []byte{opWriteData, 0, 7}, []core.AccountMeta{core.Readonly(owned)}, `{"InstructionError":[0,"ReadonlyDataModified"]}`, nil},
		{"debit foreign", cat([]byte{opMove, 0, 1}, u64le(5)), []core.AccountMeta{core.Writable(foreign), core.Writable(owned)},
			`{"InstructionError":[0,"ExternalAccountLamportSpend"]}`, nil},
		{"credit read-only", cat([]byte{opMove, 0, 1}, u64le(5)), []core.AccountMeta{core.Writable(owned), core.Readonly(foreign)},
			`{"InstructionError":[0,"ReadonlyLamportChange"]}`, nil},
		{"move owned to foreign", cat([]byte{opMove, 0, 1}, u64le(5)), []core.AccountMeta{core.Writable(owned), core.Writable(foreign)}, "<nil>",
			func(t *testing.T, h *harness) {
				if h.lamports(foreign) != 1e9+5 {
					t.Fatal("not credited")
				}
			}},
		{"unbalanced", cat([]byte{opDebit, 0}, u64le(5)), []core.AccountMeta{core.Writable(owned)}, `{"InstructionError":[0,"UnbalancedInstruction"]}`, nil},
		{"overflow", cat([]byte{opCredit, 0}, u64le(^uint64(0))), []core.AccountMeta{core.Writable(owned)}, `{"InstructionError":[0,"ArithmeticOverflow"]}`, nil},
		{"assign with data", cat([]byte{opAssign, 0}, newOwner[:]), []core.AccountMeta{core.Writable(owned)}, `{"InstructionError":[0,"ModifiedProgramId"]}`, nil},
		{"assign foreign", cat([]byte{opAssign, 0}, newOwner[:]), []core.AccountMeta{core.Writable(foreign)}, `{"InstructionError":[0,"ModifiedProgramId"]}`, nil},
		{"assign read-only", cat([]byte{opAssign, 0}, newOwner[:]), []core.AccountMeta{core.Readonly(zeroed)}, `{"InstructionError":[0,"ModifiedProgramId"]}`, nil},
		{"assign zeroed", cat([]byte{opAssign, 0}, newOwner[:]), []core.AccountMeta{core.Writable(zeroed)}, "<nil>", func(t *testing.T, h *harness) {
			if h.accs[zeroed].Owner != newOwner {
				t.Fatal("not assigned")
			}
		}},
		{"resize foreign", cat([]byte{opResize, 0}, u32le(4)), []core.AccountMeta{core.Writable(foreign)}, `{"InstructionError":[0,"AccountDataSizeChanged"]}`, nil},
		{"resize beyond 10 MiB", cat([]byte{opResize, 0}, u32le(10*1024*1024+1)), []core.AccountMeta{core.Writable(owned)}, `{"InstructionError":[0,"InvalidRealloc"]}`, nil},
		{"resize owned", cat([]byte{opResize, 0}, u32le(100)), []core.AccountMeta{core.Writable(owned)}, "<nil>", func(t *testing.T, h *harness) {
			if d := h.accs[owned].Data; len(d) != 100 || d[0] != 1 || d[99] != 0 {
				t.Fatalf("data %v", d)
			}
		}},
		{"resize beyond rent exemption", cat([]byte{opResize, 0}, u32le(200_000)), []core.AccountMeta{core.Writable(owned)},
			`{"InsufficientFundsForRent":{"account_index":1}}`, nil},
		{"set executable when rent paying", []byte{opSetExecutable, 0}, []core.AccountMeta{core.Writable(poor)}, `{"InstructionError":[0,"ExecutableAccountNotRentExempt"]}`, nil},
		{"set executable", []byte{opSetExecutable, 0}, []core.AccountMeta{core.Writable(owned)}, "<nil>", func(t *testing.T, h *harness) {
			if !h.accs[owned].Executable {
				t.Fatal("not executable")
			}
		}},
		{"builtin must consume", []byte{opNoConsume}, nil, `{"InstructionError":[0,"BuiltinProgramsMustConsumeComputeUnits"]}`, nil},
		{"custom error", cat([]byte{opCustom}, u32le(0x1771)), nil, `{"InstructionError":[0,{"Custom":6001}]}`, nil},
		{"panic", []byte{opPanic}, nil, `{"InstructionError":[0,"ProgramFailedToComplete"]}`, nil},
		{"empty data", nil, nil, `{"InstructionError":[0,"InvalidInstructionData"]}`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.fund(payer.PublicKey(), 1e9)
			h.fund(foreign, 1e9)
			h.accs[owned] = runtime.Account{Lamports: 1e9, Owner: testProgramID, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8}}
			h.accs[zeroed] = runtime.Account{Lamports: 1e9, Owner: testProgramID, Data: make([]byte, 8)}
			h.accs[poor] = runtime.Account{Lamports: 1000, Owner: testProgramID}
			snapshot := h.accs[owned]
			res := h.exec(h.tx([]core.Instruction{testIx(testProgramID, tc.data, tc.metas...)}, payer))
			runtimetest.WantErr(t, res, tc.want)
			if res.Err != nil && h.accs[owned].Data[0] != snapshot.Data[0] {
				t.Fatal("failed transaction changed data")
			}
			if tc.check != nil {
				tc.check(t, h)
			}
		})
	}
}

func TestPanicLog(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	res := h.exec(h.tx([]core.Instruction{testIx(testProgramID, []byte{opPanic})}, payer))
	runtimetest.WantLogs(t, res, "Program "+testID+" invoke [1]", "Program "+testID+" failed: panicked: boom")
}

func TestBuiltinMustConsumeLogsSuccess(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	res := h.exec(h.tx([]core.Instruction{testIx(testProgramID, []byte{opNoConsume})}, payer))
	runtimetest.WantLogs(t, res, "Program "+testID+" invoke [1]", "Program "+testID+" success")
}

func TestExecutableAccountsReadOnlyFeature(t *testing.T) {
	t.Parallel()
	for _, legacy := range []bool{false, true} {
		h := newHarness(t)
		h.env.Features.ExecutableAccountsReadOnly = legacy
		payer := key(1)
		h.fund(payer.PublicKey(), 1e9)
		res := h.exec(h.tx([]core.Instruction{system.Transfer(payer.PublicKey(), onChainProgramID, 10)}, payer))
		want := "<nil>"
		if legacy {
			want = `{"InstructionError":[0,"ExecutableLamportChange"]}`
		}
		runtimetest.WantErr(t, res, want)
	}
}

func TestOnChainProgramLogs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	id := onChainProgramID.String()
	res := h.exec(h.tx([]core.Instruction{
		testIx(onChainProgramID, []byte{opLog, 'h', 'i'}),
		testIx(onChainProgramID, []byte{opReturn, 1, 2, 3}),
		testIx(onChainProgramID, cat([]byte{opConsume}, u64le(1000))),
	}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res,
		"Program "+id+" invoke [1]", "Program log: hi", "Program "+id+" consumed 1 of 600000 compute units", "Program "+id+" success",
		"Program "+id+" invoke [1]", "Program "+id+" consumed 1 of 599999 compute units", "Program return: "+id+" AQID", "Program "+id+" success",
		"Program "+id+" invoke [1]", "Program "+id+" consumed 1001 of 599998 compute units", "Program "+id+" success")
	// The last instruction reset the return data.
	if res.ReturnData != nil || res.ComputeUnitsConsumed != 1003 {
		t.Fatalf("return data %+v cu %d", res.ReturnData, res.ComputeUnitsConsumed)
	}
	res = h.exec(h.tx([]core.Instruction{testIx(onChainProgramID, []byte{opReturn, 9})}, payer))
	if res.ReturnData == nil || res.ReturnData.ProgramID != onChainProgramID || string(res.ReturnData.Data) != "\x09" {
		t.Fatalf("return data %+v", res.ReturnData)
	}
	res = h.exec(h.tx([]core.Instruction{testIx(onChainProgramID, cat([]byte{opCustom}, u32le(3)))}, payer))
	runtimetest.WantLogs(t, res, "Program "+id+" invoke [1]", "Program "+id+" consumed 1 of 200000 compute units",
		"Program "+id+" failed: custom program error: 0x3")
}

func TestLogTruncation(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	res := h.exec(h.tx([]core.Instruction{testIx(testProgramID, []byte{opLogMany, 100, 200})}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	// The invoke line and 49 lines of 200 bytes fit under 10,000 bytes; the 50th does not, so
	// "Log truncated" is written once and the rest dropped, but the short success line still
	// fits, as in the reference's LogCollector.
	n := len(res.Logs)
	if n != 1+49+2 || res.Logs[n-2] != "Log truncated" || res.Logs[n-1] != "Program "+testID+" success" {
		t.Fatalf("%d logs, tail %q", n, res.Logs[n-2:])
	}
	total := 0
	for _, l := range res.Logs {
		if l != "Log truncated" {
			total += len(l)
		}
	}
	if total >= 10_000 || strings.Count(strings.Join(res.Logs, "\n"), "Log truncated") != 1 {
		t.Fatalf("%d bytes", total)
	}
	unlimited := runtime.Execute(h.env, h.accs, h.tx([]core.Instruction{testIx(testProgramID, []byte{opLogMany, 100, 200})}, payer),
		runtime.Options{LogBytesLimit: -1})
	if len(unlimited.Logs) != 102 {
		t.Fatalf("unlimited logs %d", len(unlimited.Logs))
	}
}

func TestMaxInstructionTraceLength(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	var ixs []core.Instruction
	for range 65 {
		ixs = append(ixs, testIx(testProgramID, []byte{opNoop}))
	}
	res := h.exec(h.tx(ixs, payer))
	runtimetest.WantErr(t, res, `{"InstructionError":[64,"MaxInstructionTraceLengthExceeded"]}`)
	if res.ComputeUnitsConsumed != 64 {
		t.Fatalf("cu %d", res.ComputeUnitsConsumed)
	}
}
