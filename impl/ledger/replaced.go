package ledger

import (
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// withoutReplacedPrograms returns programs with every natively run on-chain program that the genesis
// configuration replaces by a deployed build (an executable account of a BPF loader at the program's id, from
// --bpf-program, --upgradeable-program or --account) no longer executing: the loader that owns the account runs
// the real build instead, and the module keeps its jsonParsed parsers. The genesis configuration is kept in the
// ledger directory, so a restarted node makes the same choice. programs itself is not changed.
func withoutReplacedPrograms(programs *runtime.Registry, accounts []GenesisAccount) *runtime.Registry {
	var replaced []runtime.Module
	for _, a := range accounts {
		switch a.Owner {
		case core.BPFLoaderProgramID, core.BPFLoaderDeprecatedProgramID, core.BPFLoaderUpgradeableProgramID:
		default:
			continue
		}
		m, ok := programs.Module(a.Pubkey)
		if !a.Executable || !ok || m.Kind != runtime.OnChain || m.Program == nil {
			continue
		}
		m.Program = nil
		replaced = append(replaced, m)
	}
	if len(replaced) == 0 {
		return programs
	}
	r := runtime.NewRegistry(programs.Modules()...)
	r.Add(replaced...)
	return r
}
