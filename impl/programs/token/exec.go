package token

import (
	"bytes"
	"errors"
	"slices"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
)

// Program is SPL Token (classic) and Program2022 is Token-2022, run natively.
type (
	Program     struct{}
	Program2022 struct{}
)

// Modules are both token programs as the node assembles them, run natively, each at genesis an
// upgradeable-loader program (a program account pointing at its program data, deployed at slot 0
// with the zero address as authority), as the reference's test validator installs them: since its
// 4.1 program binaries, SPL Token's id holds p-token under the upgradeable loader, as Token-2022's
// holds Token-2022.
var Modules = []runtime.Module{
	{
		ID:               ProgramID,
		Name:             "spl-token",
		Kind:             runtime.OnChain,
		Program:          Program{},
		Genesis:          runtime.Deployment{Loader: core.BPFLoaderUpgradeableProgramID},
		ParseAccount:     &runtime.AccountParser{Program: "spl-token", Parse: parseTokenAccount},
		ParseInstruction: instructionParser,
	},
	{
		ID:               Program2022ID,
		Name:             "spl-token-2022",
		Kind:             runtime.OnChain,
		Program:          Program2022{},
		Genesis:          runtime.Deployment{Loader: core.BPFLoaderUpgradeableProgramID},
		ParseAccount:     &runtime.AccountParser{Program: "spl-token-2022", Parse: parseTokenAccount},
		ParseInstruction: instructionParser,
	},
}

// instructionParser shows the instructions of both programs under the one name "spl-token", as
// the reference's parse_token does.
var instructionParser = &runtime.InstructionParser{Program: "spl-token", Parse: parseTokenInstruction}

// Execute implements runtime.Program for SPL Token.
func (Program) Execute(ctx *runtime.InvokeContext) error {
	return run(ctx, false)
}

// Execute implements runtime.Program for Token-2022.
func (Program2022) Execute(ctx *runtime.InvokeContext) error {
	return run(ctx, true)
}

// maxPermittedDataIncrease is how much an on-chain program may grow an account in one
// instruction.
const maxPermittedDataIncrease = 10 * 1024

// run executes one instruction the way the on-chain programs and the BPF loader do: the
// program works on copies of its accounts; a failure is logged by the entrypoint
// ("Program log: Error: ...") and discards the copies; on success the loader writes back every
// account whose lamports, data or owner changed, in instruction order, and only then are the
// runtime's account rules applied (so a read-only account left unchanged is fine).
func run(ctx *runtime.InvokeContext, is2022 bool) error {
	e := exec{ctx: ctx, programID: ProgramID, is2022: is2022}
	e.window.n = ctx.NumAccounts()
	if is2022 {
		e.programID = Program2022ID
	}
	if err := ctx.Consume(baseUnits(is2022, ctx.Data())); err != nil {
		return err
	}
	var err error
	if is2022 {
		err = e.process2022(ctx.Data())
	} else {
		err = e.processClassic()
	}
	if err == nil {
		err = e.commit()
	}
	if err == nil {
		return nil
	}
	var rt runtimeError
	if errors.As(err, &rt) {
		return rt.err
	}
	var ie runtime.InstructionError
	if !errors.As(err, &ie) {
		return err
	}
	ctx.ProgramLog(errorLogText(ie))
	return ie
}

// runtimeError is an error raised by the runtime rather than by the program (an account
// rule, the compute meter, a failed invocation): the program does not log it.
type runtimeError struct{ err error }

func (r runtimeError) Error() string { return r.err.Error() }

func (r runtimeError) Unwrap() error { return r.err }

// acctRef is the program's view of one account: its working copy of lamports, data and owner.
// Instruction accounts that are the same transaction account share one acctRef, as the
// on-chain program's duplicated AccountInfos share their data.
type acctRef struct {
	first    int // first instruction account index of this account
	b        runtime.BorrowedAccount
	key      core.Pubkey
	signer   bool
	lamports uint64
	owner    core.Pubkey
	data     []byte // b.Data() until the first write, then a private copy
	private  bool
	origLen  int
}

// mut returns the data for writing.
func (r *acctRef) mut() []byte {
	if !r.private {
		r.data = append(make([]byte, 0, len(r.data)), r.data...)
		r.private = true
	}
	return r.data
}

// resize changes the data length as AccountInfo::resize does: growth is zero-filled and
// limited to 10 KiB over the length at the start of the instruction.
func (r *acctRef) resize(n int) error {
	if n > r.origLen+maxPermittedDataIncrease {
		return errInvalidRealloc
	}
	d := r.mut()
	if n <= len(d) {
		r.data = d[:n]
		return nil
	}
	r.data = append(d, make([]byte, n-len(d))...)
	return nil
}

// exec is one instruction's execution.
type exec struct {
	ctx       *runtime.InvokeContext
	programID core.Pubkey
	is2022    bool
	refs      []*acctRef // by the invoke context's account index
	// window is the instruction's slice of the invoke context's accounts: all of them, or one
	// inner instruction's of a Batch, whose instructions share the accounts' working copies as
	// the on-chain program's inner instructions share their AccountInfos.
	window struct{ base, n int }
}

// acct returns instruction account i (NotEnoughAccountKeys when missing, as
// next_account_info).
func (e *exec) acct(i int) (*acctRef, error) {
	if i < 0 || i >= e.numAccounts() {
		return nil, errNotEnoughAccountKeys
	}
	return e.acctAt(e.window.base + i)
}

// accts sets each of dst to the instruction's accounts in order, from the first: the preamble of most
// instructions (NotEnoughAccountKeys at the first that is missing).
func (e *exec) accts(dst ...**acctRef) error {
	for i, d := range dst {
		r, err := e.acct(i)
		if err != nil {
			return err
		}
		*d = r
	}
	return nil
}

// acctAt returns the invoke context's account i.
func (e *exec) acctAt(i int) (*acctRef, error) {
	for len(e.refs) <= i {
		e.refs = append(e.refs, nil)
	}
	if r := e.refs[i]; r != nil {
		return r, nil
	}
	b, err := e.ctx.Account(i)
	if err != nil {
		return nil, errNotEnoughAccountKeys
	}
	key := b.Key()
	for j := range i {
		k, _ := e.ctx.Key(j)
		if k != key {
			continue
		}
		r, err := e.acctAt(j)
		if err != nil {
			return nil, err
		}
		e.refs[i] = r
		return r, nil
	}
	r := &acctRef{first: i, b: b, key: key, signer: b.IsSigner(), lamports: b.Lamports(), owner: b.Owner(),
		data: b.Data(), origLen: len(b.Data())}
	e.refs[i] = r
	return r, nil
}

func (e *exec) numAccounts() int { return e.window.n }

// key returns the address of instruction account i.
func (e *exec) key(i int) core.Pubkey {
	k, _ := e.ctx.Key(e.window.base + i)
	return k
}

// isSigner reports whether instruction account i signs.
func (e *exec) isSigner(i int) bool {
	s, _ := e.ctx.IsSigner(e.window.base + i)
	return s
}

// commit writes the working copies back in instruction order: for each account its lamports,
// then its data, then its owner, skipping what did not change.
func (e *exec) commit() error {
	var order []*acctRef
	for _, r := range e.refs {
		if r != nil && !slices.Contains(order, r) {
			order = append(order, r)
		}
	}
	slices.SortFunc(order, func(a, b *acctRef) int { return a.first - b.first })
	for _, r := range order {
		if r.lamports != r.b.Lamports() {
			if err := r.b.SetLamports(r.lamports); err != nil {
				return runtimeError{err}
			}
		}
		if r.private {
			cur := r.b.Data()
			if len(cur) != len(r.data) {
				if err := r.b.SetDataLength(len(r.data)); err != nil {
					return runtimeError{err}
				}
				cur = r.b.Data()
			}
			if !bytes.Equal(cur, r.data) {
				d, err := r.b.DataMut()
				if err != nil {
					return runtimeError{err}
				}
				copy(d, r.data)
			}
		}
		if r.owner != r.b.Owner() {
			if err := r.b.SetOwner(r.owner); err != nil {
				return runtimeError{err}
			}
		}
	}
	return nil
}

// invoke commits the working copies (as the loader does before a CPI), runs ix and forgets
// the copies so that later reads see the callee's changes.
func (e *exec) invoke(ix core.Instruction) error {
	return e.invokeSigned(ix, nil)
}

// invokeSigned is invoke with the program addresses of signerSeeds signing (invoke_signed).
func (e *exec) invokeSigned(ix core.Instruction, signerSeeds [][][]byte) error {
	if err := e.commit(); err != nil {
		return err
	}
	if err := e.ctx.Consume(runtime.InvokeUnits); err != nil {
		return runtimeError{err}
	}
	if err := e.ctx.Invoke(ix, signerSeeds); err != nil {
		return runtimeError{err}
	}
	e.refs = e.refs[:0]
	return nil
}

// rentFromAccount is Rent::from_account_info: the account must be the Rent sysvar.
func (e *exec) rentFromAccount(i int) (sysvar.Rent, error) {
	r, err := e.acct(i)
	if err != nil {
		return sysvar.Rent{}, err
	}
	var rent sysvar.Rent
	if r.key != core.SysvarRentID || rent.Unmarshal(r.data) != nil {
		return sysvar.Rent{}, errInvalidArgument
	}
	return rent, nil
}

// checkOwnedByProgram is check_account_owner / check_program_account.
func (e *exec) checkOwnedByProgram(r *acctRef) error {
	if r.owner != e.programID {
		return errIncorrectProgramID
	}
	return nil
}

// validateOwner checks that the authority at instruction index authIdx is expected and has
// signed, or is a multisig of the program whose signers among the accounts after it reach
// its threshold (Processor::validate_owner of either program).
func (e *exec) validateOwner(expected core.Pubkey, authIdx int) error {
	return e.validateOwnerSigners(expected, authIdx, e.numAccounts())
}

// validateOwnerSigners is validateOwner with the multisig signers among the accounts between
// authIdx and end.
func (e *exec) validateOwnerSigners(expected core.Pubkey, authIdx, end int) error {
	auth, err := e.acct(authIdx)
	if err != nil {
		return err
	}
	if auth.key != expected {
		return tokenErr(OwnerMismatch)
	}
	isMultisig := auth.owner == e.programID && len(auth.data) == MultisigSize
	if e.is2022 {
		isMultisig = (auth.owner == ProgramID || auth.owner == Program2022ID) && len(auth.data) == MultisigSize
	}
	if !isMultisig {
		if !auth.signer {
			return errMissingRequiredSignature
		}
		return nil
	}
	var ms Multisig
	if e.is2022 {
		if auth.data[2] == 0 {
			return errUninitializedAccount
		}
		ms.M, ms.N = auth.data[0], auth.data[1]
		for i := range ms.Signers {
			ms.Signers[i] = core.Pubkey(auth.data[3+32*i : 35+32*i])
		}
	} else if ms, err = UnpackMultisig(auth.data); err != nil {
		return err
	}
	if ms.N > MaxSigners { // the on-chain program panics slicing the signers
		return runtimeError{runtime.ErrProgramFailedToComplete}
	}
	n := end
	if err := e.ctx.Consume(multisigUnits(n - authIdx - 1)); err != nil {
		return runtimeError{err}
	}
	var matched [MaxSigners]bool
	signers := 0
	for i := authIdx + 1; i < n; i++ {
		k := e.key(i)
		for pos := range int(ms.N) {
			if ms.Signers[pos] == k && !matched[pos] {
				if !e.isSigner(i) {
					return errMissingRequiredSignature
				}
				matched[pos] = true
				signers++
			}
		}
	}
	if signers < int(ms.M) {
		return errMissingRequiredSignature
	}
	return nil
}

// isValidSignerIndex: a multisig has between 1 and 11 signers.
func isValidSignerIndex(n int) bool { return n >= MinSigners && n <= MaxSigners }

// addU64 and subU64 are checked arithmetic failing with TokenError::Overflow.
func addU64(a, b uint64) (uint64, error) {
	s := a + b
	if s < a {
		return 0, tokenErr(Overflow)
	}
	return s, nil
}

func subU64(a, b uint64) (uint64, error) {
	if b > a {
		return 0, tokenErr(Overflow)
	}
	return a - b, nil
}
