package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/node"
	"ledgerd/impl/runtime"
)

// The command line of the reference test validator (solana-test-validator), which tools such as
// `anchor test --validator legacy` build: its flags that ledgerd had not under its own names, its short options and
// its clap-style values, so that those tools start ledgerd unmodified.

// MintLamports is what the --mint address holds at genesis (the test validator's 500,000,000 SOL).
const MintLamports = 500_000_000 * ledger.LamportsPerSOL

// Ticks per second of the reference's clock: --ticks-per-slot N makes slots N/160 s long.
const ticksPerSecond = 160

// testValidatorFlags are the values of the test validator's flags.
type testValidatorFlags struct {
	mint, url, config, warpSlot, limitLedgerSize, faucetPerRequestSOL string
	clone, maybeClone, cloneUpgradeable, deepCloneALT                 stringList
	accountDirs, accountIndexes, deactivate, geyser                   stringList
	ticksPerSlot                                                      uint64
	quiet, log, version                                               bool
	fork                                                              forkFlags
}

// shortFlags are the test validator's one-letter options.
var shortFlags = map[byte]string{'u': "url", 'l': "ledger", 'r': "reset", 'q': "quiet", 'c': "clone", 'w': "warp-slot",
	'C': "config", 'V': "version", 'h': "help"}

// aliasFlags are other names the test validator takes for a flag.
var aliasFlags = map[string]string{"accountsdb-plugin-config": "geyser-plugin-config", "max-compute-units": "compute-unit-limit"}

// multiValueFlags take several values after one occurrence (clap's multiple(true)): `--clone A B` is
// `--clone A --clone B`.
var multiValueFlags = map[string]bool{"clone": true, "maybe-clone": true, "clone-upgradeable-program": true,
	"deep-clone-address-lookup-table": true, "deactivate-feature": true, "geyser-plugin-config": true,
	"account-dir": true, "account-index": true}

// optionalValueFlags may come without their value (clap's min_values(0)).
var optionalValueFlags = map[string]bool{"warp-slot": true, "limit-ledger-size": true, "faucet-per-request-sol-cap": true}

// fixedArityFlags take several values each time, as separate arguments.
var fixedArityFlags = map[string]int{"account": 2, "bpf-program": 2, "upgradeable-program": 3}

// ignoredFlag is a test validator flag that has no meaning in ledgerd: accepted, and noted on stderr.
type ignoredFlag struct {
	name   string
	isBool bool
	why    string
}

var ignoredFlags = []ignoredFlag{
	{name: "faucet-port", why: "airdrops are served by requestAirdrop; ledgerd runs no separate faucet service"},
	{name: "rpc-faucet-address", why: "airdrops are served by requestAirdrop from the node's own faucet keypair"},
	{name: "dynamic-port-range", why: "ledgerd takes its UDP service ports from the system's free ports"},
	{name: "gossip-host", why: "ledgerd runs no gossip; --bind-address sets the address it serves and advertises"},
	{name: "deactivate-feature", why: "ledgerd runs one fixed feature set (getVersion's feature-set)"},
	{name: "clone-feature-set", isBool: true, why: "ledgerd runs one fixed feature set (getVersion's feature-set)"},
	{name: "geyser-plugin-config", why: "ledgerd loads no Geyser plugins; account and slot updates are on its WebSocket subscriptions"},
	{name: "compute-unit-limit", why: "transactions get the protocol's compute budget (1,400,000 units at most)"},
	{name: "log-messages-bytes-limit", why: "program logs are truncated at the protocol's 10,000 bytes"},
	{name: "transaction-account-lock-limit", why: "transactions may lock the protocol's 64 accounts"},
}

// genesisOnlyFlags configure a new chain; on an existing ledger the test validator says it ignores them.
var genesisOnlyFlags = []string{"bpf-program", "upgradeable-program", "clone", "maybe-clone", "clone-upgradeable-program",
	"deep-clone-address-lookup-table", "account", "account-dir", "mint", "ticks-per-slot", "slots-per-epoch",
	"faucet-sol", "deactivate-feature", "warp-slot"}

// register adds the test validator's flags to fs.
func (t *testValidatorFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&t.mint, "mint", "", "PUBKEY: the mint account, which holds 500,000,000 SOL at genesis (new ledgers only; default the Solana CLI's keypair, as the test validator)")
	fs.StringVar(&t.url, "url", "", "URL or moniker (mainnet-beta, testnet, devnet, localhost, or their first letter) of the cluster --clone* copy from; -u")
	fs.StringVar(&t.config, "config", "", "PATH: the Solana CLI configuration whose keypair is the default --mint; -C")
	fs.Var(&t.clone, "clone", "ADDRESS: copy this account from the --url cluster at genesis (it must exist); repeatable; -c")
	fs.Var(&t.maybeClone, "maybe-clone", "ADDRESS: copy this account from the --url cluster at genesis if it exists; repeatable")
	fs.Var(&t.cloneUpgradeable, "clone-upgradeable-program", "ADDRESS: copy this upgradeable program and its program data from the --url cluster at genesis; repeatable")
	fs.Var(&t.deepCloneALT, "deep-clone-address-lookup-table", "ADDRESS: copy this address lookup table and the accounts it lists from the --url cluster at genesis; repeatable")
	fs.Var(&t.accountDirs, "account-dir", "DIR: start a new ledger with every account of the *.json files in DIR (as --account - FILE); repeatable")
	fs.Var(&t.accountIndexes, "account-index", "program-id, spl-token-owner or spl-token-mint (ledgerd keeps every index); repeatable")
	fs.StringVar(&t.warpSlot, "warp-slot", "", "SLOT: start a new chain at SLOT (without a value: the --url cluster's slot); -w")
	fs.Uint64Var(&t.ticksPerSlot, "ticks-per-slot", 0, "TICKS: slots last TICKS/160 s, as the reference's (unless --slot-ms or --slot-duration is given)")
	fs.StringVar(&t.faucetPerRequestSOL, "faucet-per-request-sol-cap", "", "SOL: largest requestAirdrop (as --airdrop-cap-sol)")
	fs.BoolVar(&t.quiet, "quiet", false, "print nothing on stdout and only warnings and errors on stderr (the log still goes to <ledger>/validator.log); -q")
	fs.BoolVar(&t.log, "log", false, "stream the log on stderr (what ledgerd does anyway)")
	fs.BoolVar(&t.version, "version", false, "print the version and exit; -V")
	t.fork.register(fs)
	lists := map[string]*stringList{"deactivate-feature": &t.deactivate, "geyser-plugin-config": &t.geyser}
	for _, f := range ignoredFlags {
		usage := "accepted and ignored: " + f.why
		switch {
		case f.isBool:
			fs.Bool(f.name, false, usage)
		case lists[f.name] != nil:
			fs.Var(lists[f.name], f.name, usage)
		default:
			fs.String(f.name, "", usage)
		}
	}
}

// normalizeArgs rewrites the test validator's argument forms into ones the flag package reads: short options (and
// clusters of them, `-rq`, and attached values, `-ud`) become long ones, aliases their flag, several values after a
// multi-value flag one occurrence each, and an optional value that is absent becomes `--flag=`. Values of
// value-taking flags are bound here, so a value that starts with '-' is not taken for a flag.
func normalizeArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	isBool := func(name string) bool {
		f := fs.Lookup(name)
		if f == nil {
			return false
		}
		b, ok := f.Value.(interface{ IsBoolFlag() bool })
		return ok && b.IsBoolFlag()
	}
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...), nil
		}
		if len(a) < 2 || a[0] != '-' {
			out = append(out, a) // not a flag: refused after parsing
			continue
		}
		var name, value string
		var inline bool
		if body, ok := strings.CutPrefix(a, "--"); ok {
			name, value, inline = strings.Cut(body, "=")
		} else if n, v, in := strings.Cut(a[1:], "="); fs.Lookup(n) != nil || aliasFlags[n] != "" {
			name, value, inline = n, v, in // a long flag with one dash, as the flag package allows
		} else {
			// A cluster of short options: boolean ones, perhaps ended by one that takes a value (attached or next).
			s := a[1:]
			name = ""
			for j := 0; j < len(s); j++ {
				long, ok := shortFlags[s[j]]
				if !ok {
					return nil, fmt.Errorf("unknown option -%c in %q", s[j], a)
				}
				if long == "help" || isBool(long) {
					out = append(out, "--"+long)
					continue
				}
				name = long
				if rest := strings.TrimPrefix(s[j+1:], "="); rest != "" {
					value, inline = rest, true
				}
				break
			}
			if name == "" {
				continue
			}
		}
		if alias := aliasFlags[name]; alias != "" {
			name = alias
		}
		if n, ok := fixedArityFlags[name]; ok {
			out = append(out, "--"+name)
			if inline {
				out = append(out, value)
				n--
			}
			for ; n > 0 && i+1 < len(args); n-- {
				i++
				out = append(out, args[i])
			}
			continue
		}
		if inline || isBool(name) || name == "help" || fs.Lookup(name) == nil {
			out = append(out, "--"+joinValue(name, value, inline))
		} else if optionalValueFlags[name] {
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				value = args[i]
			}
			out = append(out, "--"+name+"="+value)
		} else if i+1 < len(args) {
			i++
			out = append(out, "--"+name+"="+args[i])
		} else {
			out = append(out, "--"+name) // the flag package reports the missing value
		}
		if multiValueFlags[name] {
			for i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				out = append(out, "--"+name+"="+args[i])
			}
		}
	}
	return out, nil
}

func joinValue(name, value string, inline bool) string {
	if inline {
		return name + "=" + value
	}
	return name
}

// urlOrMoniker resolves the test validator's --url: a URL, or a cluster's name or its first letter.
func urlOrMoniker(s string) (string, error) {
	switch s {
	case "m", "mainnet-beta":
		return "https://api.mainnet-beta.solana.com", nil
	case "t", "testnet":
		return "https://api.testnet.solana.com", nil
	case "d", "devnet":
		return "https://api.devnet.solana.com", nil
	case "l", "localhost":
		return "http://localhost:8899", nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--url %q: not an http(s) URL nor one of mainnet-beta, testnet, devnet, localhost (or m, t, d, l)", s)
	}
	return s, nil
}

// testValidatorSetup is what the test validator's flags add to a node's configuration.
type testValidatorSetup struct {
	accounts []ledger.GenesisAccount // mint and account files, before the clones and programs
	clones   []ledger.GenesisAccount
	notes    []string // one line each, for stderr
	stdout   []string // lines the test validator prints on stdout
}

// apply checks the test validator's flags and turns them into configuration. given is the set of flags on the
// command line; accountPairs are the --account ADDRESS FILE pairs (ADDRESS "-" takes the file's own address).
func (t *testValidatorFlags) apply(ctx context.Context, cfg *node.Config, given map[string]bool,
	accountPairs [][2]string, slotTimeGiven bool) (*testValidatorSetup, error) {
	s := &testValidatorSetup{}
	if len(accountPairs) > 0 {
		given["account"] = true // taken from the arguments before parsing
	}
	if t.quiet && t.log {
		return nil, errors.New("--quiet and --log cannot be used together")
	}
	for _, v := range t.accountIndexes {
		if v != "program-id" && v != "spl-token-owner" && v != "spl-token-mint" {
			return nil, fmt.Errorf("--account-index %q: one of program-id, spl-token-owner, spl-token-mint", v)
		}
	}
	for _, v := range ignoredFlagValues(given, "deactivate-feature", t.deactivate) {
		if _, err := core.ParsePubkey(v); err != nil {
			return nil, fmt.Errorf("--deactivate-feature %q: %w", v, err)
		}
	}
	for _, f := range ignoredFlags {
		if given[f.name] {
			s.notes = append(s.notes, fmt.Sprintf("--%s accepted and ignored: %s", f.name, f.why))
		}
	}
	if t.url != "" {
		u, err := urlOrMoniker(t.url)
		if err != nil {
			return nil, err
		}
		t.url = u
	}
	if err := t.fork.apply(cfg); err != nil {
		return nil, err
	}
	if t.ticksPerSlot != 0 {
		if t.ticksPerSlot < 2 {
			return nil, fmt.Errorf("--ticks-per-slot %d: must be at least 2", t.ticksPerSlot)
		}
		if !slotTimeGiven {
			cfg.SlotDuration = time.Duration(t.ticksPerSlot) * time.Second / ticksPerSecond
		}
		s.notes = append(s.notes, fmt.Sprintf("--ticks-per-slot %d: slots last %s (ledgerd produces no ticks)",
			t.ticksPerSlot, cfg.SlotDuration))
	}
	if t.faucetPerRequestSOL != "" {
		sol, err := strconv.ParseFloat(t.faucetPerRequestSOL, 64)
		if err != nil || sol < 0 {
			return nil, fmt.Errorf("--faucet-per-request-sol-cap %q: not a number of SOL", t.faucetPerRequestSOL)
		}
		cfg.AirdropCap = uint64(sol * ledger.LamportsPerSOL)
	}

	if ledgerExists(cfg.LedgerDir) && !cfg.Reset {
		// As the test validator: genesis settings cannot change an existing chain.
		for _, f := range genesisOnlyFlags {
			if given[f] {
				s.stdout = append(s.stdout, fmt.Sprintf("--%s argument ignored, ledger already exists", f))
			}
		}
		return s, nil
	}

	mint, err := t.mintAddress(given["mint"])
	if err != nil {
		return nil, err
	}
	if mint != nil {
		s.accounts = append(s.accounts, ledger.GenesisAccount{Pubkey: *mint, Lamports: MintLamports,
			Owner: core.SystemProgramID, RentEpoch: runtime.RentExemptRentEpoch})
	} else {
		s.stdout = append(s.stdout, "Notice! No wallet available. `solana airdrop` localnet SOL after creating one")
	}
	for _, p := range accountPairs {
		a, err := loadAccount(p[0], p[1])
		if err != nil {
			return nil, err
		}
		s.accounts = append(s.accounts, a)
	}
	for _, dir := range t.accountDirs {
		accounts, err := loadAccountDir(dir)
		if err != nil {
			return nil, err
		}
		s.accounts = append(s.accounts, accounts...)
	}
	if t.warpSlot != "" || given["warp-slot"] {
		slot, err := t.warp(ctx)
		if err != nil {
			return nil, err
		}
		cfg.WarpSlot = slot
	}
	if len(t.clone)+len(t.maybeClone)+len(t.cloneUpgradeable)+len(t.deepCloneALT) > 0 {
		if t.url == "" {
			return nil, errors.New("--clone, --maybe-clone, --clone-upgradeable-program and --deep-clone-address-lookup-table need --url, the cluster to copy from")
		}
		o := node.CloneOptions{URL: t.url}
		for _, l := range []struct {
			flag string
			in   stringList
			out  *[]core.Pubkey
		}{{"--clone", t.clone, &o.Clone}, {"--maybe-clone", t.maybeClone, &o.MaybeClone},
			{"--clone-upgradeable-program", t.cloneUpgradeable, &o.UpgradeablePrograms},
			{"--deep-clone-address-lookup-table", t.deepCloneALT, &o.LookupTables}} {
			for _, v := range l.in {
				k, err := addressOrKeypair(v)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", l.flag, err)
				}
				*l.out = append(*l.out, k)
			}
		}
		if s.clones, err = node.CloneAccounts(ctx, o); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// ignoredFlagValues are the values of a multi-value flag given on the command line.
func ignoredFlagValues(given map[string]bool, name string, values stringList) []string {
	if !given[name] {
		return nil
	}
	return values
}

// warp is the slot a new chain starts at: --warp-slot's value, or without one the --url cluster's slot.
func (t *testValidatorFlags) warp(ctx context.Context) (uint64, error) {
	if t.warpSlot != "" {
		slot, err := strconv.ParseUint(t.warpSlot, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("--warp-slot %q: not a slot", t.warpSlot)
		}
		return slot, nil
	}
	// A fork started at its cluster's slot numbers its slots as the cluster does.
	cluster := cmp.Or(t.url, t.fork.url)
	if cluster == "" {
		return 0, errors.New("the --url argument must be provided if --warp-slot/-w is used without an explicit slot")
	}
	slot, err := node.ClusterSlot(ctx, cluster)
	if err != nil {
		return 0, fmt.Errorf("--warp-slot: unable to get the current slot of %s: %w", cluster, err)
	}
	return slot, nil
}

// ledgerExists tells whether dir holds a chain (its genesis configuration).
func ledgerExists(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, ledger.GenesisFile))
	return err == nil
}

// mintAddress is --mint, or as the test validator the keypair of the Solana CLI's configuration (-C, or its
// default file), or nil when there is none.
func (t *testValidatorFlags) mintAddress(given bool) (*core.Pubkey, error) {
	if given {
		k, err := core.ParsePubkey(t.mint)
		if err != nil {
			return nil, fmt.Errorf("--mint %q: %w", t.mint, err)
		}
		return &k, nil
	}
	path := cliKeypairPath(t.config)
	if path == "" {
		return nil, nil
	}
	kp, err := core.ReadKeypairFile(path)
	if err != nil {
		return nil, nil // as the test validator: no wallet, no mint account to fund
	}
	k := kp.PublicKey()
	return &k, nil
}

// cliKeypairPath is the keypair_path of the Solana CLI configuration file (config, or
// ~/.config/solana/cli/config.yml), or the CLI's default ~/.config/solana/id.json.
func cliKeypairPath(config string) string {
	home, _ := os.UserHomeDir()
	if config == "" && home != "" {
		config = filepath.Join(home, ".config", "solana", "cli", "config.yml")
	}
	if f, err := os.Open(config); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "keypair_path:"); ok {
				if v = strings.Trim(strings.TrimSpace(v), `"'`); v != "" {
					return v
				}
			}
		}
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".config", "solana", "id.json")
}

// loadAccount reads an --account file, found as given or under tests/fixtures (as the test validator); the
// address "-" is the one the file names.
func loadAccount(address, file string) (ledger.GenesisAccount, error) {
	path := file
	if _, err := os.Stat(path); err != nil && !filepath.IsAbs(file) {
		if _, err2 := os.Stat(filepath.Join("tests", "fixtures", file)); err2 == nil {
			path = filepath.Join("tests", "fixtures", file)
		}
	}
	if address == "-" {
		raw, err := os.ReadFile(path)
		if err != nil {
			return ledger.GenesisAccount{}, fmt.Errorf("--account - %s: %w", file, err)
		}
		var f struct {
			Pubkey string `json:"pubkey"`
		}
		if err := json.Unmarshal(raw, &f); err != nil || f.Pubkey == "" {
			return ledger.GenesisAccount{}, fmt.Errorf("--account - %s: the file names no pubkey (%v)", file, err)
		}
		address = f.Pubkey
	}
	return ledger.LoadAccountFile(address, path)
}

// loadAccountDir reads every *.json file in dir as an account at the address it names.
func loadAccountDir(dir string) ([]ledger.GenesisAccount, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("--account-dir: %w", err)
	}
	var out []ledger.GenesisAccount
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) != ".json" {
			continue
		}
		a, err := loadAccount("-", filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("--account-dir %s: %w", dir, err)
		}
		out = append(out, a)
	}
	return out, nil
}

// givenFlags is the set of flags set on the command line.
func givenFlags(fs *flag.FlagSet) map[string]bool {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return given
}

// readyLine is the one line a script reads to learn where the node serves (with --rpc-port 0, the ports the
// system picked).
func readyLine(w io.Writer, n *node.Node) {
	fmt.Fprintf(w, "ledgerd ready rpc_url=%s ws_url=%s ledger=%s\n", n.HTTPURL, n.WSURL, n.Genesis.Dir)
}
