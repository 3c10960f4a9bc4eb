package sbpf

import "encoding/binary"

// An instruction's meaning depends on its opcode byte and the program's version. Both the verifier
// and the interpreter resolve it once through semTable, so the interpreter's hot loop switches on
// a version-free operation and never tests the version.
type semOp = uint8

const (
	sInvalid semOp = iota
	sLDDW
	sLDX1
	sLDX2
	sLDX4
	sLDX8
	sST1 // store imm
	sST2
	sST4
	sST8
	sSTX1 // store reg
	sSTX2
	sSTX4
	sSTX8

	sADD32I // sign-extended result (v0, v1, v3+)
	sADD32R
	sSUB32I
	sSUB32R
	sMUL32I
	sMUL32R
	sADD32IZ // zero-extended result (v2)
	sADD32RZ
	sSUB32ISwapZ // imm - dst, zero-extended (v2)
	sSUB32RZ
	sDIV32I
	sDIV32R
	sOR32I
	sOR32R
	sAND32I
	sAND32R
	sLSH32I
	sLSH32R
	sRSH32I
	sRSH32R
	sNEG32
	sMOD32I
	sMOD32R
	sXOR32I
	sXOR32R
	sMOV32I
	sMOV32R
	sMOV32RSX // v2: mov32 reg sign-extends
	sARSH32I
	sARSH32R
	sLE
	sBE

	sADD64I
	sADD64R
	sSUB64I
	sSUB64ISwap // v2: imm - dst
	sSUB64R
	sMUL64I
	sMUL64R
	sDIV64I
	sDIV64R
	sOR64I
	sOR64R
	sAND64I
	sAND64R
	sLSH64I
	sLSH64R
	sRSH64I
	sRSH64R
	sNEG64
	sMOD64I
	sMOD64R
	sXOR64I
	sXOR64R
	sMOV64I
	sMOV64R
	sARSH64I
	sARSH64R
	sHOR64I

	sLMUL32I
	sLMUL32R
	sLMUL64I
	sLMUL64R
	sUHMUL64I
	sUHMUL64R
	sSHMUL64I
	sSHMUL64R
	sUDIV32I
	sUDIV32R
	sUDIV64I
	sUDIV64R
	sUREM32I
	sUREM32R
	sUREM64I
	sUREM64R
	sSDIV32I
	sSDIV32R
	sSDIV64I
	sSDIV64R
	sSREM32I
	sSREM32R
	sSREM64I
	sSREM64R

	sJEQ32I
	sJEQ32R
	sJGT32I
	sJGT32R
	sJGE32I
	sJGE32R
	sJLT32I
	sJLT32R
	sJLE32I
	sJLE32R
	sJSET32I
	sJSET32R
	sJNE32I
	sJNE32R
	sJSGT32I
	sJSGT32R
	sJSGE32I
	sJSGE32R
	sJSLT32I
	sJSLT32R
	sJSLE32I
	sJSLE32R

	sJA
	sJEQI
	sJEQR
	sJGTI
	sJGTR
	sJGEI
	sJGER
	sJLTI
	sJLTR
	sJLEI
	sJLER
	sJSETI
	sJSETR
	sJNEI
	sJNER
	sJSGTI
	sJSGTR
	sJSGEI
	sJSGER
	sJSLTI
	sJSLTR
	sJSLEI
	sJSLER
	sCALL
	sCALLX
	sEXIT

	// sCALLFN is a call imm resolved when the program is prepared for a loader: a BPF-to-BPF call
	// whose key names no syscall, with the target instruction in the upper 32 bits of the slot.
	sCALLFN
	// sSYSCALL is a call imm resolved to a syscall that is not also a function: the upper 32 bits
	// index the prepared program's syscall list.
	sSYSCALL
)

// semTable[version][opcode] is the operation, sInvalid when the version has no such opcode.
var semTable [Reserved + 1][256]semOp

func init() {
	for v := V0; v <= Reserved; v++ {
		t := &semTable[v]
		set := func(op byte, cond bool, s semOp) {
			if cond {
				t[op] = s
			}
		}
		mem := v.MoveMemoryInstructionClasses()
		pqr := v.EnablePQR()
		zx := v.ExplicitSignExtensionOfResults()
		swap := v.SwapSubRegImmOperands()
		jmp32 := v.EnableJMP32()

		set(OpLDDW, !v.DisableLDDW(), sLDDW)
		set(OpLDXB, !mem, sLDX1)
		set(OpLDXH, !mem, sLDX2)
		set(OpLDXW, !mem, sLDX4)
		set(OpLDXDW, !mem, sLDX8)
		set(OpSTB, !mem, sST1)
		set(OpSTH, !mem, sST2)
		set(OpSTW, !mem, sST4)
		set(OpSTDW, !mem, sST8)
		set(OpSTXB, !mem, sSTX1)
		set(OpSTXH, !mem, sSTX2)
		set(OpSTXW, !mem, sSTX4)
		set(OpSTXDW, !mem, sSTX8)
		set(OpLD1B, mem, sLDX1)
		set(OpLD2B, mem, sLDX2)
		set(OpLD4B, mem, sLDX4)
		set(OpLD8B, mem, sLDX8)
		set(OpST1BI, mem, sST1)
		set(OpST2BI, mem, sST2)
		set(OpST4BI, mem, sST4)
		set(OpST8BI, mem, sST8)
		set(OpST1BR, mem, sSTX1)
		set(OpST2BR, mem, sSTX2)
		set(OpST4BR, mem, sSTX4)
		set(OpST8BR, mem, sSTX8)

		set(OpADD32I, !zx, sADD32I)
		set(OpADD32I, zx, sADD32IZ)
		set(OpADD32R, !zx, sADD32R)
		set(OpADD32R, zx, sADD32RZ)
		set(OpSUB32I, !zx && !swap, sSUB32I)
		set(OpSUB32I, zx && swap, sSUB32ISwapZ)
		set(OpSUB32R, !zx, sSUB32R)
		set(OpSUB32R, zx, sSUB32RZ)
		set(OpMUL32I, !pqr, sMUL32I)
		set(OpMUL32R, !pqr, sMUL32R)
		set(OpDIV32I, !pqr, sDIV32I)
		set(OpDIV32R, !pqr, sDIV32R)
		set(OpOR32I, true, sOR32I)
		set(OpOR32R, true, sOR32R)
		set(OpAND32I, true, sAND32I)
		set(OpAND32R, true, sAND32R)
		set(OpLSH32I, true, sLSH32I)
		set(OpLSH32R, true, sLSH32R)
		set(OpRSH32I, true, sRSH32I)
		set(OpRSH32R, true, sRSH32R)
		set(OpNEG32, !v.DisableNeg(), sNEG32)
		set(OpMOD32I, !pqr, sMOD32I)
		set(OpMOD32R, !pqr, sMOD32R)
		set(OpXOR32I, true, sXOR32I)
		set(OpXOR32R, true, sXOR32R)
		set(OpMOV32I, true, sMOV32I)
		set(OpMOV32R, !zx, sMOV32R)
		set(OpMOV32R, zx, sMOV32RSX)
		set(OpARSH32I, true, sARSH32I)
		set(OpARSH32R, true, sARSH32R)
		set(OpLE, !v.DisableLE(), sLE)
		set(OpBE, true, sBE)

		set(OpADD64I, true, sADD64I)
		set(OpADD64R, true, sADD64R)
		set(OpSUB64I, !swap, sSUB64I)
		set(OpSUB64I, swap, sSUB64ISwap)
		set(OpSUB64R, true, sSUB64R)
		set(OpMUL64I, !pqr, sMUL64I)
		set(OpMUL64R, !pqr, sMUL64R)
		set(OpDIV64I, !pqr, sDIV64I)
		set(OpDIV64R, !pqr, sDIV64R)
		set(OpOR64I, true, sOR64I)
		set(OpOR64R, true, sOR64R)
		set(OpAND64I, true, sAND64I)
		set(OpAND64R, true, sAND64R)
		set(OpLSH64I, true, sLSH64I)
		set(OpLSH64R, true, sLSH64R)
		set(OpRSH64I, true, sRSH64I)
		set(OpRSH64R, true, sRSH64R)
		set(OpNEG64, !v.DisableNeg(), sNEG64)
		set(OpMOD64I, !pqr, sMOD64I)
		set(OpMOD64R, !pqr, sMOD64R)
		set(OpXOR64I, true, sXOR64I)
		set(OpXOR64R, true, sXOR64R)
		set(OpMOV64I, true, sMOV64I)
		set(OpMOV64R, true, sMOV64R)
		set(OpARSH64I, true, sARSH64I)
		set(OpARSH64R, true, sARSH64R)
		set(OpHOR64I, v.DisableLDDW(), sHOR64I)

		set(OpLMUL32I, pqr, sLMUL32I)
		set(OpLMUL32R, pqr, sLMUL32R)
		set(OpLMUL64I, pqr, sLMUL64I)
		set(OpLMUL64R, pqr, sLMUL64R)
		set(OpUHMUL64I, pqr, sUHMUL64I)
		set(OpUHMUL64R, pqr, sUHMUL64R)
		set(OpSHMUL64I, pqr, sSHMUL64I)
		set(OpSHMUL64R, pqr, sSHMUL64R)
		set(OpUDIV32I, pqr, sUDIV32I)
		set(OpUDIV32R, pqr, sUDIV32R)
		set(OpUDIV64I, pqr, sUDIV64I)
		set(OpUDIV64R, pqr, sUDIV64R)
		set(OpUREM32I, pqr, sUREM32I)
		set(OpUREM32R, pqr, sUREM32R)
		set(OpUREM64I, pqr, sUREM64I)
		set(OpUREM64R, pqr, sUREM64R)
		set(OpSDIV32I, pqr, sSDIV32I)
		set(OpSDIV32R, pqr, sSDIV32R)
		set(OpSDIV64I, pqr, sSDIV64I)
		set(OpSDIV64R, pqr, sSDIV64R)
		set(OpSREM32I, pqr, sSREM32I)
		set(OpSREM32R, pqr, sSREM32R)
		set(OpSREM64I, pqr, sSREM64I)
		set(OpSREM64R, pqr, sSREM64R)

		set(OpJEQ32I, jmp32, sJEQ32I)
		set(OpJEQ32R, jmp32, sJEQ32R)
		set(OpJGT32I, jmp32, sJGT32I)
		set(OpJGT32R, jmp32, sJGT32R)
		set(OpJGE32I, jmp32, sJGE32I)
		set(OpJGE32R, jmp32, sJGE32R)
		set(OpJLT32I, jmp32, sJLT32I)
		set(OpJLT32R, jmp32, sJLT32R)
		set(OpJLE32I, jmp32, sJLE32I)
		set(OpJLE32R, jmp32, sJLE32R)
		set(OpJSET32I, jmp32, sJSET32I)
		set(OpJSET32R, jmp32, sJSET32R)
		set(OpJNE32I, jmp32, sJNE32I)
		set(OpJNE32R, jmp32, sJNE32R)
		set(OpJSGT32I, jmp32, sJSGT32I)
		set(OpJSGT32R, jmp32, sJSGT32R)
		set(OpJSGE32I, jmp32, sJSGE32I)
		set(OpJSGE32R, jmp32, sJSGE32R)
		set(OpJSLT32I, jmp32, sJSLT32I)
		set(OpJSLT32R, jmp32, sJSLT32R)
		set(OpJSLE32I, jmp32, sJSLE32I)
		set(OpJSLE32R, jmp32, sJSLE32R)

		set(OpJA, true, sJA)
		set(OpJEQI, true, sJEQI)
		set(OpJEQR, true, sJEQR)
		set(OpJGTI, true, sJGTI)
		set(OpJGTR, true, sJGTR)
		set(OpJGEI, true, sJGEI)
		set(OpJGER, true, sJGER)
		set(OpJLTI, true, sJLTI)
		set(OpJLTR, true, sJLTR)
		set(OpJLEI, true, sJLEI)
		set(OpJLER, true, sJLER)
		set(OpJSETI, true, sJSETI)
		set(OpJSETR, true, sJSETR)
		set(OpJNEI, true, sJNEI)
		set(OpJNER, true, sJNER)
		set(OpJSGTI, true, sJSGTI)
		set(OpJSGTR, true, sJSGTR)
		set(OpJSGEI, true, sJSGEI)
		set(OpJSGER, true, sJSGER)
		set(OpJSLTI, true, sJSLTI)
		set(OpJSLTR, true, sJSLTR)
		set(OpJSLEI, true, sJSLEI)
		set(OpJSLER, true, sJSLER)
		set(OpCALL, true, sCALL)
		set(OpCALLX, true, sCALLX)
		set(OpEXIT, true, sEXIT)
	}
	// Reserved versions run nothing: the loader rejects them before a VM exists.
	semTable[Reserved] = [256]semOp{}
}

// isJump reports whether an operation is a conditional or unconditional jump (verifier check 7).
func isJump(s semOp) bool { return s >= sJEQ32I && s <= sJSLER }

// program returns exe's slots in the interpreter's form (one uint64 per slot, the encoding's
// fields unchanged except byte 0, which holds the resolved operation), computed once per executable.
func (exe *Executable) program() []uint64 {
	exe.decodeOnce.Do(func() { exe.prog = decodeText(exe.Text, exe.Version) })
	return exe.prog
}

// prepared is a program made ready for one loader: calls that need no lookup at run time are
// resolved (sCALLFN, sSYSCALL), so the interpreter runs BPF-to-BPF calls without leaving its loop
// and reaches syscalls without a map lookup.
type prepared struct {
	prog     []uint64
	syscalls []Syscall
}

// programFor prepares exe for loader, once per loader.
func (exe *Executable) programFor(loader *Loader) *prepared {
	exe.resolvedMu.Lock()
	defer exe.resolvedMu.Unlock()
	if p, ok := exe.resolved[loader]; ok {
		return p
	}
	p := &prepared{prog: append([]uint64(nil), exe.program()...)}
	index := map[uint32]uint64{}
	syscall := func(key uint32, fn Syscall) uint64 {
		i, ok := index[key]
		if !ok {
			i = uint64(len(p.syscalls))
			index[key] = i
			p.syscalls = append(p.syscalls, fn)
		}
		return i
	}
	n := uint64(len(p.prog))
	static := exe.Version.StaticSyscalls()
	for pc, x := range p.prog {
		if uint8(x) != sCALL {
			continue
		}
		key := uint32(x >> 32)
		src := (x >> 12) & 15
		op, arg := semOp(sCALL), uint64(0)
		switch {
		case static && src == 1:
			if t := int64(pc) + 1 + int64(int32(key)); t >= 0 && uint64(t) < n {
				op, arg = sCALLFN, uint64(t)
			}
		case static && src == 0:
			if e, ok := loader.syscalls[key]; ok {
				op, arg = sSYSCALL, syscall(key, e.Fn)
			}
		case static:
			// Any other src resolves to nothing (UnsupportedInstruction, from call).
		default:
			e, isSyscall := loader.syscalls[key]
			t, isFunction := exe.Functions[key]
			switch {
			case isSyscall && !isFunction:
				op, arg = sSYSCALL, syscall(key, e.Fn)
			case !isSyscall && isFunction && t < n:
				op, arg = sCALLFN, t
			}
			// Otherwise (both, an unknown key, a target past the text) call() decides, in the
			// reference's order.
		}
		if op != sCALL {
			p.prog[pc] = x&0xffffffff&^0xff | uint64(op) | arg<<32
		}
	}
	// A runtime builds its loaders once; should one make a loader per execution, the cache stays
	// small and the preparation is simply redone.
	if exe.resolved == nil {
		exe.resolved = make(map[*Loader]*prepared)
	}
	if len(exe.resolved) < 4 {
		exe.resolved[loader] = p
	}
	return p
}

func decodeText(text []byte, v Version) []uint64 {
	if v > Reserved {
		v = Reserved
	}
	t := &semTable[v]
	n := len(text) / InsnSize
	prog := make([]uint64, n)
	for i := range prog {
		x := binary.LittleEndian.Uint64(text[i*InsnSize:])
		prog[i] = x&^0xff | uint64(t[byte(x)])
	}
	return prog
}
