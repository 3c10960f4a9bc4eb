package syscalls

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/sbpf"
)

// runProgram assembles src, registers the syscalls of all features and runs it over input.
func runProgram(t *testing.T, src string, input []byte, budget uint64) (uint64, error, *fakeHost, []byte, *sbpf.VM) {
	t.Helper()
	a, err := sbpf.Assemble(src)
	if err != nil {
		t.Fatal(err)
	}
	loader := sbpf.NewLoader(sbpf.DefaultConfig())
	if err := Register(loader, AllFeatures(), false); err != nil {
		t.Fatal(err)
	}
	exe := a.Executable(sbpf.V0)
	if err := sbpf.Verify(exe, loader); err != nil {
		t.Fatal(err)
	}
	h := &fakeHost{height: 1, alloc: NewAllocator(sbpf.DefaultHeapSize)}
	data := append([]byte(nil), input...)
	vm, err := sbpf.NewVM(exe, loader, sbpf.Params{
		Input: []sbpf.Region{{VMAddr: sbpf.MMInputStart, Data: data, Writable: true}},
		Meter: &sbpf.Meter{Remaining: budget},
		Host:  h,
	})
	if err != nil {
		t.Fatal(err)
	}
	r0, err := vm.Run()
	return r0, err, h, data, vm
}

// Syscalls dispatched by the interpreter: arguments in r1..r5, the result in r0, their costs on
// top of one unit per instruction (the call included).
func TestSyscallsFromAProgram(t *testing.T) {
	t.Parallel()
	src := `
		mov64 r6, r1
		mov64 r2, 5
		call sol_log_
		mov64 r1, r6
		add64 r1, 16
		mov64 r2, r6
		mov64 r3, 5
		call sol_memcpy_
		call sol_remaining_compute_units
		exit
	`
	input := make([]byte, 32)
	copy(input, "hello")
	r0, err, h, data, vm := runProgram(t, src, input, 10_000)
	if err != nil {
		t.Fatal(err)
	}
	// 10 instructions, sol_log_ 100, memcpy 10, remaining 100.
	if used := vm.Used(); used != 10+100+10+100 {
		t.Errorf("used %d units, want 220", used)
	}
	if r0 != 10_000-(9+100+10+100) {
		t.Errorf("r0 = %d: the units left after its own charge (exit not yet counted)", r0)
	}
	if string(data[16:21]) != "hello" || !slices.Equal(h.logs, []string{"Program log: hello"}) {
		t.Errorf("memory %q, logs %q", data[16:21], h.logs)
	}
}

func TestSyscallFailuresAbortTheProgram(t *testing.T) {
	t.Parallel()
	_, err, _, _, _ := runProgram(t, `
		mov64 r2, r1
		add64 r2, 4
		mov64 r3, 8
		call sol_memcpy_
		exit
	`, make([]byte, 32), 10_000)
	if sbpf.KindOf(err) != sbpf.ErrSyscall || !errors.Is(err, &Error{Kind: ErrCopyOverlapping}) {
		t.Errorf("overlapping memcpy in a program: %v", err)
	}
	_, err, _, _, vm := runProgram(t, `
		mov64 r2, 1000
		call sol_log_
		exit
	`, make([]byte, 32), 500)
	if !errors.Is(err, sbpf.ErrComputationalBudgetExceeded) || vm.Remaining() != 0 {
		t.Errorf("log beyond the budget: %v, %d left", err, vm.Remaining())
	}
	_, err, _, _, _ = runProgram(t, `
		lddw r1, 0x500000000
		mov64 r2, 4
		call sol_log_
		exit
	`, make([]byte, 32), 10_000)
	if sbpf.KindOf(err) != sbpf.ErrSyscall || !errors.As(err, new(*sbpf.Error)) {
		t.Errorf("log of unmapped memory: %v", err)
	}
	var inner *sbpf.Error
	if errors.As(errors.Unwrap(err), &inner) && inner.Kind != sbpf.ErrAccessViolation {
		t.Errorf("inner error %v, want an access violation", inner)
	}
	_, err, _, _, _ = runProgram(t, "call abort\nexit", nil, 100)
	if !errors.Is(err, &Error{Kind: ErrAbort}) {
		t.Errorf("abort: %v", err)
	}
}

// The usual shape of real programs: descriptors and results on the stack (its frames are gapped
// in v0), inputs in the input region.
func TestSyscallsOnTheStack(t *testing.T) {
	t.Parallel()
	src := `
		mov64 r6, r1
		# a VmSlice {ptr, len} of the first 5 input bytes at r10-16
		stxdw [r10-16], r6
		mov64 r2, 5
		stxdw [r10-8], r2
		# sol_sha256(&slice, 1, r10-48)
		mov64 r1, r10
		add64 r1, -16
		mov64 r2, 1
		mov64 r3, r10
		add64 r3, -48
		call sol_sha256
		# copy the hash to input+64
		mov64 r1, r6
		add64 r1, 64
		mov64 r2, r10
		add64 r2, -48
		mov64 r3, 32
		call sol_memcpy_
		# the clock onto the stack, then to input+96
		mov64 r1, r10
		add64 r1, -96
		call sol_get_clock_sysvar
		mov64 r1, r6
		add64 r1, 96
		mov64 r2, r10
		add64 r2, -96
		mov64 r3, 40
		call sol_memcpy_
		mov64 r0, 0
		exit
	`
	input := make([]byte, 160)
	copy(input, "hello")
	a, err := sbpf.Assemble(src)
	if err != nil {
		t.Fatal(err)
	}
	loader := sbpf.NewLoader(sbpf.DefaultConfig())
	if err := Register(loader, AllFeatures(), false); err != nil {
		t.Fatal(err)
	}
	clock := make([]byte, 40)
	putU64s(clock, 77, 1, 2, 3, 1700000000)
	h := &fakeHost{height: 1, sysvars: map[core.Pubkey][]byte{core.SysvarClockID: clock}}
	vm, err := sbpf.NewVM(a.Executable(sbpf.V0), loader, sbpf.Params{
		Input: []sbpf.Region{{VMAddr: sbpf.MMInputStart, Data: input, Writable: true}},
		Meter: &sbpf.Meter{Remaining: 100_000},
		Host:  h,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := vm.Run(); err != nil {
		t.Fatal(err)
	}
	if want := Hashv(SHA256, []byte("hello")); !bytes.Equal(input[64:96], want[:]) {
		t.Errorf("sha256 through the stack = %x, want %x", input[64:96], want)
	}
	if !bytes.Equal(input[96:136], clock) {
		t.Errorf("clock through the stack = %v", input[96:136])
	}
	// 27 instructions, sha256 85+10, two memcpy 10 each, clock 140.
	if used := vm.Used(); used != 27+95+20+140 {
		t.Errorf("used %d units, want %d", used, 27+95+20+140)
	}
}
