package runtime

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
)

// InvokeContext is what a program sees while it executes one instruction: its accounts and
// data, the compute meter, the log, return data, the sysvars, and cross-program invocation.
// It is valid only during Program.Execute.
type InvokeContext struct {
	tx          *txContext
	program     uint16 // transaction index of the program account
	programID   core.Pubkey
	accounts    []instrAccount
	data        []byte
	stackHeight int
	entry       *registered
}

// ProgramID returns the executing program's id.
func (c *InvokeContext) ProgramID() core.Pubkey { return c.programID }

// Data returns the instruction data; callers must not modify it.
func (c *InvokeContext) Data() []byte { return c.data }

// InstructionDatas returns the data of every top-level instruction of the transaction, in
// order (the precompiles verify signatures found in any of them); callers must not modify it.
func (c *InvokeContext) InstructionDatas() [][]byte {
	m := c.tx.message
	if m == nil {
		return nil
	}
	out := make([][]byte, len(m.Instructions))
	for i := range m.Instructions {
		out[i] = m.Instructions[i].Data
	}
	return out
}

// StackHeight returns the invocation depth: 1 for top-level instructions.
func (c *InvokeContext) StackHeight() int { return c.stackHeight }

// Env returns the environment the transaction executes in.
func (c *InvokeContext) Env() *Env { return c.tx.env }

// Rent returns the Rent sysvar.
func (c *InvokeContext) Rent() sysvar.Rent { return c.tx.env.Rent }

// Clock returns the Clock sysvar.
func (c *InvokeContext) Clock() sysvar.Clock { return c.tx.env.Clock }

// EpochSchedule returns the EpochSchedule sysvar.
func (c *InvokeContext) EpochSchedule() sysvar.EpochSchedule { return c.tx.env.EpochSchedule }

// RecentBlockhashes returns the RecentBlockhashes sysvar.
func (c *InvokeContext) RecentBlockhashes() sysvar.RecentBlockhashes {
	return c.tx.env.RecentBlockhashes
}

// Sysvar returns the account data of the sysvar id from the bank's sysvar cache
// (UnsupportedSysvar when the bank has none).
func (c *InvokeContext) Sysvar(id core.Pubkey) ([]byte, error) {
	d, ok := c.tx.env.Sysvar(id)
	if !ok {
		return nil, ErrUnsupportedSysvar
	}
	return d, nil
}

// Blockhash returns the bank's blockhash, the source of durable nonce values.
func (c *InvokeContext) Blockhash() core.Hash { return c.tx.env.Blockhash }

// LamportsPerSignature returns the bank's fee per signature.
func (c *InvokeContext) LamportsPerSignature() uint64 { return c.tx.env.LamportsPerSignature }

// Features returns the feature switches.
func (c *InvokeContext) Features() Features { return c.tx.env.Features }

// HeapSize returns the transaction's program heap size in bytes.
func (c *InvokeContext) HeapSize() uint32 { return c.tx.heapSize }

// NumAccounts returns how many accounts the instruction has (duplicates included).
func (c *InvokeContext) NumAccounts() int { return len(c.accounts) }

// CheckNumAccounts returns MissingAccount when the instruction has fewer than n accounts.
func (c *InvokeContext) CheckNumAccounts(n int) error {
	if len(c.accounts) < n {
		return ErrMissingAccount
	}
	return nil
}

// Account returns instruction account i (MissingAccount when out of range).
func (c *InvokeContext) Account(i int) (BorrowedAccount, error) {
	if i < 0 || i >= len(c.accounts) {
		return BorrowedAccount{}, ErrMissingAccount
	}
	return BorrowedAccount{tx: c.tx, ix: c.accounts[i], program: c.program}, nil
}

// Key returns the address of instruction account i.
func (c *InvokeContext) Key(i int) (core.Pubkey, error) {
	if i < 0 || i >= len(c.accounts) {
		return core.Pubkey{}, ErrMissingAccount
	}
	return c.tx.accounts[c.accounts[i].index].key, nil
}

// IsSigner reports whether instruction account i signs.
func (c *InvokeContext) IsSigner(i int) (bool, error) {
	if i < 0 || i >= len(c.accounts) {
		return false, ErrMissingAccount
	}
	return c.accounts[i].signer, nil
}

// IsWritable reports whether instruction account i is writable.
func (c *InvokeContext) IsWritable(i int) (bool, error) {
	if i < 0 || i >= len(c.accounts) {
		return false, ErrMissingAccount
	}
	return c.accounts[i].writable, nil
}

// IsSignerKey reports whether some signing instruction account has address k (the
// reference's get_signers().contains(k)).
func (c *InvokeContext) IsSignerKey(k core.Pubkey) bool {
	for _, a := range c.accounts {
		if a.signer && c.tx.accounts[a.index].key == k {
			return true
		}
	}
	return false
}

// CheckSysvarAccount checks that instruction account i is the sysvar id, as the reference's
// get_sysvar_with_account_check does before it reads the sysvar cache (MissingAccount when
// absent, InvalidArgument when it is another account).
func (c *InvokeContext) CheckSysvarAccount(i int, id core.Pubkey) error {
	k, err := c.Key(i)
	if err != nil {
		return err
	}
	if k != id {
		return ErrInvalidArgument
	}
	return nil
}

// Log writes a raw line to the transaction log, as the reference's ic_msg! does for builtin
// programs (no "Program log: " prefix).
func (c *InvokeContext) Log(msg string) { c.tx.logs.log(msg) }

// Logf is Log with formatting.
func (c *InvokeContext) Logf(format string, args ...any) { c.tx.logs.log(fmt.Sprintf(format, args...)) }

// ProgramLog writes "Program log: <msg>", the line sol_log writes for on-chain programs.
func (c *InvokeContext) ProgramLog(msg string) { c.tx.logs.log("Program log: " + msg) }

// ProgramData writes "Program data: <base64> <base64> ...", the line sol_log_data writes.
func (c *InvokeContext) ProgramData(fields ...[]byte) {
	var b strings.Builder
	b.WriteString("Program data:")
	for _, f := range fields {
		b.WriteByte(' ')
		b.WriteString(base64.StdEncoding.EncodeToString(f))
	}
	c.tx.logs.log(b.String())
}

// Consume charges compute units. When fewer remain, the meter is emptied and
// ComputationalBudgetExceeded returned.
func (c *InvokeContext) Consume(units uint64) error {
	if c.tx.remaining < units {
		c.tx.remaining = 0
		return ErrComputationalBudgetExceeded
	}
	c.tx.remaining -= units
	return nil
}

// Remaining returns the compute units left in the transaction.
func (c *InvokeContext) Remaining() uint64 { return c.tx.remaining }

// MaxReturnDataLength is the most return data a program may set.
const MaxReturnDataLength = 1024

// SetReturnData sets the transaction's return data, attributed to the executing program.
// More than MaxReturnDataLength bytes fails the program as the reference's syscall does
// (reported as ProgramFailedToComplete).
func (c *InvokeContext) SetReturnData(data []byte) error {
	if len(data) > MaxReturnDataLength {
		return fmt.Errorf("Return data too large (%d > %d)", len(data), MaxReturnDataLength)
	}
	c.tx.returnProgram = c.programID
	c.tx.returnData = append([]byte(nil), data...)
	return nil
}

// ReturnData returns the latest return data and the program that set it.
func (c *InvokeContext) ReturnData() (core.Pubkey, []byte) {
	return c.tx.returnProgram, c.tx.returnData
}

// InvokeUnits is what the reference charges an sBPF program for each cross-program invocation
// (before the callee's own cost). Natively run on-chain programs charge it themselves.
const InvokeUnits = 1000

// Invoke runs ix as a cross-program invocation of the executing program. signerSeeds lists,
// for each program-derived address that signs, its seeds (bump included); the addresses are
// derived from the executing program's id. Privileges may not escalate: an account writable
// or signing in ix must be so in this instruction, or be one of those addresses.
func (c *InvokeContext) Invoke(ix core.Instruction, signerSeeds [][][]byte) error {
	var signers []core.Pubkey
	for _, seeds := range signerSeeds {
		pda, err := core.CreateProgramAddress(seeds, c.programID)
		if err != nil {
			if errors.Is(err, core.ErrMaxSeedLengthExceeded) {
				return ErrMaxSeedLengthExceeded
			}
			return ErrInvalidSeeds
		}
		signers = append(signers, pda)
	}
	return c.InvokeWithSigners(ix, signers)
}

// InvokeWithSigners runs ix as a cross-program invocation with signers as additional signers
// (the reference's native_invoke, which builtin programs use).
func (c *InvokeContext) InvokeWithSigners(ix core.Instruction, signers []core.Pubkey) error {
	callee, err := c.prepareInvoke(&ix, signers)
	if err != nil {
		return err
	}
	_, err = c.tx.processInstruction(callee)
	return err
}

// prepareInvoke builds the callee's instruction context, checking every account against the
// caller's privileges (the reference's prepare_next_instruction).
func (c *InvokeContext) prepareInvoke(ix *core.Instruction, signers []core.Pubkey) (*InvokeContext, error) {
	tx := c.tx
	accounts := make([]instrAccount, len(ix.Accounts))
	first := make([]int, len(ix.Accounts)) // position of the first meta with the same account
	for i, meta := range ix.Accounts {
		idx := tx.findAccount(meta.Pubkey)
		if idx < 0 {
			c.Logf("Instruction references an unknown account %s", meta.Pubkey)
			return nil, ErrMissingAccount
		}
		first[i] = i
		for j := range i {
			if accounts[j].index == uint16(idx) {
				first[i] = first[j]
				break
			}
		}
		f := first[i]
		accounts[i] = instrAccount{index: uint16(idx), signer: meta.IsSigner, writable: meta.IsWritable}
		accounts[f].signer = accounts[f].signer || meta.IsSigner
		accounts[f].writable = accounts[f].writable || meta.IsWritable
	}
	for i := range accounts {
		f := first[i]
		if f != i {
			accounts[i].signer = accounts[f].signer
			accounts[i].writable = accounts[f].writable
			continue
		}
		caller, ok := c.instructionAccountOf(accounts[i].index)
		if !ok {
			return nil, ErrMissingAccount
		}
		key := tx.accounts[accounts[i].index].key
		if accounts[i].writable && !caller.writable {
			c.Logf("%s's writable privilege escalated", key)
			return nil, ErrPrivilegeEscalation
		}
		if accounts[i].signer && !caller.signer && !containsKey(signers, key) {
			c.Logf("%s's signer privilege escalated", key)
			return nil, ErrPrivilegeEscalation
		}
	}
	program := -1
	for _, a := range c.accounts {
		if tx.accounts[a.index].key == ix.ProgramID {
			program = int(a.index)
			break
		}
	}
	if program < 0 {
		c.Logf("Unknown program %s", ix.ProgramID)
		return nil, ErrMissingAccount
	}
	if tx.env.Features.ExecutableAccountsReadOnly && !tx.accounts[program].acct.Executable {
		c.Logf("Account %s is not executable", ix.ProgramID)
		return nil, ErrAccountNotExecutable
	}
	return &InvokeContext{
		tx:          tx,
		program:     uint16(program),
		programID:   ix.ProgramID,
		accounts:    accounts,
		data:        ix.Data,
		stackHeight: c.stackHeight + 1,
	}, nil
}

// instructionAccountOf returns the caller's first instruction account at transaction index i.
func (c *InvokeContext) instructionAccountOf(i uint16) (instrAccount, bool) {
	for _, a := range c.accounts {
		if a.index == i {
			return a, true
		}
	}
	return instrAccount{}, false
}

func containsKey(keys []core.Pubkey, k core.Pubkey) bool {
	for i := range keys {
		if keys[i] == k {
			return true
		}
	}
	return false
}

// processInstruction pushes ctx on the instruction stack, runs its program and pops it,
// returning the compute units the program consumed.
func (tx *txContext) processInstruction(ctx *InvokeContext) (uint64, error) {
	if err := tx.push(ctx); err != nil {
		return 0, err
	}
	consumed, err := tx.processExecutable(ctx)
	perr := tx.pop()
	if err == nil {
		err = perr
	}
	return consumed, err
}

// push checks the stack rules and records ctx in the instruction trace (the reference's
// InvokeContext::push and TransactionContext::push).
func (tx *txContext) push(ctx *InvokeContext) error {
	nesting := len(tx.stack)
	if nesting > 0 {
		// Reentrancy is allowed only for a program calling itself directly.
		last := tx.stack[nesting-1].programID
		if last != ctx.programID {
			for _, f := range tx.stack {
				if f.programID == ctx.programID {
					return ErrReentrancyNotAllowed
				}
			}
		}
		if !tx.lamportsBalanced() {
			return ErrUnbalancedInstruction
		}
	}
	called := tx.topLevelIndex + tx.cpis
	if nesting > 0 {
		called = tx.topLevelIndex + 1 + tx.cpis
	}
	if called >= MaxInstructionTraceLength {
		return ErrMaxInstructionTraceLengthExceeded
	}
	tx.trace = append(tx.trace, traceEntry{program: ctx.program, accounts: ctx.accounts, data: ctx.data, nesting: nesting})
	if nesting > 0 {
		tx.cpis++
	}
	if nesting >= maxStackHeight {
		return ErrCallDepth
	}
	tx.stack = append(tx.stack, ctx)
	if tx.instructionsSysvar >= 0 {
		sysvar.StoreCurrentInstructionIndex(tx.accounts[tx.instructionsSysvar].acct.Data, uint16(tx.topLevelIndex))
	}
	return nil
}

// pop removes the executing instruction, which must have left lamports balanced.
func (tx *txContext) pop() error {
	tx.stack = tx.stack[:len(tx.stack)-1]
	if !tx.lamportsBalanced() {
		return ErrUnbalancedInstruction
	}
	return nil
}

// processExecutable finds the program and runs it with the reference's log lines around it.
func (tx *txContext) processExecutable(ctx *InvokeContext) (uint64, error) {
	entry, ok := tx.registry.runnerOf(ctx.programID, tx.accounts[ctx.program].acct.Owner)
	if !ok {
		return 0, ErrUnsupportedProgramID
	}
	ctx.entry = entry
	if entry.kind == Precompile {
		return 0, asInstructionError(runProgram(entry.program, ctx))
	}
	tx.returnProgram = ctx.programID
	tx.returnData = nil
	tx.logs.log(entry.invoke[ctx.stackHeight])
	pre := tx.remaining
	err := runProgram(entry.program, ctx)
	consumed := pre - tx.remaining
	if entry.kind == OnChain {
		tx.logs.log("Program " + entry.id + " consumed " + strconv.FormatUint(consumed, 10) +
			" of " + strconv.FormatUint(pre, 10) + " compute units")
		if len(tx.returnData) > 0 {
			tx.logs.log("Program return: " + entry.id + " " + base64.StdEncoding.EncodeToString(tx.returnData))
		}
	}
	if err != nil {
		tx.logs.log("Program " + entry.id + " failed: " + err.Error())
		return consumed, asInstructionError(err)
	}
	tx.logs.log(entry.success)
	if entry.kind == Builtin && consumed == 0 {
		return 0, ErrBuiltinProgramsMustConsumeComputeUnits
	}
	return consumed, nil
}

// runProgram executes p, turning a panic into ProgramFailedToComplete so a faulty program
// cannot take the node down.
func runProgram(p Program, ctx *InvokeContext) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panicked: %v", r)
		}
	}()
	return p.Execute(ctx)
}

// asInstructionError maps a program's error to the InstructionError the transaction reports.
func asInstructionError(err error) error {
	if err == nil {
		return nil
	}
	var ie InstructionError
	if errors.As(err, &ie) {
		return ie
	}
	return ErrProgramFailedToComplete
}

// ProcessedSiblingInstruction returns the index-th most recent instruction (0: the latest) that completed at
// the current instruction's stack height under the same parent, as sol_get_processed_sibling_instruction does:
// how the token programs check for a memo before a transfer.
func (c *InvokeContext) ProcessedSiblingInstruction(index int) (core.Instruction, bool) {
	tx, nesting, seen := c.tx, c.stackHeight-1, 0
	for i := len(tx.trace) - 1; i >= 0; i-- {
		e := &tx.trace[i]
		if e.nesting < nesting {
			break
		}
		if e.nesting != nesting {
			continue
		}
		// The first entry at this height is the executing instruction itself.
		if seen == index+1 {
			metas := make([]core.AccountMeta, len(e.accounts))
			for j, a := range e.accounts {
				metas[j] = core.AccountMeta{Pubkey: tx.accounts[a.index].key, IsSigner: a.signer, IsWritable: a.writable}
			}
			return core.Instruction{ProgramID: tx.accounts[e.program].key, Accounts: metas, Data: append([]byte(nil), e.data...)}, true
		}
		seen++
	}
	return core.Instruction{}, false
}
