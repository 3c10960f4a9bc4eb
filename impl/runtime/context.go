package runtime

import (
	"math/bits"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
)

// Limits of the reference's transaction context and program runtime.
const (
	// maxStackHeight is the deepest instruction stack: top-level instructions are height 1,
	// cross-program invocations go up to 5 (MAX_INSTRUCTION_STACK_DEPTH).
	maxStackHeight = 5
	// MaxInstructionTraceLength is the most instructions (top-level and CPI) a transaction may
	// run.
	MaxInstructionTraceLength = 64
	// MaxPermittedDataLength is the largest account data (10 MiB).
	MaxPermittedDataLength = 10 * 1024 * 1024
	// MaxAccountDataGrowthPerTransaction bounds the total growth of account data in one
	// transaction (twice MaxPermittedDataLength).
	MaxAccountDataGrowthPerTransaction = 2 * MaxPermittedDataLength
	// DefaultLogBytesLimit is how many bytes of log messages a transaction keeps before
	// "Log truncated".
	DefaultLogBytesLimit = 10 * 1000
)

// MaxStackHeight is the deepest instruction stack height (top level is 1).
const MaxStackHeight = maxStackHeight

// txAccount is one account of the executing transaction.
type txAccount struct {
	key     core.Pubkey
	acct    Account
	private bool // acct.Data is our own copy; the source's slice is never written
}

// instrAccount is an account as one instruction sees it.
type instrAccount struct {
	index    uint16 // index in the transaction's account list
	signer   bool
	writable bool
}

// traceEntry is one instruction in the transaction's instruction trace.
type traceEntry struct {
	program  uint16
	accounts []instrAccount
	data     []byte
	nesting  int // 0 for top-level instructions
}

// txContext is the state shared by every instruction of one transaction.
type txContext struct {
	env      *Env
	registry *Registry
	accounts []txAccount
	// instructionsSysvar is the index of the Instructions sysvar account, or -1.
	instructionsSysvar int

	stack         []*InvokeContext
	trace         []traceEntry
	topLevelIndex int // index of the top-level instruction executing
	cpis          int // CPIs in the trace

	// lamportsDelta is the sum of all lamport changes (i128 as hi:lo), which must be zero
	// whenever an instruction ends or invokes another.
	deltaHi int64
	deltaLo uint64
	// resizeDelta is the net growth of account data in this transaction.
	resizeDelta int64

	remaining uint64 // compute units left
	heapSize  uint32

	// src is the bank's accounts, for what a program reads beyond the transaction's own
	// (an upgradeable program's ProgramData).
	src AccountSource

	returnProgram core.Pubkey
	returnData    []byte

	logs logCollector

	// message is the transaction's message: the precompiles read other instructions' data.
	message *core.Message

	// onInstruction is Options.OnInstruction (profiling); nil when not profiling.
	onInstruction func(InstructionStep)
}

// addLamportsDelta records a change of lamports from old to new.
func (tx *txContext) addLamportsDelta(old, new uint64) {
	var borrow, carry uint64
	if new >= old {
		tx.deltaLo, carry = bits.Add64(tx.deltaLo, new-old, 0)
		tx.deltaHi += int64(carry)
	} else {
		tx.deltaLo, borrow = bits.Sub64(tx.deltaLo, old-new, 0)
		tx.deltaHi -= int64(borrow)
	}
}

func (tx *txContext) lamportsBalanced() bool { return tx.deltaHi == 0 && tx.deltaLo == 0 }

// findAccount returns the transaction index of key, or -1.
func (tx *txContext) findAccount(key core.Pubkey) int {
	for i := range tx.accounts {
		if tx.accounts[i].key == key {
			return i
		}
	}
	return -1
}

// logCollector keeps a transaction's log messages up to a byte limit, then writes
// "Log truncated" once and drops the rest (the reference's LogCollector).
type logCollector struct {
	msgs      []string
	written   int
	limit     int // negative: unlimited
	truncated bool
}

func (l *logCollector) log(msg string) {
	if l.limit < 0 {
		l.msgs = append(l.msgs, msg)
		return
	}
	if l.written+len(msg) >= l.limit {
		if !l.truncated {
			l.truncated = true
			l.msgs = append(l.msgs, "Log truncated")
		}
		return
	}
	l.written += len(msg)
	l.msgs = append(l.msgs, msg)
}

// BorrowedAccount is an instruction's view of one of its accounts, with the reference's
// rules on every change: only the owner program changes data, size or owner, or lowers the
// balance; read-only accounts do not change at all. Data returned by Data must not be
// written; use DataMut, SetData or SetDataLength. A BorrowedAccount stays valid for the whole
// instruction, but slices from Data or DataMut may be replaced by a resize or a CPI.
type BorrowedAccount struct {
	tx      *txContext
	ix      instrAccount
	program uint16 // transaction index of the executing program
}

func (a BorrowedAccount) acct() *txAccount { return &a.tx.accounts[a.ix.index] }

// Key returns the account's address.
func (a BorrowedAccount) Key() core.Pubkey { return a.tx.accounts[a.ix.index].key }

// IndexInTransaction returns the account's index in the transaction's account list.
func (a BorrowedAccount) IndexInTransaction() int { return int(a.ix.index) }

// Owner returns the program that owns the account.
func (a BorrowedAccount) Owner() core.Pubkey { return a.tx.accounts[a.ix.index].acct.Owner }

// Lamports returns the balance.
func (a BorrowedAccount) Lamports() uint64 { return a.tx.accounts[a.ix.index].acct.Lamports }

// Data returns the account data; callers must not modify it.
func (a BorrowedAccount) Data() []byte { return a.tx.accounts[a.ix.index].acct.Data }

// Executable reports the executable flag.
func (a BorrowedAccount) Executable() bool { return a.tx.accounts[a.ix.index].acct.Executable }

// RentEpoch returns the rent epoch.
func (a BorrowedAccount) RentEpoch() uint64 { return a.tx.accounts[a.ix.index].acct.RentEpoch }

// IsSigner reports whether the account signs this instruction.
func (a BorrowedAccount) IsSigner() bool { return a.ix.signer }

// IsWritable reports whether this instruction may write the account.
func (a BorrowedAccount) IsWritable() bool { return a.ix.writable }

// IsOwnedByCurrentProgram reports whether the executing program owns the account.
func (a BorrowedAccount) IsOwnedByCurrentProgram() bool {
	return a.tx.accounts[a.program].key == a.Owner()
}

func (a BorrowedAccount) legacyExecutable() bool {
	return a.tx.env.Features.ExecutableAccountsReadOnly && a.Executable()
}

// SetOwner assigns the account to owner: only its current owner may, only when writable, and
// only while its data is all zeros.
func (a BorrowedAccount) SetOwner(owner core.Pubkey) error {
	if !a.IsOwnedByCurrentProgram() || !a.ix.writable || a.legacyExecutable() || !isZeroed(a.Data()) {
		return ErrModifiedProgramID
	}
	a.acct().acct.Owner = owner
	return nil
}

// SetLamports sets the balance: a program that does not own the account may only raise it,
// and read-only accounts keep theirs.
func (a BorrowedAccount) SetLamports(lamports uint64) error {
	old := a.Lamports()
	if !a.IsOwnedByCurrentProgram() && lamports < old {
		return ErrExternalAccountLamportSpend
	}
	if !a.ix.writable {
		return ErrReadonlyLamportChange
	}
	if a.legacyExecutable() {
		return ErrExecutableLamportChange
	}
	if old == lamports {
		return nil
	}
	a.tx.addLamportsDelta(old, lamports)
	a.acct().acct.Lamports = lamports
	return nil
}

// CheckedAddLamports adds to the balance (ArithmeticOverflow on overflow).
func (a BorrowedAccount) CheckedAddLamports(lamports uint64) error {
	v, carry := bits.Add64(a.Lamports(), lamports, 0)
	if carry != 0 {
		return ErrArithmeticOverflow
	}
	return a.SetLamports(v)
}

// CheckedSubLamports subtracts from the balance (ArithmeticOverflow below zero).
func (a BorrowedAccount) CheckedSubLamports(lamports uint64) error {
	if lamports > a.Lamports() {
		return ErrArithmeticOverflow
	}
	return a.SetLamports(a.Lamports() - lamports)
}

// CanDataBeChanged returns the error a write to the data would get: read-only, or not owned
// by the executing program.
func (a BorrowedAccount) CanDataBeChanged() error {
	if a.legacyExecutable() {
		return ErrExecutableDataModified
	}
	if !a.ix.writable {
		return ErrReadonlyDataModified
	}
	if !a.IsOwnedByCurrentProgram() {
		return ErrExternalAccountDataModified
	}
	return nil
}

// CanDataBeResized returns the error resizing the data to n bytes would get.
func (a BorrowedAccount) CanDataBeResized(n int) error {
	old := len(a.Data())
	if n != old && !a.IsOwnedByCurrentProgram() {
		return ErrAccountDataSizeChanged
	}
	if n > MaxPermittedDataLength {
		return ErrInvalidRealloc
	}
	if a.tx.resizeDelta+int64(n-old) > MaxAccountDataGrowthPerTransaction {
		return ErrMaxAccountsDataAllocationsExceeded
	}
	return a.CanDataBeChanged()
}

// makePrivate gives the account its own copy of the data before the first write.
func (a BorrowedAccount) makePrivate() {
	t := a.acct()
	if !t.private {
		t.acct.Data = append([]byte(nil), t.acct.Data...)
		t.private = true
	}
}

// DataMut returns the data for writing in place.
func (a BorrowedAccount) DataMut() ([]byte, error) {
	if err := a.CanDataBeChanged(); err != nil {
		return nil, err
	}
	a.makePrivate()
	return a.acct().acct.Data, nil
}

// SetData replaces the data (and its length) with a copy of data.
func (a BorrowedAccount) SetData(data []byte) error {
	if err := a.CanDataBeResized(len(data)); err != nil {
		return err
	}
	t := a.acct()
	a.tx.resizeDelta += int64(len(data) - len(t.acct.Data))
	t.acct.Data = append(make([]byte, 0, len(data)), data...)
	t.private = true
	return nil
}

// SetDataLength resizes the data, zero-filling growth.
func (a BorrowedAccount) SetDataLength(n int) error {
	if err := a.CanDataBeResized(n); err != nil {
		return err
	}
	t := a.acct()
	old := len(t.acct.Data)
	if n == old {
		return nil
	}
	a.tx.resizeDelta += int64(n - old)
	d := make([]byte, n)
	copy(d, t.acct.Data)
	t.acct.Data = d
	t.private = true
	return nil
}

// SetExecutable sets the executable flag: the account must be rent exempt, owned by the
// executing program and writable.
func (a BorrowedAccount) SetExecutable(executable bool) error {
	if !a.tx.env.Rent.IsExempt(a.Lamports(), uint64(len(a.Data()))) {
		return ErrExecutableAccountNotRentExempt
	}
	if !a.IsOwnedByCurrentProgram() || !a.ix.writable {
		return ErrExecutableModified
	}
	a.acct().acct.Executable = executable
	return nil
}

// IsRentExemptAtDataLength reports whether the balance would be rent exempt with n bytes.
func (a BorrowedAccount) IsRentExemptAtDataLength(n int) bool {
	return a.tx.env.Rent.IsExempt(a.Lamports(), uint64(n))
}

func isZeroed(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

// rentState is the reference's RentState of an account.
type rentState struct {
	kind     uint8 // rentUninitialized, rentPaying, rentExempt
	lamports uint64
	dataSize int
}

const (
	rentUninitialized uint8 = iota
	rentPaying
	rentExempt
)

func getRentState(r *sysvar.Rent, lamports uint64, dataSize int) rentState {
	switch {
	case lamports == 0:
		return rentState{kind: rentUninitialized}
	case r.IsExempt(lamports, uint64(dataSize)):
		return rentState{kind: rentExempt}
	}
	return rentState{kind: rentPaying, lamports: lamports, dataSize: dataSize}
}

// rentTransitionAllowed: any account may end uninitialized or rent exempt; a rent-paying
// account may stay rent paying only with the same size and no more lamports.
func rentTransitionAllowed(pre, post rentState) bool {
	if post.kind != rentPaying {
		return true
	}
	return pre.kind == rentPaying && post.dataSize == pre.dataSize && post.lamports <= pre.lamports
}
