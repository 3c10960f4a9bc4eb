package sbpf

import (
	"fmt"
	"strings"
)

// Disassemble renders v0 bytecode in the assembler's syntax, one instruction per line, for error messages and
// tests. Jump targets are printed as relative offsets and `call imm` as `syscall IMM` (the raw key), so that
// Assemble(Disassemble(text)) gives the same bytes back; slots that are no instruction come out as `.fill 1, X`.
func Disassemble(text []byte) string {
	var sb strings.Builder
	names := disasmNames()
	for pc := 0; pc+InsnSize <= len(text); pc += InsnSize {
		insn := text[pc : pc+InsnSize]
		opc, dst, src := insn[0], insn[1]&0xf, insn[1]>>4
		off := int16(elfLE.Uint16(insn[2:]))
		imm := int32(elfLE.Uint32(insn[4:]))
		if opc == 0x18 && src == 0 && off == 0 && pc+2*InsnSize <= len(text) && text[pc+InsnSize] == 0 && text[pc+InsnSize+1] == 0 &&
			text[pc+InsnSize+2] == 0 && text[pc+InsnSize+3] == 0 {
			hi := elfLE.Uint32(text[pc+InsnSize+4:])
			fmt.Fprintf(&sb, "lddw r%d, %#x\n", dst, uint64(hi)<<32|uint64(uint32(imm)))
			pc += InsnSize
			continue
		}
		line, ok := disasmOne(names, opc, dst, src, off, imm)
		if ok {
			// Only print a mnemonic when assembling it gives these very bytes (no stray fields).
			a, err := Assemble(line)
			ok = err == nil && string(a.Text) == string(insn)
		}
		if !ok {
			line = fmt.Sprintf(".fill 1, %#x", elfLE.Uint64(insn))
		}
		sb.WriteString(line)
		sb.WriteByte('\n')
	}
	return sb.String()
}

// disasmNames maps each v0 opcode to its mnemonic, from the assembler's own table so the two cannot drift.
func disasmNames() map[uint8]string {
	names := map[uint8]string{}
	for name, e := range instructionTable(V0) {
		if e.opc&7 == 6 {
			continue // PQR (v2) and JMP32 (v3) share these opcodes; neither exists in v0
		}
		switch {
		case e.class == classAluBinary && !strings.HasSuffix(name, "32") && !strings.HasSuffix(name, "64"):
			continue // prefer the explicit width
		case e.class == classJcc && (strings.HasSuffix(name, "64")):
			continue
		case name == "neg" || name == "call":
			continue
		}
		if e.class == classAluBinary || e.class == classJcc {
			names[e.opc] = name
			names[e.opc|0x08] = name
			continue
		}
		if e.class == classEndian {
			continue
		}
		names[e.opc] = name
	}
	return names
}

func disasmOne(names map[uint8]string, opc, dst, src uint8, off int16, imm int32) (string, bool) {
	name, ok := names[opc]
	switch {
	case opc == 0xd4 || opc == 0xdc:
		if imm != 16 && imm != 32 && imm != 64 {
			return "", false
		}
		kind := "le"
		if opc == 0xdc {
			kind = "be"
		}
		return fmt.Sprintf("%s%d r%d", kind, imm, dst), true
	case !ok:
		return "", false
	}
	e := instructionTable(V0)[name]
	reg := opc&0x08 != 0
	switch e.class {
	case classAluBinary:
		if reg {
			return fmt.Sprintf("%s r%d, r%d", name, dst, src), true
		}
		return fmt.Sprintf("%s r%d, %d", name, dst, imm), true
	case classAluUnary:
		return fmt.Sprintf("%s r%d", name, dst), true
	case classLoad:
		return fmt.Sprintf("%s r%d, [r%d%+d]", name, dst, src, off), true
	case classStoreImm:
		return fmt.Sprintf("%s [r%d%+d], %d", name, dst, off, imm), true
	case classStoreReg:
		return fmt.Sprintf("%s [r%d%+d], r%d", name, dst, off, src), true
	case classJa:
		return fmt.Sprintf("ja %+d", off), true
	case classJcc:
		if reg {
			return fmt.Sprintf("%s r%d, r%d, %+d", name, dst, src, off), true
		}
		return fmt.Sprintf("%s r%d, %d, %+d", name, dst, imm, off), true
	case classSyscall:
		return fmt.Sprintf("syscall %#x", uint32(imm)), true
	case classCallx:
		return fmt.Sprintf("callx r%d", imm), true
	case classNoOperand:
		return name, true
	}
	return "", false
}
