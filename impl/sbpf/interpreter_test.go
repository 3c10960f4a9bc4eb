package sbpf

import (
	"errors"
	"strings"
	"sync"
	"testing"
)

// Short names for the table below.
var (
	vi    = vmIns
	vld   = vmLDDW
	vexit = vmExit
)

func TestInterpreterV0Arithmetic(t *testing.T) {
	t.Parallel()
	const all = ^uint64(0)
	cases := []struct {
		name  string
		prog  [][]byte
		want  uint64
		units uint64
	}{
		{"mov64 imm sign-extends", [][]byte{vi(OpMOV64I, 0, 0, 0, -2)}, all - 1, 2},
		{"mov32 imm zero-extends", [][]byte{vi(OpMOV32I, 0, 0, 0, -1)}, 0xffffffff, 2},
		{"mov32 reg zero-extends", [][]byte{vld(1, all), vi(OpMOV32R, 0, 1, 0, 0)}, 0xffffffff, 3},
		{"lddw is one unit", [][]byte{vld(0, 0x1122334455667788)}, 0x1122334455667788, 2},
		{"add32 sign-extends the result", [][]byte{vi(OpMOV64I, 0, 0, 0, 0x7fffffff), vi(OpADD32I, 0, 0, 0, 1)}, 0xffffffff80000000, 3},
		{"add32 reg uses low halves", [][]byte{vld(0, 0xaaaaaaaa00000001), vld(1, 0x5555555500000002), vi(OpADD32R, 0, 1, 0, 0)}, 3, 4},
		{"sub32 imm sign-extends", [][]byte{vi(OpMOV32I, 0, 0, 0, 0), vi(OpSUB32I, 0, 0, 0, 1)}, all, 3},
		{"sub32 reg sign-extends", [][]byte{vi(OpMOV64I, 0, 0, 0, 1), vi(OpMOV64I, 1, 0, 0, 2), vi(OpSUB32R, 0, 1, 0, 0)}, all, 4},
		{"mul32 sign-extends", [][]byte{vi(OpMOV64I, 0, 0, 0, 0x10000), vi(OpMUL32I, 0, 0, 0, 0x8000)}, 0xffffffff80000000, 3},
		{"mul32 reg", [][]byte{vi(OpMOV64I, 0, 0, 0, -3), vi(OpMOV64I, 1, 0, 0, 5), vi(OpMUL32R, 0, 1, 0, 0)}, all - 14, 4},
		{"div32 unsigned low halves", [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpDIV32I, 0, 0, 0, 2)}, 0x7fffffff, 3},
		{"div32 imm -1 divides by 0xffffffff", [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpDIV32I, 0, 0, 0, -1)}, 1, 3},
		{"mod32", [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpMOD32I, 0, 0, 0, 10)}, 0xffffffff % 10, 3},
		{"div64 imm is sign-extended", [][]byte{vi(OpMOV64I, 0, 0, 0, 10), vi(OpDIV64I, 0, 0, 0, -1)}, 0, 3},
		{"div64 imm -1 of all ones", [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpDIV64I, 0, 0, 0, -1)}, 1, 3},
		{"mod64 imm is sign-extended", [][]byte{vi(OpMOV64I, 0, 0, 0, 5), vi(OpMOD64I, 0, 0, 0, -1)}, 5, 3},
		{"div64 reg", [][]byte{vi(OpMOV64I, 0, 0, 0, 100), vi(OpMOV64I, 1, 0, 0, 7), vi(OpDIV64R, 0, 1, 0, 0)}, 14, 4},
		{"mod64 reg", [][]byte{vi(OpMOV64I, 0, 0, 0, 100), vi(OpMOV64I, 1, 0, 0, 7), vi(OpMOD64R, 0, 1, 0, 0)}, 2, 4},
		{"div32 reg ignores the divisor's high half", [][]byte{vi(OpMOV64I, 0, 0, 0, 100), vld(1, 0x100000005), vi(OpDIV32R, 0, 1, 0, 0)}, 20, 4},
		{"and64 imm sign-extends", [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpAND64I, 0, 0, 0, -2)}, all - 1, 3},
		{"and32 zero-extends", [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpAND32I, 0, 0, 0, -2)}, 0xfffffffe, 3},
		{"or32 zero-extends", [][]byte{vld(0, 0xffffffff00000000), vi(OpOR32I, 0, 0, 0, 1)}, 1, 3},
		{"or64 imm sign-extends", [][]byte{vi(OpMOV64I, 0, 0, 0, 0), vi(OpOR64I, 0, 0, 0, -16)}, all - 15, 3},
		{"xor32", [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpXOR32I, 0, 0, 0, 0xff)}, 0xffffff00, 3},
		{"xor64 reg", [][]byte{vi(OpMOV64I, 0, 0, 0, 0xf0), vi(OpMOV64I, 1, 0, 0, 0xff), vi(OpXOR64R, 0, 1, 0, 0)}, 0x0f, 4},
		{"lsh64 reg masks 63", [][]byte{vi(OpMOV64I, 0, 0, 0, 1), vi(OpMOV64I, 1, 0, 0, 65), vi(OpLSH64R, 0, 1, 0, 0)}, 2, 4},
		{"lsh32 reg masks 31", [][]byte{vi(OpMOV64I, 0, 0, 0, 1), vi(OpMOV64I, 1, 0, 0, 33), vi(OpLSH32R, 0, 1, 0, 0)}, 2, 4},
		{"lsh32 truncates", [][]byte{vi(OpMOV64I, 0, 0, 0, 3), vi(OpLSH32I, 0, 0, 0, 31)}, 0x80000000, 3},
		{"rsh32 zero-extends", [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpRSH32I, 0, 0, 0, 0)}, 0xffffffff, 3},
		{"rsh32 reg masks 31", [][]byte{vi(OpMOV64I, 0, 0, 0, 8), vi(OpMOV64I, 1, 0, 0, 35), vi(OpRSH32R, 0, 1, 0, 0)}, 1, 4},
		{"rsh64", [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpRSH64I, 0, 0, 0, 60)}, 0xf, 3},
		{"rsh64 reg masks 63", [][]byte{vi(OpMOV64I, 0, 0, 0, 16), vi(OpMOV64I, 1, 0, 0, 66), vi(OpRSH64R, 0, 1, 0, 0)}, 4, 4},
		{"arsh32 zero-extends", [][]byte{vi(OpMOV32I, 0, 0, 0, -0x80000000), vi(OpARSH32I, 0, 0, 0, 4)}, 0xf8000000, 3},
		{"arsh32 reg", [][]byte{vi(OpMOV32I, 0, 0, 0, -16), vi(OpMOV64I, 1, 0, 0, 34), vi(OpARSH32R, 0, 1, 0, 0)}, 0xfffffffc, 4},
		{"arsh64", [][]byte{vi(OpMOV64I, 0, 0, 0, -256), vi(OpARSH64I, 0, 0, 0, 4)}, all - 15, 3},
		{"arsh64 reg masks 63", [][]byte{vi(OpMOV64I, 0, 0, 0, -256), vi(OpMOV64I, 1, 0, 0, 68), vi(OpARSH64R, 0, 1, 0, 0)}, all - 15, 4},
		{"neg32 zero-extends", [][]byte{vi(OpMOV64I, 0, 0, 0, 1), vi(OpNEG32, 0, 0, 0, 0)}, 0xffffffff, 3},
		{"neg64", [][]byte{vi(OpMOV64I, 0, 0, 0, 1), vi(OpNEG64, 0, 0, 0, 0)}, all, 3},
		{"add64 imm sign-extends", [][]byte{vi(OpMOV64I, 0, 0, 0, 1), vi(OpADD64I, 0, 0, 0, -2)}, all, 3},
		{"sub64 imm", [][]byte{vi(OpMOV64I, 0, 0, 0, 1), vi(OpSUB64I, 0, 0, 0, 2)}, all, 3},
		{"mul64 wraps", [][]byte{vld(0, 1<<63), vi(OpMUL64I, 0, 0, 0, 2)}, 0, 3},
		{"mul64 reg", [][]byte{vi(OpMOV64I, 0, 0, 0, -2), vi(OpMOV64I, 1, 0, 0, 3), vi(OpMUL64R, 0, 1, 0, 0)}, all - 5, 4},
		{"le16 truncates", [][]byte{vld(0, 0x1122334455667788), vi(OpLE, 0, 0, 0, 16)}, 0x7788, 3},
		{"le32 truncates", [][]byte{vld(0, 0x1122334455667788), vi(OpLE, 0, 0, 0, 32)}, 0x55667788, 3},
		{"le64 keeps", [][]byte{vld(0, 0x1122334455667788), vi(OpLE, 0, 0, 0, 64)}, 0x1122334455667788, 3},
		{"be16 swaps and truncates", [][]byte{vld(0, 0x1122334455667788), vi(OpBE, 0, 0, 0, 16)}, 0x8877, 3},
		{"be32", [][]byte{vld(0, 0x1122334455667788), vi(OpBE, 0, 0, 0, 32)}, 0x88776655, 3},
		{"be64", [][]byte{vld(0, 0x1122334455667788), vi(OpBE, 0, 0, 0, 64)}, 0x8877665544332211, 3},
		{"jgt is unsigned", [][]byte{vi(OpMOV64I, 1, 0, 0, -1), vi(OpMOV64I, 0, 0, 0, 1), vi(OpJGTI, 1, 0, 1, 5), vi(OpMOV64I, 0, 0, 0, 2)}, 1, 4},
		{"jsgt is signed", [][]byte{vi(OpMOV64I, 1, 0, 0, -1), vi(OpMOV64I, 0, 0, 0, 1), vi(OpJSGTI, 1, 0, 1, 5), vi(OpMOV64I, 0, 0, 0, 2)}, 2, 5},
		{"jeq imm is sign-extended", [][]byte{vi(OpMOV64I, 1, 0, 0, -1), vi(OpMOV64I, 0, 0, 0, 1), vi(OpJEQI, 1, 0, 1, -1), vi(OpMOV64I, 0, 0, 0, 2)}, 1, 4},
		{"jset", [][]byte{vi(OpMOV64I, 1, 0, 0, 6), vi(OpMOV64I, 0, 0, 0, 1), vi(OpJSETI, 1, 0, 1, 1), vi(OpMOV64I, 0, 0, 0, 2)}, 2, 5},
		{"jlt/jle/jge", [][]byte{vi(OpMOV64I, 1, 0, 0, 3), vi(OpMOV64I, 0, 0, 0, 0), vi(OpJLTI, 1, 0, 1, 4), vi(OpJA, 0, 0, 1, 0), vi(OpADD64I, 0, 0, 0, 1), vi(OpJLEI, 1, 0, 1, 3), vi(OpJA, 0, 0, 1, 0), vi(OpADD64I, 0, 0, 0, 2), vi(OpJGEI, 1, 0, 1, 4), vi(OpJA, 0, 0, 1, 0), vi(OpADD64I, 0, 0, 0, 4)}, 3, 9},
		{"jslt/jsle/jsge reg", [][]byte{vi(OpMOV64I, 1, 0, 0, -3), vi(OpMOV64I, 2, 0, 0, 1), vi(OpMOV64I, 0, 0, 0, 0), vi(OpJSLTR, 1, 2, 1, 0), vi(OpJA, 0, 0, 1, 0), vi(OpADD64I, 0, 0, 0, 1), vi(OpJSLER, 1, 2, 1, 0), vi(OpJA, 0, 0, 1, 0), vi(OpADD64I, 0, 0, 0, 2), vi(OpJSGER, 1, 2, 1, 0), vi(OpJA, 0, 0, 1, 0), vi(OpADD64I, 0, 0, 0, 4)}, 3, 10},
		{"jne reg", [][]byte{vi(OpMOV64I, 1, 0, 0, 1), vi(OpMOV64I, 0, 0, 0, 7), vi(OpJNER, 1, 0, 1, 0), vi(OpMOV64I, 0, 0, 0, 2)}, 7, 4},
		{"ja backwards loop", [][]byte{vi(OpMOV64I, 0, 0, 0, 0), vi(OpADD64I, 0, 0, 0, 1), vi(OpJNEI, 0, 0, -2, 10)}, 10, 22},
	}
	for _, c := range cases {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := vmRun(t, vmOpts{}, append(c.prog, vexit())...)
			if res.err != nil {
				t.Fatalf("err = %v", res.err)
			}
			if res.r0 != c.want {
				t.Errorf("r0 = %#x, want %#x", res.r0, c.want)
			}
			if res.used != c.units {
				t.Errorf("units = %d, want %d", res.used, c.units)
			}
		})
	}
}

func TestInterpreterFaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		prog     [][]byte
		budget   uint64
		noVerify bool
		kind     ErrorKind
		pc       uint64
		text     string
		units    uint64
	}{
		{"div32 by zero register", [][]byte{vi(OpMOV64I, 0, 0, 0, 1), vld(1, 1<<32), vi(OpDIV32R, 0, 1, 0, 0), vexit()}, 0, false,
			ErrDivideByZero, 3, "divide by zero at BPF instruction", 3},
		{"mod64 by zero register", [][]byte{vi(OpMOD64R, 0, 2, 0, 0), vexit()}, 0, false, ErrDivideByZero, 0, "divide by zero at BPF instruction", 1},
		{"div64 by zero register", [][]byte{vi(OpDIV64R, 0, 2, 0, 0), vexit()}, 0, false, ErrDivideByZero, 0, "", 1},
		{"mod32 by zero register (r1 = 0x4_0000_0000 has a zero low half)", [][]byte{vi(OpMOD32R, 0, 1, 0, 0), vexit()}, 0, false, ErrDivideByZero, 0, "", 1},
		{"running off the end", [][]byte{vi(OpMOV64I, 0, 0, 0, 1)}, 0, false, ErrExecutionOverrun, 1,
			"attempted to execute past the end of the text segment at BPF instruction", 2},
		{"budget exhausted in a loop", [][]byte{vi(OpJA, 0, 0, -1, 0), vexit()}, 100, false, ErrExceededMaxInstructions, 0,
			"exceeded CUs meter at BPF instruction", 100},
		{"budget one short", [][]byte{vi(OpMOV64I, 0, 0, 0, 1), vexit()}, 1, false, ErrExceededMaxInstructions, 1, "", 1},
		{"unresolved call", [][]byte{vi(OpCALL, 0, 0, 0, 0x12345678), vexit()}, 0, false, ErrUnsupportedInstruction, 0,
			"unsupported BPF instruction", 1},
		{"unknown opcode at runtime", [][]byte{vi(0xff, 0, 0, 0, 0), vexit()}, 0, true, ErrUnsupportedInstruction, 0, "", 1},
		{"le with a bad width at runtime", [][]byte{vi(OpLE, 0, 0, 0, 8), vexit()}, 0, true, ErrInvalidInstruction, 0,
			"invalid BPF instruction", 1},
		{"be with a bad width at runtime", [][]byte{vi(OpBE, 0, 0, 0, 0), vexit()}, 0, true, ErrInvalidInstruction, 0, "", 1},
		{"callx outside the text", [][]byte{vld(1, MMBytecodeStart+8*100), vi(OpCALLX, 0, 0, 0, 1), vexit()}, 0, false,
			ErrCallOutsideTextSegment, 2, "callx attempted to call outside of the text segment", 2},
		{"callx below the text wraps", [][]byte{vi(OpMOV64I, 1, 0, 0, 0), vi(OpCALLX, 0, 0, 0, 1), vexit()}, 0, false,
			ErrCallOutsideTextSegment, 1, "", 2},
		{"store into the program region", [][]byte{vld(1, MMBytecodeStart), vi(OpSTXDW, 1, 0, 0, 0), vexit()}, 0, false,
			ErrAccessViolation, 2, "Access violation writing 8 bytes at address 0x100000000 (in program region)", 2},
		{"load from address 0", [][]byte{vi(OpMOV64I, 1, 0, 0, 0), vi(OpLDXDW, 0, 1, 0, 0), vexit()}, 0, false,
			ErrAccessViolation, 1, "Access violation reading 8 bytes at address 0x0 (in unallocated region)", 2},
		{"load past the end of the heap", [][]byte{vld(1, MMHeapStart+DefaultHeapSize), vi(OpLDXB, 0, 1, 0, 0), vexit()}, 0, false,
			ErrAccessViolation, 2, "Access violation reading 1 bytes at address 0x300008000 (in unallocated region)", 2},
		{"load straddling the end of the heap", [][]byte{vld(1, MMHeapStart+DefaultHeapSize-4), vi(OpLDXDW, 0, 1, 0, 0), vexit()}, 0, false,
			ErrAccessViolation, 2, "Access violation reading 8 bytes at address 0x300007ffc (in heap region)", 2},
		{"store into a stack gap", [][]byte{vi(OpSTDW, 10, 0, 0, 1), vexit()}, 0, false,
			ErrStackAccessViolation, 0, "Access violation in stack frame 1 at address 0x200001000 of size 8", 1},
		{"load just below the stack is frame -1", [][]byte{vld(1, MMStackStart-4096), vi(OpLDXW, 0, 1, 0, 0), vexit()}, 0, false,
			ErrStackAccessViolation, 2, "Access violation in stack frame -1 at address 0x1fffff000 of size 4", 2},
		{"load 8 bytes below the stack is frame 0 (truncating division)", [][]byte{vld(1, MMStackStart-8), vi(OpLDXDW, 0, 1, 0, 0), vexit()}, 0, false,
			ErrStackAccessViolation, 2, "Access violation in stack frame 0 at address 0x1fffffff8 of size 8", 2},
		{"the last gap is frame 63", [][]byte{vld(1, MMStackStart+63*4096), vi(OpLDXB, 0, 1, 0, 0), vexit()}, 0, false,
			ErrStackAccessViolation, 2, "Access violation in stack frame 63 at address 0x20003f000 of size 1", 2},
		{"load beyond frame 64 is a plain stack violation", [][]byte{vld(1, MMStackStart+65*4096), vi(OpLDXB, 0, 1, 0, 0), vexit()}, 0, false,
			ErrAccessViolation, 2, "Access violation reading 1 bytes at address 0x200041000 (in stack region)", 2},
		{"load above all regions", [][]byte{vld(1, 5*RegionSize), vi(OpLDXB, 0, 1, 0, 0), vexit()}, 0, false,
			ErrAccessViolation, 2, "Access violation reading 1 bytes at address 0x500000000 (in unallocated region)", 2},
		{"empty input region", [][]byte{vi(OpLDXB, 0, 1, 0, 0), vexit()}, 0, false,
			ErrAccessViolation, 0, "Access violation reading 1 bytes at address 0x400000000 (in unallocated region)", 1},
	}
	for _, c := range cases {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := vmRun(t, vmOpts{budget: c.budget, noVerify: c.noVerify}, c.prog...)
			e := vmWantKind(t, res.err, c.kind, c.pc)
			if c.text != "" && e.Error() != c.text {
				t.Errorf("text = %q, want %q", e.Error(), c.text)
			}
			if res.used != c.units {
				t.Errorf("units = %d, want %d", res.used, c.units)
			}
			if c.kind == ErrExceededMaxInstructions && res.vm.Remaining() != 0 {
				t.Errorf("meter left %d, want 0", res.vm.Remaining())
			}
		})
	}
}

func TestStackFramesV0(t *testing.T) {
	t.Parallel()
	fn := HashPC(4)
	// main: r6 = 7; save r10; call fn; r0 = r6 + (r10 after == saved r10); exit
	// fn (pc 4): r6 = 100; r0 = r10; exit
	prog := [][]byte{
		vi(OpMOV64I, 6, 0, 0, 7),
		vi(OpMOV64R, 7, 10, 0, 0),
		vi(OpCALL, 0, 0, 0, int32(fn)),
		vi(OpJA, 0, 0, 3, 0),
		vi(OpMOV64I, 6, 0, 0, 100), // fn
		vi(OpMOV64R, 0, 10, 0, 0),
		vexit(),
		// back in main, r0 = callee's r10
		vi(OpSUB64R, 0, 7, 0, 0), // callee r10 - caller r10
		vi(OpADD64R, 0, 6, 0, 0), // + r6 restored to 7
		vi(OpSUB64R, 7, 10, 0, 0),
		vi(OpADD64R, 0, 7, 0, 0), // + (saved r10 - r10 now) == 0
		vexit(),
	}
	res := vmRun(t, vmOpts{functions: map[uint32]uint64{fn: 4}}, prog...)
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.r0 != 8192+7 {
		t.Errorf("r0 = %d, want %d (frame bump 8192 in v0, r6 restored)", res.r0, 8192+7)
	}
	if res.used != 12 {
		t.Errorf("units = %d, want 12", res.used)
	}
}

func TestStackStraddleQuirk(t *testing.T) {
	t.Parallel()
	// A store that starts 4 bytes below the end of frame 0 writes its last 4 bytes into the first
	// bytes of host frame 1, which the VM sees at 0x2_0000_2000.
	res := vmRun(t, vmOpts{},
		vld(1, 0x1122334455667788),
		vi(OpSTXDW, 10, 1, -4, 0),
		vld(2, MMStackStart+2*4096),
		vi(OpLDXW, 0, 2, 0, 0),
		vexit())
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.r0 != 0x11223344 {
		t.Errorf("r0 = %#x, want 0x11223344", res.r0)
	}
}

func TestCallDepth(t *testing.T) {
	t.Parallel()
	fn := HashPC(0)
	// A function calling itself forever hits the limit on the 64th call.
	res := vmRun(t, vmOpts{functions: map[uint32]uint64{fn: 0}}, vi(OpCALL, 0, 0, 0, int32(fn)), vexit())
	e := vmWantKind(t, res.err, ErrCallDepthExceeded, 0)
	if e.Error() != "exceeded max BPF to BPF call depth" {
		t.Errorf("text = %q", e.Error())
	}
	if res.used != 64 {
		t.Errorf("units = %d, want 64", res.used)
	}
	if res.vm.CallDepth() != 64 {
		t.Errorf("depth = %d, want 64", res.vm.CallDepth())
	}

	// 63 nested calls are fine, the 64th is not: r1 counts down, each level calls the next until r1 == 0.
	fn2 := HashPC(1)
	prog := [][]byte{
		vi(OpJA, 0, 0, 5, 0),
		vi(OpJEQI, 1, 0, 3, 0), // fn2: if r1 == 0 return
		vi(OpSUB64I, 1, 0, 0, 1),
		vi(OpADD64I, 0, 0, 0, 1),
		vi(OpCALL, 0, 0, 0, int32(fn2)),
		vexit(),
		vi(OpMOV64I, 1, 0, 0, 62), // main: 1 + 62 nested calls
		vi(OpCALL, 0, 0, 0, int32(fn2)),
		vexit(),
	}
	res = vmRun(t, vmOpts{functions: map[uint32]uint64{fn2: 1}}, prog...)
	if res.err != nil || res.r0 != 62 {
		t.Fatalf("63 levels: r0 = %d, err = %v", res.r0, res.err)
	}
	prog[6] = vi(OpMOV64I, 1, 0, 0, 63)
	res = vmRun(t, vmOpts{functions: map[uint32]uint64{fn2: 1}}, prog...)
	vmWantKind(t, res.err, ErrCallDepthExceeded, 4)
}

func TestCallx(t *testing.T) {
	t.Parallel()
	// callx to a target inside slot 4 (address +3) runs slot 4: truncating division.
	prog := [][]byte{
		vld(3, MMBytecodeStart+4*8+3),
		vi(OpCALLX, 0, 0, 0, 3),
		vexit(),
		vi(OpMOV64I, 0, 0, 0, 42),
		vexit(),
	}
	res := vmRun(t, vmOpts{}, prog...)
	if res.err != nil || res.r0 != 42 {
		t.Fatalf("r0 = %d, err = %v", res.r0, res.err)
	}
	// callx pushes the frame before checking the target.
	fn := HashPC(0)
	res = vmRun(t, vmOpts{functions: map[uint32]uint64{fn: 0}},
		vi(OpMOV64I, 1, 0, 0, 0),
		vi(OpCALLX, 0, 0, 0, 1), vexit())
	vmWantKind(t, res.err, ErrCallOutsideTextSegment, 1)
}

func TestFunctionCallOutsideText(t *testing.T) {
	t.Parallel()
	fn := HashPC(50)
	res := vmRun(t, vmOpts{functions: map[uint32]uint64{fn: 50}}, vi(OpCALL, 0, 0, 0, int32(fn)), vexit())
	vmWantKind(t, res.err, ErrCallOutsideTextSegment, 0)
}

func TestSyscalls(t *testing.T) {
	t.Parallel()
	loader := NewLoader(DefaultConfig())
	var got [5]uint64
	var remainingInside uint64
	if err := loader.Register("sol_test_", func(vm *VM, a1, a2, a3, a4, a5 uint64) (uint64, error) {
		got = [5]uint64{a1, a2, a3, a4, a5}
		remainingInside = vm.Remaining()
		return 77, vm.Consume(100)
	}); err != nil {
		t.Fatal(err)
	}
	errBoom := errors.New("boom")
	if err := loader.Register("sol_fail_", func(vm *VM, a1, a2, a3, a4, a5 uint64) (uint64, error) {
		return 0, errBoom
	}); err != nil {
		t.Fatal(err)
	}
	key := int32(HashSymbolName([]byte("sol_test_")))
	prog := [][]byte{
		vi(OpMOV64I, 1, 0, 0, 1), vi(OpMOV64I, 2, 0, 0, 2), vi(OpMOV64I, 3, 0, 0, 3),
		vi(OpMOV64I, 4, 0, 0, 4), vi(OpMOV64I, 5, 0, 0, 5),
		vi(OpCALL, 0, 0, 0, key),
		// r0 = 77 + r1..r5 (not clobbered)
		vi(OpADD64R, 0, 1, 0, 0), vi(OpADD64R, 0, 2, 0, 0), vi(OpADD64R, 0, 3, 0, 0),
		vi(OpADD64R, 0, 4, 0, 0), vi(OpADD64R, 0, 5, 0, 0),
		vexit(),
	}
	res := vmRun(t, vmOpts{loader: loader, budget: 1000}, prog...)
	if res.err != nil {
		t.Fatal(res.err)
	}
	if res.r0 != 77+15 {
		t.Errorf("r0 = %d, want 92", res.r0)
	}
	if got != [5]uint64{1, 2, 3, 4, 5} {
		t.Errorf("args = %v", got)
	}
	if remainingInside != 1000-6 {
		t.Errorf("remaining inside the syscall = %d, want %d (instructions up to and including the call settled)", remainingInside, 1000-6)
	}
	if res.used != 12+100 {
		t.Errorf("units = %d, want 112", res.used)
	}

	// A syscall whose cost exceeds the meter fails with the budget error and empties the meter.
	res = vmRun(t, vmOpts{loader: loader, budget: 50}, prog...)
	e := vmWantKind(t, res.err, ErrSyscall, 5)
	if !errors.Is(e, ErrComputationalBudgetExceeded) {
		t.Errorf("err = %v, want the budget error inside", e)
	}
	if e.Error() != "Syscall error: Computational budget exceeded" {
		t.Errorf("text = %q", e.Error())
	}
	if res.vm.Remaining() != 0 || res.used != 50 {
		t.Errorf("remaining %d used %d, want 0 and 50", res.vm.Remaining(), res.used)
	}

	// A failing syscall aborts with its error.
	res = vmRun(t, vmOpts{loader: loader}, vi(OpCALL, 0, 0, 0, int32(HashSymbolName([]byte("sol_fail_")))), vexit())
	e = vmWantKind(t, res.err, ErrSyscall, 0)
	if !errors.Is(e, errBoom) {
		t.Errorf("err = %v, want boom inside", e)
	}
}

func TestSyscallAndFunctionWithTheSameKey(t *testing.T) {
	t.Parallel()
	// In v0-v2 a key registered both as syscall and as function runs the syscall, then calls the
	// function (the reference tries both lookups).
	loader := NewLoader(DefaultConfig())
	calls := 0
	if err := loader.Register("sol_x_", func(vm *VM, a1, a2, a3, a4, a5 uint64) (uint64, error) {
		calls++
		return 5, nil
	}); err != nil {
		t.Fatal(err)
	}
	key := HashSymbolName([]byte("sol_x_"))
	res := vmRun(t, vmOpts{loader: loader, functions: map[uint32]uint64{key: 2}},
		vi(OpCALL, 0, 0, 0, int32(key)),
		vexit(),
		vi(OpADD64I, 0, 0, 0, 1), // function: r0 = syscall result + 1
		vexit())
	if res.err != nil || res.r0 != 6 || calls != 1 {
		t.Fatalf("r0 = %d, calls = %d, err = %v; want 6, 1, nil", res.r0, calls, res.err)
	}
}

func TestMemoryRegions(t *testing.T) {
	t.Parallel()
	input := make([]byte, 16)
	input[3] = 0xab
	// Load from input, store to heap and stack, read back.
	res := vmRun(t, vmOpts{input: []Region{{VMAddr: MMInputStart, Data: input, Writable: true}}},
		vi(OpLDXB, 2, 1, 3, 0), // r2 = input[3]
		vi(OpSTXB, 1, 2, 8, 0), // input[8] = r2
		vld(3, MMHeapStart),
		vi(OpSTXH, 3, 2, 100, 0),
		vi(OpLDXH, 4, 3, 100, 0),
		vi(OpSTXW, 10, 4, -8, 0),
		vi(OpLDXW, 0, 10, -8, 0),
		vi(OpSTW, 10, 0, -16, -1),
		vi(OpLDXDW, 5, 10, -16, 0), // high half untouched (zero)
		vi(OpADD64R, 0, 5, 0, 0),
		vi(OpSTDW, 10, 0, -24, -1), // stdw stores the sign-extended imm
		vi(OpLDXDW, 5, 10, -24, 0),
		vi(OpXOR64I, 5, 0, 0, -1), // 0 if all ones
		vi(OpADD64R, 0, 5, 0, 0),
		vexit())
	if res.err != nil {
		t.Fatal(res.err)
	}
	if want := uint64(0xab + 0xffffffff); res.r0 != want {
		t.Errorf("r0 = %#x, want %#x", res.r0, want)
	}
	if input[8] != 0xab {
		t.Errorf("input[8] = %#x, want 0xab", input[8])
	}

	// A read-only input region rejects stores.
	res = vmRun(t, vmOpts{input: []Region{{VMAddr: MMInputStart, Data: input}}}, vi(OpSTB, 1, 0, 0, 1), vexit())
	e := vmWantKind(t, res.err, ErrAccessViolation, 0)
	if e.Error() != "Access violation writing 1 bytes at address 0x400000000 (in input region)" {
		t.Errorf("text = %q", e.Error())
	}
}

func TestTranslate(t *testing.T) {
	t.Parallel()
	loader := NewLoader(DefaultConfig())
	exe := NewExecutableFromText(vmText(vexit()), V0, nil)
	input := make([]byte, 64)
	vm, err := NewVM(exe, loader, Params{Input: []Region{
		{VMAddr: MMInputStart, Data: input[:32], Writable: true},
	}, Meter: &Meter{Remaining: 10}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := vm.Translate(MMInputStart+4, 8, Store)
	if err != nil || len(b) != 8 {
		t.Fatalf("translate = %d bytes, %v", len(b), err)
	}
	b[0] = 9
	if input[4] != 9 {
		t.Error("translated bytes do not alias the region")
	}
	if cap(b) != 8 {
		t.Errorf("cap = %d, want 8 (no access beyond the range through append)", cap(b))
	}
	for _, c := range []struct {
		addr, n uint64
		access  AccessType
		text    string
	}{
		{MMInputStart + 30, 4, Load, "Access violation reading 4 bytes at address 0x40000001e (in input region)"},
		{MMBytecodeStart, 8, Store, "Access violation writing 8 bytes at address 0x100000000 (in program region)"},
		{MMStackStart + 4096, 1, Load, "Access violation in stack frame 1 at address 0x200001000 of size 1"},
		{MMHeapStart + DefaultHeapSize - 1, 2, Store, "Access violation writing 2 bytes at address 0x300007fff (in heap region)"},
		{^uint64(0), 1, Load, "Access violation reading 1 bytes at address 0xffffffffffffffff (in unallocated region)"},
		{MMInputStart, ^uint64(0), Load, "Access violation reading 18446744073709551615 bytes at address 0x400000000 (in input region)"},
	} {
		_, err := vm.Translate(c.addr, c.n, c.access)
		if err == nil || err.Error() != c.text {
			t.Errorf("Translate(%#x, %d) = %v, want %q", c.addr, c.n, err, c.text)
		}
	}
	// The program region is readable, including the code itself.
	b, err = vm.Translate(MMBytecodeStart, 8, Load)
	if err != nil || b[0] != OpEXIT {
		t.Errorf("program read = %v, %v", b, err)
	}
	// Frame 64 exists only for a range that cannot be mapped.
	if _, err := vm.Translate(MMStackStart+64*4096, 1<<20, Load); err == nil || err.Error() != "Access violation in stack frame 64 at address 0x200040000 of size 1048576" {
		t.Errorf("frame 64: %v", err)
	}
	// Stack frame 1 starts at 0x2_0000_2000 in v0.
	if _, err := vm.Translate(MMStackStart+8192, 4096, Store); err != nil {
		t.Errorf("frame 1: %v", err)
	}
}

func TestMultipleInputRegions(t *testing.T) {
	t.Parallel()
	// Regions sharing the input slot are found by address (the reference's unaligned mapping).
	a, b := make([]byte, 8), make([]byte, 8)
	b[0] = 0x5a
	res := vmRun(t, vmOpts{input: []Region{
		{VMAddr: MMInputStart, Data: a, Writable: true},
		{VMAddr: MMInputStart + 8, Data: b},
	}}, vi(OpLDXB, 0, 1, 8, 0), vi(OpSTXB, 1, 0, 0, 0), vexit())
	if res.err != nil || res.r0 != 0x5a || a[0] != 0x5a {
		t.Fatalf("r0 = %#x, a[0] = %#x, err = %v", res.r0, a[0], res.err)
	}
	res = vmRun(t, vmOpts{input: []Region{
		{VMAddr: MMInputStart, Data: a, Writable: true},
		{VMAddr: MMInputStart + 8, Data: b},
	}}, vi(OpSTB, 1, 0, 8, 1), vexit())
	vmWantKind(t, res.err, ErrAccessViolation, 0)

	// Overlapping regions are refused.
	_, err := NewVM(NewExecutableFromText(vmText(vexit()), V0, nil), NewLoader(DefaultConfig()), Params{
		Input: []Region{{VMAddr: MMInputStart, Data: a}, {VMAddr: MMInputStart + 4, Data: b}}, Meter: &Meter{}})
	if KindOf(err) != ErrInvalidMemoryRegion {
		t.Errorf("overlap: err = %v", err)
	}
}

func TestVMRunsOnce(t *testing.T) {
	t.Parallel()
	res := vmRun(t, vmOpts{}, vexit())
	if _, err := res.vm.Run(); err == nil || !strings.Contains(err.Error(), "once") {
		t.Errorf("second run: %v", err)
	}
}

func TestReleasedMemoryIsZeroForTheNextVM(t *testing.T) {
	// Not parallel: it checks what the pools hand to the next VM.
	write := [][]byte{
		vld(1, 0x1122334455667788),
		vi(OpSTXDW, 10, 1, -8, 0),
		vi(OpSTXDW, 10, 1, -4, 0), // straddles into host frame 1
		vld(2, MMHeapStart+DefaultHeapSize-8),
		vi(OpSTXDW, 2, 1, 0, 0),
		vld(2, MMStackStart+20*8192+100),
		vi(OpSTXB, 2, 1, 0, 0),
		vexit(),
	}
	read := [][]byte{
		vi(OpLDXDW, 0, 10, -8, 0),
		vld(2, MMStackStart+2*4096),
		vi(OpLDXDW, 3, 2, 0, 0),
		vi(OpOR64R, 0, 3, 0, 0),
		vld(2, MMHeapStart+DefaultHeapSize-8),
		vi(OpLDXDW, 3, 2, 0, 0),
		vi(OpOR64R, 0, 3, 0, 0),
		vld(2, MMStackStart+20*8192+100),
		vi(OpLDXB, 3, 2, 0, 0),
		vi(OpOR64R, 0, 3, 0, 0),
		vexit(),
	}
	for i := 0; i < 20; i++ {
		res := vmRun(t, vmOpts{}, write...)
		if res.err != nil {
			t.Fatal(res.err)
		}
		res.vm.Release()
		if _, err := res.vm.Translate(MMStackStart, 1, Load); err == nil {
			t.Fatal("Translate after Release succeeded")
		}
		res = vmRun(t, vmOpts{}, read...)
		if res.err != nil || res.r0 != 0 {
			t.Fatalf("round %d: a new VM sees r0 = %#x (err %v), want zeroed memory", i, res.r0, res.err)
		}
		res.vm.Release()
	}
}

func TestPooledVMsFollowEachExecutionsShape(t *testing.T) {
	// Not parallel: it checks what the pool hands to the next VM.
	big := vmRun(t, vmOpts{heapSize: 64 * 1024},
		vld(1, MMHeapStart+60*1024),
		vi(OpSTDW, 1, 0, 0, -1),
		vexit())
	if big.err != nil {
		t.Fatal(big.err)
	}
	big.vm.Release()
	// The next VM has the default heap: the old heap's end is unmapped now.
	res := vmRun(t, vmOpts{}, vld(1, MMHeapStart+60*1024), vi(OpLDXDW, 0, 1, 0, 0), vexit())
	e := vmWantKind(t, res.err, ErrAccessViolation, 2)
	if e.Region != "unallocated" {
		t.Errorf("region = %q", e.Region)
	}
	res.vm.Release()
	// A v1 program after a v0 one: no gaps, r10 at the top of the stack.
	res = vmRun(t, vmOpts{version: V1}, vi(OpSTDW, 10, 0, -4096-8, 7), vi(OpLDXDW, 0, 10, -4096-8, 0), vexit())
	if res.err != nil || res.r0 != 7 {
		t.Fatalf("v1 after v0: r0 = %d, err = %v", res.r0, res.err)
	}
	res.vm.Release()
	res = vmRun(t, vmOpts{}, vi(OpSTDW, 10, 0, -4096-8, 7), vexit())
	vmWantKind(t, res.err, ErrStackAccessViolation, 0)
}

func TestCallsResolvedPerLoader(t *testing.T) {
	t.Parallel()
	// One executable under two loaders: without the syscall the key is a plain function call,
	// with it the syscall runs first.
	key := HashSymbolName([]byte("sol_y_"))
	exe := NewExecutableFromText(vmText(
		vi(OpCALL, 0, 0, 0, int32(key)),
		vexit(),
		vi(OpADD64I, 0, 0, 0, 1),
		vexit()), V0, map[uint32]uint64{key: 2})
	plain := NewLoader(DefaultConfig())
	withSyscall := NewLoader(DefaultConfig())
	if err := withSyscall.Register("sol_y_", func(*VM, uint64, uint64, uint64, uint64, uint64) (uint64, error) { return 10, nil }); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		loader *Loader
		want   uint64
	}{{plain, 1}, {withSyscall, 11}, {plain, 1}} {
		vm, err := NewVM(exe, c.loader, Params{Meter: &Meter{Remaining: 100}})
		if err != nil {
			t.Fatal(err)
		}
		r0, err := vm.Run()
		if err != nil || r0 != c.want {
			t.Errorf("r0 = %d, err = %v, want %d", r0, err, c.want)
		}
	}
}

func TestConcurrentExecutions(t *testing.T) {
	t.Parallel()
	// One executable and loader shared by many goroutines, VMs pooled between them (run with
	// -race to check the sharing).
	fn := HashPC(4)
	exe := NewExecutableFromText(vmText(
		vi(OpSTXDW, 10, 1, -8, 0),
		vi(OpCALL, 0, 0, 0, int32(fn)),
		vi(OpLDXDW, 0, 10, -8, 0),
		vexit(),
		vi(OpLDXB, 0, 1, 0, 0), // pc 4: the input's first byte
		vexit()), V0, map[uint32]uint64{fn: 4})
	loader := NewLoader(DefaultConfig())
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				input := []byte{byte(g)}
				vm, err := NewVM(exe, loader, Params{Input: []Region{{VMAddr: MMInputStart, Data: input}}, Meter: &Meter{Remaining: 100}})
				if err != nil {
					t.Error(err)
					return
				}
				r0, err := vm.Run()
				vm.Release()
				if err != nil || r0 != MMInputStart {
					t.Errorf("r0 = %#x, err = %v", r0, err)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}
