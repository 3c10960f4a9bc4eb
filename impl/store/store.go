// Package store is ledgerd's persistence layer: accounts versioned by slot, blocks, transactions, per-address
// signature lists, secondary indexes and metadata, in one pebble database (key layout in keys.go).
//
// Concurrency: every read method is safe for any number of concurrent goroutines; writes (Batch.Commit, Root)
// are serialized by the store, and are meant to come from the ledger's single block producer.
//
// Durability: the ledger commits each frozen slot as one synced batch (Commit(true)) before it reports the slot
// confirmed, and Root always syncs, so a SIGKILL or a power loss loses nothing reported confirmed or finalized:
// one fsync per slot, never one per write. A synced commit flushes the write-ahead log, which is sequential, so
// it makes every earlier batch durable as well; an unsynced one (Commit(false)) may be lost in a crash, but only
// as a suffix of whole batches in commit order.
package store

import (
	"cmp"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Pubkey is an account address. core.Pubkey converts to it directly.
type Pubkey = [32]byte

// Signature is a transaction signature. core.Signature converts to it directly.
type Signature = [64]byte

// Options tunes a Store. The zero value suits a small node.
type Options struct {
	// CacheSize is the block cache, in bytes (default 8 MiB), on top of the memtables.
	CacheSize int64
	// MemTableSize is the size of one memtable, in bytes (default 4 MiB; at most two are held).
	MemTableSize uint64
	// InMemory keeps the whole database in memory (dir is then only a name): for tests of other packages.
	InMemory bool
	// Logf receives pebble's informational messages; nil drops them.
	Logf func(format string, args ...any)
	// OnError receives every error pebble meets in the background (a flush or compaction that failed: a full
	// disk, a table whose checksum does not match). Such an error means the store may no longer hold what was
	// written, so the owner must stop trusting it; nil only logs them through Logf.
	OnError func(error)
	// FS is the file system (tests: a crash-simulating or full one); nil is the operating system's.
	FS vfs.FS
	// MinFreeBytes is the free space a commit leaves alone (default 32 MiB): below it, commits fail at once
	// with ENOSPC instead of reaching pebble, whose write-ahead log cannot recover from a failed write (its
	// commit pipeline is lost until the database is reopened). The reserve also leaves pebble room to flush
	// and compact what it holds. A file system that cannot report its free space is not checked.
	MinFreeBytes uint64
}

const (
	defaultCacheSize    = 8 << 20
	defaultMemTableSize = 4 << 20
	defaultMinFreeBytes = 32 << 20
	comparerName        = "ledgerd.store.v1"
	memTableStopWrites  = 2
	memTableBudget      = memTableStopWrites + 1 // the queued memtables plus one being released
)

// comparer orders keys bytewise and splits account keys after the pubkey, so bloom filters work for account
// reads (see keySplit). The successor of an account prefix must sort after every version under it, so it is
// the next pubkey's prefix, not the prefix plus a zero byte (which would sort before the versions).
var comparer = func() *pebble.Comparer {
	c := *pebble.DefaultComparer
	c.Split = keySplit
	c.ImmediateSuccessor = func(dst, a []byte) []byte {
		if len(a) == accountPrefLen && a[0] == spaceAccount {
			return append(dst, prefixEnd(a)...)
		}
		return append(append(dst, a...), 0)
	}
	c.Name = comparerName
	return &c
}()

// Store is an open database.
type Store struct {
	db *pebble.DB

	fs      vfs.FS
	dir     string
	minFree uint64

	writeMu    sync.Mutex // serializes commits and Root
	failed     error      // guarded by writeMu: set once pebble failed a write; every later write fails with it
	dirtyFloor uint64     // guarded by writeMu: d-entries below it are processed
	rootStats  rootStats  // guarded by writeMu: what the last Root did (tests)

	reads readCache // decoded accounts read often and rarely written; emptied by every commit
}

// Open opens (creating if needed) the database in dir.
func Open(dir string, opts Options) (*Store, error) {
	cacheSize := opts.CacheSize
	if cacheSize <= 0 {
		cacheSize = defaultCacheSize
	}
	memTable := opts.MemTableSize
	if memTable == 0 {
		memTable = defaultMemTableSize
	}
	// Pebble charges its memtables to the block cache (a flushed one stays charged until no reader holds it):
	// without room for them the cache would be starved and hold nothing at all.
	cache := pebble.NewCache(cacheSize + memTableBudget*int64(memTable))
	defer cache.Unref() // the DB holds its own reference

	po := &pebble.Options{
		Cache:                       cache,
		Comparer:                    comparer,
		FormatMajorVersion:          pebble.FormatNewest,
		MemTableSize:                memTable,
		MemTableStopWritesThreshold: memTableStopWrites, // also bounds the recycled WAL files kept on disk (threshold+1)
		MaxOpenFiles:                256,
		MaxManifestFileSize:         8 << 20, // rotate the manifest early: its history is dead weight on disk
		CompactionConcurrencyRange:  func() (int, int) { return 1, 1 },
		Logger:                      logger{logf: opts.Logf, onError: opts.OnError},
		FS:                          opts.FS,
	}
	onError := opts.OnError
	if onError == nil {
		onError = func(err error) { log.Print(err) }
	}
	po.EventListener = &pebble.EventListener{
		BackgroundError: onError,
		// Without a handler pebble ends the process on corruption; the owner decides instead (the read or the
		// compaction that met it fails with an error as well).
		DataCorruption: func(info pebble.DataCorruptionInfo) {
			onError(fmt.Errorf("store: on-disk corruption in %s: %w", info.Path, info.Details))
		},
	}
	if po.FS == nil {
		po.FS = vfs.Default
		if opts.InMemory {
			po.FS = vfs.NewMem()
		}
	}
	for i := range po.Levels {
		po.Levels[i] = pebble.LevelOptions{FilterPolicy: bloom.FilterPolicy(10), FilterType: pebble.TableFilter}
	}
	db, err := pebble.Open(dir, po)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", dir, err)
	}
	// Pebble syncs the files in dir but not dir's own entry in its parent: a new ledger directory could vanish
	// in a crash, synced writes and all.
	if err := syncDir(po.FS, filepath.Dir(dir)); err != nil {
		return nil, errors.Join(fmt.Errorf("store: sync parent of %s: %w", dir, err), db.Close())
	}
	s := &Store{db: db, fs: po.FS, dir: dir, minFree: cmp.Or(opts.MinFreeBytes, defaultMinFreeBytes)}
	floor, _, err := s.GetMetaU64(metaDirtyFloor)
	if err != nil {
		return nil, errors.Join(err, db.Close())
	}
	s.dirtyFloor = floor
	return s, nil
}

func syncDir(fs vfs.FS, dir string) error {
	d, err := fs.OpenDir(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// Close closes the database; buffered, unsynced writes are flushed to the write-ahead log first. The Store must
// not be used afterwards.
func (s *Store) Close() error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.db == nil {
		return nil
	}
	err := s.db.Close()
	s.db = nil
	return err
}

// Flush writes the memtables out to tables (tests: a ledger whose history sits in tables, as an old one's does).
func (s *Store) Flush() error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	if s.failed != nil {
		return s.failed
	}
	if err := s.checkSpace(); err != nil {
		return err
	}
	return s.db.Flush()
}

// commit applies b; the caller holds writeMu. A failure of pebble's commit pipeline (a write-ahead log write or
// sync that failed) reaches pebble's Fatalf, which panics; it is recovered here and becomes the store's
// permanent write error, since pebble can take no more writes, while reads keep working.
func (s *Store) commit(b *pebble.Batch, opts *pebble.WriteOptions) (err error) {
	if s.failed != nil {
		return s.failed
	}
	if err := s.checkSpace(); err != nil {
		return err
	}
	// Whatever the commit did, cached versions may be stale now (a commit of accounts, a revert, a prune).
	defer s.reads.invalidate()
	defer func() {
		if r := recover(); r != nil {
			f, ok := r.(fatalError)
			if !ok {
				panic(r)
			}
			s.failed = fmt.Errorf("store: pebble failed a write and takes no more until the node restarts: %s", string(f))
			err = s.failed
		}
	}()
	return b.Commit(opts)
}

// checkSpace fails with ENOSPC when the disk has less than the reserve free.
func (s *Store) checkSpace() error {
	u, err := s.fs.GetDiskUsage(s.dir)
	if err != nil {
		return nil // the file system cannot tell (in memory); pebble's own errors remain
	}
	if u.AvailBytes < s.minFree {
		return fmt.Errorf("store: %d bytes free on the disk of %s, less than the %d kept in reserve: %w",
			u.AvailBytes, s.dir, s.minFree, syscall.ENOSPC)
	}
	return nil
}

// fatalError is the panic value of logger.Fatalf.
type fatalError string

// logger adapts pebble's logging: information goes to Logf (or nowhere). A fatal error is reported to
// onError, and then, as pebble expects Fatalf not to return: a commit's panics, and commit recovers it; any
// other (a background flush or compaction that could not record its result, pebble's own invariants) ends the
// process with that message and status 2, as a panic would but without a stack trace, since pebble's state
// can no longer be trusted and a restart replays the log.
type logger struct {
	logf    func(string, ...any)
	onError func(error)
}

func (l logger) Infof(format string, args ...any) {
	if l.logf != nil {
		l.logf(format, args...)
	}
}

func (l logger) Errorf(format string, args ...any) { l.Infof(format, args...) }

func (l logger) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if l.onError != nil {
		l.onError(errors.New("store: pebble: " + msg))
	} else {
		log.Print("store: pebble: ", msg)
	}
	if strings.HasPrefix(msg, fatalCommitPrefix) {
		panic(fatalError(msg))
	}
	log.Print("store: pebble failed and the node stops; restart it (the log is replayed): ", msg)
	os.Exit(2)
}

// fatalCommitPrefix opens pebble's Fatalf message for a failed commit (a write-ahead log write or sync), the
// one fatal error raised on the committing goroutine, where commit can recover it.
const fatalCommitPrefix = "pebble: fatal commit error"
