package system

import (
	"ledgerd/impl/programs/internal/jsonparsed"
	"ledgerd/impl/runtime"
)

// systemShape is what the parsed form of one system instruction type reads: its `type`, the
// info keys of its leading accounts, and how many accounts it needs at least (the reference
// asks the seeded allocate and assign for their base account too, without showing it).
type systemShape struct {
	typ      string
	accounts []string
	need     int
}

var systemShapes = map[Kind]systemShape{
	KindCreateAccount:          {"createAccount", []string{"source", "newAccount"}, 2},
	KindAssign:                 {"assign", []string{"account"}, 1},
	KindTransfer:               {"transfer", []string{"source", "destination"}, 2},
	KindCreateAccountWithSeed:  {"createAccountWithSeed", []string{"source", "newAccount"}, 2},
	KindAdvanceNonceAccount:    {"advanceNonce", []string{"nonceAccount", "recentBlockhashesSysvar", "nonceAuthority"}, 3},
	KindWithdrawNonceAccount:   {"withdrawFromNonce", []string{"nonceAccount", "destination", "recentBlockhashesSysvar", "rentSysvar", "nonceAuthority"}, 5},
	KindInitializeNonceAccount: {"initializeNonce", []string{"nonceAccount", "recentBlockhashesSysvar", "rentSysvar"}, 3},
	KindAuthorizeNonceAccount:  {"authorizeNonce", []string{"nonceAccount", "nonceAuthority"}, 2},
	KindAllocate:               {"allocate", []string{"account"}, 1},
	KindAllocateWithSeed:       {"allocateWithSeed", []string{"account"}, 2},
	KindAssignWithSeed:         {"assignWithSeed", []string{"account"}, 2},
	KindTransferWithSeed:       {"transferWithSeed", []string{"source", "sourceBase", "destination"}, 3},
	KindUpgradeNonceAccount:    {"upgradeNonce", []string{"nonceAccount"}, 1},
	// Without lamports there is no payer account; see parseSystem.
	KindCreateAccountAllowPrefund: {"createAccountAllowPrefund", []string{"newAccount"}, 1},
}

// parseSystem follows the reference's parse_system: the data must decode (bincode, trailing
// bytes ignored), every account index must be in range, and the instruction must have the
// accounts its type needs.
func parseSystem(ix *runtime.InstructionView) (any, error) {
	d, err := Decode(ix.Data)
	if err != nil {
		return nil, runtime.ErrNotParsable
	}
	shape, ok := systemShapes[d.Kind]
	if !ok {
		return nil, runtime.ErrNotParsable
	}
	if d.Kind == KindCreateAccountAllowPrefund && d.Lamports > 0 {
		shape.accounts, shape.need = []string{"newAccount", "source"}, 2
	}
	if err := ix.CheckAccounts(shape.need); err != nil {
		return nil, err
	}
	info := make(map[string]any, 7)
	for pos, name := range shape.accounts {
		info[name] = ix.Keys[ix.Accounts[pos]].String()
	}
	switch d.Kind {
	case KindCreateAccount:
		info["lamports"], info["space"], info["owner"] = d.Lamports, d.Space, d.Owner.String()
	case KindAssign:
		info["owner"] = d.Owner.String()
	case KindTransfer, KindWithdrawNonceAccount:
		info["lamports"] = d.Lamports
	case KindCreateAccountWithSeed:
		info["base"], info["seed"] = d.Base.String(), d.Seed
		info["lamports"], info["space"], info["owner"] = d.Lamports, d.Space, d.Owner.String()
	case KindInitializeNonceAccount:
		info["nonceAuthority"] = d.Authority.String()
	case KindAuthorizeNonceAccount:
		info["newAuthorized"] = d.Authority.String()
	case KindAllocate:
		info["space"] = d.Space
	case KindAllocateWithSeed:
		info["base"], info["seed"], info["space"], info["owner"] = d.Base.String(), d.Seed, d.Space, d.Owner.String()
	case KindAssignWithSeed:
		info["base"], info["seed"], info["owner"] = d.Base.String(), d.Seed, d.Owner.String()
	case KindTransferWithSeed:
		info["lamports"], info["sourceSeed"], info["sourceOwner"] = d.Lamports, d.Seed, d.Owner.String()
	case KindCreateAccountAllowPrefund:
		info["space"], info["owner"] = d.Space, d.Owner.String()
		if d.Lamports > 0 {
			info["lamports"] = d.Lamports
		}
	}
	return jsonparsed.Typed(shape.typ, info), nil
}
