package sbpf

import (
	"encoding/binary"
	"math/bits"
)

// interpret runs the program until exit at depth 0 or a fault. Registers, pc and the compute
// meter live in locals; they are written back to the VM around syscalls (which may read
// registers and charge the meter) and at the end.
//
// Metering follows the reference: before each instruction, an empty meter is
// ExceededMaxInstructions, otherwise one unit is taken; lddw's second slot is skipped without a
// charge; a syscall first settles the units used so far, then charges its own cost.
func (vm *VM) interpret() (r0 uint64, err error) {
	exe := vm.exe
	prog := exe.program()
	n := uint64(len(prog))
	mem := vm.mem
	regs := mem.regions
	nregs := uint64(len(regs))
	aligned := mem.aligned
	loader := vm.loader
	cfg := &loader.Config
	version := exe.Version
	static := version.StaticSyscalls()
	manualBump := version.ManualStackFrameBump()
	frameBump := uint64(cfg.StackFrameSize)
	if version.StackFrameGaps() && cfg.EnableStackFrameGaps {
		frameBump *= 2
	}
	callxField := 0 // v0/v1: register number in imm; v2: src; v3+: dst
	if version.CallxUsesSrcReg() {
		callxField = 1
	} else if version.CallxUsesDstReg() {
		callxField = 2
	}
	maxDepth := cfg.MaxCallDepth
	frames := vm.frames
	depth := vm.depth

	reg := vm.reg
	pc := vm.pc
	remaining := vm.meter.Remaining

	// fail records the error at the current pc and leaves the loop's state in the VM.
	var fault *Error
	fail := func(kind ErrorKind) {
		fault = &Error{Kind: kind, PC: pc}
	}

	// push saves the caller's state for call/callx; false when the depth limit is hit.
	push := func(ret uint64) bool {
		f := &frames[depth]
		f.saved = [4]uint64{reg[6], reg[7], reg[8], reg[9]}
		f.fp = reg[10]
		f.ret = ret
		depth++
		if depth >= maxDepth {
			return false
		}
		if !manualBump {
			reg[10] += frameBump
		}
		return true
	}

loop:
	for {
		if remaining == 0 {
			fail(ErrExceededMaxInstructions)
			break
		}
		remaining--
		if pc >= n {
			fail(ErrExecutionOverrun)
			break
		}
		x := prog[pc]
		dst := (x >> 8) & 15
		src := (x >> 12) & 15
		imm := uint64(int64(int32(x >> 32))) // sign-extended, as every 64-bit use wants it
		next := pc + 1

		switch uint8(x) {
		case sLDDW:
			if next >= n {
				fail(ErrExecutionOverrun)
				break loop
			}
			reg[dst] = uint64(uint32(x>>32)) | prog[next]&0xffffffff00000000
			next++

		// Loads and stores: the aligned mapping's region is found by index and translated inline;
		// anything else (unaligned mapping, faults) takes the memory's full path.
		case sLDX1, sLDX2, sLDX4, sLDX8:
			size := loadSize(uint8(x))
			addr := reg[src] + uint64(int64(int16(x>>16)))
			if i := addr >> VirtualAddressBits; aligned && i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, size); ok {
					reg[dst] = readLE(r.data[off:], size)
					break
				}
			}
			v, ok := mem.load(addr, size)
			if !ok {
				fault = mem.violation(Load, addr, size)
				fault.PC = pc
				break loop
			}
			reg[dst] = v
		case sST1, sST2, sST4, sST8, sSTX1, sSTX2, sSTX4, sSTX8:
			size := storeSize(uint8(x))
			addr := reg[dst] + uint64(int64(int16(x>>16)))
			v := imm
			if uint8(x) >= sSTX1 {
				v = reg[src]
			}
			if i := addr >> VirtualAddressBits; aligned && i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, size); ok && r.writable {
					writeLE(r.data[off:], size, v)
					break
				}
			}
			if !mem.store(addr, size, v) {
				fault = mem.violation(Store, addr, size)
				fault.PC = pc
				break loop
			}

		// 32-bit ALU. v0/v1/v3 sign-extend add/sub/mul results; v2 zero-extends them.
		case sADD32I:
			reg[dst] = sx32(uint32(reg[dst]) + uint32(imm))
		case sADD32R:
			reg[dst] = sx32(uint32(reg[dst]) + uint32(reg[src]))
		case sSUB32I:
			reg[dst] = sx32(uint32(reg[dst]) - uint32(imm))
		case sSUB32R:
			reg[dst] = sx32(uint32(reg[dst]) - uint32(reg[src]))
		case sMUL32I:
			reg[dst] = sx32(uint32(reg[dst]) * uint32(imm))
		case sMUL32R:
			reg[dst] = sx32(uint32(reg[dst]) * uint32(reg[src]))
		case sADD32IZ:
			reg[dst] = uint64(uint32(reg[dst]) + uint32(imm))
		case sADD32RZ:
			reg[dst] = uint64(uint32(reg[dst]) + uint32(reg[src]))
		case sSUB32ISwapZ:
			reg[dst] = uint64(uint32(imm) - uint32(reg[dst]))
		case sSUB32RZ:
			reg[dst] = uint64(uint32(reg[dst]) - uint32(reg[src]))
		case sDIV32I:
			if uint32(imm) == 0 { // unreachable after verification
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) / uint32(imm))
		case sDIV32R:
			if uint32(reg[src]) == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) / uint32(reg[src]))
		case sOR32I:
			reg[dst] = uint64(uint32(reg[dst]) | uint32(imm))
		case sOR32R:
			reg[dst] = uint64(uint32(reg[dst]) | uint32(reg[src]))
		case sAND32I:
			reg[dst] = uint64(uint32(reg[dst]) & uint32(imm))
		case sAND32R:
			reg[dst] = uint64(uint32(reg[dst]) & uint32(reg[src]))
		case sLSH32I:
			reg[dst] = uint64(uint32(reg[dst]) << (imm & 31))
		case sLSH32R:
			reg[dst] = uint64(uint32(reg[dst]) << (reg[src] & 31))
		case sRSH32I:
			reg[dst] = uint64(uint32(reg[dst]) >> (imm & 31))
		case sRSH32R:
			reg[dst] = uint64(uint32(reg[dst]) >> (reg[src] & 31))
		case sNEG32:
			reg[dst] = uint64(uint32(-int32(reg[dst])))
		case sMOD32I:
			if uint32(imm) == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) % uint32(imm))
		case sMOD32R:
			if uint32(reg[src]) == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) % uint32(reg[src]))
		case sXOR32I:
			reg[dst] = uint64(uint32(reg[dst]) ^ uint32(imm))
		case sXOR32R:
			reg[dst] = uint64(uint32(reg[dst]) ^ uint32(reg[src]))
		case sMOV32I:
			reg[dst] = uint64(uint32(imm))
		case sMOV32R:
			reg[dst] = uint64(uint32(reg[src]))
		case sMOV32RSX:
			reg[dst] = sx32(uint32(reg[src]))
		case sARSH32I:
			reg[dst] = uint64(uint32(int32(reg[dst]) >> (imm & 31)))
		case sARSH32R:
			reg[dst] = uint64(uint32(int32(reg[dst]) >> (reg[src] & 31)))
		case sLE:
			switch int64(imm) {
			case 16:
				reg[dst] = uint64(uint16(reg[dst]))
			case 32:
				reg[dst] = uint64(uint32(reg[dst]))
			case 64:
			default:
				fail(ErrInvalidInstruction)
				break loop
			}
		case sBE:
			switch int64(imm) {
			case 16:
				reg[dst] = uint64(bits.ReverseBytes16(uint16(reg[dst])))
			case 32:
				reg[dst] = uint64(bits.ReverseBytes32(uint32(reg[dst])))
			case 64:
				reg[dst] = bits.ReverseBytes64(reg[dst])
			default:
				fail(ErrInvalidInstruction)
				break loop
			}

		// 64-bit ALU; imm is sign-extended.
		case sADD64I:
			reg[dst] += imm
		case sADD64R:
			reg[dst] += reg[src]
		case sSUB64I:
			reg[dst] -= imm
		case sSUB64ISwap:
			reg[dst] = imm - reg[dst]
		case sSUB64R:
			reg[dst] -= reg[src]
		case sMUL64I:
			reg[dst] *= imm
		case sMUL64R:
			reg[dst] *= reg[src]
		case sDIV64I:
			if imm == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] /= imm
		case sDIV64R:
			if reg[src] == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] /= reg[src]
		case sOR64I:
			reg[dst] |= imm
		case sOR64R:
			reg[dst] |= reg[src]
		case sAND64I:
			reg[dst] &= imm
		case sAND64R:
			reg[dst] &= reg[src]
		case sLSH64I:
			reg[dst] <<= imm & 63
		case sLSH64R:
			reg[dst] <<= reg[src] & 63
		case sRSH64I:
			reg[dst] >>= imm & 63
		case sRSH64R:
			reg[dst] >>= reg[src] & 63
		case sNEG64:
			reg[dst] = -reg[dst]
		case sMOD64I:
			if imm == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] %= imm
		case sMOD64R:
			if reg[src] == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] %= reg[src]
		case sXOR64I:
			reg[dst] ^= imm
		case sXOR64R:
			reg[dst] ^= reg[src]
		case sMOV64I:
			reg[dst] = imm
		case sMOV64R:
			reg[dst] = reg[src]
		case sARSH64I:
			reg[dst] = uint64(int64(reg[dst]) >> (imm & 63))
		case sARSH64R:
			reg[dst] = uint64(int64(reg[dst]) >> (reg[src] & 63))
		case sHOR64I:
			reg[dst] |= uint64(uint32(imm)) << 32

		// v2 product/quotient/remainder class: 32-bit results zero-extended.
		case sLMUL32I:
			reg[dst] = uint64(uint32(reg[dst]) * uint32(imm))
		case sLMUL32R:
			reg[dst] = uint64(uint32(reg[dst]) * uint32(reg[src]))
		case sLMUL64I:
			reg[dst] *= imm
		case sLMUL64R:
			reg[dst] *= reg[src]
		case sUHMUL64I:
			reg[dst], _ = bits.Mul64(reg[dst], uint64(uint32(imm)))
		case sUHMUL64R:
			reg[dst], _ = bits.Mul64(reg[dst], reg[src])
		case sSHMUL64I:
			reg[dst] = mulhs(reg[dst], imm)
		case sSHMUL64R:
			reg[dst] = mulhs(reg[dst], reg[src])
		case sUDIV32I:
			if uint32(imm) == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) / uint32(imm))
		case sUDIV32R:
			if uint32(reg[src]) == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) / uint32(reg[src]))
		case sUDIV64I:
			if uint32(imm) == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] /= uint64(uint32(imm))
		case sUDIV64R:
			if reg[src] == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] /= reg[src]
		case sUREM32I:
			if uint32(imm) == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) % uint32(imm))
		case sUREM32R:
			if uint32(reg[src]) == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) % uint32(reg[src]))
		case sUREM64I:
			if uint32(imm) == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] %= uint64(uint32(imm))
		case sUREM64R:
			if reg[src] == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			reg[dst] %= reg[src]
		case sSDIV32I, sSDIV32R, sSREM32I, sSREM32R:
			d := int32(reg[dst])
			var s int32
			if uint8(x) == sSDIV32I || uint8(x) == sSREM32I {
				s = int32(imm)
			} else {
				s = int32(reg[src])
			}
			if s == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			if d == -1<<31 && s == -1 {
				fail(ErrDivideOverflow)
				break loop
			}
			if uint8(x) == sSDIV32I || uint8(x) == sSDIV32R {
				reg[dst] = uint64(uint32(d / s))
			} else {
				reg[dst] = uint64(uint32(d % s))
			}
		case sSDIV64I, sSDIV64R, sSREM64I, sSREM64R:
			d := int64(reg[dst])
			var s int64
			if uint8(x) == sSDIV64I || uint8(x) == sSREM64I {
				s = int64(imm)
			} else {
				s = int64(reg[src])
			}
			if s == 0 {
				fail(ErrDivideByZero)
				break loop
			}
			if d == -1<<63 && s == -1 {
				fail(ErrDivideOverflow)
				break loop
			}
			if uint8(x) == sSDIV64I || uint8(x) == sSDIV64R {
				reg[dst] = uint64(d / s)
			} else {
				reg[dst] = uint64(d % s)
			}

		// Jumps: target = pc + 1 + off.
		case sJA:
			next += uint64(int64(int16(x >> 16)))
		case sJEQI:
			if reg[dst] == imm {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJEQR:
			if reg[dst] == reg[src] {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJGTI:
			if reg[dst] > imm {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJGTR:
			if reg[dst] > reg[src] {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJGEI:
			if reg[dst] >= imm {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJGER:
			if reg[dst] >= reg[src] {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJLTI:
			if reg[dst] < imm {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJLTR:
			if reg[dst] < reg[src] {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJLEI:
			if reg[dst] <= imm {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJLER:
			if reg[dst] <= reg[src] {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJSETI:
			if reg[dst]&imm != 0 {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJSETR:
			if reg[dst]&reg[src] != 0 {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJNEI:
			if reg[dst] != imm {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJNER:
			if reg[dst] != reg[src] {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJSGTI:
			if int64(reg[dst]) > int64(imm) {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJSGTR:
			if int64(reg[dst]) > int64(reg[src]) {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJSGEI:
			if int64(reg[dst]) >= int64(imm) {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJSGER:
			if int64(reg[dst]) >= int64(reg[src]) {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJSLTI:
			if int64(reg[dst]) < int64(imm) {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJSLTR:
			if int64(reg[dst]) < int64(reg[src]) {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJSLEI:
			if int64(reg[dst]) <= int64(imm) {
				next += uint64(int64(int16(x >> 16)))
			}
		case sJSLER:
			if int64(reg[dst]) <= int64(reg[src]) {
				next += uint64(int64(int16(x >> 16)))
			}

		// v3+ 32-bit jumps compare the low halves.
		case sJEQ32I, sJEQ32R, sJGT32I, sJGT32R, sJGE32I, sJGE32R, sJLT32I, sJLT32R, sJLE32I, sJLE32R,
			sJSET32I, sJSET32R, sJNE32I, sJNE32R, sJSGT32I, sJSGT32R, sJSGE32I, sJSGE32R,
			sJSLT32I, sJSLT32R, sJSLE32I, sJSLE32R:
			if jmp32(uint8(x), uint32(reg[dst]), uint32(imm), uint32(reg[src])) {
				next += uint64(int64(int16(x >> 16)))
			}

		case sCALL:
			resolved := false
			key := uint32(x >> 32)
			if !static || src == 0 {
				if e, ok := loader.syscalls[key]; ok {
					vm.reg, vm.pc, vm.depth = reg, pc, depth
					vm.meter.Remaining = remaining
					v, serr := e.Fn(vm, reg[1], reg[2], reg[3], reg[4], reg[5])
					remaining = vm.meter.Remaining
					if serr != nil {
						fault = &Error{Kind: ErrSyscall, PC: pc, Err: serr}
						break loop
					}
					reg[0] = v
					resolved = true
				}
			}
			if static {
				target := int64(next) + int64(imm)
				if (int64(imm) > 0 && target < int64(next)) || (int64(imm) < 0 && target > int64(next)) {
					target = -1 // saturated: outside the program either way
				}
				if src == 1 && target >= 0 && uint64(target) < n {
					if !push(next) {
						fail(ErrCallDepthExceeded)
						break loop
					}
					next = uint64(target)
					resolved = true
				}
			} else if target, ok := exe.Functions[key]; ok {
				if !push(next) {
					fail(ErrCallDepthExceeded)
					break loop
				}
				if target >= n {
					fail(ErrCallOutsideTextSegment)
					break loop
				}
				next = target
				resolved = true
			}
			if !resolved {
				fail(ErrUnsupportedInstruction)
				break loop
			}
		case sCALLX:
			var target uint64
			switch callxField {
			case 0:
				target = reg[imm&15]
			case 1:
				target = reg[src]
			default:
				target = reg[dst]
			}
			if !push(next) {
				fail(ErrCallDepthExceeded)
				break loop
			}
			// Truncating division: a target inside an instruction runs that instruction.
			target = (target - exe.TextVAddr) / InsnSize
			if target >= n {
				fail(ErrCallOutsideTextSegment)
				break loop
			}
			next = target
		case sEXIT:
			if depth == 0 {
				vm.reg, vm.pc, vm.depth = reg, pc, depth
				vm.meter.Remaining = remaining
				return reg[0], nil
			}
			depth--
			f := &frames[depth]
			reg[6], reg[7], reg[8], reg[9] = f.saved[0], f.saved[1], f.saved[2], f.saved[3]
			reg[10] = f.fp
			next = f.ret

		default:
			fail(ErrUnsupportedInstruction)
			break loop
		}
		pc = next
	}
	vm.reg, vm.pc, vm.depth = reg, pc, depth
	vm.meter.Remaining = remaining
	return 0, fault
}

func sx32(v uint32) uint64 { return uint64(int64(int32(v))) }

// mulhs is the high half of the signed 128-bit product.
func mulhs(a, b uint64) uint64 {
	hi, _ := bits.Mul64(a, b)
	if int64(a) < 0 {
		hi -= b
	}
	if int64(b) < 0 {
		hi -= a
	}
	return hi
}

func loadSize(s semOp) uint64 {
	switch s {
	case sLDX1:
		return 1
	case sLDX2:
		return 2
	case sLDX4:
		return 4
	}
	return 8
}

func storeSize(s semOp) uint64 {
	switch s {
	case sST1, sSTX1:
		return 1
	case sST2, sSTX2:
		return 2
	case sST4, sSTX4:
		return 4
	}
	return 8
}

func jmp32(s semOp, d, imm, src uint32) bool {
	var o uint32
	if (s-sJEQ32I)%2 == 0 {
		o = imm
	} else {
		o = src
	}
	switch s {
	case sJEQ32I, sJEQ32R:
		return d == o
	case sJGT32I, sJGT32R:
		return d > o
	case sJGE32I, sJGE32R:
		return d >= o
	case sJLT32I, sJLT32R:
		return d < o
	case sJLE32I, sJLE32R:
		return d <= o
	case sJSET32I, sJSET32R:
		return d&o != 0
	case sJNE32I, sJNE32R:
		return d != o
	case sJSGT32I, sJSGT32R:
		return int32(d) > int32(o)
	case sJSGE32I, sJSGE32R:
		return int32(d) >= int32(o)
	case sJSLT32I, sJSLT32R:
		return int32(d) < int32(o)
	case sJSLE32I, sJSLE32R:
		return int32(d) <= int32(o)
	}
	return false
}

func readLE(b []byte, size uint64) uint64 {
	switch size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	}
	return binary.LittleEndian.Uint64(b)
}

func writeLE(b []byte, size, v uint64) {
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}
