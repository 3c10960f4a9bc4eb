package node

import (
	"context"
	"os"
	"slices"
	"time"

	"ledgerd/impl/follow"
)

// A follower (--follow URL) is a node whose ledger is a replica of the leader's (impl/follow): it opens with the
// leader's genesis and finality depth, judges its health against the leader as a known validator, forwards
// transactions and airdrops to it, and has an identity of its own.

// FollowOptions name the leader a node follows.
type FollowOptions struct {
	URL string
	// PollInterval is the pause between two polls of a caught-up follower (default 50 ms); Timeout bounds one
	// request to the leader (default 10 s).
	PollInterval time.Duration
	Timeout      time.Duration
}

// prepareFollow reads the leader's genesis into the ledger directory and sets what the ledger and the health
// monitor open with; nil without --follow.
func prepareFollow(cfg *Config) (*follow.Follower, error) {
	if cfg.Follow == nil || cfg.Follow.URL == "" {
		return nil, nil
	}
	if cfg.Reset { // a new follower: its genesis comes from the leader
		if err := os.RemoveAll(cfg.LedgerDir); err != nil {
			return nil, err
		}
		cfg.Reset = false
	}
	timeout := cfg.Follow.Timeout
	if timeout <= 0 {
		timeout = follow.DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	f, err := follow.Prepare(ctx, follow.Config{Leader: cfg.Follow.URL, Dir: cfg.LedgerDir,
		PollInterval: cfg.Follow.PollInterval, Timeout: cfg.Follow.Timeout, Logger: cfg.Logger})
	if err != nil {
		return nil, err
	}
	s := f.Start()
	cfg.FinalityDepth, cfg.FinalityDepthZero, cfg.WarpSlot = s.FinalityDepth, s.FinalityDepth == 0, s.GenesisSlot
	// The known-validator rule against the leader: behind by more than the slot distance is unhealthy.
	if !slices.Contains(cfg.Health.Peers, f.Leader()) {
		cfg.Health.Peers = append(cfg.Health.Peers, f.Leader())
	}
	if !slices.Contains(cfg.Health.KnownValidators, s.Identity) {
		cfg.Health.KnownValidators = append(cfg.Health.KnownValidators, s.Identity)
	}
	return f, nil
}
