package parse

import (
	"errors"
	"fmt"

	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
)

// Instruction is one instruction as a parser sees it: its program, data, and account indexes
// into Keys, the transaction's full account list (static keys, then loaded ones).
type Instruction struct {
	ProgramID core.Pubkey
	Accounts  []uint8
	Data      []byte
	Keys      []core.Pubkey
}

// Errors a parser returns; either leaves the instruction partially decoded.
var (
	// ErrNotParsable: the data is not an instruction of the program.
	ErrNotParsable = errors.New("instruction not parsable")
	// ErrKeyMismatch: the instruction has too few accounts, or one is out of range.
	ErrKeyMismatch = errors.New("instruction key mismatch")
)

// Account returns the key of the instruction's account at position pos.
func (ix *Instruction) Account(pos int) (core.Pubkey, error) {
	if pos < 0 || pos >= len(ix.Accounts) || int(ix.Accounts[pos]) >= len(ix.Keys) {
		return core.Pubkey{}, ErrKeyMismatch
	}
	return ix.Keys[ix.Accounts[pos]], nil
}

// AccountString is Account as the base-58 text the parsed forms carry.
func (ix *Instruction) AccountString(pos int) (string, error) {
	k, err := ix.Account(pos)
	if err != nil {
		return "", err
	}
	return k.String(), nil
}

// CheckAccounts fails unless the instruction has at least n accounts and every one of them is
// in range (the reference's system parser checks both before reading any).
func (ix *Instruction) CheckAccounts(n int) error {
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

// Program is a jsonParsed instruction parser. Name is the `program` value of the parsed form
// ("system", "spl-memo"); Parse returns the `parsed` value, usually
// {"type": ..., "info": {...}}, whose maps marshal with sorted keys as the reference's do.
type Program struct {
	Name  string
	Parse func(ix *Instruction) (any, error)
}

var registry = map[core.Pubkey]Program{}

// Register adds the parser of program id. It is meant for package initialization (the
// registry is read without locks afterwards) and panics on a second parser for one id.
func Register(id core.Pubkey, p Program) {
	if _, dup := registry[id]; dup {
		panic(fmt.Sprintf("parse: second parser for program %s", id))
	}
	if p.Name == "" || p.Parse == nil {
		panic(fmt.Sprintf("parse: incomplete parser for program %s", id))
	}
	registry[id] = p
}

// Lookup returns the parser of program id.
func Lookup(id core.Pubkey) (Program, bool) {
	p, ok := registry[id]
	return p, ok
}

// ErrInvalidAccountIndex is returned when an instruction refers to an account key the
// transaction does not have (a stored transaction is sanitized, so this means its loaded
// addresses are missing or wrong).
var ErrInvalidAccountIndex = errors.New("parse: instruction account index out of range")

// ParseInstruction returns the jsonParsed form of one instruction: parsed when its program has
// a parser that accepts it, otherwise partially decoded (program and accounts as addresses,
// data in base-58). keys is the full account list; stackHeight is nil for the reference 2.x's
// top-level instructions.
func ParseInstruction(programIDIndex uint8, accounts []uint8, data []byte, keys []core.Pubkey, stackHeight *uint32) (rpcapi.UiInstruction, error) {
	if int(programIDIndex) >= len(keys) {
		return rpcapi.UiInstruction{}, ErrInvalidAccountIndex
	}
	programID := keys[programIDIndex]
	if p, ok := registry[programID]; ok {
		ix := &Instruction{ProgramID: programID, Accounts: accounts, Data: data, Keys: keys}
		if parsed, err := p.Parse(ix); err == nil {
			return rpcapi.UiInstruction{Parsed: &rpcapi.UiParsedInstruction{
				Program:     p.Name,
				ProgramId:   programID.String(),
				Parsed:      parsed,
				StackHeight: stackHeight,
			}}, nil
		}
	}
	addrs := make([]rpcapi.Pubkey, len(accounts))
	for i, a := range accounts {
		if int(a) >= len(keys) {
			return rpcapi.UiInstruction{}, ErrInvalidAccountIndex
		}
		addrs[i] = keys[a].String()
	}
	return rpcapi.UiInstruction{PartiallyDecoded: &rpcapi.UiPartiallyDecodedInstruction{
		ProgramId:   programID.String(),
		Accounts:    addrs,
		Data:        base58.Encode(data),
		StackHeight: stackHeight,
	}}, nil
}

// compiledInstruction is the json form of an instruction.
func compiledInstruction(programIDIndex uint8, accounts []uint8, data []byte, stackHeight *uint32) rpcapi.UiCompiledInstruction {
	return rpcapi.UiCompiledInstruction{
		ProgramIdIndex: programIDIndex,
		Accounts:       u8List(accounts),
		Data:           base58.Encode(data),
		StackHeight:    stackHeight,
	}
}

// u8List copies b into a list that marshals as an array of numbers, [] when empty.
func u8List(b []uint8) rpcapi.U8List {
	out := make(rpcapi.U8List, len(b))
	copy(out, b)
	return out
}
