package runtime

import (
	"fmt"
	"strconv"
	"sync"

	"ledgerd/impl/core"
)

// Program is the execution of an on-chain program. Execute runs one instruction; it must
// return nil or an InstructionError (anything else is reported as ProgramFailedToComplete, as
// the reference does for errors that are not instruction errors).
type Program interface {
	Execute(ctx *InvokeContext) error
}

// ProgramFunc adapts a function to Program.
type ProgramFunc func(ctx *InvokeContext) error

// Execute implements Program.
func (f ProgramFunc) Execute(ctx *InvokeContext) error { return f(ctx) }

// ProgramKind says how the reference runs a program, which decides what the runtime logs
// around it and how it finds the program's code.
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
	// Loader programs own deployed programs: a program account that no module runs itself is
	// run by the module of the loader that owns it (Registry.runnerOf), with the logs of an
	// on-chain program. The loader's own instructions (deploy, upgrade, ...) run as a builtin.
	// Its Program therefore receives both, and tells them apart by InvokeContext.ProgramID:
	// its own id, or the deployed program's.
	Loader
	// AccountOwner modules own accounts but are not programs (the sysvar owner): they only
	// parse.
	AccountOwner
	// Deployed is how a program a Loader module runs is logged: the runtime writes "invoke"
	// and "success"/"failed"; the loader writes "consumed" and "Program return:" itself, since
	// the reference counts the units of the VM alone there (not those of a failed program's
	// depleted meter) and logs nothing of the kind for a program that is not deployed.
	Deployed
)

var kindNames = [...]string{"builtin", "on-chain", "precompile", "loader", "account-owner", "deployed"}

func (k ProgramKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// registered is a program with its log lines prepared (they are written for every
// instruction, so they are built once).
type registered struct {
	program Program
	kind    ProgramKind
	id      string
	invoke  [maxStackHeight + 1]string
	success string
}

func newRegistered(id core.Pubkey, p Program, kind ProgramKind) *registered {
	e := &registered{program: p, kind: kind, id: id.String()}
	for h := 1; h <= maxStackHeight; h++ {
		e.invoke[h] = "Program " + e.id + " invoke [" + strconv.Itoa(h) + "]"
	}
	e.success = "Program " + e.id + " success"
	return e
}

// Registry is the module list as the runtime and the parsers read it: programs by id, loaders
// by the owner of the programs they run, and the jsonParsed parsers by owner and by program.
// Add everything before executing; the registry is then read concurrently without locks.
type Registry struct {
	modules  []Module
	index    map[core.Pubkey]int // position in modules
	programs map[core.Pubkey]*registered
	// deployed holds the entries of deployed programs run so far (deployedKey -> *registered), so
	// their log lines are built once rather than on every call. It grows with the programs
	// deployed on chain, each of which costs its deployer rent, and is emptied by Add.
	deployed *sync.Map
}

// deployedKey is a deployed program by its id and the loader that owns it.
type deployedKey struct{ id, owner core.Pubkey }

// NewRegistry returns a registry of mods, in that order. Two modules with one id are a
// programming error: it panics.
func NewRegistry(mods ...Module) *Registry {
	r := &Registry{index: make(map[core.Pubkey]int), programs: make(map[core.Pubkey]*registered), deployed: new(sync.Map)}
	for _, m := range mods {
		if _, dup := r.index[m.ID]; dup {
			panic(fmt.Sprintf("runtime: two modules for program %s", m.ID))
		}
		r.add(m)
	}
	return r
}

// Add adds mods, each replacing any module of the same id (tests swap a program's
// configuration this way).
func (r *Registry) Add(mods ...Module) {
	for _, m := range mods {
		r.add(m)
	}
}

func (r *Registry) add(m Module) {
	if i, ok := r.index[m.ID]; ok {
		r.modules[i] = m
	} else {
		r.index[m.ID] = len(r.modules)
		r.modules = append(r.modules, m)
	}
	delete(r.programs, m.ID)
	r.deployed = new(sync.Map) // a replaced loader module runs its programs from now on
	if m.Program != nil {
		kind := m.Kind
		if kind == Loader {
			kind = Builtin
		}
		r.programs[m.ID] = newRegistered(m.ID, m.Program, kind)
	}
}

// RegisterBuiltin adds a builtin program (see Builtin) with no parsers, replacing any module of
// its id.
func (r *Registry) RegisterBuiltin(id core.Pubkey, p Program) {
	r.Add(Module{ID: id, Kind: Builtin, Program: p})
}

// RegisterOnChain adds a natively run on-chain program (see OnChain) with no parsers.
func (r *Registry) RegisterOnChain(id core.Pubkey, p Program) {
	r.Add(Module{ID: id, Kind: OnChain, Program: p})
}

// RegisterPrecompile adds a precompile (see Precompile) with no parsers.
func (r *Registry) RegisterPrecompile(id core.Pubkey, p Program) {
	r.Add(Module{ID: id, Kind: Precompile, Program: p})
}

// Lookup returns the program the module of id executes, and how it runs.
func (r *Registry) Lookup(id core.Pubkey) (Program, ProgramKind, bool) {
	e, ok := r.programs[id]
	if !ok {
		return nil, 0, false
	}
	return e.program, e.kind, true
}

// Module returns the module of program id.
func (r *Registry) Module(id core.Pubkey) (Module, bool) {
	i, ok := r.index[id]
	if !ok {
		return Module{}, false
	}
	return r.modules[i], true
}

// Modules returns the modules in the order they were added.
func (r *Registry) Modules() []Module { return append([]Module(nil), r.modules...) }

// AccountParser returns the jsonParsed parser of the accounts owner owns.
func (r *Registry) AccountParser(owner core.Pubkey) (*AccountParser, bool) {
	m, ok := r.Module(owner)
	if !ok || m.ParseAccount == nil {
		return nil, false
	}
	return m.ParseAccount, true
}

// InstructionParser returns the jsonParsed parser of program id's instructions.
func (r *Registry) InstructionParser(id core.Pubkey) (*InstructionParser, bool) {
	m, ok := r.Module(id)
	if !ok || m.ParseInstruction == nil {
		return nil, false
	}
	return m.ParseInstruction, true
}

// runnerOf returns how to run program id, whose account is owned by owner: its own module when
// one executes it, else the module of the loader that owns the account (a deployed program,
// logged as an on-chain program under its own id).
func (r *Registry) runnerOf(id, owner core.Pubkey) (*registered, bool) {
	if e, ok := r.programs[id]; ok {
		return e, true
	}
	key := deployedKey{id, owner}
	if e, ok := r.deployed.Load(key); ok {
		return e.(*registered), true
	}
	m, ok := r.Module(owner)
	if !ok || m.Kind != Loader || m.Program == nil {
		return nil, false
	}
	e, _ := r.deployed.LoadOrStore(key, newRegistered(id, m.Program, Deployed))
	return e.(*registered), true
}
