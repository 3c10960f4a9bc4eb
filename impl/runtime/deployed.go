package runtime

import (
	"ledgerd/impl/core"
)

// What the loaders need to run deployed (sBPF) programs: the program's own account and the
// accounts beyond the transaction it is loaded from, the instruction trace the syscalls read,
// direct access to the compute meter (the VM keeps its own while it runs), and a cross-program
// invocation prepared in one step and run in another, so that the VM's account sync can run
// between them.

// ProgramAccount returns the executing program's account as this transaction sees it. Its data
// must not be modified.
func (c *InvokeContext) ProgramAccount() Account { return c.tx.accounts[c.program].acct }

// LoadAccount returns account k as this transaction sees it: the transaction's own copy when k
// is one of its accounts, else the bank's. An account without lamports does not exist. The data
// must not be modified.
func (c *InvokeContext) LoadAccount(k core.Pubkey) (Account, bool) {
	if i := c.tx.findAccount(k); i >= 0 {
		a := c.tx.accounts[i].acct
		return a, a.Lamports > 0
	}
	if c.tx.src == nil {
		return Account{}, false
	}
	a, ok := c.tx.src.GetAccount(k)
	return a, ok && a.Lamports > 0
}

// EpochStake returns the stake the bank's epoch stakes delegate to vote account vote, or their
// total when vote is nil (see Env.EpochStake).
func (c *InvokeContext) EpochStake(vote *core.Pubkey) uint64 {
	if f := c.tx.env.EpochStake; f != nil {
		return f(vote)
	}
	return 0
}

// ConsumeAll empties the compute meter (the reference does so when a VM faults).
func (c *InvokeContext) ConsumeAll() { c.tx.remaining = 0 }

// SetRemaining sets the compute units left; a VM that metered units itself hands the meter
// back this way. It never raises the meter.
func (c *InvokeContext) SetRemaining(units uint64) {
	if units < c.tx.remaining {
		c.tx.remaining = units
	}
}

// TracedInstruction is one instruction of the transaction's instruction trace.
type TracedInstruction struct {
	StackHeight int
	ProgramID   core.Pubkey
	Accounts    []core.AccountMeta
	Data        []byte
}

// InstructionTraceLength returns how many instructions the transaction has run or is running,
// in invocation order; the last is the executing one.
func (c *InvokeContext) InstructionTraceLength() int { return len(c.tx.trace) }

// TraceInstruction returns entry i of the instruction trace (0 <= i < InstructionTraceLength).
func (c *InvokeContext) TraceInstruction(i int) TracedInstruction {
	e := &c.tx.trace[i]
	metas := make([]core.AccountMeta, len(e.accounts))
	for j, a := range e.accounts {
		metas[j] = core.AccountMeta{Pubkey: c.tx.accounts[a.index].key, IsSigner: a.signer, IsWritable: a.writable}
	}
	return TracedInstruction{StackHeight: e.nesting + 1, ProgramID: c.tx.accounts[e.program].key,
		Accounts: metas, Data: e.data}
}

// DuplicateOf returns the position of the first instruction account that is the same
// transaction account as account i, when that is an earlier one (the reference's
// is_instruction_account_duplicate).
func (c *InvokeContext) DuplicateOf(i int) (int, bool) {
	idx := c.accounts[i].index
	for j := range i {
		if c.accounts[j].index == idx {
			return j, true
		}
	}
	return 0, false
}

// IndexOfAccount returns the position of the first instruction account holding transaction
// account idx.
func (c *InvokeContext) IndexOfAccount(idx int) (int, bool) {
	for j, a := range c.accounts {
		if int(a.index) == idx {
			return j, true
		}
	}
	return 0, false
}

// Invocation is a cross-program invocation whose accounts passed the privilege checks, ready to
// run. Between PrepareInvoke and Run the caller syncs its view of the accounts into the
// transaction's (an sBPF caller's serialized input), and after Run back.
type Invocation struct {
	callee *InvokeContext
}

// PrepareInvoke checks ix against the executing instruction's privileges (signers are the
// program-derived addresses that sign) and builds the callee's instruction, as the reference's
// prepare_next_instruction.
func (c *InvokeContext) PrepareInvoke(ix core.Instruction, signers []core.Pubkey) (*Invocation, error) {
	callee, err := c.prepareInvoke(&ix, signers)
	if err != nil {
		return nil, err
	}
	return &Invocation{callee: callee}, nil
}

// NumAccounts returns the callee's instruction accounts, duplicates included.
func (v *Invocation) NumAccounts() int { return len(v.callee.accounts) }

// Account returns callee instruction account i: its index in the transaction, whether the callee
// may write it, and whether it repeats an earlier account of the callee.
func (v *Invocation) Account(i int) (txIndex int, writable, duplicate bool) {
	a := v.callee.accounts[i]
	_, dup := v.callee.DuplicateOf(i)
	return int(a.index), a.writable, dup
}

// Run executes the callee with the runtime's checks and logs around it.
func (v *Invocation) Run() error {
	_, err := v.callee.tx.processInstruction(v.callee)
	return err
}
