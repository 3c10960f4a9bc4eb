//go:build unix

package sbpf_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/sbpf"
	"ledgerd/impl/sbpf/sbpftest"
)

// fold ends a program so that its 64-bit r0 decides the outcome: zero is success, anything else
// becomes a custom error of 31 bits (high half xor low half), which both sides report alike.
const fold = `
    mov64 r1, r0
    rsh64 r1, 32
    xor64 r0, r1
    and64 r0, 0x7fffffff
    exit
`

// oracleCase is a program as assembly text (v0), or as bytecode with its version.
type oracleCase struct {
	name, asm string
	heap      uint32 // a RequestHeapFrame size, 0 for the default heap
	text      []byte
	calls     []sbpf.AsmCall
	version   sbpf.Version
}

// vmOracleCases are programs that touch no syscall and no account: each tests a VM rule whose
// outcome (result, error text, compute units) LiteSVM shows.
var vmOracleCases = []struct{ name, asm string }{
	{"success", "mov64 r0, 0\nexit"},
	{"custom error", "mov64 r0, 42\nexit"},
	{"add32 sign-extends", "mov64 r0, 0x7fffffff\nadd32 r0, 1\n" + fold},
	{"sub32 sign-extends", "mov32 r0, 0\nsub32 r0, 3\n" + fold},
	{"mul32 sign-extends", "mov64 r0, 0x10000\nmul32 r0, 0x8001\n" + fold},
	{"div64 imm -1", "mov64 r0, -1\ndiv64 r0, -1\nadd64 r0, 5\n" + fold},
	{"mod64 imm -1", "mov64 r0, 12345\nmod64 r0, -1\n" + fold},
	{"div32 imm -1", "mov64 r0, -1\ndiv32 r0, -1\nadd64 r0, 6\n" + fold},
	{"shifts by large registers", "mov64 r0, 3\nmov64 r1, 67\nlsh64 r0, r1\nmov64 r1, 35\nlsh32 r0, r1\nmov64 r2, -1\narsh32 r2, r1\nxor64 r0, r2\n" + fold},
	{"arsh64 and rsh64", "mov64 r0, -4096\narsh64 r0, 3\nmov64 r1, -1\nrsh64 r1, 60\nadd64 r0, r1\n" + fold},
	{"neg32 and neg64", "mov64 r0, 5\nneg32 r0\nmov64 r1, 7\nneg64 r1\nadd64 r0, r1\n" + fold},
	{"le and be", "lddw r0, 0x1122334455667788\nmov64 r1, r0\nbe64 r1\nmov64 r2, r0\nle16 r2\nbe32 r0\nadd64 r0, r1\nadd64 r0, r2\n" + fold},
	{"and64 imm sign-extends", "mov64 r0, -1\nand64 r0, -256\nor32 r0, 0\n" + fold},
	{"signed and unsigned jumps", "mov64 r1, -1\nmov64 r0, 0\njgt r1, 5, a\nadd64 r0, 1\na:\njsgt r1, 5, b\nadd64 r0, 2\nb:\njset r1, 8, c\nadd64 r0, 4\nc:\n" + fold},
	{"r10 at entry", "mov64 r0, r10\n" + fold},
	{"r1 at entry", "mov64 r0, r1\n" + fold},
	{"r2 at entry", "mov64 r0, r2\n" + fold},
	{"r0 and r3-r9 at entry", "or64 r0, r3\nor64 r0, r4\nor64 r0, r5\nor64 r0, r6\nor64 r0, r7\nor64 r0, r8\nor64 r0, r9\n" + fold},
	{"stack frame bump", "mov64 r6, r10\ncall f\nsub64 r0, r6\n" + fold + "f:\nmov64 r0, r10\nexit"},
	{"callee-saved registers", "mov64 r6, 1\nmov64 r7, 2\nmov64 r8, 3\nmov64 r9, 4\ncall f\nadd64 r0, r6\nadd64 r0, r7\nadd64 r0, r8\nadd64 r0, r9\n" + fold +
		"f:\nmov64 r6, 100\nmov64 r7, 100\nmov64 r8, 100\nmov64 r9, 100\nmov64 r0, 0\nexit"},
	{"63 nested calls", "mov64 r1, 62\nmov64 r0, 0\ncall f\n" + fold + "f:\njeq r1, 0, done\nsub64 r1, 1\nadd64 r0, 1\ncall f\ndone:\nexit"},
	{"64 nested calls", "mov64 r1, 63\nmov64 r0, 0\ncall f\n" + fold + "f:\njeq r1, 0, done\nsub64 r1, 1\nadd64 r0, 1\ncall f\ndone:\nexit"},
	{"callx truncates", "lddw r3, 0x100000163\ncallx r3\n" + fold + "mov64 r0, 9\nexit"},
	{"callx outside", "mov64 r3, 0\ncallx r3\nexit"},
	{"stack straddle", "lddw r1, 0x1122334455667788\nstxdw [r10-4], r1\nlddw r2, 0x200002000\nldxw r0, [r2+0]\n" + fold},
	{"stack gap", "stdw [r10+0], 1\nexit"},
	{"stack gap frame 5", "lddw r1, 0x200005008\nldxb r0, [r1+0]\nexit"},
	{"below the stack", "lddw r1, 0x1fffff000\nldxw r0, [r1+0]\nexit"},
	{"just below the stack", "lddw r1, 0x1fffffff8\nldxdw r0, [r1+0]\nexit"},
	{"past the stack frames", "lddw r1, 0x200041000\nldxb r0, [r1+0]\nexit"},
	{"store into the program", "lddw r1, 0x100000120\nstb [r1+0], 1\nexit"},
	{"read the program", "lddw r1, 0x100000120\nldxdw r0, [r1+0]\n" + fold},
	{"read address 0", "mov64 r1, 0\nldxdw r0, [r1+0]\nexit"},
	{"heap end", "lddw r1, 0x300007ffc\nldxdw r0, [r1+0]\nexit"},
	{"past the heap", "lddw r1, 0x300008000\nldxb r0, [r1+0]\nexit"},
	{"heap round trip", "lddw r1, 0x300000100\nstdw [r1+0], -7\nldxdw r0, [r1+0]\n" + fold},
	{"input header", "ldxdw r0, [r1+0]\nldxdw r2, [r1+8]\nadd64 r0, r2\nadd64 r0, 11\n" + fold},
	{"input end", "ldxb r0, [r1+47]\nadd64 r0, 1\n" + fold},
	{"past the input", "ldxb r0, [r1+48]\nexit"},
	{"write the input header", "stdw [r1+0], 5\nldxdw r0, [r1+0]\n" + fold},
	{"above all regions", "lddw r1, 0x500000000\nldxb r0, [r1+0]\nexit"},
	{"divide by zero", "mov64 r2, 0\nmov64 r0, 1\ndiv64 r0, r2\nexit"},
	{"mod32 by a zero low half", "lddw r2, 0x100000000\nmov64 r0, 1\nmod32 r0, r2\nexit"},
	{"run off the end", "mov64 r0, 0\nmov64 r0, 1"},
	{"loop forever", "ja -1\nexit"},
	// Syscalls settle the instructions run so far, then charge their own cost.
	{"compute units log", "mov64 r6, 1\nmov64 r7, 2\ncall sol_log_compute_units_\ncall sol_log_compute_units_\nmov64 r0, 0\nexit"},
	// LiteSVM 1.5.0 does not register sol_remaining_compute_units: calling it is an unknown call.
	{"unregistered syscall", "mov64 r6, 1\ncall sol_remaining_compute_units\n" + fold},
	{"log 64", "mov64 r1, 1\nmov64 r2, 0x24\nmov64 r5, -1\ncall sol_log_64_\nmov64 r0, 0\nexit"},
	// 199,902 units of instructions leave 98, short of sol_log_64_'s 100.
	{"syscall over budget", "mov64 r1, 99950\nloop:\nsub64 r1, 1\njne r1, 0, loop\ncall sol_log_64_\nexit"},
	{"abort", "mov64 r0, 0\ncall abort\nexit"},
}

// oracleSyscalls are just enough syscalls for the cases above, with the reference's costs.
func oracleSyscalls(t *testing.T, l *sbpf.Loader) {
	logf := func(vm *sbpf.VM, format string, args ...any) {
		logs := vm.Host.(*[]string)
		*logs = append(*logs, fmt.Sprintf(format, args...))
	}
	for name, fn := range map[string]sbpf.Syscall{
		"sol_log_compute_units_": func(vm *sbpf.VM, _, _, _, _, _ uint64) (uint64, error) {
			if err := vm.Consume(100); err != nil {
				return 0, err
			}
			logf(vm, "Program consumption: %d units remaining", vm.Remaining())
			return 0, nil
		},
		"sol_log_64_": func(vm *sbpf.VM, a, b, c, d, e uint64) (uint64, error) {
			if err := vm.Consume(100); err != nil {
				return 0, err
			}
			logf(vm, "Program log: %#x, %#x, %#x, %#x, %#x", a, b, c, d, e)
			return 0, nil
		},
		"abort": func(vm *sbpf.VM, _, _, _, _, _ uint64) (uint64, error) {
			return 0, errors.New("SBF program panicked")
		},
	} {
		if err := l.Register(name, fn); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOracleVM runs vmOracleCases in LiteSVM (the reference VM, loaded as loader-v2 programs)
// and in this package, and compares outcome, error text and compute units.
func TestOracleVM(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Node.js")
	}
	var cases []oracleCase
	for _, c := range vmOracleCases {
		cases = append(cases, oracleCase{name: c.name, asm: c.asm})
	}
	// A requested heap frame maps that much heap (the runtime charges its cost before the VM).
	for _, heap := range []uint32{64 * 1024, 256 * 1024} {
		cases = append(cases,
			oracleCase{name: fmt.Sprintf("heap %d end", heap), heap: heap,
				asm: fmt.Sprintf("lddw r1, %#x\nstdw [r1+0], 3\nldxdw r0, [r1+0]\n", sbpf.MMHeapStart+uint64(heap)-8) + fold},
			oracleCase{name: fmt.Sprintf("heap %d past", heap), heap: heap,
				asm: fmt.Sprintf("lddw r1, %#x\nldxb r0, [r1+0]\nexit", sbpf.MMHeapStart+uint64(heap))})
	}
	compareWithOracle(t, cases)
}

// compareWithOracle runs each case as a loader-v2 program with no accounts in LiteSVM and here.
func compareWithOracle(t *testing.T, cases []oracleCase) {
	payer := core.KeypairFromSeed([32]byte{1, 2, 3})
	sc := realelf.Scenario{Name: "vm", Accounts: []realelf.Account{{Address: payer.PublicKey(), Lamports: 1e10, Owner: core.SystemProgramID}}}
	elfs := make([][]byte, len(cases))
	ids := make([]core.Pubkey, len(cases))
	for i, c := range cases {
		var elf []byte
		var err error
		if c.version >= sbpf.V3 {
			elf = v3ELF(c.text)
		} else if c.text != nil {
			elf, _, err = sbpftest.Program{Flags: uint32(c.version)}.BuildAssembly(&sbpf.Assembly{Text: c.text, Calls: c.calls})
		} else {
			elf, err = sbpftest.ELF("entrypoint:\n"+c.asm, nil)
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var seed [32]byte
		seed[0], seed[1], seed[2] = 0x77, byte(i), byte(i>>8)
		ids[i] = core.KeypairFromSeed(seed).PublicKey()
		elfs[i] = elf
		sc.Programs = append(sc.Programs, realelf.Program{ID: ids[i], Loader: core.BPFLoaderProgramID, ELF: elf, SHA256: sha256.Sum256(elf)})
		ixs := []core.Instruction{{ProgramID: ids[i]}}
		if c.heap != 0 {
			data := binary.LittleEndian.AppendUint32([]byte{1}, c.heap)
			ixs = append([]core.Instruction{{ProgramID: core.ComputeBudgetProgramID, Data: data}}, ixs...)
		}
		sc.Steps = append(sc.Steps, realelf.Step{Name: c.name, Payer: payer, Instructions: ixs})
	}
	results := realelf.LiteSVM(t).Run(sc)[0]

	cfg := sbpf.DefaultConfig()
	cfg.MaxVersion = sbpf.V3 // LiteSVM, every feature on, runs v1, v2 and v3 programs too
	loader := sbpf.NewLoader(cfg)
	oracleSyscalls(t, loader)
	for i, c := range cases {
		res := results[i]
		id := ids[i].String()
		var budget, consumed uint64
		failed := ""
		var refLogs []string
		for _, l := range res.Logs {
			if !strings.HasPrefix(l, "Program "+id+" ") && !strings.HasPrefix(l, "Program "+core.ComputeBudgetProgramID.String()+" ") {
				refLogs = append(refLogs, l)
			}
			if rest, ok := strings.CutPrefix(l, "Program "+id+" consumed "); ok {
				if _, err := fmt.Sscanf(rest, "%d of %d compute units", &consumed, &budget); err != nil {
					t.Fatalf("%s: log %q: %v", c.name, l, err)
				}
			}
			if rest, ok := strings.CutPrefix(l, "Program "+id+" failed: "); ok {
				failed = rest
			}
		}
		if budget == 0 {
			t.Errorf("%s: no consumption log in %q (err %s)", c.name, res.Logs, res.Err)
			continue
		}

		exe, err := sbpf.LoadELF(elfs[i], loader)
		if err != nil {
			t.Fatalf("%s: load: %v", c.name, err)
		}
		if err := sbpf.Verify(exe, loader); err != nil {
			t.Fatalf("%s: verify: %v", c.name, err)
		}
		// The aligned serialization of an instruction with no accounts and no data: the account
		// count, the data length, then the program id.
		input := make([]byte, 48)
		copy(input[16:], ids[i][:])
		meter := &sbpf.Meter{Remaining: budget}
		var logs []string
		vm, err := sbpf.NewVM(exe, loader, sbpf.Params{HeapSize: int(c.heap), Input: []sbpf.Region{{VMAddr: sbpf.MMInputStart, Data: input, Writable: true}}, Meter: meter, Host: &logs,
			R2: sbpf.MMInputStart + 16}) // LiteSVM has SIMD-0321 on: r2 points at the instruction data
		if err != nil {
			t.Fatal(err)
		}
		r0, runErr := vm.Run()
		used := vm.Used()
		var gotErr string
		syscallErr := sbpf.KindOf(runErr) == sbpf.ErrSyscall
		switch {
		case syscallErr:
			// The reference logs a syscall's own error, unwrapped.
			gotErr = errors.Unwrap(runErr).Error()
		case runErr != nil:
			gotErr = runErr.Error()
		case r0 != 0:
			gotErr = "custom program error: 0x" + strconv.FormatUint(r0, 16)
		}
		if gotErr != failed {
			t.Errorf("%s: failed with %q, reference %q", c.name, gotErr, failed)
		}
		// The log line counts what the VM used; a VM fault then empties the meter, so the
		// transaction's units are the whole budget (deplete_cu_meter_on_vm_failure).
		if used != consumed {
			t.Errorf("%s: consumed %d, reference %d", c.name, used, consumed)
		}
		if strings.Join(logs, "\n") != strings.Join(refLogs, "\n") {
			t.Errorf("%s: logs %q, reference %q", c.name, logs, refLogs)
		}
		wantTx := used
		if runErr != nil && !syscallErr {
			wantTx = budget
		}
		// (With a compute-budget instruction the transaction's units include its own cost and the
		// heap's; that is the runtime's accounting, not the VM's.)
		if c.heap == 0 && res.ComputeUnits != wantTx {
			t.Errorf("%s: transaction units %d, want %d", c.name, res.ComputeUnits, wantTx)
		}
		var wantErr any = nil
		ix := 0
		if c.heap != 0 {
			ix = 1
		}
		if r0 != 0 && runErr == nil {
			wantErr = map[string]any{"InstructionError": []any{ix, map[string]any{"Custom": r0}}}
		} else if errors.Is(runErr, sbpf.ErrComputationalBudgetExceeded) {
			wantErr = map[string]any{"InstructionError": []any{ix, "ComputationalBudgetExceeded"}}
		} else if runErr != nil {
			wantErr = map[string]any{"InstructionError": []any{ix, "ProgramFailedToComplete"}}
		}
		want, _ := json.Marshal(wantErr)
		var got any
		_ = json.Unmarshal(res.Err, &got)
		gotJSON, _ := json.Marshal(got)
		if string(gotJSON) != string(want) {
			t.Errorf("%s: reference error %s, ours maps to %s", c.name, gotJSON, want)
		}
	}
}

// TestOracleVMRandom compares random verified programs of v0 to v3 (LiteSVM runs them all): every ALU operation of the version with random operands, forward jumps, loads and stores
// around the stack frame (gaps, straddles, frame moves, other regions), each ending by folding r0
// into the outcome.
func TestOracleVMRandom(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Node.js")
	}
	rng := rand.New(rand.NewPCG(12, 34))
	var cases []oracleCase
	for _, v := range []sbpf.Version{sbpf.V0, sbpf.V1, sbpf.V2, sbpf.V3} {
		// 80 programs a version cover its operations many times over; FuzzInterpreter runs longer under make fuzz.
		for made := 0; made < 80; {
			text, calls := randomProgram(rng, v)
			if sbpf.Verify(sbpf.NewExecutableFromText(text, v, nil), nil) != nil {
				continue
			}
			cases = append(cases, oracleCase{name: fmt.Sprintf("random %v %d", v, made), text: text, calls: calls, version: v})
			made++
		}
	}
	compareWithOracle(t, cases)
}

func randomProgram(rng *rand.Rand, v sbpf.Version) ([]byte, []sbpf.AsmCall) {
	var out []byte
	var calls []sbpf.AsmCall
	const funcs = 3
	var callSites []struct {
		pc uint64
		fn int
	}
	var callxSites []struct {
		pc   uint64 // the first slot of the two that load the target
		fn   int
		reg  uint8
		plus uint64 // bytes past the function start: callx truncates
	}
	emit := func(op byte, dst, src uint8, off int16, imm int32) {
		var b [8]byte
		b[0], b[1] = op, src<<4|dst
		binary.LittleEndian.PutUint16(b[2:], uint16(off))
		binary.LittleEndian.PutUint32(b[4:], uint32(imm))
		out = append(out, b[:]...)
	}
	interesting := []uint64{0, 1, 2, 31, 32, 63, 64, 0x7fffffff, 0x80000000, 0xffffffff, 1 << 32, 1<<63 - 1, 1 << 63, ^uint64(0)}
	value := func() uint64 {
		if rng.IntN(2) == 0 {
			return interesting[rng.IntN(len(interesting))] + uint64(rng.IntN(3)) - 1
		}
		return rng.Uint64()
	}
	v2 := v == sbpf.V2
	for r := uint8(0); r < 10; r++ {
		if r == 1 && rng.IntN(2) == 0 {
			continue // sometimes keep the input pointer
		}
		x := value()
		if v2 {
			emit(sbpf.OpMOV32I, r, 0, 0, int32(uint32(x)))
			emit(sbpf.OpHOR64I, r, 0, 0, int32(uint32(x>>32)))
		} else {
			emit(sbpf.OpLDDW, r, 0, 0, int32(uint32(x)))
			emit(0, 0, 0, 0, int32(uint32(x>>32)))
		}
	}
	// ALU immediate forms (the register form is +8), by version.
	alu := []byte{0x04, 0x14, 0x44, 0x54, 0x64, 0x74, 0xa4, 0xb4, 0xc4, 0x07, 0x17, 0x47, 0x57, 0x67, 0x77, 0xa7, 0xb7, 0xc7}
	if v2 {
		alu = append(alu, 0xf7, // hor64 (no register form)
			0x36, 0x46, 0x56, 0x66, 0x76, 0x86, 0x96, 0xb6, 0xc6, 0xd6, 0xe6, 0xf6) // PQR
	} else {
		alu = append(alu, 0x24, 0x34, 0x84, 0x94, 0x27, 0x37, 0x87, 0x97)
	}
	noRegForm := map[byte]bool{0x84: true, 0x87: true, 0xf7: true}
	divImm := map[byte]bool{0x34: true, 0x94: true, 0x37: true, 0x97: true, 0x46: true, 0x56: true, 0x66: true, 0x76: true,
		0xc6: true, 0xd6: true, 0xe6: true, 0xf6: true}
	jumps := []byte{0x05, 0x15, 0x25, 0x35, 0x45, 0x55, 0x65, 0x75, 0xa5, 0xb5, 0xc5, 0xd5}
	v3 := v >= sbpf.V3
	if v3 {
		jumps = append(jumps, 0x16, 0x26, 0x36, 0x46, 0x56, 0x66, 0x76, 0xa6, 0xb6, 0xc6, 0xd6) // JMP32
	}
	genBody := func(n int) {
		for i := 0; i < n; i++ {
			dst, src := uint8(rng.IntN(10)), uint8(rng.IntN(11))
			imm := int32(value())
			switch k := rng.IntN(10); {
			case k < 6:
				op := alu[rng.IntN(len(alu))]
				if rng.IntN(2) == 0 && !noRegForm[op] {
					op |= 0x08
				}
				switch {
				case op&0x0f == 0x04 || op&0x0f == 0x07:
					if f := op & 0xf0; (f == 0x60 || f == 0x70 || f == 0xc0) && op&0x08 == 0 {
						w := 32
						if op&0x07 == 0x07 {
							w = 64
						}
						imm = int32(rng.IntN(w)) // shift immediates must fit the width
					}
				}
				if divImm[op] && imm == 0 {
					imm = 3
				}
				if v2 && rng.IntN(4) == 0 {
					imm = int32(rng.IntN(5)) - 2 // small divisors reach MIN/-1 and zero registers more often
					if divImm[op] && imm == 0 {
						imm = -1
					}
				}
				emit(op, dst, src, 0, imm)
			case k == 6 && rng.IntN(2) == 0:
				// A call to one of the functions, or a callx to (a few bytes into) one.
				fn := rng.IntN(funcs)
				if rng.IntN(2) == 0 {
					callSites = append(callSites, struct {
						pc uint64
						fn int
					}{uint64(len(out) / 8), fn})
					if v3 {
						emit(sbpf.OpCALL, 0, 1, 0, 0) // src=1: relative, patched below
					} else {
						emit(sbpf.OpCALL, 0, 0, 0, -1)
					}
					break
				}
				reg := uint8(rng.IntN(10))
				callxSites = append(callxSites, struct {
					pc   uint64
					fn   int
					reg  uint8
					plus uint64
				}{uint64(len(out) / 8), fn, reg, uint64(rng.IntN(8))})
				if v2 {
					emit(sbpf.OpMOV32I, reg, 0, 0, 0)
					emit(sbpf.OpHOR64I, reg, 0, 0, 0)
					emit(sbpf.OpCALLX, 0, reg, 0, 0)
				} else if v3 {
					emit(sbpf.OpLDDW, reg, 0, 0, 0)
					emit(0, 0, 0, 0, 0)
					emit(sbpf.OpCALLX, reg, 0, 0, 0)
				} else {
					emit(sbpf.OpLDDW, reg, 0, 0, 0)
					emit(0, 0, 0, 0, 0)
					emit(sbpf.OpCALLX, 0, 0, 0, int32(reg))
				}
			case k < 7:
				widths := []int32{16, 32, 64}
				op := byte(sbpf.OpBE)
				if !v2 && rng.IntN(2) == 0 {
					op = sbpf.OpLE
				}
				emit(op, dst, 0, 0, widths[rng.IntN(3)])
			case k < 8:
				// A forward jump over at most the rest of the body (the fold follows).
				op := jumps[rng.IntN(len(jumps))]
				if rng.IntN(2) == 0 && op != 0x05 {
					op |= 0x08
				}
				emit(op, dst, src, int16(rng.IntN(n-i)), imm)
			case k < 9 && v == sbpf.V1 && rng.IntN(3) == 0:
				// v1 moves the frame itself.
				emit(sbpf.OpADD64I, 10, 0, 0, int32(64*(rng.IntN(9)-4)))
			default:
				// Memory around the stack frame: mostly inside, sometimes across a gap or a frame.
				off := int16(-8 * (1 + rng.IntN(16)))
				if rng.IntN(8) == 0 {
					off = int16(rng.IntN(64) - 16)
				}
				base := uint8(10)
				if rng.IntN(10) == 0 {
					base = uint8(rng.IntN(10))
				}
				w := rng.IntN(4) // b, h, w, dw
				ldx, st, stx := []byte{0x71, 0x69, 0x61, 0x79}, []byte{0x72, 0x6a, 0x62, 0x7a}, []byte{0x73, 0x6b, 0x63, 0x7b}
				if v2 {
					ldx, st, stx = []byte{0x2c, 0x3c, 0x8c, 0x9c}, []byte{0x27, 0x37, 0x87, 0x97}, []byte{0x2f, 0x3f, 0x8f, 0x9f}
				}
				switch rng.IntN(3) {
				case 0:
					emit(ldx[w], dst, base, off, 0)
				case 1:
					emit(st[w], base, 0, off, imm)
				default:
					emit(stx[w], base, src, off, 0)
				}
			}
		}
	}
	genBody(10 + rng.IntN(30))
	// Fold r0 into 31 bits and exit.
	emit(sbpf.OpMOV64R, 1, 0, 0, 0)
	emit(sbpf.OpRSH64I, 1, 0, 0, 32)
	emit(sbpf.OpXOR64R, 0, 1, 0, 0)
	emit(sbpf.OpAND64I, 0, 0, 0, 0x7fffffff)
	emit(sbpf.OpEXIT, 0, 0, 0, 0)
	// The functions: short bodies that may call each other (recursion ends at the depth limit
	// or the budget).
	var starts [funcs]uint64
	for f := range starts {
		starts[f] = uint64(len(out) / 8)
		genBody(2 + rng.IntN(8))
		emit(sbpf.OpEXIT, 0, 0, 0, 0)
	}
	for _, c := range callSites {
		if v3 {
			binary.LittleEndian.PutUint32(out[c.pc*8+4:], uint32(int32(int64(starts[c.fn])-int64(c.pc)-1)))
			continue
		}
		calls = append(calls, sbpf.AsmCall{PC: c.pc, Target: starts[c.fn]})
		binary.LittleEndian.PutUint32(out[c.pc*8+4:], uint32(starts[c.fn]))
	}
	textVAddr := sbpf.MMBytecodeStart + 0x120 // where the v0-v2 ELF writer puts the text
	if v3 {
		textVAddr = sbpf.MMBytecodeStart
	}
	for _, c := range callxSites {
		addr := textVAddr + starts[c.fn]*8 + c.plus
		binary.LittleEndian.PutUint32(out[c.pc*8+4:], uint32(addr))
		binary.LittleEndian.PutUint32(out[c.pc*8+12:], uint32(addr>>32))
	}
	return out, calls
}

// v3ELF lays out a v3 program for the strict parser: the ELF header, two program headers (rodata
// at VM address 0, then the bytecode at 0x1_0000_0000), eight bytes of rodata, the text; entry at
// instruction 0.
func v3ELF(text []byte) []byte {
	rodata := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	b := make([]byte, 64+2*56)
	copy(b, []byte{0x7f, 'E', 'L', 'F', 2, 1, 1})
	le := binary.LittleEndian
	le.PutUint16(b[16:], 3)   // ET_DYN
	le.PutUint16(b[18:], 247) // EM_BPF
	le.PutUint32(b[20:], 1)
	le.PutUint64(b[24:], sbpf.MMBytecodeStart)
	le.PutUint64(b[32:], 64)
	le.PutUint32(b[48:], 3) // e_flags: v3
	le.PutUint16(b[52:], 64)
	le.PutUint16(b[54:], 56)
	le.PutUint16(b[56:], 2)
	ph := func(i int, flags uint32, offset, vaddr, size uint64) {
		p := b[64+i*56:]
		le.PutUint32(p[0:], 1) // PT_LOAD
		le.PutUint32(p[4:], flags)
		le.PutUint64(p[8:], offset)
		le.PutUint64(p[16:], vaddr)
		le.PutUint64(p[24:], vaddr)
		le.PutUint64(p[32:], size)
		le.PutUint64(p[40:], size)
		le.PutUint64(p[48:], 8)
	}
	ph(0, 4, 176, 0, uint64(len(rodata)))                                      // PF_R
	ph(1, 1, 176+uint64(len(rodata)), sbpf.MMBytecodeStart, uint64(len(text))) // PF_X
	return append(append(b, rodata...), text...)
}
