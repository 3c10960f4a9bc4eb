package runtime

import (
	"errors"
	"math/bits"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime/nonce"
)

// Loaded-data-size accounting of SIMD-0186.
const (
	// TransactionAccountBaseSize is charged for every existing account besides its data.
	TransactionAccountBaseSize = 64
	// AddressLookupTableBaseSize is charged for every address lookup table a v0 message uses.
	AddressLookupTableBaseSize = 8248
)

// programOwners are the loaders a program account may be owned by.
var programOwners = [...]core.Pubkey{
	core.NativeLoaderProgramID,
	core.BPFLoaderDeprecatedProgramID,
	core.BPFLoaderProgramID,
	core.BPFLoaderUpgradeableProgramID,
	core.LoaderV4ProgramID,
}

// Options tunes one execution.
type Options struct {
	// LoadedAddresses are the accounts a v0 message's lookups resolved to (nil for legacy
	// messages). Resolving lookup tables is the caller's job.
	LoadedAddresses *core.LoadedAddresses
	// CheckBlockhash reports whether the message's recent blockhash may be used (present in
	// the bank's blockhash queue and young enough) and the lamports per signature recorded
	// with it. Nil accepts Env.Blockhash and Env.RecentBlockhashes.
	CheckBlockhash func(recentBlockhash core.Hash) (lamportsPerSignature uint64, ok bool)
	// AlreadyProcessed reports whether the transaction is in the bank's status cache. It is
	// asked after the blockhash check, as the reference does. Nil means never.
	AlreadyProcessed func() bool
	// UncheckedBlockhash, when set, lets a message whose blockhash is neither valid nor a durable nonce run
	// anyway, at the lamports per signature it returns (a developer node with its blockhash check off; a
	// durable nonce is still recognized and advanced). Nil refuses it (BlockhashNotFound).
	UncheckedBlockhash func() (lamportsPerSignature uint64)
	// LogBytesLimit caps the log (0: DefaultLogBytesLimit; negative: no limit).
	LogBytesLimit int
	// OnInstruction, when set, hears of each top-level instruction before and after it runs (profile.go).
	OnInstruction func(InstructionStep)
}

// InnerInstruction is an instruction a program invoked, compiled against the transaction's
// account list.
type InnerInstruction struct {
	ProgramIDIndex uint8
	Accounts       []uint8
	Data           []byte
	StackHeight    uint8
}

// InnerInstructions are the invocations made while executing top-level instruction Index.
type InnerInstructions struct {
	Index        uint8
	Instructions []InnerInstruction
}

// ReturnData is the data the last program to set it returned.
type ReturnData struct {
	ProgramID core.Pubkey
	Data      []byte
}

// Result is everything the execution of one transaction produced.
type Result struct {
	// Err is nil on success.
	Err *TransactionError
	// Processed reports whether the transaction belongs in a block: its fee is charged (and
	// a durable nonce advanced) even when Err is set. Transactions that fail before loading
	// (locks, blockhash, compute budget, fee payer) are not processed and change nothing.
	Processed bool
	// Fee is the fee charged, when processed.
	Fee        uint64
	FeeDetails FeeDetails
	// Budget is the transaction's compute budget (zero when it failed to parse).
	Budget ComputeBudget
	// AccountKeys is the full account list (static keys, then loaded ones), which the
	// balances and inner instructions index.
	AccountKeys []core.Pubkey
	// PreBalances and PostBalances are the lamports of every account before the fee and after
	// the transaction (set when processed).
	PreBalances  []uint64
	PostBalances []uint64
	// Logs are the log messages, "Log truncated" included.
	Logs []string
	// InnerInstructions lists, per top-level instruction that invoked others, those
	// invocations in order.
	InnerInstructions []InnerInstructions
	// ReturnData is set when the last program to set return data set some.
	ReturnData *ReturnData
	// ComputeUnitsConsumed is the units the executed instructions used.
	ComputeUnitsConsumed uint64
	// LoadedAccountsDataSize is the SIMD-0186 size of the loaded accounts.
	LoadedAccountsDataSize uint32
	// Writes are the accounts to store: on success every writable account; on failure the
	// fee payer, debited, and an advanced durable nonce account.
	Writes []AccountWrite
}

// nonceInfo is a durable nonce account advanced for the transaction.
type nonceInfo struct {
	key  core.Pubkey
	acct Account
}

// Execute runs tx against the accounts of src in env. It never panics and never modifies what
// src returns; the caller commits Result.Writes. Signature verification is the caller's job.
func Execute(env *Env, src AccountSource, tx *core.Transaction, opts Options) *Result {
	res := &Result{}
	m := &tx.Message
	loaded := opts.LoadedAddresses
	if m.Version == core.VersionLegacy {
		loaded = nil
	}
	if m.Sanitize() != nil {
		return res.fail(TxSanitizeFailure)
	}
	if w, r := m.NumLookupAddresses(); loaded.Len() != w+r ||
		(loaded != nil && (len(loaded.Writable) != w || len(loaded.Readonly) != r)) {
		return res.fail(TxSanitizeFailure)
	}
	keys := m.FullAccountKeys(loaded)
	res.AccountKeys = keys

	// Account locks.
	switch err := core.ValidateAccountLocks(keys, core.MaxTxAccountLocks); {
	case errors.Is(err, core.ErrTooManyAccountLocks):
		return res.fail(TxTooManyAccountLocks)
	case err != nil:
		return res.fail(TxAccountLoadedTwice)
	}

	// Age: a recent blockhash, or else a durable nonce that can be advanced.
	var blockhashLPS uint64
	var ok bool
	if opts.CheckBlockhash != nil {
		blockhashLPS, ok = opts.CheckBlockhash(m.RecentBlockhash)
	} else {
		blockhashLPS, ok = env.blockhashValid(m.RecentBlockhash)
	}
	var nonceAcct *nonceInfo
	if !ok {
		var nonceLPS uint64
		nonceAcct, nonceLPS = checkDurableNonce(env, src, m, loaded)
		if nonceAcct == nil {
			if opts.UncheckedBlockhash == nil {
				return res.fail(TxBlockhashNotFound)
			}
			nonceLPS = opts.UncheckedBlockhash()
		}
		blockhashLPS = nonceLPS
	}
	if opts.AlreadyProcessed != nil && opts.AlreadyProcessed() {
		return res.fail(TxAlreadyProcessed)
	}

	// Compute budget and fee.
	budget, terr := ComputeBudgetFromMessage(m)
	if terr != nil {
		res.Err = terr
		return res
	}
	res.Budget = budget
	fee := CalculateFee(tx, budget, env.LamportsPerSignature)
	if blockhashLPS == 0 {
		fee = FeeDetails{}
	}

	// Fee payer.
	payer, payerExists := loadAccount(env, src, keys[0])
	if !payerExists {
		return res.fail(TxAccountNotFound)
	}
	payerLoadedRentEpoch := payer.RentEpoch
	updateRentExemptStatus(&env.Rent, &payer)
	payerPre := payer.Lamports
	if terr := validateFeePayer(env, keys[0], &payer, fee.Total()); terr != nil {
		res.Err = terr
		return res
	}
	res.Processed = true
	res.Fee = fee.Total()
	res.FeeDetails = fee
	rollback := rollbackWrites(keys[0], payer, payerLoadedRentEpoch, nonceAcct)

	// Load the other accounts.
	writable := make([]bool, len(keys))
	for i := range keys {
		writable[i] = m.IsWritableLoaded(i, loaded)
	}
	txc := &txContext{
		env:                env,
		registry:           env.registry(),
		accounts:           make([]txAccount, len(keys)),
		instructionsSysvar: -1,
		remaining:          uint64(budget.ComputeUnitLimit),
		heapSize:           budget.HeapSize,
		src:                src,
		onInstruction:      opts.OnInstruction,
	}
	switch {
	case opts.LogBytesLimit == 0:
		txc.logs.limit = DefaultLogBytesLimit
	default:
		txc.logs.limit = opts.LogBytesLimit
	}
	exists := make([]bool, len(keys))
	res.PreBalances = make([]uint64, len(keys))
	txc.accounts[0] = txAccount{key: keys[0], acct: payer}
	exists[0] = true
	res.PreBalances[0] = payerPre
	for i := 1; i < len(keys); i++ {
		k := keys[i]
		if k == core.SysvarInstructionsID {
			txc.accounts[i] = txAccount{key: k, acct: instructionsAccount(m, keys, writable), private: true}
			txc.instructionsSysvar = i
			continue
		}
		a, ok := loadAccount(env, src, k)
		if ok {
			exists[i] = true
			if writable[i] {
				updateRentExemptStatus(&env.Rent, &a)
			}
		} else {
			a = Account{RentEpoch: RentExemptRentEpoch}
		}
		txc.accounts[i] = txAccount{key: k, acct: a}
		res.PreBalances[i] = a.Lamports
	}
	dataSize, terr := loadedAccountsDataSize(env, src, m, txc.accounts, exists, budget.LoadedAccountsDataSizeLimit)
	res.LoadedAccountsDataSize = dataSize
	if terr == nil {
		terr = validatePrograms(m, txc.accounts, exists, env.Features.ExecutableAccountsReadOnly)
	}
	if terr != nil {
		res.Err = terr
		res.Writes = rollback
		res.PostBalances = postBalancesAfterRollback(res.PreBalances, keys, rollback)
		return res
	}

	// Execute.
	preRent := make([]rentState, len(keys))
	var sumHi, sumLo uint64
	for i := range txc.accounts {
		a := &txc.accounts[i].acct
		if writable[i] {
			preRent[i] = getRentState(&env.Rent, a.Lamports, len(a.Data))
		}
		var c uint64
		sumLo, c = bits.Add64(sumLo, a.Lamports, 0)
		sumHi += c
	}
	terr = executeInstructions(txc, m, writable, res)
	if terr == nil {
		for i := range txc.accounts {
			if !writable[i] {
				continue
			}
			a := &txc.accounts[i].acct
			post := getRentState(&env.Rent, a.Lamports, len(a.Data))
			if !rentTransitionAllowed(preRent[i], post) && txc.accounts[i].key != core.IncineratorID {
				terr = InsufficientFundsForRentError(uint8(i))
				break
			}
		}
	}
	if terr == nil {
		var hi, lo, c uint64
		for i := range txc.accounts {
			lo, c = bits.Add64(lo, txc.accounts[i].acct.Lamports, 0)
			hi += c
		}
		if hi != sumHi || lo != sumLo {
			terr = NewTransactionError(TxUnbalancedTransaction)
		}
	}
	res.Logs = txc.logs.msgs
	res.InnerInstructions = innerInstructions(txc.trace)
	if len(txc.returnData) > 0 {
		res.ReturnData = &ReturnData{ProgramID: txc.returnProgram, Data: txc.returnData}
	}
	if terr != nil {
		res.Err = terr
		res.Writes = rollback
		res.PostBalances = postBalancesAfterRollback(res.PreBalances, keys, rollback)
		return res
	}
	res.PostBalances = make([]uint64, len(keys))
	for i := range txc.accounts {
		res.PostBalances[i] = txc.accounts[i].acct.Lamports
		if !writable[i] || (m.IsKeyCalledAsProgram(i) && !m.IsInstructionAccount(i)) {
			continue
		}
		res.Writes = append(res.Writes, AccountWrite{Pubkey: keys[i], Account: txc.accounts[i].acct})
	}
	return res
}

func (res *Result) fail(kind TransactionErrorKind) *Result {
	res.Err = NewTransactionError(kind)
	return res
}

// loadAccount reads an existing account (non-zero lamports) from src, falling back to the
// Env's sysvars so that transactions can read them even from a bare source.
func loadAccount(env *Env, src AccountSource, k core.Pubkey) (Account, bool) {
	if a, ok := src.GetAccount(k); ok && a.Lamports > 0 {
		return a, true
	}
	if core.IsSysvarID(k) {
		if a, ok := env.SysvarAccount(k); ok {
			return a, true
		}
	}
	return Account{}, false
}

// updateRentExemptStatus marks a rent-exempt account with RentExemptRentEpoch, as loading a
// writable account does now that rent is no longer collected.
func updateRentExemptStatus(r *sysvar.Rent, a *Account) {
	if a.RentEpoch != RentExemptRentEpoch && r.IsExempt(a.Lamports, uint64(len(a.Data))) {
		a.RentEpoch = RentExemptRentEpoch
	}
}

// validateFeePayer checks that the payer may pay fee and debits it (the reference's
// validate_fee_payer): a system account without data, or an initialized nonce account which
// must keep its rent-exempt minimum; afterwards the payer must be rent exempt or empty.
func validateFeePayer(env *Env, key core.Pubkey, payer *Account, fee uint64) *TransactionError {
	if payer.Lamports == 0 {
		return NewTransactionError(TxAccountNotFound)
	}
	var minBalance uint64
	switch {
	case payer.Owner == core.SystemProgramID && len(payer.Data) == 0:
	case nonce.IsNonceAccount(payer.Owner, payer.Data):
		minBalance = env.Rent.MinimumBalance(nonce.Size)
	default:
		return NewTransactionError(TxInvalidAccountForFee)
	}
	if payer.Lamports < minBalance || payer.Lamports-minBalance < fee {
		return NewTransactionError(TxInsufficientFundsForFee)
	}
	pre := getRentState(&env.Rent, payer.Lamports, len(payer.Data))
	payer.Lamports -= fee
	post := getRentState(&env.Rent, payer.Lamports, len(payer.Data))
	if !rentTransitionAllowed(pre, post) && key != core.IncineratorID {
		return InsufficientFundsForRentError(0)
	}
	return nil
}

// checkDurableNonce accepts a transaction whose blockhash is not recent if its first
// instruction advances a nonce account holding that blockhash as its durable nonce, signed by
// the nonce authority, and the nonce can advance in this bank. It returns the nonce account
// already advanced (what a failed transaction still commits) and the fee rate the nonce
// recorded.
func checkDurableNonce(env *Env, src AccountSource, m *core.Message, loaded *core.LoadedAddresses) (*nonceInfo, uint64) {
	next := nonce.DurableNonceFromBlockhash(env.Blockhash)
	if m.RecentBlockhash == next || len(m.Instructions) == 0 {
		return nil, 0
	}
	ix := &m.Instructions[0]
	if int(ix.ProgramIDIndex) >= len(m.AccountKeys) || m.AccountKeys[ix.ProgramIDIndex] != core.SystemProgramID ||
		!core.IsAdvanceNonceInstructionData(ix.Data) || len(ix.Accounts) == 0 {
		return nil, 0
	}
	idx := int(ix.Accounts[0])
	if idx >= len(m.AccountKeys) || !m.IsWritableLoaded(idx, loaded) {
		return nil, 0
	}
	key := m.AccountKeys[idx]
	acct, ok := src.GetAccount(key)
	if !ok || acct.Lamports == 0 {
		return nil, 0
	}
	data, ok := nonce.Verify(acct.Owner, acct.Data, m.RecentBlockhash)
	if !ok {
		return nil, 0
	}
	authorized := false
	for _, a := range ix.Accounts {
		if m.IsSigner(int(a)) && int(a) < len(m.AccountKeys) && m.AccountKeys[a] == data.Authority {
			authorized = true
			break
		}
	}
	if !authorized || data.DurableNonce == next {
		return nil, 0
	}
	advanced := acct.Clone()
	nonce.NewInitialized(data.Authority, next, env.LamportsPerSignature).EncodeInto(advanced.Data)
	return &nonceInfo{key: key, acct: advanced}, data.LamportsPerSignature
}

// rollbackWrites are what a processed but failed transaction commits: the fee payer after the
// fee (with its rent epoch as loaded, unless a nonce is involved) and the advanced nonce.
func rollbackWrites(payerKey core.Pubkey, payer Account, loadedRentEpoch uint64, n *nonceInfo) []AccountWrite {
	switch {
	case n == nil:
		payer.RentEpoch = loadedRentEpoch
		return []AccountWrite{{Pubkey: payerKey, Account: payer}}
	case n.key == payerKey:
		payer.Data = n.acct.Data
		return []AccountWrite{{Pubkey: payerKey, Account: payer}}
	}
	return []AccountWrite{{Pubkey: payerKey, Account: payer}, {Pubkey: n.key, Account: n.acct}}
}

func postBalancesAfterRollback(pre []uint64, keys []core.Pubkey, writes []AccountWrite) []uint64 {
	post := append([]uint64(nil), pre...)
	for _, w := range writes {
		for i, k := range keys {
			if k == w.Pubkey {
				post[i] = w.Account.Lamports
			}
		}
	}
	return post
}

// loadedAccountsDataSize applies SIMD-0186: 64 bytes plus the data of every existing account,
// plus the programdata of upgradeable programs among them, plus 8248 per lookup table. Over
// the limit, the size is the limit and the error MaxLoadedAccountsDataSizeExceeded.
func loadedAccountsDataSize(env *Env, src AccountSource, m *core.Message, accounts []txAccount,
	exists []bool, limit uint32) (uint32, *TransactionError) {
	total := uint64(len(m.AddressTableLookups)) * AddressLookupTableBaseSize
	if m.Version == core.VersionLegacy {
		total = 0
	}
	var programData []core.Pubkey
	for i := range accounts {
		if !exists[i] {
			continue
		}
		a := &accounts[i].acct
		total += TransactionAccountBaseSize + uint64(len(a.Data))
		if a.Owner == core.BPFLoaderUpgradeableProgramID && len(a.Data) >= 36 &&
			a.Data[0] == 2 && a.Data[1] == 0 && a.Data[2] == 0 && a.Data[3] == 0 {
			programData = append(programData, core.Pubkey(a.Data[4:36]))
		}
	}
	for j, pd := range programData {
		if containsKey(programData[:j], pd) || containsTxAccount(accounts, exists, pd) {
			continue
		}
		if a, ok := loadAccount(env, src, pd); ok {
			total += TransactionAccountBaseSize + uint64(len(a.Data))
		}
	}
	if total > uint64(limit) {
		return limit, NewTransactionError(TxMaxLoadedAccountsDataSizeExceeded)
	}
	return uint32(total), nil
}

func containsTxAccount(accounts []txAccount, exists []bool, k core.Pubkey) bool {
	for i := range accounts {
		if exists[i] && accounts[i].key == k {
			return true
		}
	}
	return false
}

// validatePrograms checks every invoked program account: it exists and a loader owns it (and,
// with the legacy executable checks, is executable).
func validatePrograms(m *core.Message, accounts []txAccount, exists []bool, legacyExecutable bool) *TransactionError {
	for i := range m.Instructions {
		p := int(m.Instructions[i].ProgramIDIndex)
		if !exists[p] {
			return NewTransactionError(TxProgramAccountNotFound)
		}
		if legacyExecutable && !accounts[p].acct.Executable {
			return NewTransactionError(TxInvalidProgramForExecution)
		}
		owner := accounts[p].acct.Owner
		valid := false
		for _, o := range programOwners {
			if o == owner {
				valid = true
				break
			}
		}
		if !valid {
			return NewTransactionError(TxInvalidProgramForExecution)
		}
	}
	return nil
}

// instructionsAccount builds the Instructions sysvar for the message.
func instructionsAccount(m *core.Message, keys []core.Pubkey, writable []bool) Account {
	ixs := make([]core.Instruction, len(m.Instructions))
	for i := range m.Instructions {
		ci := &m.Instructions[i]
		metas := make([]core.AccountMeta, len(ci.Accounts))
		for j, a := range ci.Accounts {
			metas[j] = core.AccountMeta{Pubkey: keys[a], IsSigner: m.IsSigner(int(a)), IsWritable: writable[a]}
		}
		ixs[i] = core.Instruction{ProgramID: keys[ci.ProgramIDIndex], Accounts: metas, Data: ci.Data}
	}
	return Account{Owner: core.SysvarOwnerID, Data: sysvar.SerializeInstructions(ixs)}
}

// executeInstructions runs the top-level instructions in order, stopping at the first failure.
func executeInstructions(txc *txContext, m *core.Message, writable []bool, res *Result) *TransactionError {
	nsigned := int(m.Header.NumRequiredSignatures)
	txc.message = m
	for i := range m.Instructions {
		ci := &m.Instructions[i]
		accounts := make([]instrAccount, len(ci.Accounts))
		for j, a := range ci.Accounts {
			accounts[j] = instrAccount{index: uint16(a), signer: int(a) < nsigned, writable: writable[a]}
		}
		ctx := &InvokeContext{
			tx:          txc,
			program:     uint16(ci.ProgramIDIndex),
			programID:   txc.accounts[ci.ProgramIDIndex].key,
			accounts:    accounts,
			data:        ci.Data,
			stackHeight: 1,
		}
		txc.topLevelIndex = i
		var ref *instructionRef
		logsFrom := len(txc.logs.msgs)
		if txc.onInstruction != nil {
			ref = &instructionRef{program: ci.ProgramIDIndex, accounts: ci.Accounts}
			txc.observeInstruction(i, ref, false, 0, logsFrom, nil)
		}
		consumed, err := txc.processInstruction(ctx)
		res.ComputeUnitsConsumed += consumed
		var terr *TransactionError
		if err != nil {
			ie, _ := err.(InstructionError)
			terr = InstructionErrorAt(uint8(i), ie)
		}
		if ref != nil {
			txc.observeInstruction(i, ref, true, consumed, logsFrom, terr)
		}
		if terr != nil {
			return terr
		}
	}
	return nil
}

// innerInstructions groups the trace's invocations under their top-level instruction.
func innerInstructions(trace []traceEntry) []InnerInstructions {
	var out []InnerInstructions
	top := -1
	for i := range trace {
		e := &trace[i]
		if e.nesting == 0 {
			top++
			continue
		}
		if top < 0 {
			continue
		}
		if len(out) == 0 || out[len(out)-1].Index != uint8(top) {
			out = append(out, InnerInstructions{Index: uint8(top)})
		}
		accounts := make([]uint8, len(e.accounts))
		for j, a := range e.accounts {
			accounts[j] = uint8(a.index)
		}
		g := &out[len(out)-1]
		g.Instructions = append(g.Instructions, InnerInstruction{
			ProgramIDIndex: uint8(e.program),
			Accounts:       accounts,
			Data:           append([]byte(nil), e.data...),
			StackHeight:    uint8(e.nesting + 1),
		})
	}
	return out
}
