package runtime

import (
	"testing"

	"ledgerd/impl/core"
)

// A deployed program's log lines are built on its first call, not on each: every transaction
// to a deployed program goes through runnerOf. Replacing the loader's module runs its programs
// with the new one.
func TestRunnerOfDeployedIsBuiltOnce(t *testing.T) {
	loader, deployed := core.BPFLoaderProgramID, core.Pubkey{7}
	first := ProgramFunc(func(*InvokeContext) error { return nil })
	r := NewRegistry(Module{ID: loader, Kind: Loader, Program: first})
	e, ok := r.runnerOf(deployed, loader)
	if !ok || e.kind != Deployed || e.invoke[2] != "Program "+deployed.String()+" invoke [2]" {
		t.Fatalf("runnerOf = %+v, %v", e, ok)
	}
	if allocs := testing.AllocsPerRun(100, func() { r.runnerOf(deployed, loader) }); allocs != 0 {
		t.Errorf("runnerOf of a deployed program allocates %v times per call", allocs)
	}
	if _, ok := r.runnerOf(deployed, core.SystemProgramID); ok {
		t.Error("a program owned by no loader module runs")
	}
	ran := false
	r.Add(Module{ID: loader, Kind: Loader, Program: ProgramFunc(func(*InvokeContext) error { ran = true; return nil })})
	e, _ = r.runnerOf(deployed, loader)
	if e.program.Execute(nil); !ran {
		t.Error("the deployed program runs with the loader module that was replaced")
	}
}
