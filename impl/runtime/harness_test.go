package runtime_test

import (
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/computebudget"
	"ledgerd/impl/programs/memo"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

// harness is a bank in miniature: an Env, a registry with the native programs and a test
// program, and an account map that results are committed into.
type harness struct {
	t    testing.TB
	env  *runtime.Env
	reg  *runtime.Registry
	accs runtime.MapSource
}

var (
	testBlockhash = core.HashBytes([]byte("test blockhash"))
	sysvarRent    = core.SysvarRentID
)

func newHarness(t testing.TB) *harness {
	reg := runtime.NewRegistry(computebudget.Module, system.Module)
	reg.Add(memo.Modules...)
	reg.RegisterBuiltin(testProgramID, testProgram{})
	reg.RegisterBuiltin(testProgram2ID, testProgram{})
	reg.RegisterOnChain(onChainProgramID, testProgram{})
	h := &harness{t: t, env: runtime.DefaultEnv(testBlockhash, reg), reg: reg, accs: runtime.MapSource{}}
	for _, id := range []core.Pubkey{core.SystemProgramID, core.ComputeBudgetProgramID, testProgramID, testProgram2ID} {
		h.accs[id] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("builtin")}
	}
	for _, id := range []core.Pubkey{memo.ProgramIDV3, memo.ProgramIDV1, onChainProgramID} {
		h.accs[id] = runtime.Account{Lamports: 1_141_440, Owner: core.BPFLoaderProgramID, Executable: true, Data: []byte("elf")}
	}
	return h
}

func key(seed byte) core.Keypair { return core.KeypairFromSeed([32]byte{seed}) }

func (h *harness) fund(k core.Pubkey, lamports uint64) {
	h.accs[k] = runtime.Account{Lamports: lamports, Owner: core.SystemProgramID}
}

func (h *harness) lamports(k core.Pubkey) uint64 { return h.accs[k].Lamports }

// tx signs ixs with signers (the first pays) against the harness blockhash.
func (h *harness) tx(ixs []core.Instruction, signers ...core.Keypair) *core.Transaction {
	h.t.Helper()
	return h.txWithBlockhash(testBlockhash, ixs, signers...)
}

func (h *harness) txWithBlockhash(bh core.Hash, ixs []core.Instruction, signers ...core.Keypair) *core.Transaction {
	h.t.Helper()
	tx, err := core.NewTransaction(signers[0].PublicKey(), ixs, bh, signers...)
	if err != nil {
		h.t.Fatalf("NewTransaction: %v", err)
	}
	return tx
}

// exec executes tx and commits its writes.
func (h *harness) exec(tx *core.Transaction) *runtime.Result {
	h.t.Helper()
	res := runtime.Execute(h.env, h.accs, tx, runtime.Options{})
	h.accs.Apply(res.Writes)
	return res
}

const systemID = "11111111111111111111111111111111"
