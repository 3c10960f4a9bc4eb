package sbpf

import "testing"

func TestLaterVersions(t *testing.T) {
	t.Parallel()
	const all = ^uint64(0)
	cases := []struct {
		name    string
		version Version
		prog    [][]byte
		want    uint64
	}{
		{"v1 add32 still sign-extends", V1, [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpADD32I, 0, 0, 0, 0)}, all},
		{"v1 r10 starts at the top of the whole stack", V1, [][]byte{vi(OpMOV64R, 0, 10, 0, 0)}, MMStackStart + 64*4096},
		{"v1 add64 r10 moves the frame", V1, [][]byte{vi(OpADD64I, 10, 0, 0, -64), vi(OpMOV64R, 0, 10, 0, 0)}, MMStackStart + 64*4096 - 64},
		{"v2 add32 zero-extends", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpADD32I, 0, 0, 0, 0)}, 0xffffffff},
		{"v2 add32 reg zero-extends", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpMOV64I, 1, 0, 0, 0), vi(OpADD32R, 0, 1, 0, 0)}, 0xffffffff},
		{"v2 sub32 imm is imm - dst", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, 3), vi(OpSUB32I, 0, 0, 0, 10)}, 7},
		{"v2 sub32 reg zero-extends", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, 0), vi(OpMOV64I, 1, 0, 0, 1), vi(OpSUB32R, 0, 1, 0, 0)}, 0xffffffff},
		{"v2 sub64 imm is imm - dst", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, 3), vi(OpSUB64I, 0, 0, 0, 1)}, all - 1},
		{"v2 mov32 reg sign-extends", V2, [][]byte{vi(OpMOV32I, 1, 0, 0, -2), vi(OpMOV32R, 0, 1, 0, 0)}, all - 1},
		{"v2 hor64 sets the high half", V2, [][]byte{vi(OpMOV32I, 0, 0, 0, 5), vi(OpHOR64I, 0, 0, 0, -1)}, 0xffffffff00000005},
		{"v2 lmul32 zero-extends", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, 0x10000), vi(OpLMUL32I, 0, 0, 0, 0x8000)}, 0x80000000},
		{"v2 lmul64", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, -2), vi(OpMOV64I, 1, 0, 0, 3), vi(OpLMUL64R, 0, 1, 0, 0)}, all - 5},
		{"v2 uhmul64 imm is zero-extended", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpUHMUL64I, 0, 0, 0, -1)}, 0xfffffffe},
		{"v2 uhmul64 reg", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpMOV64I, 1, 0, 0, -1), vi(OpUHMUL64R, 0, 1, 0, 0)}, all - 1},
		{"v2 shmul64 imm is signed", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpSHMUL64I, 0, 0, 0, -1)}, 0},
		{"v2 shmul64 reg negative", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, -4), vi(OpMOV64I, 1, 0, 0, 3), vi(OpSHMUL64R, 0, 1, 0, 0)}, all},
		{"v2 udiv64 imm is zero-extended", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpUDIV64I, 0, 0, 0, -1)}, 0x100000001},
		{"v2 urem64 imm", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, 100), vi(OpUREM64I, 0, 0, 0, 7)}, 2},
		{"v2 udiv32", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, -1), vi(OpUDIV32I, 0, 0, 0, 2)}, 0x7fffffff},
		{"v2 urem32 reg", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, 100), vi(OpMOV64I, 1, 0, 0, 7), vi(OpUREM32R, 0, 1, 0, 0)}, 2},
		{"v2 sdiv32 zero-extends", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, -10), vi(OpSDIV32I, 0, 0, 0, 3)}, 0xfffffffd},
		{"v2 sdiv64", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, -10), vi(OpSDIV64I, 0, 0, 0, 3)}, all - 2},
		{"v2 srem32", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, -10), vi(OpSREM32I, 0, 0, 0, 3)}, 0xffffffff},
		{"v2 srem64 reg", V2, [][]byte{vi(OpMOV64I, 0, 0, 0, -10), vi(OpMOV64I, 1, 0, 0, 3), vi(OpSREM64R, 0, 1, 0, 0)}, all},
		{"v2 moved load and store", V2, [][]byte{vi(OpST8BI, 10, 0, -8, 9), vi(OpLD8B, 0, 10, -8, 0)}, 9},
		{"v2 store reg", V2, [][]byte{vi(OpMOV64I, 1, 0, 0, 0x1234), vi(OpST2BR, 10, 1, -2, 0), vi(OpLD2B, 0, 10, -2, 0)}, 0x1234},
		{"v3 mul32 sign-extends again", V3, [][]byte{vi(OpMOV64I, 0, 0, 0, 0x10000), vi(OpMUL32I, 0, 0, 0, 0x8000)}, 0xffffffff80000000},
		{"v3 jeq32 compares low halves", V3, [][]byte{vi(OpMOV64I, 0, 0, 0, 1), vld(1, 0xffffffff00000005), vi(OpJEQ32I, 1, 0, 1, 5), vi(OpMOV64I, 0, 0, 0, 2)}, 1},
		{"v3 jsgt32 is signed", V3, [][]byte{vi(OpMOV64I, 0, 0, 0, 1), vi(OpMOV32I, 1, 0, 0, -1), vi(OpJSGT32I, 1, 0, 1, 0), vi(OpMOV64I, 0, 0, 0, 2)}, 2},
		{"v3 jgt32 reg is unsigned", V3, [][]byte{vi(OpMOV64I, 0, 0, 0, 1), vi(OpMOV32I, 1, 0, 0, -1), vi(OpMOV64I, 2, 0, 0, 0), vi(OpJGT32R, 1, 2, 1, 0), vi(OpMOV64I, 0, 0, 0, 2)}, 1},
		{"v3 r10 is the first frame", V3, [][]byte{vi(OpMOV64R, 0, 10, 0, 0)}, MMStackStart + 4096},
	}
	for _, c := range cases {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res := vmRun(t, vmOpts{version: c.version}, append(c.prog, vexit())...)
			if res.err != nil {
				t.Fatalf("err = %v", res.err)
			}
			if res.r0 != c.want {
				t.Errorf("r0 = %#x, want %#x", res.r0, c.want)
			}
		})
	}
}

func TestV2Faults(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		prog [][]byte
		kind ErrorKind
		pc   uint64
	}{
		{"sdiv64 MIN/-1", [][]byte{vi(OpMOV64I, 0, 0, 0, 1), vi(OpLSH64I, 0, 0, 0, 63), vi(OpSDIV64I, 0, 0, 0, -1)}, ErrDivideOverflow, 2},
		{"srem32 MIN/-1 reg", [][]byte{vi(OpMOV32I, 0, 0, 0, -0x80000000), vi(OpMOV64I, 1, 0, 0, -1), vi(OpSREM32R, 0, 1, 0, 0)}, ErrDivideOverflow, 2},
		{"sdiv32 by zero reg", [][]byte{vi(OpMOV64I, 1, 0, 0, 0), vi(OpSDIV32R, 0, 1, 0, 0)}, ErrDivideByZero, 1},
		{"udiv64 by zero reg", [][]byte{vi(OpMOV64I, 1, 0, 0, 0), vi(OpUDIV64R, 0, 1, 0, 0)}, ErrDivideByZero, 1},
	} {
		res := vmRun(t, vmOpts{version: V2}, append(c.prog, vexit())...)
		e := vmWantKind(t, res.err, c.kind, c.pc)
		if c.kind == ErrDivideOverflow && e.Error() != "division overflow at BPF instruction" {
			t.Errorf("%s: text %q", c.name, e.Error())
		}
	}
}

func TestV2Callx(t *testing.T) {
	t.Parallel()
	// v2 takes the callx target from src (built with mov32 + hor64); calls do not move r10.
	res := vmRun(t, vmOpts{version: V2},
		vi(OpMOV32I, 3, 0, 0, 5*8),
		vi(OpHOR64I, 3, 0, 0, 1),
		vi(OpCALLX, 0, 3, 0, 0),
		vexit(),
		vexit(),
		vi(OpMOV64R, 0, 10, 0, 0), // slot 5
		vexit())
	if res.err != nil || res.r0 != MMStackStart+64*4096 {
		t.Fatalf("r0 = %#x, err = %v", res.r0, res.err)
	}
}

func TestV3StaticCalls(t *testing.T) {
	t.Parallel()
	loader := NewLoader(DefaultConfig())
	if err := loader.Register("sol_seven", func(vm *VM, a1, a2, a3, a4, a5 uint64) (uint64, error) { return 7, nil }); err != nil {
		t.Fatal(err)
	}
	key := int32(HashSymbolName([]byte("sol_seven")))
	// src=1: relative call to pc+1+imm; src=0: syscall by hash. r10 moves one frame in v3.
	res := vmRun(t, vmOpts{version: V3, loader: loader},
		vi(OpCALL, 0, 1, 0, 2), // -> slot 3
		vi(OpADD64I, 0, 0, 0, 1),
		vexit(),
		vi(OpCALL, 0, 0, 0, key), // slot 3: r0 = 7
		vi(OpMOV64R, 1, 10, 0, 0),
		vi(OpSUB64I, 1, 0, 0, int32(4096*2)),
		vld(2, MMStackStart),
		vi(OpJEQR, 1, 2, 1, 0),
		vi(OpMOV64I, 0, 0, 0, 100),
		vexit())
	if res.err != nil || res.r0 != 8 {
		t.Fatalf("r0 = %d, err = %v; want 8", res.r0, res.err)
	}
	// An unregistered hash with src=0 is unsupported; a relative call out of the text too.
	res = vmRun(t, vmOpts{version: V3, loader: loader}, vi(OpCALL, 0, 0, 0, 1), vexit())
	vmWantKind(t, res.err, ErrUnsupportedInstruction, 0)
	res = vmRun(t, vmOpts{version: V3, loader: loader}, vi(OpCALL, 0, 1, 0, 5), vexit())
	vmWantKind(t, res.err, ErrUnsupportedInstruction, 0)
	// callx takes dst in v3.
	res = vmRun(t, vmOpts{version: V3, loader: loader},
		vld(4, MMBytecodeStart+4*8),
		vi(OpCALLX, 4, 0, 0, 0),
		vexit(),
		vi(OpMOV64I, 0, 0, 0, 3), // slot 4
		vexit())
	if res.err != nil || res.r0 != 3 {
		t.Fatalf("callx v3: r0 = %d, err = %v", res.r0, res.err)
	}
}

func TestV3CallWithOtherSrc(t *testing.T) {
	t.Parallel()
	// In v3 only src=0 reaches syscalls and only src=1 is a relative call: a registered hash
	// with src=2 is an unsupported instruction.
	loader := NewLoader(DefaultConfig())
	if err := loader.Register("sol_z_", func(*VM, uint64, uint64, uint64, uint64, uint64) (uint64, error) { return 1, nil }); err != nil {
		t.Fatal(err)
	}
	key := int32(HashSymbolName([]byte("sol_z_")))
	res := vmRun(t, vmOpts{version: V3, loader: loader}, vi(OpCALL, 0, 2, 0, key), vexit())
	vmWantKind(t, res.err, ErrUnsupportedInstruction, 0)
	res = vmRun(t, vmOpts{version: V3, loader: loader}, vi(OpCALL, 0, 0, 0, key), vexit())
	if res.err != nil || res.r0 != 1 {
		t.Fatalf("src=0: r0 = %d, err = %v", res.r0, res.err)
	}
}
