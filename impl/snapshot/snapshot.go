// Package snapshot owns the node's snapshots: at rooted slots it takes a consistent checkpoint of the ledger's
// database, with the genesis files beside it, keeps the newest few, and answers which ones exist; Restore starts a
// ledger directory from one.
//
// A snapshot is a directory that is itself a ledger directory (accounts/ holds the pebble checkpoint, next to
// genesis.json and the keypair files), named like the reference's archives under <ledger>/snapshots/:
//
//	snapshot-<slot>-<hash>                    a full snapshot
//	incremental-snapshot-<base>-<slot>-<hash> an incremental one, based on the full snapshot of slot <base>
//
// <slot> is the rooted slot the snapshot was taken at and <hash> its blockhash (base58). The reference's
// incremental archive holds only what changed since its base; here every snapshot is a whole checkpoint, because
// pebble hard-links the unchanged tables, so an incremental one costs what a full one does and restores alone.
// The base slot is kept in the name so the two kinds are retained and reported as the reference does.
//
// A checkpoint holds the database as it is when it is written, a little after the root it is labelled with: the
// newer, unrooted slots come with it, and a node started from it resumes after the newest of them. Accounts are
// versioned by slot, so the state at the labelled root is in it too.
package snapshot

import (
	"cmp"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// Defaults. The reference test validator writes a full snapshot every 100 slots and no incremental ones; the
// reference validator writes a full one every 25,000 slots and an incremental one every 100, and retains 2 full
// and 4 incremental archives. ledgerd's binary follows the test validator (incremental snapshots are opt-in:
// each is a whole checkpoint here, and retained ones hold on to table files compactions replace, which cost an
// idle node more disk than its blocks do); DefaultIncrementalInterval applies when they are turned on.
const (
	DefaultFullInterval        = 100
	DefaultIncrementalInterval = 100
	DefaultMaxFull             = 2
	DefaultMaxIncremental      = 4
)

// DirName is the directory of the snapshots under the ledger directory.
const DirName = "snapshots"

// storeDir is where ledger.Open keeps its database under the ledger directory.
const storeDir = "accounts"

// Kind tells full and incremental snapshots apart.
type Kind uint8

const (
	Full Kind = iota
	Incremental
)

func (k Kind) String() string { return [...]string{"full", "incremental"}[k] }

// Info describes one snapshot on disk.
type Info struct {
	Kind Kind
	Slot uint64
	Base uint64 // Incremental: the slot of the full snapshot it is based on
	Hash string // the blockhash of Slot, base58
	Path string
}

// Name is the directory name of a snapshot.
func (i Info) Name() string {
	if i.Kind == Incremental {
		return fmt.Sprintf("incremental-snapshot-%d-%d-%s", i.Base, i.Slot, i.Hash)
	}
	return fmt.Sprintf("snapshot-%d-%s", i.Slot, i.Hash)
}

var (
	fullName        = regexp.MustCompile(`^snapshot-([0-9]+)-([1-9A-HJ-NP-Za-km-z]+)$`)
	incrementalName = regexp.MustCompile(`^incremental-snapshot-([0-9]+)-([0-9]+)-([1-9A-HJ-NP-Za-km-z]+)$`)
)

// parseName reads a snapshot directory name; ok is false for anything else.
func parseName(name string) (i Info, ok bool) {
	if m := fullName.FindStringSubmatch(name); m != nil {
		slot, err := strconv.ParseUint(m[1], 10, 64)
		return Info{Kind: Full, Slot: slot, Hash: m[2]}, err == nil
	}
	if m := incrementalName.FindStringSubmatch(name); m != nil {
		base, err1 := strconv.ParseUint(m[1], 10, 64)
		slot, err2 := strconv.ParseUint(m[2], 10, 64)
		return Info{Kind: Incremental, Base: base, Slot: slot, Hash: m[3]}, err1 == nil && err2 == nil && base < slot
	}
	return Info{}, false
}

// tmpPrefix marks a snapshot being written; one left by a crash is removed at the next start.
const tmpPrefix = "tmp-"

// List returns the snapshots in dir, each kind ordered by slot, fulls first. A missing dir has none.
func List(dir string) ([]Info, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		if i, ok := parseName(e.Name()); ok {
			i.Path = filepath.Join(dir, e.Name())
			out = append(out, i)
		}
	}
	sortInfos(out)
	return out, nil
}

func sortInfos(s []Info) {
	slices.SortFunc(s, func(a, b Info) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Slot, b.Slot), cmp.Compare(a.Base, b.Base))
	})
}

// Highest picks, as getHighestSnapshotSlot reports them, the newest full snapshot and the newest incremental one
// based on it (nil when there is none); ok is false when there is no full snapshot.
func Highest(infos []Info) (full Info, incremental *Info, ok bool) {
	for _, i := range infos {
		if i.Kind == Full && (!ok || i.Slot > full.Slot) {
			full, ok = i, true
		}
	}
	if !ok {
		return Info{}, nil, false
	}
	for _, i := range infos {
		if i.Kind == Incremental && i.Base == full.Slot && (incremental == nil || i.Slot > incremental.Slot) {
			incremental = &i
		}
	}
	return full, incremental, true
}

// Config configures a Snapshotter. Zero fields take the defaults.
type Config struct {
	// LedgerDir is the ledger directory the genesis files are copied from; required.
	LedgerDir string
	// Dir holds the snapshots (default <LedgerDir>/snapshots).
	Dir string
	// FullInterval: a full snapshot is taken at every rooted slot that is a multiple of it.
	FullInterval uint64
	// IncrementalInterval: an incremental snapshot is taken at every other rooted slot that is a multiple of it,
	// once a full snapshot exists. NoIncremental turns them off.
	IncrementalInterval uint64
	NoIncremental       bool
	// MaxFull and MaxIncremental are how many of each kind are kept: the newest MaxIncremental incremental
	// snapshots of the newest full one, and the newest one of each older full snapshot kept (as the reference).
	MaxFull, MaxIncremental int
	Logger                  *slog.Logger
}

func (c *Config) defaults() {
	if c.Dir == "" {
		c.Dir = filepath.Join(c.LedgerDir, DirName)
	}
	c.FullInterval = cmp.Or(c.FullInterval, DefaultFullInterval)
	c.IncrementalInterval = cmp.Or(c.IncrementalInterval, DefaultIncrementalInterval)
	c.MaxFull = max(cmp.Or(c.MaxFull, DefaultMaxFull), 1)
	c.MaxIncremental = max(cmp.Or(c.MaxIncremental, DefaultMaxIncremental), 1)
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
}

// job is a snapshot to take.
type job struct {
	kind Kind
	slot uint64
	hash core.Hash // zero when the event had no bank: read from the block
}

// Snapshotter takes snapshots of a ledger at its rooted slots, on a goroutine of its own.
type Snapshotter struct {
	cfg Config
	l   *ledger.Ledger
	log *slog.Logger

	mu          sync.Mutex
	infos       []Info // on disk, sorted as List
	pendingFull *job
	pendingIncr *job
	closed      bool

	wake chan struct{}
	stop chan struct{}
	done chan struct{}
}

// New lists the snapshots already in the directory (removing any left half-written), subscribes to l's rooted
// slots and starts taking snapshots. Close it before closing l.
func New(l *ledger.Ledger, cfg Config) (*Snapshotter, error) {
	if cfg.LedgerDir == "" {
		return nil, errors.New("snapshot: no ledger directory")
	}
	cfg.defaults()
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(cfg.Dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			if err := os.RemoveAll(filepath.Join(cfg.Dir, e.Name())); err != nil {
				return nil, err
			}
		}
	}
	infos, err := List(cfg.Dir)
	if err != nil {
		return nil, err
	}
	s := &Snapshotter{
		cfg: cfg, l: l, log: cfg.Logger, infos: infos,
		wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}),
	}
	l.OnEvent(s.onEvent)
	go s.run()
	return s, nil
}

// Dir is the directory the snapshots are written to.
func (s *Snapshotter) Dir() string { return s.cfg.Dir }

// Snapshots returns the snapshots on disk, each kind ordered by slot, fulls first.
func (s *Snapshotter) Snapshots() []Info {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.infos)
}

// Highest returns the slots getHighestSnapshotSlot reports: the newest full snapshot and the newest incremental
// one based on it (nil when none); ok is false while there is no full snapshot.
func (s *Snapshotter) Highest() (full uint64, incremental *uint64, ok bool) {
	s.mu.Lock()
	f, inc, ok := Highest(s.infos)
	s.mu.Unlock()
	if inc != nil {
		incremental = &inc.Slot
	}
	return f.Slot, incremental, ok
}

// Close stops taking snapshots, waiting for one being written. Rooted slots reported afterwards are ignored.
func (s *Snapshotter) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		<-s.done
		return
	}
	s.closed = true
	s.mu.Unlock()
	close(s.stop)
	<-s.done
}

// onEvent runs on the block producer's goroutine: it only notes the job and wakes the worker. A full snapshot
// makes a pending older incremental one pointless; a newer job of a kind replaces a pending one of that kind,
// so a slow disk skips snapshots instead of queueing them.
func (s *Snapshotter) onEvent(e ledger.Event) {
	if e.Kind != ledger.SlotRooted || e.Slot == 0 {
		return
	}
	j := job{slot: e.Slot}
	switch {
	case e.Slot%s.cfg.FullInterval == 0:
		j.kind = Full
	case !s.cfg.NoIncremental && e.Slot%s.cfg.IncrementalInterval == 0:
		j.kind = Incremental
	default:
		return
	}
	if e.Bank != nil {
		j.hash = e.Bank.Hash
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	if j.kind == Full {
		s.pendingFull, s.pendingIncr = &j, nil
	} else {
		s.pendingIncr = &j
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *Snapshotter) next() (job, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if j := s.pendingFull; j != nil {
		s.pendingFull = nil
		return *j, true
	}
	if j := s.pendingIncr; j != nil {
		s.pendingIncr = nil
		return *j, true
	}
	return job{}, false
}

func (s *Snapshotter) run() {
	defer close(s.done)
	for {
		select {
		case <-s.stop:
			return
		case <-s.wake:
		}
		for {
			select {
			case <-s.stop:
				return
			default:
			}
			j, ok := s.next()
			if !ok {
				break
			}
			if info, err := s.take(j); err != nil {
				s.log.Error("snapshot failed", "kind", j.kind, "slot", j.slot, "err", err)
			} else if info != nil {
				s.log.Info("snapshot taken", "kind", info.Kind, "slot", info.Slot, "path", info.Path)
			}
		}
	}
}

// take writes the snapshot of j into a temporary directory and renames it into place, then prunes. It returns
// nil without error for an incremental snapshot that has no full one to be based on.
func (s *Snapshotter) take(j job) (*Info, error) {
	info := Info{Kind: j.kind, Slot: j.slot}
	if j.kind == Incremental {
		s.mu.Lock()
		full, _, ok := Highest(s.infos)
		s.mu.Unlock()
		if !ok || full.Slot >= j.slot {
			return nil, nil
		}
		info.Base = full.Slot
	}
	hash := j.hash
	if hash == (core.Hash{}) {
		b, found, err := s.l.Block(j.slot, ledger.Finalized)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("the block of slot %d is missing", j.slot)
		}
		hash = b.Blockhash
	}
	info.Hash = hash.String()
	info.Path = filepath.Join(s.cfg.Dir, info.Name())
	tmp := filepath.Join(s.cfg.Dir, tmpPrefix+info.Name())
	if err := os.RemoveAll(tmp); err != nil {
		return nil, err
	}
	if err := s.write(tmp); err != nil {
		return nil, errors.Join(err, os.RemoveAll(tmp))
	}
	if err := os.Rename(tmp, info.Path); err != nil {
		return nil, errors.Join(err, os.RemoveAll(tmp))
	}
	if err := ledger.SyncDir(s.cfg.Dir); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.infos = append(s.infos, info)
	sortInfos(s.infos)
	keep, drop := retain(s.infos, s.cfg.MaxFull, s.cfg.MaxIncremental)
	s.infos = keep
	s.mu.Unlock()
	for _, d := range drop {
		if err := os.RemoveAll(d.Path); err != nil {
			s.log.Warn("removing an old snapshot failed", "path", d.Path, "err", err)
		}
	}
	return &info, nil
}

// write fills dir with a checkpoint of the database and the genesis files.
func (s *Snapshotter) write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := s.l.Store().Checkpoint(filepath.Join(dir, storeDir)); err != nil {
		return err
	}
	if err := ledger.CopyDirFiles(s.cfg.LedgerDir, dir); err != nil {
		return err
	}
	return ledger.SyncDir(dir)
}

// retain splits infos (sorted as List) into those to keep and those to remove: the newest maxFull full
// snapshots; the newest maxIncr incremental ones based on the newest full snapshot; the newest one based on each
// other kept full snapshot; no incremental snapshot of a removed full one.
func retain(infos []Info, maxFull, maxIncr int) (keep, drop []Info) {
	var fulls []uint64
	for _, i := range infos {
		if i.Kind == Full {
			fulls = append(fulls, i.Slot)
		}
	}
	keptFull := map[uint64]bool{}
	for k := len(fulls) - 1; k >= 0 && len(fulls)-k <= maxFull; k-- {
		keptFull[fulls[k]] = true
	}
	var newest uint64
	if len(fulls) > 0 {
		newest = fulls[len(fulls)-1]
	}
	perBase := map[uint64]int{} // incremental snapshots kept so far per base, counting from the newest
	keepIncr := map[int]bool{}
	for k := len(infos) - 1; k >= 0; k-- {
		i := infos[k]
		if i.Kind != Incremental || !keptFull[i.Base] {
			continue
		}
		limit := 1
		if i.Base == newest {
			limit = maxIncr
		}
		if perBase[i.Base] < limit {
			perBase[i.Base]++
			keepIncr[k] = true
		}
	}
	for k, i := range infos {
		if (i.Kind == Full && keptFull[i.Slot]) || (i.Kind == Incremental && keepIncr[k]) {
			keep = append(keep, i)
		} else {
			drop = append(drop, i)
		}
	}
	return keep, drop
}

// Resolve finds the snapshot a node starts from: path itself when it is a snapshot (a directory holding the
// database and genesis.json), otherwise the newest snapshot in the directory path (the one with the highest
// slot, an incremental one winning a tie, as it was taken later).
func Resolve(path string) (string, error) {
	if isSnapshot(path) {
		return path, nil
	}
	infos, err := List(path)
	if err != nil {
		return "", err
	}
	slices.SortStableFunc(infos, func(a, b Info) int { return cmp.Compare(a.Slot, b.Slot) })
	if len(infos) == 0 {
		return "", fmt.Errorf("snapshot: %s is neither a snapshot nor a directory of snapshots", path)
	}
	return infos[len(infos)-1].Path, nil
}

func isSnapshot(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, storeDir))
	if err != nil || !st.IsDir() {
		return false
	}
	_, err = os.Stat(filepath.Join(dir, ledger.GenesisFile))
	return err == nil
}

// Restore makes ledgerDir a copy of the snapshot at path (see Resolve), so that ledger.Open resumes the chain
// from it, and returns the snapshot used. An existing ledgerDir that is not empty is an error unless replace;
// then it is replaced once the copy is complete (the snapshot may lie inside it).
func Restore(path, ledgerDir string, replace bool) (string, error) {
	src, err := Resolve(path)
	if err != nil {
		return "", err
	}
	if entries, err := os.ReadDir(ledgerDir); err == nil && len(entries) > 0 && !replace {
		return "", fmt.Errorf("snapshot: the ledger directory %s is not empty (--reset replaces it)", ledgerDir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	ledgerDir = filepath.Clean(ledgerDir)
	tmp := ledgerDir + ".restoring"
	if err := os.RemoveAll(tmp); err != nil {
		return "", err
	}
	if err := copyTree(src, tmp); err != nil {
		return "", errors.Join(fmt.Errorf("snapshot: restoring %s: %w", src, err), os.RemoveAll(tmp))
	}
	if err := os.RemoveAll(ledgerDir); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, ledgerDir); err != nil {
		return "", err
	}
	return src, ledger.SyncDir(filepath.Dir(ledgerDir))
}

// copyTree copies the regular files and directories under src into dst. Table files are copied, not linked:
// the snapshot must outlive whatever the new ledger does to its database.
func copyTree(src, dst string) error {
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			return ledger.CopyFile(p, target)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return filepath.WalkDir(dst, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			err = ledger.SyncDir(p)
		}
		return err
	})
}
