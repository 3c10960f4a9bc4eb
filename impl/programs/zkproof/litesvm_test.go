//go:build unix

package zkproof

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/programs/computebudget"
	"ledgerd/impl/runtime"
)

// TestLiteSVMParity runs real proofs of every type, and copies with every tenth byte flipped,
// through ledgerd's runtime and through LiteSVM (the parity tests' oracle, which embeds the
// reference's program): the logs (the error each failure names included) and compute units
// must be the same.
func TestLiteSVMParity(t *testing.T) {
	vs := freshVectors(t)
	payer := core.KeypairFromSeed([32]byte{1})
	type ours struct {
		logs []string
		cu   uint64
	}
	var results []ours
	sc := realelf.Scenario{Name: "zk", Accounts: []realelf.Account{{Address: payer.PublicKey(), Lamports: 10_000_000_000, Owner: core.SystemProgramID}}}
	accts := runtime.MapSource{
		payer.PublicKey():           {Lamports: 1e10, Owner: core.SystemProgramID},
		core.ComputeBudgetProgramID: {Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("compute_budget_program")},
		ProgramID:                   {Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("zk_elgamal_proof_program")},
	}
	for _, v := range vs {
		typ := proofTypeByName[v.Name]
		for _, tp := range append([][2]any{{-1.0, ""}}, v.Tampered...) {
			pos := int(tp[0].(float64))
			if pos >= 0 && pos%10 != 0 {
				continue
			}
			d := append([]byte{byte(typ)}, v.data...)
			if pos >= 0 {
				d[1+pos] ^= 1
			}
			ix := core.Instruction{ProgramID: ProgramID, Data: d}
			cu := core.Instruction{ProgramID: core.ComputeBudgetProgramID, Data: []byte{2, 0x40, 0x42, 0x0f, 0}}
			msg, err := core.CompileLegacyMessage(payer.PublicKey(), []core.Instruction{cu, ix}, core.HashBytes([]byte(v.Name+strconv.Itoa(pos))))
			if err != nil {
				t.Fatal(err)
			}
			tx, _ := core.NewSignedTransaction(msg, payer)
			sc.Steps = append(sc.Steps, realelf.Step{Name: v.Name + "/" + strconv.Itoa(pos), Tx: tx})
			env := runtime.DefaultEnv(msg.RecentBlockhash, runtime.NewRegistry(Module, computebudget.Module))
			res := runtime.Execute(env, accts, tx, runtime.Options{})
			results = append(results, ours{res.Logs, res.ComputeUnitsConsumed})
		}
	}
	for i, l := range realelf.LiteSVM(t).Run(sc)[0] {
		o := results[i]
		if !slices.Equal(o.logs, l.Logs) || o.cu != l.ComputeUnits {
			t.Errorf("%s: ledgerd %q %v units, LiteSVM %q %d units", sc.Steps[i].Name, o.logs, o.cu, l.Logs, l.ComputeUnits)
		}
	}
}

// TestLiteSVMParityContextState runs the context-state paths, one transaction after another on
// the same accounts, through ledgerd's runtime and LiteSVM: a proof recorded in a context
// account, recorded again, closed by the wrong authority, with too few accounts, into itself,
// unsigned, and by its authority; a proof read from another account at an offset, and an
// offset past its end. Errors, logs, units and the accounts after each step must agree.
func TestLiteSVMParityContextState(t *testing.T) {
	var zero []byte
	for _, v := range freshVectors(t) {
		if v.Name == "ZeroCiphertext" {
			zero = v.data
		}
	}
	payer, authority := core.KeypairFromSeed([32]byte{1}), core.KeypairFromSeed([32]byte{2})
	ctx1, ctx2 := core.KeypairFromSeed([32]byte{3}).PublicKey(), core.KeypairFromSeed([32]byte{4}).PublicKey()
	holder, dest := core.KeypairFromSeed([32]byte{5}).PublicKey(), core.KeypairFromSeed([32]byte{6}).PublicKey()
	P, A := payer.PublicKey(), authority.PublicKey()
	initial := runtime.MapSource{
		P:      {Lamports: 1e10, Owner: core.SystemProgramID},
		A:      {Lamports: 1e9, Owner: core.SystemProgramID},
		ctx1:   {Lamports: 2e9, Owner: ProgramID, Data: make([]byte, 33+96)},
		ctx2:   {Lamports: 3e9, Owner: ProgramID, Data: make([]byte, 33+96)},
		holder: {Lamports: 1e9, Owner: core.SystemProgramID, Data: append([]byte{1, 2, 3, 4, 5, 6, 7}, zero...)},
	}
	accts := maps.Clone(initial)
	accts[ProgramID] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("zk_elgamal_proof_program")}
	watch := []core.Pubkey{P, A, ctx1, ctx2, holder, dest}
	inline := append([]byte{byte(ZeroCiphertext)}, zero...)
	closeIx := func(metas ...core.AccountMeta) core.Instruction {
		return core.Instruction{ProgramID: ProgramID, Data: []byte{CloseContextState}, Accounts: metas}
	}
	verify := func(data []byte, metas ...core.AccountMeta) core.Instruction {
		return core.Instruction{ProgramID: ProgramID, Data: data, Accounts: metas}
	}
	type step struct {
		ix      core.Instruction
		signers []core.Keypair
	}
	steps := []step{
		{verify(inline, core.Writable(ctx1), core.Readonly(A)), nil},
		{verify(inline, core.Writable(ctx1), core.Readonly(A)), nil},
		{closeIx(core.Writable(ctx1), core.Writable(dest), core.ReadonlySigner(P)), nil},
		{closeIx(core.Writable(ctx1), core.Writable(dest)), nil},
		{closeIx(core.Writable(ctx1), core.Writable(ctx1), core.ReadonlySigner(A)), []core.Keypair{authority}},
		{closeIx(core.Writable(ctx1), core.Writable(dest), core.Readonly(A)), nil},
		{closeIx(core.Writable(ctx1), core.Writable(dest), core.ReadonlySigner(A)), []core.Keypair{authority}},
		{verify([]byte{byte(ZeroCiphertext), 7, 0, 0, 0}, core.Readonly(holder), core.Writable(ctx2), core.Readonly(A)), nil},
		{verify([]byte{byte(ZeroCiphertext), 8, 0, 0, 0}, core.Readonly(holder)), nil},
		{verify([]byte{byte(ZeroCiphertext), 7, 0, 0, 0}, core.Readonly(holder), core.Writable(holder), core.Readonly(A)), nil},
	}
	sc := realelf.Scenario{Name: "context-state"}
	for k, a := range initial {
		sc.Accounts = append(sc.Accounts, realelf.Account{Address: k, Lamports: a.Lamports, Owner: a.Owner, Data: a.Data})
	}
	var results []*runtime.Result
	var snapshots []runtime.MapSource
	for i, st := range steps {
		msg, err := core.CompileLegacyMessage(P, []core.Instruction{st.ix}, core.HashBytes([]byte{byte(i)}))
		if err != nil {
			t.Fatal(err)
		}
		tx, err := core.NewSignedTransaction(msg, append([]core.Keypair{payer}, st.signers...)...)
		if err != nil {
			t.Fatal(err)
		}
		res := runtime.Execute(runtime.DefaultEnv(msg.RecentBlockhash, runtime.NewRegistry(Module)), accts, tx, runtime.Options{})
		accts.Apply(res.Writes)
		results = append(results, res)
		snapshots = append(snapshots, maps.Clone(accts))
		sc.Steps = append(sc.Steps, realelf.Step{Name: strconv.Itoa(i), Tx: tx, Watch: watch})
	}
	for i, l := range realelf.LiteSVM(t).Run(sc)[0] {
		res := results[i]
		lerr := string(l.Err)
		gerr := "null"
		if res.Err != nil {
			b, _ := json.Marshal(res.Err)
			gerr = string(b)
		}
		if gerr != lerr || !slices.Equal(res.Logs, l.Logs) || res.ComputeUnitsConsumed != l.ComputeUnits {
			t.Errorf("step %d: ledgerd %s %q %d units; LiteSVM %s %q %d units", i, gerr, res.Logs, res.ComputeUnitsConsumed,
				lerr, l.Logs, l.ComputeUnits)
		}
		for _, la := range l.Accounts {
			k := la.Address
			ga, ok := snapshots[i][k]
			exists := ok && (ga.Lamports > 0 || len(ga.Data) > 0)
			if exists != la.Exists || exists && (ga.Lamports != la.Lamports || ga.Owner != la.Owner || !bytes.Equal(ga.Data, la.Data)) {
				t.Errorf("step %d: %s is %v %d %s %x on ledgerd; %v %d %s %x on LiteSVM", i, k, exists, ga.Lamports, ga.Owner, ga.Data,
					la.Exists, la.Lamports, la.Owner, la.Data)
			}
		}
	}
}
