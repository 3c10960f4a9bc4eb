package pubsub

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// Confirmed and finalized block, logs and signature notifications come from the records the worker kept when
// the slot froze: the store is not read again for them.
func TestReachedSlotsNotifyFromMemory(t *testing.T) {
	l, err := ledger.Open(ledger.Config{Dir: t.TempDir(), SlotDuration: 10 * time.Millisecond, FinalityDepth: 2,
		StoreInMemory: true, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	h := newHub(t, l, Config{})
	var reads atomic.Int64
	h.blockTxs = func(info *ledger.BlockInfo) ([]*ledger.TxRecord, error) {
		reads.Add(1)
		return l.BlockTransactions(info)
	}
	l.Start()
	c := newConn()
	to := core.Pubkey{7}
	all := "all"
	var blockIDs, logIDs []uint64
	for _, commitment := range []string{"confirmed", "finalized"} {
		id, err := h.Block(c, &rpcapi.BlockSubscribeParams{Filter: rpcapi.BlockSubscribeFilter{All: &all},
			Config: rpcapi.Some(rpcapi.BlockSubscribeConfig{Commitment: ptr(rpcapi.Commitment(commitment))})})
		if err != nil {
			t.Fatal(err)
		}
		blockIDs = append(blockIDs, id)
		id, err = h.Logs(c, &rpcapi.LogsSubscribeParams{Filter: rpcapi.LogsFilter{Mentions: &rpcapi.LogsFilterMentions{
			Mentions: []string{to.String()}}}, Config: rpcapi.Some(rpcapi.CommitmentConfig{Commitment: ptr(rpcapi.Commitment(commitment))})})
		if err != nil {
			t.Fatal(err)
		}
		logIDs = append(logIDs, id)
	}
	tx := core.NewTransferTx(l.Genesis.Faucet, to, 1_000_000, l.Bank(ledger.Processed).LastBlockhash())
	ex, err := l.Execute(context.Background(), tx)
	if err != nil || ex.Result.Err != nil {
		t.Fatalf("transfer: %v %v", err, ex)
	}
	for i := range blockIDs {
		c.wait(t, rpcapi.MethodBlockNotification, blockIDs[i], func(r json.RawMessage) bool {
			var n rpcapi.BlockNotification
			return json.Unmarshal(r, &n) == nil && n.Context.Slot == ex.Slot && n.Value.Block != nil &&
				n.Value.Block.Transactions != nil && len(*n.Value.Block.Transactions) > 0
		})
		c.wait(t, rpcapi.MethodLogsNotification, logIDs[i], nil)
	}
	if n := reads.Load(); n != 0 {
		t.Errorf("the worker read blocks' transactions from the store %d times", n)
	}
}
