//go:build unix

package zkproof

import (
	"encoding/base64"
	"encoding/json"
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
