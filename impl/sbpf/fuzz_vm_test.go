package sbpf

import (
	"bytes"
	"errors"
	"math/bits"
	"testing"
)

// fuzzLoader has one syscall that exercises translation with the program's own arguments.
func fuzzLoader() *Loader {
	cfg := DefaultConfig()
	cfg.MaxVersion = V4
	l := NewLoader(cfg)
	if err := l.Register("sol_fuzz_", func(vm *VM, a1, a2, a3, a4, a5 uint64) (uint64, error) {
		if err := vm.Consume(a3 & 0xff); err != nil {
			return 0, err
		}
		b, err := vm.Translate(a1, a2&0xffff, AccessType(a4&1))
		if err != nil {
			return 0, err
		}
		if AccessType(a4&1) == Store && len(b) > 0 {
			b[0] = byte(a5)
		}
		return uint64(len(b)), nil
	}); err != nil {
		panic(err)
	}
	return l
}

// FuzzInterpreter runs random programs, verified or not: nothing panics, every run ends within
// its budget with the meter accounting for exactly what it used, and failures are typed.
func FuzzInterpreter(f *testing.F) {
	f.Add(vmText(vi(OpMOV64I, 0, 0, 0, 1), vexit()), uint8(0), false)
	f.Add(vmText(vi(OpJA, 0, 0, -1, 0), vexit()), uint8(0), true)
	f.Add(vmText(vi(OpCALL, 0, 0, 0, int32(HashPC(0))), vexit()), uint8(0), true)
	f.Add(vmText(vi(OpCALL, 0, 0, 0, int32(HashSymbolName([]byte("sol_fuzz_")))), vexit()), uint8(0), false)
	f.Add(vmText(vi(OpSTXDW, 10, 1, -4, 0), vi(OpLDXDW, 0, 10, 4096, 0), vexit()), uint8(0), true)
	f.Add(vmText(vi(OpCALLX, 0, 0, 0, 1), vi(OpDIV64R, 0, 2, 0, 0), vexit()), uint8(2), false)
	f.Add(vmText(vi(OpCALL, 0, 1, 0, -1), vi(OpJEQ32I, 0, 0, 0, 0), vexit()), uint8(3), false)
	loader := fuzzLoader()
	f.Fuzz(func(t *testing.T, code []byte, version uint8, verify bool) {
		if len(code) > 1<<14 {
			code = code[:1<<14]
		}
		v := Version(version % 6)
		// Every slot is a potential function start, so random calls can land anywhere.
		fns := map[uint32]uint64{}
		for pc := uint64(0); pc < uint64(len(code)/8) && pc < 64; pc++ {
			fns[HashPC(pc)] = pc
		}
		exe := NewExecutableFromText(code[:len(code)/8*8], v, fns)
		if verify && Verify(exe, loader) != nil {
			return
		}
		input := make([]byte, 256)
		const budget = 20_000
		meter := &Meter{Remaining: budget}
		vm, err := NewVM(exe, loader, Params{Input: []Region{{VMAddr: MMInputStart, Data: input, Writable: true}}, Meter: meter})
		if err != nil {
			t.Fatalf("NewVM: %v", err)
		}
		_, err = vm.Run()
		if vm.Used() > budget || vm.Used()+meter.Remaining != budget {
			t.Fatalf("used %d, remaining %d of %d", vm.Used(), meter.Remaining, budget)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Kind == 0 || e.Error() == "" {
				t.Fatalf("untyped error %v", err)
			}
			if e.Kind == ErrExceededMaxInstructions && meter.Remaining != 0 {
				t.Fatalf("meter not empty after exhaustion")
			}
		}
	})
}

// FuzzVerifier checks the verifier never panics and that what it accepts only holds opcodes of
// the version.
func FuzzVerifier(f *testing.F) {
	f.Add(vmText(vld(0, 1), vexit()), uint8(0))
	f.Add(vmText(vi(OpJA, 0, 0, -5, 0)), uint8(3))
	f.Add(vmText(vi(OpADD64I, 10, 0, 0, 64), vexit()), uint8(1))
	f.Fuzz(func(t *testing.T, code []byte, version uint8) {
		v := Version(version % 6)
		exe := NewExecutableFromText(code, v, nil)
		err := Verify(exe, nil)
		if err == nil {
			for i := 0; i+8 <= len(code); i += 8 {
				op := code[i]
				if semTable[v][op] == sInvalid && !(i >= 8 && semTable[v][code[i-8]] == sLDDW) {
					t.Fatalf("accepted invalid opcode %#x at slot %d", op, i/8)
				}
			}
			return
		}
		if KindOf(err) != ErrVerifier || err.Error() == "" {
			t.Fatalf("untyped error %v", err)
		}
	})
}

// FuzzTranslate maps random ranges: a success aliases exactly n bytes of one region, a failure is
// an access violation naming the address and length asked for.
func FuzzTranslate(f *testing.F) {
	f.Add(MMInputStart, uint64(8), false)
	f.Add(MMStackStart+4096-4, uint64(8), true)
	f.Add(MMStackStart+8192, uint64(4096), true)
	f.Add(MMBytecodeStart, uint64(8), true)
	f.Add(^uint64(0), uint64(2), false)
	f.Add(MMHeapStart+100, ^uint64(0)-50, true)
	exe := NewExecutableFromText(vmText(vi(OpMOV64I, 0, 0, 0, 1), vexit()), V0, nil)
	loader := NewLoader(DefaultConfig())
	f.Fuzz(func(t *testing.T, addr, n uint64, store bool) {
		input := make([]byte, 100)
		vm, err := NewVM(exe, loader, Params{Input: []Region{{VMAddr: MMInputStart, Data: input, Writable: true}}, Meter: &Meter{}})
		if err != nil {
			t.Fatal(err)
		}
		access := Load
		if store {
			access = Store
		}
		b, err := vm.Translate(addr, n, access)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || (e.Kind != ErrAccessViolation && e.Kind != ErrStackAccessViolation) || e.Addr != addr || e.Len != n {
				t.Fatalf("Translate(%#x, %d): %v", addr, n, err)
			}
			return
		}
		if uint64(len(b)) != n || uint64(cap(b)) != n {
			t.Fatalf("Translate(%#x, %d) gave %d bytes (cap %d)", addr, n, len(b), cap(b))
		}
		if store && addr>>VirtualAddressBits == 1 {
			t.Fatalf("store into the program region at %#x allowed", addr)
		}
		if n > 0 && addr>>VirtualAddressBits == 4 {
			// The input region maps offset for offset.
			off := addr - MMInputStart
			if !bytes.Equal(b, input[off:off+n]) || &b[0] != &input[off] {
				t.Fatalf("input bytes at %#x do not alias", addr)
			}
		}
	})
}

// refHostRange is the reference's vm_to_host_buffer, transcribed literally (explicit below-start
// test, gap by shift), for FuzzHostRange to hold the optimized hostRange to.
func refHostRange(vmAddr uint64, length uint64, gapSize uint64, addr, n uint64) (uint64, bool) {
	if addr < vmAddr {
		return 0, false
	}
	begin := addr - vmAddr
	if gapSize == 0 {
		end := begin + n
		if end < begin || end > length {
			return 0, false
		}
		return begin, true
	}
	shift := uint(63 - bits.LeadingZeros64(gapSize))
	inGap := (begin>>shift)&1 == 1
	mask := ^uint64(0) << shift
	gapped := (begin&mask)>>1 | begin&^mask
	end := gapped + n
	if end < gapped || inGap || end > length {
		return 0, false
	}
	return gapped, true
}

// FuzzHostRange compares hostRange with the literal transcription for regions anywhere in their
// slot and addresses anywhere in the same slot (the only ones the mapping passes it).
func FuzzHostRange(f *testing.F) {
	f.Add(uint32(0), uint32(4096), uint8(12), uint32(0), uint64(8))
	f.Add(uint32(0x100), uint32(64), uint8(0), uint32(0xf8), uint64(16))
	f.Add(uint32(0), uint32(1<<18), uint8(12), uint32(0xfff), uint64(1<<63))
	f.Fuzz(func(t *testing.T, start, length uint32, gapShift uint8, addrOff uint32, n uint64) {
		var gap uint64
		if gapShift > 0 {
			gap = 1 << (gapShift % 20)
		}
		length %= 1 << 20
		base := 2 * RegionSize
		r := makeRegion(Region{VMAddr: base + uint64(start), Data: make([]byte, length), GapSize: gap})
		addr := base + uint64(addrOff)
		gotOff, gotOK := r.hostRange(addr, n)
		wantOff, wantOK := refHostRange(r.vmAddr, uint64(length), gap, addr, n)
		if gotOK != wantOK || (gotOK && gotOff != wantOff) {
			t.Fatalf("region %#x+%d gap %d, [%#x, +%d): got %d %v, reference %d %v", r.vmAddr, length, gap, addr, n, gotOff, gotOK, wantOff, wantOK)
		}
	})
}
