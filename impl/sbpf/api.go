package sbpf

import (
	"fmt"
	"sync"
)

// This file is the package's contract with its users: the ELF loader and assembler (which produce
// an Executable), the syscalls (which receive a *VM) and the runtime (which registers syscalls on a
// Loader and runs VMs). Keep it stable; behaviour lives in the other files.

// Memory map constants: a VM address is region index << 32 | offset.
const (
	// VirtualAddressBits is the width of the offset inside one region.
	VirtualAddressBits = 32
	// RegionSize is the VM address space of one region (4 GiB).
	RegionSize uint64 = 1 << VirtualAddressBits
	// MMRodataStart is where v3+ programs see their read-only data.
	MMRodataStart uint64 = 0
	// MMBytecodeStart is the program region: the ELF's read-only sections (v0-v2) or the bytecode (v3+).
	MMBytecodeStart uint64 = RegionSize
	// MMStackStart is the start of the stack region.
	MMStackStart uint64 = RegionSize * 2
	// MMHeapStart is the start of the heap region.
	MMHeapStart uint64 = RegionSize * 3
	// MMInputStart is the start of the input region (the serialized instruction); r1 points here.
	MMInputStart uint64 = RegionSize * 4

	// InsnSize is the size of one instruction slot in bytes.
	InsnSize = 8
	// DefaultHeapSize is the heap given to a program unless the transaction requests more.
	DefaultHeapSize = 32 * 1024
	// MaxHeapSize is the largest heap a transaction may request.
	MaxHeapSize = 256 * 1024
	// EntrypointHash is HashSymbolName("entrypoint"), the function-registry key of the entry point.
	EntrypointHash uint32 = 0x71e3cf81
)

// Version is the SBPF version of an executable, read from the ELF e_flags.
type Version uint8

const (
	V0       Version = 0 // the legacy format every deployed program uses
	V1       Version = 1 // SIMD-0166: dynamic stack frames
	V2       Version = 2 // SIMD-0174, SIMD-0173: arithmetic and encoding changes
	V3       Version = 3 // SIMD-0178, SIMD-0189, SIMD-0377: static syscalls, strict ELF, jmp32
	V4       Version = 4 // SIMD-0177: aligned memory mapping mandatory
	Reserved Version = 5 // any e_flags value above 4
)

// VersionFromELFFlags maps an ELF e_flags value to a Version (Reserved for unknown values).
func VersionFromELFFlags(flags uint32) Version {
	if flags <= 4 {
		return Version(flags)
	}
	return Reserved
}

func (v Version) String() string {
	switch v {
	case V0, V1, V2, V3, V4:
		return "V" + string(rune('0'+v))
	}
	return "Reserved"
}

// Feature predicates, named as the reference names them.

// ManualStackFrameBump: r10 does not move on calls; the program moves it with add64 r10, imm.
func (v Version) ManualStackFrameBump() bool { return v == V1 || v == V2 }

// StackFrameGaps: each 4 KiB stack frame is followed by an unmapped 4 KiB gap.
func (v Version) StackFrameGaps() bool { return v == V0 }

// EnablePQR: the product/quotient/remainder class replaces mul/div/mod in the ALU classes.
func (v Version) EnablePQR() bool { return v == V2 }

// ExplicitSignExtensionOfResults: 32-bit ALU results are zero-extended, mov32 reg sign-extends.
func (v Version) ExplicitSignExtensionOfResults() bool { return v == V2 }

// SwapSubRegImmOperands: sub imm computes imm - dst.
func (v Version) SwapSubRegImmOperands() bool { return v == V2 }

// DisableNeg: neg32/neg64 are removed.
func (v Version) DisableNeg() bool { return v == V2 }

// CallxUsesSrcReg: callx takes its target register from the src field.
func (v Version) CallxUsesSrcReg() bool { return v == V2 }

// DisableLDDW: lddw is removed (hor64 replaces it).
func (v Version) DisableLDDW() bool { return v == V2 }

// DisableLE: the le instruction is removed.
func (v Version) DisableLE() bool { return v == V2 }

// MoveMemoryInstructionClasses: loads and stores use the ALU opcodes' free slots.
func (v Version) MoveMemoryInstructionClasses() bool { return v == V2 }

// StaticSyscalls: call src=0 is a syscall by hash, src=1 a relative call.
func (v Version) StaticSyscalls() bool { return v >= V3 }

// EnableStricterELFHeaders: the strict ELF parser is used.
func (v Version) EnableStricterELFHeaders() bool { return v >= V3 }

// EnableLowerRodataVaddr: read-only data is mapped at 0, bytecode at 0x1_0000_0000.
func (v Version) EnableLowerRodataVaddr() bool { return v >= V3 }

// EnableJMP32: the 32-bit jump class (opcode class 0x06) exists.
func (v Version) EnableJMP32() bool { return v >= V3 }

// CallxUsesDstReg: callx takes its target register from the dst field.
func (v Version) CallxUsesDstReg() bool { return v >= V3 }

// AccessType tells a load from a store in memory translation and in access-violation errors.
type AccessType uint8

const (
	Load AccessType = iota
	Store
)

// String is the word the reference's error messages use ("reading" / "writing").
func (a AccessType) String() string {
	if a == Store {
		return "writing"
	}
	return "reading"
}

// Region maps host bytes into the VM address space at VMAddr. Callers build input regions; the VM
// builds the program, stack and heap regions itself.
type Region struct {
	VMAddr   uint64
	Data     []byte
	Writable bool
	// GapSize, when non-zero (a power of two), makes the region gapped: in the VM address space
	// every GapSize bytes of Data are followed by GapSize unmapped bytes (the v0 stack).
	GapSize uint64
}

// Config is the VM configuration of a Loader (the reference's Config, restricted to what affects
// behaviour here).
type Config struct {
	// MaxCallDepth is the number of call frames; reaching it is CallDepthExceeded (default 64).
	MaxCallDepth int
	// StackFrameSize is the size of one stack frame in bytes (default 4096).
	StackFrameSize int
	// EnableStackFrameGaps maps v0 stack frames with gaps (default true).
	EnableStackFrameGaps bool
	// RejectBrokenELFs is the deployment-time strictness of the ELF loader (unresolved symbols
	// fail the load instead of faulting when called).
	RejectBrokenELFs bool
	// MinVersion and MaxVersion bound the SBPF versions the ELF loader accepts
	// (UnsupportedSBPFVersion otherwise).
	MinVersion, MaxVersion Version
}

// DefaultConfig is the configuration Agave runs programs with on mainnet (only v0 enabled).
// LiteSVM, with every feature on, deploys and runs v0 to v3 (MaxVersion V3); the differential
// test against it checks all four.
func DefaultConfig() Config {
	return Config{
		MaxCallDepth:         64,
		StackFrameSize:       4096,
		EnableStackFrameGaps: true,
		MinVersion:           V0,
		MaxVersion:           V0,
	}
}

// StackSize is the host size of the stack region.
func (c *Config) StackSize() int { return c.StackFrameSize * c.MaxCallDepth }

// VersionEnabled reports whether executables of version v may be loaded under this config.
func (c *Config) VersionEnabled(v Version) bool {
	return v != Reserved && v >= c.MinVersion && v <= c.MaxVersion
}

// Syscall is a function a program calls with `call imm` (imm = HashSymbolName(name)). It receives
// r1..r5 and returns the value for r0. A non-nil error aborts the program: Run returns an *Error of
// kind ErrSyscall wrapping it (errors.As / errors.Is reach the syscall's own error).
type Syscall func(vm *VM, a1, a2, a3, a4, a5 uint64) (uint64, error)

// SyscallEntry is one registered syscall.
type SyscallEntry struct {
	Name string
	Fn   Syscall
}

// Loader is the reference's "built-in program" of a loader: the configuration executables are
// loaded and run with, and the syscalls they may call, keyed by HashSymbolName(name). The runtime
// builds one for execution and a stricter one for deployment, once, and reuses them (an
// executable prepares itself per loader, and caches that for a few loaders). A Loader must not be
// changed after executables were loaded with it; it is safe for concurrent use afterwards.
type Loader struct {
	Config   Config
	syscalls map[uint32]SyscallEntry
}

// NewLoader makes a loader with the given configuration and no syscalls.
func NewLoader(cfg Config) *Loader {
	return &Loader{Config: cfg, syscalls: make(map[uint32]SyscallEntry)}
}

// Register adds a syscall under HashSymbolName(name). Registering a second, different name with
// the same hash is a SymbolHashCollision error; re-registering a name replaces its function.
func (l *Loader) Register(name string, fn Syscall) error {
	key := HashSymbolName([]byte(name))
	if old, ok := l.syscalls[key]; ok && old.Name != name {
		return fmt.Errorf("Symbol hash collision %#x", key)
	}
	l.syscalls[key] = SyscallEntry{Name: name, Fn: fn}
	return nil
}

// Unregister removes a syscall by name (the deployment environment drops sol_alloc_free_).
func (l *Loader) Unregister(name string) bool {
	key := HashSymbolName([]byte(name))
	if old, ok := l.syscalls[key]; ok && old.Name == name {
		delete(l.syscalls, key)
		return true
	}
	return false
}

// Lookup finds a syscall by key.
func (l *Loader) Lookup(key uint32) (SyscallEntry, bool) {
	e, ok := l.syscalls[key]
	return e, ok
}

// Executable is a loaded, relocated program, ready to verify and run. It must not be changed once
// a VM ran it (the interpreter caches a decoded copy of Text) and may be shared by any number of
// VMs, concurrently.
type Executable struct {
	Version Version
	// Text is the relocated bytecode (.text), a multiple of 8 bytes.
	Text []byte
	// TextVAddr is the VM address of Text[0] (callx targets are relative to it).
	TextVAddr uint64
	// RO is the read-only region mapped at ROVAddr: for v0-v2 the ELF's .text/.rodata/
	// .data.rel.ro/.eh_frame laid out at their vaddr (so it contains Text), for v3+ the rodata.
	RO      []byte
	ROVAddr uint64
	// EntryPC is the instruction index where execution starts.
	EntryPC uint64
	// Functions maps `call imm` keys to instruction indexes (BPF-to-BPF calls in v0-v2).
	Functions map[uint32]uint64
	// SyscallKeys lists the syscall hashes the ELF's relocations reference (informational).
	SyscallKeys []uint32

	decodeOnce sync.Once
	prog       []uint64 // Text in the interpreter's form, filled once by program()
	resolvedMu sync.Mutex
	resolved   map[*Loader]*prepared // prog with calls resolved per loader (programFor)
}

// NewExecutableFromText builds an executable from raw bytecode, as the reference's
// new_from_text_bytes does: the text is mapped read-only at MMBytecodeStart (or MMRodataStart
// in v3+) and starts at MMBytecodeStart; the entry point is functions[EntrypointHash] if present,
// else instruction 0 (registered under EntrypointHash for v0-v2). functions may be nil.
func NewExecutableFromText(text []byte, version Version, functions map[uint32]uint64) *Executable {
	fns := make(map[uint32]uint64, len(functions)+1)
	for k, v := range functions {
		fns[k] = v
	}
	var entry uint64
	if pc, ok := fns[EntrypointHash]; ok {
		entry = pc
	} else if !version.StaticSyscalls() {
		fns[EntrypointHash] = 0
	}
	ro := MMBytecodeStart
	if version.EnableLowerRodataVaddr() {
		ro = MMRodataStart
	}
	t := append([]byte(nil), text...)
	return &Executable{Version: version, Text: t, TextVAddr: MMBytecodeStart, RO: t, ROVAddr: ro,
		EntryPC: entry, Functions: fns}
}

// Verify runs the reference's RequisiteVerifier over exe.Text for exe.Version. It returns nil or an
// *Error of kind ErrVerifier wrapping a *VerifierError (text "Verifier error: ...", as the
// reference's Executable::verify reports it). The loader is accepted for the reference's shape;
// the requisite checks do not depend on it.
func Verify(exe *Executable, loader *Loader) error {
	if err := verify(exe.Text, exe.Version); err != nil {
		return &Error{Kind: ErrVerifier, PC: err.PC, Err: err}
	}
	return nil
}

// Params are the per-execution inputs of a VM.
type Params struct {
	// Input are the caller's regions (normally one, at MMInputStart, writable).
	Input []Region
	// HeapSize is the heap region's size (DefaultHeapSize when 0).
	HeapSize int
	// Meter is the compute meter the program charges; nested VMs (CPI) share their caller's.
	Meter *Meter
	// Host is the runtime's context, handed to syscalls through VM.Host.
	Host any
	// R2 is r2 at entry: 0, or with SIMD-0321 (provide_instruction_data_offset_in_vm_r2, on in
	// LiteSVM's all-features set) MMInputStart plus the offset of the instruction data in the
	// input.
	R2 uint64
}

// Meter holds the compute units left. The interpreter charges one unit per instruction; syscalls
// charge through VM.Consume.
type Meter struct {
	Remaining uint64
}

// Consume charges units: with fewer left it empties the meter and returns
// ErrComputationalBudgetExceeded (the reference's consume_checked).
func (m *Meter) Consume(units uint64) error {
	if m.Remaining < units {
		m.Remaining = 0
		return ErrComputationalBudgetExceeded
	}
	m.Remaining -= units
	return nil
}

// NewVM prepares one execution of exe: the program region from exe.RO, a zeroed stack (gapped in
// v0), a zeroed heap of p.HeapSize bytes and the caller's input regions; r1 = MMInputStart, r10 =
// the top of the first stack frame (v0, v3+) or of the whole stack (v1, v2). It fails with an
// *Error of kind ErrInvalidMemoryRegion when regions overlap or cannot be mapped.
func NewVM(exe *Executable, loader *Loader, p Params) (*VM, error) { return newVM(exe, loader, p) }

// Run executes the program from exe.EntryPC until exit at depth 0 (returning r0) or a fault
// (returning an *Error with the pc of the faulting instruction). The meter is charged as it runs;
// a VM runs once.
func (vm *VM) Run() (uint64, error) { return vm.run() }

// Translate maps n bytes at VM address addr for a load or a store and returns the host bytes
// (aliasing VM memory: a syscall writes through them). The whole range must lie inside one region
// (and, for a gapped region, start outside a gap); stores need a writable region. Failures are the
// reference's AccessViolation / StackAccessViolation *Error. A zero-length range is checked like
// any other; the reference's syscalls skip translating empty slices altogether, so callers
// should too.
func (vm *VM) Translate(addr, n uint64, access AccessType) ([]byte, error) {
	return vm.translate(addr, n, access)
}

// Release hands the VM, with its stack and heap (cleared as far as they were written), back for
// reuse by a later NewVM. Call it once the results are read and nothing holds bytes from
// Translate, and do not use the VM afterwards (it may already serve another execution). Not
// calling it is fine: the memory is then collected as usual.
func (vm *VM) Release() { vm.release() }

// Consume charges a syscall's compute units (ErrComputationalBudgetExceeded when short; the
// meter is then empty).
func (vm *VM) Consume(units uint64) error { return vm.meter.Consume(units) }

// Remaining is the compute units left on the meter.
func (vm *VM) Remaining() uint64 { return vm.meter.Remaining }

// Meter is the meter this VM charges (nested executions share it).
func (vm *VM) Meter() *Meter { return vm.meter }

// Version is the executable's SBPF version (syscalls check pointer alignment by it).
func (vm *VM) Version() Version { return vm.exe.Version }

// Executable is the program this VM runs.
func (vm *VM) Executable() *Executable { return vm.exe }

// Loader is the loader this VM runs under.
func (vm *VM) Loader() *Loader { return vm.loader }

// Used is the compute units Run took off the meter: instructions, syscall costs and whatever
// nested executions charged while it ran.
func (vm *VM) Used() uint64 { return vm.used }

// CallDepth is the current BPF-to-BPF call depth (0 in the entry function).
func (vm *VM) CallDepth() int { return vm.st.depth }

// Register returns register r (0..10) as the program sees it; inside a syscall r1..r5 are the
// arguments.
func (vm *VM) Register(r int) uint64 { return vm.st.reg[r&15] }
