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
	meter  *Meter
	mem    memory
	st     interp // registers, pc, call depth and the interpreter's view of the program
	used   uint64
	ran    bool

	// stack and heap are pooled buffers, handed back cleared on Release; regionBuf and frameBuf
	// back the memory map and the call frames, so that a pooled VM allocates nothing.
	stack, heap []byte
	released    bool
	regionBuf   [6]memRegion
	frameBuf    [64]callFrame
}

// callFrame is what call/callx save and exit restores.
type callFrame struct {
	saved [4]uint64 // r6..r9
	fp    uint64    // r10
	ret   uint64    // instruction to resume at
}

// vmPool recycles released VMs with their stack and heap.
var vmPool sync.Pool

func newVM(exe *Executable, loader *Loader, p Params) (*VM, error) {
	if exe == nil || loader == nil {
		return nil, errors.New("sbpf: NewVM needs an executable and a loader")
	}
	if p.Meter == nil {
		return nil, errors.New("sbpf: NewVM needs a compute meter")
	}
	cfg := &loader.Config
	if cfg.MaxCallDepth < 1 || cfg.StackFrameSize < 1 || cfg.MaxCallDepth > 1<<16 || cfg.StackFrameSize > 1<<20 {
		return nil, fmt.Errorf("sbpf: invalid config: max call depth %d, stack frame size %d", cfg.MaxCallDepth, cfg.StackFrameSize)
	}
	heapSize := p.HeapSize
	if heapSize == 0 {
		heapSize = DefaultHeapSize
	}
	if heapSize < 0 || heapSize > MaxHeapSize {
		return nil, fmt.Errorf("sbpf: invalid heap size %d", heapSize)
	}
	var gap uint64
	if exe.Version.StackFrameGaps() && cfg.EnableStackFrameGaps {
		gap = uint64(cfg.StackFrameSize)
		if gap&(gap-1) != 0 {
			return nil, fmt.Errorf("sbpf: stack frame size %d is not a power of two", gap)
		}
	}

	vm, _ := vmPool.Get().(*VM)
	if vm == nil {
		vm = new(VM)
	}
	if len(vm.stack) != cfg.StackSize() {
		putBuffer(vm.stack, 0)
		vm.stack = getBuffer(cfg.StackSize())
	}
	if len(vm.heap) != heapSize {
		putBuffer(vm.heap, 0)
		vm.heap = getBuffer(heapSize)
	}
	var fixed [3]Region
	fixed[0] = Region{VMAddr: exe.ROVAddr, Data: exe.RO}
	fixed[1] = Region{VMAddr: MMStackStart, Data: vm.stack, Writable: true, GapSize: gap}
	fixed[2] = Region{VMAddr: MMHeapStart, Data: vm.heap, Writable: true}
	regions := fixed[:]
	if len(p.Input) > 0 {
		regions = append(make([]Region, 0, 3+len(p.Input)), fixed[:]...)
		regions = append(regions, p.Input...)
	}
	if err := vm.mem.init(vm.regionBuf[:0], regions, cfg, exe.Version); err != nil {
		vm.reset()
		vmPool.Put(vm)
		return nil, err
	}

	vm.Host, vm.exe, vm.loader, vm.meter = p.Host, exe, loader, p.Meter
	vm.used, vm.ran, vm.released = 0, false, false
	frames := vm.frameBuf[:]
	if cfg.MaxCallDepth > len(frames) {
		frames = make([]callFrame, cfg.MaxCallDepth)
	}
	st := &vm.st
	*st = interp{
		pc:         exe.EntryPC,
		frames:     frames,
		maxDepth:   cfg.MaxCallDepth,
		manualBump: exe.Version.ManualStackFrameBump(),
		frameBump:  uint64(cfg.StackFrameSize),
		textVAddr:  exe.TextVAddr,
	}
	if vm.mem.aligned {
		st.regs = vm.mem.regions
	}
	if gap != 0 {
		st.frameBump *= 2
	}
	if exe.Version.CallxUsesSrcReg() {
		st.callxField = 1
	} else if exe.Version.CallxUsesDstReg() {
		st.callxField = 2
	}
	st.reg[1] = MMInputStart
	st.reg[2] = p.R2
	if exe.Version.ManualStackFrameBump() {
		st.reg[10] = MMStackStart + uint64(len(vm.stack))
	} else {
		st.reg[10] = MMStackStart + uint64(cfg.StackFrameSize)
	}
	return vm, nil
}

func (vm *VM) translate(addr, n uint64, access AccessType) ([]byte, error) {
	if vm.released {
		return nil, errReleased
	}
	return vm.mem.mapRange(addr, n, access)
}

var errReleased = errors.New("sbpf: the VM was released")

// release clears what the execution wrote to the stack and heap and pools the VM.
func (vm *VM) release() {
	if vm.released {
		return
	}
	vm.reset()
	vmPool.Put(vm)
}

// reset leaves the VM holding only its (zeroed) stack and heap buffers.
func (vm *VM) reset() {
	for i := range vm.mem.regions {
		r := &vm.mem.regions[i]
		if len(r.data) == 0 || r.dirty == 0 {
			continue
		}
		if (len(vm.stack) > 0 && &r.data[0] == &vm.stack[0]) || (len(vm.heap) > 0 && &r.data[0] == &vm.heap[0]) {
			clear(r.data[:min(r.dirty, uint64(len(r.data)))])
		}
	}
	// Drop every reference to the caller's data so a pooled VM retains nothing.
	vm.regionBuf = [6]memRegion{}
	vm.mem = memory{}
	vm.st = interp{}
	vm.Host, vm.exe, vm.loader, vm.meter = nil, nil, nil, nil
	vm.released = true
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

// putBuffer pools a buffer that is all zero.
func putBuffer(b []byte, dirty uint64) {
	if len(b) == 0 {
		return
	}
	clear(b[:min(dirty, uint64(len(b)))])
	p, _ := bufferPools.LoadOrStore(len(b), &sync.Pool{})
	p.(*sync.Pool).Put(&b)
}

// errAlreadyRan guards the one-execution contract of a VM.
var errAlreadyRan = errors.New("sbpf: a VM runs once")

func (vm *VM) run() (uint64, error) {
	if vm.released {
		return 0, errReleased
	}
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
