package parse

import (
	"errors"
	"sync"

	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/programs"
	"ledgerd/impl/runtime"
)

// instructionParsers is the shipped module list (impl/programs) as ParseInstruction reads it:
// the same list the node hands the ledger.
var instructionParsers = sync.OnceValue(programs.Registry)

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
	if p, ok := instructionParsers().InstructionParser(programID); ok {
		ix := &runtime.InstructionView{ProgramID: programID, Accounts: accounts, Data: data, Keys: keys}
		if parsed, err := p.Parse(ix); err == nil {
			return rpcapi.UiInstruction{Parsed: &rpcapi.UiParsedInstruction{
				Program:     p.Program,
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
