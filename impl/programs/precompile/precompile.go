// Package precompile holds the modules of the signature-verification precompiles. They exist
// at genesis as in the reference; ledgerd does not verify them yet, so an instruction to one
// fails with UnsupportedProgramId.
package precompile

import (
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Modules are the precompiles as the node assembles them.
var Modules = []runtime.Module{
	{
		ID:      core.Ed25519ProgramID,
		Name:    "ed25519",
		Kind:    runtime.Precompile,
		Genesis: runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "ed25519_program"},
	},
	{
		ID:      core.Secp256k1ProgramID,
		Name:    "secp256k1",
		Kind:    runtime.Precompile,
		Genesis: runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "secp256k1_program"},
	},
}
