package ledger

import (
	"fmt"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/store"
)

// ProgramAccounts calls fn with every existing account owned by owner in this bank, in no particular order,
// until fn returns false. Its cost follows the owner's accounts (the store's owner index), not the ledger.
func (b *Bank) ProgramAccounts(owner core.Pubkey, fn func(core.Pubkey, runtime.Account) bool) error {
	if owner == core.SysvarOwnerID {
		return b.sysvarAccounts(fn)
	}
	_, err := b.scanMerged(func(at uint64, yield func(store.Pubkey, store.Account) bool) error {
		return b.st.ProgramAccounts(store.Pubkey(owner), at, yield)
	}, func(a *runtime.Account) bool { return a.Owner == owner }, fn)
	return b.fault.report(err)
}

// ScanAccounts calls fn with every existing account of this bank, sysvars included, until fn returns false.
func (b *Bank) ScanAccounts(fn func(core.Pubkey, runtime.Account) bool) error {
	stopped, err := b.scanMerged(func(at uint64, yield func(store.Pubkey, store.Account) bool) error {
		return b.st.ScanAccounts(at, func(pk store.Pubkey, _ uint64, sa store.Account) bool { return yield(pk, sa) })
	}, func(*runtime.Account) bool { return true }, fn)
	if err != nil || stopped {
		return b.fault.report(err)
	}
	return b.sysvarAccounts(fn)
}

// scanMerged runs a store scan at the bank's store slot with the bank's own writes laid over it: a stored
// account the bank rewrote is skipped, and the rewritten accounts that still exist and pass keep follow. It
// reports whether fn stopped the scan.
func (b *Bank) scanMerged(scan func(at uint64, yield func(store.Pubkey, store.Account) bool) error,
	keep func(*runtime.Account) bool, fn func(core.Pubkey, runtime.Account) bool) (bool, error) {
	// The fork's pending accounts before the bank's writes, which replace them: the fork writes an account into
	// the bank before it stops being pending, so a scan beside that sees it one way or the other.
	written := map[core.Pubkey]runtime.Account{}
	b.fork.pendingAccounts(func(k core.Pubkey, a runtime.Account) { written[k] = a })
	b.overlayAccounts(func(k core.Pubkey, a runtime.Account) { written[k] = a })
	at, empty := b.storeSlot()
	if !empty {
		stopped := false
		err := scan(at, func(pk store.Pubkey, sa store.Account) bool {
			if _, shadowed := written[core.Pubkey(pk)]; shadowed || sa.Lamports == 0 {
				return true
			}
			stopped = !fn(core.Pubkey(pk), fromStore(sa))
			return !stopped
		})
		if err != nil || stopped {
			return stopped, err
		}
	}
	for k, a := range written {
		if a.Lamports > 0 && keep(&a) && !fn(k, a) {
			return true, nil
		}
	}
	return false, nil
}

// sysvarIDs are the sysvars a bank holds as accounts.
var sysvarIDs = []core.Pubkey{
	core.SysvarClockID, core.SysvarEpochRewardsID, core.SysvarEpochScheduleID, core.SysvarFeesID,
	core.SysvarLastRestartSlotID, core.SysvarRecentBlockhashesID, core.SysvarRentID, core.SysvarSlotHashesID,
	core.SysvarSlotHistoryID, core.SysvarStakeHistoryID,
}

func (b *Bank) sysvarAccounts(fn func(core.Pubkey, runtime.Account) bool) error {
	env := b.ExecEnv()
	for _, id := range sysvarIDs {
		if a, ok := env.SysvarAccount(id); ok && !fn(id, a) {
			return nil
		}
	}
	return nil
}

func fromStore(sa store.Account) runtime.Account {
	return runtime.Account{Lamports: sa.Lamports, Owner: core.Pubkey(sa.Owner), Executable: sa.Executable,
		RentEpoch: sa.RentEpoch, Data: sa.Data}
}

// highest returns the newest slot a history read at commitment c may show.
func (l *Ledger) highest(c Commitment) uint64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if c == Finalized {
		return l.root
	}
	return l.confirmed
}

// Block returns the stored block of slot when it has reached commitment c (confirmed or finalized).
func (l *Ledger) Block(slot uint64, c Commitment) (*BlockInfo, bool, error) {
	if slot > l.highest(c) {
		return nil, false, nil
	}
	raw, found, err := l.st.GetBlock(slot)
	if err != nil || !found {
		return nil, false, l.fault.report(err)
	}
	info, err := decodeBlock(raw)
	if err != nil {
		return nil, false, l.fault.report(err)
	}
	return info, true, nil
}

// BlockTransactions returns the transactions of a block, in block order.
func (l *Ledger) BlockTransactions(info *BlockInfo) ([]*TxRecord, error) {
	if info.archived != nil {
		return info.archived, nil
	}
	out := make([]*TxRecord, 0, len(info.Signatures))
	for _, sig := range info.Signatures {
		rec, found, err := l.transaction(sig)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, fmt.Errorf("ledger: a transaction of block %d is missing", info.Slot)
		}
		rec.BlockTime = info.BlockTime
		out = append(out, rec)
	}
	return out, nil
}

// Transaction returns the stored transaction whose first signature is sig, when its slot has reached c.
func (l *Ledger) Transaction(sig core.Signature, c Commitment) (*TxRecord, bool, error) {
	rec, found, err := l.transaction(sig)
	if err == nil && !found {
		if a := l.archiveBelow(); a != nil {
			return a.Transaction(sig)
		}
	}
	if err != nil || !found || rec.Slot > l.highest(c) {
		return nil, false, err
	}
	rec.BlockTime, _ = l.BlockTime(rec.Slot)
	return rec, true, nil
}

func (l *Ledger) transaction(sig core.Signature) (*TxRecord, bool, error) {
	r, found, err := l.st.GetTransaction(store.Signature(sig))
	if err != nil || !found {
		return nil, false, l.fault.report(err)
	}
	tx, meta, err := decodeTx(r.Data)
	if err != nil {
		return nil, false, l.fault.report(err)
	}
	return &TxRecord{Slot: r.Slot, Index: r.Index, Tx: tx, Meta: meta}, true, nil
}

// BlockTime returns the time of the block of slot, when the ledger has it.
func (l *Ledger) BlockTime(slot uint64) (int64, bool) {
	l.mu.RLock()
	if b, ok := l.banks[slot]; ok {
		l.mu.RUnlock()
		return b.BlockTime, true
	}
	l.mu.RUnlock()
	raw, found, err := l.st.GetBlock(slot)
	if err != nil || !found {
		_ = l.fault.report(err) // the caller shows no time; the fault is logged and makes the node unhealthy
		return 0, false
	}
	info, err := decodeBlock(raw)
	if err != nil {
		_ = l.fault.report(err)
		return 0, false
	}
	return info.BlockTime, true
}

// Blocks returns the slots of the stored blocks in [start, end] that reached commitment c, at most limit
// (0: no limit).
func (l *Ledger) Blocks(start, end uint64, limit int, c Commitment) ([]uint64, error) {
	end = min(end, l.highest(c))
	if start > end {
		return []uint64{}, nil
	}
	old, archived, err := l.archivedBlocks(start, end, limit)
	if err != nil {
		return nil, err
	}
	if archived {
		if start = l.FirstAvailableBlock(); start > end || limit > 0 && len(old) >= limit {
			return old, nil
		}
		if limit > 0 {
			limit -= len(old)
		}
	}
	out, err := l.st.BlocksInRange(start, end, limit)
	out = append(old, out...)
	if err != nil {
		return nil, l.fault.report(err) // never a shorter list: missing slots would read as skipped
	}
	if out == nil {
		out = []uint64{}
	}
	return out, nil
}

// FirstAvailableBlock is the oldest block the ledger holds.
func (l *Ledger) FirstAvailableBlock() uint64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.firstSlot
}

// SignaturesForAddress returns the transactions that mention addr, newest first, strictly older than before
// and newer than until (when given), at most limit, among those that reached commitment c.
func (l *Ledger) SignaturesForAddress(addr core.Pubkey, before, until *core.Signature, limit int, c Commitment) ([]*TxRecord, error) {
	cursor := &store.SigCursor{Slot: l.highest(c) + 1}
	if before != nil {
		r, found, err := l.st.GetTransaction(store.Signature(*before))
		if err != nil {
			return nil, l.fault.report(err)
		}
		if !found {
			return l.archivedSignatures(addr, before, until, limit, []*TxRecord{}, false)
		}
		if r.Slot < cursor.Slot {
			cursor = &store.SigCursor{Slot: r.Slot, Index: r.Index}
		}
	}
	var untilAt *store.SigCursor
	if until != nil {
		r, found, err := l.st.GetTransaction(store.Signature(*until))
		if err != nil {
			return nil, l.fault.report(err)
		}
		if found {
			untilAt = &store.SigCursor{Slot: r.Slot, Index: r.Index}
		}
	}
	entries, err := l.st.SignaturesForAddress(store.Pubkey(addr), cursor, limit)
	if err != nil {
		return nil, l.fault.report(err)
	}
	out := make([]*TxRecord, 0, len(entries))
	times := map[uint64]int64{}
	for _, e := range entries {
		if untilAt != nil && (e.Slot < untilAt.Slot || e.Slot == untilAt.Slot && e.Index <= untilAt.Index) {
			break
		}
		rec, found, err := l.transaction(core.Signature(e.Signature))
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		t, ok := times[e.Slot]
		if !ok {
			t, _ = l.BlockTime(e.Slot)
			times[e.Slot] = t
		}
		rec.BlockTime = t
		out = append(out, rec)
	}
	return l.archivedSignatures(addr, before, until, limit, out, untilAt != nil)
}

// SignatureStatus is what getSignatureStatuses reports for a known signature.
type SignatureStatus struct {
	Slot uint64
	// Confirmations is nil once the slot is finalized.
	Confirmations *uint64
	Err           *runtime.TransactionError
	Status        Commitment
}

// maxLockoutHistory caps the confirmation count, as the reference's vote lockouts do.
const maxLockoutHistory = 31

// SignatureStatuses looks the signatures up in the status cache, and with searchHistory also in the stored
// history (which answers finalized transactions only).
func (l *Ledger) SignatureStatuses(sigs []core.Signature, searchHistory bool) ([]*SignatureStatus, error) {
	_, confirmed, root := l.Slots()
	out := make([]*SignatureStatus, len(sigs))
	for i, sig := range sigs {
		l.statusMu.RLock()
		st, ok := l.status.bySig[sig]
		l.statusMu.RUnlock()
		if ok {
			txErr := st.err
			if txErr == errRestoredFailure {
				rec, found, err := l.transaction(sig)
				if err != nil {
					return nil, err
				}
				if found {
					txErr = rec.Meta.Err
				}
			}
			out[i] = statusAt(st.slot, txErr, confirmed, root)
			continue
		}
		if !searchHistory {
			continue
		}
		rec, found, err := l.transaction(sig)
		if err != nil {
			return nil, err
		}
		if found && rec.Slot <= root {
			out[i] = statusAt(rec.Slot, rec.Meta.Err, confirmed, root)
		} else if !found {
			if a := l.archiveBelow(); a != nil {
				slot, txErr, ok, err := a.TransactionStatus(sig)
				if err != nil {
					return nil, err
				}
				if ok {
					out[i] = statusAt(slot, txErr, confirmed, root)
				}
			}
		}
	}
	return out, nil
}

func statusAt(slot uint64, err *runtime.TransactionError, confirmed, root uint64) *SignatureStatus {
	s := &SignatureStatus{Slot: slot, Err: err}
	switch {
	case slot <= root:
		s.Status = Finalized
	case slot <= confirmed:
		n := min(confirmed-slot+1, maxLockoutHistory)
		s.Confirmations, s.Status = &n, Confirmed
	default:
		n := uint64(0)
		s.Confirmations, s.Status = &n, Processed
	}
	return s
}

// PrioritizationFee is the prioritization fee of one recent slot.
type PrioritizationFee struct {
	Slot uint64
	Fee  uint64
}

// RecentPrioritizationFees returns, for each of the last frozen slots the ledger keeps (up to 150), the lowest
// prioritization fee a transaction write-locking any of accounts paid (see Bank.PrioritizationFee).
func (l *Ledger) RecentPrioritizationFees(accounts []core.Pubkey) []PrioritizationFee {
	l.mu.RLock()
	recent := append([]*feeSummary(nil), l.recentFees...)
	l.mu.RUnlock()
	out := make([]PrioritizationFee, 0, len(recent))
	for _, f := range recent {
		out = append(out, PrioritizationFee{Slot: f.slot, Fee: f.fee(accounts)})
	}
	return out
}
