package runtime_test

import (
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
)

// A program account that no module runs is handed to the module of the loader that owns it,
// which sees the deployed program's id; the runtime logs "invoke" and "success" under that id
// (the loader logs the units its VM used itself). A loader module that does not execute leaves
// such programs unsupported.
func TestLoaderRunsDeployedProgram(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	payer := key(1)
	h.fund(payer.PublicKey(), 1e9)
	// The runtime accepts program accounts of the reference's loaders only, so the test loader takes
	// BPF loader 2's id.
	loaderID, deployed := core.BPFLoaderProgramID, key(21).PublicKey()
	h.accs[loaderID] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true}
	h.accs[deployed] = runtime.Account{Lamports: 1, Owner: loaderID, Executable: true, Data: []byte("elf")}

	h.reg.Add(runtime.Module{ID: loaderID, Name: "test-loader", Kind: runtime.Loader})
	res := h.exec(h.tx([]core.Instruction{testIx(deployed, nil)}, payer))
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"UnsupportedProgramId"]}`)

	var ran []core.Pubkey
	h.reg.Add(runtime.Module{ID: loaderID, Name: "test-loader", Kind: runtime.Loader,
		Program: runtime.ProgramFunc(func(ctx *runtime.InvokeContext) error {
			ran = append(ran, ctx.ProgramID())
			return ctx.Consume(7)
		})})
	res = h.exec(h.tx([]core.Instruction{testIx(deployed, nil)}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res,
		"Program "+deployed.String()+" invoke [1]",
		"Program "+deployed.String()+" success")
	// The loader's own instructions run as a builtin under its id.
	res = h.exec(h.tx([]core.Instruction{testIx(loaderID, nil)}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res, "Program "+loaderID.String()+" invoke [1]", "Program "+loaderID.String()+" success")
	if want := []core.Pubkey{deployed, loaderID}; !slices.Equal(ran, want) {
		t.Errorf("loader ran for %v, want %v", ran, want)
	}
	// A native module wins over the loader of its account (the native programs are the default).
	h.accs[testProgramID] = runtime.Account{Lamports: 1, Owner: loaderID, Executable: true}
	res = h.exec(h.tx([]core.Instruction{testIx(testProgramID, []byte{opNoop})}, payer))
	runtimetest.WantErr(t, res, "<nil>")
	if len(ran) != 2 {
		t.Errorf("the loader ran a program a module runs itself")
	}
}

func TestRegistryModules(t *testing.T) {
	t.Parallel()
	parser := &runtime.AccountParser{Program: "p", Parse: func(core.Pubkey, []byte, runtime.AccountLookup) (any, error) { return nil, nil }}
	a, b := key(30).PublicKey(), key(31).PublicKey()
	r := runtime.NewRegistry(runtime.Module{ID: a, Name: "a", ParseAccount: parser}, runtime.Module{ID: b, Name: "b"})
	if p, ok := r.AccountParser(a); !ok || p != parser {
		t.Errorf("AccountParser(a) = %v, %v", p, ok)
	}
	if _, ok := r.AccountParser(b); ok {
		t.Error("a module without an account parser has one")
	}
	if _, ok := r.InstructionParser(a); ok {
		t.Error("a module without an instruction parser has one")
	}
	if _, _, ok := r.Lookup(a); ok {
		t.Error("a module without a program executes")
	}
	var names []string
	for _, m := range r.Modules() {
		names = append(names, m.Name)
	}
	if !slices.Equal(names, []string{"a", "b"}) {
		t.Errorf("Modules() = %v, want the order of NewRegistry", names)
	}
	defer func() {
		if recover() == nil {
			t.Error("two modules of one id did not panic")
		}
	}()
	runtime.NewRegistry(runtime.Module{ID: a}, runtime.Module{ID: a})
}
