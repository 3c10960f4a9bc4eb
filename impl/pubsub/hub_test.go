package pubsub

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// fakeConn records notifications; block, when set, holds the first Notify until it is closed (to stall the
// worker in tests; a real connection never blocks).
type fakeConn struct {
	notes   chan note
	block   chan struct{}
	mu      sync.Mutex
	onClose []func()
	seen    []note // received, not yet waited for (test goroutine only)
}

type note struct {
	method string
	params struct {
		Result       json.RawMessage `json:"result"`
		Subscription uint64          `json:"subscription"`
	}
}

func newConn() *fakeConn { return &fakeConn{notes: make(chan note, 4096)} }

func (c *fakeConn) Notify(method string, params any) error {
	if c.block != nil {
		<-c.block
	}
	n := note{method: method}
	if err := json.Unmarshal(params.(json.RawMessage), &n.params); err != nil {
		panic(err)
	}
	select {
	case c.notes <- n:
	default:
	}
	return nil
}

func (c *fakeConn) OnClose(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onClose = append(c.onClose, f)
}

func (c *fakeConn) close() {
	c.mu.Lock()
	fns := c.onClose
	c.onClose = nil
	c.mu.Unlock()
	for _, f := range fns {
		f()
	}
}

// wait returns the next notification of subscription id whose result satisfies ok.
func (c *fakeConn) wait(t *testing.T, method string, id uint64, ok func(json.RawMessage) bool) note {
	t.Helper()
	match := func(n note) bool {
		return n.method == method && n.params.Subscription == id && (ok == nil || ok(n.params.Result))
	}
	for i, n := range c.seen {
		if match(n) {
			c.seen = append(c.seen[:i:i], c.seen[i+1:]...)
			return n
		}
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case n := <-c.notes:
			if match(n) {
				return n
			}
			c.seen = append(c.seen, n)
		case <-deadline:
			t.Fatalf("no %s for subscription %d", method, id)
		}
	}
}

func newLedger(t *testing.T, slot time.Duration) *ledger.Ledger {
	t.Helper()
	l, err := ledger.Open(ledger.Config{Dir: t.TempDir(), SlotDuration: slot, FinalityDepth: 2, StoreInMemory: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func newHub(t *testing.T, l *ledger.Ledger, cfg Config) *Hub {
	t.Helper()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	h := New(l, cfg)
	l.OnEvent(h.OnEvent)
	t.Cleanup(func() {
		l.Close()
		h.Close()
	})
	return h
}

func ptr[T any](v T) *T { return &v }

func accountParams(k core.Pubkey, commitment string) *rpcapi.AccountSubscribeParams {
	p := &rpcapi.AccountSubscribeParams{Pubkey: k}
	if commitment != "" {
		p.Config = rpcapi.Some(rpcapi.AccountInfoConfig{Commitment: ptr(rpcapi.Commitment(commitment))})
	}
	return p
}

func errCode(err error) (int, string) {
	if e, ok := rpcapi.AsError(err); ok {
		return int(e.Code), e.Message
	}
	return 0, ""
}

// Ids come from one counter from 0; identical subscriptions share an id across connections (the defaults
// applied), each connection holding one reference; limits refuse with the reference's error; unsubscribe and
// closing a connection free what they held.
func TestRegistry(t *testing.T) {
	h := newHub(t, newLedger(t, 50*time.Millisecond), Config{MaxPerConnection: 3, MaxTotal: 5})
	a, b := newConn(), newConn()
	k1 := core.Pubkey{1}

	mustID := func(id uint64, err error) uint64 {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	id0 := mustID(h.Account(a, accountParams(k1, "")))
	if id0 != 0 {
		t.Errorf("first id = %d, want 0", id0)
	}
	if id := mustID(h.Account(b, accountParams(k1, "finalized"))); id != id0 {
		t.Errorf("identical subscription (default commitment spelled out) got id %d, want %d", id, id0)
	}
	if id := mustID(h.Account(a, accountParams(k1, ""))); id != id0 {
		t.Errorf("the same connection subscribing again got id %d, want %d", id, id0)
	}
	id1 := mustID(h.Account(a, accountParams(k1, "confirmed")))
	id2 := mustID(h.Slot(a))
	if id1 != 1 || id2 != 2 {
		t.Errorf("ids %d, %d; want 1, 2", id1, id2)
	}
	if got, want := h.Stats(), (Stats{Subscriptions: 3, References: 4, Connections: 2}); got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}

	// a holds 3: the per-connection limit.
	_, err := h.Root(a)
	if code, msg := errCode(err); code != -32603 || msg != "Internal Error: Subscription refused. Node subscription limit reached" {
		t.Errorf("over the connection limit: %v", err)
	}
	// b holds 1, 4 references in all: one more reaches the total of 5, the next is refused.
	mustID(h.Slot(b))
	if _, err := h.Root(b); err == nil {
		t.Error("over the total limit: no error")
	}

	// Unsubscribing an id the connection does not hold is -32602, even if another connection holds it.
	if code, msg := errCode(h.Unsubscribe(b, id1)); code != -32602 || msg != "Invalid subscription id." {
		t.Errorf("foreign id: code %d %q", code, msg)
	}
	if code, _ := errCode(h.Unsubscribe(b, 999)); code != -32602 {
		t.Errorf("unknown id: code %d", code)
	}
	if err := h.Unsubscribe(a, id0); err != nil {
		t.Fatal(err)
	}
	if code, _ := errCode(h.Unsubscribe(a, id0)); code != -32602 {
		t.Error("a second unsubscribe of the same id succeeded")
	}
	// b still holds id0: it stays.
	if got := h.Stats(); got.Subscriptions != 3 || got.References != 4 {
		t.Errorf("after a's unsubscribe: %+v", got)
	}
	a.close()
	b.close()
	if got := h.Stats(); got != (Stats{}) {
		t.Errorf("after both connections closed: %+v", got)
	}
	// A new subscription after everything was freed takes the next id: ids are never reused.
	if id := mustID(h.Slot(newConn())); id != 3 {
		t.Errorf("next id %d, want 3", id)
	}
}

// When the worker falls behind by more than the queue bound, the slot's remaining transactions are coalesced:
// processed subscribers still hear about every signature and the account's final state, from the frozen slot.
func TestCoalescedTransactions(t *testing.T) {
	l := newLedger(t, 300*time.Millisecond)
	h := newHub(t, l, Config{MaxQueuedTransactions: 1})
	stall := newConn()
	stall.block = make(chan struct{})
	if _, err := h.Slot(stall); err != nil {
		t.Fatal(err)
	}
	watcher := newConn()
	to := core.Pubkey{9}
	accID, err := h.Account(watcher, accountParams(to, "processed"))
	if err != nil {
		t.Fatal(err)
	}
	var txs []*core.Transaction
	var sigIDs []uint64
	for i := range 4 {
		tx := core.NewTransferTx(l.Genesis.Faucet, to, uint64(1_000_000+i), l.Bank(ledger.Processed).LastBlockhash())
		id, err := h.Signature(watcher, &rpcapi.SignatureSubscribeParams{Signature: tx.Signature(),
			Config: rpcapi.Some(rpcapi.SignatureSubscribeConfig{Commitment: ptr(rpcapi.CommitmentProcessed)})})
		if err != nil {
			t.Fatal(err)
		}
		txs, sigIDs = append(txs, tx), append(sigIDs, id)
	}
	// Wait for the worker to stall on the next slot notification, then run the transactions.
	deadline := time.Now().Add(5 * time.Second)
	for h.seq.Load() == 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(400 * time.Millisecond)
	var total uint64
	for i, tx := range txs {
		ex, err := l.Execute(context.Background(), tx)
		if err != nil || ex.Result.Err != nil {
			t.Fatalf("tx %d: %v %v", i, err, ex)
		}
		total += uint64(1_000_000 + i)
	}
	close(stall.block)
	for _, id := range sigIDs {
		watcher.wait(t, rpcapi.MethodSignatureNotification, id, nil)
	}
	watcher.wait(t, rpcapi.MethodAccountNotification, accID, func(r json.RawMessage) bool {
		var n rpcapi.AccountNotification
		return json.Unmarshal(r, &n) == nil && n.Value.Lamports == total
	})
	if h.Stats().CoalescedSlots == 0 {
		t.Error("no slot was coalesced: the test did not overflow the queue")
	}
}

func TestIsSimpleVote(t *testing.T) {
	kp, _ := core.NewKeypair()
	vote := &core.Transaction{Signatures: make([]core.Signature, 1), Message: core.Message{
		AccountKeys:  []core.Pubkey{kp.PublicKey(), core.VoteProgramID},
		Instructions: []core.CompiledInstruction{{ProgramIDIndex: 1}},
	}}
	if !isSimpleVote(vote) {
		t.Error("a one-instruction vote transaction is not a simple vote")
	}
	two := *vote
	two.Message.Instructions = append(two.Message.Instructions, core.CompiledInstruction{ProgramIDIndex: 1})
	if isSimpleVote(&two) {
		t.Error("two instructions make a simple vote")
	}
	transfer := core.NewTransferTx(kp, core.Pubkey{3}, 1, core.Hash{})
	if isSimpleVote(transfer) {
		t.Error("a transfer is a simple vote")
	}
}

// Processed account notifications come once per slot, with the account as the frozen bank holds it, however
// many transactions wrote it; a subscription made after the slot's first write of the account hears of the
// account's next slot only (the reference counts from the slot that last changed it when one subscribes).
func TestProcessedAccountNotifiedOncePerSlot(t *testing.T) {
	l := newLedger(t, time.Second)
	h := newHub(t, l, Config{})
	to := core.Pubkey{7, 7}
	early, late := newConn(), newConn()
	earlyID, err := h.Account(early, accountParams(to, "processed"))
	if err != nil {
		t.Fatal(err)
	}
	send := func(lamports uint64) uint64 {
		t.Helper()
		tx := core.NewTransferTx(l.Genesis.Faucet, to, lamports, l.Bank(ledger.Processed).LastBlockhash())
		ex, err := l.Execute(context.Background(), tx)
		if err != nil || ex.Result.Err != nil {
			t.Fatalf("transfer: %v %v", err, ex)
		}
		return ex.Slot
	}
	slot := send(1_000_000)
	lateParams := accountParams(to, "processed")
	lateConfig := lateParams.Config.OrZero()
	lateConfig.Encoding = ptr(rpcapi.AccountEncodingBase64) // a subscription of its own, not a share of early's
	lateParams.Config = rpcapi.Some(lateConfig)
	lateID, err := h.Account(late, lateParams)
	if err != nil {
		t.Fatal(err)
	}
	if second := send(2_000_000); second != slot {
		t.Skipf("the transfers landed in slots %d and %d; the test needs one slot", slot, second)
	}

	n := early.wait(t, rpcapi.MethodAccountNotification, earlyID, nil)
	var got rpcapi.AccountNotification
	if err := json.Unmarshal(n.params.Result, &got); err != nil {
		t.Fatal(err)
	}
	if got.Context.Slot != slot || got.Value.Lamports != 3_000_000 {
		t.Errorf("notified slot %d with %d lamports, want slot %d with both transfers (3000000)", got.Context.Slot,
			got.Value.Lamports, slot)
	}
	next := send(4_000_000)
	if next == slot {
		t.Fatalf("a transfer after the slot's notification ran in the same slot %d", slot)
	}
	for _, c := range []struct {
		conn *fakeConn
		id   uint64
	}{{early, earlyID}, {late, lateID}} {
		n := c.conn.wait(t, rpcapi.MethodAccountNotification, c.id, nil)
		if err := json.Unmarshal(n.params.Result, &got); err != nil {
			t.Fatal(err)
		}
		if got.Context.Slot != next || got.Value.Lamports != 7_000_000 {
			t.Errorf("subscription %d: notified slot %d with %d lamports, want slot %d with 7000000 (one notification a slot, none of slot %d for the late one)",
				c.id, got.Context.Slot, got.Value.Lamports, next, slot)
		}
	}
}
