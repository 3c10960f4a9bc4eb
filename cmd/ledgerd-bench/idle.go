package main

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/ledger"
)

// slotsPerHour is an hour of the default 400 ms slots.
const slotsPerHour = uint64(time.Hour / ledger.DefaultSlotDuration)

// idleWarmup is how long an idle node runs before it is measured: the first slots create the store's files.
const idleWarmup = 5 * time.Second

// figureIdle is figure 4: an idle node's ledger directory growth per hour and its resident memory. Two runs, at
// the same time (an idle node uses little CPU or disk, and neither figure is a time):
//
//   - at 5 ms slots, twice an hour's worth of 400 ms slots (9,000): the bytes each slot leaves on disk, measured
//     directly over whole cycles of pebble (write-ahead log filling, memtable flush, compaction, log recycling),
//     times 9,000. The first hour starts from a new ledger and includes the write-ahead logs filling up to
//     their bound; the second is the steady rate. These are the honest figures.
//   - at the default 400 ms slots for cfg.idle, growth extrapolated to an hour, and the VmRSS at the end. The
//     window is short against pebble's cycle, so its growth is the log's, which is recycled: it shows the rate
//     the node writes, not the rate the directory grows.
func figureIdle(cfg *config) []row {
	var (
		wg         sync.WaitGroup
		slow, fast []row
	)
	wg.Go(func() { slow = idleSlow(cfg) })
	wg.Go(func() { fast = idleFast(cfg) })
	wg.Wait()
	return append(fast, slow...)
}

func idleSlow(cfg *config) []row {
	const name = "4 idle growth at 400 ms slots"
	skip := func(err error) []row { return []row{{figure: name, mark: markSkip, note: err.Error()}} }
	dir := filepath.Join(cfg.tmp, "idle-400ms")
	p, _, err := startLedgerd(cfg.bin, dir, "--slot-ms", "400")
	if err != nil {
		return skip(err)
	}
	defer stop(cfg, p)
	time.Sleep(idleWarmup)
	s0, err := dirSize(dir)
	if err != nil {
		return skip(err)
	}
	t0 := time.Now()
	time.Sleep(cfg.idle)
	s1, err := dirSize(dir)
	if err != nil {
		return skip(err)
	}
	window := time.Since(t0)
	rss, err := vmRSS(p.Pid())
	if err != nil {
		return skip(err)
	}
	perHour := float64(s1.total-s0.total) * float64(time.Hour) / float64(window)
	walPerHour := float64(s1.wal-s0.wal) * float64(time.Hour) / float64(window)
	cfg.logf("400 ms: %s -> %s in %v (write-ahead log %s -> %s, snapshots %s -> %s); VmRSS %s", mb(float64(s0.total)),
		mb(float64(s1.total)), window.Round(time.Second), mb(float64(s0.wal)), mb(float64(s1.wal)), mb(float64(s0.snapshots)),
		mb(float64(s1.snapshots)), mb(float64(rss)))
	// Not marked against the target: over a minute the directory grows by what the node writes (the log), and
	// the recycling of the log, which bounds it, is not seen.
	return []row{
		{figure: fmt.Sprintf("  idle writes, 400 ms slots, %v × %.0f", window.Round(time.Second), float64(time.Hour)/float64(window)),
			measured: mb(perHour) + "/h", note: fmt.Sprintf("informational: write-ahead log part %s/h (recycled)", mb(walPerHour))},
		{figure: "4 idle VmRSS after warm-up", measured: mb(float64(rss)), target: "< 100 MB", mark: mark(rss < 100e6),
			note: fmt.Sprintf("400 ms slots, after %v", (idleWarmup + window).Round(time.Second))},
	}
}

func idleFast(cfg *config) []row {
	const name = "4 idle growth per hour of slots"
	skip := func(err error) []row { return []row{{figure: name, mark: markSkip, note: err.Error()}} }
	dir := filepath.Join(cfg.tmp, "idle-5ms")
	// A new ledger, started and stopped once: what it holds then is the base the growth is measured from.
	p, _, err := startLedgerd(cfg.bin, dir, "--slot-ms", "5")
	if err != nil {
		return skip(err)
	}
	if err := p.Stop(); err != nil {
		return skip(err)
	}
	base, err := measureStopped(dir)
	if err != nil {
		return skip(err)
	}
	// Two simulated hours: the first from a new ledger (what a user sees after an hour), the second from there
	// (the steady rate: pebble's write-ahead logs, which are recycled, have filled by then and stop growing).
	var rows []row
	prev := base
	for hour := 1; hour <= 2; hour++ {
		p, _, err := startLedgerd(cfg.bin, dir, "--slot-ms", "5")
		if err != nil {
			return append(rows, skip(err)...)
		}
		elapsed, rss := runSlots(p, prev.tip+uint64(cfg.fastSlots), cfg.fastSlots)
		if err := p.Stop(); err != nil {
			return append(rows, skip(err)...)
		}
		cur, err := measureStopped(dir)
		if err != nil {
			return append(rows, skip(err)...)
		}
		slots := cur.tip - prev.tip
		if slots == 0 {
			return append(rows, skip(fmt.Errorf("no slots produced"))...)
		}
		perSlot := float64(cur.size.total-prev.size.total) / float64(slots)
		perHour := perSlot * float64(slotsPerHour)
		perHourOf := func(d int64) string { return mb(float64(d) / float64(slots) * float64(slotsPerHour)) }
		cfg.logf("5 ms, hour %d: %d slots in %v (%.0f/s); %s -> %s (write-ahead log %s -> %s, snapshots %s -> %s): %.0f B/slot; VmRSS at the end %s",
			hour, slots, elapsed.Round(time.Second), float64(slots)/elapsed.Seconds(), mb(float64(prev.size.total)),
			mb(float64(cur.size.total)), mb(float64(prev.size.wal)), mb(float64(cur.size.wal)), mb(float64(prev.size.snapshots)),
			mb(float64(cur.size.snapshots)), perSlot, mb(float64(rss)))
		figure := "4 idle growth, 1st hour of 400 ms slots"
		if hour == 2 {
			figure = "  idle growth, 2nd hour (steady rate)"
		}
		rows = append(rows, row{figure: figure, measured: mb(perHour) + "/h", target: "≤ 10 MB/h", mark: mark(perHour <= 10e6),
			note: fmt.Sprintf("%d slots run at 5 ms: %.0f B/slot × %d; of which write-ahead log %s, snapshots %s", slots, perSlot,
				slotsPerHour, perHourOf(cur.size.wal-prev.size.wal), perHourOf(cur.size.snapshots-prev.size.snapshots))})
		prev = cur
	}
	return rows
}

// stoppedLedger is a stopped ledger's size and newest slot.
type stoppedLedger struct {
	size diskUse
	tip  uint64
}

// measureStopped measures the ledger in dir, which no process has open. The size is taken first: reading the
// tip opens the store.
func measureStopped(dir string) (stoppedLedger, error) {
	size, err := dirSize(dir)
	if err != nil {
		return stoppedLedger{}, err
	}
	tip, err := ledgerTip(dir)
	return stoppedLedger{size, tip}, err
}

// runSlots lets the node produce slots until target (or for as long again as slots take at 5 ms, when
// getSlot does not answer or the producer is slower), and reports the time it ran and its VmRSS at the end.
// The producer paces slots against the clock but never ahead of its synced commits, so 5 ms slots may come
// slower; the slots actually produced are counted from the stored tip afterwards.
func runSlots(p *proc, target uint64, slots int) (time.Duration, int64) {
	t0 := time.Now()
	ideal := time.Duration(slots) * 5 * time.Millisecond
	cl := rpcclient.New(p.URL())
	time.Sleep(ideal * 9 / 10)
	for time.Since(t0) < 2*ideal {
		slot, err := cl.GetSlot(context.Background(), &rpcapi.GetSlotParams{
			Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: ptr(rpcapi.CommitmentProcessed)})})
		if err != nil {
			time.Sleep(ideal - time.Since(t0))
			break
		}
		if slot >= target {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	rss, _ := vmRSS(p.Pid())
	return time.Since(t0), rss
}

// ledgerTip is the newest slot of the stopped ledger in dir.
func ledgerTip(dir string) (uint64, error) {
	l, err := ledger.Open(ledger.Config{Dir: dir, SlotDuration: time.Hour})
	if err != nil {
		return 0, err
	}
	processed, _, _ := l.Slots()
	return processed - 1, l.Close()
}
