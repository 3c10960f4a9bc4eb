// Package loader holds the modules of the program loaders: the deprecated BPF loader (v1),
// BPF loader 2, the upgradeable loader (v3) and loader v4. They own deployed programs: the
// runtime hands a program account that no module runs itself to the module of the loader that
// owns it (runtime.Loader), and loaders 1 to 3 run it in the sBPF VM (exec.go); their accounts
// exist at genesis as in the reference, and the upgradeable loader's accounts (program, program
// data, buffer) are shown under jsonParsed.
package loader

import (
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Modules are the loaders as the node assembles them.
var Modules = []runtime.Module{
	{
		ID:      core.BPFLoaderDeprecatedProgramID,
		Name:    "bpf-loader-deprecated",
		Program: Program,
		Kind:    runtime.Loader,
		Genesis: runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "solana_bpf_loader_deprecated_program"},
	},
	{
		ID:               core.BPFLoaderProgramID,
		Name:             "bpf-loader",
		Program:          Program,
		Kind:             runtime.Loader,
		Genesis:          runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "solana_bpf_loader_program"},
		ParseInstruction: &runtime.InstructionParser{Program: "bpf-loader", Parse: parseLoaderV2Instruction},
	},
	{
		ID:               core.BPFLoaderUpgradeableProgramID,
		Name:             "bpf-upgradeable-loader",
		Program:          Program,
		Kind:             runtime.Loader,
		Genesis:          runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "solana_bpf_loader_upgradeable_program"},
		ParseAccount:     &runtime.AccountParser{Program: "bpf-upgradeable-loader", Parse: parseUpgradeableLoader},
		ParseInstruction: &runtime.InstructionParser{Program: "bpf-upgradeable-loader", Parse: parseUpgradeableInstruction},
	},
	{
		ID:      core.LoaderV4ProgramID,
		Name:    "loader-v4",
		Kind:    runtime.Loader,
		Genesis: runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "loader_v4"},
	},
}
