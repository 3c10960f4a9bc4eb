package syscalls

import (
	"encoding/binary"
	"errors"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/sbpf"
)

// fakeHost records what syscalls hand the runtime.
type fakeHost struct {
	logs       []string
	unaligned  bool
	height     uint64
	trace      []TracedInstruction
	programID  core.Pubkey
	retProgram core.Pubkey
	retData    []byte
	sysvars    map[core.Pubkey][]byte
	stakes     map[core.Pubkey]uint64
	total      uint64
	alloc      *Allocator
	invoked    []uint64
}

func (h *fakeHost) Log(line string)                           { h.logs = append(h.logs, line) }
func (h *fakeHost) CheckAligned() bool                        { return !h.unaligned }
func (h *fakeHost) StackHeight() uint64                       { return h.height }
func (h *fakeHost) InstructionTraceLength() int               { return len(h.trace) }
func (h *fakeHost) TracedInstruction(i int) TracedInstruction { return h.trace[i] }
func (h *fakeHost) ReturnData() (core.Pubkey, []byte)         { return h.retProgram, h.retData }
func (h *fakeHost) SetReturnData(d []byte) error {
	h.retProgram, h.retData = h.programID, d
	return nil
}
func (h *fakeHost) SysvarData(id core.Pubkey) ([]byte, bool) { d, ok := h.sysvars[id]; return d, ok }
func (h *fakeHost) EpochStake(v *core.Pubkey) uint64 {
	if v == nil {
		return h.total
	}
	return h.stakes[*v]
}
func (h *fakeHost) Allocator() *Allocator { return h.alloc }
func (h *fakeHost) Invoke(_ *sbpf.VM, abi CPIABI, a1, a2, a3, a4, a5 uint64) (uint64, error) {
	h.invoked = append(h.invoked, uint64(abi), a1, a2, a3, a4, a5)
	return 42, nil
}

// Memory of a test VM: the input region (writable) holds the test's bytes at in; the program
// region (read-only) holds ro at roAddr.
const (
	in     = sbpf.MMInputStart
	roAddr = sbpf.MMBytecodeStart
	heap   = sbpf.MMHeapStart
)

type env struct {
	t     testing.TB
	vm    *sbpf.VM
	host  *fakeHost
	meter *sbpf.Meter
	input []byte
}

// newEnv makes a VM (never run) whose input region is a copy of input and whose program region
// is ro (8-byte multiple, exit-padded), with budget compute units.
func newEnv(t testing.TB, input, ro []byte, budget uint64) *env {
	t.Helper()
	text := append([]byte(nil), ro...)
	for len(text)%8 != 0 || len(text) == 0 {
		text = append(text, 0)
	}
	exe := sbpf.NewExecutableFromText(text, sbpf.V0, nil)
	loader := sbpf.NewLoader(sbpf.DefaultConfig())
	h := &fakeHost{height: 1, alloc: NewAllocator(sbpf.DefaultHeapSize), sysvars: map[core.Pubkey][]byte{}, stakes: map[core.Pubkey]uint64{}}
	e := &env{t: t, host: h, meter: &sbpf.Meter{Remaining: budget}, input: append([]byte(nil), input...)}
	vm, err := sbpf.NewVM(exe, loader, sbpf.Params{
		Input: []sbpf.Region{{VMAddr: in, Data: e.input, Writable: true}},
		Meter: e.meter,
		Host:  h,
	})
	if err != nil {
		t.Fatal(err)
	}
	e.vm = vm
	return e
}

// call runs a syscall and returns r0, its error and the units it charged.
func (e *env) call(fn sbpf.Syscall, a ...uint64) (uint64, error, uint64) {
	var args [5]uint64
	copy(args[:], a)
	before := e.meter.Remaining
	r0, err := fn(e.vm, args[0], args[1], args[2], args[3], args[4])
	return r0, err, before - e.meter.Remaining
}

// mustCall runs a syscall that must succeed with the given cost.
func (e *env) mustCall(name string, fn sbpf.Syscall, cost uint64, a ...uint64) uint64 {
	e.t.Helper()
	r0, err, used := e.call(fn, a...)
	if err != nil {
		e.t.Fatalf("%s: %v", name, err)
	}
	if used != cost {
		e.t.Errorf("%s charged %d units, want %d", name, used, cost)
	}
	return r0
}

// putSlices lays out VmSlice descriptors for parts: the descriptors at off, the bytes after them.
func putSlices(buf []byte, off int, parts ...[]byte) []byte {
	data := off + 16*len(parts)
	for i, p := range parts {
		binary.LittleEndian.PutUint64(buf[off+16*i:], in+uint64(data))
		binary.LittleEndian.PutUint64(buf[off+16*i+8:], uint64(len(p)))
		data += copy(buf[data:], p)
	}
	return buf
}

func wantKind(t *testing.T, name string, err error, kind ErrorKind) {
	t.Helper()
	if !errors.Is(err, &Error{Kind: kind}) {
		t.Errorf("%s: error %v, want %v", name, err, (&Error{Kind: kind}).Error())
	}
}

func wantVMKind(t *testing.T, name string, err error, kind sbpf.ErrorKind) {
	t.Helper()
	if sbpf.KindOf(err) != kind {
		t.Errorf("%s: error %v, want VM error kind %d", name, err, kind)
	}
}

func wantBudget(t *testing.T, name string, err error) {
	t.Helper()
	if !errors.Is(err, sbpf.ErrComputationalBudgetExceeded) {
		t.Errorf("%s: error %v, want the budget exceeded", name, err)
	}
}
