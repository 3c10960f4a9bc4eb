// Package computebudget is the Compute Budget program's module. The runtime reads compute
// budget instructions before any instruction executes (their codec and limits are
// impl/runtime/computebudget, a foundation of the runtime); executing one only charges
// DefaultComputeUnits.
package computebudget

import (
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	cb "ledgerd/impl/runtime/computebudget"
)

// Module is the compute budget program as the node assembles it. The reference has no
// jsonParsed parser for it: its instructions stay partially decoded.
var Module = runtime.Module{
	ID:      core.ComputeBudgetProgramID,
	Name:    "compute-budget",
	Kind:    runtime.Builtin,
	Program: runtime.ProgramFunc(execute),
	Genesis: runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "compute_budget_program"},
}

// execute runs a compute budget instruction: the runtime already applied it before execution,
// so it only charges its cost.
func execute(ctx *runtime.InvokeContext) error {
	return ctx.Consume(cb.DefaultComputeUnits)
}
