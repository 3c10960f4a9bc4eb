// Package follow makes a node a read replica of a leader (ledgerd --follow URL): it starts the leader's chain from
// the leader's genesis (or from a copy of the leader's ledger, --snapshot), replays the leader's confirmed blocks
// into its own ledger (impl/ledger's replica: every transaction executed again and its records checked byte for byte
// against the leader's), and serves every read and subscription itself. Transactions and airdrops sent to it are
// forwarded to the leader and the leader's answer returned; the developer's methods, which would change the chain
// without a transaction, are refused.
//
// The replication stream is two JSON-RPC methods of the leader over HTTP (schema/methods/replica.yaml):
// ledgerd_getGenesis once, then ledgerd_getBlockRecords from the follower's next slot, polled every PollInterval
// while the follower is caught up and asked again at once while it is behind. A leader that cannot be reached, or
// a stream that breaks, is retried with a growing pause (never a hang: every request has a deadline), logged once
// when it breaks and once when it resumes, and the follower resumes from its own newest slot, so no block is
// skipped. The follower stops for good, saying why, when it cannot follow exactly: a block it cannot reproduce
// (ledger.ErrDiverged), a leader whose chain no longer holds the follower's newest block, or one that used cheat
// writes (ErrCheats).
package follow

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// Defaults.
const (
	DefaultPollInterval = 50 * time.Millisecond
	DefaultTimeout      = 10 * time.Second
	// maxBackoff bounds the pause between two tries of a leader that does not answer.
	maxBackoff = 2 * time.Second
	// batchBlocks is how many blocks one ledgerd_getBlockRecords asks for (the leader also stops at 8 MiB).
	batchBlocks = 64
)

// IdentityFile is the follower's own identity keypair in its ledger directory (getIdentity). The chain's keys
// (the leader's identity, faucet, vote and stake accounts) are the leader's; a follower holds them as public keys.
const IdentityFile = "follower-keypair.json"

// ErrCheats stops a follower whose leader wrote accounts without a transaction (surfnet_setAccount and the
// like, or a lazy fork's accounts fetched from its cluster): those writes are not in the blocks, so no replay can
// reproduce them.
var ErrCheats = errors.New("the leader wrote accounts without a transaction (developer methods such as " +
	"surfnet_setAccount, or a lazy fork's fetched accounts); those writes are not in its blocks, so a follower " +
	"cannot replay past them")

// Config configures a follower.
type Config struct {
	// Leader is the leader's JSON-RPC HTTP URL.
	Leader string
	// Dir is the follower's ledger directory.
	Dir string
	// PollInterval is the pause between two polls while the follower is caught up (default 50 ms).
	PollInterval time.Duration
	// Timeout bounds one request to the leader (default 10 s).
	Timeout    time.Duration
	HTTPClient *http.Client
	Logger     *slog.Logger
}

// Start is what the follower's ledger opens with: the leader's finality depth and the slot of its genesis block.
type Start struct {
	GenesisHash   string
	Identity      string // the leader's identity (base58), its known validator
	FinalityDepth uint64
	GenesisSlot   uint64
}

// Follower follows one leader. Prepare makes it; Run starts its replay.
type Follower struct {
	cfg    Config
	log    *slog.Logger
	client *rpcclient.Client
	start  Start
	self   core.Keypair

	l      *ledger.Ledger
	cancel context.CancelFunc
	done   chan struct{}

	leaderConfirmed atomic.Uint64
	heard           atomic.Bool

	mu     sync.Mutex
	fatal  error // why the follower stopped for good
	stream error // the stream's current failure, nil while it flows
}

// Prepare reads the leader's genesis and readies the ledger directory for it: a new directory gets the leader's
// genesis.json, one that has a ledger (a restart, or a copy of the leader's ledger) must hold the same chain.
func Prepare(ctx context.Context, cfg Config) (*Follower, error) {
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: cfg.Timeout}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	f := &Follower{cfg: cfg, log: cfg.Logger, client: rpcclient.New(cfg.Leader), done: make(chan struct{})}
	f.client.HTTP = cfg.HTTPClient
	var g rpcapi.GenesisRecord
	rctx, cancel := context.WithTimeout(ctx, cfg.Timeout)
	defer cancel()
	if callErr := f.client.Call(rctx, rpcapi.MethodLedgerdGetGenesis, nil, &g); callErr != nil {
		// A follower that already holds the chain starts without its leader, serves what it holds, and follows
		// once the leader answers; a new one cannot.
		if f.resume() == nil {
			f.log.Warn("follower: the leader does not answer; serving this ledger until it does", "leader", cfg.Leader,
				"err", callErr)
			return f, nil
		}
		return nil, fmt.Errorf("following %s: ledgerd_getGenesis: %w", cfg.Leader, callErr)
	}
	config, err := base64.StdEncoding.DecodeString(g.Config)
	if err != nil {
		return nil, fmt.Errorf("following %s: the genesis does not decode: %w", cfg.Leader, err)
	}
	if h := core.Hash(sha256.Sum256(config)); h.String() != g.GenesisHash {
		return nil, fmt.Errorf("following %s: its genesis.json hashes to %s, not its genesis hash %s", cfg.Leader, h, g.GenesisHash)
	}
	var gc ledger.GenesisConfig
	if err := json.Unmarshal(config, &gc); err != nil {
		return nil, fmt.Errorf("following %s: its genesis.json: %w", cfg.Leader, err)
	}
	_, statErr := os.Stat(filepath.Join(cfg.Dir, "accounts"))
	fresh := errors.Is(statErr, os.ErrNotExist)
	if fresh && g.GenesisSlot == nil {
		return nil, fmt.Errorf("following %s: the leader no longer holds its genesis block, so a follower cannot start "+
			"from genesis: start it from a snapshot of the leader's ledger (--snapshot)", cfg.Leader)
	}
	if err := ledger.WriteReplicaGenesis(cfg.Dir, config); err != nil {
		return nil, fmt.Errorf("following %s: %w", cfg.Leader, err)
	}
	if f.self, err = loadOrCreateIdentity(filepath.Join(cfg.Dir, IdentityFile)); err != nil {
		return nil, err
	}
	f.start = Start{GenesisHash: g.GenesisHash, Identity: gc.Identity, FinalityDepth: g.FinalityDepth}
	if g.GenesisSlot != nil {
		f.start.GenesisSlot = *g.GenesisSlot
	}
	state, _ := json.Marshal(f.start)
	if err := os.WriteFile(filepath.Join(cfg.Dir, StateFile), state, 0o644); err != nil {
		return nil, err
	}
	return f, nil
}

// StateFile keeps, in a follower's ledger directory, what it last read of its leader's genesis (Start), so that it
// restarts while its leader is away.
const StateFile = "follower.json"

// resume readies a follower from its own directory: a ledger, the leader's genesis and the state file.
func (f *Follower) resume() error {
	if _, err := os.Stat(filepath.Join(f.cfg.Dir, "accounts")); err != nil {
		return err
	}
	raw, err := os.ReadFile(filepath.Join(f.cfg.Dir, StateFile))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &f.start); err != nil {
		return err
	}
	f.self, err = loadOrCreateIdentity(filepath.Join(f.cfg.Dir, IdentityFile))
	return err
}

func loadOrCreateIdentity(path string) (core.Keypair, error) {
	k, err := core.ReadKeypairFile(path)
	if !errors.Is(err, os.ErrNotExist) {
		return k, err
	}
	if k, err = core.NewKeypair(); err != nil {
		return k, err
	}
	return k, core.WriteKeypairFile(path, k)
}

// Start returns what the follower's ledger must be opened with.
func (f *Follower) Start() Start { return f.start }

// Identity is the follower's own identity (base58).
func (f *Follower) Identity() string { return f.self.PublicKey().String() }

// Leader is the leader's URL.
func (f *Follower) Leader() string { return f.cfg.Leader }

// Run starts replaying the leader's blocks into l, a replica ledger opened with Start's settings; log (nil: the
// Config's) is the node's log from then on, which may have grown a file since Prepare.
func (f *Follower) Run(l *ledger.Ledger, log *slog.Logger) {
	if log != nil {
		f.log = log
	}
	ctx, cancel := context.WithCancel(context.Background())
	f.l, f.cancel = l, cancel
	go f.run(ctx)
}

// Close stops the replay (a block being replayed finishes first).
func (f *Follower) Close() {
	if f.cancel == nil {
		return
	}
	f.cancel()
	<-f.done
}

// Fatal is why the follower stopped for good, nil while it follows.
func (f *Follower) Fatal() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fatal
}

// StreamError is the stream's current failure (the leader unreachable, an answer that does not decode), nil
// while blocks flow.
func (f *Follower) StreamError() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.stream
}

// Lag is the leader's confirmed slot, as last heard, minus the follower's; ok is false before the leader answered.
func (f *Follower) Lag() (lag uint64, ok bool) {
	if !f.heard.Load() || f.l == nil {
		return 0, false
	}
	_, mine, _ := f.l.Slots()
	if leader := f.leaderConfirmed.Load(); leader > mine {
		return leader - mine, true
	}
	return 0, true
}

// Fault is the node's health fault: the store's, or the follower's reason to have stopped.
func (f *Follower) Fault(storage func() error) func() error {
	return func() error {
		if err := storage(); err != nil {
			return err
		}
		return f.Fatal()
	}
}

func (f *Follower) stop(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fatal == nil {
		f.fatal = err
		f.log.Error("follower stopped: it serves no more reads until restarted", "leader", f.cfg.Leader, "err", err)
	}
}

// streamFailed records a failure of the stream, logged when the stream breaks (not at every retry).
func (f *Follower) streamFailed(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stream == nil {
		f.log.Warn("follower: the leader's block stream broke; retrying", "leader", f.cfg.Leader, "err", err)
	}
	f.stream = err
}

func (f *Follower) streamOK() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stream != nil {
		f.log.Info("follower: the leader's block stream resumed", "leader", f.cfg.Leader, "after", f.stream)
		f.stream = nil
	}
}

// run is the replay loop.
func (f *Follower) run(ctx context.Context) {
	defer close(f.done)
	backoff := time.Duration(0)
	pause := func(d time.Duration) bool {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
			return true
		}
	}
	retry := func(err error) bool {
		f.streamFailed(err)
		backoff = min(max(2*backoff, 100*time.Millisecond), maxBackoff)
		return pause(backoff)
	}
	checked := false
	for ctx.Err() == nil {
		_, mine, _ := f.l.Slots()
		start := mine + 1
		if !checked {
			start = mine // first, the follower's newest block must be the leader's
		}
		recs, err := f.fetch(ctx, start)
		var gone *rpcapi.Error
		if errors.As(err, &gone) && gone.Code == rpcapi.NewBlockCleanedUpError(0, 0).Code {
			f.stop(fmt.Errorf("the leader (%s) no longer holds slot %d, the next this follower needs (%s): start the "+
				"follower again from a newer snapshot of the leader's ledger (--snapshot)", f.cfg.Leader, start, gone.Message))
			return
		}
		if err != nil {
			if ctx.Err() != nil || !retry(err) {
				return
			}
			continue
		}
		backoff = 0
		f.streamOK()
		f.leaderConfirmed.Store(recs.ConfirmedSlot)
		f.heard.Store(true)
		blocks := recs.Blocks
		if !checked {
			if len(blocks) == 0 || blocks[0].Slot != mine {
				if !retry(fmt.Errorf("the leader has not confirmed slot %d (its confirmed slot is %d)", mine, recs.ConfirmedSlot)) {
					return
				}
				continue
			}
			if err := f.checkTip(mine, blocks[0]); err != nil {
				f.stop(err)
				return
			}
			checked, blocks = true, blocks[1:]
		}
		for _, b := range blocks {
			if recs.CheatSlot != nil && b.Slot >= *recs.CheatSlot {
				f.stop(fmt.Errorf("%w (first at slot %d; this follower holds the chain up to slot %d)", ErrCheats,
					*recs.CheatSlot, b.Slot-1))
				return
			}
			rb, err := decodeRecord(b)
			if err != nil {
				if !retry(err) {
					return
				}
				break
			}
			if err := f.l.ReplayBlock(ctx, rb); err != nil {
				if errors.Is(err, ledger.ErrDiverged) {
					f.stop(err)
					return
				}
				if ctx.Err() != nil || !retry(fmt.Errorf("replaying slot %d: %w", b.Slot, err)) {
					return
				}
				break
			}
		}
		_, now, _ := f.l.Slots()
		if now >= recs.ConfirmedSlot && !pause(f.cfg.PollInterval) {
			return
		}
	}
}

// fetch asks the leader for its blocks from start on.
func (f *Follower) fetch(ctx context.Context, start uint64) (*rpcapi.BlockRecords, error) {
	ctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	var recs rpcapi.BlockRecords
	if err := f.client.Call(ctx, rpcapi.MethodLedgerdGetBlockRecords, []any{start, batchBlocks}, &recs); err != nil {
		return nil, fmt.Errorf("ledgerd_getBlockRecords from slot %d: %w", start, err)
	}
	return &recs, nil
}

// checkTip compares the follower's newest block with the leader's block of the same slot: a follower restarted,
// or started from a snapshot, must stand on the leader's chain.
func (f *Follower) checkTip(slot uint64, leader rpcapi.BlockRecord) error {
	mine, err := f.l.RawBlock(slot)
	if err != nil {
		return err
	}
	theirs, err := base64.StdEncoding.DecodeString(leader.Block)
	if err != nil {
		return fmt.Errorf("the leader's block %d does not decode: %w", slot, err)
	}
	if string(mine) != string(theirs) {
		return fmt.Errorf("%w at slot %d: this ledger's block %d is not the leader's (another chain, or a leader "+
			"reverted past it): follow with a new --ledger directory", ledger.ErrDiverged, slot, slot)
	}
	return nil
}

func decodeRecord(b rpcapi.BlockRecord) (*ledger.RawBlock, error) {
	rb := &ledger.RawBlock{Slot: b.Slot, Transactions: make([][]byte, len(b.Transactions))}
	var err error
	if rb.Block, err = base64.StdEncoding.DecodeString(b.Block); err != nil {
		return nil, fmt.Errorf("the leader's block %d does not decode: %w", b.Slot, err)
	}
	for i, t := range b.Transactions {
		if rb.Transactions[i], err = base64.StdEncoding.DecodeString(t); err != nil {
			return nil, fmt.Errorf("transaction %d of the leader's block %d does not decode: %w", i, b.Slot, err)
		}
	}
	return rb, nil
}
