package syscalls

import (
	"encoding/binary"
	"math"

	"ledgerd/impl/core/sat"
	"ledgerd/impl/sbpf"
)

// call is the context of one syscall invocation: the VM, its host and whether pointers must be
// aligned. Its helpers translate guest pointers with the reference's rules (translate_type,
// translate_slice and translate_mut of program-runtime's memory module).
type call struct {
	vm      *sbpf.VM
	host    Host
	aligned bool
}

func newCall(vm *sbpf.VM) (call, error) {
	h, ok := vm.Host.(Host)
	if !ok {
		return call{}, ErrNoHost
	}
	return call{vm: vm, host: h, aligned: h.CheckAligned()}, nil
}

// newCharged is newCall followed by the syscall's base cost, the order every syscall starts in.
func newCharged(vm *sbpf.VM, cost uint64) (call, error) {
	c, err := newCall(vm)
	if err != nil {
		return call{}, err
	}
	return c, vm.Consume(cost)
}

// Type alignments of the values syscalls read and write (the reference's align_of on SBF).
const (
	alignU8    = 1
	alignI32   = 4
	alignU64   = 8
	alignU128  = 16 // EpochRewards (repr(C, align(16)))
	vmSliceLen = 16 // VmSlice {ptr u64, len u64}
)

func (c *call) misaligned(addr, align uint64) bool {
	return c.aligned && addr%align != 0
}

// load maps n bytes (one value of an n-byte type) for reading.
func (c *call) load(addr, n, align uint64) ([]byte, error) {
	b, err := c.vm.Translate(addr, n, sbpf.Load)
	if err != nil {
		return nil, err
	}
	if c.misaligned(addr, align) {
		return nil, syscallErr(ErrUnalignedPointer)
	}
	return b, nil
}

// loadSlice maps count elements of size bytes for reading; an empty slice maps nothing, and a
// total size beyond isize::MAX is InvalidLength.
func (c *call) loadSlice(addr, count, size, align uint64) ([]byte, error) {
	if count == 0 {
		return nil, nil
	}
	total := sat.Mul(count, size)
	if total > math.MaxInt64 {
		return nil, syscallErr(ErrInvalidLength)
	}
	return c.load(addr, total, align)
}

// Dest is one destination of a store: Count elements of Size bytes at Addr, aligned to Align.
type Dest struct {
	Addr, Count, Size, Align uint64
}

// store maps every destination for writing, all at once as translate_mut does: first each range
// must be writable (in order), then each aligned, then no two may overlap (CopyOverlapping).
// Empty destinations map to nil.
func (c *call) store(outs ...Dest) ([][]byte, error) {
	res := make([][]byte, len(outs))
	for i, o := range outs {
		if o.Count == 0 {
			continue
		}
		b, err := c.vm.Translate(o.Addr, sat.Mul(o.Count, o.Size), sbpf.Store)
		if err != nil {
			return nil, err
		}
		res[i] = b
	}
	for _, o := range outs {
		if o.Count != 0 && c.misaligned(o.Addr, o.Align) {
			return nil, syscallErr(ErrUnalignedPointer)
		}
	}
	for i := range outs {
		for j := i + 1; j < len(outs); j++ {
			if overlaps(outs[i].Addr, uint64(len(res[i])), outs[j].Addr, uint64(len(res[j]))) {
				return nil, syscallErr(ErrCopyOverlapping)
			}
		}
	}
	return res, nil
}

// store1 is store for a single destination of n bytes (nil when n is 0).
func (c *call) store1(addr, n, align uint64) ([]byte, error) {
	if n == 0 {
		return nil, nil
	}
	b, err := c.vm.Translate(addr, n, sbpf.Store)
	if err != nil {
		return nil, err
	}
	if c.misaligned(addr, align) {
		return nil, syscallErr(ErrUnalignedPointer)
	}
	return b, nil
}

// overlaps is the negation of the reference's is_nonoverlapping: ranges overlap when the
// distance between their starts is below the length of the one that starts first. Empty ranges
// never overlap.
func overlaps(a, alen, b, blen uint64) bool {
	if alen == 0 || blen == 0 {
		return false
	}
	if a > b {
		return a-b < blen
	}
	return b-a < alen
}

// vmSlices reads n VmSlice descriptors at addr and maps each one for reading. check is called
// with each descriptor's length before it is mapped (it may charge or refuse).
func (c *call) vmSlices(addr, n uint64, check func(i int, length uint64) error) ([][]byte, error) {
	desc, err := c.loadSlice(addr, n, vmSliceLen, alignU64)
	if err != nil {
		return nil, err
	}
	res := make([][]byte, n)
	for i := range res {
		ptr := binary.LittleEndian.Uint64(desc[i*vmSliceLen:])
		length := binary.LittleEndian.Uint64(desc[i*vmSliceLen+8:])
		if check != nil {
			if err := check(i, length); err != nil {
				return nil, err
			}
		}
		if res[i], err = c.loadSlice(ptr, length, 1, alignU8); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// vmSliceLens reads the lengths of n VmSlice descriptors without mapping what they point to.
func vmSliceLens(desc []byte) []uint64 {
	lens := make([]uint64, len(desc)/vmSliceLen)
	for i := range lens {
		lens[i] = binary.LittleEndian.Uint64(desc[i*vmSliceLen+8:])
	}
	return lens
}

// Memory is the syscalls' pointer translation, for code outside this package that implements a
// syscall through Host (cross-program invocation): the reference's translate_type (Load),
// translate_slice (LoadSlice) and translate_mut (Store), with their order of checks and errors.
type Memory struct{ c call }

// NewMemory translates pointers of vm, checking alignment when checkAligned (see
// Host.CheckAligned).
func NewMemory(vm *sbpf.VM, checkAligned bool) *Memory {
	return &Memory{call{vm: vm, aligned: checkAligned}}
}

// Load maps one n-byte value at addr for reading (access violation, then UnalignedPointer).
func (m *Memory) Load(addr, n, align uint64) ([]byte, error) { return m.c.load(addr, n, align) }

// LoadSlice maps count elements of size bytes for reading; nothing for none, InvalidLength
// beyond isize::MAX bytes.
func (m *Memory) LoadSlice(addr, count, size, align uint64) ([]byte, error) {
	return m.c.loadSlice(addr, count, size, align)
}

// Store maps every destination for writing: each must be writable, then aligned, then no two
// may overlap (CopyOverlapping). Empty destinations map to nil.
func (m *Memory) Store(dsts ...Dest) ([][]byte, error) { return m.c.store(dsts...) }
