package pubsub

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// A processed signature subscription and a processed logs subscription mentioning an account, both made after
// the transaction executed but before its slot froze, are notified when the slot freezes, as the reference
// notifies processed subscriptions from the new bank's statuses and logs since its parent. A subscription made
// before the transaction hears of it once. The subscriptions are made by a ledger listener that runs right
// after the hub queued the transaction's event, on the producer's goroutine: inside the window on purpose.
func TestSubscribedBetweenExecutionAndFreeze(t *testing.T) {
	l := newLedger(t, 500*time.Millisecond)
	h := newHub(t, l, Config{})
	to := core.Pubkey{4, 2}
	early, late := newConn(), newConn()
	earlyLogs, err := h.Logs(early, &rpcapi.LogsSubscribeParams{
		Filter: rpcapi.LogsFilter{Mentions: &rpcapi.LogsFilterMentions{Mentions: []string{to.String()}}},
		Config: rpcapi.Some(rpcapi.CommitmentConfig{Commitment: ptr(rpcapi.CommitmentProcessed)})})
	if err != nil {
		t.Fatal(err)
	}
	tx := core.NewTransferTx(l.Genesis.Faucet, to, 1_000_000, l.Bank(ledger.Processed).LastBlockhash())
	sig := tx.Signature()
	type ids struct{ sig, logs uint64 }
	made := make(chan ids, 1)
	l.OnEvent(func(ev ledger.Event) {
		if ev.Kind != ledger.TxProcessed || ev.Tx.Signature() != sig {
			return
		}
		if _, confirmed, _ := l.Slots(); confirmed >= ev.Slot {
			t.Errorf("slot %d froze before the subscriptions were made: not the window under test", ev.Slot)
		}
		sigID, err := h.Signature(late, &rpcapi.SignatureSubscribeParams{Signature: sig,
			Config: rpcapi.Some(rpcapi.SignatureSubscribeConfig{Commitment: ptr(rpcapi.CommitmentProcessed)})})
		if err != nil {
			t.Error(err)
		}
		// Another address of the transaction, so that the late logs subscription is its own id, not a share
		// of early's.
		logsID, err := h.Logs(late, &rpcapi.LogsSubscribeParams{
			Filter: rpcapi.LogsFilter{Mentions: &rpcapi.LogsFilterMentions{Mentions: []string{l.Genesis.Faucet.PublicKey().String()}}},
			Config: rpcapi.Some(rpcapi.CommitmentConfig{Commitment: ptr(rpcapi.CommitmentProcessed)})})
		if err != nil {
			t.Error(err)
		}
		made <- ids{sigID, logsID}
	})
	ex, err := l.Execute(context.Background(), tx)
	if err != nil || ex.Result.Err != nil {
		t.Fatalf("transfer: %v %v", err, ex)
	}
	got := <-made

	n := late.wait(t, rpcapi.MethodSignatureNotification, got.sig, nil)
	var sn rpcapi.SignatureNotification
	if err := json.Unmarshal(n.params.Result, &sn); err != nil {
		t.Fatal(err)
	}
	if sn.Context.Slot != ex.Slot || sn.Value.Processed == nil || sn.Value.Processed.Err != nil {
		t.Errorf("signature notification %s, want slot %d with err null", n.params.Result, ex.Slot)
	}
	for _, c := range []struct {
		conn *fakeConn
		id   uint64
	}{{late, got.logs}, {early, earlyLogs}} {
		n := c.conn.wait(t, rpcapi.MethodLogsNotification, c.id, nil)
		var ln rpcapi.LogsNotification
		if err := json.Unmarshal(n.params.Result, &ln); err != nil {
			t.Fatal(err)
		}
		if ln.Context.Slot != ex.Slot || ln.Value.Signature != sig.String() || len(ln.Value.Logs) == 0 {
			t.Errorf("logs subscription %d: notification %s, want slot %d, signature %s and the logs", c.id,
				n.params.Result, ex.Slot, sig)
		}
	}
	// The early subscription heard of the transaction when it executed, and not again when the slot froze.
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if _, confirmed, _ := l.Slots(); confirmed > ex.Slot {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	queued, _ := h.Seqs()
	for _, done := h.Seqs(); done < queued && time.Now().Before(deadline.Add(5*time.Second)); _, done = h.Seqs() {
		time.Sleep(10 * time.Millisecond)
	}
	for {
		select {
		case n := <-early.notes:
			if n.method == rpcapi.MethodLogsNotification {
				t.Errorf("early logs subscription notified twice: %s", n.params.Result)
			}
			continue
		default:
		}
		break
	}
}
