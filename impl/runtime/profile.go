package runtime

import "slices"

// InstructionStep is what Options.OnInstruction hears of one top-level instruction: once before it runs, once
// after. It exists for profiling (surfnet_profileTransaction); sent transactions run without an observer, and
// then the instruction loop pays one nil check per instruction.
type InstructionStep struct {
	// Index is the instruction's position in the message.
	Index int
	// Done is false before the instruction runs and true after.
	Done bool
	// Accounts are the instruction's accounts, then its program, each once, as they are at this point: copies
	// the observer may keep. An account the transaction found absent has zero lamports.
	Accounts []AccountWrite
	// Units (after) is what the instruction consumed, Logs the lines it logged, Err its failure (nil on success).
	Units uint64
	Logs  []string
	Err   *TransactionError
}

// observeInstruction reports the state of instruction i's accounts to the observer; logsFrom is where the log
// stood before the instruction (after: its lines start there).
func (tx *txContext) observeInstruction(i int, ci *instructionRef, done bool, units uint64, logsFrom int, err *TransactionError) {
	step := InstructionStep{Index: i, Done: done, Units: units, Err: err}
	seen := make(map[uint16]bool, len(ci.accounts)+1)
	add := func(idx uint16) {
		if seen[idx] || int(idx) >= len(tx.accounts) {
			return
		}
		seen[idx] = true
		a := &tx.accounts[idx]
		step.Accounts = append(step.Accounts, AccountWrite{Pubkey: a.key, Account: a.acct.Clone()})
	}
	for _, a := range ci.accounts {
		add(uint16(a))
	}
	add(uint16(ci.program))
	if done {
		step.Logs = slices.Clone(tx.logs.msgs[min(logsFrom, len(tx.logs.msgs)):])
	}
	tx.onInstruction(step)
}

// instructionRef names a compiled instruction's accounts and program by their indexes in the transaction.
type instructionRef struct {
	program  uint8
	accounts []uint8
}
