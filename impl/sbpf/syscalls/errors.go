package syscalls

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// A syscall's error aborts the program (the VM wraps it in an sbpf.Error of kind ErrSyscall). The
// runtime reports it by its type, as the reference does:
//   - *Error (the reference's SyscallError): the instruction fails with ProgramFailedToComplete
//     and Error() is the text of the failure log line;
//   - *InstructionError: that instruction error (ArithmeticOverflow, UnsupportedSysvar);
//   - sbpf.ErrComputationalBudgetExceeded: ComputationalBudgetExceeded;
//   - *sbpf.Error from pointer translation (an access violation): as that VM fault.

// Error is the reference's SyscallError.
type Error struct {
	Kind ErrorKind
	// Text carries the variable part of InvalidString, Panic and BadSeeds.
	Text string
	// A and B are the numbers of Panic (line, column) and ReturnDataTooLarge (length, limit).
	A, B uint64
	// Bytes is the offending string of InvalidString.
	Bytes []byte
}

// ErrorKind is the SyscallError variant.
type ErrorKind uint8

const (
	ErrInvalidString ErrorKind = iota + 1
	ErrAbort
	ErrPanic
	ErrBadSeeds
	ErrUnalignedPointer
	ErrCopyOverlapping
	ErrReturnDataTooLarge
	ErrTooManySlices
	ErrInvalidLength
	ErrInvalidAttribute
	ErrInvalidPointer
	ErrArithmeticOverflowSyscall
	// ErrOther is a failure the reference reports through another error type (the poseidon
	// parameter checks); Text is its display.
	ErrOther
)

func (e *Error) Error() string {
	switch e.Kind {
	case ErrInvalidString:
		return fmt.Sprintf("%s: %s", e.Text, rustBytes(e.Bytes))
	case ErrAbort:
		return "SBF program panicked"
	case ErrPanic:
		return fmt.Sprintf("SBF program Panicked in %s at %d:%d", e.Text, e.A, e.B)
	case ErrBadSeeds:
		return "Could not create program address with signer seeds: " + e.Text
	case ErrUnalignedPointer:
		return "Unaligned pointer"
	case ErrCopyOverlapping:
		return "Overlapping copy"
	case ErrReturnDataTooLarge:
		return fmt.Sprintf("Return data too large (%d > %d)", e.A, e.B)
	case ErrTooManySlices:
		return "Hashing too many sequences"
	case ErrInvalidLength:
		return "InvalidLength"
	case ErrInvalidAttribute:
		return "InvalidAttribute"
	case ErrInvalidPointer:
		return "Invalid pointer"
	case ErrArithmeticOverflowSyscall:
		return "Arithmetic overflow"
	}
	return e.Text
}

// Is makes errors.Is(err, &Error{Kind: k}) match on the kind.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Kind == e.Kind && (t.Text == "" || t.Text == e.Text)
}

// InstructionError is a syscall failure the reference reports as that instruction error rather
// than as a VM fault (sbpf.ErrComputationalBudgetExceeded, from the meter, is the third one).
type InstructionError struct{ Name, Text string }

func (e *InstructionError) Error() string { return e.Text }

// The instruction errors syscalls raise; Name is the reference's variant name.
var (
	ErrArithmeticOverflow = &InstructionError{"ArithmeticOverflow", "Program arithmetic overflowed"}
	ErrUnsupportedSysvar  = &InstructionError{"UnsupportedSysvar", "Unsupported sysvar"}
)

// ErrNoHost is returned by syscalls that need the runtime when the VM has no Host.
var ErrNoHost = errors.New("syscall needs a runtime host")

func syscallErr(k ErrorKind) error { return &Error{Kind: k} }

// utf8Error renders Rust's Utf8Error display for b, which is not valid UTF-8.
func utf8Error(b []byte) string {
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		i += size
	}
	// Rust reports how many bytes form the invalid sequence (error_len), or None when the input
	// ends inside a sequence that could still be completed.
	rest := b[i:]
	if n := invalidSeqLen(rest); n > 0 {
		return fmt.Sprintf("invalid utf-8 sequence of %d bytes from index %d", n, i)
	}
	return fmt.Sprintf("incomplete utf-8 byte sequence from index %d", i)
}

// invalidSeqLen is Rust's Utf8Error::error_len for a slice starting at the bad sequence: the
// number of bytes to skip, or 0 when the slice ends mid-sequence.
func invalidSeqLen(b []byte) int {
	first := b[0]
	var width int
	switch {
	case first >= 0xc2 && first <= 0xdf:
		width = 2
	case first >= 0xe0 && first <= 0xef:
		width = 3
	case first >= 0xf0 && first <= 0xf4:
		width = 4
	default:
		return 1
	}
	for k := 1; k < width; k++ {
		if k >= len(b) {
			return 0
		}
		c := b[k]
		lo, hi := byte(0x80), byte(0xbf)
		if k == 1 {
			switch first {
			case 0xe0:
				lo = 0xa0
			case 0xed:
				hi = 0x9f
			case 0xf0:
				lo = 0x90
			case 0xf4:
				hi = 0x8f
			}
		}
		if c < lo || c > hi {
			return k
		}
	}
	return width
}

// rustBytes renders a byte slice as Rust's {:?} does: [1, 2, 3].
func rustBytes(b []byte) string {
	var s strings.Builder
	s.WriteByte('[')
	for i, c := range b {
		if i > 0 {
			s.WriteString(", ")
		}
		fmt.Fprintf(&s, "%d", c)
	}
	s.WriteByte(']')
	return s.String()
}
