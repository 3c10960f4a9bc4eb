//go:build unix

package realelf

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"ledgerd/conformance/npmdeps"
	"ledgerd/impl/core"
)

// Oracle runs scenarios through LiteSVM (npm litesvm@1.5.0, the reference's runtime compiled to machine code), so
// that ledgerd's VM and programs can be compared with what the real runtime does with the same ELF files.
type Oracle struct {
	t      testing.TB
	node   string
	script string
}

// Scenario is a fresh LiteSVM: programs loaded, features switched, accounts set, then transactions run in order.
type Scenario struct {
	Name string
	// Programs are loaded under their loaders, replacing LiteSVM's own build at their ids (LiteSVM installs v3
	// programs without a ProgramData account).
	Programs []Program
	// Deactivate and Activate change LiteSVM's feature set, otherwise every feature enabled.
	Deactivate, Activate []core.Pubkey
	Accounts             []Account
	// UnixTimestamp is the Clock's time in steps that set a slot.
	UnixTimestamp int64
	Steps         []Step
}

// Account is an account as set before the first step or read after a step.
type Account struct {
	Address    core.Pubkey
	Exists     bool // after a step: false when the account is gone (zero lamports)
	Lamports   uint64
	Owner      core.Pubkey
	Executable bool
	Data       []byte
}

// Step is one transaction: Tx when set (signed), otherwise Instructions compiled into a legacy message paid by
// Payer and signed by Payer and Signers. LiteSVM checks signatures but not the blockhash.
type Step struct {
	Name         string
	Tx           *core.Transaction
	Instructions []core.Instruction
	Payer        core.Keypair
	Signers      []core.Keypair
	// Slot, when set, is the Clock's slot for this step, and SlotHashes then holds the 511 slots before it.
	Slot *uint64
	// Watch lists the accounts reported after the step; nil: the scenario's accounts and the transaction's keys.
	Watch []core.Pubkey
}

// Result is what LiteSVM did with one step.
type Result struct {
	// Err is the TransactionError in its serde JSON form (as the reference's RPC shows it), "null" on success;
	// ErrDebug its Rust Debug form.
	Err          json.RawMessage
	ErrDebug     string
	Logs         []string
	ComputeUnits uint64
	// Fee is what the watched accounts lost in total (LiteSVM keeps no fee collector).
	Fee        uint64
	ReturnData *ReturnData
	Accounts   []Account
}

// ReturnData is the transaction's return data.
type ReturnData struct {
	ProgramID core.Pubkey
	Data      []byte
}

// Succeeded reports whether the transaction succeeded.
func (r *Result) Succeeded() bool { return string(r.Err) == "null" }

// Account returns the watched account k after the step.
func (r *Result) Account(k core.Pubkey) (Account, bool) {
	for _, a := range r.Accounts {
		if a.Address == k {
			return a, true
		}
	}
	return Account{}, false
}

// oracleBlockhash is the blockhash of the transactions compiled from instructions (LiteSVM does not check it).
var oracleBlockhash = core.Hash{1}

// LiteSVM returns the oracle, installing npm litesvm@1.5.0 first if needed. It skips t when node or npm is not
// installed.
func LiteSVM(t testing.TB) *Oracle {
	t.Helper()
	node := npmdeps.Require(t, "the LiteSVM oracle runs npm litesvm@1.5.0 with Node.js 20.18+")
	dir, err := NPMDir()
	if err != nil {
		t.Fatal(err)
	}
	npmdeps.Install(t, dir, filepath.Join(dir, npmLock))
	return &Oracle{t: t, node: node, script: filepath.Join(dir, "litesvm_run.mjs")}
}

// The JSON exchanged with litesvm_run.mjs (see its header).
type (
	corpusJSON struct {
		UnixTimestamp string         `json:"unixTimestamp"`
		Scenarios     []scenarioJSON `json:"scenarios"`
	}
	scenarioJSON struct {
		Name     string        `json:"name"`
		Programs []programJSON `json:"programs"`
		Features *featuresJSON `json:"features,omitempty"`
		Accounts []WireAccount `json:"accounts"`
		Steps    []stepJSON    `json:"steps"`
	}
	programJSON struct {
		ID     string `json:"id"`
		Loader string `json:"loader"`
		ELF    string `json:"elf"`
	}
	featuresJSON struct {
		Activate   []string `json:"activate"`
		Deactivate []string `json:"deactivate"`
	}
	stepJSON struct {
		Name       string       `json:"name"`
		Slot       *string      `json:"slot,omitempty"`
		SlotHashes *[][2]string `json:"slotHashes,omitempty"`
		Tx         string       `json:"tx"`
		Watch      []string     `json:"watch,omitempty"`
	}
	// WireAccount, WireScenarioResult and WireStepResult are the JSON the runner script (conformance/parity's
	// litesvm_run.mjs) reads and writes; the parity tests decode the same script's output with them.
	WireAccount struct {
		Address    string `json:"address"`
		Exists     bool   `json:"exists"`
		Lamports   string `json:"lamports"`
		Owner      string `json:"owner,omitempty"`
		Executable bool   `json:"executable"`
		Data       string `json:"data"`
	}
	WireScenarioResult struct {
		Name  string           `json:"name"`
		Steps []WireStepResult `json:"steps"`
	}
	WireStepResult struct {
		Err          json.RawMessage `json:"err"`
		ErrDebug     string          `json:"errDebug"`
		Fee          string          `json:"fee"`
		ComputeUnits string          `json:"computeUnits"`
		Logs         []string        `json:"logs"`
		ReturnData   *struct {
			ProgramID string `json:"programId"`
			Data      string `json:"data"`
		} `json:"returnData"`
		Accounts []WireAccount `json:"accounts"`
	}
)

// slotHashesDepth is how many slots before a step's slot SlotHashes holds (its 512 entries less one).
const slotHashesDepth = 511

// Run runs the scenarios, each in a fresh LiteSVM, and returns their results, one per step. A scenario that
// LiteSVM cannot set up (an ELF it rejects, say) fails t.
func (o *Oracle) Run(scenarios ...Scenario) [][]Result {
	o.t.Helper()
	dir := o.t.TempDir()
	corpus, err := o.corpus(dir, scenarios)
	if err != nil {
		o.t.Fatal(err)
	}
	raw, err := json.Marshal(corpus)
	if err != nil {
		o.t.Fatal(err)
	}
	file := filepath.Join(dir, "corpus.json")
	if err := os.WriteFile(file, raw, 0o644); err != nil {
		o.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(o.t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, o.node, o.script, file)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		o.t.Fatalf("node %s: %v\n%s", filepath.Base(o.script), err, stderr.Bytes())
	}
	out, err := decodeResults(stdout, scenarios)
	if err != nil {
		o.t.Fatalf("LiteSVM's results: %v", err)
	}
	return out
}

func (o *Oracle) corpus(dir string, scenarios []Scenario) (corpusJSON, error) {
	c := corpusJSON{}
	elfs := map[[32]byte]string{} // one file per distinct ELF
	files := 0                    // ELFs without a hash each get a file of their own
	for i, sc := range scenarios {
		if i == 0 {
			c.UnixTimestamp = strconv.FormatInt(sc.UnixTimestamp, 10)
		} else if sc.UnixTimestamp != scenarios[0].UnixTimestamp {
			return c, fmt.Errorf("scenario %q: every scenario of one run must share UnixTimestamp", sc.Name)
		}
		sj := scenarioJSON{Name: sc.Name, Programs: []programJSON{}, Accounts: []WireAccount{}, Steps: []stepJSON{}}
		for _, p := range sc.Programs {
			path, ok := elfs[p.SHA256]
			if !ok || p.SHA256 == ([32]byte{}) {
				path = filepath.Join(dir, fmt.Sprintf("program-%d.so", files))
				files++
				if err := os.WriteFile(path, p.ELF, 0o644); err != nil {
					return c, err
				}
				if p.SHA256 != ([32]byte{}) {
					elfs[p.SHA256] = path
				}
			}
			sj.Programs = append(sj.Programs, programJSON{ID: p.ID.String(), Loader: p.Loader.String(), ELF: path})
		}
		if len(sc.Activate)+len(sc.Deactivate) > 0 {
			sj.Features = &featuresJSON{Activate: keyStrings(sc.Activate), Deactivate: keyStrings(sc.Deactivate)}
		}
		for _, a := range sc.Accounts {
			sj.Accounts = append(sj.Accounts, WireAccount{Address: a.Address.String(), Exists: true,
				Lamports: strconv.FormatUint(a.Lamports, 10), Owner: a.Owner.String(), Executable: a.Executable,
				Data: base64.StdEncoding.EncodeToString(a.Data)})
		}
		for j, st := range sc.Steps {
			tx := st.Tx
			if tx == nil {
				var err error
				signers := append([]core.Keypair{st.Payer}, st.Signers...)
				if tx, err = core.NewTransaction(st.Payer.PublicKey(), st.Instructions, oracleBlockhash, signers...); err != nil {
					return c, fmt.Errorf("scenario %q step %d (%s): %w", sc.Name, j, st.Name, err)
				}
			}
			stj := stepJSON{Name: st.Name, Tx: base64.StdEncoding.EncodeToString(tx.Serialize())}
			if st.Watch != nil {
				stj.Watch = keyStrings(st.Watch)
			}
			if st.Slot != nil {
				slot := *st.Slot
				s := strconv.FormatUint(slot, 10)
				stj.Slot = &s
				hashes := [][2]string{}
				if slot > 0 {
					oldest := uint64(0)
					if slot > slotHashesDepth {
						oldest = slot - slotHashesDepth
					}
					hashes = append(hashes, [2]string{strconv.FormatUint(slot-1, 10), strconv.FormatUint(oldest, 10)})
				}
				stj.SlotHashes = &hashes
			}
			sj.Steps = append(sj.Steps, stj)
		}
		c.Scenarios = append(c.Scenarios, sj)
	}
	return c, nil
}

func keyStrings(keys []core.Pubkey) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.String()
	}
	return out
}

func decodeResults(raw []byte, scenarios []Scenario) ([][]Result, error) {
	var rs []WireScenarioResult
	if err := json.Unmarshal(raw, &rs); err != nil {
		return nil, err
	}
	if len(rs) != len(scenarios) {
		return nil, fmt.Errorf("%d scenarios, want %d", len(rs), len(scenarios))
	}
	out := make([][]Result, len(rs))
	for i, r := range rs {
		if len(r.Steps) != len(scenarios[i].Steps) {
			return nil, fmt.Errorf("scenario %q: %d steps, want %d", scenarios[i].Name, len(r.Steps), len(scenarios[i].Steps))
		}
		for _, s := range r.Steps {
			res := Result{Err: s.Err, ErrDebug: s.ErrDebug, Logs: s.Logs}
			var err error
			if res.ComputeUnits, err = strconv.ParseUint(s.ComputeUnits, 10, 64); err != nil {
				return nil, fmt.Errorf("computeUnits: %w", err)
			}
			if res.Fee, err = strconv.ParseUint(s.Fee, 10, 64); err != nil {
				return nil, fmt.Errorf("fee: %w", err)
			}
			if s.ReturnData != nil {
				rd := &ReturnData{}
				if rd.ProgramID, err = core.ParsePubkey(s.ReturnData.ProgramID); err != nil {
					return nil, err
				}
				if rd.Data, err = base64.StdEncoding.DecodeString(s.ReturnData.Data); err != nil {
					return nil, err
				}
				res.ReturnData = rd
			}
			for _, a := range s.Accounts {
				acc, err := decodeAccount(a)
				if err != nil {
					return nil, err
				}
				res.Accounts = append(res.Accounts, acc)
			}
			out[i] = append(out[i], res)
		}
	}
	return out, nil
}

func decodeAccount(a WireAccount) (Account, error) {
	var acc Account
	var err error
	if acc.Address, err = core.ParsePubkey(a.Address); err != nil {
		return acc, err
	}
	acc.Exists = a.Exists
	if !a.Exists {
		return acc, nil
	}
	if acc.Lamports, err = strconv.ParseUint(a.Lamports, 10, 64); err != nil {
		return acc, err
	}
	if acc.Owner, err = core.ParsePubkey(a.Owner); err != nil {
		return acc, err
	}
	acc.Executable = a.Executable
	acc.Data, err = base64.StdEncoding.DecodeString(a.Data)
	return acc, err
}
