package sbpf

import (
	"errors"
	"fmt"
)

// VM is one execution of an Executable. It is not safe for concurrent use; syscalls receive it
// while the interpreter is paused.
type VM struct {
	// Host is the runtime's context for syscalls.
	Host any

	exe    *Executable
	loader *Loader
	mem    *memory
	meter  *Meter

	reg    [16]uint64 // r0..r10; synced with the interpreter's copy around syscalls
	pc     uint64
	depth  int
	frames []callFrame
	used   uint64
	ran    bool
}

// callFrame is what call/callx save and exit restores.
type callFrame struct {
	saved [4]uint64 // r6..r9
	fp    uint64    // r10
	ret   uint64    // instruction to resume at
}

func newVM(exe *Executable, loader *Loader, p Params) (*VM, error) {
	if exe == nil || loader == nil {
		return nil, errors.New("sbpf: NewVM needs an executable and a loader")
	}
	if p.Meter == nil {
		return nil, errors.New("sbpf: NewVM needs a compute meter")
	}
	cfg := &loader.Config
	if cfg.MaxCallDepth < 1 || cfg.StackFrameSize < 1 {
		return nil, fmt.Errorf("sbpf: invalid config: max call depth %d, stack frame size %d", cfg.MaxCallDepth, cfg.StackFrameSize)
	}
	heapSize := p.HeapSize
	if heapSize == 0 {
		heapSize = DefaultHeapSize
	}
	if heapSize < 0 || heapSize > MaxHeapSize {
		return nil, fmt.Errorf("sbpf: invalid heap size %d", heapSize)
	}
	stack := make([]byte, cfg.StackSize())
	var gap uint64
	if exe.Version.StackFrameGaps() && cfg.EnableStackFrameGaps {
		gap = uint64(cfg.StackFrameSize)
		if gap&(gap-1) != 0 {
			return nil, fmt.Errorf("sbpf: stack frame size %d is not a power of two", gap)
		}
	}
	regions := make([]Region, 0, 3+len(p.Input))
	regions = append(regions,
		Region{VMAddr: exe.ROVAddr, Data: exe.RO},
		Region{VMAddr: MMStackStart, Data: stack, Writable: true, GapSize: gap},
		Region{VMAddr: MMHeapStart, Data: make([]byte, heapSize), Writable: true},
	)
	regions = append(regions, p.Input...)
	mem, err := newMemory(regions, cfg, exe.Version)
	if err != nil {
		return nil, err
	}
	vm := &VM{Host: p.Host, exe: exe, loader: loader, mem: mem, meter: p.Meter,
		frames: make([]callFrame, cfg.MaxCallDepth)}
	vm.reg[1] = MMInputStart
	if exe.Version.ManualStackFrameBump() {
		vm.reg[10] = MMStackStart + uint64(len(stack))
	} else {
		vm.reg[10] = MMStackStart + uint64(cfg.StackFrameSize)
	}
	vm.pc = exe.EntryPC
	return vm, nil
}

func (vm *VM) translate(addr, n uint64, access AccessType) ([]byte, error) {
	return vm.mem.mapRange(addr, n, access)
}

// errAlreadyRan guards the one-execution contract of a VM.
var errAlreadyRan = errors.New("sbpf: a VM runs once")

func (vm *VM) run() (uint64, error) {
	if vm.ran {
		return 0, errAlreadyRan
	}
	vm.ran = true
	start := vm.meter.Remaining
	r0, err := vm.interpret()
	vm.used = start - vm.meter.Remaining
	if start < vm.meter.Remaining {
		// A syscall may hand units back (nested executions refund nothing, but stay safe).
		vm.used = 0
	}
	return r0, err
}
