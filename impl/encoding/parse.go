package encoding

import (
	"errors"
	"fmt"
	"sync"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/programs"
	"ledgerd/impl/runtime"
)

// Lookup returns another account of the same bank, for parsers whose output depends on it.
type Lookup = runtime.AccountLookup

// ErrNoParser is returned by Parse for an owner whose module has no account parser.
var ErrNoParser = errors.New("program not parsable")

// shipped is the shipped module list (impl/programs) as the parsers read it by default: the
// same list the node hands the ledger, so the runtime, genesis and jsonParsed agree on what a
// program is.
var shipped = sync.OnceValue(programs.Registry)

// Parse runs the account parser of acct's owner module, from the shipped list, on its full
// data. It is what jsonParsed shows when it succeeds; callers that drop unparsable accounts
// (getProgramAccounts and getTokenAccountsBy* for token programs) use its error. lookup may be
// nil.
func Parse(pubkey core.Pubkey, acct runtime.Account, lookup Lookup) (*rpcapi.AccountDataParsed, error) {
	return ParseWith(nil, pubkey, acct, lookup)
}

// ParseWith is Parse over the modules of reg (nil: the shipped list).
func ParseWith(reg *runtime.Registry, pubkey core.Pubkey, acct runtime.Account, lookup Lookup) (*rpcapi.AccountDataParsed, error) {
	if reg == nil {
		reg = shipped()
	}
	p, ok := reg.AccountParser(acct.Owner)
	if !ok {
		return nil, ErrNoParser
	}
	if lookup == nil {
		lookup = noLookup
	}
	v, err := p.Parse(pubkey, acct.Data, lookup)
	if err != nil {
		return nil, fmt.Errorf("%s account not parsable: %w", p.Program, err)
	}
	return &rpcapi.AccountDataParsed{Program: p.Program, Parsed: v, Space: uint64(len(acct.Data))}, nil
}

func noLookup(core.Pubkey) (runtime.Account, bool) { return runtime.Account{}, false }
