package node

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"ledgerd/impl/bigtable"
	"ledgerd/impl/ledger"
	"ledgerd/impl/metrics"
)

// HistoryOptions configure where rooted history lives beyond the local ledger.
type HistoryOptions struct {
	// Bigtable, when set, uploads every rooted slot to Bigtable in the reference's layout and serves the history
	// below the first local block from it (--bigtable-instance, --bigtable-emulator-host).
	Bigtable *bigtable.Config
	// NoUpload reads Bigtable without uploading (an archive another node writes).
	NoUpload bool
	// LimitShreds bounds the local history (--limit-ledger-size, see ledger.PruneHistory); 0 keeps every block.
	// With Bigtable, a slot leaves the local ledger only once Bigtable holds it.
	LimitShreds uint64
	// PruneEvery is the time between two pruning passes; 0 is one second.
	PruneEvery time.Duration
}

// history is the running part of HistoryOptions.
type history struct {
	opts     HistoryOptions
	dir      string
	log      *slog.Logger
	client   *bigtable.Client
	archive  *bigtable.Archive
	uploader *bigtable.Uploader
	cancel   context.CancelFunc
	wg       sync.WaitGroup
}

// openHistory connects to Bigtable (creating the tables on an emulator, which starts empty); nothing runs yet.
func openHistory(cfg *Config) (*history, error) {
	h := &history{opts: cfg.History, dir: cfg.LedgerDir, log: cfg.Logger}
	if bc := cfg.History.Bigtable; bc != nil {
		c := *bc
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var err error
		if h.client, err = bigtable.Dial(ctx, c); err != nil {
			return nil, err
		}
		h.archive = bigtable.NewArchive(h.client)
		cfg.Logger.Info("bigtable: history below the first local block is served from " + h.client.Where())
	}
	return h, nil
}

// start makes the archive the ledger's and starts the uploader and the pruning pass.
func (h *history) start(l *ledger.Ledger, cfg *Config) error {
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	if h.archive != nil {
		l.SetArchive(h.archive)
		if !h.opts.NoUpload {
			u, err := bigtable.NewUploader(h.client, l, bigtable.UploaderConfig{StateFile: bigtable.StatePath(h.dir),
				Logger: cfg.Logger})
			if err != nil {
				return err
			}
			h.uploader = u
			h.wg.Go(func() { u.Run(ctx) })
		}
	}
	if h.opts.LimitShreds > 0 {
		every := h.opts.PruneEvery
		if every <= 0 {
			every = time.Second
		}
		var guard func() (uint64, bool)
		switch {
		case h.uploader != nil:
			guard = h.uploader.Last
		case h.archive != nil:
			guard = func() (uint64, bool) {
				s, found, err := h.archive.LastBlock()
				return s, err == nil && found
			}
		}
		h.wg.Go(func() { l.RunRetention(ctx, h.opts.LimitShreds, guard, every) })
	}
	return nil
}

// register adds the uploader's figures to the metrics.
func (h *history) register(m *metrics.Metrics) {
	if h == nil || h.client == nil || h.opts.NoUpload {
		return
	}
	// The uploader is made by start, after the metrics: read it when scraped.
	m.RegisterUploader(func() (uint64, bool, uint64, uint64) {
		u := h.uploader
		if u == nil {
			return 0, false, 0, 0
		}
		slots, txs := u.Counts()
		return u.Lag(), u.Err() != nil, slots, txs
	})
}

// Uploader is the Bigtable uploader (nil without one).
func (n *Node) Uploader() *bigtable.Uploader {
	if n.history == nil {
		return nil
	}
	return n.history.uploader
}

// close stops the uploader and the pruning, then the connection.
func (h *history) close() {
	if h == nil {
		return
	}
	if h.cancel != nil {
		h.cancel()
	}
	h.wg.Wait()
	if h.client != nil {
		if err := h.client.Close(); err != nil {
			h.log.Warn("bigtable: closing the connection", "err", err)
		}
	}
}
