package syscalls

import (
	"errors"
	"slices"
	"testing"

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
