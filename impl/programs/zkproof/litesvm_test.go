//go:build unix

package zkproof

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"ledgerd/conformance/npmdeps"
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
	type acct struct {
		Address    string `json:"address"`
		Lamports   string `json:"lamports"`
		Owner      string `json:"owner"`
		Executable bool   `json:"executable"`
		Data       string `json:"data"`
	}
	type step struct {
		Name string `json:"name"`
		Tx   string `json:"tx"`
	}
	var steps []step
	var ours []map[string]any
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
			wire, _ := tx.MarshalBinary()
			steps = append(steps, step{Name: v.Name + "/" + strconv.Itoa(pos), Tx: base64.StdEncoding.EncodeToString(wire)})
			env := runtime.DefaultEnv(msg.RecentBlockhash, runtime.NewRegistry(Module, computebudget.Module))
			res := runtime.Execute(env, accts, tx, runtime.Options{})
			ours = append(ours, map[string]any{"name": v.Name + "/" + strconv.Itoa(pos), "logs": res.Logs, "cu": res.ComputeUnitsConsumed})
		}
	}
	corpus := map[string]any{"unixTimestamp": "0", "scenarios": []any{map[string]any{"name": "zk",
		"accounts": []acct{{payer.PublicKey().String(), "10000000000", core.SystemProgramID.String(), false, ""}},
		"steps":    steps}}}
	out := runLiteSVM(t, corpus)
	var results []struct {
		Steps []struct {
			Logs         []string    `json:"logs"`
			ComputeUnits json.Number `json:"computeUnits"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(out, &results); err != nil || len(results) != 1 || len(results[0].Steps) != len(ours) {
		t.Fatalf("LiteSVM results: %v", err)
	}
	for i, l := range results[0].Steps {
		o := ours[i]
		if !slices.Equal(o["logs"].([]string), l.Logs) || strconv.FormatUint(o["cu"].(uint64), 10) != l.ComputeUnits.String() {
			t.Errorf("%s: ledgerd %q %v units, LiteSVM %q %s units", o["name"], o["logs"], o["cu"], l.Logs, l.ComputeUnits)
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
	type stepJSON struct {
		Name  string   `json:"name"`
		Tx    string   `json:"tx"`
		Watch []string `json:"watch"`
	}
	var js []stepJSON
	var results []*runtime.Result
	var snapshots []runtime.MapSource
	watchKeys := make([]string, len(watch))
	for i, k := range watch {
		watchKeys[i] = k.String()
	}
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
		js = append(js, stepJSON{strconv.Itoa(i), base64.StdEncoding.EncodeToString(tx.Serialize()), watchKeys})
	}
	type acctJSON struct {
		Address    string `json:"address"`
		Lamports   string `json:"lamports"`
		Owner      string `json:"owner"`
		Executable bool   `json:"executable"`
		Data       string `json:"data"`
	}
	var accounts []acctJSON
	for k, a := range initial {
		accounts = append(accounts, acctJSON{k.String(), strconv.FormatUint(a.Lamports, 10), a.Owner.String(), false,
			base64.StdEncoding.EncodeToString(a.Data)})
	}
	out := runLiteSVM(t, map[string]any{"unixTimestamp": "0", "scenarios": []any{map[string]any{
		"name": "context-state", "accounts": accounts, "steps": js}}})
	var lite []struct {
		Steps []struct {
			Err          any         `json:"err"`
			Logs         []string    `json:"logs"`
			ComputeUnits json.Number `json:"computeUnits"`
			Accounts     []struct {
				Address  string `json:"address"`
				Exists   bool   `json:"exists"`
				Lamports string `json:"lamports"`
				Owner    string `json:"owner"`
				Data     string `json:"data"`
			} `json:"accounts"`
		} `json:"steps"`
	}
	if err := json.Unmarshal(out, &lite); err != nil || len(lite) != 1 || len(lite[0].Steps) != len(steps) {
		t.Fatalf("LiteSVM results: %v", err)
	}
	for i, l := range lite[0].Steps {
		res := results[i]
		lerr := "<nil>"
		if l.Err != nil {
			b, _ := json.Marshal(l.Err)
			lerr = string(b)
		}
		gerr := "<nil>"
		if res.Err != nil {
			b, _ := json.Marshal(res.Err)
			gerr = string(b)
		}
		if gerr != lerr || !slices.Equal(res.Logs, l.Logs) || strconv.FormatUint(res.ComputeUnitsConsumed, 10) != l.ComputeUnits.String() {
			t.Errorf("step %d: ledgerd %s %q %d units; LiteSVM %s %q %s units", i, gerr, res.Logs, res.ComputeUnitsConsumed,
				lerr, l.Logs, l.ComputeUnits)
		}
		for _, la := range l.Accounts {
			k := core.MustParsePubkey(la.Address)
			ga, ok := snapshots[i][k]
			exists := ok && (ga.Lamports > 0 || len(ga.Data) > 0)
			data, _ := base64.StdEncoding.DecodeString(la.Data)
			if exists != la.Exists || exists && (strconv.FormatUint(ga.Lamports, 10) != la.Lamports || ga.Owner.String() != la.Owner ||
				!bytes.Equal(ga.Data, data)) {
				t.Errorf("step %d: %s is %v %d %s %x on ledgerd; %v %s %s %x on LiteSVM", i, k, exists, ga.Lamports, ga.Owner, ga.Data,
					la.Exists, la.Lamports, la.Owner, data)
			}
		}
	}
}

// runLiteSVM runs a corpus through conformance/parity's LiteSVM runner and returns its output.
func runLiteSVM(t *testing.T, corpus map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(corpus)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "corpus.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	parity, err := filepath.Abs(filepath.Join("..", "..", "..", "conformance", "parity"))
	if err != nil {
		t.Fatal(err)
	}
	npmdeps.Install(t, parity, filepath.Join(parity, ".npm-ci.lock"))
	cmd := exec.Command("node", "litesvm_run.mjs", path)
	cmd.Dir = parity
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("litesvm_run.mjs: %v", err)
	}
	return out
}
