package runtime

import (
	"ledgerd/impl/core"
	"ledgerd/impl/runtime/computebudget"
)

// ComputeBudget is what a transaction's compute budget instructions (or their absence) give
// it.
type ComputeBudget struct {
	// ComputeUnitLimit is the transaction's compute meter at the start.
	ComputeUnitLimit uint32
	// ComputeUnitPrice is the priority fee rate in micro-lamports per compute unit.
	ComputeUnitPrice uint64
	// HeapSize is the program heap in bytes.
	HeapSize uint32
	// LoadedAccountsDataSizeLimit is the most account data the transaction may load.
	LoadedAccountsDataSizeLimit uint32
}

// PrioritizationFee returns the priority fee: ceil(price × limit / 1,000,000) lamports.
func (b ComputeBudget) PrioritizationFee() uint64 {
	return computebudget.PrioritizationFee(b.ComputeUnitPrice, uint64(b.ComputeUnitLimit))
}

// cuBuiltins are the programs whose instructions count as builtins when the default compute
// unit limit is computed (3,000 units each instead of 200,000): the reference's
// builtins-default-costs table less the programs migrated to on-chain builds (config, stake
// and address lookup table are migrated on current clusters).
var cuBuiltins = map[core.Pubkey]struct{}{
	core.SystemProgramID:               {},
	core.VoteProgramID:                 {},
	core.ComputeBudgetProgramID:        {},
	core.BPFLoaderDeprecatedProgramID:  {},
	core.BPFLoaderProgramID:            {},
	core.BPFLoaderUpgradeableProgramID: {},
	core.LoaderV4ProgramID:             {},
	core.Secp256k1ProgramID:            {},
	core.Ed25519ProgramID:              {},
}

// ComputeBudgetFromMessage reads a message's compute budget instructions and applies the
// reference's defaults and limits (ComputeBudgetInstructionDetails::try_from and
// sanitize_and_convert_to_compute_budget_limits). Errors: InstructionError(i,
// InvalidInstructionData) for an undecodable or retired instruction or a bad heap size,
// DuplicateInstruction(i) for a second instruction of a kind, and
// InvalidLoadedAccountsDataSizeLimit for a zero data size limit.
func ComputeBudgetFromMessage(m *core.Message) (ComputeBudget, *TransactionError) {
	var (
		haveLimit, havePrice, haveHeap, haveData bool
		heapIndex                                uint8
		limit, heap, dataLimit                   uint32
		price                                    uint64
	)
	for i := range m.Instructions {
		ix := &m.Instructions[i]
		if int(ix.ProgramIDIndex) >= len(m.AccountKeys) || m.AccountKeys[ix.ProgramIDIndex] != core.ComputeBudgetProgramID {
			continue
		}
		idx := uint8(i)
		cb, err := computebudget.Decode(ix.Data)
		if err != nil {
			return ComputeBudget{}, InstructionErrorAt(idx, ErrInvalidInstructionData)
		}
		switch cb.Kind {
		case computebudget.KindRequestHeapFrame:
			if haveHeap {
				return ComputeBudget{}, DuplicateInstructionError(idx)
			}
			haveHeap, heapIndex, heap = true, idx, uint32(cb.Value)
		case computebudget.KindSetComputeUnitLimit:
			if haveLimit {
				return ComputeBudget{}, DuplicateInstructionError(idx)
			}
			haveLimit, limit = true, uint32(cb.Value)
		case computebudget.KindSetComputeUnitPrice:
			if havePrice {
				return ComputeBudget{}, DuplicateInstructionError(idx)
			}
			havePrice, price = true, cb.Value
		case computebudget.KindSetLoadedAccountsDataSizeLimit:
			if haveData {
				return ComputeBudget{}, DuplicateInstructionError(idx)
			}
			haveData, dataLimit = true, uint32(cb.Value)
		default:
			return ComputeBudget{}, InstructionErrorAt(idx, ErrInvalidInstructionData)
		}
	}

	b := ComputeBudget{HeapSize: computebudget.MinHeapFrameBytes}
	if haveHeap {
		if heap < computebudget.MinHeapFrameBytes || heap > computebudget.MaxHeapFrameBytes ||
			heap%computebudget.HeapFrameGranularity != 0 {
			return ComputeBudget{}, InstructionErrorAt(heapIndex, ErrInvalidInstructionData)
		}
		b.HeapSize = heap
	}
	if !haveLimit {
		limit = defaultComputeUnitLimit(m)
	}
	b.ComputeUnitLimit = min(limit, computebudget.MaxComputeUnitLimit)
	b.ComputeUnitPrice = price
	b.LoadedAccountsDataSizeLimit = computebudget.MaxLoadedAccountsDataSizeBytes
	if haveData {
		if dataLimit == 0 {
			return ComputeBudget{}, NewTransactionError(TxInvalidLoadedAccountsDataSizeLimit)
		}
		b.LoadedAccountsDataSizeLimit = min(dataLimit, computebudget.MaxLoadedAccountsDataSizeBytes)
	}
	return b, nil
}

// defaultComputeUnitLimit gives each builtin instruction (compute budget ones included)
// 3,000 units and every other instruction 200,000.
func defaultComputeUnitLimit(m *core.Message) uint32 {
	var builtins, others uint64
	for i := range m.Instructions {
		idx := int(m.Instructions[i].ProgramIDIndex)
		if idx < len(m.AccountKeys) {
			if _, ok := cuBuiltins[m.AccountKeys[idx]]; ok {
				builtins++
				continue
			}
		}
		others++
	}
	total := builtins*computebudget.MaxBuiltinAllocationComputeUnitLimit +
		others*computebudget.DefaultInstructionComputeUnitLimit
	return uint32(min(total, uint64(^uint32(0))))
}

// SignatureCount is the number of signatures a transaction pays for: its own plus those the
// ed25519, secp256k1 and secp256r1 precompile instructions verify (the first data byte).
func SignatureCount(tx *core.Transaction) uint64 {
	m := &tx.Message
	n := uint64(m.Header.NumRequiredSignatures)
	if len(tx.Signatures) > int(n) {
		n = uint64(len(tx.Signatures))
	}
	for i := range m.Instructions {
		ix := &m.Instructions[i]
		if int(ix.ProgramIDIndex) >= len(m.AccountKeys) || len(ix.Data) == 0 {
			continue
		}
		switch m.AccountKeys[ix.ProgramIDIndex] {
		case core.Ed25519ProgramID, core.Secp256k1ProgramID, core.Secp256r1ProgramID:
			n += uint64(ix.Data[0])
		}
	}
	return n
}

// FeeDetails splits a transaction's fee.
type FeeDetails struct {
	SignatureFee      uint64
	PrioritizationFee uint64
}

// Total returns the whole fee (saturating).
func (f FeeDetails) Total() uint64 {
	t := f.SignatureFee + f.PrioritizationFee
	if t < f.SignatureFee {
		return ^uint64(0)
	}
	return t
}

// CalculateFee returns the fee of tx under budget: lamportsPerSignature per signature plus
// the priority fee. It is what getFeeForMessage reports.
func CalculateFee(tx *core.Transaction, budget ComputeBudget, lamportsPerSignature uint64) FeeDetails {
	sigs := SignatureCount(tx)
	fee := FeeDetails{SignatureFee: sigs * lamportsPerSignature, PrioritizationFee: budget.PrioritizationFee()}
	if lamportsPerSignature != 0 && fee.SignatureFee/lamportsPerSignature != sigs {
		fee.SignatureFee = ^uint64(0)
	}
	return fee
}
