package loader

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/programs/computebudget"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

// vmBank is a bank that runs deployed programs through this package's loaders.
type vmBank struct {
	t        testing.TB
	accounts runtime.MapSource
	env      *runtime.Env
}

var vmBlockhash = core.HashBytes([]byte("vm bank"))

func newVMBank(t testing.TB, extra ...runtime.Module) *vmBank {
	reg := runtime.NewRegistry(system.Module, computebudget.Module)
	reg.Add(Modules...)
	reg.Add(extra...)
	b := &vmBank{t: t, accounts: runtime.MapSource{}, env: runtime.DefaultEnv(vmBlockhash, reg)}
	b.env.Clock.Slot = 10
	for _, id := range []core.Pubkey{core.SystemProgramID, core.ComputeBudgetProgramID, core.BPFLoaderUpgradeableProgramID, core.BPFLoaderProgramID, core.BPFLoaderDeprecatedProgramID} {
		b.accounts[id] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("loader")}
	}
	return b
}

// addProgram places elf at id under loader (v1 and v2: the program account holds it; v3: a
// program account pointing at a ProgramData account deployed in slot deploySlot).
func (b *vmBank) addProgram(id, loader core.Pubkey, elf []byte, deploySlot uint64) {
	switch loader {
	case core.BPFLoaderUpgradeableProgramID:
		pd, _, _ := core.FindProgramAddress([][]byte{id[:]}, loader)
		prog := make([]byte, 36)
		prog[0] = 2
		copy(prog[4:], pd[:])
		b.accounts[id] = runtime.Account{Lamports: b.env.Rent.MinimumBalance(36), Owner: loader, Executable: true, Data: prog}
		data := make([]byte, programDataMetadataSize, programDataMetadataSize+len(elf))
		data[0] = 3
		data[4] = byte(deploySlot)
		data = append(data, elf...)
		b.accounts[pd] = runtime.Account{Lamports: b.env.Rent.MinimumBalance(uint64(len(data))), Owner: loader, Data: data}
	default:
		b.accounts[id] = runtime.Account{Lamports: b.env.Rent.MinimumBalance(uint64(len(elf))), Owner: loader, Executable: true,
			Data: append([]byte(nil), elf...)}
	}
}

func (b *vmBank) tx(ixs []core.Instruction, signers ...core.Keypair) *core.Transaction {
	b.t.Helper()
	tx, err := core.NewTransaction(signers[0].PublicKey(), ixs, vmBlockhash, signers...)
	if err != nil {
		b.t.Fatal(err)
	}
	return tx
}

func (b *vmBank) execute(tx *core.Transaction) *runtime.Result {
	res := runtime.Execute(b.env, b.accounts, tx, runtime.Options{})
	b.accounts.Apply(res.Writes)
	return res
}

func (b *vmBank) run(ixs []core.Instruction, signers ...core.Keypair) *runtime.Result {
	b.t.Helper()
	return b.execute(b.tx(ixs, signers...))
}

func errJSON(res *runtime.Result) string {
	if res.Err == nil {
		return "null"
	}
	j, _ := json.Marshal(res.Err)
	return string(j)
}

func jsonEq(a, b string) bool {
	return strings.Join(strings.Fields(a), "") == strings.Join(strings.Fields(b), "")
}

// compareWithOracle runs sc in LiteSVM and in a vmBank set up the same way, and fails t on any
// difference in outcome, logs, compute units, return data or the bytes of the scenario's
// accounts after each step. Every step must carry its signed transaction (Tx).
func compareWithOracle(t *testing.T, sc realelf.Scenario) [][2]any {
	t.Helper()
	for i := range sc.Programs {
		// The oracle writes one file per distinct ELF, told apart by their hashes.
		sc.Programs[i].SHA256 = sha256.Sum256(sc.Programs[i].ELF)
	}
	oracle := realelf.LiteSVM(t).Run(sc)[0]
	b := newVMBank(t)
	for _, p := range sc.Programs {
		b.addProgram(p.ID, p.Loader, p.ELF, 0)
	}
	for _, a := range sc.Accounts {
		b.accounts[a.Address] = runtime.Account{Lamports: a.Lamports, Owner: a.Owner, Executable: a.Executable,
			Data: append([]byte(nil), a.Data...)}
	}
	var out [][2]any
	for i, st := range sc.Steps {
		want := oracle[i]
		got := b.execute(st.Tx)
		if testing.Verbose() {
			t.Logf("%s: %s %q", st.Name, errJSON(got), got.Logs[max(0, len(got.Logs)-4):])
		}
		out = append(out, [2]any{got, want})
		checkOutcome(t, st.Name, got, want)
		switch {
		case (got.ReturnData == nil) != (want.ReturnData == nil):
			t.Errorf("%s: return data %+v, LiteSVM %+v", st.Name, got.ReturnData, want.ReturnData)
		case got.ReturnData != nil && (got.ReturnData.ProgramID != want.ReturnData.ProgramID || !bytes.Equal(got.ReturnData.Data, want.ReturnData.Data)):
			t.Errorf("%s: return data %+v, LiteSVM %+v", st.Name, got.ReturnData, want.ReturnData)
		}
		for _, sa := range sc.Accounts {
			w, ok := want.Account(sa.Address)
			if !ok {
				continue
			}
			g, exists := b.accounts[sa.Address]
			exists = exists && g.Lamports > 0
			if exists != w.Exists {
				t.Errorf("%s: account %s exists %v, LiteSVM %v", st.Name, sa.Address, exists, w.Exists)
				continue
			}
			if !exists {
				continue
			}
			if g.Lamports != w.Lamports || g.Owner != w.Owner || g.Executable != w.Executable || !bytes.Equal(g.Data, w.Data) {
				t.Errorf("%s: account %s\n %d %s %v %x\nLiteSVM\n %d %s %v %x", st.Name, sa.Address,
					g.Lamports, g.Owner, g.Executable, g.Data, w.Lamports, w.Owner, w.Executable, w.Data)
			}
		}
	}
	return out
}

// checkOutcome reports where a result differs from LiteSVM's in its error, logs or compute units.
func checkOutcome(t *testing.T, name string, got *runtime.Result, want realelf.Result) {
	t.Helper()
	if !jsonEq(errJSON(got), string(want.Err)) {
		t.Errorf("%s: err %s, LiteSVM %s (%s)", name, errJSON(got), want.Err, want.ErrDebug)
	}
	if !slices.Equal(got.Logs, want.Logs) {
		t.Errorf("%s: logs\n %q\nLiteSVM\n %q", name, got.Logs, want.Logs)
	}
	if got.ComputeUnitsConsumed != want.ComputeUnits {
		t.Errorf("%s: %d compute units, LiteSVM %d", name, got.ComputeUnitsConsumed, want.ComputeUnits)
	}
}

func testKey(seed byte) core.Keypair {
	var s [32]byte
	s[0], s[31] = seed, 0x6b
	return core.KeypairFromSeed(s)
}

func fundedAccount(k core.Pubkey) realelf.Account {
	return realelf.Account{Address: k, Lamports: 10_000_000_000, Owner: core.SystemProgramID}
}
