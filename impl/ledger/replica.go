package ledger

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/store"
)

// A replica is a follower's ledger (ledgerd --follow): its chain is its leader's, block by block. It starts from
// the leader's genesis.json (the genesis accounts follow from it and the program modules, as on the leader) or
// from a copy of the leader's ledger (a snapshot), and then only ReplayBlock makes slots: each of the leader's
// blocks is executed again, transaction by transaction, at the leader's slot, block time and clock, with the
// sysvars, blockhash queue and status cache the replica built from the same blocks. The replica checks its own
// records against the leader's byte for byte: each transaction's record (its status, fee, balances, logs, token
// balances, compute units) before the transaction is recorded, and the block record (hash, parent, height, block
// time, transaction count, capitalization, rewards) before the block is persisted. A difference is a divergence:
// the replica keeps nothing of that block, refuses every later one, and says why (ErrDiverged).
//
// Account writes that are not transactions (the developer's cheat methods) are not in the blocks; the leader
// records the first slot one wrote in (CheatSlot), and a follower does not replay past it.

// ErrReplica refuses on a replica what would make slots or state its leader never made: transactions submitted to
// it, airdrops and the developer's methods. A follower forwards transactions and airdrops to its leader instead.
var ErrReplica = errors.New("this node follows a leader (--follow): it makes no slots or writes of its own; " +
	"send transactions, airdrops and developer methods to the leader")

// ErrDiverged is wrapped by a replay that could not reach the leader's records.
var ErrDiverged = errors.New("replica diverged from its leader")

// metaCheatSlot is the first slot a cheat wrote accounts in (see noteCheat).
const metaCheatSlot = "ledger.cheat-slot"

// replicaState is what a replica keeps of its replay (owned by the producer's goroutine, but diverged).
type replicaState struct {
	expect []byte // the leader's record of the block being frozen

	mu       sync.Mutex
	diverged error
}

// Diverged returns the divergence that stopped the replica's replay, nil while it has followed its leader exactly.
func (l *Ledger) Diverged() error {
	l.replica.mu.Lock()
	defer l.replica.mu.Unlock()
	return l.replica.diverged
}

func (l *Ledger) diverge(slot uint64, format string, args ...any) error {
	err := fmt.Errorf("%w at slot %d: %s", ErrDiverged, slot, fmt.Sprintf(format, args...))
	l.replica.mu.Lock()
	defer l.replica.mu.Unlock()
	if l.replica.diverged == nil {
		l.replica.diverged = err
		l.log.Error("replica stopped: its replay of the leader's block differs from the leader's", "slot", slot, "err", err)
	}
	return l.replica.diverged
}

// replicaRefuses is commitFrozen's check on a replica: the frozen block's record must be the leader's, byte for
// byte, or nothing of it is persisted or reported.
func (l *Ledger) replicaRefuses(info *BlockInfo) bool {
	if !l.cfg.Replica {
		return false
	}
	if l.Diverged() != nil {
		return true
	}
	mine := encodeBlock(info)
	if want := l.replica.expect; !bytes.Equal(mine, want) {
		_ = l.diverge(info.Slot, "the block record differs: %s", blockDifference(info, want))
		return true
	}
	return false
}

// blockDifference names the first field where a block record differs from the leader's.
func blockDifference(mine *BlockInfo, leaderRaw []byte) string {
	theirs, err := decodeBlock(leaderRaw)
	if err != nil {
		return "the leader's record does not decode"
	}
	for _, f := range []struct {
		name   string
		me, it any
	}{
		{"blockhash", mine.Blockhash, theirs.Blockhash}, {"parent slot", mine.ParentSlot, theirs.ParentSlot},
		{"block height", mine.BlockHeight, theirs.BlockHeight}, {"block time", mine.BlockTime, theirs.BlockTime},
		{"transaction count", mine.TransactionCount, theirs.TransactionCount},
		{"capitalization", mine.Capitalization, theirs.Capitalization},
		{"epoch start timestamp", mine.EpochStartTimestamp, theirs.EpochStartTimestamp},
	} {
		if f.me != f.it {
			return fmt.Sprintf("%s %v here, %v on the leader", f.name, f.me, f.it)
		}
	}
	a, _ := json.Marshal(mine.Rewards)
	b, _ := json.Marshal(theirs.Rewards)
	if !bytes.Equal(a, b) {
		return fmt.Sprintf("rewards %s here, %s on the leader", a, b)
	}
	return "the signatures or failure flags differ"
}

// noteCheat records, before the slot's writes are made, that a cheat wrote accounts in slot (only the first such
// slot is kept): a follower must not replay past it. Written at once, so a block at or after it is never served
// without it (BlockRecords reads it after the blocks).
func (l *Ledger) noteCheat(slot uint64) error {
	if _, found, err := l.st.GetMetaU64(metaCheatSlot); err != nil || found {
		return l.fault.report(err)
	}
	b := l.st.NewBatch()
	b.SetMetaU64(metaCheatSlot, slot)
	return l.fault.report(b.Commit(true))
}

// CheatSlot is the first slot a cheat wrote accounts in; found is false when none did.
func (l *Ledger) CheatSlot() (slot uint64, found bool, err error) {
	slot, found, err = l.st.GetMetaU64(metaCheatSlot)
	return slot, found, l.fault.report(err)
}

// GenesisRecord is what a follower starts the chain from (ledgerd_getGenesis).
type GenesisRecord struct {
	Config []byte // genesis.json's bytes
	// Slot is the slot of the chain's genesis block; found is false when the ledger no longer holds it.
	Slot          uint64
	SlotFound     bool
	FinalityDepth uint64
}

// GenesisRecord reads genesis.json (checked against the genesis hash) and the slot of the genesis block.
func (l *Ledger) GenesisRecord() (*GenesisRecord, error) {
	data, err := os.ReadFile(filepath.Join(l.cfg.Dir, GenesisFile))
	if err != nil {
		return nil, &StorageError{Err: err}
	}
	if sha256.Sum256(data) != l.Genesis.Hash {
		return nil, &StorageError{Err: fmt.Errorf("%s no longer hashes to the genesis hash", GenesisFile)}
	}
	r := &GenesisRecord{Config: data, FinalityDepth: l.depth}
	first, found, err := l.st.FirstBlock()
	if err != nil {
		return nil, l.fault.report(err)
	}
	if found {
		info, _, err := l.rawBlock(first)
		if err != nil {
			return nil, err
		}
		if info != nil && info.PreviousBlockhash == core.Hash(l.Genesis.Hash) {
			r.Slot, r.SlotFound = first, true
		}
	}
	return r, nil
}

// RawBlock is a stored block as a replica replays it: the block's record and its transactions' records.
type RawBlock struct {
	Slot         uint64
	Block        []byte
	Transactions [][]byte
}

// CleanedUpError is a block below the first one the ledger holds.
type CleanedUpError struct{ Slot, First uint64 }

func (e *CleanedUpError) Error() string {
	return fmt.Sprintf("block %d cleaned up, does not exist on node; first available block: %d", e.Slot, e.First)
}

// BlockRecords returns the confirmed blocks from start on, oldest first: at most limit, and no more once their
// records pass maxBytes (the first is always whole). It also returns the commitment levels and the cheat slot,
// read after the blocks.
func (l *Ledger) BlockRecords(start uint64, limit, maxBytes int) (blocks []RawBlock, confirmed, finalized uint64,
	cheat *uint64, err error) {
	_, confirmed, finalized = l.Slots()
	first, found, err := l.st.FirstBlock()
	if err != nil {
		return nil, 0, 0, nil, l.fault.report(err)
	}
	if found && start < first {
		return nil, 0, 0, nil, &CleanedUpError{Slot: start, First: first}
	}
	size := 0
	for s := start; s <= confirmed && len(blocks) < limit && (len(blocks) == 0 || size < maxBytes); s++ {
		info, raw, err := l.rawBlock(s)
		if err != nil {
			return nil, 0, 0, nil, err
		}
		if info == nil { // gone under the read (a revert, or history pruned past it)
			if len(blocks) == 0 {
				first, _, _ := l.st.FirstBlock()
				return nil, 0, 0, nil, &CleanedUpError{Slot: s, First: first}
			}
			break
		}
		rb := RawBlock{Slot: s, Block: raw, Transactions: make([][]byte, len(info.Signatures))}
		whole := true
		for i, sig := range info.Signatures {
			rec, found, err := l.st.GetTransaction(store.Signature(sig))
			if err != nil {
				return nil, 0, 0, nil, l.fault.report(err)
			}
			if !found || rec.Slot != s { // reverted or pruned under the read: not damage
				whole = false
				break
			}
			rb.Transactions[i] = rec.Data
			size += len(rec.Data)
		}
		if !whole {
			if len(blocks) == 0 {
				return nil, 0, 0, nil, fmt.Errorf("ledger: the block of slot %d changed while it was read; ask again", s)
			}
			break
		}
		size += len(raw)
		blocks = append(blocks, rb)
	}
	if s, found, err := l.CheatSlot(); err != nil {
		return nil, 0, 0, nil, err
	} else if found {
		cheat = &s
	}
	return blocks, confirmed, finalized, cheat, nil
}

// rawBlock reads the stored block of slot (nil when there is none) and its record.
func (l *Ledger) rawBlock(slot uint64) (*BlockInfo, []byte, error) {
	raw, found, err := l.st.GetBlock(slot)
	if err != nil || !found {
		return nil, nil, l.fault.report(err)
	}
	info, err := decodeBlock(raw)
	if err != nil {
		return nil, nil, l.fault.report(fmt.Errorf("the block of slot %d does not decode: %w", slot, err))
	}
	return info, raw, nil
}

// RawBlock returns the stored record of slot's block (nil when there is none): a follower compares its genesis
// block with the leader's.
func (l *Ledger) RawBlock(slot uint64) ([]byte, error) {
	_, raw, err := l.rawBlock(slot)
	return raw, err
}

// WriteReplicaGenesis puts a leader's genesis.json into a follower's ledger directory: a new directory gets it, one
// that has it must hold the same bytes (the same chain).
func WriteReplicaGenesis(dir string, config []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, GenesisFile)
	have, err := os.ReadFile(path)
	switch {
	case err == nil && bytes.Equal(have, config):
		return nil
	case err == nil:
		return fmt.Errorf("%s holds another chain's genesis (hash %s, the leader's is %s): follow with a new --ledger "+
			"directory, or --reset", path, core.Hash(sha256.Sum256(have)), core.Hash(sha256.Sum256(config)))
	case !errors.Is(err, os.ErrNotExist):
		return err
	}
	var cfg GenesisConfig
	if err := json.Unmarshal(config, &cfg); err != nil {
		return fmt.Errorf("the leader's genesis does not decode: %w", err)
	}
	return writeFileAtomic(path, config)
}

// openReplicaGenesis opens a follower's directory: the genesis is the leader's genesis.json, and the keys it names
// are held as public keys only (the follower signs nothing; a copy of the leader's ledger keeps its keypair files,
// unused).
func openReplicaGenesis(dir string, reset bool, _ GenesisOptions) (*Genesis, error) {
	data, err := os.ReadFile(filepath.Join(dir, GenesisFile))
	if err != nil {
		return nil, fmt.Errorf("a follower's ledger needs its leader's %s: %w", GenesisFile, err)
	}
	if reset {
		return nil, errors.New("a follower's ledger cannot be reset in place: its genesis comes from the leader")
	}
	g := &Genesis{Dir: dir, Hash: sha256.Sum256(data)}
	if err := json.Unmarshal(data, &g.Config); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, GenesisFile), err)
	}
	for _, k := range []struct {
		named string
		key   *core.Keypair
	}{
		{g.Config.Identity, &g.Identity}, {g.Config.Faucet, &g.Faucet}, {g.Config.VoteAccount, &g.Vote},
		{g.Config.StakeAccount, &g.Stake},
	} {
		pk, err := core.ParsePubkey(k.named)
		if err != nil {
			return nil, fmt.Errorf("%s: a key it names: %w", filepath.Join(dir, GenesisFile), err)
		}
		*k.key = core.PublicKeypair(pk)
	}
	return g, nil
}

// decodedTx is one transaction of a block to replay, with the leader's record of it.
type decodedTx struct {
	tx  *core.Transaction
	raw []byte
}

// ReplayBlock executes a leader's block on a replica and persists it, as the leader did: the block's record and its
// transactions' records (RawBlock) must be the next slot's, every signature must verify, and the replica's own
// records must come out the same, byte for byte. An error wrapping ErrDiverged stops the replica for good.
func (l *Ledger) ReplayBlock(ctx context.Context, rb *RawBlock) error {
	if !l.cfg.Replica {
		return errors.New("ledger: ReplayBlock on a ledger that is not a replica")
	}
	if err := l.Diverged(); err != nil {
		return err
	}
	info, err := decodeBlock(rb.Block)
	if err != nil || info.Slot != rb.Slot {
		return fmt.Errorf("the leader's block record of slot %d does not decode (or names another slot)", rb.Slot)
	}
	if len(rb.Transactions) != len(info.Signatures) {
		return fmt.Errorf("the leader's block %d lists %d signatures but came with %d transactions", info.Slot,
			len(info.Signatures), len(rb.Transactions))
	}
	txs := make([]decodedTx, len(rb.Transactions))
	for i, raw := range rb.Transactions {
		tx, _, err := decodeTx(raw)
		if err != nil {
			return fmt.Errorf("transaction %d of the leader's block %d does not decode: %w", i, info.Slot, err)
		}
		if tx.Signature() != info.Signatures[i] {
			return fmt.Errorf("transaction %d of the leader's block %d is not the one its record lists", i, info.Slot)
		}
		txs[i] = decodedTx{tx: tx, raw: raw}
	}
	if err := verifyAll(txs); err != nil {
		return l.diverge(info.Slot, "%v", err)
	}
	var rerr error
	if err := l.runOnProducer(ctx, func() { rerr = l.replay1(info, rb.Block, txs) }); err != nil {
		return err
	}
	return rerr
}

// verifyAll checks every transaction's signatures (and structure), spread over the cores: the leader's producer
// trusts what its RPC verified, a follower verifies what it replays, as the reference's replay does.
func verifyAll(txs []decodedTx) error {
	const chunk = 64
	errs := make([]error, (len(txs)+chunk-1)/chunk)
	var wg sync.WaitGroup
	for c := range errs {
		wg.Go(func() {
			for i := c * chunk; i < min(len(txs), (c+1)*chunk); i++ {
				tx := txs[i].tx
				if err := tx.Sanitize(); err != nil {
					errs[c] = fmt.Errorf("transaction %s is not well formed: %v", tx.Signature(), err)
					return
				}
				if !tx.VerifySignatures() {
					errs[c] = fmt.Errorf("transaction %s has a signature that does not verify (a leader with relaxed "+
						"signature checks let it in)", tx.Signature())
					return
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// replay1 is ReplayBlock on the producer's goroutine.
func (l *Ledger) replay1(info *BlockInfo, block []byte, txs []decodedTx) error {
	if err := l.Diverged(); err != nil {
		return err
	}
	if l.fault.isDamaged() || l.pending != nil {
		return l.errNotProduced()
	}
	b := l.working
	if info.Slot != b.Slot {
		return fmt.Errorf("the leader's block is slot %d, the replica's next slot is %d", info.Slot, b.Slot)
	}
	if info.ParentSlot != b.ParentSlot || info.PreviousBlockhash != b.ParentHash {
		return l.diverge(info.Slot, "the leader's block follows slot %d (blockhash %s), the replica's chain slot %d "+
			"(blockhash %s): the leader's chain changed under the follower (a ledgerd_revert, or another chain)",
			info.ParentSlot, info.PreviousBlockhash, b.ParentSlot, b.ParentHash)
	}
	if b.entriesLen() > 0 {
		return l.diverge(info.Slot, "the working bank holds transactions that are not the leader's")
	}
	// The slot runs at the leader's time: its block time, and the epoch's start as the leader's clock has it.
	env := *b.Env
	env.Clock.UnixTimestamp = info.BlockTime
	env.Clock.EpochStartTimestamp = info.EpochStartTimestamp
	b.mu.Lock()
	b.BlockTime = info.BlockTime
	b.Env = &env
	b.mu.Unlock()

	for i, d := range txs {
		if err := l.replayTx(b, d); err != nil {
			if errors.Is(err, ErrDiverged) {
				return err
			}
			var se *StorageError
			if errors.As(err, &se) {
				return err
			}
			return l.diverge(info.Slot, "transaction %d (%s): %v", i, d.tx.Signature(), err)
		}
	}
	l.replica.expect = block
	l.freeze()
	l.replica.expect = nil
	if err := l.Diverged(); err != nil {
		return err
	}
	if l.pending != nil { // the store refused it (a full disk): kept and retried by the producer's timer
		return l.errNotProduced()
	}
	return nil
}

// replayTx executes one of the leader's transactions in the working bank and records it when its record is the
// leader's.
func (l *Ledger) replayTx(b *Bank, d decodedTx) error {
	tx := d.tx
	sig := tx.Signature()
	src := &recordingSource{errSource: errSource{bank: b}}
	loaded, terr := b.lookupsIn(nil, &tx.Message)
	if terr != nil {
		return fmt.Errorf("its address lookup tables do not load: %v", terr)
	}
	res := runtime.Execute(b.Env, src, tx, runtime.Options{
		LoadedAddresses:  loaded,
		CheckBlockhash:   b.BlockhashValid,
		AlreadyProcessed: func() bool { return l.alreadyProcessed(sig, tx.Message.RecentBlockhash, b) },
	})
	if src.err != nil {
		return src.err
	}
	if !res.Processed {
		return fmt.Errorf("not processed here (%v): the leader processed it (a leader with the blockhash check "+
			"off, or a divergence)", res.Err)
	}
	meta, keys := txMetaOf(b, tx, res, src.pre, loaded)
	if mine := encodeTx(tx, meta); !bytes.Equal(mine, d.raw) {
		return fmt.Errorf("its record differs: %s", txDifference(meta, d.raw))
	}
	l.recordMeta(b, tx, res, meta, keys)
	l.emit(Event{Kind: TxProcessed, Slot: b.Slot, Bank: b, Tx: tx, Result: res})
	return nil
}

// txDifference names the first field of a transaction's metadata that differs from the leader's record.
func txDifference(mine *TxMeta, leaderRaw []byte) string {
	_, theirs, err := decodeTx(leaderRaw)
	if err != nil {
		return "the leader's record does not decode"
	}
	a, _ := json.Marshal(mine)
	b, _ := json.Marshal(theirs)
	var ma, mb map[string]json.RawMessage
	_ = json.Unmarshal(a, &ma)
	_ = json.Unmarshal(b, &mb)
	for _, k := range []string{"err", "fee", "preBalances", "postBalances", "logs", "innerInstructions", "returnData",
		"computeUnitsConsumed", "loadedAddresses", "costUnits", "preTokenBalances", "postTokenBalances"} {
		if !bytes.Equal(ma[k], mb[k]) {
			return fmt.Sprintf("%s %s here, %s on the leader", k, clip(ma[k]), clip(mb[k]))
		}
	}
	return "its encoding"
}

func clip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	if b == nil {
		return "none"
	}
	return string(b)
}
