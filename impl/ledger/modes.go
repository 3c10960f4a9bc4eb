package ledger

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
)

// BlockProduction is when the producer ends a slot (surfpool's --block-production-mode names).
//
// The commitment rules are the same in every mode: a slot is confirmed when it freezes (and is persisted), and
// finalized trails confirmed by the finality depth counted in slots. So in transaction and manual modes, where
// slots are not produced on their own, finalized moves only when slots are produced: a client that waits for
// finalized in those modes wants --finality-depth 0, or ledgerd_advanceSlots past the depth, as it would wait
// for 32 more slots on the reference.
type BlockProduction uint8

const (
	// ProduceOnClock freezes a slot every slot duration (the reference's behaviour, the default).
	ProduceOnClock BlockProduction = iota
	// ProducePerTransaction freezes the slot right after each processed transaction, before the sender hears
	// of it: the transaction is confirmed when its sendTransaction answers. Nothing else produces slots.
	ProducePerTransaction
	// ProduceOnRequest produces slots only through AdvanceSlots; processed transactions wait in the working
	// bank until then.
	ProduceOnRequest
)

var blockProductionNames = [...]string{"clock", "transaction", "manual"}

func (m BlockProduction) String() string {
	if int(m) < len(blockProductionNames) {
		return blockProductionNames[m]
	}
	return fmt.Sprintf("BlockProduction(%d)", m)
}

// ParseBlockProduction reads a mode by its name: clock, transaction or manual.
func ParseBlockProduction(s string) (BlockProduction, error) {
	for i, n := range blockProductionNames {
		if s == n {
			return BlockProduction(i), nil
		}
	}
	return 0, fmt.Errorf("unknown block production mode %q (want clock, transaction or manual)", s)
}

// MaxAdvanceSlots bounds one AdvanceSlots (and a time travel by slot or epoch): every slot is produced and
// persisted like any other, so a larger jump would hold the producer for minutes.
const MaxAdvanceSlots = 10_000

// devState is the developer's controls of the producer: requests run on its goroutine, the paused clock, the
// travelled time, and the snapshots (revert.go).
type devState struct {
	control chan func()
	paused  atomic.Bool
	// timeOffset (seconds) is added to the wall clock for the block times of new banks (surfnet_timeTravel).
	timeOffset atomic.Int64
	travelRest int64 // milliseconds of travelled slots not yet a whole second (producer-owned)

	snaps snapshots // owned by the producer
}

func newDevState() devState { return devState{control: make(chan func())} }

// BlockProduction is the ledger's block production mode.
func (l *Ledger) BlockProduction() BlockProduction { return l.cfg.BlockProduction }

// onProducer runs fn on the producer's goroutine, between two transactions, and waits for it.
func (l *Ledger) onProducer(ctx context.Context, fn func()) error {
	if l.cfg.Replica { // the developer's controls would make slots or writes the leader never made
		return ErrReplica
	}
	return l.runOnProducer(ctx, fn)
}

// runOnProducer is onProducer for the ledger's own work, on a replica too.
func (l *Ledger) runOnProducer(ctx context.Context, fn func()) error {
	done := make(chan struct{})
	select {
	case l.dev.control <- func() { defer close(done); fn() }:
	case <-l.stop:
		return errClosed
	case <-l.stopped:
		return errClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	<-done // once taken, fn runs to its end: the producer never abandons it
	return nil
}

// executeNext is the producer's step for one submitted transaction. In transaction mode a processed
// transaction's slot freezes before its sender is answered, so the answer means confirmed.
func (l *Ledger) executeNext(s *submission) {
	if l.cfg.BlockProduction != ProducePerTransaction {
		l.execute(s)
		return
	}
	held := *s // the sender reads s.result: the answer is held in a copy's channel until the slot froze
	held.result = make(chan *Executed, 1)
	l.execute(&held)
	r := <-held.result
	if r.err == nil && r.Result != nil && r.Result.Processed {
		l.tick()
	}
	s.result <- r
}

// clockTick is the producer's slot timer: it ends the slot in clock mode unless the clock is paused, and in
// every mode retries a frozen slot the store has not yet taken.
func (l *Ledger) clockTick() {
	if l.pending != nil || (l.cfg.BlockProduction == ProduceOnClock && !l.dev.paused.Load()) {
		l.tick()
	}
}

// errNotProduced is the error of a slot the producer could not produce.
func (l *Ledger) errNotProduced() error {
	if err := l.writeRefused(); err != nil {
		return err
	}
	return &StorageError{Err: errors.New("the last slot is not yet persisted")}
}

// produceSlot ends the working slot now (the producer's goroutine only).
func (l *Ledger) produceSlot() error {
	if l.fault.isDamaged() {
		return l.errNotProduced()
	}
	if l.pending != nil {
		l.commitFrozen()
		if l.pending != nil {
			return l.errNotProduced()
		}
	}
	l.freeze()
	if l.pending != nil {
		return l.errNotProduced()
	}
	return nil
}

// AdvanceSlots produces n slots at once, in any mode: the first holds the transactions processed since the
// last slot, the others only the node's votes. It returns the newest confirmed slot.
func (l *Ledger) AdvanceSlots(ctx context.Context, n uint64) (uint64, error) {
	if n == 0 || n > MaxAdvanceSlots {
		return 0, fmt.Errorf("%w: the number of slots must be 1 to %d", ErrInvalidCheat, MaxAdvanceSlots)
	}
	var err error
	var slot uint64
	if cerr := l.onProducer(ctx, func() {
		for range n {
			if err = l.produceSlot(); err != nil {
				break
			}
		}
		_, slot, _ = l.Slots()
	}); cerr != nil {
		return 0, cerr
	}
	return slot, err
}

// errManualAirdrop refuses an airdrop identical to one already made with every blockhash a manual-mode chain
// has (a client would wait for a slot that never comes).
var errManualAirdrop = errors.New("airdrop failed: an identical airdrop was already made with every recent blockhash; " +
	"in manual block production, produce a slot first (ledgerd_advanceSlots)")

// ErrInvalidCheat is wrapped by the errors of developer requests that cannot be done as asked.
var ErrInvalidCheat = errors.New("invalid request")

// PauseClock stops clock mode's slots until ResumeClock (transactions still run; in transaction mode they
// still produce their slots). It reports whether the clock was running.
func (l *Ledger) PauseClock() bool { return !l.dev.paused.Swap(true) }

// ResumeClock restarts clock mode's slots. It reports whether the clock was paused.
func (l *Ledger) ResumeClock() bool { return l.dev.paused.Swap(false) }

// ClockPaused reports whether the clock is paused.
func (l *Ledger) ClockPaused() bool { return l.dev.paused.Load() }

// blockTime is the block time of a bank opened now: the clock plus the travelled time.
func (l *Ledger) blockTime() int64 {
	return l.cfg.Now().Unix() + l.dev.timeOffset.Load()
}

// TimeTravel moves the chain's time forward: to an absolute slot (producing the slots up to it, their block
// times advancing by the nominal slot duration), to the first slot of an epoch, or to a unix timestamp
// (milliseconds, as surfpool takes it; the next slot carries it). The working slot is frozen first, so the new
// time starts with a new slot; time never goes backwards, as block times never do.
func (l *Ledger) TimeTravel(ctx context.Context, toSlot, toEpoch *uint64, toUnixMillis *uint64) error {
	set := 0
	for _, p := range []*uint64{toSlot, toEpoch, toUnixMillis} {
		if p != nil {
			set++
		}
	}
	if set != 1 {
		return fmt.Errorf("%w: give exactly one of absoluteSlot, absoluteEpoch and absoluteTimestamp", ErrInvalidCheat)
	}
	var err error
	cerr := l.onProducer(ctx, func() {
		cur := l.working.Slot
		target := cur + 1
		switch {
		case toEpoch != nil:
			if *toEpoch <= l.working.Epoch {
				err = fmt.Errorf("%w: epoch %d is not after the current epoch %d", ErrInvalidCheat, *toEpoch, l.working.Epoch)
				return
			}
			toSlot = new(uint64)
			*toSlot = l.schedule.GetFirstSlotInEpoch(*toEpoch)
			fallthrough
		case toSlot != nil:
			if *toSlot <= cur {
				err = fmt.Errorf("%w: slot %d is not after the current slot %d", ErrInvalidCheat, *toSlot, cur)
				return
			}
			target = *toSlot
		case toUnixMillis != nil:
			now := l.blockTime()
			secs := int64(*toUnixMillis / 1000)
			if secs <= now {
				err = fmt.Errorf("%w: timestamp %d is not after the current time %d (ms)", ErrInvalidCheat, *toUnixMillis, now*1000)
				return
			}
			l.dev.timeOffset.Add(secs - now)
		}
		if target-cur > MaxAdvanceSlots {
			err = fmt.Errorf("%w: slot %d is more than %d slots ahead of the current slot %d", ErrInvalidCheat, target, MaxAdvanceSlots, cur)
			return
		}
		step := int64(l.cfg.SlotDuration / time.Millisecond)
		for s := cur; s < target; s++ {
			if toSlot != nil {
				// Each travelled slot carries its nominal duration, so time follows the slots as on a cluster.
				l.dev.travelMillis(step)
			}
			if err = l.produceSlot(); err != nil {
				return
			}
		}
	})
	if cerr != nil {
		return cerr
	}
	return err
}

// travelMillis adds ms to the travelled time, carried in whole seconds.
func (d *devState) travelMillis(ms int64) {
	d.travelRest += ms
	if d.travelRest >= 1000 {
		d.timeOffset.Add(d.travelRest / 1000)
		d.travelRest %= 1000
	}
}
