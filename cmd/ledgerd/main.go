// Command ledgerd runs a single-node ledger of the Solana protocol with its JSON-RPC HTTP and WebSocket endpoints.
// Its flags are named as users of the reference test validator know them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/health"
	"ledgerd/impl/ledger"
	"ledgerd/impl/node"
	"ledgerd/impl/rpc"
	"ledgerd/impl/snapshot"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "ledgerd:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("ledgerd", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg node.Config
	fs.StringVar(&cfg.LedgerDir, "ledger", "test-ledger", "ledger directory (created when absent)")
	fs.BoolVar(&cfg.Reset, "reset", false, "start a new chain, deleting the ledger directory first")
	fs.IntVar(&cfg.RPCPort, "rpc-port", 8899, "JSON-RPC HTTP port")
	fs.IntVar(&cfg.WSPort, "ws-port", 0, "WebSocket (PubSub) port (default rpc-port + 1)")
	fs.StringVar(&cfg.BindAddress, "bind-address", "127.0.0.1", "address to serve on")
	fs.IntVar(&cfg.GossipPort, "gossip-port", 0, "UDP port held as the gossip address getClusterNodes lists (default any free port)")
	fs.Int64Var(&cfg.MaxBodyBytes, "rpc-max-request-body-size", 51200, "largest JSON-RPC request body in bytes")
	rpcLimitFlags(fs, &cfg.RPCLimits)
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	fs.DurationVar(&cfg.SlotDuration, "slot-duration", 400*time.Millisecond, "time between slots")
	slotMs := fs.Int("slot-ms", 0, "time between slots in milliseconds (overrides --slot-duration)")
	depth := fs.Uint64("finality-depth", 32, "how many slots finalized (rooted) trails confirmed")
	faucetSOL := fs.Float64("faucet-sol", 1_000_000, "SOL the faucet holds at genesis, fractions allowed as the test validator takes them (new ledgers only)")
	airdropCapSOL := fs.Uint64("airdrop-cap-sol", 10_000, "largest requestAirdrop, in SOL")
	faucetPerTimeSOL := fs.Uint64("faucet-per-time-sol-cap", 0, "most SOL one recipient may get from the faucet per --faucet-time-slice-secs; 0 (the default, as the test validator) is no cap")
	faucetSliceSecs := fs.Uint64("faucet-time-slice-secs", uint64(ledger.DefaultFaucetTimeSlice/time.Second), "period of --faucet-per-time-sol-cap, in seconds")
	fs.Uint64Var(&cfg.Genesis.SlotsPerEpoch, "slots-per-epoch", 432_000, "slots per epoch (new ledgers only; at least 32)")
	fs.BoolVar(&cfg.Genesis.Warmup, "warmup-epochs", false, "start with short epochs that double up to --slots-per-epoch (new ledgers only)")
	// On by default (the reference needs --rpc-pubsub-enable-*-subscription); =false turns one off (-32601).
	blockSubs := fs.Bool("rpc-pubsub-enable-block-subscription", true, "serve blockSubscribe (unstable)")
	voteSubs := fs.Bool("rpc-pubsub-enable-vote-subscription", true, "serve voteSubscribe (unstable)")
	slotsUpdatesSubs := fs.Bool("rpc-pubsub-enable-slots-updates-subscription", true, "serve slotsUpdatesSubscribe (unstable)")
	// Snapshots: --snapshot-interval-slots is the full interval here (the reference's flag of that name is the
	// incremental interval when incremental snapshots are on).
	fullSnapshots := fs.Uint64("snapshot-interval-slots", snapshot.DefaultFullInterval, "take a full snapshot every N rooted slots, under <ledger>/snapshots; 0 takes no snapshots")
	incrementalSnapshots := fs.Uint64("incremental-snapshot-interval-slots", 0, "take an incremental snapshot every N rooted slots between full ones; 0 (the default, as the test validator) takes none")
	fs.IntVar(&cfg.Snapshots.MaxFull, "maximum-full-snapshots-to-retain", snapshot.DefaultMaxFull, "how many full snapshots to keep")
	fs.IntVar(&cfg.Snapshots.MaxIncremental, "maximum-incremental-snapshots-to-retain", snapshot.DefaultMaxIncremental, "how many incremental snapshots of the newest full snapshot to keep")
	followURL := fs.String("follow", "", "follow the leader at this JSON-RPC URL as a read replica: replay its blocks, serve reads and subscriptions, forward transactions (see README, Read replicas)")
	var accountSnapshots []string // surfpool's account snapshot files (surfnetsnapshot.go)
	fs.Func("snapshot", "DIR: start --ledger as a copy of this snapshot directory (or a ledgerd_dumpState dump), or of the newest in a directory of snapshots (an existing ledger needs --reset); FILE.json: start a new ledger with the accounts of surfpool's account snapshot (surfnet_exportSnapshot's value), repeatable",
		func(v string) error { return snapshotFlag(v, &cfg.FromSnapshot, &accountSnapshots) })
	fs.Var((*stringList)(&cfg.Health.KnownValidators), "known-validator", "PUBKEY: judge health against this validator's slot; repeatable")
	fs.Var((*stringList)(&cfg.Health.Peers), "peer", "URL: JSON-RPC address of another node, polled for its identity, version and slot; repeatable")
	fs.Uint64Var(&cfg.Health.SlotDistance, "health-check-slot-distance", health.DefaultSlotDistance, "slots the node may trail the highest known validator and still be healthy")
	fs.DurationVar(&cfg.Health.PollInterval, "health-check-poll-interval", health.DefaultPollInterval, "time between two polls of a --peer")
	fs.DurationVar(&cfg.Health.StaleAfter, "health-check-stale-after", health.DefaultStaleAfter, "how long a --peer's last answer counts once it stops answering (then health is unknown)")
	expectedGenesis := fs.String("expected-genesis-hash", "", "HASH: refuse to start unless the ledger's genesis hash is HASH (base58)")
	fs.BoolVar(&cfg.VerifyLedger, "verify-ledger", false, "before serving, read the whole ledger database and check every table's checksums; refuse to start on damage")
	metrics := fs.Bool("metrics", true, "serve GET /metrics (Prometheus text format) on the RPC port; =false does not")
	fs.BoolVar(&cfg.EnableCheats, "enable-cheats", false, "serve the cheat methods (surfnet_*, ledgerd_*) on a --bind-address other than loopback too")
	fs.Func("block-production-mode", "when slots end: clock (every --slot-duration, the default), transaction (one slot per transaction) or manual (ledgerd_advanceSlots)",
		func(v string) (err error) { cfg.BlockProduction, err = ledger.ParseBlockProduction(v); return err })
	fs.String("account", "", "ADDRESS FILE.json: start a new ledger with the account in FILE (the JSON of `solana account --output json`) at ADDRESS; repeatable")
	fs.String("bpf-program", "", "ADDRESS_OR_KEYPAIR FILE.so: start a new ledger with the program FILE at ADDRESS, under the upgradeable loader, not upgradeable; repeatable")
	fs.String("upgradeable-program", "", "ADDRESS_OR_KEYPAIR FILE.so UPGRADE_AUTHORITY|none: start a new ledger with the upgradeable program FILE at ADDRESS; repeatable")
	var tv testValidatorFlags
	tv.register(fs)
	var hist historyFlags
	hist.register(fs)
	args, err := normalizeArgs(fs, args)
	if err != nil {
		return err
	}
	args, accounts, err := takeAccountFlags(args)
	if err != nil {
		return err
	}
	args, programFlags, err := takeProgramFlags(args)
	if err != nil {
		return err
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil // --help printed the flags: a success, as the reference's
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q (every setting is a --flag; see --help)", fs.Arg(0))
	}
	if tv.version {
		fmt.Fprintf(stdout, "%s %s (ledgerd; client:Agave)\n", filepath.Base(os.Args[0]), rpc.Version)
		return nil
	}
	given := givenFlags(fs)
	if err := hist.apply(&cfg, given); err != nil {
		return err
	}
	for _, p := range programFlags { // taken from the arguments before parsing
		given[strings.TrimLeft(p.name, "-")] = true
	}
	if *expectedGenesis != "" {
		h, err := ledger.ParseGenesisHash(*expectedGenesis)
		if err != nil {
			return fmt.Errorf("--expected-genesis-hash: %w", err)
		}
		cfg.ExpectedGenesisHash = &h
	}
	if *slotMs > 0 {
		cfg.SlotDuration = time.Duration(*slotMs) * time.Millisecond
	}
	cfg.FinalityDepth, cfg.FinalityDepthZero = *depth, *depth == 0
	if !(*faucetSOL > 0) || *faucetSOL > 1e10 {
		return fmt.Errorf("--faucet-sol %v: must be a positive number of SOL, at most 10,000,000,000", *faucetSOL)
	}
	cfg.Genesis.FaucetLamports = uint64(math.Round(*faucetSOL * ledger.LamportsPerSOL))
	cfg.AirdropCap = *airdropCapSOL * ledger.LamportsPerSOL
	cfg.AirdropPerTimeCap = *faucetPerTimeSOL * ledger.LamportsPerSOL
	if *faucetSliceSecs == 0 {
		return fmt.Errorf("--faucet-time-slice-secs must be at least 1")
	}
	cfg.AirdropTimeSlice = time.Duration(*faucetSliceSecs) * time.Second
	cfg.NoSnapshots, cfg.Snapshots.FullInterval = *fullSnapshots == 0, *fullSnapshots
	cfg.Snapshots.NoIncremental, cfg.Snapshots.IncrementalInterval = *incrementalSnapshots == 0, *incrementalSnapshots
	cfg.PubSub.DisableBlock, cfg.PubSub.DisableVote, cfg.PubSub.DisableSlotsUpdates = !*blockSubs, !*voteSubs, !*slotsUpdatesSubs
	cfg.NoMetrics = !*metrics
	if *followURL != "" {
		cfg.Follow = &node.FollowOptions{URL: *followURL}
	}
	// The test validator's flags: the mint, account files, clones, the warp slot, and the notes on the flags
	// that have no meaning here.
	setup, err := tv.apply(context.Background(), &cfg, given, accounts, given["slot-ms"] || given["slot-duration"])
	if err != nil {
		return err
	}
	for _, note := range setup.notes {
		fmt.Fprintln(stderr, "ledgerd: note:", note)
	}
	if !tv.quiet {
		for _, line := range setup.stdout {
			fmt.Fprintln(stdout, line)
		}
	}
	// In the reference's order, a later one winning at the same address: the mint and the account files, the
	// clones, then the programs.
	snapshotAccounts, err := loadAccountSnapshots(accountSnapshots, stderr)
	if err != nil {
		return err
	}
	cfg.Genesis.Accounts = append(append(append(cfg.Genesis.Accounts, snapshotAccounts...), setup.accounts...), setup.clones...)
	programAccounts, err := genesisPrograms(programFlags, sysvar.DefaultRent())
	if err != nil {
		return err
	}
	cfg.Genesis.Accounts = append(cfg.Genesis.Accounts, programAccounts...)
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fmt.Errorf("--log-level: %w", err)
	}
	if tv.quiet && !given["log-level"] {
		level = max(level, slog.LevelWarn)
	}
	cfg.Logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	// As the test validator, the node's log is also <ledger>/validator.log, where harnesses read its start-up lines.
	cfg.ValidatorLog = true

	// Listen for signals before announcing the URLs, so a signal sent as soon as they appear is not missed.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	n, err := node.Start(cfg)
	if err != nil {
		return err
	}
	if !tv.quiet {
		fmt.Fprintf(stdout, "Ledger location: %s\nIdentity: %s\nGenesis Hash: %s\nJSON RPC URL: %s\nWebSocket PubSub URL: %s\n",
			n.Genesis.Dir, n.Genesis.IdentityPubkey(), n.Genesis.HashString(), n.HTTPURL, n.WSURL)
	}
	// With --rpc-port 0 the ports are the system's choice: the one line a script reads says which, even --quiet.
	if !tv.quiet || cfg.RPCPort <= 0 {
		readyLine(stdout, n)
	}

	select {
	case s := <-sig:
		cfg.Logger.Info("shutting down", "signal", s.String())
	case err := <-n.Done():
		if err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return n.Close(ctx)
}

// takeAccountFlags removes every --account ADDRESS FILE (two values, as the reference test validator takes
// them, which the flag package cannot express) from args.
func takeAccountFlags(args []string) (rest []string, pairs [][2]string, err error) {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--account", "-account":
			if i+2 >= len(args) {
				return nil, nil, fmt.Errorf("%s needs ADDRESS and FILE.json", args[i])
			}
			pairs = append(pairs, [2]string{args[i+1], args[i+2]})
			i += 2
		case "--":
			return append(rest, args[i:]...), pairs, nil
		default:
			rest = append(rest, args[i])
		}
	}
	return rest, pairs, nil
}
