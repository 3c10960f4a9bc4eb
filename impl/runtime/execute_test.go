package runtime_test

import (
	"ledgerd/impl/runtime/runtimetest"
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/computebudget"
)

const rentExemptMinimum = 890_880 // (128 + 0) * 6960

func TestTransferExactBalances(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer, to := key(1), key(2).PublicKey()
	h.fund(payer.PublicKey(), 10_000_000_000)
	res := h.exec(h.tx([]core.Instruction{system.Transfer(payer.PublicKey(), to, 1_000_000_000)}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res, "Program "+systemID+" invoke [1]", "Program "+systemID+" success")
	if !res.Processed || res.Fee != 5000 || res.ComputeUnitsConsumed != 150 {
		t.Fatalf("processed %v fee %d cu %d", res.Processed, res.Fee, res.ComputeUnitsConsumed)
	}
	if !slices.Equal(res.PreBalances, []uint64{10_000_000_000, 0, 1}) ||
		!slices.Equal(res.PostBalances, []uint64{8_999_995_000, 1_000_000_000, 1}) {
		t.Fatalf("balances %v -> %v", res.PreBalances, res.PostBalances)
	}
	if h.lamports(payer.PublicKey()) != 8_999_995_000 || h.lamports(to) != 1_000_000_000 {
		t.Fatalf("committed %d %d", h.lamports(payer.PublicKey()), h.lamports(to))
	}
	if got := h.accs[to]; got.Owner != core.SystemProgramID || got.RentEpoch != runtime.RentExemptRentEpoch || len(got.Data) != 0 {
		t.Fatalf("new account %+v", got)
	}
	if len(res.Writes) != 2 || res.LoadedAccountsDataSize != 64+64+7 {
		t.Fatalf("writes %d, loaded size %d", len(res.Writes), res.LoadedAccountsDataSize)
	}
	if res.Budget.ComputeUnitLimit != 3000 || res.InnerInstructions != nil || res.ReturnData != nil {
		t.Fatalf("budget %+v inner %v return %v", res.Budget, res.InnerInstructions, res.ReturnData)
	}
}

func TestFailedTransactionPaysFeeOnly(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer, to := key(1), key(2).PublicKey()
	h.fund(payer.PublicKey(), 10_000_000_000)
	h.fund(to, 5_000_000)
	res := h.exec(h.tx([]core.Instruction{
		system.Transfer(payer.PublicKey(), to, 1),
		system.Transfer(payer.PublicKey(), to, 20_000_000_000),
	}, payer))
	runtimetest.WantErr(t, res, `{"InstructionError":[1,{"Custom":1}]}`)
	if res.Err.Error() != "Error processing Instruction 1: custom program error: 0x1" {
		t.Fatalf("display %q", res.Err.Error())
	}
	runtimetest.WantLogs(t, res,
		"Program "+systemID+" invoke [1]", "Program "+systemID+" success",
		"Program "+systemID+" invoke [1]",
		"Transfer: insufficient lamports 9999994999, need 20000000000",
		"Program "+systemID+" failed: custom program error: 0x1")
	if !res.Processed || res.Fee != 5000 || res.ComputeUnitsConsumed != 300 {
		t.Fatalf("processed %v fee %d cu %d", res.Processed, res.Fee, res.ComputeUnitsConsumed)
	}
	if len(res.Writes) != 1 || res.Writes[0].Pubkey != payer.PublicKey() {
		t.Fatalf("writes %+v", res.Writes)
	}
	if h.lamports(payer.PublicKey()) != 9_999_995_000 || h.lamports(to) != 5_000_000 {
		t.Fatalf("committed %d %d", h.lamports(payer.PublicKey()), h.lamports(to))
	}
	if !slices.Equal(res.PostBalances, []uint64{9_999_995_000, 5_000_000, 1}) {
		t.Fatalf("post balances %v", res.PostBalances)
	}
}

// A failed transaction keeps the fee payer's loaded rent epoch.
func TestFailedTransactionKeepsRentEpoch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.accs[payer.PublicKey()] = runtime.Account{Lamports: 10_000_000, Owner: core.SystemProgramID, RentEpoch: 7}
	res := h.exec(h.tx([]core.Instruction{testIx(testProgramID, cat([]byte{opCustom}, u32le(9))), system.Transfer(payer.PublicKey(), key(2).PublicKey(), 1)}, payer))
	runtimetest.WantErr(t, res, `{"InstructionError":[0,{"Custom":9}]}`)
	if got := h.accs[payer.PublicKey()]; got.RentEpoch != 7 || got.Lamports != 9_995_000 {
		t.Fatalf("payer %+v", got)
	}
	res = h.exec(h.tx([]core.Instruction{system.Transfer(payer.PublicKey(), key(2).PublicKey(), rentExemptMinimum)}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	if got := h.accs[payer.PublicKey()]; got.RentEpoch != runtime.RentExemptRentEpoch {
		t.Fatalf("payer rent epoch %d", got.RentEpoch)
	}
}

func TestErrorsBeforeExecution(t *testing.T) {
	t.Parallel()
	payer, other := key(1), key(2)
	transfer := system.Transfer(payer.PublicKey(), other.PublicKey(), 1)
	tests := []struct {
		name  string
		setup func(h *harness)
		tx    func(h *harness) *core.Transaction
		opts  runtime.Options
		want  string
	}{
		{"sanitize", nil, func(h *harness) *core.Transaction {
			tx := h.tx([]core.Instruction{transfer}, payer)
			tx.Message.Instructions[0].Accounts = []uint8{0, 9}
			return tx
		}, runtime.Options{}, `"SanitizeFailure"`},
		{"account loaded twice", nil, func(h *harness) *core.Transaction {
			return &core.Transaction{Signatures: make([]core.Signature, 1), Message: core.Message{
				Header:          core.MessageHeader{NumRequiredSignatures: 1, NumReadonlyUnsignedAccounts: 1},
				AccountKeys:     []core.Pubkey{payer.PublicKey(), other.PublicKey(), other.PublicKey(), core.SystemProgramID},
				RecentBlockhash: testBlockhash,
				Instructions:    []core.CompiledInstruction{{ProgramIDIndex: 3, Accounts: []uint8{0, 1}, Data: transfer.Data}},
			}}
		}, runtime.Options{}, `"AccountLoadedTwice"`},
		{"too many account locks", nil, func(h *harness) *core.Transaction {
			keys := []core.Pubkey{payer.PublicKey()}
			for i := range 127 {
				keys = append(keys, key(byte(10+i)).PublicKey())
			}
			keys = append(keys, core.SystemProgramID)
			return &core.Transaction{Signatures: make([]core.Signature, 1), Message: core.Message{
				Header:          core.MessageHeader{NumRequiredSignatures: 1, NumReadonlyUnsignedAccounts: 1},
				AccountKeys:     keys,
				RecentBlockhash: testBlockhash,
				Instructions:    []core.CompiledInstruction{{ProgramIDIndex: 128, Accounts: []uint8{0, 1}, Data: transfer.Data}},
			}}
		}, runtime.Options{}, `"TooManyAccountLocks"`},
		{"blockhash not found", nil, func(h *harness) *core.Transaction {
			return h.txWithBlockhash(core.HashBytes([]byte("old")), []core.Instruction{transfer}, payer)
		}, runtime.Options{}, `"BlockhashNotFound"`},
		{"check blockhash option", nil, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{transfer}, payer)
		}, runtime.Options{CheckBlockhash: func(core.Hash) (uint64, bool) { return 0, false }}, `"BlockhashNotFound"`},
		{"already processed", nil, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{transfer}, payer)
		}, runtime.Options{AlreadyProcessed: func() bool { return true }}, `"AlreadyProcessed"`},
		{"duplicate compute budget instruction", nil, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{computebudget.SetComputeUnitLimit(1000), computebudget.SetComputeUnitLimit(2000), transfer}, payer)
		}, runtime.Options{}, `{"DuplicateInstruction":1}`},
		{"duplicate price", nil, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{transfer, computebudget.SetComputeUnitPrice(1), computebudget.SetComputeUnitPrice(1)}, payer)
		}, runtime.Options{}, `{"DuplicateInstruction":2}`},
		{"heap not a multiple of 1024", nil, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{transfer, computebudget.RequestHeapFrame(40*1024 + 1)}, payer)
		}, runtime.Options{}, `{"InstructionError":[1,"InvalidInstructionData"]}`},
		{"heap too large", nil, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{computebudget.RequestHeapFrame(257 * 1024)}, payer)
		}, runtime.Options{}, `{"InstructionError":[0,"InvalidInstructionData"]}`},
		{"heap too small", nil, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{computebudget.RequestHeapFrame(31 * 1024)}, payer)
		}, runtime.Options{}, `{"InstructionError":[0,"InvalidInstructionData"]}`},
		{"retired compute budget instruction", nil, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{{ProgramID: core.ComputeBudgetProgramID, Data: []byte{0, 1, 2, 3, 4, 5, 6, 7, 8}}}, payer)
		}, runtime.Options{}, `{"InstructionError":[0,"InvalidInstructionData"]}`},
		{"unknown compute budget instruction", nil, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{{ProgramID: core.ComputeBudgetProgramID, Data: []byte{5, 0, 0, 0, 0}}}, payer)
		}, runtime.Options{}, `{"InstructionError":[0,"InvalidInstructionData"]}`},
		{"short compute budget instruction", nil, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{{ProgramID: core.ComputeBudgetProgramID, Data: []byte{3, 1, 0, 0, 0}}}, payer)
		}, runtime.Options{}, `{"InstructionError":[0,"InvalidInstructionData"]}`},
		{"zero loaded data size limit", nil, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{computebudget.SetLoadedAccountsDataSizeLimit(0)}, payer)
		}, runtime.Options{}, `"InvalidLoadedAccountsDataSizeLimit"`},
		{"fee payer missing", func(h *harness) { delete(h.accs, payer.PublicKey()) }, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{transfer}, payer)
		}, runtime.Options{}, `"AccountNotFound"`},
		{"fee payer with zero lamports", func(h *harness) {
			h.accs[payer.PublicKey()] = runtime.Account{Owner: core.SystemProgramID}
		}, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{transfer}, payer)
		}, runtime.Options{}, `"AccountNotFound"`},
		{"fee payer owned by a program", func(h *harness) {
			h.accs[payer.PublicKey()] = runtime.Account{Lamports: 1e9, Owner: testProgramID}
		}, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{transfer}, payer)
		}, runtime.Options{}, `"InvalidAccountForFee"`},
		{"fee payer with data", func(h *harness) {
			h.accs[payer.PublicKey()] = runtime.Account{Lamports: 1e9, Owner: core.SystemProgramID, Data: make([]byte, 10)}
		}, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{transfer}, payer)
		}, runtime.Options{}, `"InvalidAccountForFee"`},
		{"uninitialized nonce fee payer", func(h *harness) {
			h.accs[payer.PublicKey()] = runtime.Account{Lamports: 1e9, Owner: core.SystemProgramID, Data: make([]byte, 80)}
		}, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{transfer}, payer)
		}, runtime.Options{}, `"InvalidAccountForFee"`},
		{"insufficient funds for fee", func(h *harness) { h.fund(payer.PublicKey(), 4999) }, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{transfer}, payer)
		}, runtime.Options{}, `"InsufficientFundsForFee"`},
		{"insufficient funds for priority fee", func(h *harness) { h.fund(payer.PublicKey(), 5005) }, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{computebudget.SetComputeUnitPrice(1_000_000), transfer}, payer)
		}, runtime.Options{}, `"InsufficientFundsForFee"`},
		{"fee leaves payer rent paying", func(h *harness) { h.fund(payer.PublicKey(), rentExemptMinimum+1000) }, func(h *harness) *core.Transaction {
			return h.tx([]core.Instruction{transfer}, payer)
		}, runtime.Options{}, `{"InsufficientFundsForRent":{"account_index":0}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.fund(payer.PublicKey(), 10_000_000_000)
			if tc.setup != nil {
				tc.setup(h)
			}
			before := len(h.accs)
			payerBefore := h.accs[payer.PublicKey()]
			res := runtime.Execute(h.env, h.accs, tc.tx(h), tc.opts)
			runtimetest.WantErr(t, res, tc.want)
			if res.Processed || res.Fee != 0 || res.Writes != nil || res.Logs != nil || res.ComputeUnitsConsumed != 0 {
				t.Fatalf("not processed expected: %+v", res)
			}
			if len(h.accs) != before || h.accs[payer.PublicKey()].Lamports != payerBefore.Lamports {
				t.Fatal("accounts changed")
			}
		})
	}
}

// Loading failures still charge the fee (SIMD-0191).
func TestLoadFailuresPayFees(t *testing.T) {
	t.Parallel()
	payer := key(1)
	wallet := key(3).PublicKey()
	tests := []struct {
		name     string
		ixs      []core.Instruction
		want     string
		fee      uint64
		loadSize uint32
	}{
		{"loaded data size exceeded", []core.Instruction{computebudget.SetLoadedAccountsDataSizeLimit(100), system.Transfer(payer.PublicKey(), wallet, 1)},
			`"MaxLoadedAccountsDataSizeExceeded"`, 5000, 100},
		{"program account not found", []core.Instruction{testIx(key(9).PublicKey(), nil)}, `"ProgramAccountNotFound"`, 5000, 64},
		{"program owned by a wallet", []core.Instruction{testIx(wallet, nil)}, `"InvalidProgramForExecution"`, 5000, 128},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.fund(payer.PublicKey(), 1e9)
			h.fund(wallet, 1e9)
			res := h.exec(h.tx(tc.ixs, payer))
			runtimetest.WantErr(t, res, tc.want)
			if !res.Processed || res.Fee != tc.fee || res.LoadedAccountsDataSize != tc.loadSize || len(res.Logs) != 0 {
				t.Fatalf("processed %v fee %d size %d logs %q", res.Processed, res.Fee, res.LoadedAccountsDataSize, res.Logs)
			}
			if h.lamports(payer.PublicKey()) != 1e9-tc.fee || h.lamports(wallet) != 1e9 {
				t.Fatalf("balances %d %d", h.lamports(payer.PublicKey()), h.lamports(wallet))
			}
		})
	}
}

func TestLoadedAccountsDataSize(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	data := make([]byte, 1000)
	h.accs[key(4).PublicKey()] = runtime.Account{Lamports: 1e9, Owner: testProgramID, Data: data}
	// An upgradeable program's programdata counts too, once.
	progData := key(5).PublicKey()
	prog := key(6).PublicKey()
	h.accs[progData] = runtime.Account{Lamports: 1e9, Owner: core.BPFLoaderUpgradeableProgramID, Data: make([]byte, 500)}
	h.accs[prog] = runtime.Account{Lamports: 1e9, Owner: core.BPFLoaderUpgradeableProgramID, Executable: true,
		Data: append([]byte{2, 0, 0, 0}, progData[:]...)}
	res := h.exec(h.tx([]core.Instruction{testIx(testProgramID, []byte{opNoop}, core.Readonly(key(4).PublicKey()), core.Readonly(prog))}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	want := uint32(64 + (64 + 1000) + (64 + 36) + (64 + 500) + (64 + 7))
	if res.LoadedAccountsDataSize != want {
		t.Fatalf("loaded size %d, want %d", res.LoadedAccountsDataSize, want)
	}
}

func TestPriorityFee(t *testing.T) {
	t.Parallel()
	payer, to := key(1), key(2).PublicKey()
	tests := []struct {
		name      string
		ixs       []core.Instruction
		wantFee   uint64
		wantLimit uint32
		wantErr   string
		wantCU    uint64
	}{
		{"default limit of builtins", []core.Instruction{computebudget.SetComputeUnitPrice(1_000_000), system.Transfer(payer.PublicKey(), to, 1e6)},
			5000 + 6000, 6000, "<nil>", 300},
		{"rounded up", []core.Instruction{computebudget.SetComputeUnitLimit(450), computebudget.SetComputeUnitPrice(1), system.Transfer(payer.PublicKey(), to, 1e6)},
			5001, 450, "<nil>", 450},
		{"non-builtin default", []core.Instruction{computebudget.SetComputeUnitPrice(10), testIx(onChainProgramID, []byte{opNoop})},
			5000 + 3, 203_000, "<nil>", 151},
		{"limit capped", []core.Instruction{computebudget.SetComputeUnitLimit(2_000_000), computebudget.SetComputeUnitPrice(1_000)},
			5000 + 1400, 1_400_000, "<nil>", 300},
		{"budget exceeded", []core.Instruction{computebudget.SetComputeUnitLimit(300), computebudget.SetComputeUnitPrice(1), system.Transfer(payer.PublicKey(), to, 1e6)},
			5001, 300, `{"InstructionError":[2,"ComputationalBudgetExceeded"]}`, 300},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.fund(payer.PublicKey(), 1e9)
			res := h.exec(h.tx(tc.ixs, payer))
			runtimetest.WantErr(t, res, tc.wantErr)
			if res.Fee != tc.wantFee || res.Budget.ComputeUnitLimit != tc.wantLimit || res.ComputeUnitsConsumed != tc.wantCU {
				t.Fatalf("fee %d limit %d cu %d", res.Fee, res.Budget.ComputeUnitLimit, res.ComputeUnitsConsumed)
			}
			moved := uint64(0)
			if tc.wantErr == "<nil>" && tc.ixs[len(tc.ixs)-1].ProgramID == core.SystemProgramID {
				moved = 1e6
			}
			if got := h.lamports(payer.PublicKey()); got != 1e9-tc.wantFee-moved {
				t.Fatalf("payer %d", got)
			}
		})
	}
}

func TestComputeBudgetExceededLogs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	res := h.exec(h.tx([]core.Instruction{computebudget.SetComputeUnitLimit(100)}, payer))
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"ComputationalBudgetExceeded"]}`)
	runtimetest.WantLogs(t, res, "Program ComputeBudget111111111111111111111111111111 invoke [1]",
		"Program ComputeBudget111111111111111111111111111111 failed: Computational budget exceeded")
	if res.ComputeUnitsConsumed != 100 {
		t.Fatalf("cu %d", res.ComputeUnitsConsumed)
	}
}

func TestRentStateTransitions(t *testing.T) {
	t.Parallel()
	payer := key(1)
	rentPaying := key(4)
	exempt := key(5).PublicKey()
	tests := []struct {
		name string
		ixs  func() []core.Instruction
		pay  uint64
		want string
	}{
		{"new account below minimum", func() []core.Instruction {
			return []core.Instruction{system.Transfer(payer.PublicKey(), key(2).PublicKey(), 1000)}
		}, 1e9, `{"InsufficientFundsForRent":{"account_index":1}}`},
		{"new account at minimum", func() []core.Instruction {
			return []core.Instruction{system.Transfer(payer.PublicKey(), key(2).PublicKey(), rentExemptMinimum)}
		}, 1e9, "<nil>"},
		{"sender left rent paying", func() []core.Instruction {
			return []core.Instruction{system.Transfer(payer.PublicKey(), exempt, 1_200_000)}
		}, 2_000_000, `{"InsufficientFundsForRent":{"account_index":0}}`},
		{"sender emptied", func() []core.Instruction {
			return []core.Instruction{system.Transfer(payer.PublicKey(), exempt, 2_000_000-5000)}
		}, 2_000_000, "<nil>"},
		{"rent-paying account may shrink", func() []core.Instruction {
			return []core.Instruction{system.Transfer(rentPaying.PublicKey(), exempt, 10)}
		}, 1e9, "<nil>"},
		{"rent-paying account may not grow", func() []core.Instruction {
			return []core.Instruction{system.Transfer(payer.PublicKey(), rentPaying.PublicKey(), 10)}
		}, 1e9, `{"InsufficientFundsForRent":{"account_index":1}}`},
		{"incinerator is exempt from the check", func() []core.Instruction {
			return []core.Instruction{system.Transfer(payer.PublicKey(), core.IncineratorID, 10)}
		}, 1e9, "<nil>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t)
			h.fund(payer.PublicKey(), tc.pay)
			h.fund(rentPaying.PublicKey(), 1000)
			h.fund(exempt, 1e9)
			ixs := tc.ixs()
			signers := []core.Keypair{payer}
			if ixs[0].Accounts[0].Pubkey == rentPaying.PublicKey() {
				signers = append(signers, rentPaying)
			}
			res := h.exec(h.tx(ixs, signers...))
			runtimetest.WantErr(t, res, tc.want)
			if !res.Processed || res.Fee != 5000*uint64(len(signers)) {
				t.Fatalf("processed %v fee %d", res.Processed, res.Fee)
			}
		})
	}
}

func TestUnsupportedProgram(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	native := key(7).PublicKey()
	h.accs[native] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true}
	res := h.exec(h.tx([]core.Instruction{testIx(native, nil)}, payer))
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"UnsupportedProgramId"]}`)
	if len(res.Logs) != 0 || !res.Processed {
		t.Fatalf("logs %q", res.Logs)
	}
}

func TestInstructionsSysvar(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	var seen []byte
	h.reg.RegisterBuiltin(key(8).PublicKey(), runtime.ProgramFunc(func(ctx *runtime.InvokeContext) error {
		a, err := ctx.Account(0)
		if err != nil {
			return err
		}
		seen = append([]byte(nil), a.Data()...)
		return ctx.Consume(1)
	}))
	h.accs[key(8).PublicKey()] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true}
	res := h.exec(h.tx([]core.Instruction{
		testIx(testProgramID, []byte{opNoop}),
		testIx(key(8).PublicKey(), []byte{1, 2}, core.Readonly(core.SysvarInstructionsID)),
	}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	if n := len(seen); n < 4 || seen[n-2] != 1 || seen[n-1] != 0 || seen[0] != 2 {
		t.Fatalf("instructions sysvar %v", seen)
	}
}
