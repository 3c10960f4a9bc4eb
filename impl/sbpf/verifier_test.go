package sbpf

import (
	"errors"
	"testing"
)

func TestVerifier(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		version Version
		text    []byte
		kind    VerifierErrorKind
		msg     string
	}{
		{"ok", V0, vmText(vi(OpMOV64I, 0, 0, 0, 1), vexit()), 0, ""},
		{"empty", V0, nil, VerifierNoProgram, "no program set, call prog_set() to load one"},
		{"length not a multiple of 8", V0, make([]byte, 12), VerifierProgramLengthNotMultiple, "program length must be a multiple of 8 octets"},
		{"unknown opcode", V0, vmText(vi(0x06, 0, 0, 0, 0), vexit()), VerifierUnknownOpCode, "unknown eBPF opcode 0x6 (insn #0)"},
		{"opcode 0", V0, vmText(vexit(), vi(0, 0, 0, 0, 0)), VerifierUnknownOpCode, "unknown eBPF opcode 0x0 (insn #1)"},
		{"lddw last", V0, vmText(vexit(), vi(OpLDDW, 0, 0, 0, 0)), VerifierLDDWCannotBeLast, "LD_DW instruction cannot be last in program"},
		{"lddw incomplete", V0, vmText(vi(OpLDDW, 0, 0, 0, 0), vexit()), VerifierIncompleteLDDW, "incomplete LD_DW instruction (insn #0)"},
		{"div32 by imm 0", V0, vmText(vi(OpDIV32I, 0, 0, 0, 0), vexit()), VerifierDivisionByZero, "division by 0 (insn #0)"},
		{"mod64 by imm 0", V0, vmText(vexit(), vi(OpMOD64I, 0, 0, 0, 0)), VerifierDivisionByZero, "division by 0 (insn #1)"},
		{"div64 by reg is fine", V0, vmText(vi(OpDIV64R, 0, 1, 0, 0), vexit()), 0, ""},
		{"lsh32 by 32", V0, vmText(vi(OpLSH32I, 0, 0, 0, 32), vexit()), VerifierShiftWithOverflow, "Shift with overflow of 32-bit value by 32 (insn #0)"},
		{"arsh64 by 64", V0, vmText(vi(OpARSH64I, 0, 0, 0, 64), vexit()), VerifierShiftWithOverflow, "Shift with overflow of 64-bit value by 64 (insn #0)"},
		{"rsh64 by -1", V0, vmText(vi(OpRSH64I, 0, 0, 0, -1), vexit()), VerifierShiftWithOverflow, "Shift with overflow of 18446744073709551615-bit value by 64 (insn #0)"},
		{"lsh64 by 63", V0, vmText(vi(OpLSH64I, 0, 0, 0, 63), vexit()), 0, ""},
		{"le 8", V0, vmText(vi(OpLE, 0, 0, 0, 8), vexit()), VerifierUnsupportedLEBEArgument, "unsupported argument for LE/BE (insn #0)"},
		{"be 48", V0, vmText(vi(OpBE, 0, 0, 0, 48), vexit()), VerifierUnsupportedLEBEArgument, "unsupported argument for LE/BE (insn #0)"},
		{"jump past the end", V0, vmText(vi(OpJA, 0, 0, 1, 0), vexit()), VerifierJumpOutOfCode, "jump out of code to #2 (insn #0)"},
		{"jump before the start", V0, vmText(vi(OpJEQI, 0, 0, -2, 0), vexit()), VerifierJumpOutOfCode, "jump out of code to #18446744073709551615 (insn #0)"},
		{"jump into lddw", V0, vmText(vi(OpJA, 0, 0, 1, 0), vld(0, 5), vexit()), VerifierJumpToMiddleOfLDDW, "jump to middle of LD_DW at #2 (insn #0)"},
		{"jump to itself is fine", V0, vmText(vi(OpJA, 0, 0, -1, 0), vexit()), 0, ""},
		{"callx r10", V0, vmText(vi(OpCALLX, 0, 0, 0, 10), vexit()), VerifierInvalidRegister, "Invalid register specified at instruction 0"},
		{"callx -1", V0, vmText(vi(OpCALLX, 0, 0, 0, -1), vexit()), VerifierInvalidRegister, "Invalid register specified at instruction 0"},
		{"callx r9", V0, vmText(vi(OpCALLX, 0, 0, 0, 9), vexit()), 0, ""},
		{"src r11", V0, vmText(vi(OpMOV64R, 0, 11, 0, 0), vexit()), VerifierInvalidSourceRegister, "invalid source register (insn #0)"},
		{"write r10", V0, vmText(vi(OpMOV64I, 10, 0, 0, 0), vexit()), VerifierCannotWriteR10, "cannot write into register r10 (insn #0)"},
		{"add64 r10 in v0", V0, vmText(vi(OpADD64I, 10, 0, 0, 64), vexit()), VerifierCannotWriteR10, "cannot write into register r10 (insn #0)"},
		{"dst r11", V0, vmText(vi(OpMOV64I, 11, 0, 0, 0), vexit()), VerifierInvalidDestinationRegister, "invalid destination register (insn #0)"},
		{"store through r10", V0, vmText(vi(OpSTXDW, 10, 1, -8, 0), vi(OpSTB, 10, 0, -1, 0), vexit()), 0, ""},
		{"load into r10", V0, vmText(vi(OpLDXDW, 10, 1, 0, 0), vexit()), VerifierCannotWriteR10, "cannot write into register r10 (insn #0)"},
		{"lddw r10 reports the second slot", V0, vmText(vld(10, 1), vexit()), VerifierCannotWriteR10, "cannot write into register r10 (insn #1)"},
		{"exit with dst r12", V0, vmText(vi(OpEXIT, 12, 0, 0, 0)), VerifierInvalidDestinationRegister, "invalid destination register (insn #0)"},
		{"unknown call is fine", V0, vmText(vi(OpCALL, 0, 0, 0, 1234), vexit()), 0, ""},

		{"v1 add64 r10 aligned", V1, vmText(vi(OpADD64I, 10, 0, 0, -64), vexit()), 0, ""},
		{"v1 add64 r10 unaligned", V1, vmText(vi(OpADD64I, 10, 0, 0, 32), vexit()), VerifierUnalignedImmediate, "Unaligned immediate (insn #0)"},
		{"v1 sub64 r10", V1, vmText(vi(OpSUB64I, 10, 0, 0, 64), vexit()), VerifierCannotWriteR10, "cannot write into register r10 (insn #0)"},
		{"v2 lddw is gone", V2, vmText(vld(0, 1), vexit()), VerifierUnknownOpCode, "unknown eBPF opcode 0x18 (insn #0)"},
		{"v2 le is gone", V2, vmText(vi(OpLE, 0, 0, 0, 16), vexit()), VerifierUnknownOpCode, "unknown eBPF opcode 0xd4 (insn #0)"},
		{"v2 neg32 is gone", V2, vmText(vi(OpNEG32, 0, 0, 0, 0), vexit()), VerifierUnknownOpCode, "unknown eBPF opcode 0x84 (insn #0)"},
		{"v2 0x87 is stw, not neg64", V2, vmText(vi(OpST4BI, 1, 0, 0, 0), vexit()), 0, ""},
		{"v2 old ldx is gone", V2, vmText(vi(OpLDXDW, 0, 1, 0, 0), vexit()), VerifierUnknownOpCode, "unknown eBPF opcode 0x79 (insn #0)"},
		{"v2 0x2c is a load", V2, vmText(vi(OpLD1B, 0, 1, 0, 0), vexit()), 0, ""},
		{"v2 0x27 is a store, r10 allowed", V2, vmText(vi(OpST1BI, 10, 0, -1, 0), vexit()), 0, ""},
		{"v2 udiv32 by imm 0", V2, vmText(vi(OpUDIV32I, 0, 0, 0, 0), vexit()), VerifierDivisionByZero, "division by 0 (insn #0)"},
		{"v2 srem64 by imm 0", V2, vmText(vi(OpSREM64I, 0, 0, 0, 0), vexit()), VerifierDivisionByZero, "division by 0 (insn #0)"},
		{"v2 hor64", V2, vmText(vi(OpHOR64I, 0, 0, 0, 1), vexit()), 0, ""},
		{"v2 callx uses src", V2, vmText(vi(OpCALLX, 0, 10, 0, 0), vexit()), VerifierInvalidRegister, "Invalid register specified at instruction 0"},
		{"v0 hor64 is unknown", V0, vmText(vi(OpHOR64I, 0, 0, 0, 1), vexit()), VerifierUnknownOpCode, "unknown eBPF opcode 0xf7 (insn #0)"},
		{"v3 jmp32 target checked", V3, vmText(vi(OpJEQ32I, 0, 0, 5, 0), vexit()), VerifierJumpOutOfCode, "jump out of code to #6 (insn #0)"},
		{"v3 callx uses dst", V3, vmText(vi(OpCALLX, 10, 0, 0, 0), vexit()), VerifierInvalidRegister, "Invalid register specified at instruction 0"},
		{"v3 mul32 is back", V3, vmText(vi(OpMUL32I, 0, 0, 0, 3), vexit()), 0, ""},
		{"v3 add64 r10", V3, vmText(vi(OpADD64I, 10, 0, 0, 64), vexit()), VerifierCannotWriteR10, "cannot write into register r10 (insn #0)"},
		{"reserved runs nothing", Reserved, vmText(vexit()), VerifierUnknownOpCode, "unknown eBPF opcode 0x95 (insn #0)"},
	}
	for _, c := range cases {
		c := c
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			err := Verify(NewExecutableFromText(c.text, c.version, nil), nil)
			if c.kind == 0 {
				if err != nil {
					t.Fatalf("err = %v, want nil", err)
				}
				return
			}
			var ve *VerifierError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want a verifier error", err)
			}
			if ve.Kind != c.kind || ve.Error() != c.msg {
				t.Errorf("err = %q (kind %d), want %q (kind %d)", ve.Error(), ve.Kind, c.msg, c.kind)
			}
			if KindOf(err) != ErrVerifier || err.Error() != "Verifier error: "+c.msg {
				t.Errorf("wrapped err = %q", err.Error())
			}
		})
	}
}
