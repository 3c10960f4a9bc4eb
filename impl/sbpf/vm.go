package sbpf

import (
	"errors"
	"fmt"
	"sync"
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

	// stack and heap come from pools and go back, cleared, on Release.
	stack, heap []byte
	released    bool
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
	stack := getBuffer(cfg.StackSize())
	var gap uint64
	if exe.Version.StackFrameGaps() && cfg.EnableStackFrameGaps {
		gap = uint64(cfg.StackFrameSize)
		if gap&(gap-1) != 0 {
			return nil, fmt.Errorf("sbpf: stack frame size %d is not a power of two", gap)
		}
	}
	heap := getBuffer(heapSize)
	regions := make([]Region, 0, 3+len(p.Input))
	regions = append(regions,
		Region{VMAddr: exe.ROVAddr, Data: exe.RO},
		Region{VMAddr: MMStackStart, Data: stack, Writable: true, GapSize: gap},
		Region{VMAddr: MMHeapStart, Data: heap, Writable: true},
	)
	regions = append(regions, p.Input...)
	mem, err := newMemory(regions, cfg, exe.Version)
	if err != nil {
		putBuffer(stack, 0)
		putBuffer(heap, 0)
		return nil, err
	}
	vm := &VM{Host: p.Host, exe: exe, loader: loader, mem: mem, meter: p.Meter,
		frames: make([]callFrame, cfg.MaxCallDepth), stack: stack, heap: heap}
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
	if vm.released {
		return nil, errReleased
	}
	return vm.mem.mapRange(addr, n, access)
}

var errReleased = errors.New("sbpf: the VM was released")

func (vm *VM) release() {
	if vm.released {
		return
	}
	vm.released = true
	for i := range vm.mem.regions {
		r := &vm.mem.regions[i]
		switch {
		case len(r.data) == 0:
		case &r.data[0] == &vm.stack[0]:
			putBuffer(vm.stack, r.dirty)
		case len(vm.heap) > 0 && &r.data[0] == &vm.heap[0]:
			putBuffer(vm.heap, r.dirty)
		}
	}
	vm.stack, vm.heap, vm.mem = nil, nil, nil
}

// Buffers are pooled by size (the stack's and the usual heap sizes); a pooled buffer is all zero.
var bufferPools sync.Map // int -> *sync.Pool

func getBuffer(n int) []byte {
	if n == 0 {
		return nil
	}
	if p, ok := bufferPools.Load(n); ok {
		if b, ok := p.(*sync.Pool).Get().(*[]byte); ok {
			return *b
		}
	}
	return make([]byte, n)
}

// putBuffer clears the first dirty bytes of b (the rest was never written) and pools it.
func putBuffer(b []byte, dirty uint64) {
	if len(b) == 0 {
		return
	}
	if dirty > uint64(len(b)) {
		dirty = uint64(len(b))
	}
	clear(b[:dirty])
	p, _ := bufferPools.LoadOrStore(len(b), &sync.Pool{})
	p.(*sync.Pool).Put(&b)
}

// errAlreadyRan guards the one-execution contract of a VM.
var errAlreadyRan = errors.New("sbpf: a VM runs once")

func (vm *VM) run() (uint64, error) {
	if vm.ran {
		return 0, errAlreadyRan
	}
	if vm.released {
		return 0, errReleased
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
