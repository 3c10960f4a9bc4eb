package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"github.com/mr-tron/base58"

	"ledgerd/impl/core"
)

// What a start checks before the ledger serves, so that a damaged or altered ledger directory is refused with a
// clear message instead of serving wrong answers or rewriting finalized history:
//
//   - the genesis hash of genesis.json against the one recorded when the chain was created (in the store, and in
//     the block of slot 0, whose previous blockhash it is), and against --expected-genesis-hash;
//   - the slot record (SlotRecordFile): the newest confirmed slot and its blockhash, written beside the store
//     at every slot (so at every root, finalized trailing confirmed) through a synced temporary file and a
//     rename. Pebble takes a newest write-ahead log that ends early (truncated, emptied, removed) for a clean
//     end and opens without an error (a damaged manifest can also silently drop a table), so a store can come
//     back older than what it reported confirmed and finalized; the record, a separate file, survives that, and
//     a store whose newest slot is behind it, or whose block at the recorded slot has another hash, is refused.
//     (Flipped bytes before valid records make pebble refuse to open: store.IsCorruption;)
//   - the hash chain of the blocks a start replays (each block's previous blockhash is its parent's hash, and
//     its own hash is recomputed from its parent's and its transactions' signatures);
//   - with Config.VerifyLedger, the checksum of every block of every table of the store.

// SlotRecordFile is the slot record's file under the ledger directory.
const SlotRecordFile = "last-slot"

// metaGenesisHash is the genesis hash the chain was created with (32 bytes).
const metaGenesisHash = "ledger.genesis-hash"

// ErrDamaged is what errors.Is finds in the error of an Open refused because the ledger directory is damaged
// or altered.
var ErrDamaged = errors.New("ledger: damaged")

// damagedError is a refused start: what is wrong, and how to recover.
type damagedError struct {
	dir  string
	what string
	err  error // the underlying error, if any
	fix  string
}

func (e *damagedError) Error() string {
	msg := fmt.Sprintf("ledger %s is damaged: %s", e.dir, e.what)
	if e.err != nil {
		msg += ": " + e.err.Error()
	}
	return msg + ". " + e.fix
}

func (e *damagedError) Unwrap() error { return e.err }

func (e *damagedError) Is(target error) bool { return target == ErrDamaged }

// storeDamaged is a refusal for a store that lost or damaged data: the fix is a snapshot or a new chain.
func storeDamaged(dir, what string, err error) error {
	snaps := filepath.Join(dir, "snapshots")
	return &damagedError{dir: dir, what: what, err: err, fix: fmt.Sprintf("Refusing to start: serving it would "+
		"give wrong answers or produce confirmed and finalized slots again with other hashes. To recover, restart from the newest "+
		"snapshot with --snapshot %s --reset (the chain resumes at the snapshot's slot), or start a new chain "+
		"with --reset (all history is lost)", snaps)}
}

// storeUnopened explains a store that does not open for a reason pebble does not call damage (a missing or
// truncated table, a lock, permissions): the error, and the recovery should the files be damaged.
func storeUnopened(dir string, err error) error {
	return fmt.Errorf("ledger %s: its store does not open: %w. If no other ledgerd holds it and its files are "+
		"readable, they are damaged: restart from the newest snapshot with --snapshot %s --reset, or start a new "+
		"chain with --reset", dir, err, filepath.Join(dir, "snapshots"))
}

// genesisDamaged is a refusal for a genesis.json that is not the chain's.
func genesisDamaged(dir, what string) error {
	return &damagedError{dir: dir, what: what, fix: fmt.Sprintf("Refusing to start: the epoch schedule, the "+
		"accounts and the genesis hash clients check would change under an existing chain. Put back the "+
		"chain's original %s (every snapshot under %s carries a copy), or start a new chain with --reset",
		GenesisFile, filepath.Join(dir, "snapshots"))}
}

// ParseGenesisHash reads a genesis hash in base58, as --expected-genesis-hash takes it.
func ParseGenesisHash(s string) ([32]byte, error) {
	b, err := base58.Decode(s)
	if err != nil || len(b) != 32 {
		return [32]byte{}, fmt.Errorf("%q is not a genesis hash (32 bytes in base58)", s)
	}
	return [32]byte(b), nil
}

// checkExpectedGenesis refuses a ledger whose genesis hash is not cfg.ExpectedGenesisHash; g is nil before
// the genesis is opened. The first check runs before anything is created: a new chain's hash depends on its
// creation time and new keys, so a ledger directory without a genesis can never match, and is refused untouched.
func checkExpectedGenesis(cfg *Config, g *Genesis) error {
	if cfg.ExpectedGenesisHash == nil {
		return nil
	}
	if g != nil {
		if e := cfg.ExpectedGenesisHash; *e != g.Hash {
			return fmt.Errorf("ledger %s: its genesis hash is %s, not the expected %s (--expected-genesis-hash): "+
				"this is another chain", cfg.Dir, g.HashString(), base58.Encode(e[:]))
		}
		return nil
	}
	_, err := os.Stat(filepath.Join(cfg.Dir, GenesisFile))
	if cfg.Reset || errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("ledger %s: --expected-genesis-hash %s: the ledger has no genesis yet and a new chain's "+
			"hash cannot be chosen; start from a snapshot of that chain with --snapshot", cfg.Dir,
			base58.Encode(cfg.ExpectedGenesisHash[:]))
	}
	return nil
}

// checkGenesisHash compares the genesis hash of genesis.json with the one the chain was created with, recording the latter where a ledger made before it was recorded lacks it.
func (l *Ledger) checkGenesisHash() error {
	g, dir := l.Genesis, l.cfg.Dir
	recorded, found, err := l.st.GetMeta(metaGenesisHash)
	if err != nil {
		return storeDamaged(dir, "reading the recorded genesis hash", err)
	}
	if found && !bytes.Equal(recorded, g.Hash[:]) {
		return genesisDamaged(dir, fmt.Sprintf("%s hashes to %s, but the chain was created with genesis hash %s",
			GenesisFile, g.HashString(), base58.Encode(recorded)))
	}
	raw, found0, err := l.st.GetBlock(0)
	if err != nil {
		return storeDamaged(dir, "reading the block of slot 0", err)
	}
	if found0 {
		info, err := decodeBlock(raw)
		if err != nil {
			return storeDamaged(dir, "the block of slot 0 does not decode", err)
		}
		if info.PreviousBlockhash != core.Hash(g.Hash) {
			return genesisDamaged(dir, fmt.Sprintf("%s hashes to %s, but the chain's first block follows genesis hash %s",
				GenesisFile, g.HashString(), info.PreviousBlockhash))
		}
	}
	if !found && found0 {
		b := l.st.NewBatch()
		b.SetMeta(metaGenesisHash, g.Hash[:])
		return b.Commit(true)
	}
	return nil
}

// verifyChain checks the hash chain of consecutive stored blocks (oldest first): each one's previous blockhash is
// the hash of the block before it, and each hash is the one its parent's hash and its signatures give.
func (l *Ledger) verifyChain(infos []*BlockInfo) error {
	for i, info := range infos {
		if i > 0 {
			prev := infos[i-1]
			if info.ParentSlot != prev.Slot || info.PreviousBlockhash != prev.Blockhash {
				return storeDamaged(l.cfg.Dir, fmt.Sprintf("the block of slot %d follows slot %d hash %s, but the "+
					"stored block before it is slot %d hash %s", info.Slot, info.ParentSlot, info.PreviousBlockhash,
					prev.Slot, prev.Blockhash), nil)
			}
		} else if info.Slot == 0 && info.PreviousBlockhash != core.Hash(l.Genesis.Hash) {
			return genesisDamaged(l.cfg.Dir, fmt.Sprintf("the block of slot 0 follows genesis hash %s, not %s's %s",
				info.PreviousBlockhash, GenesisFile, l.Genesis.HashString()))
		}
		if h := blockhash(info.PreviousBlockhash, info.Slot, info.Signatures); h != info.Blockhash {
			return storeDamaged(l.cfg.Dir, fmt.Sprintf("the block of slot %d has hash %s, but its parent's hash and "+
				"its transactions give %s", info.Slot, info.Blockhash, h), nil)
		}
	}
	return nil
}

// checkSlotRecord refuses a store that lost slots the slot record says were confirmed (and so persisted). tip
// is the store's newest slot, found false when the store has none.
func (l *Ledger) checkSlotRecord(rec *slotRecord, tip uint64, found bool) error {
	if rec == nil {
		return nil
	}
	path := filepath.Join(l.cfg.Dir, SlotRecordFile)
	if !found {
		return storeDamaged(l.cfg.Dir, fmt.Sprintf("the store holds no chain, but slot %d was confirmed (recorded "+
			"in %s)", rec.Slot, path), nil)
	}
	if tip < rec.Slot {
		return storeDamaged(l.cfg.Dir, fmt.Sprintf("the store resumes at slot %d, behind slot %d, which was "+
			"confirmed (recorded in %s): its write-ahead log or manifest lost the newest slots", tip, rec.Slot, path), nil)
	}
	raw, ok, err := l.st.GetBlock(rec.Slot)
	if err != nil {
		return storeDamaged(l.cfg.Dir, fmt.Sprintf("reading the block of confirmed slot %d", rec.Slot), err)
	}
	if !ok {
		return storeDamaged(l.cfg.Dir, fmt.Sprintf("the block of confirmed slot %d (recorded in %s) is missing",
			rec.Slot, path), nil)
	}
	info, err := decodeBlock(raw)
	if err != nil {
		return storeDamaged(l.cfg.Dir, fmt.Sprintf("the block of confirmed slot %d does not decode", rec.Slot), err)
	}
	if info.Blockhash != rec.Hash {
		return storeDamaged(l.cfg.Dir, fmt.Sprintf("the block of confirmed slot %d has hash %s, but %s was "+
			"confirmed (recorded in %s)", rec.Slot, info.Blockhash, rec.Hash, path), nil)
	}
	return nil
}

// slotRecord is the newest confirmed slot as recorded in SlotRecordFile, with its chain's genesis hash.
type slotRecord struct {
	Slot    uint64
	Hash    core.Hash
	Genesis core.Hash
}

// The record's file: a magic, the slot (little-endian), the blockhash, the genesis hash, and the SHA-256 of
// everything before it (a damaged record is refused, never trusted).
var slotRecordMagic = [8]byte{'l', 'e', 'd', 'g', 'r', 'o', 'o', 't'}

const slotRecordLen = 8 + 8 + 32 + 32 + 32

func (r *slotRecord) marshal() []byte {
	b := make([]byte, 0, slotRecordLen)
	b = append(b, slotRecordMagic[:]...)
	b = binary.LittleEndian.AppendUint64(b, r.Slot)
	b = append(b, r.Hash[:]...)
	b = append(b, r.Genesis[:]...)
	sum := sha256.Sum256(b)
	return append(b, sum[:]...)
}

func unmarshalSlotRecord(b []byte) (*slotRecord, error) {
	if len(b) != slotRecordLen || !bytes.Equal(b[:8], slotRecordMagic[:]) {
		return nil, fmt.Errorf("not a slot record (%d bytes)", len(b))
	}
	if sum := sha256.Sum256(b[:slotRecordLen-32]); !bytes.Equal(sum[:], b[slotRecordLen-32:]) {
		return nil, errors.New("its checksum does not match")
	}
	r := &slotRecord{Slot: binary.LittleEndian.Uint64(b[8:])}
	copy(r.Hash[:], b[16:48])
	copy(r.Genesis[:], b[48:80])
	return r, nil
}

// readSlotRecord reads the slot record of dir; nil when there is none (a ledger created before it existed,
// or one restored from a snapshot, which does not carry it).
func readSlotRecord(dir string) (*slotRecord, error) {
	path := filepath.Join(dir, SlotRecordFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r, err := unmarshalSlotRecord(b)
	if err != nil {
		return nil, &damagedError{dir: dir, what: "the slot record " + path + " is damaged", err: err,
			fix: "Refusing to start: it is the record of the newest confirmed slot. If the disk is otherwise sound, " +
				"remove " + path + " to start without that check; or restart from a snapshot with --snapshot " +
				filepath.Join(dir, "snapshots") + " --reset"}
	}
	return r, nil
}

// writeSlotRecord replaces dir's slot record durably: a synced temporary file renamed over it, then the
// directory synced, so a crash leaves the old record or the new one, never a part of either.
func writeSlotRecord(dir string, r *slotRecord) error {
	path := filepath.Join(dir, SlotRecordFile)
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(r.marshal()); err != nil {
		return errors.Join(err, f.Close())
	}
	if err := f.Sync(); err != nil {
		return errors.Join(err, f.Close())
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// recordSlot is the listener that keeps the slot record: at each confirmed slot it hands the slot and its hash
// to the recorder. A slot is persisted with a synced commit before it is reported confirmed, so the record is
// never ahead of the store.
func (l *Ledger) recordSlot(e Event) {
	if e.Kind == SlotConfirmed && e.Bank != nil {
		l.recorder.note(&slotRecord{Slot: e.Slot, Hash: e.Bank.Hash, Genesis: core.Hash(l.Genesis.Hash)})
	}
}

// slotRecorder writes the slot record off the producer's goroutine (a write costs three syncs, some
// milliseconds): the producer only hands it the newest confirmed slot, and a write covers every slot handed
// before it, so a slow disk skips records and never delays a slot. A record that lags is still a true lower
// bound. A failed write keeps the older record; it is logged once until a write succeeds again.
type slotRecorder struct {
	dir string
	log *slog.Logger

	mu   sync.Mutex
	next *slotRecord // the newest slot not yet written
	// writeMu is held while the record file is written, so a revert's rewind is never overwritten by an older slot.
	writeMu sync.Mutex

	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	failing bool // owned by run
}

func newSlotRecorder(dir string, log *slog.Logger) *slotRecorder {
	r := &slotRecorder{dir: dir, log: log, wake: make(chan struct{}, 1), stop: make(chan struct{}),
		done: make(chan struct{})}
	go r.run()
	return r
}

func (r *slotRecorder) note(rec *slotRecord) {
	r.mu.Lock()
	r.next = rec
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *slotRecorder) run() {
	defer close(r.done)
	for {
		select {
		case <-r.wake:
			r.write()
		case <-r.stop:
			r.write()
			return
		}
	}
}

func (r *slotRecorder) write() {
	r.writeMu.Lock()
	defer r.writeMu.Unlock()
	r.mu.Lock()
	rec := r.next
	r.next = nil
	r.mu.Unlock()
	if rec == nil {
		return
	}
	err := writeSlotRecord(r.dir, rec)
	if err != nil && !r.failing {
		r.log.Error("writing the slot record failed; it stays at an older slot", "slot", rec.Slot, "err", err)
	}
	r.failing = err != nil
}

// close writes the last slot handed and stops; the producer must have stopped.
func (r *slotRecorder) close() {
	close(r.stop)
	<-r.done
}
