package store

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// Batch collects the writes of one slot and commits them atomically. A Batch is used by one goroutine; its
// methods only buffer, and a failure is reported by Commit.
type Batch struct {
	s       *Store
	b       *pebble.Batch
	maxSlot uint64            // the highest slot any write named; the slot of index entries of unwritten accounts
	written map[Pubkey]uint64 // accounts given a version here -> the highest such slot
	dirty   []dirtyEntry      // every (slot, account) version written here, for Root
	indexes []pendingIndex
	buf     []byte
	err     error
}

type dirtyEntry struct {
	slot   uint64
	pubkey Pubkey
}

type pendingIndex struct {
	kind        IndexKind
	key, pubkey Pubkey
}

// ErrBatchDone is returned by a Batch used after Commit or Discard.
var ErrBatchDone = errors.New("store: batch already committed or discarded")

// NewBatch starts a batch.
func (s *Store) NewBatch() *Batch {
	return &Batch{s: s, b: s.db.NewBatch(), written: make(map[Pubkey]uint64)}
}

func (b *Batch) set(k, v []byte) {
	if b.b == nil {
		b.err = ErrBatchDone
		return
	}
	if err := b.b.Set(k, v, nil); err != nil && b.err == nil {
		b.err = err
	}
}

func (b *Batch) noteSlot(slot uint64) {
	b.maxSlot = max(b.maxSlot, slot)
}

// PutAccount writes the version of pubkey at slot. Zero lamports records a deletion. It also files the account
// under its owner in the program-owner index.
func (b *Batch) PutAccount(pubkey Pubkey, slot uint64, acct Account) {
	b.noteSlot(slot)
	if prev, ok := b.written[pubkey]; !ok || slot > prev {
		b.written[pubkey] = slot
	}
	b.dirty = append(b.dirty, dirtyEntry{slot, pubkey})
	b.buf = appendAccount(b.buf[:0], &acct)
	b.set(accountKey(&pubkey, slot), b.buf)
	if acct.Lamports != 0 {
		b.indexAt(IndexProgramOwner, &acct.Owner, &pubkey, slot)
	}
}

// PutBlock stores the encoded block of slot.
func (b *Batch) PutBlock(slot uint64, block []byte) {
	b.noteSlot(slot)
	b.set(blockKey(slot), block)
}

// PutTransaction stores a transaction under its first signature: its slot, its index in the block and its
// encoding (opaque to the store).
func (b *Batch) PutTransaction(sig Signature, slot uint64, idx uint32, data []byte) {
	b.noteSlot(slot)
	v := make([]byte, 12, 12+len(data))
	binary.BigEndian.PutUint64(v, slot)
	binary.BigEndian.PutUint32(v[8:], idx)
	b.set(txKey(&sig), append(v, data...))
}

// AddSignatureForAddress appends sig, the transaction at (slot, idx), to the signature list of addr.
func (b *Batch) AddSignatureForAddress(addr Pubkey, slot uint64, idx uint32, sig Signature) {
	b.noteSlot(slot)
	b.set(sigKey(&addr, slot, idx), sig[:])
}

// AddIndex files pubkey under (kind, key). It asserts that the version of pubkey written in this batch (or, when
// the batch writes none, the account as of the batch's slot) matches; every version that matches must assert its
// entries again, because Root deletes the entries that the newest rooted version no longer asserts.
// IndexProgramOwner entries are made by PutAccount.
func (b *Batch) AddIndex(kind IndexKind, key, pubkey Pubkey) {
	if !kind.valid() {
		if b.err == nil {
			b.err = fmt.Errorf("store: unknown index kind %v", kind)
		}
		return
	}
	b.indexes = append(b.indexes, pendingIndex{kind, key, pubkey})
}

func (b *Batch) indexAt(kind IndexKind, key, pubkey *Pubkey, slot uint64) {
	b.set(indexKey(kind, key, pubkey), nil)
	b.set(reverseKey(pubkey, kind, key), binary.BigEndian.AppendUint64(nil, slot))
}

// SetMeta stores value under name.
func (b *Batch) SetMeta(name string, value []byte) {
	b.set(metaKey(name), value)
}

// SetMetaU64 stores v under name, for GetMetaU64.
func (b *Batch) SetMetaU64(name string, v uint64) {
	b.set(metaKey(name), binary.BigEndian.AppendUint64(nil, v))
}

// Commit applies the batch atomically. With sync it returns after the write-ahead log is on disk, so the batch
// and every batch committed before it survive a crash; without, a crash may lose it (and only whole batches, in
// commit order, are ever lost). The batch cannot be used afterwards.
func (b *Batch) Commit(sync bool) error {
	if b.b == nil {
		return ErrBatchDone
	}
	s := b.s
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	// Index slots and dirty entries are settled under the writer lock, so they agree with a concurrent Root.
	for _, ix := range b.indexes {
		slot, ok := b.written[ix.pubkey]
		if !ok {
			slot = b.maxSlot
		}
		b.indexAt(ix.kind, &ix.key, &ix.pubkey, slot)
	}
	for _, d := range b.dirty {
		// A write at or below a slot Root already passed is still examined, by the next Root.
		b.set(dirtyKey(max(d.slot, s.dirtyFloor), &d.pubkey), nil)
	}
	err := b.err
	if err == nil {
		opts := pebble.NoSync
		if sync {
			opts = pebble.Sync
		}
		err = s.commit(b.b, opts)
	}
	return errors.Join(err, b.discard())
}

// Discard drops the batch without writing it. It is a no-op after Commit.
func (b *Batch) Discard() {
	_ = b.discard()
}

func (b *Batch) discard() error {
	if b.b == nil {
		return nil
	}
	err := b.b.Close()
	b.b = nil
	return err
}
