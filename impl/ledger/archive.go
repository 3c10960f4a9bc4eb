package ledger

import (
	"sync"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Archive is long-term storage of rooted history (Bigtable, in the reference's layout): it holds every block
// the node rooted, and the ledger turns to it for what lies below its first local block, as the reference's
// RPC turns to its Bigtable ledger storage. Its errors reach the caller as they are (-32603 with the cause);
// they are not faults of the local store.
type Archive interface {
	// Block returns a block and its transactions in block order; found is false when no block was stored.
	Block(slot uint64) (info *BlockInfo, txs []*TxRecord, found bool, err error)
	// Blocks lists, ascending, up to limit slots from start on that have a block.
	Blocks(start uint64, limit int) ([]uint64, error)
	// FirstBlock is the oldest slot it holds a block of.
	FirstBlock() (slot uint64, found bool, err error)
	// Transaction returns a stored transaction (with its block's time).
	Transaction(sig core.Signature) (*TxRecord, bool, error)
	// TransactionStatus is where a transaction landed and how it ended, without reading its block.
	TransactionStatus(sig core.Signature) (slot uint64, txErr *runtime.TransactionError, found bool, err error)
	// SignaturesForAddress lists an address's transactions newest first, strictly older than before and newer
	// than until when given, at most limit. The records carry the signature, slot, index, error, memo and block
	// time only (Memo set, MemoKnown true).
	SignaturesForAddress(addr core.Pubkey, before, until *core.Signature, limit int) ([]*TxRecord, error)
}

// archives holds each ledger's archive; set once at wiring, before the ledger serves.
var archives sync.Map // *Ledger -> *archiveEntry

// archiveEntry is an archive and what the ledger knows of its first block.
type archiveEntry struct {
	a Archive

	mu      sync.Mutex
	known   bool // first and empty were read
	empty   bool
	first   uint64
	checked time.Time
}

// SetArchive makes a the ledger's long-term storage.
func (l *Ledger) SetArchive(a Archive) { archives.Store(l, &archiveEntry{a: a}) }

func (l *Ledger) archiveEntry() *archiveEntry {
	if e, ok := archives.Load(l); ok {
		return e.(*archiveEntry)
	}
	return nil
}

// archive returns the ledger's archive, or nil.
func (l *Ledger) archive() Archive {
	if e := l.archiveEntry(); e != nil {
		return e.a
	}
	return nil
}

// archiveBelow returns the archive when it may hold history the local ledger does not, for the lookups that
// do not name a slot (a signature, an address's list): a local ledger that starts at slot 0 holds everything,
// and so does one whose first block is not above the archive's. Those lookups then never wait on the archive,
// nor fail when it is down. An archive whose first block cannot be read is asked, so its failure is reported.
func (l *Ledger) archiveBelow() Archive {
	e := l.archiveEntry()
	local := l.FirstAvailableBlock()
	if e == nil || local == 0 {
		return nil
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	// A first block, once there, stays (uploads go up); an empty archive is looked at again now and then.
	if !e.known || e.empty && time.Since(e.checked) > 10*time.Second {
		s, found, err := e.a.FirstBlock()
		if err != nil {
			return e.a
		}
		e.known, e.empty, e.first, e.checked = true, !found, s, time.Now()
	}
	if e.empty || e.first >= local {
		return nil
	}
	return e.a
}

// HasArchive reports whether history below the first local block is served from long-term storage.
func (l *Ledger) HasArchive() bool { return l.archive() != nil }

// ArchivedBlock returns a block from long-term storage (found false without one, or without an archive).
// BlockTransactions answers its transactions without reading the local store.
func (l *Ledger) ArchivedBlock(slot uint64) (*BlockInfo, bool, error) {
	a := l.archive()
	if a == nil {
		return nil, false, nil
	}
	info, txs, found, err := a.Block(slot)
	if err != nil || !found {
		return nil, false, err
	}
	if txs == nil {
		txs = []*TxRecord{}
	}
	info.archived = txs
	return info, true, nil
}

// FirstAvailableBlockWithArchive is getFirstAvailableBlock: the older of the first local block and the
// archive's first block. As the reference, an archive that cannot be read leaves the local answer.
func (l *Ledger) FirstAvailableBlockWithArchive() uint64 {
	first := l.FirstAvailableBlock()
	e := l.archiveEntry()
	if e == nil {
		return first
	}
	e.mu.Lock()
	known, empty, archived := e.known, e.empty, e.first
	e.mu.Unlock()
	if !known || empty {
		s, found, err := e.a.FirstBlock()
		if err != nil || !found {
			return first
		}
		// A first block, once there, stays: later calls need not ask.
		e.mu.Lock()
		e.known, e.empty, e.first, e.checked = true, false, s, time.Now()
		e.mu.Unlock()
		archived = s
	}
	return min(first, archived)
}

// archivedBlocks is the part of a getBlocks range below the first local block, from the archive: up to limit
// slots in [start, min(end, first-1)]. ok is false when the ledger has no archive or start is local.
func (l *Ledger) archivedBlocks(start, end uint64, limit int) (slots []uint64, ok bool, err error) {
	a := l.archive()
	first := l.FirstAvailableBlock()
	if a == nil || start >= first {
		return nil, false, nil
	}
	last := min(end, first-1)
	n := limit
	if n <= 0 || uint64(n) > last-start+1 {
		n = int(min(last-start+1, 1<<31))
	}
	got, err := a.Blocks(start, n)
	if err != nil {
		return nil, true, err
	}
	out := make([]uint64, 0, len(got))
	for _, s := range got {
		if s >= start && s <= last {
			out = append(out, s)
		}
	}
	return out, true, nil
}

// archivedSignatures continues an address's list in the archive after the local part (have), when the local
// part is shorter than limit and did not stop at until.
func (l *Ledger) archivedSignatures(addr core.Pubkey, before, until *core.Signature, limit int, have []*TxRecord, untilLocal bool) ([]*TxRecord, error) {
	a := l.archiveBelow()
	if a == nil || len(have) >= limit || untilLocal {
		return have, nil
	}
	from := before
	if len(have) > 0 {
		s := have[len(have)-1].Tx.Signature()
		from = &s
	}
	more, err := a.SignaturesForAddress(addr, from, until, limit-len(have))
	if err != nil {
		return nil, err
	}
	seen := make(map[core.Signature]bool, len(have))
	for _, r := range have {
		seen[r.Tx.Signature()] = true
	}
	for _, r := range more {
		if sig := r.Tx.Signature(); !seen[sig] {
			seen[sig] = true
			have = append(have, r)
		}
	}
	return have, nil
}
