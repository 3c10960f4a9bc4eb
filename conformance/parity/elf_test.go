//go:build unix

package parity

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	progmods "ledgerd/impl/programs"
	"ledgerd/impl/programs/loader"
	"ledgerd/impl/runtime"
)

// elfBuilds are the real builds the ELF parity runs, each at its program id under its loader: on ledgerd's side
// they replace the native Go programs of those ids, on LiteSVM's side its own builds (p-token at the SPL Token id
// among them, as every feature is on: the logs, which differ, show that SPL Token 3.5.0 ran).
var elfBuilds = []realelf.Name{realelf.SPLToken, realelf.Token2022, realelf.ATA, realelf.Memo4, realelf.Memo1,
	realelf.LookupTable, realelf.Stake}

// pTokenBuilds are elfBuilds with p-token at the SPL Token id, as the reference runs it under
// replace_spl_token_with_p_token.
var pTokenBuilds = func() []realelf.Name {
	out := slices.Clone(elfBuilds)
	out[slices.Index(out, realelf.SPLToken)] = realelf.PToken
	return out
}()

// elfSide is ledgerd running the real builds: the modules of their ids are left out of the registry, so the
// runtime hands each program to the module of the loader that owns its account, which runs the ELF in ledgerd's VM.
func elfSide(progs map[realelf.Name]realelf.Program, builds []realelf.Name) (*runtime.Registry, runtime.MapSource) {
	replaced := map[core.Pubkey]bool{}
	for _, n := range builds {
		replaced[progs[n].ID] = true
	}
	var mods []runtime.Module
	for _, m := range progmods.All() {
		if !replaced[m.ID] {
			mods = append(mods, m)
		}
	}
	accounts := programAccounts()
	for _, n := range builds {
		for k, a := range deployedAccounts(progs[n]) {
			accounts[k] = a
		}
	}
	return runtime.NewRegistry(mods...), accounts
}

// deployedAccounts lays p out as a deployment by its loader leaves it: the ELF as the program account's data under
// loaders v1 and v2; under the upgradeable loader as --upgradeable-program places it at genesis (loader.
// NewGenesisProgram: deployed at slot 0 with the all-zero authority, so it runs from slot 1 on).
func deployedAccounts(p realelf.Program) map[core.Pubkey]runtime.Account {
	if p.Loader != core.BPFLoaderUpgradeableProgramID {
		return map[core.Pubkey]runtime.Account{p.ID: {Lamports: rentFor(len(p.ELF)), Owner: p.Loader, Executable: true,
			Data: slices.Clone(p.ELF), RentEpoch: runtime.RentExemptRentEpoch}}
	}
	g := loader.NewGenesisProgram(p.ID, slices.Clone(p.ELF), core.Pubkey{}, rent)
	return map[core.Pubkey]runtime.Account{g.Program: g.ProgramAccount, g.ProgramData: g.ProgramDataAcc}
}

// oracleScenarios turns the corpus into LiteSVM scenarios running the real builds (builds[i] for scenario i), each
// step watching the accounts ledgerd's side reported (the scenario's and the transaction's).
func oracleScenarios(scenarios []*scenario, builds [][]realelf.Name, watched [][]outcome,
	progs map[realelf.Name]realelf.Program) []realelf.Scenario {
	out := make([]realelf.Scenario, len(scenarios))
	for i, sc := range scenarios {
		o := realelf.Scenario{Name: sc.name, UnixTimestamp: unixTimestamp}
		for _, n := range builds[i] {
			o.Programs = append(o.Programs, progs[n])
		}
		for _, k := range sortedKeys(sc.accounts) {
			a := sc.accounts[k]
			o.Accounts = append(o.Accounts, realelf.Account{Address: k, Exists: true, Lamports: a.Lamports, Owner: a.Owner,
				Executable: a.Executable, Data: a.Data})
		}
		for j, st := range sc.steps {
			slot := st.slot
			o.Steps = append(o.Steps, realelf.Step{Name: st.name, Tx: st.tx, Slot: &slot, Watch: watched[i][j].watch})
		}
		out[i] = o
	}
	return out
}

// outcomeOf is a LiteSVM result in the form ledgerd's side is recorded in.
func outcomeOf(r realelf.Result) outcome {
	o := outcome{err: string(r.Err), fee: r.Fee, units: r.ComputeUnits, logs: r.Logs, accounts: map[string]accountJSON{}}
	if r.ReturnData != nil {
		o.returnData = r.ReturnData.ProgramID.String() + " " + base64.StdEncoding.EncodeToString(r.ReturnData.Data)
	}
	for _, a := range r.Accounts {
		o.watch = append(o.watch, a.Address)
		j := accountJSON{Address: a.Address.String(), Exists: a.Exists, Lamports: "0"}
		if a.Exists {
			j.Lamports, j.Owner, j.Executable = strconv.FormatUint(a.Lamports, 10), a.Owner.String(), a.Executable
			j.Data = base64.StdEncoding.EncodeToString(a.Data)
		}
		o.accounts[j.Address] = j
	}
	return o
}

// stepDiff is how two runs of one step differ: hard differences (outcome, fee, return data, accounts) and the logs
// and compute units.
type stepDiff struct {
	hard  []string
	logs  string // "" when identical
	units string
}

func (d stepDiff) empty() bool { return len(d.hard) == 0 && d.logs == "" && d.units == "" }

// diffOutcomes compares step outcomes a and b (named an and bn in the text), every account either reports included.
func diffOutcomes(a, b outcome, an, bn string) stepDiff {
	var d stepDiff
	if !jsonEqual([]byte(a.err), []byte(b.err)) {
		d.hard = append(d.hard, fmt.Sprintf("outcome: %s %s, %s %s", an, a.err, bn, b.err))
	}
	if a.fee != b.fee {
		d.hard = append(d.hard, fmt.Sprintf("fee: %s %d, %s %d", an, a.fee, bn, b.fee))
	}
	if a.returnData != b.returnData {
		d.hard = append(d.hard, fmt.Sprintf("return data: %s %q, %s %q", an, a.returnData, bn, b.returnData))
	}
	keys := map[string]bool{}
	for k := range a.accounts {
		keys[k] = true
	}
	for k := range b.accounts {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		ga, aok := a.accounts[k]
		gb, bok := b.accounts[k]
		switch {
		case !aok || !bok:
			d.hard = append(d.hard, fmt.Sprintf("account %s: reported by %s %v, by %s %v", k, an, aok, bn, bok))
		default:
			if s := accountDiff(ga, gb, an, bn); s != "" {
				d.hard = append(d.hard, "account "+k+": "+s)
			}
		}
	}
	if !slices.Equal(a.logs, b.logs) {
		d.logs = linesDiff(a.logs, b.logs, an, bn)
	}
	if a.units != b.units {
		d.units = fmt.Sprintf("compute units: %s %d, %s %d", an, a.units, bn, b.units)
	}
	return d
}

// accountDiff describes how two states of one account differ ("" when they do not): existence, lamports, owner,
// executable, length, and the byte ranges of the data that differ with both sides' bytes.
func accountDiff(a, b accountJSON, an, bn string) string {
	if a.Exists != b.Exists {
		return fmt.Sprintf("exists: %s %v, %s %v", an, a.Exists, bn, b.Exists)
	}
	if !a.Exists {
		return ""
	}
	var parts []string
	if a.Lamports != b.Lamports {
		parts = append(parts, fmt.Sprintf("lamports %s %s, %s %s", an, a.Lamports, bn, b.Lamports))
	}
	if a.Owner != b.Owner {
		parts = append(parts, fmt.Sprintf("owner %s %s, %s %s", an, a.Owner, bn, b.Owner))
	}
	if a.Executable != b.Executable {
		parts = append(parts, fmt.Sprintf("executable %s %v, %s %v", an, a.Executable, bn, b.Executable))
	}
	if a.Data != b.Data {
		da, _ := base64.StdEncoding.DecodeString(a.Data)
		db, _ := base64.StdEncoding.DecodeString(b.Data)
		parts = append(parts, bytesDiff(da, db, an, bn))
	}
	return strings.Join(parts, "; ")
}

// bytesDiff lists the ranges where a and b differ (at most 8), with the bytes of each side.
func bytesDiff(a, b []byte, an, bn string) string {
	var out []string
	if len(a) != len(b) {
		out = append(out, fmt.Sprintf("data length %s %d, %s %d", an, len(a), bn, len(b)))
	}
	n, ranges := min(len(a), len(b)), 0
	for i := 0; i < n; {
		if a[i] == b[i] {
			i++
			continue
		}
		j := i
		for j < n && a[j] != b[j] {
			j++
		}
		if ranges++; ranges > 8 {
			out = append(out, "...")
			break
		}
		end := min(j, i+32)
		out = append(out, fmt.Sprintf("data[%d:%d] %s %s, %s %s", i, j, an, hex.EncodeToString(a[i:end]), bn, hex.EncodeToString(b[i:end])))
		i = j
	}
	return strings.Join(out, "; ")
}

// linesDiff shows two logs from their first difference on, a's lines marked "-", b's "+", common lines " ".
func linesDiff(a, b []string, an, bn string) string {
	first := 0
	for first < len(a) && first < len(b) && a[first] == b[first] {
		first++
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "logs differ from line %d (- %s, + %s):", first, an, bn)
	if first > 0 {
		fmt.Fprintf(&sb, "\n    %s", a[first-1])
	}
	const most = 12
	for i := first; i < max(len(a), len(b)) && i < first+most; i++ {
		if i < len(a) && i < len(b) && a[i] == b[i] {
			fmt.Fprintf(&sb, "\n    %s", a[i])
			continue
		}
		if i < len(a) {
			fmt.Fprintf(&sb, "\n  - %s", a[i])
		}
		if i < len(b) {
			fmt.Fprintf(&sb, "\n  + %s", b[i])
		}
	}
	return sb.String()
}

// knownDifferences are the steps whose outcome the native program is known to give differently from the real
// build, by scenario / step, with why; the README lists them. A listed step that agrees fails the test too, so the
// list stays true.
var knownDifferences = map[string]string{
	"memo / memo of invalid UTF-8": "the native program at the Memo id is memo 3.0.0, which refuses invalid UTF-8 " +
		"with InvalidInstructionData; 4.0.0 panics (ProgramFailedToComplete)",
	"stake / GetMinimumDelegation": "the native stake program is the builtin without stake_raise_minimum_delegation_to_1_sol " +
		"(1 lamport); Core BPF stake 5.0.0 returns 1 SOL",
}

// elfCorpus is the parity corpus, Token-2022's later instructions (t22more_test.go) and the scenarios covering the
// rest of what the real builds do.
func elfCorpus() []*scenario {
	return slices.Concat(buildCorpus(), t22More(), moreScenarios())
}

// TestELFParity holds ledgerd's VM running the real builds to LiteSVM running the same builds (outcome, fee, return
// data, every account byte, every log line, compute units: no difference allowed), and ledgerd's native programs to
// the real builds in ledgerd's VM (outcome, fee, return data and accounts; logs and units that differ are listed).
func TestELFParity(t *testing.T) {
	progs := realelf.Programs(t)
	oracle := realelf.LiteSVM(t)
	scenarios := elfCorpus()
	builds := make([][]realelf.Name, len(scenarios))
	for i := range scenarios {
		builds[i] = elfBuilds
	}
	// The scenarios that run SPL Token run again with p-token in its place.
	for _, sc := range slices.Clone(scenarios) {
		if slices.ContainsFunc(sc.steps, func(st step) bool { return slices.Contains(st.tx.Message.AccountKeys, core.TokenProgramID) }) {
			scenarios = append(scenarios, &scenario{name: sc.name + " [p-token]", accounts: sc.accounts, steps: sc.steps})
			builds = append(builds, pTokenBuilds)
		}
	}

	native := make([][]outcome, len(scenarios))
	steps := 0
	for i, sc := range scenarios {
		native[i] = runLedgerd(t, sc)
		steps += len(sc.steps)
	}
	lite := oracle.Run(oracleScenarios(scenarios, builds, native, progs)...)
	elf := make([][]outcome, len(scenarios))
	for i, sc := range scenarios {
		reg, accounts := elfSide(progs, builds[i])
		elf[i] = runWith(t, sc, reg, accounts)
	}

	// Where the native programs' logs and units differ, over the whole corpus whatever subtests -run selects. The
	// native SPL Token stands for 3.5.0: p-token's logs and units are not listed.
	diffs, soft := differences{}, 0
	for i, sc := range scenarios {
		for j, st := range sc.steps {
			if slices.Contains(builds[i], realelf.PToken) {
				continue
			}
			if d := diffOutcomes(native[i][j], elf[i][j], "native", "ELF"); d.logs != "" || d.units != "" {
				soft++
				diffs.add(sc.name+" / "+st.name, native[i][j].logs, elf[i][j].logs)
			}
		}
	}

	var strict int
	for i, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			for j, st := range sc.steps {
				want := outcomeOf(lite[i][j])
				succeeded := string(lite[i][j].Err) == "null"
				if st.mustFail && succeeded {
					t.Errorf("%s: the real build succeeded where the corpus expects a failure", st.name)
				}
				if !st.mustFail && !succeeded {
					t.Errorf("%s: the real build failed (%s) where the corpus expects success\n  %s", st.name,
						lite[i][j].ErrDebug, strings.Join(lite[i][j].Logs, "\n  "))
				}
				if d := diffOutcomes(elf[i][j], want, "ledgerd", "LiteSVM"); !d.empty() {
					strict++
					t.Errorf("%s: ledgerd's VM and LiteSVM differ on the real builds:\n  %s", st.name,
						strings.Join(slices.DeleteFunc(append(d.hard, d.units, d.logs), func(s string) bool { return s == "" }), "\n  "))
				}
				d := diffOutcomes(native[i][j], elf[i][j], "native", "ELF")
				key := sc.name + " / " + st.name
				reason, known := knownDifferences[key]
				switch {
				case len(d.hard) > 0 && known:
					t.Logf("%s: a known difference of the native program (%s):\n  %s", st.name, reason, strings.Join(d.hard, "\n  "))
				case len(d.hard) > 0:
					t.Errorf("%s: the native programs and the real builds in ledgerd's VM differ:\n  %s", st.name, strings.Join(d.hard, "\n  "))
				case known:
					t.Errorf("%s: listed in knownDifferences, but the native program and the real build agree", key)
				}
				if (d.logs != "" || d.units != "") && !slices.Contains(builds[i], realelf.PToken) {
					if os.Getenv("PARITY_STEPS") != "" {
						t.Logf("%s: %s", key, strings.Join(slices.DeleteFunc([]string{d.units, d.logs}, func(s string) bool { return s == "" }), "; "))
					}
				}
				if filter := os.Getenv("PARITY_LOGS"); filter != "" && strings.Contains(st.name, filter) {
					t.Logf("%s:\n native (%d units):\n  %s\n ELF (%d units):\n  %s\n LiteSVM (%d units):\n  %s", st.name,
						native[i][j].units, strings.Join(native[i][j].logs, "\n  "), elf[i][j].units, strings.Join(elf[i][j].logs, "\n  "),
						want.units, strings.Join(want.logs, "\n  "))
				}
			}
		})
	}
	t.Logf("%d transactions in %d scenarios; real builds in ledgerd's VM vs LiteSVM: %d steps differ", steps, len(scenarios), strict)
	t.Logf("native programs vs real builds: outcomes and accounts compared; logs or compute units differ in %d steps", soft)
	lines := diffs.lines()
	t.Logf("where the native programs' own logs or units differ from the real builds (PARITY_STEPS=1 for every step):\n%s",
		strings.Join(lines, "\n"))
	if err := checkReadme(lines); err != nil {
		t.Error(err)
	}
}

// TestELFParityCatches shows the comparison failing: a flipped account byte, one compute unit more, another log
// line, another outcome and another return data each come out as a difference.
func TestELFParityCatches(t *testing.T) {
	data := make([]byte, 165)
	data[64] = 7
	base := outcome{err: "null", fee: 5000, units: 4645, logs: []string{"Program x invoke [1]", "Program x success"},
		accounts: map[string]accountJSON{"A": {Address: "A", Exists: true, Lamports: "1", Owner: "T",
			Data: base64.StdEncoding.EncodeToString(data)}}}
	clone := func(o outcome) outcome {
		o.logs = slices.Clone(o.logs)
		o.accounts = map[string]accountJSON{"A": o.accounts["A"]}
		return o
	}
	if d := diffOutcomes(base, clone(base), "a", "b"); !d.empty() {
		t.Fatalf("identical outcomes differ: %+v", d)
	}
	flipped := clone(base)
	fd := slices.Clone(data)
	fd[100] ^= 1
	a := flipped.accounts["A"]
	a.Data = base64.StdEncoding.EncodeToString(fd)
	flipped.accounts["A"] = a
	units := clone(base)
	units.units++
	logs := clone(base)
	logs.logs[1] = "Program x failed"
	failed := clone(base)
	failed.err = `{"InstructionError":[0,{"Custom":1}]}`
	ret := clone(base)
	ret.returnData = "x AQ=="
	for _, c := range []struct {
		name string
		o    outcome
		want func(stepDiff) bool
	}{
		{"a flipped byte", flipped, func(d stepDiff) bool {
			return len(d.hard) == 1 && strings.Contains(d.hard[0], "data[100:101] a 00, b 01")
		}},
		{"one compute unit more", units, func(d stepDiff) bool { return len(d.hard) == 0 && d.units != "" && d.logs == "" }},
		{"another log line", logs, func(d stepDiff) bool {
			return len(d.hard) == 0 && d.logs != "" && strings.Contains(d.logs, "+ Program x failed")
		}},
		{"another outcome", failed, func(d stepDiff) bool { return len(d.hard) == 1 && strings.HasPrefix(d.hard[0], "outcome") }},
		{"another return data", ret, func(d stepDiff) bool { return len(d.hard) == 1 && strings.HasPrefix(d.hard[0], "return data") }},
	} {
		d := diffOutcomes(base, c.o, "a", "b")
		if !c.want(d) {
			t.Errorf("%s: %+v", c.name, d)
		}
	}
}
