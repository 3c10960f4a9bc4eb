package sbpf

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math/bits"
	"testing"
)

// literalVM is a second interpreter, written as a plain transcription of the reference's step
// function (opcode bytes with version guards, first match wins; memory through the reference's
// region lookup; one compute unit checked per step), with none of the interpreter's preparation:
// no decoded program, no resolved calls, no inline translation. FuzzInterpreterLiteral holds the
// real interpreter to it.
type literalVM struct {
	v         Version
	text      []byte
	textVAddr uint64
	fns       map[uint32]uint64
	loader    *Loader
	regions   []Region // aligned: regions[i] is slot i
	reg       [12]uint64
	frames    []callFrame
	depth     int
	remaining uint64
	vm        *VM // handed to syscalls

	faultAddr, faultLen uint64 // of the last access violation
}

func (l *literalVM) mapRange(addr, n uint64, store bool) ([]byte, bool) {
	i := addr >> 32
	if i >= uint64(len(l.regions)) {
		return nil, false
	}
	r := l.regions[i]
	if store && !r.Writable {
		return nil, false
	}
	off, ok := refHostRange(r.VMAddr, uint64(len(r.Data)), r.GapSize, addr, n)
	if !ok {
		return nil, false
	}
	return r.Data[off : off+n], true
}

// step runs one instruction; done reports exit at depth 0 (r0) or a fault (kind).
func (l *literalVM) step() (done bool, kind ErrorKind) {
	v := l.v
	if l.remaining == 0 {
		return true, ErrExceededMaxInstructions
	}
	l.remaining--
	pc := l.reg[11]
	if (pc+1)*8 > uint64(len(l.text)) || pc >= 1<<60 {
		return true, ErrExecutionOverrun
	}
	next := pc + 1
	x := binary.LittleEndian.Uint64(l.text[pc*8:])
	opc := byte(x)
	dst, src := int((x>>8)&15), int((x>>12)&15)
	off := uint64(int64(int16(x >> 16)))
	imm := uint64(int64(int32(x >> 32)))
	r := &l.reg
	d, s := r[dst], r[src]
	sx := func(w uint32) uint64 {
		if v.ExplicitSignExtensionOfResults() {
			return uint64(w)
		}
		return uint64(int64(int32(w)))
	}
	load := func(addr, n uint64) bool {
		b, ok := l.mapRange(addr, n, false)
		if !ok {
			return false
		}
		var buf [8]byte
		copy(buf[:], b)
		r[dst] = binary.LittleEndian.Uint64(buf[:])
		return true
	}
	store := func(addr, n, val uint64) bool {
		b, ok := l.mapRange(addr, n, true)
		if !ok {
			return false
		}
		var buf [8]byte
		binary.LittleEndian.PutUint64(buf[:], val)
		copy(b, buf[:n])
		return true
	}
	push := func() bool {
		f := &l.frames[l.depth]
		f.saved = [4]uint64{r[6], r[7], r[8], r[9]}
		f.fp, f.ret = r[10], pc+1
		l.depth++
		if l.depth == len(l.frames) {
			return false
		}
		if !v.ManualStackFrameBump() {
			if v.StackFrameGaps() {
				r[10] += 8192
			} else {
				r[10] += 4096
			}
		}
		return true
	}
	jump := func(cond bool) {
		if cond {
			next = pc + 1 + off
		}
	}
	mem, pqr, lddw := v.MoveMemoryInstructionClasses(), v.EnablePQR(), !v.DisableLDDW()
	j32 := v.EnableJMP32()
	memFault := ErrorKind(0)
	// The reference's generate_access_violation: a stack-frame violation for frames -1..=64 of a
	// fixed-frame version.
	violation := func(addr, n uint64) {
		l.faultAddr, l.faultLen = addr, n
		diff := int64(-1 << 63) // the reference's saturating_sub
		if a := int64(addr); a >= -1<<63+int64(MMStackStart) {
			diff = a - int64(MMStackStart)
		}
		if frame := diff / 4096; !v.ManualStackFrameBump() && frame >= -1 && frame <= 64 {
			memFault = ErrStackAccessViolation
		} else {
			memFault = ErrAccessViolation
		}
	}
	ld := func(addr, n uint64) {
		if !load(addr, n) {
			violation(addr, n)
		}
	}
	st := func(addr, n, val uint64) {
		if !store(addr, n, val) {
			violation(addr, n)
		}
	}
	switch {
	case opc == 0x18 && lddw:
		if (pc+2)*8 > uint64(len(l.text)) {
			return true, ErrExecutionOverrun
		}
		r[dst] = uint64(uint32(x>>32)) | binary.LittleEndian.Uint64(l.text[(pc+1)*8:])>>32<<32
		r[11]++
		next++
	case opc == 0x71 && !mem, opc == 0x2c && mem:
		ld(s+off, 1)
	case opc == 0x69 && !mem, opc == 0x3c && mem:
		ld(s+off, 2)
	case opc == 0x61 && !mem, opc == 0x8c && mem:
		ld(s+off, 4)
	case opc == 0x79 && !mem, opc == 0x9c && mem:
		ld(s+off, 8)
	case opc == 0x72 && !mem, opc == 0x27 && mem:
		st(d+off, 1, imm)
	case opc == 0x6a && !mem, opc == 0x37 && mem:
		st(d+off, 2, imm)
	case opc == 0x62 && !mem, opc == 0x87 && mem:
		st(d+off, 4, imm)
	case opc == 0x7a && !mem, opc == 0x97 && mem:
		st(d+off, 8, imm)
	case opc == 0x73 && !mem, opc == 0x2f && mem:
		st(d+off, 1, s)
	case opc == 0x6b && !mem, opc == 0x3f && mem:
		st(d+off, 2, s)
	case opc == 0x63 && !mem, opc == 0x8f && mem:
		st(d+off, 4, s)
	case opc == 0x7b && !mem, opc == 0x9f && mem:
		st(d+off, 8, s)
	case opc == 0x04:
		r[dst] = sx(uint32(d) + uint32(imm))
	case opc == 0x0c:
		r[dst] = sx(uint32(d) + uint32(s))
	case opc == 0x14:
		if v.SwapSubRegImmOperands() {
			r[dst] = sx(uint32(imm) - uint32(d))
		} else {
			r[dst] = sx(uint32(d) - uint32(imm))
		}
	case opc == 0x1c:
		r[dst] = sx(uint32(d) - uint32(s))
	case opc == 0x24 && !pqr:
		r[dst] = sx(uint32(d) * uint32(imm))
	case opc == 0x2c && !pqr:
		r[dst] = sx(uint32(d) * uint32(s))
	case opc == 0x34 && !pqr, opc == 0x46 && pqr:
		r[dst] = uint64(uint32(d) / uint32(imm))
	case opc == 0x3c && !pqr, opc == 0x4e && pqr:
		if uint32(s) == 0 {
			return true, ErrDivideByZero
		}
		r[dst] = uint64(uint32(d) / uint32(s))
	case opc == 0x44:
		r[dst] = uint64(uint32(d) | uint32(imm))
	case opc == 0x4c:
		r[dst] = uint64(uint32(d) | uint32(s))
	case opc == 0x54:
		r[dst] = uint64(uint32(d) & uint32(imm))
	case opc == 0x5c:
		r[dst] = uint64(uint32(d) & uint32(s))
	case opc == 0x64:
		r[dst] = uint64(uint32(d) << (imm % 32))
	case opc == 0x6c:
		r[dst] = uint64(uint32(d) << (s % 32))
	case opc == 0x74:
		r[dst] = uint64(uint32(d) >> (imm % 32))
	case opc == 0x7c:
		r[dst] = uint64(uint32(d) >> (s % 32))
	case opc == 0x84 && !v.DisableNeg():
		r[dst] = uint64(uint32(-int32(d)))
	case opc == 0x94 && !pqr, opc == 0x66 && pqr:
		r[dst] = uint64(uint32(d) % uint32(imm))
	case opc == 0x9c && !pqr, opc == 0x6e && pqr:
		if uint32(s) == 0 {
			return true, ErrDivideByZero
		}
		r[dst] = uint64(uint32(d) % uint32(s))
	case opc == 0xa4:
		r[dst] = uint64(uint32(d) ^ uint32(imm))
	case opc == 0xac:
		r[dst] = uint64(uint32(d) ^ uint32(s))
	case opc == 0xb4:
		r[dst] = uint64(uint32(imm))
	case opc == 0xbc:
		if v.ExplicitSignExtensionOfResults() {
			r[dst] = uint64(int64(int32(s)))
		} else {
			r[dst] = uint64(uint32(s))
		}
	case opc == 0xc4:
		r[dst] = uint64(uint32(int32(d) >> (imm % 32)))
	case opc == 0xcc:
		r[dst] = uint64(uint32(int32(d) >> (s % 32)))
	case opc == 0xd4 && !v.DisableLE():
		switch imm {
		case 16:
			r[dst] = uint64(uint16(d))
		case 32:
			r[dst] = uint64(uint32(d))
		case 64:
		default:
			return true, ErrInvalidInstruction
		}
	case opc == 0xdc:
		switch imm {
		case 16:
			r[dst] = uint64(bits.ReverseBytes16(uint16(d)))
		case 32:
			r[dst] = uint64(bits.ReverseBytes32(uint32(d)))
		case 64:
			r[dst] = bits.ReverseBytes64(d)
		default:
			return true, ErrInvalidInstruction
		}
	case opc == 0x07:
		r[dst] = d + imm
	case opc == 0x0f:
		r[dst] = d + s
	case opc == 0x17:
		if v.SwapSubRegImmOperands() {
			r[dst] = imm - d
		} else {
			r[dst] = d - imm
		}
	case opc == 0x1f:
		r[dst] = d - s
	case opc == 0x27 && !pqr, opc == 0x96 && pqr:
		r[dst] = d * imm
	case opc == 0x2f && !pqr, opc == 0x9e && pqr:
		r[dst] = d * s
	case opc == 0x37 && !pqr:
		r[dst] = d / imm
	case opc == 0x3f && !pqr, opc == 0x5e && pqr:
		if s == 0 {
			return true, ErrDivideByZero
		}
		r[dst] = d / s
	case opc == 0x47:
		r[dst] = d | imm
	case opc == 0x4f:
		r[dst] = d | s
	case opc == 0x57:
		r[dst] = d & imm
	case opc == 0x5f:
		r[dst] = d & s
	case opc == 0x67:
		r[dst] = d << (imm % 64)
	case opc == 0x6f:
		r[dst] = d << (s % 64)
	case opc == 0x77:
		r[dst] = d >> (imm % 64)
	case opc == 0x7f:
		r[dst] = d >> (s % 64)
	case opc == 0x87 && !v.DisableNeg():
		r[dst] = -d
	case opc == 0x97 && !pqr:
		r[dst] = d % imm
	case opc == 0x9f && !pqr, opc == 0x7e && pqr:
		if s == 0 {
			return true, ErrDivideByZero
		}
		r[dst] = d % s
	case opc == 0xa7:
		r[dst] = d ^ imm
	case opc == 0xaf:
		r[dst] = d ^ s
	case opc == 0xb7:
		r[dst] = imm
	case opc == 0xbf:
		r[dst] = s
	case opc == 0xc7:
		r[dst] = uint64(int64(d) >> (imm % 64))
	case opc == 0xcf:
		r[dst] = uint64(int64(d) >> (s % 64))
	case opc == 0xf7 && !lddw:
		r[dst] = d | imm<<32
	case opc == 0x86 && pqr:
		r[dst] = uint64(uint32(d) * uint32(imm))
	case opc == 0x8e && pqr:
		r[dst] = uint64(uint32(d) * uint32(s))
	case opc == 0x36 && pqr:
		r[dst], _ = bits.Mul64(d, uint64(uint32(imm)))
	case opc == 0x3e && pqr:
		r[dst], _ = bits.Mul64(d, s)
	case opc == 0xb6 && pqr, opc == 0xbe && pqr:
		o := imm
		if opc == 0xbe {
			o = s
		}
		hi, _ := bits.Mul64(d, o)
		if int64(d) < 0 {
			hi -= o
		}
		if int64(o) < 0 {
			hi -= d
		}
		r[dst] = hi
	case opc == 0x56 && pqr:
		r[dst] = d / uint64(uint32(imm))
	case opc == 0x76 && pqr:
		r[dst] = d % uint64(uint32(imm))
	case (opc == 0xc6 || opc == 0xce || opc == 0xe6 || opc == 0xee) && pqr:
		o := int32(imm)
		if opc&8 != 0 {
			o = int32(s)
			if o == 0 {
				return true, ErrDivideByZero
			}
		}
		if int32(d) == -1<<31 && o == -1 {
			return true, ErrDivideOverflow
		}
		if opc == 0xc6 || opc == 0xce {
			r[dst] = uint64(uint32(int32(d) / o))
		} else {
			r[dst] = uint64(uint32(int32(d) % o))
		}
	case (opc == 0xd6 || opc == 0xde || opc == 0xf6 || opc == 0xfe) && pqr:
		o := int64(imm)
		if opc&8 != 0 {
			o = int64(s)
			if o == 0 {
				return true, ErrDivideByZero
			}
		}
		if int64(d) == -1<<63 && o == -1 {
			return true, ErrDivideOverflow
		}
		if opc == 0xd6 || opc == 0xde {
			r[dst] = uint64(int64(d) / o)
		} else {
			r[dst] = uint64(int64(d) % o)
		}
	case opc&7 == 6 && j32 && opc>>4 != 0 && opc>>4 != 8 && opc>>4 != 9 && opc>>4 != 0xe && opc>>4 != 0xf:
		o := uint32(imm)
		if opc&8 != 0 {
			o = uint32(s)
		}
		a := uint32(d)
		jump(cmp(opc>>4, uint64(a), uint64(o), int64(int32(a)), int64(int32(o))))
	case opc == 0x05:
		jump(true)
	case opc&7 == 5 && opc>>4 != 0 && opc>>4 != 8 && opc>>4 != 9 && opc>>4 != 0xe && opc>>4 != 0xf:
		o := imm
		if opc&8 != 0 {
			o = s
		}
		jump(cmp(opc>>4, d, o, int64(d), int64(o)))
	case opc == 0x8d:
		var t uint64
		switch {
		case v.CallxUsesSrcReg():
			t = s
		case v.CallxUsesDstReg():
			t = d
		default:
			t = r[int(imm)]
		}
		if !push() {
			return true, ErrCallDepthExceeded
		}
		t = (t - l.textVAddr) / 8
		if (t+1)*8 > uint64(len(l.text)) || t >= 1<<60 {
			return true, ErrCallOutsideTextSegment
		}
		next = t
	case opc == 0x85:
		resolved := false
		if !v.StaticSyscalls() || src == 0 {
			if e, ok := l.loader.Lookup(uint32(imm)); ok {
				l.vm.meter.Remaining = l.remaining
				val, err := e.Fn(l.vm, r[1], r[2], r[3], r[4], r[5])
				l.remaining = l.vm.meter.Remaining
				if err != nil {
					return true, ErrSyscall
				}
				r[0] = val
				resolved = true
			}
		}
		if v.StaticSyscalls() {
			t := int64(next) + int64(imm)
			if src == 1 && t >= 0 && (uint64(t)+1)*8 <= uint64(len(l.text)) {
				if !push() {
					return true, ErrCallDepthExceeded
				}
				next = uint64(t)
				resolved = true
			}
		} else if t, ok := l.fns[uint32(imm)]; ok {
			if !push() {
				return true, ErrCallDepthExceeded
			}
			if (t+1)*8 > uint64(len(l.text)) {
				return true, ErrCallOutsideTextSegment
			}
			next = t
			resolved = true
		}
		if !resolved {
			return true, ErrUnsupportedInstruction
		}
	case opc == 0x95:
		if l.depth == 0 {
			return true, 0
		}
		l.depth--
		f := l.frames[l.depth]
		r[6], r[7], r[8], r[9], r[10] = f.saved[0], f.saved[1], f.saved[2], f.saved[3], f.fp
		next = f.ret
	default:
		return true, ErrUnsupportedInstruction
	}
	if memFault != 0 {
		return true, memFault
	}
	r[11] = next
	return false, 0
}

// cmp is the condition of jump operation op (the opcode's high nibble).
func cmp(op byte, a, b uint64, sa, sb int64) bool {
	switch op {
	case 1:
		return a == b
	case 2:
		return a > b
	case 3:
		return a >= b
	case 4:
		return a&b != 0
	case 5:
		return a != b
	case 6:
		return sa > sb
	case 7:
		return sa >= sb
	case 0xa:
		return a < b
	case 0xb:
		return a <= b
	case 0xc:
		return sa < sb
	case 0xd:
		return sa <= sb
	}
	return false
}

// FuzzInterpreterLiteral runs random verified programs of every version in both interpreters and
// requires the same outcome, fault kind and pc, registers, compute units and memory.
func FuzzInterpreterLiteral(f *testing.F) {
	f.Add(vmText(vi(OpMOV64I, 0, 0, 0, 1), vexit()), uint8(0), uint16(100))
	f.Add(vmText(vi(OpCALL, 0, 0, 0, int32(HashPC(0))), vexit()), uint8(0), uint16(1000))
	f.Add(vmText(vi(OpCALL, 0, 1, 0, -1), vexit()), uint8(3), uint16(1000))
	f.Add(vmText(vi(OpCALL, 0, 0, 0, int32(HashSymbolName([]byte("sol_fuzz_")))), vexit()), uint8(0), uint16(1000))
	f.Add(vmText(vi(OpSTXDW, 10, 1, -4, 0), vi(OpLDXDW, 0, 10, 4096, 0), vexit()), uint8(0), uint16(50))
	f.Add(vmText(vi(OpMOV32I, 1, 0, 0, 40), vi(OpHOR64I, 1, 0, 0, 1), vi(OpCALLX, 0, 1, 0, 0), vexit(), vexit(), vexit()), uint8(2), uint16(50))
	f.Add(vmText(vi(OpJEQ32I, 1, 0, 0, 0), vi(OpCALLX, 1, 0, 0, 0), vexit()), uint8(3), uint16(50))
	f.Add(vmText(vi(OpCALL, 0, 2, 0, int32(HashSymbolName([]byte("sol_fuzz_")))), vexit()), uint8(3), uint16(50))
	loader := fuzzLoader()
	f.Fuzz(func(t *testing.T, code []byte, version uint8, budget uint16) {
		if len(code) > 1<<10 {
			code = code[:1<<10]
		}
		v := Version(version % 5)
		text := code[:len(code)/8*8]
		fns := map[uint32]uint64{}
		for pc := uint64(0); pc < uint64(len(text)/8) && pc < 32; pc++ {
			fns[HashPC(pc)] = pc
		}
		exe := NewExecutableFromText(text, v, fns)
		if Verify(exe, loader) != nil {
			return
		}
		run := func() (*VM, []byte, uint64, error) {
			input := make([]byte, 64)
			for i := range input {
				input[i] = byte(i)
			}
			vm, err := NewVM(exe, loader, Params{Input: []Region{{VMAddr: MMInputStart, Data: input, Writable: true}},
				Meter: &Meter{Remaining: uint64(budget)}})
			if err != nil {
				t.Fatal(err)
			}
			r0, err := vm.Run()
			return vm, input, r0, err
		}
		vm, input, r0, err := run()

		// The literal interpreter on a VM of its own (for the syscall and its memory).
		lvm, err2 := NewVM(exe, loader, Params{Input: []Region{{VMAddr: MMInputStart, Data: make([]byte, 64), Writable: true}},
			Meter: &Meter{Remaining: uint64(budget)}})
		if err2 != nil {
			t.Fatal(err2)
		}
		linput := lvm.mem.regions[4].data
		for i := range linput {
			linput[i] = byte(i)
		}
		l := &literalVM{v: v, text: exe.Text, textVAddr: exe.TextVAddr, fns: exe.Functions, loader: loader,
			frames: make([]callFrame, 64), remaining: uint64(budget), vm: lvm}
		for _, r := range lvm.mem.regions {
			l.regions = append(l.regions, Region{VMAddr: r.vmAddr, Data: r.data, Writable: r.writable, GapSize: r.gapSize})
		}
		l.reg[1] = MMInputStart
		l.reg[10] = lvm.st.reg[10]
		l.reg[11] = exe.EntryPC
		var kind ErrorKind
		for {
			done, k := l.step()
			if done {
				kind = k
				break
			}
		}
		gotKind := KindOf(err)
		if gotKind != kind {
			t.Fatalf("v%d: fault %d (%v), literal %d at pc %d", v, gotKind, err, kind, l.reg[11])
		}
		if kind == 0 && r0 != l.reg[0] {
			t.Fatalf("v%d: r0 %#x, literal %#x", v, r0, l.reg[0])
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("untyped error %v", err)
			}
			if e.PC != l.reg[11] {
				t.Fatalf("v%d: fault %v at pc %d, literal pc %d", v, err, e.PC, l.reg[11])
			}
			if (kind == ErrAccessViolation || kind == ErrStackAccessViolation) && (e.Addr != l.faultAddr || e.Len != l.faultLen) {
				t.Fatalf("v%d: fault %v, literal at %#x size %d", v, err, l.faultAddr, l.faultLen)
			}
		}
		for i := 0; i <= 10; i++ {
			if vm.Register(i) != l.reg[i] && kind != ErrSyscall {
				t.Fatalf("v%d: r%d = %#x, literal %#x (err %v)", v, i, vm.Register(i), l.reg[i], err)
			}
		}
		if vm.Remaining() != l.remaining {
			t.Fatalf("v%d: remaining %d, literal %d (err %v)", v, vm.Remaining(), l.remaining, err)
		}
		if string(input) != string(linput) {
			t.Fatalf("v%d: input memory differs", v)
		}
		if !bytes.Equal(vm.stack, lvm.stack) || !bytes.Equal(vm.heap, lvm.heap) {
			t.Fatalf("v%d: stack or heap differs", v)
		}
		vm.Release()
		// The literal interpreter wrote around the VM's record of written bytes: clear it all.
		clear(lvm.stack)
		clear(lvm.heap)
		lvm.Release()
	})
}
