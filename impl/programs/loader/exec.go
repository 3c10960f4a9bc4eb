package loader

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strconv"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/sbpf"
	"ledgerd/impl/sbpf/syscalls"
)

// Program is the loaders' execution, as the runtime calls it for an instruction addressed to a
// loader (its program account is owned by the native loader: a management instruction) or to a
// program a loader owns (the program runs in the VM). It runs programs from the Programs cache.
var Program runtime.Program = runtime.ProgramFunc(execute)

func execute(ctx *runtime.InvokeContext) error {
	if ctx.ProgramAccount().Owner == core.NativeLoaderProgramID {
		return manage(ctx)
	}
	return Run(ctx, Programs, DefaultFeatures())
}

// programDataMetadataSize is the ProgramData header before the ELF: the state tag (u32), the
// deployment slot (u64) and the optional upgrade authority (1 + 32 bytes).
const programDataMetadataSize = 45

// notDeployed fails an invocation of a program that has no runnable deployment: closed, never
// deployed, not loadable or verifiable, or deployed in the current slot (a deployment is visible
// from the next slot on).
func notDeployed(ctx *runtime.InvokeContext) error {
	ctx.Log("Program is not deployed")
	return runtime.ErrUnsupportedProgramID
}

// programELF finds the ELF of the executing program and the slot its deployment is visible
// from: the program account's data for loaders 1 and 2; for the upgradeable loader the
// ProgramData account the program points to, after its header.
func programELF(ctx *runtime.InvokeContext, prog runtime.Account) (elf []byte, slot uint64, ok bool) {
	switch prog.Owner {
	case core.BPFLoaderDeprecatedProgramID, core.BPFLoaderProgramID:
		return prog.Data, 0, true
	case core.BPFLoaderUpgradeableProgramID:
		d := prog.Data
		if len(d) < 36 || binary.LittleEndian.Uint32(d) != 2 {
			return nil, 0, false
		}
		pd, found := ctx.LoadAccount(core.Pubkey(d[4:36]))
		if !found || pd.Owner != core.BPFLoaderUpgradeableProgramID || len(pd.Data) < programDataMetadataSize ||
			binary.LittleEndian.Uint32(pd.Data) != 3 {
			return nil, 0, false
		}
		return pd.Data[programDataMetadataSize:], binary.LittleEndian.Uint64(pd.Data[4:]), true
	}
	return nil, 0, false
}

// Run executes the deployed program ctx invokes, loaded through cache, with the syscalls of f:
// its input serialized, the VM run on the transaction's meter and heap, the result logged and
// mapped to an instruction error, and the accounts read back (the reference's BPF loader
// execute).
func Run(ctx *runtime.InvokeContext, cache *Cache, f syscalls.Features) error {
	prog := ctx.ProgramAccount()
	if ctx.Features().ExecutableAccountsReadOnly && !prog.Executable {
		ctx.Log("Program is not executable")
		return runtime.ErrIncorrectProgramID
	}
	elf, slot, ok := programELF(ctx, prog)
	if !ok {
		return notDeployed(ctx)
	}
	upgradeable := prog.Owner == core.BPFLoaderUpgradeableProgramID
	if upgradeable && ctx.Clock().Slot <= slot {
		return notDeployed(ctx)
	}
	env, err := EnvironmentFor(f)
	if err != nil {
		return err
	}
	exe, err := cache.Load(ctx.ProgramID(), slot, elf, env)
	if err != nil {
		return notDeployed(ctx)
	}
	return runExecutable(ctx, exe, env.Exec, prog.Owner != core.BPFLoaderDeprecatedProgramID)
}

// heapCostUnits is what each 32 KiB of heap beyond the first costs.
const heapCostUnits = 8

func heapCost(size uint32) uint64 {
	const page = 32 * 1024
	pages := (uint64(size) + page - 1) / page
	if pages == 0 {
		return 0
	}
	return (pages - 1) * heapCostUnits
}

func runExecutable(ctx *runtime.InvokeContext, exe *sbpf.Executable, l *sbpf.Loader, aligned bool) error {
	in, err := serialize(ctx, aligned)
	if err != nil {
		return err
	}
	defer in.release()
	prev := ctx.Remaining()
	heap := ctx.HeapSize()
	if err := ctx.Consume(heapCost(heap)); err != nil {
		ctx.Log("Failed to create SBF VM: " + err.Error())
		return runtime.ErrProgramEnvironmentSetupFailure
	}
	h := &host{ctx: ctx, in: in, aligned: aligned, heap: uint64(heap)}
	meter := &sbpf.Meter{Remaining: ctx.Remaining()}
	vm, err := sbpf.NewVM(exe, l, sbpf.Params{
		Input:    []sbpf.Region{{VMAddr: sbpf.MMInputStart, Data: in.buf, Writable: true}},
		HeapSize: int(heap),
		R2:       sbpf.MMInputStart + in.dataOff,
		Meter:    meter,
		Host:     h,
	})
	if err != nil {
		ctx.Log("Failed to create SBF VM: " + err.Error())
		return runtime.ErrProgramEnvironmentSetupFailure
	}
	r0, runErr := vm.Run()
	vm.Release()
	h.sync(meter)
	id := ctx.ProgramID().String()
	ctx.Log("Program " + id + " consumed " + strconv.FormatUint(prev-heapCost(heap)-meter.Remaining, 10) +
		" of " + strconv.FormatUint(prev, 10) + " compute units")
	if _, rd := ctx.ReturnData(); len(rd) > 0 {
		ctx.Log("Program return: " + id + " " + base64.StdEncoding.EncodeToString(rd))
	}
	if runErr != nil {
		return vmError(ctx, runErr)
	}
	if r0 != 0 {
		return returnError(r0)
	}
	return deserialize(ctx, in)
}

// vmError is the instruction error of a failed run, as the reference reports it: a syscall's
// instruction error is that error; the compute meter running dry inside a syscall is
// ComputationalBudgetExceeded; anything else fails the program (ProgramFailedToComplete, with
// the error's text in the log), and a fault of the VM itself (not of a syscall) also empties the
// compute meter.
func vmError(ctx *runtime.InvokeContext, err error) error {
	var ve *sbpf.Error
	if !errors.As(err, &ve) {
		return programFailure{err.Error()}
	}
	if ve.Kind != sbpf.ErrSyscall {
		ctx.ConsumeAll()
		return programFailure{ve.Error()}
	}
	cause := ve.Err
	var ie runtime.InstructionError
	if errors.As(cause, &ie) {
		return ie
	}
	var se *syscalls.InstructionError
	if errors.As(cause, &se) {
		if k, ok := instructionErrorNamed(se.Name); ok {
			return k
		}
	}
	if errors.Is(cause, sbpf.ErrComputationalBudgetExceeded) {
		return runtime.ErrComputationalBudgetExceeded
	}
	return programFailure{errText(cause)}
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// programFailure is an error that is not an instruction error; the runtime logs its text and
// reports ProgramFailedToComplete.
type programFailure struct{ text string }

func (e programFailure) Error() string { return e.text }

func instructionErrorNamed(name string) (runtime.InstructionError, bool) {
	for k := runtime.InstructionErrorKind(0); k < runtime.IxBailOut+1; k++ {
		if k.Name() == name {
			return runtime.InstructionError{Kind: k}, true
		}
	}
	return runtime.InstructionError{}, false
}

// builtinErrors are the program errors a non-zero return value names (value >> 32).
var builtinErrors = [...]runtime.InstructionError{
	2: runtime.ErrInvalidArgument, 3: runtime.ErrInvalidInstructionData, 4: runtime.ErrInvalidAccountData,
	5: runtime.ErrAccountDataTooSmall, 6: runtime.ErrInsufficientFunds, 7: runtime.ErrIncorrectProgramID,
	8: runtime.ErrMissingRequiredSignature, 9: runtime.ErrAccountAlreadyInitialized,
	10: runtime.ErrUninitializedAccount, 11: runtime.ErrNotEnoughAccountKeys, 12: runtime.ErrAccountBorrowFailed,
	13: runtime.ErrMaxSeedLengthExceeded, 14: runtime.ErrInvalidSeeds, 15: runtime.ErrBorshIoError,
	16: runtime.ErrAccountNotRentExempt, 17: runtime.ErrUnsupportedSysvar, 18: runtime.ErrIllegalOwner,
	19: runtime.ErrMaxAccountsDataAllocationsExceeded, 20: runtime.ErrInvalidRealloc,
	21: runtime.ErrMaxInstructionTraceLengthExceeded, 22: runtime.ErrBuiltinProgramsMustConsumeComputeUnits,
	23: runtime.ErrInvalidAccountOwner, 24: runtime.ErrArithmeticOverflow, 25: runtime.ErrImmutable,
	26: runtime.ErrIncorrectAuthority,
}

// returnError maps a program's non-zero return value to its instruction error: builtin errors
// are their number shifted left 32 bits (1 is Custom(0)), any other value with the upper half
// zero is Custom(value), the rest InvalidError.
func returnError(r0 uint64) error {
	hi := r0 >> 32
	switch {
	case hi == 1 && uint32(r0) == 0:
		return runtime.CustomError(0)
	case hi == 0:
		return runtime.CustomError(uint32(r0))
	case uint32(r0) == 0 && hi < uint64(len(builtinErrors)) && builtinErrors[hi] != (runtime.InstructionError{}):
		return builtinErrors[hi]
	}
	return runtime.ErrInvalidError
}
