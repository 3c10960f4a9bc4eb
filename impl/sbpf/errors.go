package sbpf

import (
	"errors"
	"fmt"
)

// ErrorKind is the reference's EbpfError variant.
type ErrorKind uint8

const (
	ErrELF                       ErrorKind = iota + 1 // loading failed; Err is the ELF loader's error
	ErrFunctionAlreadyRegistered                      // a function key was registered twice
	ErrCallDepthExceeded                              // call or callx at max depth
	ErrExitRootCallFrame                              // kept for the reference's list; never raised
	ErrDivideByZero                                   // div/mod by a zero register
	ErrDivideOverflow                                 // signed MIN / -1 (v2 PQR)
	ErrExecutionOverrun                               // pc ran past the end of the text
	ErrCallOutsideTextSegment                         // call/callx target outside the text
	ErrExceededMaxInstructions                        // the compute meter ran out
	ErrInvalidMemoryRegion                            // regions overlap or do not fit their slot
	ErrAccessViolation                                // load/store outside a mapped range, or to read-only memory
	ErrStackAccessViolation                           // the same, for an address in the v0/v3 stack frames
	ErrInvalidInstruction                             // le/be with a width other than 16/32/64
	ErrUnsupportedInstruction                         // unknown opcode, or call imm resolving to nothing
	ErrVerifier                                       // Err is a *VerifierError
	ErrSyscall                                        // Err is the syscall's error
)

// Error is a VM failure. Error() is the reference's Display text; PC is the instruction index
// where it happened (not part of the text, as in the reference).
//
// What the reference (LiteSVM 1.5.0) makes of a failed run, as the differential test pins it:
// the "Program X consumed N of M compute units" line counts what the VM used (VM.Used); the
// "Program X failed: ..." line carries Error() for a VM fault, but the syscall's own error text
// (errors.Unwrap) for ErrSyscall; the instruction error is ProgramFailedToComplete, except for
// a syscall error that is itself an instruction error (ErrComputationalBudgetExceeded:
// ComputationalBudgetExceeded); and after a VM fault other than ErrSyscall the meter is emptied,
// so the transaction's units are the whole budget.
type Error struct {
	Kind ErrorKind
	PC   uint64
	// Access violations: what was accessed, where, how many bytes, and the region's name
	// ("program", "stack", "heap", "input", "allocated", "unallocated") or the stack frame.
	Access AccessType
	Addr   uint64
	Len    uint64
	Region string
	Frame  int64
	// Index is the region index of ErrInvalidMemoryRegion.
	Index int
	// Err is the wrapped cause of ErrELF, ErrVerifier and ErrSyscall.
	Err error
}

func (e *Error) Error() string {
	switch e.Kind {
	case ErrELF:
		return "ELF error: " + errText(e.Err)
	case ErrFunctionAlreadyRegistered:
		return fmt.Sprintf("function #%d was already registered", e.Index)
	case ErrCallDepthExceeded:
		return "exceeded max BPF to BPF call depth"
	case ErrExitRootCallFrame:
		return "attempted to exit root call frame"
	case ErrDivideByZero:
		return "divide by zero at BPF instruction"
	case ErrDivideOverflow:
		return "division overflow at BPF instruction"
	case ErrExecutionOverrun:
		return "attempted to execute past the end of the text segment at BPF instruction"
	case ErrCallOutsideTextSegment:
		return "callx attempted to call outside of the text segment"
	case ErrExceededMaxInstructions:
		return "exceeded CUs meter at BPF instruction"
	case ErrInvalidMemoryRegion:
		return fmt.Sprintf("Invalid memory region at index %d", e.Index)
	case ErrAccessViolation:
		return fmt.Sprintf("Access violation %s %d bytes at address %#x (in %s region)", e.Access, e.Len, e.Addr, e.Region)
	case ErrStackAccessViolation:
		return fmt.Sprintf("Access violation in stack frame %d at address %#x of size %d", e.Frame, e.Addr, e.Len)
	case ErrInvalidInstruction:
		return "invalid BPF instruction"
	case ErrUnsupportedInstruction:
		return "unsupported BPF instruction"
	case ErrVerifier:
		return "Verifier error: " + errText(e.Err)
	case ErrSyscall:
		return "Syscall error: " + errText(e.Err)
	}
	return fmt.Sprintf("sbpf error kind %d", e.Kind)
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// Unwrap gives the cause of ErrELF, ErrVerifier and ErrSyscall.
func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind of an *Error anywhere in err's chain (0 if none).
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

// ErrComputationalBudgetExceeded is what Meter.Consume returns when a syscall's cost exceeds the
// units left; the runtime reports it as the ComputationalBudgetExceeded instruction error.
var ErrComputationalBudgetExceeded = errors.New("Computational budget exceeded")

// VerifierErrorKind is the reference's VerifierError variant.
type VerifierErrorKind uint8

const (
	VerifierProgramLengthNotMultiple VerifierErrorKind = iota + 1
	VerifierNoProgram
	VerifierDivisionByZero
	VerifierUnsupportedLEBEArgument
	VerifierLDDWCannotBeLast
	VerifierIncompleteLDDW
	VerifierJumpOutOfCode
	VerifierJumpToMiddleOfLDDW
	VerifierInvalidSourceRegister
	VerifierCannotWriteR10
	VerifierInvalidDestinationRegister
	VerifierUnknownOpCode
	VerifierShiftWithOverflow
	VerifierInvalidRegister
	VerifierInvalidFunction
	VerifierInvalidSyscall
	VerifierUnalignedImmediate
)

// VerifierError is a program rejected by the verifier; Error() is the reference's text.
type VerifierError struct {
	Kind VerifierErrorKind
	PC   uint64 // the instruction index the reference reports
	// Target is the jump target of JumpOutOfCode / JumpToMiddleOfLDDW.
	Target uint64
	// Opcode of UnknownOpCode.
	Opcode uint8
	// Shift and Bits of ShiftWithOverflow.
	Shift, Bits uint64
	// Syscall hash of InvalidSyscall.
	Syscall uint32
}

func (e *VerifierError) Error() string {
	switch e.Kind {
	case VerifierProgramLengthNotMultiple:
		return "program length must be a multiple of 8 octets"
	case VerifierNoProgram:
		return "no program set, call prog_set() to load one"
	case VerifierDivisionByZero:
		return fmt.Sprintf("division by 0 (insn #%d)", e.PC)
	case VerifierUnsupportedLEBEArgument:
		return fmt.Sprintf("unsupported argument for LE/BE (insn #%d)", e.PC)
	case VerifierLDDWCannotBeLast:
		return "LD_DW instruction cannot be last in program"
	case VerifierIncompleteLDDW:
		return fmt.Sprintf("incomplete LD_DW instruction (insn #%d)", e.PC)
	case VerifierJumpOutOfCode:
		return fmt.Sprintf("jump out of code to #%d (insn #%d)", e.Target, e.PC)
	case VerifierJumpToMiddleOfLDDW:
		return fmt.Sprintf("jump to middle of LD_DW at #%d (insn #%d)", e.Target, e.PC)
	case VerifierInvalidSourceRegister:
		return fmt.Sprintf("invalid source register (insn #%d)", e.PC)
	case VerifierCannotWriteR10:
		return fmt.Sprintf("cannot write into register r10 (insn #%d)", e.PC)
	case VerifierInvalidDestinationRegister:
		return fmt.Sprintf("invalid destination register (insn #%d)", e.PC)
	case VerifierUnknownOpCode:
		return fmt.Sprintf("unknown eBPF opcode %#x (insn #%d)", e.Opcode, e.PC)
	case VerifierShiftWithOverflow:
		// The reference's text names the shift amount first and the width second.
		return fmt.Sprintf("Shift with overflow of %d-bit value by %d (insn #%d)", e.Shift, e.Bits, e.PC)
	case VerifierInvalidRegister:
		return fmt.Sprintf("Invalid register specified at instruction %d", e.PC)
	case VerifierInvalidFunction:
		return fmt.Sprintf("Invalid function at instruction %d", e.PC)
	case VerifierInvalidSyscall:
		return fmt.Sprintf("Invalid syscall code %d", e.Syscall)
	case VerifierUnalignedImmediate:
		return fmt.Sprintf("Unaligned immediate (insn #%d)", e.PC)
	}
	return fmt.Sprintf("verifier error kind %d", e.Kind)
}
