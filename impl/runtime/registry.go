package runtime

import (
	"maps"
	"slices"
	"strconv"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime/computebudget"
)

// Program is a native implementation of an on-chain program. Execute runs one instruction;
// it must return nil or an InstructionError (anything else is reported as
// ProgramFailedToComplete, as the reference does for errors that are not instruction errors).
type Program interface {
	Execute(ctx *InvokeContext) error
}

// ProgramFunc adapts a function to Program.
type ProgramFunc func(ctx *InvokeContext) error

// Execute implements Program.
func (f ProgramFunc) Execute(ctx *InvokeContext) error { return f(ctx) }

// ProgramKind says how the reference runs a program, which decides what the runtime logs
// around it.
type ProgramKind uint8

const (
	// Builtin programs (system, vote, compute budget, ...) run inside the validator. The runtime
	// logs "invoke" and "success"/"failed" only, and a successful builtin must have consumed
	// compute units (BuiltinProgramsMustConsumeComputeUnits).
	Builtin ProgramKind = iota
	// OnChain programs are sBPF programs on chain (SPL Token, ATA, Memo) that ledgerd runs
	// natively. The runtime also logs "Program <id> consumed N of M compute units" and
	// "Program return: <id> <base64>", as the BPF loader does; the program charges the
	// compute units its on-chain build would use.
	OnChain
	// Precompile programs (ed25519, secp256k1, secp256r1) are checked without logs or compute
	// units.
	Precompile
)

// registered is a program with its log lines prepared (they are written for every
// instruction, so they are built once).
type registered struct {
	program Program
	kind    ProgramKind
	id      string
	invoke  [maxStackHeight + 1]string
	success string
}

// Registry maps program ids to native programs. Register everything before executing; the
// registry is then read concurrently without locks.
type Registry struct {
	programs map[core.Pubkey]*registered
}

// NewRegistry returns a registry holding the compute budget program, which every bank has
// and whose instructions the runtime interprets itself.
func NewRegistry() *Registry {
	r := &Registry{programs: make(map[core.Pubkey]*registered)}
	r.RegisterBuiltin(core.ComputeBudgetProgramID, ProgramFunc(executeComputeBudget))
	return r
}

var defaultRegistry = NewRegistry()

// RegisterBuiltin registers a builtin program (see Builtin), replacing any previous one.
func (r *Registry) RegisterBuiltin(id core.Pubkey, p Program) { r.register(id, p, Builtin) }

// RegisterOnChain registers a natively run on-chain program (see OnChain).
func (r *Registry) RegisterOnChain(id core.Pubkey, p Program) { r.register(id, p, OnChain) }

// RegisterPrecompile registers a precompile (see Precompile).
func (r *Registry) RegisterPrecompile(id core.Pubkey, p Program) { r.register(id, p, Precompile) }

func (r *Registry) register(id core.Pubkey, p Program, kind ProgramKind) {
	e := &registered{program: p, kind: kind, id: id.String()}
	for h := 1; h <= maxStackHeight; h++ {
		e.invoke[h] = "Program " + e.id + " invoke [" + strconv.Itoa(h) + "]"
	}
	e.success = "Program " + e.id + " success"
	r.programs[id] = e
}

// Lookup returns the program registered for id.
func (r *Registry) Lookup(id core.Pubkey) (Program, ProgramKind, bool) {
	e, ok := r.programs[id]
	if !ok {
		return nil, 0, false
	}
	return e.program, e.kind, true
}

// IDs returns the registered program ids, sorted.
func (r *Registry) IDs() []core.Pubkey {
	ids := slices.Collect(maps.Keys(r.programs))
	slices.SortFunc(ids, func(a, b core.Pubkey) int { return a.Compare(b) })
	return ids
}

// executeComputeBudget runs a compute budget instruction: the runtime already applied it
// before execution, so it only charges its cost.
func executeComputeBudget(ctx *InvokeContext) error {
	return ctx.Consume(computebudget.DefaultComputeUnits)
}
