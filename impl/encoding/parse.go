package encoding

import (
	"errors"
	"fmt"
	"sync"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Lookup returns another account of the same bank, for parsers whose output depends on it.
type Lookup func(core.Pubkey) (runtime.Account, bool)

// Parser turns the full data of an account stored at pubkey into its jsonParsed value, or
// fails, in which case the account falls back to base64. lookup is never nil. The value is
// marshalled with encoding/json; build it from map[string]any so keys come out sorted as the
// reference sorts them, and use rpcapi.Float for floats.
type Parser func(pubkey core.Pubkey, data []byte, lookup Lookup) (any, error)

// ErrNoParser is returned by Parse for an owner without a registered parser.
var ErrNoParser = errors.New("program not parsable")

type registered struct {
	program string
	parse   Parser
}

var (
	registryMu sync.RWMutex
	registry   = map[core.Pubkey]registered{}
)

// Register makes parse the jsonParsed parser of the accounts owned by owner; program is the
// name shown in the reply ("spl-token", "vote", …). Call it from an init function. It panics if
// owner already has a parser, as two parsers for one program is a programming error.
func Register(owner core.Pubkey, program string, parse Parser) {
	if parse == nil || program == "" {
		panic("encoding: Register needs a program name and a parser")
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if r, dup := registry[owner]; dup {
		panic(fmt.Sprintf("encoding: owner %s already has the %q parser", owner, r.program))
	}
	registry[owner] = registered{program: program, parse: parse}
}

// Parse runs the parser registered for acct's owner on its full data. It is what jsonParsed
// shows when it succeeds; callers that drop unparsable accounts (getProgramAccounts and
// getTokenAccountsBy* for token programs) use its error. lookup may be nil.
func Parse(pubkey core.Pubkey, acct runtime.Account, lookup Lookup) (*rpcapi.AccountDataParsed, error) {
	registryMu.RLock()
	r, ok := registry[acct.Owner]
	registryMu.RUnlock()
	if !ok {
		return nil, ErrNoParser
	}
	if lookup == nil {
		lookup = noLookup
	}
	v, err := r.parse(pubkey, acct.Data, lookup)
	if err != nil {
		return nil, fmt.Errorf("%s account not parsable: %w", r.program, err)
	}
	return &rpcapi.AccountDataParsed{Program: r.program, Parsed: v, Space: uint64(len(acct.Data))}, nil
}

func noLookup(core.Pubkey) (runtime.Account, bool) { return runtime.Account{}, false }

// typed is the {"type", "info"} shape of the reference's tagged enums.
func typed(kind string, info any) map[string]any {
	return map[string]any{"type": kind, "info": info}
}
