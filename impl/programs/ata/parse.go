package ata

import (
	"ledgerd/impl/programs/internal/jsonparsed"
	"ledgerd/impl/runtime"
)

// ataShapes are the instruction types of the associated token account program (borsh enum: Create,
// CreateIdempotent, RecoverNested) with the info keys of their leading accounts.
var ataShapes = []struct {
	typ      string
	accounts []string
}{
	{"create", []string{"source", "account", "wallet", "mint", "systemProgram", "tokenProgram"}},
	{"createIdempotent", []string{"source", "account", "wallet", "mint", "systemProgram", "tokenProgram"}},
	{"recoverNested", []string{"nestedSource", "nestedMint", "destination", "nestedOwner", "ownerMint", "wallet", "tokenProgram"}},
}

// parseAssociatedToken follows the reference's parse_associated_token: empty data is the original Create, any
// other data must be exactly one known variant byte, and the instruction needs at least one account, all in
// range, and as many as its type names.
func parseAssociatedToken(ix *runtime.InstructionView) (any, error) {
	if len(ix.Accounts) == 0 {
		return nil, runtime.ErrKeyMismatch
	}
	if err := ix.CheckAccounts(0); err != nil {
		return nil, err
	}
	kind := 0
	if len(ix.Data) > 0 {
		if len(ix.Data) != 1 || int(ix.Data[0]) >= len(ataShapes) {
			return nil, runtime.ErrNotParsable
		}
		kind = int(ix.Data[0])
	}
	shape := ataShapes[kind]
	if len(ix.Accounts) < len(shape.accounts) {
		return nil, runtime.ErrKeyMismatch
	}
	info := make(map[string]any, len(shape.accounts))
	for pos, name := range shape.accounts {
		info[name] = ix.Keys[ix.Accounts[pos]].String()
	}
	return jsonparsed.Typed(shape.typ, info), nil
}
