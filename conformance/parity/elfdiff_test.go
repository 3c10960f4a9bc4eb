//go:build unix

package parity

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"ledgerd/impl/core"
)

// invocation is one program invocation in a transaction's log: the program, the instruction it names ("Program log:
// Instruction: X", "" when it logs none), its own lines (not its callees'), and its own compute units (its "consumed"
// less its callees'; -1 for a builtin, which logs no "consumed" line).
type invocation struct {
	program, name string
	logs          []string
	units         int64
}

// invocations splits logs into invocations, in the order they started.
func invocations(logs []string) []invocation {
	type frame struct {
		at       int // position in out
		consumed int64
		inner    int64
	}
	var out []invocation
	var stack []*frame
	for _, l := range logs {
		f := strings.Fields(l)
		switch {
		case len(f) == 4 && f[0] == "Program" && f[2] == "invoke":
			out = append(out, invocation{program: f[1], units: -1})
			stack = append(stack, &frame{at: len(out) - 1, consumed: -1})
		case len(stack) == 0:
		case len(f) == 8 && f[0] == "Program" && f[2] == "consumed":
			stack[len(stack)-1].consumed, _ = strconv.ParseInt(f[3], 10, 64)
		case len(f) >= 3 && f[0] == "Program" && (f[2] == "success" || f[2] == "failed:") && f[1] == out[stack[len(stack)-1].at].program:
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			inv := &out[top.at]
			inv.logs = append(inv.logs, l)
			spent := top.consumed
			if spent < 0 {
				spent = 150 // what a builtin charges by default
			} else {
				inv.units = top.consumed - top.inner
			}
			if len(stack) > 0 {
				stack[len(stack)-1].inner += spent
			}
		default:
			inv := &out[stack[len(stack)-1].at]
			if name, ok := strings.CutPrefix(l, "Program log: Instruction: "); ok && inv.name == "" {
				inv.name = name
			} else if ok := namesByFirstLine[inv.program]; ok && inv.name == "" && len(inv.logs) == 0 {
				// Token-2022's extension instructions log their name ("TransferFeeInstruction:
				// TransferCheckedWithFee", "CpiGuardInstruction::Enable"), the associated token account
				// program its instruction ("Create").
				name, _ := strings.CutPrefix(l, "Program log: ")
				kind, ix, two := strings.Cut(name, ": ")
				if !strings.Contains(name, " ") || two && strings.HasSuffix(kind, "Instruction") && !strings.Contains(kind+ix, " ") {
					inv.name = name
				}
			}
			inv.logs = append(inv.logs, l)
		}
	}
	return out
}

// namesByFirstLine are the programs whose first log line names an instruction that logs no "Instruction:" line.
var namesByFirstLine = map[string]bool{
	core.Token2022ProgramID.String():       true,
	core.AssociatedTokenProgramID.String(): true,
}

// difference is how the native program differs from the real build on one instruction, over the corpus.
type difference struct {
	invocations        int
	native, real       []int64 // own units seen
	logs               int     // invocations whose own lines differ
	exampleN, exampleR string  // the first differing lines of one of them
	nativeNoUnits      bool
	structureDiffers   []string // steps whose invocations do not pair up
}

// differences collects, per program and instruction, where the native programs' own log lines and compute units
// differ from the real builds' (outcomes and accounts are compared elsewhere).
type differences map[string]*difference

var buildNames = map[string]string{
	core.TokenProgramID.String():              "SPL Token 3.5.0",
	core.Token2022ProgramID.String():          "Token-2022 11.0.0",
	core.AssociatedTokenProgramID.String():    "Associated Token Account 1.1.1",
	core.MemoProgramID.String():               "Memo 4.0.0 (native: 3.0.0)",
	core.MemoV1ProgramID.String():             "Memo 1.0.0",
	core.AddressLookupTableProgramID.String(): "Address Lookup Table",
	core.StakeProgramID.String():              "Stake 5.0.0 (native: the builtin)",
}

// add compares one step's logs.
func (ds differences) add(step string, native, real []string) {
	n, r := invocations(native), invocations(real)
	same := len(n) == len(r)
	for i := 0; same && i < len(n); i++ {
		same = n[i].program == r[i].program
	}
	if !same {
		d := ds.get("invocations")
		d.structureDiffers = append(d.structureDiffers, step)
		return
	}
	for i := range n {
		name, ok := buildNames[r[i].program]
		if !ok {
			continue // a builtin both sides run natively
		}
		unitsDiffer := n[i].units != r[i].units
		logsDiffer := !slices.Equal(withoutUnits(n[i].logs), withoutUnits(r[i].logs))
		if !unitsDiffer && !logsDiffer {
			continue
		}
		key := name
		switch {
		case r[i].name != "":
			key += " " + r[i].name
		case namesByFirstLine[r[i].program] || r[i].program == core.TokenProgramID.String():
			key += ", refused before naming the instruction"
		}
		d := ds.get(key)
		d.invocations++
		if n[i].units < 0 {
			d.nativeNoUnits = true
		} else if !slices.Contains(d.native, n[i].units) {
			d.native = append(d.native, n[i].units)
		}
		if !slices.Contains(d.real, r[i].units) {
			d.real = append(d.real, r[i].units)
		}
		if logsDiffer {
			d.logs++
			if d.exampleN == "" && d.exampleR == "" {
				_, d.exampleN, d.exampleR = firstDifference(withoutUnits(n[i].logs), withoutUnits(r[i].logs))
			}
		}
	}
}

func (ds differences) get(key string) *difference {
	d, ok := ds[key]
	if !ok {
		d = &difference{}
		ds[key] = d
	}
	return d
}

// withoutUnits drops the "consumed" lines, compared as units.
func withoutUnits(logs []string) []string {
	return slices.DeleteFunc(slices.Clone(logs), func(l string) bool {
		f := strings.Fields(l)
		return len(f) == 8 && f[0] == "Program" && f[2] == "consumed"
	})
}

// firstDifference returns the first line where a and b differ and the two lines there ("" past an
// end), or -1 when they are equal.
func firstDifference(a, b []string) (int, string, string) {
	for i := range max(len(a), len(b)) {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return i, x, y
		}
	}
	return -1, "", ""
}

// lines renders the differences, one line each, sorted.
func (ds differences) lines() []string {
	var out []string
	for key, d := range ds {
		if key == "invocations" {
			out = append(out, fmt.Sprintf("- other invocations (%d steps): %s", len(d.structureDiffers), strings.Join(d.structureDiffers, "; ")))
			continue
		}
		var parts []string
		if !slices.Equal(d.native, d.real) || d.nativeNoUnits {
			native := unitRange(d.native)
			if d.nativeNoUnits {
				native = "none logged (a builtin)"
			}
			parts = append(parts, fmt.Sprintf("units native %s, real %s", native, unitRange(d.real)))
		}
		if d.logs > 0 {
			parts = append(parts, fmt.Sprintf("logs differ in %d (native %s, real %s)", d.logs, quoteLine(d.exampleN), quoteLine(d.exampleR)))
		}
		n := fmt.Sprintf("%d invocations", d.invocations)
		if d.invocations == 1 {
			n = "1 invocation"
		}
		out = append(out, fmt.Sprintf("- %s (%s): %s", key, n, strings.Join(parts, "; ")))
	}
	slices.Sort(out)
	return out
}

func unitRange(units []int64) string {
	if len(units) == 0 {
		return "-"
	}
	lo, hi := slices.Min(units), slices.Max(units)
	if lo == hi {
		return strconv.FormatInt(lo, 10)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

func quoteLine(l string) string {
	if l == "" {
		return "no line"
	}
	if len(l) > 90 {
		l = l[:87] + "..."
	}
	return "`" + strings.ReplaceAll(l, "`", "'") + "`"
}

// The README's list of the differences sits between these markers.
const (
	readmeBegin = "<!-- native-vs-real differences: begin (go test ./conformance/parity -run TestELFParity) -->"
	readmeEnd   = "<!-- native-vs-real differences: end -->"
)

// checkReadme compares the README's list with lines; with PARITY_WRITE_README=1 it rewrites the list instead.
func checkReadme(lines []string) error {
	path := filepath.Join("..", "..", "README.md")
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	text := string(raw)
	begin, end := strings.Index(text, readmeBegin), strings.Index(text, readmeEnd)
	if begin < 0 || end < begin {
		return fmt.Errorf("%s: the markers of the native-vs-real list are missing:\n%s\n%s", path, readmeBegin, readmeEnd)
	}
	want := readmeBegin + "\n" + strings.Join(lines, "\n") + "\n" + readmeEnd
	got := text[begin : end+len(readmeEnd)]
	if got == want {
		return nil
	}
	if os.Getenv("PARITY_WRITE_README") == "1" {
		return os.WriteFile(path, []byte(text[:begin]+want+text[end+len(readmeEnd):]), 0o644)
	}
	return fmt.Errorf("the README's list of where the native programs' logs and units differ from the real builds is stale "+
		"(PARITY_WRITE_README=1 go test ./conformance/parity -run TestELFParity rewrites it); it should read:\n%s", want)
}
