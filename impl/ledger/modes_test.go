package ledger

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"ledgerd/impl/core"
)

func openMode(t *testing.T, mode BlockProduction, depth uint64) *Ledger {
	t.Helper()
	l, err := Open(Config{Dir: t.TempDir(), SlotDuration: 5 * time.Millisecond, FinalityDepth: depth,
		FinalityDepthZero: depth == 0, BlockProduction: mode, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// eventLog records the ledger's slot events.
type eventLog struct {
	mu     sync.Mutex
	events []Event
}

func (e *eventLog) add(ev Event) {
	e.mu.Lock()
	e.events = append(e.events, ev)
	e.mu.Unlock()
}

func (e *eventLog) slots(k EventKind) []uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []uint64
	for _, ev := range e.events {
		if ev.Kind == k {
			out = append(out, ev.Slot)
		}
	}
	return out
}

func listen(l *Ledger) *eventLog {
	e := &eventLog{}
	l.OnEvent(e.add)
	l.Start()
	return e
}

// checkSlotsInOrder checks that every slot from first to last was frozen, confirmed and rooted (up to root)
// once, in order: subscribers see a chain without gaps in every mode.
func checkSlotsInOrder(t *testing.T, ev *eventLog, l *Ledger) {
	t.Helper()
	_, confirmed, root := l.Slots()
	frozen := ev.slots(SlotFrozen)
	if len(frozen) == 0 {
		t.Fatal("no slot frozen")
	}
	for i, s := range frozen {
		if s != frozen[0]+uint64(i) {
			t.Fatalf("frozen slots %v are not consecutive", frozen)
		}
	}
	if frozen[len(frozen)-1] != confirmed {
		t.Fatalf("last frozen %d, confirmed %d", frozen[len(frozen)-1], confirmed)
	}
	if got := ev.slots(SlotConfirmed); !slices.Equal(got, frozen) {
		t.Fatalf("confirmed events %v, frozen %v", got, frozen)
	}
	rooted := ev.slots(SlotRooted)
	if len(rooted) > 0 && rooted[len(rooted)-1] != root {
		t.Fatalf("rooted events %v, root %d", rooted, root)
	}
}

func TestTransactionModeConfirmsEachTransaction(t *testing.T) {
	l := openMode(t, ProducePerTransaction, 2)
	ev := listen(l)
	ctx := context.Background()
	p0, c0, _ := l.Slots()
	time.Sleep(50 * time.Millisecond) // ten slot durations: no slot without a transaction
	if p, c, _ := l.Slots(); p != p0 || c != c0 {
		t.Fatalf("slots moved without transactions: processed %d->%d, confirmed %d->%d", p0, p, c0, c)
	}
	alice := newPubkey(t)
	var sigs []core.Signature
	for i := range 4 {
		sig, err := l.Airdrop(ctx, alice, uint64(i+1)*LamportsPerSOL)
		if err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, sig)
		// Confirmed as soon as the call returns: its slot froze before the answer.
		st, err := l.SignatureStatuses([]core.Signature{sig}, false)
		if err != nil || st[0] == nil || st[0].Status < Confirmed {
			t.Fatalf("airdrop %d not confirmed on return: %+v %v", i, st[0], err)
		}
		if got, want := balance(l, Confirmed, alice), uint64((i+1)*(i+2)/2)*LamportsPerSOL; got != want {
			t.Fatalf("confirmed balance after airdrop %d = %d, want %d", i, got, want)
		}
		info, found, err := l.Block(st[0].Slot, Confirmed)
		if err != nil || !found || !slices.Contains(info.Signatures, sig) {
			t.Fatalf("block %d of airdrop %d: found %v, err %v", st[0].Slot, i, found, err)
		}
	}
	_, confirmed, root := l.Slots()
	if confirmed != c0+4 || root != confirmed-2 {
		t.Fatalf("after 4 transactions confirmed %d (from %d), root %d (depth 2)", confirmed, c0, root)
	}
	recs, err := l.SignaturesForAddress(alice, nil, nil, 10, Confirmed)
	if err != nil || len(recs) != 4 || recs[0].Tx.Signature() != sigs[3] {
		t.Fatalf("history of alice: %d records, err %v", len(recs), err)
	}
	checkSlotsInOrder(t, ev, l)
}

func TestManualModeProducesOnlyOnRequest(t *testing.T) {
	l := openMode(t, ProduceOnRequest, 3)
	ev := listen(l)
	ctx := context.Background()
	alice := newPubkey(t)
	sig, err := l.Airdrop(ctx, alice, LamportsPerSOL)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	p0, c0, r0 := l.Slots()
	if got := balance(l, Processed, alice); got != LamportsPerSOL {
		t.Fatalf("processed balance %d", got)
	}
	if got := balance(l, Confirmed, alice); got != 0 {
		t.Fatalf("confirmed before any slot was produced: %d", got)
	}
	if _, err := l.AdvanceSlots(ctx, 0); err == nil {
		t.Fatal("advancing 0 slots was accepted")
	}
	slot, err := l.AdvanceSlots(ctx, 1)
	if err != nil || slot != p0 {
		t.Fatalf("AdvanceSlots(1) = %d, %v; want the working slot %d", slot, err, p0)
	}
	if got := balance(l, Confirmed, alice); got != LamportsPerSOL {
		t.Fatalf("confirmed balance after one slot %d", got)
	}
	st, _ := l.SignatureStatuses([]core.Signature{sig}, false)
	if st[0] == nil || st[0].Slot != p0 || st[0].Status != Confirmed {
		t.Fatalf("status %+v", st[0])
	}
	if got := balance(l, Finalized, alice); got != 0 {
		t.Fatalf("finalized before the depth: %d", got)
	}
	// N more slots: N slots with no transaction of the user (the node's votes only); finalized follows the depth.
	slot, err = l.AdvanceSlots(ctx, 3)
	if err != nil || slot != p0+3 {
		t.Fatalf("AdvanceSlots(3) = %d, %v", slot, err)
	}
	_, c, r := l.Slots()
	if c != c0+4 || r != c-3 || r0 >= r {
		t.Fatalf("confirmed %d root %d (from %d, %d)", c, r, c0, r0)
	}
	if got := balance(l, Finalized, alice); got != LamportsPerSOL {
		t.Fatalf("finalized balance %d", got)
	}
	for s := p0 + 1; s <= p0+3; s++ {
		info, found, err := l.Block(s, Confirmed)
		if err != nil || !found {
			t.Fatalf("block %d: %v %v", s, found, err)
		}
		if slices.Contains(info.Signatures, sig) {
			t.Fatalf("the airdrop is in block %d too", s)
		}
	}
	checkSlotsInOrder(t, ev, l)
}

func TestPausedClockProducesNothing(t *testing.T) {
	l := openMode(t, ProduceOnClock, 2)
	listen(l)
	waitFor(t, "a slot", func() bool { _, c, _ := l.Slots(); return c > 1 })
	if !l.PauseClock() || l.PauseClock() {
		t.Fatal("PauseClock reports")
	}
	time.Sleep(20 * time.Millisecond) // a slot being produced when the clock paused ends
	_, c0, _ := l.Slots()
	time.Sleep(50 * time.Millisecond)
	if _, c, _ := l.Slots(); c != c0 {
		t.Fatalf("confirmed moved from %d to %d with the clock paused", c0, c)
	}
	if slot, err := l.AdvanceSlots(context.Background(), 2); err != nil || slot != c0+2 {
		t.Fatalf("AdvanceSlots while paused = %d, %v", slot, err)
	}
	if !l.ResumeClock() {
		t.Fatal("ResumeClock reports the clock was not paused")
	}
	waitFor(t, "slots after resume", func() bool { _, c, _ := l.Slots(); return c > c0+4 })
}

func TestTimeTravel(t *testing.T) {
	l := openMode(t, ProduceOnRequest, 1)
	listen(l)
	ctx := context.Background()
	start := l.Bank(Processed).BlockTime
	target := uint64(start+3600) * 1000
	if err := l.TimeTravel(ctx, nil, nil, &target); err != nil {
		t.Fatal(err)
	}
	if got := l.Bank(Processed).Env.Clock.UnixTimestamp; got < start+3600 || got > start+3605 {
		t.Fatalf("clock after travelling an hour: %d (from %d)", got, start)
	}
	past := uint64(start) * 1000
	if err := l.TimeTravel(ctx, nil, nil, &past); err == nil {
		t.Fatal("travel into the past accepted")
	}
	p, _, _ := l.Slots()
	to := p + 25
	if err := l.TimeTravel(ctx, &to, nil, nil); err != nil {
		t.Fatal(err)
	}
	if got, _, _ := l.Slots(); got != to {
		t.Fatalf("processed slot %d after travelling to %d", got, to)
	}
	far := to + MaxAdvanceSlots + 1
	if err := l.TimeTravel(ctx, &far, nil, nil); err == nil {
		t.Fatal("travel past the bound accepted")
	}
	if err := l.TimeTravel(ctx, &to, &to, nil); err == nil {
		t.Fatal("two targets accepted")
	}
}

func TestParseBlockProduction(t *testing.T) {
	for _, m := range []BlockProduction{ProduceOnClock, ProducePerTransaction, ProduceOnRequest} {
		got, err := ParseBlockProduction(m.String())
		if err != nil || got != m {
			t.Errorf("ParseBlockProduction(%q) = %v, %v", m, got, err)
		}
	}
	if _, err := ParseBlockProduction("block"); err == nil {
		t.Error("unknown mode accepted")
	}
}

// In manual mode an airdrop identical to one already made with every blockhash is refused at once, not left
// waiting for a slot that never comes; after a slot it goes through.
func TestManualModeIdenticalAirdrop(t *testing.T) {
	l := openMode(t, ProduceOnRequest, 1)
	listen(l)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	alice := newPubkey(t)
	if _, err := l.Airdrop(ctx, alice, LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Airdrop(ctx, alice, LamportsPerSOL); err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), "ledgerd_advanceSlots") {
		t.Fatalf("identical airdrop in manual mode: %v (ctx %v)", err, ctx.Err())
	}
	if _, err := l.AdvanceSlots(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Airdrop(ctx, alice, LamportsPerSOL); err != nil {
		t.Fatalf("identical airdrop after a slot: %v", err)
	}
}
