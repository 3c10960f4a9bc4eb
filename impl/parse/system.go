package parse

import (
	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
)

func init() {
	Register(core.SystemProgramID, Program{Name: "system", Parse: parseSystem})
}

// parsedInstruction is the usual `parsed` value. A map, not a struct, so that it marshals
// with sorted keys ("info" before "type") as the reference's serde_json values do.
func parsedInstruction(typ string, info map[string]any) map[string]any {
	return map[string]any{"type": typ, "info": info}
}

// systemShape is what the parsed form of one system instruction type reads: its `type`, the
// info keys of its leading accounts, and how many accounts it needs at least (the reference
// asks the seeded allocate and assign for their base account too, without showing it).
type systemShape struct {
	typ      string
	accounts []string
	need     int
}

var systemShapes = map[system.Kind]systemShape{
	system.KindCreateAccount:          {"createAccount", []string{"source", "newAccount"}, 2},
	system.KindAssign:                 {"assign", []string{"account"}, 1},
	system.KindTransfer:               {"transfer", []string{"source", "destination"}, 2},
	system.KindCreateAccountWithSeed:  {"createAccountWithSeed", []string{"source", "newAccount"}, 2},
	system.KindAdvanceNonceAccount:    {"advanceNonce", []string{"nonceAccount", "recentBlockhashesSysvar", "nonceAuthority"}, 3},
	system.KindWithdrawNonceAccount:   {"withdrawFromNonce", []string{"nonceAccount", "destination", "recentBlockhashesSysvar", "rentSysvar", "nonceAuthority"}, 5},
	system.KindInitializeNonceAccount: {"initializeNonce", []string{"nonceAccount", "recentBlockhashesSysvar", "rentSysvar"}, 3},
	system.KindAuthorizeNonceAccount:  {"authorizeNonce", []string{"nonceAccount", "nonceAuthority"}, 2},
	system.KindAllocate:               {"allocate", []string{"account"}, 1},
	system.KindAllocateWithSeed:       {"allocateWithSeed", []string{"account"}, 2},
	system.KindAssignWithSeed:         {"assignWithSeed", []string{"account"}, 2},
	system.KindTransferWithSeed:       {"transferWithSeed", []string{"source", "sourceBase", "destination"}, 3},
	system.KindUpgradeNonceAccount:    {"upgradeNonce", []string{"nonceAccount"}, 1},
	// Without lamports there is no payer account; see parseSystem.
	system.KindCreateAccountAllowPrefund: {"createAccountAllowPrefund", []string{"newAccount"}, 1},
}

// parseSystem follows the reference's parse_system: the data must decode (bincode, trailing
// bytes ignored), every account index must be in range, and the instruction must have the
// accounts its type needs.
func parseSystem(ix *Instruction) (any, error) {
	d, err := system.Decode(ix.Data)
	if err != nil {
		return nil, ErrNotParsable
	}
	shape, ok := systemShapes[d.Kind]
	if !ok {
		return nil, ErrNotParsable
	}
	if d.Kind == system.KindCreateAccountAllowPrefund && d.Lamports > 0 {
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
	case system.KindCreateAccount:
		info["lamports"], info["space"], info["owner"] = d.Lamports, d.Space, d.Owner.String()
	case system.KindAssign:
		info["owner"] = d.Owner.String()
	case system.KindTransfer, system.KindWithdrawNonceAccount:
		info["lamports"] = d.Lamports
	case system.KindCreateAccountWithSeed:
		info["base"], info["seed"] = d.Base.String(), d.Seed
		info["lamports"], info["space"], info["owner"] = d.Lamports, d.Space, d.Owner.String()
	case system.KindInitializeNonceAccount:
		info["nonceAuthority"] = d.Authority.String()
	case system.KindAuthorizeNonceAccount:
		info["newAuthorized"] = d.Authority.String()
	case system.KindAllocate:
		info["space"] = d.Space
	case system.KindAllocateWithSeed:
		info["base"], info["seed"], info["space"], info["owner"] = d.Base.String(), d.Seed, d.Space, d.Owner.String()
	case system.KindAssignWithSeed:
		info["base"], info["seed"], info["owner"] = d.Base.String(), d.Seed, d.Owner.String()
	case system.KindTransferWithSeed:
		info["lamports"], info["sourceSeed"], info["sourceOwner"] = d.Lamports, d.Seed, d.Owner.String()
	case system.KindCreateAccountAllowPrefund:
		info["space"], info["owner"] = d.Space, d.Owner.String()
		if d.Lamports > 0 {
			info["lamports"] = d.Lamports
		}
	}
	return parsedInstruction(shape.typ, info), nil
}
