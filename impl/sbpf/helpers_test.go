package sbpf

import (
	"encoding/binary"
	"errors"
	"testing"
)

// vmIns encodes one instruction slot.
func vmIns(op byte, dst, src uint8, off int16, imm int32) []byte {
	b := make([]byte, 8)
	b[0] = op
	b[1] = src<<4 | dst&0x0f
	binary.LittleEndian.PutUint16(b[2:], uint16(off))
	binary.LittleEndian.PutUint32(b[4:], uint32(imm))
	return b
}

// vmLDDW encodes the two slots of lddw dst, v.
func vmLDDW(dst uint8, v uint64) []byte {
	return append(vmIns(OpLDDW, dst, 0, 0, int32(uint32(v))), vmIns(0, 0, 0, 0, int32(uint32(v>>32)))...)
}

func vmExit() []byte { return vmIns(OpEXIT, 0, 0, 0, 0) }

func vmText(slots ...[]byte) []byte {
	var out []byte
	for _, s := range slots {
		out = append(out, s...)
	}
	return out
}

type vmOpts struct {
	version   Version
	budget    uint64
	input     []Region
	functions map[uint32]uint64
	loader    *Loader
	noVerify  bool
	heapSize  int
}

type vmResult struct {
	r0   uint64
	err  error
	used uint64
	vm   *VM
}

func vmRun(t testing.TB, o vmOpts, slots ...[]byte) vmResult {
	t.Helper()
	if o.budget == 0 {
		o.budget = 1_000_000
	}
	loader := o.loader
	if loader == nil {
		cfg := DefaultConfig()
		cfg.MaxVersion = V4
		loader = NewLoader(cfg)
	}
	exe := NewExecutableFromText(vmText(slots...), o.version, o.functions)
	if !o.noVerify {
		if err := Verify(exe, loader); err != nil {
			t.Fatalf("verify: %v", err)
		}
	}
	vm, err := NewVM(exe, loader, Params{Input: o.input, HeapSize: o.heapSize, Meter: &Meter{Remaining: o.budget}})
	if err != nil {
		t.Fatalf("NewVM: %v", err)
	}
	r0, err := vm.Run()
	return vmResult{r0: r0, err: err, used: vm.Used(), vm: vm}
}

// vmWantKind checks err is an *Error of kind k at pc.
func vmWantKind(t *testing.T, err error, k ErrorKind, pc uint64) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v, want *Error kind %d", err, k)
	}
	if e.Kind != k || e.PC != pc {
		t.Fatalf("error = %q (kind %d, pc %d), want kind %d at pc %d", e, e.Kind, e.PC, k, pc)
	}
	return e
}
