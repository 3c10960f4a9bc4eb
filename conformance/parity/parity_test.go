package parity

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"ledgerd/conformance/npmdeps"
	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/alt"
	"ledgerd/impl/programs/ata"
	"ledgerd/impl/runtime"
)

// unixTimestamp is the Clock's time on both sides (interest-bearing mints read it).
const unixTimestamp = 1_700_000_000

// slotHashesDepth is how many slots before the current one SlotHashes holds on both sides (the sysvar's 512 entries
// less one, so the zero padding stays visible to the lookup table program as it is on a young chain).
const slotHashesDepth = 511

// programAccounts are the program accounts of ledgerd's side, as a ledger's genesis has them: builtins of the native
// loader, the natively run on-chain programs owned by their loaders. LiteSVM has its own (with the real ELF files);
// neither side's program accounts are compared.
func programAccounts() runtime.MapSource {
	m := runtime.MapSource{}
	for _, p := range []struct {
		id, owner core.Pubkey
		data      []byte
	}{
		{core.SystemProgramID, core.NativeLoaderProgramID, []byte("system_program")},
		{core.ComputeBudgetProgramID, core.NativeLoaderProgramID, []byte("compute_budget_program")},
		{core.StakeProgramID, core.NativeLoaderProgramID, []byte("stake_program")},
		{core.VoteProgramID, core.NativeLoaderProgramID, []byte("vote_program")},
		{core.TokenProgramID, core.BPFLoaderProgramID, []byte("spl_token (native)")},
		{core.AssociatedTokenProgramID, core.BPFLoaderProgramID, []byte("spl_associated_token_account (native)")},
		{core.MemoProgramID, core.BPFLoaderProgramID, []byte("spl_memo (native)")},
		{core.MemoV1ProgramID, core.BPFLoaderDeprecatedProgramID, []byte("spl_memo-1.0.0 (native)")},
		{core.Token2022ProgramID, core.BPFLoaderUpgradeableProgramID, make([]byte, 36)},
		{core.AddressLookupTableProgramID, core.BPFLoaderUpgradeableProgramID, make([]byte, 36)},
	} {
		m[p.id] = runtime.Account{Lamports: 1_000_000_000, Owner: p.owner, Executable: true, Data: p.data,
			RentEpoch: runtime.RentExemptRentEpoch}
	}
	return m
}

// isProgramOrSysvar reports whether k is left out of the comparison: programs and sysvars differ by construction
// (LiteSVM holds the real ELF files and its own sysvar encodings) and no transaction of the corpus writes them.
func isProgramOrSysvar(k core.Pubkey) bool {
	_, ok := programs[k]
	// The stake config account is read by DelegateStake and written by no one; LiteSVM holds it, ledgerd's genesis not.
	return ok || core.IsSysvarID(k) || k == core.NativeLoaderProgramID || k == core.StakeConfigID
}

var programs = programAccounts()

// The JSON exchanged with litesvm_run.mjs.
type (
	corpusJSON struct {
		UnixTimestamp string         `json:"unixTimestamp"`
		Scenarios     []scenarioJSON `json:"scenarios"`
	}
	scenarioJSON struct {
		Name     string        `json:"name"`
		Accounts []accountJSON `json:"accounts"`
		Steps    []stepJSON    `json:"steps"`
	}
	stepJSON struct {
		Name       string      `json:"name"`
		Slot       string      `json:"slot"`
		SlotHashes [][2]string `json:"slotHashes"`
		Tx         string      `json:"tx"`
		Watch      []string    `json:"watch"`
	}
	accountJSON    = realelf.WireAccount
	resultJSON     = realelf.WireScenarioResult
	stepResultJSON = realelf.WireStepResult
)

// outcome is what one step did on ledgerd's side.
type outcome struct {
	err        string // serde JSON, "null" on success
	fee        uint64
	units      uint64
	logs       []string
	returnData string // "<program> <base64>", "" for none
	accounts   map[string]accountJSON
	watch      []core.Pubkey
}

// runLedgerd executes every step of sc through ledgerd's runtime with the ledger's programs, over a MapSource, as a
// bank would: the same fixed blockhash accepted for every transaction, the Clock and SlotHashes of the step's slot,
// v0 lookups resolved against the tables in the accounts.
func runLedgerd(t *testing.T, sc *scenario) []outcome {
	t.Helper()
	return runWith(t, sc, ledger.DefaultPrograms(), programAccounts())
}

// runWith is runLedgerd with the programs of reg and the program accounts progs (the real builds, say).
func runWith(t *testing.T, sc *scenario, reg *runtime.Registry, progs runtime.MapSource) []outcome {
	t.Helper()
	src := progs
	for k, a := range sc.accounts {
		src[k] = a.Clone()
	}
	initial := sortedKeys(sc.accounts)
	var out []outcome
	for _, st := range sc.steps {
		env := runtime.DefaultEnv(blockhash, reg)
		env.Clock = sysvar.Clock{Slot: st.slot, UnixTimestamp: unixTimestamp}
		env.Rent = liteSVMRent
		hashes := slotHashes(st.slot)
		// The sysvars a bank holds beyond the typed ones (as a new ledger has them; LiteSVM's defaults are the same).
		rewards, last := sysvar.EpochRewards{}, sysvar.LastRestartSlot{}
		env.SysvarData = map[core.Pubkey][]byte{core.SysvarSlotHashesID: hashes.AccountData(),
			core.SysvarStakeHistoryID: sysvar.StakeHistory{}.AccountData(), core.SysvarEpochRewardsID: rewards.Marshal(),
			core.SysvarLastRestartSlotID: last.Marshal()}
		opts := runtime.Options{CheckBlockhash: func(core.Hash) (uint64, bool) { return runtime.DefaultLamportsPerSignature, true }}

		m := &st.tx.Message
		keys := slices.Clone(m.AccountKeys)
		var res *runtime.Result
		if m.Version != core.VersionLegacy && len(m.AddressTableLookups) > 0 {
			loaded, terr := alt.LoadAddresses(m.AddressTableLookups, src, st.slot, alt.SlotHashes(env.SysvarData[core.SysvarSlotHashesID]))
			if terr != nil {
				res = &runtime.Result{Err: terr}
			} else {
				opts.LoadedAddresses = loaded
				keys = append(append(keys, loaded.Writable...), loaded.Readonly...)
			}
		}
		if res == nil {
			res = runtime.Execute(env, src, st.tx, opts)
			src.Apply(res.Writes)
		}

		o := outcome{err: "null", units: res.ComputeUnitsConsumed, logs: res.Logs, accounts: map[string]accountJSON{}}
		if res.Err != nil {
			b, err := json.Marshal(res.Err)
			if err != nil {
				t.Fatal(err)
			}
			o.err = string(b)
		}
		if res.Processed {
			o.fee = res.Fee
		}
		if res.ReturnData != nil {
			o.returnData = res.ReturnData.ProgramID.String() + " " + base64.StdEncoding.EncodeToString(res.ReturnData.Data)
		}
		for _, k := range slices.Concat(initial, keys) {
			if isProgramOrSysvar(k) || slices.Contains(o.watch, k) {
				continue
			}
			o.watch = append(o.watch, k)
			o.accounts[k.String()] = accountOf(k, src)
		}
		out = append(out, o)
	}
	return out
}

func accountOf(k core.Pubkey, src runtime.MapSource) accountJSON {
	a, ok := src[k]
	if !ok || a.Lamports == 0 {
		return accountJSON{Address: k.String(), Lamports: "0"}
	}
	return accountJSON{Address: k.String(), Exists: true, Lamports: strconv.FormatUint(a.Lamports, 10), Owner: a.Owner.String(),
		Executable: a.Executable, Data: base64.StdEncoding.EncodeToString(a.Data)}
}

// liteSVMRent is the Rent LiteSVM holds with every feature active (deprecate_rent_exemption_threshold: twice the
// lamports per byte-year, a threshold of 1): the same minimum balances as the default Rent, but programs that read
// the fields take other paths (p-token's is 4 compute units shorter), so both sides hold the same bytes.
var liteSVMRent = sysvar.Rent{LamportsPerByteYear: 2 * sysvar.DefaultLamportsPerByteYear, ExemptionThreshold: 1,
	BurnPercent: sysvar.DefaultRentBurnPercent}

// slotHashes is SlotHashes at slot: the slotHashesDepth slots before it, newest first (zero hashes on both sides).
func slotHashes(slot uint64) sysvar.SlotHashes {
	var h sysvar.SlotHashes
	for s := slot; s > 0 && len(h) < slotHashesDepth; s-- {
		h = append(h, sysvar.SlotHash{Slot: s - 1})
	}
	return h
}

func sortedKeys(m map[core.Pubkey]runtime.Account) []core.Pubkey {
	keys := make([]core.Pubkey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b core.Pubkey) int { return a.Compare(b) })
	return keys
}

func corpusOf(scenarios []*scenario, outcomes [][]outcome) corpusJSON {
	c := corpusJSON{UnixTimestamp: strconv.Itoa(unixTimestamp)}
	for i, sc := range scenarios {
		sj := scenarioJSON{Name: sc.name}
		for _, k := range sortedKeys(sc.accounts) {
			a := sc.accounts[k]
			sj.Accounts = append(sj.Accounts, accountJSON{Address: k.String(), Exists: true, Lamports: strconv.FormatUint(a.Lamports, 10),
				Owner: a.Owner.String(), Executable: a.Executable, Data: base64.StdEncoding.EncodeToString(a.Data)})
		}
		for j, st := range sc.steps {
			stj := stepJSON{Name: st.name, Slot: strconv.FormatUint(st.slot, 10),
				Tx: base64.StdEncoding.EncodeToString(st.tx.Serialize())}
			stj.SlotHashes = [][2]string{}
			if st.slot > 0 {
				oldest := uint64(0)
				if st.slot > slotHashesDepth {
					oldest = st.slot - slotHashesDepth
				}
				stj.SlotHashes = [][2]string{{strconv.FormatUint(st.slot-1, 10), strconv.FormatUint(oldest, 10)}}
			}
			for _, k := range outcomes[i][j].watch {
				stj.Watch = append(stj.Watch, k.String())
			}
			sj.Steps = append(sj.Steps, stj)
		}
		c.Scenarios = append(c.Scenarios, sj)
	}
	return c
}

// TestParity runs the corpus through ledgerd and LiteSVM and compares them (see the package comment).
func TestParity(t *testing.T) {
	nodeBin := npmdeps.Require(t, "the parity test runs LiteSVM with Node.js 20.18+ and npm")
	npmdeps.Install(t, ".", ".npm-ci.lock")

	scenarios := buildCorpus()
	outcomes := make([][]outcome, len(scenarios))
	steps := 0
	for i, sc := range scenarios {
		outcomes[i] = runLedgerd(t, sc)
		steps += len(sc.steps)
	}
	if steps < 40 {
		t.Fatalf("the corpus has %d transactions, want at least 40", steps)
	}
	raw, err := json.Marshal(corpusOf(scenarios, outcomes))
	if err != nil {
		t.Fatal(err)
	}
	corpusFile := filepath.Join(t.TempDir(), "corpus.json")
	if err := os.WriteFile(corpusFile, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin, "litesvm_run.mjs", corpusFile)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("node litesvm_run.mjs: %v\n%s", err, stderr.Bytes())
	}
	var results []resultJSON
	if err := json.Unmarshal(stdout, &results); err != nil {
		t.Fatalf("LiteSVM's results: %v", err)
	}
	if len(results) != len(scenarios) {
		t.Fatalf("LiteSVM ran %d scenarios, want %d", len(results), len(scenarios))
	}

	var rep report
	for i, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			if len(results[i].Steps) != len(sc.steps) {
				t.Fatalf("LiteSVM ran %d steps, want %d", len(results[i].Steps), len(sc.steps))
			}
			for j, st := range sc.steps {
				compareStep(t, &rep, st, outcomes[i][j], results[i].Steps[j])
			}
		})
	}
	t.Logf("%d transactions in %d scenarios: outcome, fee, return data and accounts compared (failing on any difference)", steps, len(scenarios))
	t.Logf("logs: %d of %d strictly compared steps identical; %d of %d token-program steps identical (reported only)",
		rep.strictLogs, rep.strict, rep.reportedLogs, rep.reported)
	t.Logf("compute units: %d of %d strictly compared steps identical; %d of %d token-program steps identical (reported only)",
		rep.strictUnits, rep.strict, rep.reportedUnits, rep.reported)
	t.Logf("the associated token account program's own compute units: identical in %d of the %d steps that run it, at most %d apart",
		rep.ataEqual, rep.ata, rep.ataMaxDiff)
	for _, l := range rep.lines {
		t.Log(l)
	}
}

// report counts the log and compute unit comparisons.
type report struct {
	strict, strictLogs, strictUnits       int
	reported, reportedLogs, reportedUnits int
	ata, ataEqual                         int
	ataMaxDiff                            int64
	lines                                 []string
}

// strictPrograms are the programs whose logs and compute units ledgerd reproduces exactly: builtins, and the lookup
// table program, which LiteSVM runs from the same Core BPF build ledgerd is calibrated against.
var strictPrograms = map[string]bool{
	core.SystemProgramID.String():             true,
	core.ComputeBudgetProgramID.String():      true,
	core.AddressLookupTableProgramID.String(): true,
}

func invokedPrograms(logs []string) []string {
	var out []string
	for _, l := range logs {
		if f := strings.Fields(l); len(f) == 4 && f[0] == "Program" && f[2] == "invoke" {
			out = append(out, f[1])
		}
	}
	return out
}

func compareStep(t *testing.T, rep *report, st step, got outcome, want stepResultJSON) {
	t.Helper()
	name := st.name
	if !jsonEqual([]byte(got.err), want.Err) {
		t.Errorf("%s: err = %s, LiteSVM %s (%s)\nledgerd logs: %q\nLiteSVM logs: %q", name, got.err, want.Err, want.ErrDebug, got.logs, want.Logs)
	}
	if st.mustFail && string(want.Err) == "null" {
		t.Errorf("%s: LiteSVM succeeded where the corpus expects a failure", name)
	}
	if fee := strconv.FormatUint(got.fee, 10); fee != want.Fee {
		t.Errorf("%s: fee = %s, LiteSVM %s", name, fee, want.Fee)
	}
	wantRD := ""
	if want.ReturnData != nil {
		wantRD = want.ReturnData.ProgramID + " " + want.ReturnData.Data
	}
	if got.returnData != wantRD {
		t.Errorf("%s: return data = %q, LiteSVM %q", name, got.returnData, wantRD)
	}
	for _, w := range want.Accounts {
		g := got.accounts[w.Address]
		switch {
		case g.Exists != w.Exists:
			t.Errorf("%s: account %s exists = %v, LiteSVM %v", name, w.Address, g.Exists, w.Exists)
		case !w.Exists:
		case g.Lamports != w.Lamports || g.Owner != w.Owner || g.Executable != w.Executable:
			t.Errorf("%s: account %s = %s lamports, owner %s, executable %v; LiteSVM %s, %s, %v", name, w.Address,
				g.Lamports, g.Owner, g.Executable, w.Lamports, w.Owner, w.Executable)
		case g.Data != w.Data:
			gd, _ := base64.StdEncoding.DecodeString(g.Data)
			wd, _ := base64.StdEncoding.DecodeString(w.Data)
			t.Errorf("%s: account %s data differs (%d vs %d bytes)\n ledgerd %x\n LiteSVM %x", name, w.Address, len(gd), len(wd), gd, wd)
		}
	}

	if filter := os.Getenv("PARITY_LOGS"); filter != "" && strings.Contains(name, filter) {
		t.Logf("%s:\n ledgerd (%d units):\n  %s\n LiteSVM (%s units):\n  %s", name, got.units, strings.Join(got.logs, "\n  "),
			want.ComputeUnits, strings.Join(want.Logs, "\n  "))
	}

	strict := true
	for _, p := range append(invokedPrograms(got.logs), invokedPrograms(want.Logs)...) {
		strict = strict && strictPrograms[p]
	}
	logsEqual := slices.Equal(got.logs, want.Logs)
	unitsEqual := strconv.FormatUint(got.units, 10) == want.ComputeUnits
	if strict {
		rep.strict++
		if logsEqual {
			rep.strictLogs++
		} else {
			t.Errorf("%s: logs differ\n ledgerd %q\n LiteSVM %q", name, got.logs, want.Logs)
		}
		if unitsEqual {
			rep.strictUnits++
		} else {
			t.Errorf("%s: compute units = %d, LiteSVM %s", name, got.units, want.ComputeUnits)
		}
		return
	}
	rep.reported++
	// The associated token account program is ledgerd's to reproduce: its own units (without the token programs it
	// invokes) are compared on their own.
	g, w := ownUnits(got.logs, ata.ProgramID.String()), ownUnits(want.Logs, ata.ProgramID.String())
	if len(g) > 0 || len(w) > 0 {
		rep.ata++
		if slices.Equal(g, w) {
			rep.ataEqual++
		}
		for i := range min(len(g), len(w)) {
			rep.ataMaxDiff = max(rep.ataMaxDiff, g[i]-w[i], w[i]-g[i])
		}
	}
	if logsEqual {
		rep.reportedLogs++
	}
	if unitsEqual {
		rep.reportedUnits++
	}
	if !logsEqual || !unitsEqual {
		line := fmt.Sprintf("%s/%s: compute units %d vs LiteSVM %s; %s", t.Name(), name, got.units, want.ComputeUnits,
			logDiff(got.logs, want.Logs))
		if len(g) > 0 || len(w) > 0 {
			line += fmt.Sprintf("; the associated token account program's own units %v vs LiteSVM %v", g, w)
		}
		rep.lines = append(rep.lines, line)
	}
}

// ownUnits returns, for every invocation of program in logs, the compute units it consumed itself: its "consumed"
// line less what the programs it invoked consumed (150 for each builtin, which logs no such line).
func ownUnits(logs []string, program string) []int64 {
	type frame struct {
		program         string
		consumed, inner int64
	}
	var stack []*frame
	var out []int64
	for _, l := range logs {
		f := strings.Fields(l)
		switch {
		case len(f) == 4 && f[0] == "Program" && f[2] == "invoke":
			stack = append(stack, &frame{program: f[1], consumed: -1})
		case len(f) == 8 && f[0] == "Program" && f[2] == "consumed" && len(stack) > 0:
			stack[len(stack)-1].consumed, _ = strconv.ParseInt(f[3], 10, 64)
		case len(f) >= 3 && f[0] == "Program" && (f[2] == "success" || f[2] == "failed:") && len(stack) > 0:
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if top.consumed < 0 {
				top.consumed = 150 // a builtin
			}
			if len(stack) > 0 {
				stack[len(stack)-1].inner += top.consumed
			}
			if top.program == program {
				out = append(out, top.consumed-top.inner)
			}
		}
	}
	return out
}

// logDiff describes the first difference of two logs.
func logDiff(got, want []string) string {
	i, g, w := firstDifference(got, want)
	if i < 0 {
		return "logs identical"
	}
	return fmt.Sprintf("logs differ from line %d: %q vs %q", i, g, w)
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}
