package ledger

import (
	"errors"
	"log/slog"
	"sync"
	"syscall"
)

// StorageError is a store failure surfaced to a caller. It answers JSON-RPC as -32603 with the cause in the
// message (it has the transport's coded-error methods), so a client never mistakes a damaged or full store
// for a missing account, a skipped slot or a zero balance.
type StorageError struct{ Err error }

func (e *StorageError) Error() string {
	return "Internal error: ledger storage failure: " + e.Err.Error()
}
func (e *StorageError) Unwrap() error  { return e.Err }
func (e *StorageError) ErrorCode() int { return -32603 }
func (e *StorageError) ErrorData() any { return nil }

// faultState is what the ledger knows of its store's health. Two kinds of fault:
//   - damaged: a read failed, or pebble failed in the background for a reason other than space. The store may
//     no longer hold what was written, so nothing new is built on it: the producer stops for good (a restart,
//     which checks the store, is the way back).
//   - full: a write failed for lack of space. Nothing was lost, but nothing new can be made durable: the
//     producer holds its frozen slot and retries, and the fault clears when a write succeeds again.
//
// Either makes the node unhealthy and write requests fail at once. Each change is logged once (ERROR when a
// fault begins), never once per request.
type faultState struct {
	log *slog.Logger

	mu      sync.Mutex
	damaged error
	full    error
}

// isNoSpace reports whether err is a lack of space (or of quota) on the store's disk.
func isNoSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// report records a store failure and returns it as the error a caller gets. A nil err returns nil.
func (f *faultState) report(err error) error {
	if err == nil {
		return nil
	}
	var se *StorageError
	if errors.As(err, &se) {
		err = se.Err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if isNoSpace(err) {
		if f.full == nil {
			f.log.Error("ledger storage is full: no new slots until space returns; write requests are refused",
				"err", err)
		}
		f.full = err
	} else {
		if f.damaged == nil {
			f.log.Error("ledger storage failed: the store may be damaged; the block producer stops and the node "+
				"reports unhealthy until restarted (see README, Failure behaviour)", "err", err)
		}
		f.damaged = err
	}
	return &StorageError{Err: err}
}

// onBackground is the store's background error handler (flushes and compactions).
func (f *faultState) onBackground(err error) { _ = f.report(err) }

// writable records that a write succeeded: a full disk has room again.
func (f *faultState) writable() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.full != nil {
		f.log.Info("ledger storage writable again: producing resumes", "after", f.full)
		f.full = nil
	}
}

// err returns the current fault (damage first), nil when the store is healthy.
func (f *faultState) err() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.damaged != nil {
		return f.damaged
	}
	return f.full
}

func (f *faultState) isDamaged() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.damaged != nil
}

// StorageFault returns the store's current fault, nil when it is healthy: a damaged store (sticky until a
// restart) or a full disk (cleared once a write succeeds). The node reports unhealthy while it is set.
func (l *Ledger) StorageFault() error { return l.fault.err() }

// writeRefused is the error a write request gets at once while the store cannot take writes.
func (l *Ledger) writeRefused() error {
	if err := l.fault.err(); err != nil {
		return &StorageError{Err: err}
	}
	return nil
}
