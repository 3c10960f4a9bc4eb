package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ledgerd/conformance/realelf"
	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/node"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/sbpf/sbpftest"
)

// The test validator's argument forms become ones the flag package reads, as clap reads them.
func TestNormalizeArgs(t *testing.T) {
	t.Parallel()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	var tv testValidatorFlags
	tv.register(fs)
	var hist historyFlags
	hist.register(fs)
	fs.String("ledger", "", "")
	fs.Bool("reset", false, "")
	fs.Int("rpc-port", 0, "")
	for _, c := range []struct{ in, want string }{
		{"-r -q -l dir -u d", "--reset --quiet --ledger=dir --url=d"},
		{"-rq -ldir -u=localhost", "--reset --quiet --ledger=dir --url=localhost"},
		{"--ledger=dir --rpc-port 0", "--ledger=dir --rpc-port=0"},
		{"-ledger dir", "--ledger=dir"},
		{"--clone A B --maybe-clone=C D -c E", "--clone=A --clone=B --maybe-clone=C --maybe-clone=D --clone=E"},
		{"--warp-slot --reset", "--warp-slot= --reset"},
		{"-w 100 --limit-ledger-size", "--warp-slot=100 --limit-ledger-size="},
		{"--bpf-program=A a.so --upgradeable-program B b.so none", "--bpf-program A a.so --upgradeable-program B b.so none"},
		{"--account - -dash.json", "--account - -dash.json"},
		{"--max-compute-units 5 --accountsdb-plugin-config g.json", "--compute-unit-limit=5 --geyser-plugin-config=g.json"},
		{"--ledger -r", "--ledger=-r"},
		{"--quiet=false stray", "--quiet=false stray"},
		{"-V", "--version"},
	} {
		got, err := normalizeArgs(fs, strings.Fields(c.in))
		if err != nil || strings.Join(got, " ") != c.want {
			t.Errorf("%q: %q %v, want %q", c.in, got, err, c.want)
		}
	}
	if _, err := normalizeArgs(fs, []string{"-z"}); err == nil {
		t.Error("-z accepted")
	}
}

// buildLink builds the binary and links it as solana-test-validator, as `make install-test-validator-link` does.
func buildLink(t *testing.T) string {
	t.Helper()
	bin := buildBinary(t)
	link := filepath.Join(t.TempDir(), "solana-test-validator")
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	return link
}

// syncBuffer collects a process's stderr.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// started is a running binary: its ready line's URLs, the stdout lines before it, and its stderr.
type started struct {
	cmd           *exec.Cmd
	rpcURL, wsURL string
	stdout        []string
	stderr        *syncBuffer
}

// startArgs runs bin in dir with exactly args and waits for its ready line.
func startArgs(t *testing.T, bin, dir string, args ...string) *started {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	s := &started{cmd: cmd, stderr: &syncBuffer{}}
	cmd.Stderr = s.stderr
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "ledgerd ready "); ok {
			for _, f := range strings.Fields(rest) {
				if v, ok := strings.CutPrefix(f, "rpc_url="); ok {
					s.rpcURL = v
				} else if v, ok := strings.CutPrefix(f, "ws_url="); ok {
					s.wsURL = v
				}
			}
			break
		}
		s.stdout = append(s.stdout, line)
	}
	if s.rpcURL == "" {
		cmd.Wait()
		t.Fatalf("%s %q printed no ready line; stdout %q, stderr:\n%s", bin, args, s.stdout, s.stderr)
	}
	go io.Copy(io.Discard, stdout)
	return s
}

// rpcCall calls method on url and decodes its result into out (nil: discarded); a JSON-RPC error fails the test.
func rpcCall(t *testing.T, url, method string, out any, params ...any) {
	t.Helper()
	if params == nil {
		params = []any{}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil || reply.Error != nil {
		t.Fatalf("%s: %v %s", method, err, reply.Error)
	}
	if out != nil {
		if err := json.Unmarshal(reply.Result, out); err != nil {
			t.Fatalf("%s: %v in %s", method, err, reply.Result)
		}
	}
}

type accountValue struct {
	Value *struct {
		Lamports   uint64    `json:"lamports"`
		Owner      string    `json:"owner"`
		Data       [2]string `json:"data"`
		Executable bool      `json:"executable"`
	} `json:"value"`
}

func getAccount(t *testing.T, url string, k core.Pubkey) accountValue {
	t.Helper()
	var a accountValue
	rpcCall(t, url, rpcapi.MethodGetAccountInfo, &a, k.String(), map[string]string{"encoding": "base64", "commitment": "confirmed"})
	return a
}

// invoke sends a transaction that calls program (fee paid by payer) and returns its log once confirmed. The
// preflight runs on the processed bank, as Anchor's provider sends (a program in genesis runs from slot 1 on).
func invoke(t *testing.T, url string, payer core.Keypair, program core.Pubkey) []string {
	t.Helper()
	return invokeData(t, url, payer, program, nil)
}

// invokeData is invoke with instruction data.
func invokeData(t *testing.T, url string, payer core.Keypair, program core.Pubkey, data []byte) []string {
	t.Helper()
	var bh struct {
		Value struct {
			Blockhash string `json:"blockhash"`
		} `json:"value"`
	}
	rpcCall(t, url, rpcapi.MethodGetLatestBlockhash, &bh)
	hash, err := core.ParseHash(bh.Value.Blockhash)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := core.NewTransaction(payer.PublicKey(), []core.Instruction{{ProgramID: program, Data: data}}, hash, payer)
	if err != nil {
		t.Fatal(err)
	}
	var sig string
	rpcCall(t, url, rpcapi.MethodSendTransaction, &sig, base64.StdEncoding.EncodeToString(tx.Serialize()), map[string]string{"encoding": "base64", "preflightCommitment": "processed"})
	deadline := time.Now().Add(15 * time.Second)
	for {
		var got *struct {
			Meta struct {
				Err         any      `json:"err"`
				LogMessages []string `json:"logMessages"`
			} `json:"meta"`
		}
		rpcCall(t, url, rpcapi.MethodGetTransaction, &got, sig, map[string]any{"commitment": "confirmed", "maxSupportedTransactionVersion": 0})
		if got != nil {
			if got.Meta.Err != nil {
				t.Fatalf("invocation of %s failed: %v %q", program, got.Meta.Err, got.Meta.LogMessages)
			}
			return got.Meta.LogMessages
		}
		if time.Now().After(deadline) {
			t.Fatalf("invocation %s not confirmed", sig)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// helloELF is a program that logs "hello".
func helloELF() []byte {
	return sbpftest.MustELF("lddw r1, rodata+0\nmov64 r2, 5\ncall sol_log_\nmov64 r0, 0\nexit", []byte("hello"))
}

// writeAccountJSON writes an account as `solana account --output json` does.
func writeAccountJSON(t *testing.T, path string, k core.Pubkey, lamports uint64, owner core.Pubkey, data []byte) {
	t.Helper()
	j := fmt.Sprintf(`{"pubkey":%q,"account":{"lamports":%d,"data":[%q,"base64"],"owner":%q,"executable":false,"rentEpoch":0,"space":%d}}`,
		k, lamports, base64.StdEncoding.EncodeToString(data), owner, len(data))
	if err := os.WriteFile(path, []byte(j), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The command line `anchor test --validator legacy` builds for a workspace with one program and every
// [test.validator] setting (in the order of Anchor's Validator fields) starts ledgerd under the name
// solana-test-validator: the program answers, the mint holds its SOL, the account files and the warp slot and
// epoch length apply, and each flag without a meaning here is noted once on stderr.
func TestAnchorTestCommandLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	link := buildLink(t)
	ws := t.TempDir() // the Anchor workspace
	wallet := core.KeypairFromSeed([32]byte{0x11})
	program := core.KeypairFromSeed([32]byte{0x12}).PublicKey()
	os.MkdirAll(filepath.Join(ws, "target", "deploy"), 0o755)
	os.WriteFile(filepath.Join(ws, "target", "deploy", "hello.so"), helloELF(), 0o644)
	acct, dirAcct := core.Pubkey{0x21, 1}, core.Pubkey{0x21, 2}
	writeAccountJSON(t, filepath.Join(ws, "acct.json"), acct, 5_000_000, core.SystemProgramID, []byte("one"))
	os.MkdirAll(filepath.Join(ws, "fixtures"), 0o755)
	writeAccountJSON(t, filepath.Join(ws, "fixtures", "two.json"), dirAcct, 6_000_000, core.SystemProgramID, []byte("two"))
	os.WriteFile(filepath.Join(ws, "fixtures", "notes.txt"), []byte("not an account"), 0o644)
	feature := core.Pubkey{0x31}.String()

	args := []string{"--ledger", ".anchor/test-ledger", "--mint", wallet.PublicKey().String(),
		"--bpf-program", program.String(), "target/deploy/hello.so",
		"--account", acct.String(), "acct.json",
		"--account-dir", "fixtures",
		"--bind-address", "127.0.0.1",
		"--dynamic-port-range", "1024-65535",
		"--faucet-port", "9900",
		"--faucet-sol", "1000.5",
		"--geyser-plugin-config", "geyser.json",
		"--gossip-host", "127.0.0.1",
		"--limit-ledger-size", "10000",
		"--rpc-port", "0",
		"--slots-per-epoch", "64",
		"--ticks-per-slot", "8",
		"--warp-slot", "1000",
		"--deactivate-feature", feature,
	}
	n := startArgs(t, link, ws, args...)

	var bal struct {
		Value uint64 `json:"value"`
	}
	rpcCall(t, n.rpcURL, rpcapi.MethodGetBalance, &bal, wallet.PublicKey().String())
	if bal.Value != MintLamports {
		t.Errorf("mint balance %d, want %d", bal.Value, MintLamports)
	}
	faucet, err := core.ReadKeypairFile(filepath.Join(ws, ".anchor", "test-ledger", "faucet-keypair.json"))
	if err != nil {
		t.Fatal(err)
	}
	rpcCall(t, n.rpcURL, rpcapi.MethodGetBalance, &bal, faucet.PublicKey().String())
	if bal.Value != 1000_500_000_000 {
		t.Errorf("faucet balance %d, want --faucet-sol 1000.5", bal.Value)
	}
	for k, want := range map[core.Pubkey]string{acct: "one", dirAcct: "two"} {
		a := getAccount(t, n.rpcURL, k)
		if a.Value == nil || a.Value.Data[0] != base64.StdEncoding.EncodeToString([]byte(want)) {
			t.Errorf("account %s: %+v", k, a.Value)
		}
	}
	var epoch struct {
		AbsoluteSlot uint64 `json:"absoluteSlot"`
		Epoch        uint64 `json:"epoch"`
		SlotsInEpoch uint64 `json:"slotsInEpoch"`
	}
	rpcCall(t, n.rpcURL, rpcapi.MethodGetEpochInfo, &epoch)
	if epoch.AbsoluteSlot < 1000 || epoch.SlotsInEpoch != 64 || epoch.Epoch != epoch.AbsoluteSlot/64 {
		t.Errorf("epoch info %+v: want a slot past the warp slot 1000 in 64-slot epochs", epoch)
	}
	if logs := invoke(t, n.rpcURL, wallet, program); !slices.Contains(logs, "Program log: hello") {
		t.Errorf("program logs %q", logs)
	}
	stderr := n.stderr.String()
	for _, f := range []string{"dynamic-port-range", "faucet-port", "geyser-plugin-config", "gossip-host",
		"ticks-per-slot", "deactivate-feature"} {
		if c := strings.Count(stderr, "ledgerd: note: --"+f+" "); c != 1 {
			t.Errorf("--%s noted %d times; stderr:\n%s", f, c, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, ".anchor", "test-ledger", "genesis.json")); err != nil {
		t.Errorf("the ledger is not where --ledger put it: %v", err)
	}
}

// The same with the real SPL Memo 4.0.0 build as the workspace's program (the Anchor command line without a
// [test.validator] section): the memo is logged by the real program.
func TestAnchorTestCommandLineRealMemo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	memo := realelf.Programs(t)[realelf.Memo4]
	link := buildLink(t)
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "target", "deploy"), 0o755)
	os.WriteFile(filepath.Join(ws, "target", "deploy", "memo.so"), memo.ELF, 0o644)
	wallet := core.KeypairFromSeed([32]byte{0x13})
	program := core.KeypairFromSeed([32]byte{0x14}).PublicKey()
	n := startArgs(t, link, ws, "--ledger", ".anchor/test-ledger", "--mint", wallet.PublicKey().String(),
		"--bpf-program", program.String(), "target/deploy/memo.so", "--bind-address", "127.0.0.1", "--rpc-port", "0")
	logs := invokeData(t, n.rpcURL, wallet, program, []byte("hello from anchor"))
	if !slices.Contains(logs, "Program log: Memo (len 17)") || !slices.Contains(logs, "Program log: hello from anchor") ||
		!slices.Contains(logs, "Program "+program.String()+" success") {
		t.Errorf("memo logs %q", logs)
	}
}

// Two nodes on --rpc-port 0 at the same time get their own free ports; with --quiet each prints exactly its one
// ready line, which names them.
func TestRPCPortZeroInParallel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := buildBinary(t)
	var nodes [2]*started
	var wg sync.WaitGroup
	for i := range nodes {
		dir := t.TempDir()
		wg.Go(func() { nodes[i] = startArgs(t, bin, dir, "--ledger", "l", "--rpc-port", "0", "--quiet") })
	}
	wg.Wait()
	// As the reference's: --help is a success, -V names the version.
	if out, err := exec.Command(bin, "--help").CombinedOutput(); err != nil || !strings.Contains(string(out), "clone-upgradeable-program") {
		t.Errorf("--help: %v\n%s", err, out)
	}
	if out, err := exec.Command(bin, "-V").Output(); err != nil || !strings.HasPrefix(string(out), "ledgerd ") {
		t.Errorf("-V: %v %q", err, out)
	}
	seen := map[string]bool{}
	for i, n := range nodes {
		if n == nil {
			t.Fatalf("node %d did not start", i)
		}
		if len(n.stdout) != 0 {
			t.Errorf("node %d printed more than its ready line: %q", i, n.stdout)
		}
		for _, u := range []string{n.rpcURL, n.wsURL} {
			if seen[u] || strings.HasSuffix(u, ":0") {
				t.Errorf("node %d: URL %s taken twice or not bound", i, u)
			}
			seen[u] = true
		}
		var health string
		rpcCall(t, n.rpcURL, rpcapi.MethodGetHealth, &health)
		if health != "ok" {
			t.Errorf("node %d health %q", i, health)
		}
	}
}

// Two nodes, one the cluster: a program deployed on the cluster with --upgradeable-program is copied with
// --clone-upgradeable-program and answers on the other node; a token mint is copied byte for byte with --clone; a
// missing --maybe-clone is fine, a missing --clone stops the start with the address named, and so does a cluster
// that does not answer.
func TestCloneFromAnotherNode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	t.Parallel()
	bin := buildBinary(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "hello.so"), helloELF(), 0o644)
	program := core.KeypairFromSeed([32]byte{0x41}).PublicKey()
	authority := core.KeypairFromSeed([32]byte{0x42}).PublicKey()
	mint, missing := core.Pubkey{0x43}, core.Pubkey{0x44}
	m := token.Mint{MintAuthority: token.Some(authority), Supply: 1_000_000, Decimals: 6, IsInitialized: true}
	writeAccountJSON(t, filepath.Join(dir, "mint.json"), mint, 1_461_600, core.TokenProgramID, m.MintData())
	cluster := startArgs(t, bin, dir, "--ledger", "cluster", "--rpc-port", "0", "--slot-ms", "50",
		"--upgradeable-program", program.String(), "hello.so", authority.String(), "--account", mint.String(), "mint.json")

	wallet := core.KeypairFromSeed([32]byte{0x45})
	local := startArgs(t, bin, dir, "--ledger", "local", "--rpc-port", "0", "--slot-ms", "50", "--mint", wallet.PublicKey().String(),
		"--url", cluster.rpcURL, "--clone-upgradeable-program", program.String(), "-c", mint.String(),
		"--maybe-clone", missing.String())
	if logs := invoke(t, local.rpcURL, wallet, program); !slices.Contains(logs, "Program log: hello") {
		t.Errorf("cloned program logs %q", logs)
	}
	for _, k := range []core.Pubkey{program, mint} {
		want, got := getAccount(t, cluster.rpcURL, k), getAccount(t, local.rpcURL, k)
		if got.Value == nil || want.Value == nil || *got.Value != *want.Value {
			t.Errorf("%s: cloned %+v, cluster %+v", k, got.Value, want.Value)
		}
	}
	if a := getAccount(t, local.rpcURL, missing); a.Value != nil {
		t.Errorf("missing account appeared: %+v", a.Value)
	}

	for _, c := range []struct {
		url, want string
	}{
		{cluster.rpcURL, missing.String() + ": the account does not exist"},
		{"http://127.0.0.1:1", "after 3 attempts"},
	} {
		cmd := exec.Command(bin, "--ledger", filepath.Join(dir, "refused"), "--rpc-port", "0", "--url", c.url, "--clone", missing.String())
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), c.want) {
			t.Errorf("--clone from %s: %v, output:\n%s", c.url, err, out)
		}
	}
}

// parseTV parses args as run does, up to the test validator's flags.
func parseTV(t *testing.T, args ...string) (*testValidatorFlags, *node.Config, map[string]bool, [][2]string) {
	t.Helper()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	var cfg node.Config
	fs.StringVar(&cfg.LedgerDir, "ledger", "test-ledger", "")
	fs.BoolVar(&cfg.Reset, "reset", false, "")
	fs.Uint64("slots-per-epoch", 0, "")
	fs.Float64("faucet-sol", 0, "")
	var tv testValidatorFlags
	tv.register(fs)
	args, err := normalizeArgs(fs, args)
	if err != nil {
		t.Fatal(err)
	}
	args, accounts, err := takeAccountFlags(args)
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return &tv, &cfg, givenFlags(fs), accounts
}

// What the test validator's flags become, and what they refuse.
func TestTestValidatorApply(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wallet := core.KeypairFromSeed([32]byte{0x51})
	walletFile := filepath.Join(dir, "id.json")
	core.WriteKeypairFile(walletFile, wallet)
	config := filepath.Join(dir, "config.yml")
	os.WriteFile(config, []byte("---\njson_rpc_url: http://localhost:8899\nkeypair_path: "+walletFile+"\ncommitment: confirmed\n"), 0o644)
	ctx := context.Background()

	// The default mint is the CLI configuration's keypair; every ignored flag is noted once.
	args := []string{"-l", filepath.Join(dir, "new"), "-C", config, "--ticks-per-slot", "8"}
	for _, f := range ignoredFlags {
		if f.isBool {
			args = append(args, "--"+f.name)
		} else {
			args = append(args, "--"+f.name, core.Pubkey{1}.String())
		}
	}
	tv, cfg, given, accounts := parseTV(t, args...)
	s, err := tv.apply(ctx, cfg, given, accounts, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.accounts) != 1 || s.accounts[0].Pubkey != wallet.PublicKey() || s.accounts[0].Lamports != MintLamports {
		t.Errorf("mint from the CLI configuration: %+v", s.accounts)
	}
	if cfg.SlotDuration != 50*time.Millisecond {
		t.Errorf("--ticks-per-slot 8: slots of %s", cfg.SlotDuration)
	}
	if len(s.notes) != len(ignoredFlags)+1 {
		t.Errorf("%d notes for %d ignored flags and --ticks-per-slot: %q", len(s.notes), len(ignoredFlags), s.notes)
	}
	for i, f := range ignoredFlags {
		if !strings.HasPrefix(s.notes[i], "--"+f.name+" accepted and ignored: ") {
			t.Errorf("note %d: %q", i, s.notes[i])
		}
	}

	// On an existing ledger the genesis flags are said to be ignored and nothing is read or fetched.
	existing := filepath.Join(dir, "existing")
	os.MkdirAll(existing, 0o755)
	os.WriteFile(filepath.Join(existing, "genesis.json"), []byte("{}"), 0o644)
	tv, cfg, given, accounts = parseTV(t, "--ledger", existing, "--mint", wallet.PublicKey().String(), "--account", "-",
		"missing.json", "--url", "http://127.0.0.1:1", "--clone", core.Pubkey{2}.String(), "--warp-slot", "5")
	if s, err = tv.apply(ctx, cfg, given, accounts, false); err != nil {
		t.Fatal(err)
	}
	if want := []string{"--clone argument ignored, ledger already exists", "--account argument ignored, ledger already exists",
		"--mint argument ignored, ledger already exists", "--warp-slot argument ignored, ledger already exists"}; !slices.Equal(s.stdout, want) ||
		len(s.accounts)+len(s.clones) != 0 || cfg.WarpSlot != 0 {
		t.Errorf("existing ledger: %q %d %d", s.stdout, len(s.accounts)+len(s.clones), cfg.WarpSlot)
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-q", "--log"}, "cannot be used together"},
		{[]string{"--account-index", "owner"}, "--account-index"},
		{[]string{"--deactivate-feature", "nope"}, "--deactivate-feature"},
		{[]string{"--mint", "nope"}, "--mint"},
		{[]string{"--ticks-per-slot", "1"}, "at least 2"},
		{[]string{"--url", "ftp://x"}, "--url"},
		{[]string{"--warp-slot"}, "--url argument must be provided"},
		{[]string{"--warp-slot", "x1"}, "not a slot"},
		{[]string{"--clone", core.Pubkey{3}.String()}, "need --url"},
		{[]string{"--account-dir", filepath.Join(dir, "nowhere")}, "--account-dir"},
		{[]string{"--account", "-", walletFile}, "names no pubkey"},
	} {
		tv, cfg, given, accounts := parseTV(t, append([]string{"--ledger", filepath.Join(dir, "bad")}, c.args...)...)
		if _, err := tv.apply(ctx, cfg, given, accounts, false); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.args, err, c.want)
		}
	}
	if u, err := urlOrMoniker("d"); err != nil || u != "https://api.devnet.solana.com" {
		t.Errorf("-u d: %q %v", u, err)
	}
}

// Any command line is refused or normalized without a panic, and a normalized one normalizes to itself.
func FuzzNormalizeArgs(f *testing.F) {
	for _, s := range []string{"-rq -ldir -u=d", "--clone A B -c C", "--warp-slot --reset", "--account - f.json",
		"--bpf-program=A a.so", "-w", "--limit-ledger-size", "-ledger x -- --y", "--=", "-", "-=", "--max-compute-units=1"} {
		f.Add(s)
	}
	fs := flag.NewFlagSet("f", flag.ContinueOnError)
	var tv testValidatorFlags
	tv.register(fs)
	var hist historyFlags
	hist.register(fs)
	fs.String("ledger", "", "")
	fs.Bool("reset", false, "")
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		out, err := normalizeArgs(fs, args)
		if err != nil {
			return
		}
		again, err := normalizeArgs(fs, out)
		if err != nil || !slices.Equal(again, out) {
			t.Fatalf("%q normalized to %q, then to %q (%v)", args, out, again, err)
		}
	})
}
