// Command ledgerd-bench measures the service's performance figures against the real ledgerd binary and prints
// them as a table with their targets (README.md, "Benchmarks"): getBalance throughput over HTTP as a ratio to a
// bare net/http handler driven by the same load in the same run, the time from start to a healthy /health (new
// ledger, 100,000 accounts), signed transfers sent with sendTransaction and executed, an idle node's disk growth
// and resident memory; SPL Token transfers sent and executed, and getTokenAccountsByOwner / getProgramAccounts
// by owner on a ledger of many token accounts; SPL Token transfers sent and executed with the real SPL Token
// 3.5.0 ELF in place of the native program.
//
// The machines it runs on are shared and noisy, so throughput is reported next to a baseline measured side by
// side, and nothing here is a timed test assertion: the table marks each figure against its target for a
// reader. Run it from the repository root (`make bench` does):
//
//	go run ./cmd/ledgerd-bench [-ledgerd bin/ledgerd] [-only 1,3] [-cpuprofile cpu.out]
//
// -cpuprofile runs the node of figures 1, 3, 5 and 7 inside this process (node.Start) and writes a CPU profile
// of those figures (1 and 3 only, unless -only says otherwise; the profile ends before figure 4 or 6, so
// `-only 5 -cpuprofile` profiles the token transfers and `-only 7 -cpuprofile` those of the real ELF), for
// `go tool pprof`; the figures of such a run include the load generator's own work in the same process.
// -memprofile does the same for a heap profile taken after the transfers of figure 3.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

type config struct {
	bin           string
	tmp           string
	conns         int
	duration      time.Duration
	rounds        int
	starts        int
	accounts      int
	tokenAccounts int
	txs           int
	idle          time.Duration
	fastSlots     int
	inProcess     bool
	only          map[int]bool
	progress      io.Writer
	mdTable       bool
	cpuprofile    string
	memprofile    string
	tokenELF      string
	// tokenRates are the token transfer rates measured so far, for the ratios between figures 5 and 7.
	tokenRates map[tokenRateKey]float64
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "ledgerd-bench:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("ledgerd-bench", flag.ContinueOnError)
	var cfg config
	fs.StringVar(&cfg.bin, "ledgerd", "", "the ledgerd binary (default: build ./cmd/ledgerd into a temporary directory)")
	fs.IntVar(&cfg.conns, "conns", 32, "concurrent keep-alive connections of the load generator")
	fs.DurationVar(&cfg.duration, "duration", 5*time.Second, "length of one throughput measurement")
	fs.IntVar(&cfg.rounds, "rounds", 2, "alternating rounds of ledgerd and the bare handler (figure 1)")
	fs.IntVar(&cfg.starts, "starts", 5, "starts per start figure (the median is reported)")
	fs.IntVar(&cfg.accounts, "accounts", 100_000, "accounts of the large ledger (figure 2)")
	fs.IntVar(&cfg.txs, "txs", 20_000, "transactions per sendTransaction run (figures 3 and 5)")
	fs.IntVar(&cfg.tokenAccounts, "token-accounts", 100_000, "token accounts of the indexed ledger, 10 per owner (figure 6; 1000000 takes about 5 minutes to build)")
	fs.DurationVar(&cfg.idle, "idle", 60*time.Second, "measurement window of the idle node at 400 ms slots (figure 4)")
	fs.IntVar(&cfg.fastSlots, "fast-slots", 9000, "slots the 5 ms idle run aims for: an hour of 400 ms slots (figure 4)")
	fs.StringVar(&cfg.tokenELF, "token-elf", "", "the SPL Token build of figure 7 (default: spl_token-3.5.0 cut out of npm litesvm@1.5.0, as make real-programs does)")
	only := fs.String("only", "", "comma-separated figures to run (default all: 1,2,3,4,5,6,7)")
	fs.BoolVar(&cfg.mdTable, "markdown", false, "print the table as Markdown (for README.md)")
	fs.StringVar(&cfg.cpuprofile, "cpuprofile", "", "run the node of figures 1 and 3 in process and write a CPU profile here")
	fs.StringVar(&cfg.memprofile, "memprofile", "", "run the node of figure 3 in process and write a heap profile here after the transfers")
	keep := fs.Bool("keep", false, "keep the temporary ledger directories")
	bare := fs.String("serve-bare", "", "internal: serve the bare handler on this port")
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		return nil
	} else if err != nil {
		return err
	}
	if *bare != "" {
		return serveBare(*bare)
	}
	cfg.only = map[int]bool{}
	for f := range strings.SplitSeq(*only, ",") {
		if f = strings.TrimSpace(f); f != "" {
			var n int
			if _, err := fmt.Sscan(f, &n); err != nil || n < 1 || n > 7 {
				return fmt.Errorf("-only: unknown figure %q", f)
			}
			cfg.only[n] = true
		}
	}
	cfg.progress = os.Stderr
	cfg.tokenRates = map[tokenRateKey]float64{}
	cfg.inProcess = cfg.cpuprofile != "" || cfg.memprofile != ""
	if cfg.inProcess && len(cfg.only) == 0 {
		cfg.only = map[int]bool{1: true, 3: true} // the figures whose node the profiles are about
	}

	tmp, err := os.MkdirTemp("", "ledgerd-bench-")
	if err != nil {
		return err
	}
	cfg.tmp = tmp
	if *keep {
		fmt.Fprintln(os.Stderr, "ledger directories kept in", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	if cfg.bin == "" {
		cfg.bin = filepath.Join(tmp, "ledgerd")
		fmt.Fprintln(os.Stderr, "building ledgerd ...")
		if out, err := exec.Command("go", "build", "-o", cfg.bin, "ledgerd/cmd/ledgerd").CombinedOutput(); err != nil {
			return fmt.Errorf("building ledgerd: %v\n%s", err, out)
		}
	} else if cfg.bin, err = filepath.Abs(cfg.bin); err != nil {
		return err
	}

	var stopProfile func()
	if cfg.cpuprofile != "" {
		f, err := os.Create(cfg.cpuprofile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		stopProfile = func() { pprof.StopCPUProfile(); f.Close() }
		defer func() {
			if stopProfile != nil {
				stopProfile()
			}
		}()
	}

	start, load0 := time.Now(), loadAvg()
	var rows []row
	for _, f := range []struct {
		n   int
		run func(*config) []row
	}{{1, figureGetBalance}, {2, figureStart}, {3, figureTransfers}, {4, figureIdle}, {5, figureTokenTransfers}, {6, figureTokenIndex}, {7, figureTokenTransfersELF}} {
		if len(cfg.only) > 0 && !cfg.only[f.n] {
			continue
		}
		if stopProfile != nil && (f.n == 4 || f.n == 6) { // figures without a node in this process
			stopProfile()
			stopProfile = nil
		}
		fmt.Fprintf(os.Stderr, "== figure %d\n", f.n)
		rows = append(rows, f.run(&cfg)...)
	}
	fmt.Printf("\nledgerd-bench %s  %s/%s  %d CPUs  %s  %s\ntook %s; load average %s before, %s after (other work on the machine)\n",
		time.Now().Format("2006-01-02 15:04 MST"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(), cpuModel(),
		time.Since(start).Round(time.Second), load0, loadAvg())
	printTable(os.Stdout, rows, cfg.mdTable)
	if slices.ContainsFunc(rows, func(r row) bool { return r.mark == markFail }) {
		fmt.Println("\nsome figures miss their targets (FAIL above)")
	}
	return nil
}

// A row of the report. Rows with a target carry a mark.
type row struct {
	figure, measured, target, mark, note string
}

const (
	markPass = "PASS"
	markFail = "FAIL"
	markSkip = "SKIP" // could not be measured (the note says why)
)

func mark(ok bool) string {
	if ok {
		return markPass
	}
	return markFail
}

func printTable(w io.Writer, rows []row, markdown bool) {
	if markdown {
		fmt.Fprintln(w, "\n| figure | measured | target | | note |\n|---|---|---|---|---|")
		for _, r := range rows {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", r.figure, r.measured, r.target, r.mark, r.note)
		}
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nfigure\tmeasured\ttarget\t\tnote")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.figure, r.measured, r.target, r.mark, r.note)
	}
	tw.Flush()
}

// cpuModel names the processor, for the report.
func cpuModel() string {
	raw, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for line := range strings.Lines(string(raw)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func (c *config) logf(format string, args ...any) {
	fmt.Fprintf(c.progress, "   "+format+"\n", args...)
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

func mb(b float64) string {
	if math.Abs(b) < 5e3 {
		b = 0 // no "-0.00 MB" for a few bytes either way
	}
	return fmt.Sprintf("%.2f MB", b/1e6)
}

// thousands writes n with thousands separators.
func thousands(n float64) string {
	s := fmt.Sprintf("%.0f", n)
	var out []byte
	for i, c := range []byte(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, c)
	}
	return string(out)
}

// loadAvg is the one-minute load average, which tells how busy the shared machine was around a run.
func loadAvg() string {
	raw, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(raw))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
