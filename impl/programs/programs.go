// Package programs lists the program modules ledgerd ships, each exported by its own package
// below this one (runtime.Module: execution, genesis account, jsonParsed parsers). impl/node
// hands the list to the ledger, which builds the runtime's registry and the genesis program
// accounts from it, and the jsonParsed encoders (impl/encoding, impl/parse) read the same list,
// so adding a program is adding it here.
package programs

import (
	"slices"

	"ledgerd/impl/programs/alt"
	"ledgerd/impl/programs/ata"
	"ledgerd/impl/programs/computebudget"
	"ledgerd/impl/programs/config"
	"ledgerd/impl/programs/loader"
	"ledgerd/impl/programs/memo"
	"ledgerd/impl/programs/precompile"
	"ledgerd/impl/programs/stake"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/sysvar"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/programs/zkproof"
	"ledgerd/impl/runtime"
)

// All returns every module, builtins first, then the on-chain programs run natively, then the
// owners of accounts that are not programs. It is a new slice on each call.
func All() []runtime.Module {
	return slices.Concat(
		[]runtime.Module{system.Module, vote.Module, stake.Module, config.Module, computebudget.Module, zkproof.Module},
		loader.Modules,
		precompile.Modules,
		memo.Modules,
		token.Modules,
		[]runtime.Module{ata.Module, alt.Module, sysvar.Module},
	)
}

// Registry returns a runtime registry of All.
func Registry() *runtime.Registry { return runtime.NewRegistry(All()...) }
