package sbpf

import (
	"fmt"
	"unicode/utf8"
)

// ELFErrorKind names the ways loading an ELF fails, one for each error the reference loader reports.
type ELFErrorKind int

// The kinds, in the reference's order.
const (
	ErrFailedToParse ELFErrorKind = iota
	ErrEntrypointOutOfBounds
	ErrInvalidEntrypoint
	ErrFailedToGetSection
	ErrUnresolvedSymbol
	ErrSectionNotFound
	ErrRelativeJumpOutOfBounds
	ErrSymbolHashCollision
	ErrWrongEndianess
	ErrWrongAbi
	ErrWrongMachine
	ErrWrongClass
	ErrNotOneTextSection
	ErrWritableSectionNotSupported
	ErrAddressOutsideLoadableSection
	ErrELFInvalidVirtualAddress
	ErrUnknownRelocation
	ErrFailedToReadRelocationInfo
	ErrWrongType
	ErrUnknownSymbol
	ErrValueOutOfBounds
	ErrUnsupportedSBPFVersion
	ErrInvalidProgramHeader
)

var elfErrorKindNames = [...]string{
	"FailedToParse", "EntrypointOutOfBounds", "InvalidEntrypoint", "FailedToGetSection", "UnresolvedSymbol",
	"SectionNotFound", "RelativeJumpOutOfBounds", "SymbolHashCollision", "WrongEndianess", "WrongAbi",
	"WrongMachine", "WrongClass", "NotOneTextSection", "WritableSectionNotSupported",
	"AddressOutsideLoadableSection", "InvalidVirtualAddress", "UnknownRelocation", "FailedToReadRelocationInfo",
	"WrongType", "UnknownSymbol", "ValueOutOfBounds", "UnsupportedSBPFVersion", "InvalidProgramHeader",
}

func (k ELFErrorKind) String() string {
	if k >= 0 && int(k) < len(elfErrorKindNames) {
		return elfErrorKindNames[k]
	}
	return fmt.Sprintf("ELFErrorKind(%d)", int(k))
}

// ELFError is why an ELF did not load. Error() is the reference's display text, which deployments log verbatim
// (the deploy instruction's "Program ... failed" log lines), so it matches byte for byte.
type ELFError struct {
	Kind ELFErrorKind
	// Name is the section or symbol name of WritableSectionNotSupported, UnresolvedSymbol, SectionNotFound and
	// FailedToGetSection, or the parser's message of FailedToParse.
	Name string
	// Index is the instruction index of RelativeJumpOutOfBounds and UnresolvedSymbol, the symbol index of
	// UnknownSymbol and the relocation type of UnknownRelocation.
	Index uint64
	// Hash is the colliding key of SymbolHashCollision.
	Hash uint32
	// Addr is the address of InvalidVirtualAddress and AddressOutsideLoadableSection.
	Addr uint64
	// Offset is the ELF file offset of UnresolvedSymbol.
	Offset uint64
}

func (e *ELFError) Error() string {
	switch e.Kind {
	case ErrFailedToParse:
		return "Failed to parse ELF file: " + e.Name
	case ErrEntrypointOutOfBounds:
		return "Entrypoint out of bounds"
	case ErrInvalidEntrypoint:
		return "Invalid entrypoint"
	case ErrFailedToGetSection:
		return "Failed to get section " + e.Name
	case ErrUnresolvedSymbol:
		return fmt.Sprintf("Unresolved symbol (%s) at instruction #%d (ELF file offset %#x)", e.Name, e.Index, e.Offset)
	case ErrSectionNotFound:
		return "Section not found: " + e.Name
	case ErrRelativeJumpOutOfBounds:
		return fmt.Sprintf("Relative jump out of bounds at instruction #%d", e.Index)
	case ErrSymbolHashCollision:
		return fmt.Sprintf("Symbol hash collision %#x", e.Hash)
	case ErrWrongEndianess:
		return "Incompatible ELF: wrong endianess"
	case ErrWrongAbi:
		return "Incompatible ELF: wrong ABI"
	case ErrWrongMachine:
		return "Incompatible ELF: wrong machine"
	case ErrWrongClass:
		return "Incompatible ELF: wrong class"
	case ErrNotOneTextSection:
		return "Multiple or no text sections, consider removing llc option: -function-sections"
	case ErrWritableSectionNotSupported:
		return fmt.Sprintf("Found writable section (%s) in ELF, read-write data not supported", e.Name)
	case ErrAddressOutsideLoadableSection:
		return fmt.Sprintf("Relocation failed, no loadable section contains virtual address %#x", e.Addr)
	case ErrELFInvalidVirtualAddress:
		return fmt.Sprintf("Relocation failed, invalid referenced virtual address %#x", e.Addr)
	case ErrUnknownRelocation:
		return fmt.Sprintf("Relocation failed, unknown type %d", e.Index)
	case ErrFailedToReadRelocationInfo:
		return "Failed to read relocation info"
	case ErrWrongType:
		return "Incompatible ELF: wrong type"
	case ErrUnknownSymbol:
		return fmt.Sprintf("Unknown symbol with index %d", e.Index)
	case ErrValueOutOfBounds:
		return "Offset or value is out of bounds"
	case ErrUnsupportedSBPFVersion:
		return "Detected sbpf_version required by the executable which are not enabled"
	case ErrInvalidProgramHeader:
		return "Invalid ELF program header"
	}
	return e.Kind.String()
}

// Is makes errors.Is(err, &ELFError{Kind: k}) match any error of kind k.
func (e *ELFError) Is(target error) bool {
	t, ok := target.(*ELFError)
	return ok && t.Kind == e.Kind
}

func elfErr(kind ELFErrorKind) *ELFError { return &ELFError{Kind: kind} }

// parseError is a failure of the ELF parser proper; the loader reports it as an ELFError (toELFError), keeping
// the parser's message inside FailedToParse as the reference does.
type parseError int

const (
	parseInvalidFileHeader parseError = iota
	parseInvalidProgramHeader
	parseInvalidSectionHeader
	parseInvalidString
	parseStringTooLong
	parseOutOfBounds
	parseInvalidSize
	parseOverlap
	parseSectionNotInOrder
	parseNoSectionNameStringTable
	parseInvalidDynamicSectionTable
	parseInvalidRelocationTable
	parseInvalidAlignment
	parseNoStringTable
	parseNoDynamicStringTable
)

var parseErrorTexts = [...]string{
	"invalid file header", "invalid program header", "invalid section header", "invalid string", "",
	"value out of bounds", "invalid size", "values overlap", "sections not in ascending order",
	"no section name string table found", "invalid dynamic section table", "invalid relocation table",
	"invalid alignment", "no string table", "no dynamic string table",
}

// parserErr carries a parseError, plus the string and limit of StringTooLong.
type parserErr struct {
	kind  parseError
	str   string
	limit int
}

func (e *parserErr) Error() string {
	if e.kind == parseStringTooLong {
		return fmt.Sprintf("Section or symbol name `%s` is longer than `%d` bytes", e.str, e.limit)
	}
	return parseErrorTexts[e.kind]
}

func elfPerr(kind parseError) *parserErr { return &parserErr{kind: kind} }

// toELFError maps a parser failure to the loader's error the way the reference converts them: out-of-bounds and
// program header failures keep their own kinds, every other one becomes FailedToParse with the parser's text.
func toELFError(err *parserErr) *ELFError {
	switch err.kind {
	case parseOutOfBounds:
		return elfErr(ErrValueOutOfBounds)
	case parseInvalidProgramHeader:
		return elfErr(ErrInvalidProgramHeader)
	}
	return &ELFError{Kind: ErrFailedToParse, Name: err.Error()}
}

// lossyString decodes b as UTF-8 replacing each maximal invalid subsequence by U+FFFD, the way the reference
// renders names that are not UTF-8 in its error texts.
func lossyString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	out := make([]byte, 0, len(b)+8)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			out = append(out, b[i:i+n]...)
			i += n
			continue
		}
		out = append(out, "\uFFFD"...)
		i += invalidPrefixLen(b[i:])
	}
	return string(out)
}

// invalidPrefixLen is the length of the maximal subpart of an ill-formed sequence at the start of b (Unicode
// 3.9, "U+FFFD substitution of maximal subparts"): a lead byte followed by the continuation bytes that could
// still have completed it.
func invalidPrefixLen(b []byte) int {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}
