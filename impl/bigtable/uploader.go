package bigtable

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/parse"
)

// UploadSlot writes one rooted block in the reference's order: its tx rows, its tx-by-addr rows and its entries
// row first, the blocks row last, so a block visible to readers has all its rows. Rewriting a slot writes the
// same values again (a newer cell version, which readers take): uploads are idempotent.
func (c *Client) UploadSlot(ctx context.Context, info *ledger.BlockInfo, txs []*ledger.TxRecord) error {
	slot := info.Slot
	var txKeys []string
	var txVals [][]byte
	byAddr := map[core.Pubkey][]AddrEntry{}
	var addrOrder []core.Pubkey
	blockTime := info.BlockTime
	for i, rec := range txs {
		if rec.Meta == nil {
			// The archive could not serve it back: the reader refuses a transaction without status.
			return fmt.Errorf("bigtable: slot %d transaction %d has no status metadata", slot, i)
		}
		loaded := rec.Meta.LoadedAddresses
		memo := parse.ExtractMemo(rec.Tx, loaded)
		txErr := rec.Meta.Err
		v, err := encodeTxInfo(&TxInfo{Slot: slot, Index: uint32(i), Err: txErr, Memo: memo})
		if err != nil {
			return fmt.Errorf("bigtable: slot %d transaction %d: %w", slot, i, err)
		}
		txKeys = append(txKeys, rec.Tx.Signature().String())
		txVals = append(txVals, compressCell(v))
		seen := map[core.Pubkey]bool{}
		for _, k := range txAccountKeys(rec, loaded) {
			if reserved[k] || seen[k] {
				continue
			}
			seen[k] = true
			if _, ok := byAddr[k]; !ok {
				addrOrder = append(addrOrder, k)
			}
			byAddr[k] = append(byAddr[k], AddrEntry{Signature: rec.Tx.Signature(), Err: txErr, Index: uint32(i),
				Memo: memo, BlockTime: &blockTime})
		}
	}
	addrKeys := make([]string, len(addrOrder))
	addrVals := make([][]byte, len(addrOrder))
	for i, k := range addrOrder {
		addrKeys[i] = txByAddrKey(k.String(), slot)
		addrVals[i] = compressCell(encodeTxByAddr(byAddr[k]))
	}
	if err := c.putCells(ctx, TableTx, CellBin, txKeys, txVals); err != nil {
		return err
	}
	if err := c.putCells(ctx, TableTxByAddr, CellProto, addrKeys, addrVals); err != nil {
		return err
	}
	key := slotKey(slot)
	if err := c.putCells(ctx, TableEntries, CellProto, []string{key},
		[][]byte{compressCell(encodeEntries(info.Blockhash, len(txs)))}); err != nil {
		return err
	}
	block, err := EncodeBlock(info, txs)
	if err != nil {
		return fmt.Errorf("bigtable: slot %d: %w", slot, err)
	}
	return c.putCells(ctx, TableBlocks, CellProto, []string{key}, [][]byte{compressCell(block)})
}

// txAccountKeys are a transaction's account keys as the reference's account_keys(): static keys, then the
// writable and read-only keys its lookups loaded.
func txAccountKeys(rec *ledger.TxRecord, loaded *core.LoadedAddresses) []core.Pubkey {
	keys := rec.Tx.Message.AccountKeys
	if loaded != nil {
		keys = append(append(append([]core.Pubkey(nil), keys...), loaded.Writable...), loaded.Readonly...)
	}
	return keys
}

// reserved are the reference's reserved account keys (all activated): the address index leaves them out.
var reserved = func() map[core.Pubkey]bool {
	m := map[core.Pubkey]bool{}
	for _, s := range []string{
		"AddressLookupTab1e1111111111111111111111111", "BPFLoader2111111111111111111111111111111111",
		"BPFLoader1111111111111111111111111111111111", "BPFLoaderUpgradeab1e11111111111111111111111",
		"ComputeBudget111111111111111111111111111111", "Config1111111111111111111111111111111111111",
		"Ed25519SigVerify111111111111111111111111111", "Feature111111111111111111111111111111111111",
		"LoaderV411111111111111111111111111111111111", "KeccakSecp256k11111111111111111111111111111",
		"Secp256r1SigVerify1111111111111111111111111", "StakeConfig11111111111111111111111111111111",
		"Stake11111111111111111111111111111111111111", "11111111111111111111111111111111",
		"Vote111111111111111111111111111111111111111", "ZkE1Gama1Proof11111111111111111111111111111",
		"ZkTokenProof1111111111111111111111111111111", "SysvarC1ock11111111111111111111111111111111",
		"SysvarEpochRewards1111111111111111111111111", "SysvarEpochSchedu1e111111111111111111111111",
		"SysvarFees111111111111111111111111111111111", "Sysvar1nstructions1111111111111111111111111",
		"SysvarLastRestartS1ot1111111111111111111111", "SysvarRecentB1ockHashes11111111111111111111",
		"SysvarRent111111111111111111111111111111111", "SysvarRewards111111111111111111111111111111",
		"SysvarS1otHashes111111111111111111111111111", "SysvarS1otHistory11111111111111111111111111",
		"SysvarStakeHistory1111111111111111111111111", "NativeLoader1111111111111111111111111111111",
		"Sysvar1111111111111111111111111111111111111",
	} {
		m[core.MustParsePubkey(s)] = true
	}
	return m
}()

// Uploader writes every rooted slot of a ledger to Bigtable, in order, without gaps: the newest slot written
// is kept in a file of the ledger directory (written after the slot's blocks row), so a restart resumes
// after it; a slot written twice is harmless. A failure is retried with backoff (0.5 s doubling to 30 s),
// each call bounded by the client's timeout, so an outage delays uploads and never skips a slot.
type Uploader struct {
	c     *Client
	l     *ledger.Ledger
	log   *slog.Logger
	state string

	minBackoff, maxBackoff time.Duration

	mu       sync.Mutex
	last     uint64
	haveLast bool
	failing  error
	since    time.Time
	loggedAt time.Time
	failures int

	uploaded atomic.Uint64 // slots written since start
	txs      atomic.Uint64
}

// UploaderConfig configures NewUploader.
type UploaderConfig struct {
	// StateFile keeps the newest uploaded slot across restarts.
	StateFile string
	Logger    *slog.Logger
	// MinBackoff and MaxBackoff bound the wait between two tries after a failure (default 0.5 s and 30 s).
	MinBackoff, MaxBackoff time.Duration
}

// NewUploader resumes from the state file, or, without one, from the newest block the instance holds (as the
// reference reads back what it uploaded), or else from the ledger's first local block.
func NewUploader(c *Client, l *ledger.Ledger, cfg UploaderConfig) (*Uploader, error) {
	u := &Uploader{c: c, l: l, log: cfg.Logger, state: cfg.StateFile, minBackoff: cfg.MinBackoff, maxBackoff: cfg.MaxBackoff}
	if u.minBackoff <= 0 {
		u.minBackoff = 500 * time.Millisecond
	}
	if u.maxBackoff < u.minBackoff {
		u.maxBackoff = max(u.minBackoff, 30*time.Second)
	}
	if u.log == nil {
		u.log = slog.Default()
	}
	if cfg.StateFile == "" {
		return u, nil
	}
	raw, err := os.ReadFile(cfg.StateFile)
	switch {
	case err == nil:
		s, perr := strconv.ParseUint(strings.TrimSpace(string(raw)), 10, 64)
		if perr != nil {
			return nil, fmt.Errorf("bigtable: uploader state %s: %v", cfg.StateFile, perr)
		}
		u.last, u.haveLast = s, true
	case errors.Is(err, os.ErrNotExist):
	default:
		return nil, fmt.Errorf("bigtable: uploader state: %w", err)
	}
	return u, nil
}

// Last is the newest slot uploaded, for retention: nothing above it may leave the local ledger.
func (u *Uploader) Last() (uint64, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.last, u.haveLast
}

// Lag is the root minus the newest slot uploaded (the root plus one before anything is).
func (u *Uploader) Lag() uint64 {
	_, _, root := u.l.Slots()
	last, ok := u.Last()
	if !ok {
		return root + 1
	}
	if last >= root {
		return 0
	}
	return root - last
}

// Err is the failure the uploader is retrying, nil while it uploads.
func (u *Uploader) Err() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.failing
}

// Counts are the slots and transactions uploaded since the uploader started.
func (u *Uploader) Counts() (slots, txs uint64) { return u.uploaded.Load(), u.txs.Load() }

// Run uploads until ctx ends.
func (u *Uploader) Run(ctx context.Context) {
	backoff := u.minBackoff
	for ctx.Err() == nil {
		err := u.catchUp(ctx)
		if err == nil {
			u.recovered()
			backoff = u.minBackoff
			if !sleep(ctx, 100*time.Millisecond) {
				return
			}
			continue
		}
		if ctx.Err() != nil {
			return
		}
		u.failed(err, backoff)
		if !sleep(ctx, backoff) {
			return
		}
		backoff = min(backoff*2, u.maxBackoff)
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// failed logs the first failure of a run at WARN, and then one ERROR line a minute while it lasts.
func (u *Uploader) failed(err error, retry time.Duration) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.failures++
	now := time.Now()
	if u.failing == nil {
		u.since, u.loggedAt = now, now
		u.log.Warn("bigtable uploader: upload failed; retrying (no slot is skipped)", "next", u.last+1, "retry_in", retry, "err", err)
	} else if now.Sub(u.loggedAt) >= time.Minute {
		u.loggedAt = now
		u.log.Error("bigtable uploader: still failing", "since", u.since.Format(time.RFC3339), "attempts", u.failures,
			"next", u.last+1, "lag", u.lagLocked(), "err", err)
	}
	u.failing = err
}

func (u *Uploader) lagLocked() uint64 {
	_, _, root := u.l.Slots()
	if !u.haveLast {
		return root + 1
	}
	return root - min(root, u.last)
}

func (u *Uploader) recovered() {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.failing != nil {
		u.log.Info("bigtable uploader: uploading again", "after", time.Since(u.since).Round(time.Millisecond), "attempts", u.failures)
		u.failing, u.failures = nil, 0
	}
}

// next is the first slot to upload.
func (u *Uploader) next() (uint64, error) {
	u.mu.Lock()
	last, ok := u.last, u.haveLast
	u.mu.Unlock()
	first := u.l.FirstAvailableBlock()
	if !ok {
		s, found, err := NewArchive(u.c).LastBlock()
		if err != nil {
			return 0, err
		}
		if !found {
			return first, nil
		}
		last = s
		u.mu.Lock()
		u.last, u.haveLast = s, true
		u.mu.Unlock()
	}
	if last+1 < first {
		// The local ledger let go of slots never uploaded (it ran with a limit before the uploader): they are
		// lost to the archive, and saying so is all that can be done.
		u.log.Error("bigtable uploader: slots missing from both the local ledger and Bigtable",
			"from", last+1, "to", first-1)
		return first, nil
	}
	return last + 1, nil
}

// catchUp uploads every rooted slot after the last uploaded one.
func (u *Uploader) catchUp(ctx context.Context) error {
	from, err := u.next()
	if err != nil {
		return err
	}
	_, _, root := u.l.Slots()
	if from > root+1 {
		// The chain went back below what was uploaded (ledgerd_revert, surfnet_resetNetwork): the slots it
		// produces again are uploaded again, their rows overwritten by newer versions.
		u.log.Warn("bigtable uploader: the root went back below the uploaded slots; uploading from it again",
			"root", root, "uploaded", from-1)
		u.mu.Lock()
		u.last = root
		u.mu.Unlock()
		from = root + 1
	}
	for s := from; s <= root && ctx.Err() == nil; s++ {
		info, found, err := u.l.Block(s, ledger.Finalized)
		if err != nil {
			return err
		}
		if found {
			txs, err := u.l.BlockTransactions(info)
			if err != nil {
				return err
			}
			if err := u.c.UploadSlot(ctx, info, txs); err != nil {
				return err
			}
			u.uploaded.Add(1)
			u.txs.Add(uint64(len(txs)))
		}
		if err := u.advance(s); err != nil {
			return err
		}
	}
	return nil
}

// advance records s as uploaded: in memory, then in the state file (a temporary file renamed in place).
func (u *Uploader) advance(s uint64) error {
	u.mu.Lock()
	u.last, u.haveLast = s, true
	u.mu.Unlock()
	if u.state == "" {
		return nil
	}
	tmp := u.state + ".tmp"
	if err := os.WriteFile(tmp, []byte(strconv.FormatUint(s, 10)+"\n"), 0o644); err != nil {
		return fmt.Errorf("bigtable uploader: state: %w", err)
	}
	if err := os.Rename(tmp, u.state); err != nil {
		return fmt.Errorf("bigtable uploader: state: %w", err)
	}
	return nil
}

// StatePath is the uploader's state file in a ledger directory.
func StatePath(ledgerDir string) string { return filepath.Join(ledgerDir, "bigtable-uploaded-slot") }
