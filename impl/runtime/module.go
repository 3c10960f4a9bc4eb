package runtime

import (
	"errors"

	"ledgerd/impl/core"
)

// Module is one program as the whole node sees it: the runtime executes it, genesis creates its
// account, and the jsonParsed encoders show its accounts and instructions. Each package under
// impl/programs exports its module value; impl/node hands the list to the ledger (and so to the
// runtime and genesis), and the encoders read the same list, so a program is added in one place
// and a program without a parser shows up as a gap in that list rather than in a registry
// somewhere else.
type Module struct {
	// ID is the program id (for AccountOwner modules, the owner id of their accounts).
	ID core.Pubkey
	// Name names the program for people (the gap listing, errors), e.g. "spl-token-2022".
	Name string
	Kind ProgramKind
	// Program executes its instructions; nil when ledgerd does not run this program (its
	// instructions fail with UnsupportedProgramId, as for an unknown program).
	Program Program
	// Genesis is the program's account on a new chain; a zero Loader means none.
	Genesis Deployment
	// ParseAccount shows the accounts the program owns under jsonParsed; nil: they fall back to
	// base64.
	ParseAccount *AccountParser
	// ParseInstruction shows the program's instructions under jsonParsed; nil: they stay
	// partially decoded.
	ParseInstruction *InstructionParser
}

// Deployment is how a module's program account looks on a new chain, as the reference lays
// it out for a program of that loader.
type Deployment struct {
	// Loader owns the program account: core.NativeLoaderProgramID for builtins, a BPF loader
	// for programs deployed on chain.
	Loader core.Pubkey
	// Data is the account data of builtins and BPF loader v1/v2 programs: a builtin's name as
	// the reference stores it, or a marker naming the build a native program stands for. The
	// upgradeable loader's accounts are laid out by genesis (program and program data).
	Data string
}

// AccountLookup returns another account of the same bank, for parsers whose output depends on
// it (a token account's mint decimals, the Clock for interest-bearing mints).
type AccountLookup func(core.Pubkey) (Account, bool)

// AccountParser shows the accounts of one owner under jsonParsed.
type AccountParser struct {
	// Program is the reply's "program" value as the reference names it ("spl-token", "nonce").
	Program string
	// Parse turns the full data of the account stored at pubkey into the "parsed" value, or
	// fails, and the account falls back to base64. lookup is never nil. The value is marshalled
	// with encoding/json: maps, so keys come out sorted as the reference's serde_json values.
	Parse func(pubkey core.Pubkey, data []byte, lookup AccountLookup) (any, error)
}

// InstructionParser shows one program's instructions under jsonParsed.
type InstructionParser struct {
	// Program is the parsed form's "program" value ("system", "spl-memo").
	Program string
	// Parse returns the "parsed" value, usually {"type": ..., "info": {...}}; an error leaves
	// the instruction partially decoded.
	Parse func(ix *InstructionView) (any, error)
}

// InstructionView is one instruction as a parser sees it: its program, data, and account
// indexes into Keys, the transaction's full account list (static keys, then loaded ones).
type InstructionView struct {
	ProgramID core.Pubkey
	Accounts  []uint8
	Data      []byte
	Keys      []core.Pubkey
}

// Errors an instruction parser returns; either leaves the instruction partially decoded.
var (
	// ErrNotParsable: the data is not an instruction of the program.
	ErrNotParsable = errors.New("instruction not parsable")
	// ErrKeyMismatch: the instruction has too few accounts, or one is out of range.
	ErrKeyMismatch = errors.New("instruction key mismatch")
)

// Account returns the key of the instruction's account at position pos.
func (ix *InstructionView) Account(pos int) (core.Pubkey, error) {
	if pos < 0 || pos >= len(ix.Accounts) || int(ix.Accounts[pos]) >= len(ix.Keys) {
		return core.Pubkey{}, ErrKeyMismatch
	}
	return ix.Keys[ix.Accounts[pos]], nil
}

// AccountString is Account as the base-58 text the parsed forms carry.
func (ix *InstructionView) AccountString(pos int) (string, error) {
	k, err := ix.Account(pos)
	if err != nil {
		return "", err
	}
	return k.String(), nil
}

// CheckAccounts fails unless the instruction has at least n accounts and every one of them is
// in range (the reference's system parser checks both before reading any).
func (ix *InstructionView) CheckAccounts(n int) error {
	if len(ix.Accounts) < n {
		return ErrKeyMismatch
	}
	for _, a := range ix.Accounts {
		if int(a) >= len(ix.Keys) {
			return ErrKeyMismatch
		}
	}
	return nil
}
