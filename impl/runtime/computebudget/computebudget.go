// Package computebudget owns the Compute Budget program's instruction set: the borsh encoding
// of its instructions, the decoder the runtime runs over a transaction before execution (to
// set its compute unit limit, heap size, loaded-data limit and priority fee), builders for
// clients and tests, and the protocol limits those values are checked against.
//
// It belongs to the runtime, not to the program: the runtime reads these instructions before
// any executes, so the codec sits below it (depending on core only), and the compute budget
// program's module (impl/programs/computebudget) only charges DefaultComputeUnits.
package computebudget

import (
	"encoding/binary"
	"errors"

	"ledgerd/impl/core"
)

// Costs and limits of the reference's compute budget (solana-compute-budget).
const (
	// DefaultComputeUnits is what executing any compute budget instruction costs.
	DefaultComputeUnits = 150
	// DefaultInstructionComputeUnitLimit is the default limit contributed by each instruction
	// of a program that is not a builtin, when no SetComputeUnitLimit is given.
	DefaultInstructionComputeUnitLimit = 200_000
	// MaxBuiltinAllocationComputeUnitLimit is the default limit contributed by each
	// instruction of a builtin program (compute budget instructions included).
	MaxBuiltinAllocationComputeUnitLimit = 3_000
	// MaxComputeUnitLimit caps a transaction's compute unit limit.
	MaxComputeUnitLimit = 1_400_000
	// MinHeapFrameBytes is the default (and smallest) program heap.
	MinHeapFrameBytes = 32 * 1024
	// MaxHeapFrameBytes is the largest heap a transaction may request.
	MaxHeapFrameBytes = 256 * 1024
	// HeapFrameGranularity: a requested heap must be a multiple of it.
	HeapFrameGranularity = 1024
	// MaxLoadedAccountsDataSizeBytes is the default and largest loaded-accounts data limit.
	MaxLoadedAccountsDataSizeBytes = 64 * 1024 * 1024
	// MicroLamportsPerLamport converts a compute unit price to lamports.
	MicroLamportsPerLamport = 1_000_000
)

// Kind is the borsh tag of a compute budget instruction.
type Kind uint8

// The instruction tags. Tag 0 is a retired variant (RequestUnitsDeprecated, now Unused) that
// still decodes but is rejected by the runtime.
const (
	KindUnused                         Kind = 0
	KindRequestHeapFrame               Kind = 1
	KindSetComputeUnitLimit            Kind = 2
	KindSetComputeUnitPrice            Kind = 3
	KindSetLoadedAccountsDataSizeLimit Kind = 4
)

// String returns the reference's variant name.
func (k Kind) String() string {
	switch k {
	case KindUnused:
		return "Unused"
	case KindRequestHeapFrame:
		return "RequestHeapFrame"
	case KindSetComputeUnitLimit:
		return "SetComputeUnitLimit"
	case KindSetComputeUnitPrice:
		return "SetComputeUnitPrice"
	case KindSetLoadedAccountsDataSizeLimit:
		return "SetLoadedAccountsDataSizeLimit"
	}
	return "Unknown"
}

// Instruction is a decoded compute budget instruction. Value holds the variant's argument
// (bytes, units, micro-lamports per unit or bytes); it is 0 for Unused.
type Instruction struct {
	Kind  Kind
	Value uint64
}

// ErrInvalidInstruction is returned for data that is not a compute budget instruction: empty,
// an unknown tag, or an argument cut short. The runtime reports it as InvalidInstructionData.
var ErrInvalidInstruction = errors.New("invalid compute budget instruction")

// Decode reads an instruction the way the reference does (borsh, try_from_slice_unchecked):
// a u8 tag and a little-endian argument; bytes after the argument are ignored.
func Decode(data []byte) (Instruction, error) {
	if len(data) == 0 {
		return Instruction{}, ErrInvalidInstruction
	}
	k := Kind(data[0])
	rest := data[1:]
	switch k {
	case KindUnused:
		return Instruction{Kind: k}, nil
	case KindRequestHeapFrame, KindSetComputeUnitLimit, KindSetLoadedAccountsDataSizeLimit:
		if len(rest) < 4 {
			return Instruction{}, ErrInvalidInstruction
		}
		return Instruction{Kind: k, Value: uint64(binary.LittleEndian.Uint32(rest))}, nil
	case KindSetComputeUnitPrice:
		if len(rest) < 8 {
			return Instruction{}, ErrInvalidInstruction
		}
		return Instruction{Kind: k, Value: binary.LittleEndian.Uint64(rest)}, nil
	}
	return Instruction{}, ErrInvalidInstruction
}

// Encode returns the borsh encoding of ix. Arguments of the u32 variants are truncated to
// 32 bits.
func (ix Instruction) Encode() []byte {
	out := []byte{byte(ix.Kind)}
	switch ix.Kind {
	case KindRequestHeapFrame, KindSetComputeUnitLimit, KindSetLoadedAccountsDataSizeLimit:
		out = binary.LittleEndian.AppendUint32(out, uint32(ix.Value))
	case KindSetComputeUnitPrice:
		out = binary.LittleEndian.AppendUint64(out, ix.Value)
	}
	return out
}

func instruction(k Kind, v uint64) core.Instruction {
	return core.Instruction{ProgramID: core.ComputeBudgetProgramID, Data: Instruction{Kind: k, Value: v}.Encode()}
}

// RequestHeapFrame requests a program heap of bytes (a multiple of 1024 in [32K, 256K]).
func RequestHeapFrame(bytes uint32) core.Instruction {
	return instruction(KindRequestHeapFrame, uint64(bytes))
}

// SetComputeUnitLimit sets the transaction's compute unit limit.
func SetComputeUnitLimit(units uint32) core.Instruction {
	return instruction(KindSetComputeUnitLimit, uint64(units))
}

// SetComputeUnitPrice sets the priority fee in micro-lamports per compute unit.
func SetComputeUnitPrice(microLamports uint64) core.Instruction {
	return instruction(KindSetComputeUnitPrice, microLamports)
}

// SetLoadedAccountsDataSizeLimit sets the most account data (bytes) the transaction may load.
func SetLoadedAccountsDataSizeLimit(bytes uint32) core.Instruction {
	return instruction(KindSetLoadedAccountsDataSizeLimit, uint64(bytes))
}

// PrioritizationFee returns the priority fee in lamports of a price (micro-lamports per unit)
// and a compute unit limit, rounded up as the reference does, saturating at u64.
func PrioritizationFee(microLamportsPerUnit uint64, computeUnitLimit uint64) uint64 {
	hi, lo := mul64(microLamportsPerUnit, computeUnitLimit)
	// (hi:lo + 999_999) / 1_000_000, saturating.
	lo2 := lo + (MicroLamportsPerLamport - 1)
	if lo2 < lo {
		hi++
	}
	if hi >= MicroLamportsPerLamport {
		return ^uint64(0)
	}
	q, _ := div64(hi, lo2, MicroLamportsPerLamport)
	return q
}
