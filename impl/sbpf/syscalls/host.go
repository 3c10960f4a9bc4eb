package syscalls

import (
	"ledgerd/impl/core"
	"ledgerd/impl/core/sat"
	"ledgerd/impl/sbpf"
)

// Host is what the syscalls need from the runtime that runs the VM; the runtime hands it to
// sbpf.NewVM as Params.Host. A VM whose Host does not implement it fails every syscall that
// needs the runtime with ErrNoHost.
type Host interface {
	// Log appends one line to the transaction's log collector, which applies its own size limit.
	// Lines come formatted ("Program log: ...", "Program data: ...", "Program consumption: ...").
	Log(line string)
	// CheckAligned reports whether pointers handed to syscalls must be aligned to their type:
	// true except for programs owned by the deprecated loader (BPFLoader1111...).
	CheckAligned() bool
	// StackHeight is the invoke stack height of the running instruction (1 for a top-level one).
	StackHeight() uint64
	// InstructionTraceLength and TracedInstruction expose the transaction's instruction trace in
	// execution order; its last entry is the running instruction.
	InstructionTraceLength() int
	TracedInstruction(index int) TracedInstruction
	// ReturnData is the transaction's return data and the program that set it.
	ReturnData() (programID core.Pubkey, data []byte)
	// SetReturnData replaces the return data with data, attributed to the running program.
	SetReturnData(data []byte) error
	// SysvarData is the account data of a sysvar in the runtime's sysvar cache (false if the cache
	// does not hold it).
	SysvarData(id core.Pubkey) ([]byte, bool)
	// EpochStake is the current epoch's active stake delegated to a vote account (0 for an
	// unknown or non-vote account), or the total active stake when vote is nil.
	EpochStake(vote *core.Pubkey) uint64
	// Allocator is the bump allocator of sol_alloc_free_ over this execution's heap (one per VM).
	Allocator() *Allocator
	// Invoke performs a cross-program invocation for sol_invoke_signed_c / sol_invoke_signed_rust:
	// it receives the VM and the syscall's five arguments (instruction, account infos and their
	// count, signer seeds and their count) and does everything the reference's CPI does, its compute
	// units included.
	Invoke(vm *sbpf.VM, abi CPIABI, a1, a2, a3, a4, a5 uint64) (uint64, error)
}

// CPIABI tells the C layout of sol_invoke_signed_c from the Rust layout of sol_invoke_signed_rust.
type CPIABI uint8

const (
	CPIRust CPIABI = iota
	CPIC
)

// TracedInstruction is one instruction of the transaction's trace, as sibling lookups see it.
type TracedInstruction struct {
	StackHeight uint64
	ProgramID   core.Pubkey
	Data        []byte
	Accounts    []AccountMeta
}

// AccountMeta is an instruction account as sol_get_processed_sibling_instruction writes it
// (pubkey, is_signer, is_writable: 34 bytes).
type AccountMeta struct {
	Pubkey     core.Pubkey
	IsSigner   bool
	IsWritable bool
}

// Allocator is the reference's BpfAllocator: a bump allocator over the heap region that never
// frees.
type Allocator struct {
	pos, size uint64
}

// NewAllocator makes the allocator of a heap of size bytes.
func NewAllocator(size uint64) *Allocator { return &Allocator{size: size} }

// Alloc returns the VM address of size bytes aligned to align (a power of two), or false when
// the heap cannot hold them.
func (a *Allocator) Alloc(size, align uint64) (uint64, bool) {
	pad := (align - a.pos%align) % align
	if sat.Add(sat.Add(a.pos, pad), size) > a.size {
		return 0, false
	}
	a.pos += pad
	addr := sbpf.MMHeapStart + a.pos
	a.pos += size
	return addr, true
}

// Features are the feature gates that change which syscalls exist or how they behave, named
// after the reference's feature names.
type Features struct {
	Blake3Syscall              bool // blake3_syscall_enabled: sol_blake3
	Curve25519Syscall          bool // curve25519_syscall_enabled: sol_curve_*
	AltBn128Syscall            bool // enable_alt_bn128_syscall: sol_alt_bn128_group_op
	AltBn128CompressionSyscall bool // enable_alt_bn128_compression_syscall
	BigModExpSyscall           bool // enable_big_mod_exp_syscall
	PoseidonSyscall            bool // enable_poseidon_syscall
	RemainingComputeUnits      bool // remaining_compute_units_syscall_enabled
	GetSysvarSyscall           bool // get_sysvar_syscall_enabled (SIMD-0127)
	GetEpochStakeSyscall       bool // enable_get_epoch_stake_syscall (SIMD-0133)
	LastRestartSlotSysvar      bool // last_restart_slot_sysvar: sol_get_last_restart_slot
	DisableFeesSysvar          bool // disable_fees_sysvar: no sol_get_fees_sysvar
	// DisableDeployOfAllocFree drops sol_alloc_free_ from the deployment environment
	// (disable_deploy_of_alloc_free_syscall); programs already deployed keep it.
	DisableDeployOfAllocFree bool
	AbortOnInvalidCurve      bool // abort_on_invalid_curve: unknown curve ids or ops abort
	AltBn128LittleEndian     bool // alt_bn128_little_endian (SIMD-0284): the op|0x80 variants
	AltBn128G2Syscalls       bool // enable_alt_bn128_g2_syscalls (SIMD-0302): G2 add and mul
	// FixAltBn128PairingLengthCheck rejects pairing inputs that are not whole 192-byte pairs.
	FixAltBn128PairingLengthCheck bool
	PoseidonEnforcePadding        bool // poseidon_enforce_padding (SIMD-0359)
	// StricterABIAndRuntimeConstraints (SIMD-0219) refuses sysvar getters writing into the input
	// region.
	StricterABIAndRuntimeConstraints bool
}

// AllFeatures is the feature set of a fresh test validator and of LiteSVM: every gate on, except
// BLS12-381 (SIMD-0388), whose syscalls ledgerd does not have, and SIMD-0219, which changes the
// VM's memory model.
func AllFeatures() Features {
	return Features{
		Blake3Syscall: true, Curve25519Syscall: true, AltBn128Syscall: true,
		AltBn128CompressionSyscall: true, BigModExpSyscall: true, PoseidonSyscall: true,
		RemainingComputeUnits: true, GetSysvarSyscall: true, GetEpochStakeSyscall: true,
		LastRestartSlotSysvar: true, DisableFeesSysvar: true, DisableDeployOfAllocFree: true,
		AbortOnInvalidCurve: true, AltBn128LittleEndian: true, FixAltBn128PairingLengthCheck: true,
		PoseidonEnforcePadding: true, AltBn128G2Syscalls: true,
	}
}
