package loader

import (
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Compute units of the loaders' own instructions, charged before anything else.
const (
	// LoaderV2ComputeUnits is what invoking BPF loader 2 itself costs.
	LoaderV2ComputeUnits = 570
	// DeprecatedLoaderComputeUnits is what invoking the deprecated loader itself costs.
	DeprecatedLoaderComputeUnits = 1140
)

// manage runs an instruction addressed to a loader itself (the reference's program management
// path, taken when the invoked program is owned by the native loader). Only the upgradeable
// loader still has management instructions: loaders v1 and v2 charge their units and refuse,
// so programs of those loaders exist only from genesis.
func manage(ctx *runtime.InvokeContext) error {
	switch ctx.ProgramID() {
	case core.BPFLoaderUpgradeableProgramID:
		return processUpgradeable(ctx)
	case core.BPFLoaderProgramID:
		if err := ctx.Consume(LoaderV2ComputeUnits); err != nil {
			return err
		}
		return fail(ctx, runtime.ErrUnsupportedProgramID, "BPF loader management instructions are no longer supported")
	case core.BPFLoaderDeprecatedProgramID:
		if err := ctx.Consume(DeprecatedLoaderComputeUnits); err != nil {
			return err
		}
		return fail(ctx, runtime.ErrUnsupportedProgramID, "Deprecated loader is no longer supported")
	}
	return fail(ctx, runtime.ErrUnsupportedProgramID, "Invalid BPF loader id")
}

// isLoader reports whether id is one of the BPF loaders whose instructions manage handles.
func isLoader(id core.Pubkey) bool {
	return id == core.BPFLoaderUpgradeableProgramID || id == core.BPFLoaderProgramID ||
		id == core.BPFLoaderDeprecatedProgramID
}
