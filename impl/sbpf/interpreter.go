package sbpf

import (
	"encoding/binary"
	"math/bits"
)

// The interpreter is split in two so that its hot loop calls no functions: fast runs
// instructions while they need nothing but registers, the aligned memory map and the call stack,
// and returns to interpret for everything else (syscalls and the calls not resolved in advance,
// memory accesses off the fast path, exit at depth 0, faults). Without calls in the loop the compiler keeps pc, the
// meter and the decoded fields in registers instead of spilling them every instruction.
//
// Metering follows the reference: before each instruction, an empty meter is
// ExceededMaxInstructions, otherwise one unit is taken; lddw's second slot is skipped without a
// charge; a syscall first settles the units used so far, then charges its own cost.

type action uint8

const (
	actExit  action = iota // exit at depth 0: r0 is the result
	actFault               // errKind at pc
	actMem                 // the load or store at pc needs the full translation (charged already)
	actCall                // call imm at pc (charged already)
)

// interp is the interpreter's state between fast runs.
type interp struct {
	reg       [16]uint64
	pc        uint64
	remaining uint64
	depth     int
	errKind   ErrorKind

	prog       []uint64
	syscalls   []Syscall   // the prepared program's, indexed by sSYSCALL slots
	regs       []memRegion // the aligned mapping's slots; nil for an unaligned mapping
	frames     []callFrame
	maxDepth   int
	manualBump bool
	frameBump  uint64
	callxField int // v0/v1: register number in imm; v2: src; v3+: dst
	textVAddr  uint64
}

func (vm *VM) interpret() (uint64, error) {
	st := &vm.st
	p := vm.exe.programFor(vm.loader)
	st.prog, st.syscalls = p.prog, p.syscalls
	st.remaining = vm.meter.Remaining
	defer func() { vm.meter.Remaining = st.remaining }()
	for {
		switch st.fast() {
		case actExit:
			return st.reg[0], nil
		case actFault:
			return 0, &Error{Kind: st.errKind, PC: st.pc}
		case actMem:
			if err := vm.slowMemory(st); err != nil {
				return 0, err
			}
		case actCall:
			if err := vm.call(st); err != nil {
				return 0, err
			}
		}
	}
}

// slowMemory executes the load or store at st.pc through the full translation.
func (vm *VM) slowMemory(st *interp) error {
	x := st.prog[st.pc]
	dst := (x >> 8) & 15
	src := (x >> 12) & 15
	off := uint64(int64(int16(x >> 16)))
	op := uint8(x)
	if op <= sLDX8 {
		size := loadSize(op)
		addr := st.reg[src] + off
		v, ok := vm.mem.load(addr, size)
		if !ok {
			e := vm.mem.violation(Load, addr, size)
			e.PC = st.pc
			return e
		}
		st.reg[dst] = v
	} else {
		size := storeSize(op)
		addr := st.reg[dst] + off
		v := simm(x)
		if op >= sSTX1 {
			v = st.reg[src]
		}
		if !vm.mem.store(addr, size, v) {
			e := vm.mem.violation(Store, addr, size)
			e.PC = st.pc
			return e
		}
	}
	st.pc++
	return nil
}

// call executes call imm at st.pc: a syscall by key, then (v0-v2) a function by key, or (v3+,
// src=1) a relative call; neither is UnsupportedInstruction. In v0-v2 a key registered as both
// runs the syscall and then calls the function, as the reference does.
func (vm *VM) call(st *interp) error {
	x := st.prog[st.pc]
	src := (x >> 12) & 15
	pc := st.pc
	if uint8(x) == sSYSCALL {
		return vm.syscall(st, st.syscalls[x>>32])
	}
	next := pc + 1
	n := uint64(len(st.prog))
	static := vm.exe.Version.StaticSyscalls()
	key := uint32(x >> 32)
	resolved := false
	fail := func(kind ErrorKind) error { return &Error{Kind: kind, PC: pc} }
	if !static || src == 0 {
		if e, ok := vm.loader.syscalls[key]; ok {
			if err := vm.runSyscall(st, e.Fn); err != nil {
				return err
			}
			resolved = true
		}
	}
	var target uint64
	hasTarget := false
	if static {
		t := int64(next) + int64(simm(x))
		if src == 1 && t >= 0 && uint64(t) < n {
			target, hasTarget = uint64(t), true
		}
	} else if t, ok := vm.exe.Functions[key]; ok {
		target, hasTarget = t, true
	}
	if hasTarget {
		f := &st.frames[st.depth]
		f.saved = [4]uint64{st.reg[6], st.reg[7], st.reg[8], st.reg[9]}
		f.fp, f.ret = st.reg[10], next
		st.depth++
		if st.depth >= st.maxDepth {
			return fail(ErrCallDepthExceeded)
		}
		if !st.manualBump {
			st.reg[10] += st.frameBump
		}
		if target >= n {
			return fail(ErrCallOutsideTextSegment)
		}
		next = target
		resolved = true
	}
	if !resolved {
		return fail(ErrUnsupportedInstruction)
	}
	st.pc = next
	return nil
}

// syscall runs a resolved syscall at st.pc and moves on.
func (vm *VM) syscall(st *interp, fn Syscall) error {
	if err := vm.runSyscall(st, fn); err != nil {
		return err
	}
	st.pc++
	return nil
}

// runSyscall settles the meter, calls fn with r1-r5 and puts its result in r0.
func (vm *VM) runSyscall(st *interp, fn Syscall) error {
	vm.meter.Remaining = st.remaining
	v, err := fn(vm, st.reg[1], st.reg[2], st.reg[3], st.reg[4], st.reg[5])
	st.remaining = vm.meter.Remaining
	if err != nil {
		return &Error{Kind: ErrSyscall, PC: st.pc, Err: err}
	}
	st.reg[0] = v
	return nil
}

// fast runs instructions until one needs interpret; st.pc is then that instruction.
func (st *interp) fast() (act action) {
	prog := st.prog
	n := uint64(len(prog))
	regs := st.regs
	nregs := uint64(len(regs))
	frames := st.frames
	depth := st.depth
	reg := &st.reg
	pc := st.pc
	remaining := st.remaining
	act = actFault

loop:
	for {
		if remaining == 0 {
			st.errKind = ErrExceededMaxInstructions
			break
		}
		remaining--
		if pc >= n {
			st.errKind = ErrExecutionOverrun
			break
		}
		x := prog[pc]
		dst := (x >> 8) & 15
		src := (x >> 12) & 15

		switch uint8(x) {
		case sLDDW:
			if pc+1 >= n {
				st.errKind = ErrExecutionOverrun
				break loop
			}
			pc++
			reg[dst] = uint64(uint32(x>>32)) | prog[pc]>>32<<32

		// Loads and stores, one case per width so the translation folds the size in: the aligned
		// mapping's slot is indexed directly; a miss (unaligned mapping, fault) goes to slowMemory.
		case sLDX1:
			addr := reg[src] + uint64(int64(int16(x>>16)))
			if i := addr >> VirtualAddressBits; i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, 1); ok {
					reg[dst] = uint64(r.data[off])
					break
				}
			}
			act = actMem
			break loop
		case sLDX2:
			addr := reg[src] + uint64(int64(int16(x>>16)))
			if i := addr >> VirtualAddressBits; i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, 2); ok {
					reg[dst] = uint64(binary.LittleEndian.Uint16(r.data[off:]))
					break
				}
			}
			act = actMem
			break loop
		case sLDX4:
			addr := reg[src] + uint64(int64(int16(x>>16)))
			if i := addr >> VirtualAddressBits; i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, 4); ok {
					reg[dst] = uint64(binary.LittleEndian.Uint32(r.data[off:]))
					break
				}
			}
			act = actMem
			break loop
		case sLDX8:
			addr := reg[src] + uint64(int64(int16(x>>16)))
			if i := addr >> VirtualAddressBits; i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, 8); ok {
					reg[dst] = binary.LittleEndian.Uint64(r.data[off:])
					break
				}
			}
			act = actMem
			break loop
		case sST1:
			addr := reg[dst] + uint64(int64(int16(x>>16)))
			if i := addr >> VirtualAddressBits; i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, 1); ok && r.writable {
					if off+1 > r.dirty {
						r.dirty = off + 1
					}
					v := simm(x)
					r.data[off] = byte(v)
					break
				}
			}
			act = actMem
			break loop
		case sST2:
			addr := reg[dst] + uint64(int64(int16(x>>16)))
			if i := addr >> VirtualAddressBits; i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, 2); ok && r.writable {
					if off+2 > r.dirty {
						r.dirty = off + 2
					}
					v := simm(x)
					binary.LittleEndian.PutUint16(r.data[off:], uint16(v))
					break
				}
			}
			act = actMem
			break loop
		case sST4:
			addr := reg[dst] + uint64(int64(int16(x>>16)))
			if i := addr >> VirtualAddressBits; i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, 4); ok && r.writable {
					if off+4 > r.dirty {
						r.dirty = off + 4
					}
					v := simm(x)
					binary.LittleEndian.PutUint32(r.data[off:], uint32(v))
					break
				}
			}
			act = actMem
			break loop
		case sST8:
			addr := reg[dst] + uint64(int64(int16(x>>16)))
			if i := addr >> VirtualAddressBits; i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, 8); ok && r.writable {
					if off+8 > r.dirty {
						r.dirty = off + 8
					}
					v := simm(x)
					binary.LittleEndian.PutUint64(r.data[off:], v)
					break
				}
			}
			act = actMem
			break loop
		case sSTX1:
			addr := reg[dst] + uint64(int64(int16(x>>16)))
			if i := addr >> VirtualAddressBits; i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, 1); ok && r.writable {
					if off+1 > r.dirty {
						r.dirty = off + 1
					}
					v := reg[src]
					r.data[off] = byte(v)
					break
				}
			}
			act = actMem
			break loop
		case sSTX2:
			addr := reg[dst] + uint64(int64(int16(x>>16)))
			if i := addr >> VirtualAddressBits; i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, 2); ok && r.writable {
					if off+2 > r.dirty {
						r.dirty = off + 2
					}
					v := reg[src]
					binary.LittleEndian.PutUint16(r.data[off:], uint16(v))
					break
				}
			}
			act = actMem
			break loop
		case sSTX4:
			addr := reg[dst] + uint64(int64(int16(x>>16)))
			if i := addr >> VirtualAddressBits; i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, 4); ok && r.writable {
					if off+4 > r.dirty {
						r.dirty = off + 4
					}
					v := reg[src]
					binary.LittleEndian.PutUint32(r.data[off:], uint32(v))
					break
				}
			}
			act = actMem
			break loop
		case sSTX8:
			addr := reg[dst] + uint64(int64(int16(x>>16)))
			if i := addr >> VirtualAddressBits; i < nregs {
				r := &regs[i]
				if off, ok := r.hostRange(addr, 8); ok && r.writable {
					if off+8 > r.dirty {
						r.dirty = off + 8
					}
					v := reg[src]
					binary.LittleEndian.PutUint64(r.data[off:], v)
					break
				}
			}
			act = actMem
			break loop

		// 32-bit ALU. v0/v1/v3 sign-extend add/sub/mul results; v2 zero-extends them.
		case sADD32I:
			reg[dst] = sx32(uint32(reg[dst]) + uint32(simm(x)))
		case sADD32R:
			reg[dst] = sx32(uint32(reg[dst]) + uint32(reg[src]))
		case sSUB32I:
			reg[dst] = sx32(uint32(reg[dst]) - uint32(simm(x)))
		case sSUB32R:
			reg[dst] = sx32(uint32(reg[dst]) - uint32(reg[src]))
		case sMUL32I:
			reg[dst] = sx32(uint32(reg[dst]) * uint32(simm(x)))
		case sMUL32R:
			reg[dst] = sx32(uint32(reg[dst]) * uint32(reg[src]))
		case sADD32IZ:
			reg[dst] = uint64(uint32(reg[dst]) + uint32(simm(x)))
		case sADD32RZ:
			reg[dst] = uint64(uint32(reg[dst]) + uint32(reg[src]))
		case sSUB32ISwapZ:
			reg[dst] = uint64(uint32(simm(x)) - uint32(reg[dst]))
		case sSUB32RZ:
			reg[dst] = uint64(uint32(reg[dst]) - uint32(reg[src]))
		case sDIV32I:
			if uint32(simm(x)) == 0 { // unreachable after verification
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) / uint32(simm(x)))
		case sDIV32R:
			if uint32(reg[src]) == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) / uint32(reg[src]))
		case sOR32I:
			reg[dst] = uint64(uint32(reg[dst]) | uint32(simm(x)))
		case sOR32R:
			reg[dst] = uint64(uint32(reg[dst]) | uint32(reg[src]))
		case sAND32I:
			reg[dst] = uint64(uint32(reg[dst]) & uint32(simm(x)))
		case sAND32R:
			reg[dst] = uint64(uint32(reg[dst]) & uint32(reg[src]))
		case sLSH32I:
			reg[dst] = uint64(uint32(reg[dst]) << (simm(x) & 31))
		case sLSH32R:
			reg[dst] = uint64(uint32(reg[dst]) << (reg[src] & 31))
		case sRSH32I:
			reg[dst] = uint64(uint32(reg[dst]) >> (simm(x) & 31))
		case sRSH32R:
			reg[dst] = uint64(uint32(reg[dst]) >> (reg[src] & 31))
		case sNEG32:
			reg[dst] = uint64(uint32(-int32(reg[dst])))
		case sMOD32I:
			if uint32(simm(x)) == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) % uint32(simm(x)))
		case sMOD32R:
			if uint32(reg[src]) == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) % uint32(reg[src]))
		case sXOR32I:
			reg[dst] = uint64(uint32(reg[dst]) ^ uint32(simm(x)))
		case sXOR32R:
			reg[dst] = uint64(uint32(reg[dst]) ^ uint32(reg[src]))
		case sMOV32I:
			reg[dst] = uint64(uint32(simm(x)))
		case sMOV32R:
			reg[dst] = uint64(uint32(reg[src]))
		case sMOV32RSX:
			reg[dst] = sx32(uint32(reg[src]))
		case sARSH32I:
			reg[dst] = uint64(uint32(int32(reg[dst]) >> (simm(x) & 31)))
		case sARSH32R:
			reg[dst] = uint64(uint32(int32(reg[dst]) >> (reg[src] & 31)))
		case sLE:
			switch int64(simm(x)) {
			case 16:
				reg[dst] = uint64(uint16(reg[dst]))
			case 32:
				reg[dst] = uint64(uint32(reg[dst]))
			case 64:
			default:
				st.errKind = ErrInvalidInstruction
				break loop
			}
		case sBE:
			switch int64(simm(x)) {
			case 16:
				reg[dst] = uint64(bits.ReverseBytes16(uint16(reg[dst])))
			case 32:
				reg[dst] = uint64(bits.ReverseBytes32(uint32(reg[dst])))
			case 64:
				reg[dst] = bits.ReverseBytes64(reg[dst])
			default:
				st.errKind = ErrInvalidInstruction
				break loop
			}

		// 64-bit ALU; simm(x) is sign-extended.
		case sADD64I:
			reg[dst] += simm(x)
		case sADD64R:
			reg[dst] += reg[src]
		case sSUB64I:
			reg[dst] -= simm(x)
		case sSUB64ISwap:
			reg[dst] = simm(x) - reg[dst]
		case sSUB64R:
			reg[dst] -= reg[src]
		case sMUL64I:
			reg[dst] *= simm(x)
		case sMUL64R:
			reg[dst] *= reg[src]
		case sDIV64I:
			if simm(x) == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] /= simm(x)
		case sDIV64R:
			if reg[src] == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] /= reg[src]
		case sOR64I:
			reg[dst] |= simm(x)
		case sOR64R:
			reg[dst] |= reg[src]
		case sAND64I:
			reg[dst] &= simm(x)
		case sAND64R:
			reg[dst] &= reg[src]
		case sLSH64I:
			reg[dst] <<= simm(x) & 63
		case sLSH64R:
			reg[dst] <<= reg[src] & 63
		case sRSH64I:
			reg[dst] >>= simm(x) & 63
		case sRSH64R:
			reg[dst] >>= reg[src] & 63
		case sNEG64:
			reg[dst] = -reg[dst]
		case sMOD64I:
			if simm(x) == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] %= simm(x)
		case sMOD64R:
			if reg[src] == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] %= reg[src]
		case sXOR64I:
			reg[dst] ^= simm(x)
		case sXOR64R:
			reg[dst] ^= reg[src]
		case sMOV64I:
			reg[dst] = simm(x)
		case sMOV64R:
			reg[dst] = reg[src]
		case sARSH64I:
			reg[dst] = uint64(int64(reg[dst]) >> (simm(x) & 63))
		case sARSH64R:
			reg[dst] = uint64(int64(reg[dst]) >> (reg[src] & 63))
		case sHOR64I:
			reg[dst] |= uint64(uint32(simm(x))) << 32

		// v2 product/quotient/remainder class: 32-bit results zero-extended.
		case sLMUL32I:
			reg[dst] = uint64(uint32(reg[dst]) * uint32(simm(x)))
		case sLMUL32R:
			reg[dst] = uint64(uint32(reg[dst]) * uint32(reg[src]))
		case sLMUL64I:
			reg[dst] *= simm(x)
		case sLMUL64R:
			reg[dst] *= reg[src]
		case sUHMUL64I:
			reg[dst], _ = bits.Mul64(reg[dst], uint64(uint32(simm(x))))
		case sUHMUL64R:
			reg[dst], _ = bits.Mul64(reg[dst], reg[src])
		case sSHMUL64I:
			reg[dst] = mulhs(reg[dst], simm(x))
		case sSHMUL64R:
			reg[dst] = mulhs(reg[dst], reg[src])
		case sUDIV32I:
			if uint32(simm(x)) == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) / uint32(simm(x)))
		case sUDIV32R:
			if uint32(reg[src]) == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) / uint32(reg[src]))
		case sUDIV64I:
			if uint32(simm(x)) == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] /= uint64(uint32(simm(x)))
		case sUDIV64R:
			if reg[src] == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] /= reg[src]
		case sUREM32I:
			if uint32(simm(x)) == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) % uint32(simm(x)))
		case sUREM32R:
			if uint32(reg[src]) == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] = uint64(uint32(reg[dst]) % uint32(reg[src]))
		case sUREM64I:
			if uint32(simm(x)) == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] %= uint64(uint32(simm(x)))
		case sUREM64R:
			if reg[src] == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			reg[dst] %= reg[src]
		case sSDIV32I, sSDIV32R, sSREM32I, sSREM32R:
			d := int32(reg[dst])
			var s int32
			if uint8(x) == sSDIV32I || uint8(x) == sSREM32I {
				s = int32(simm(x))
			} else {
				s = int32(reg[src])
			}
			if s == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			if d == -1<<31 && s == -1 {
				st.errKind = ErrDivideOverflow
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
				s = int64(simm(x))
			} else {
				s = int64(reg[src])
			}
			if s == 0 {
				st.errKind = ErrDivideByZero
				break loop
			}
			if d == -1<<63 && s == -1 {
				st.errKind = ErrDivideOverflow
				break loop
			}
			if uint8(x) == sSDIV64I || uint8(x) == sSDIV64R {
				reg[dst] = uint64(d / s)
			} else {
				reg[dst] = uint64(d % s)
			}

		// Jumps: target = pc + 1 + off.
		case sJA:
			pc += uint64(int64(int16(x >> 16)))
		case sJEQI:
			if reg[dst] == simm(x) {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJEQR:
			if reg[dst] == reg[src] {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJGTI:
			if reg[dst] > simm(x) {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJGTR:
			if reg[dst] > reg[src] {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJGEI:
			if reg[dst] >= simm(x) {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJGER:
			if reg[dst] >= reg[src] {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJLTI:
			if reg[dst] < simm(x) {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJLTR:
			if reg[dst] < reg[src] {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJLEI:
			if reg[dst] <= simm(x) {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJLER:
			if reg[dst] <= reg[src] {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJSETI:
			if reg[dst]&simm(x) != 0 {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJSETR:
			if reg[dst]&reg[src] != 0 {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJNEI:
			if reg[dst] != simm(x) {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJNER:
			if reg[dst] != reg[src] {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJSGTI:
			if int64(reg[dst]) > int64(simm(x)) {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJSGTR:
			if int64(reg[dst]) > int64(reg[src]) {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJSGEI:
			if int64(reg[dst]) >= int64(simm(x)) {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJSGER:
			if int64(reg[dst]) >= int64(reg[src]) {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJSLTI:
			if int64(reg[dst]) < int64(simm(x)) {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJSLTR:
			if int64(reg[dst]) < int64(reg[src]) {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJSLEI:
			if int64(reg[dst]) <= int64(simm(x)) {
				pc += uint64(int64(int16(x >> 16)))
			}
		case sJSLER:
			if int64(reg[dst]) <= int64(reg[src]) {
				pc += uint64(int64(int16(x >> 16)))
			}

		// v3+ 32-bit jumps compare the low halves.
		case sJEQ32I, sJEQ32R, sJGT32I, sJGT32R, sJGE32I, sJGE32R, sJLT32I, sJLT32R, sJLE32I, sJLE32R,
			sJSET32I, sJSET32R, sJNE32I, sJNE32R, sJSGT32I, sJSGT32R, sJSGE32I, sJSGE32R,
			sJSLT32I, sJSLT32R, sJSLE32I, sJSLE32R:
			if jmp32(uint8(x), uint32(reg[dst]), uint32(simm(x)), uint32(reg[src])) {
				pc += uint64(int64(int16(x >> 16)))
			}

		case sCALL, sSYSCALL:
			act = actCall
			break loop
		case sCALLFN:
			f := &frames[depth]
			f.saved = [4]uint64{reg[6], reg[7], reg[8], reg[9]}
			f.fp, f.ret = reg[10], pc+1
			depth++
			if depth >= st.maxDepth {
				st.errKind = ErrCallDepthExceeded
				break loop
			}
			if !st.manualBump {
				reg[10] += st.frameBump
			}
			pc = x >> 32
			continue
		case sCALLX:
			var target uint64
			switch st.callxField {
			case 0:
				target = reg[simm(x)&15]
			case 1:
				target = reg[src]
			default:
				target = reg[dst]
			}
			f := &frames[depth]
			f.saved = [4]uint64{reg[6], reg[7], reg[8], reg[9]}
			f.fp, f.ret = reg[10], pc+1
			depth++
			if depth >= st.maxDepth {
				st.errKind = ErrCallDepthExceeded
				break loop
			}
			if !st.manualBump {
				reg[10] += st.frameBump
			}
			// Truncating division: a target inside an instruction runs that instruction.
			target = (target - st.textVAddr) / InsnSize
			if target >= n {
				st.errKind = ErrCallOutsideTextSegment
				break loop
			}
			pc = target
			continue
		case sEXIT:
			if depth == 0 {
				act = actExit
				break loop
			}
			depth--
			f := &frames[depth]
			reg[6], reg[7], reg[8], reg[9] = f.saved[0], f.saved[1], f.saved[2], f.saved[3]
			reg[10] = f.fp
			pc = f.ret
			continue

		default:
			st.errKind = ErrUnsupportedInstruction
			break loop
		}
		pc++
	}
	st.pc, st.remaining, st.depth = pc, remaining, depth
	return act
}

// simm is an instruction's imm field sign-extended to 64 bits, as every 64-bit use wants it.
func simm(x uint64) uint64 { return uint64(int64(int32(x >> 32))) }

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
