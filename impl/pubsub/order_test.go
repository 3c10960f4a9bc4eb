package pubsub_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/coder/websocket"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/node"
	"ledgerd/impl/pubsub"
)

// A subscription's reply reaches the client before any of its notifications, even when the worker notifies in
// the window between registering the subscription and queuing the reply: the hook holds the call there until
// the worker has processed events of two more slots.
func TestNoNotificationBeforeSubscribeReply(t *testing.T) {
	restore := pubsub.SetTestHookSubscribed(func(h *pubsub.Hub) {
		since, _ := h.Seqs()
		deadline := time.Now().Add(5 * time.Second)
		for {
			// Each slot queues at least its created, frozen, confirmed and rooted events.
			if _, done := h.Seqs(); done >= since+10 || time.Now().After(deadline) {
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
	defer restore()
	n, err := node.Start(node.Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, SlotDuration: 5 * time.Millisecond,
		FinalityDepth: 1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, n.WSURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.CloseNow()

	for i, method := range []string{rpcapi.MethodSlotSubscribe, rpcapi.MethodRootSubscribe, rpcapi.MethodSlotsUpdatesSubscribe} {
		req := `{"jsonrpc":"2.0","id":` + string(rune('1'+i)) + `,"method":"` + method + `"}`
		if err := ws.Write(ctx, websocket.MessageText, []byte(req)); err != nil {
			t.Fatal(err)
		}
		// Notifications of the subscriptions made before may come first; none of this one's may.
		var id uint64
		for replied := false; !replied; {
			_, msg, err := ws.Read(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var frame struct {
				ID     *int `json:"id"`
				Result *uint64
				Params *struct{ Subscription uint64 }
			}
			if err := json.Unmarshal(msg, &frame); err != nil {
				t.Fatalf("%s: %v in %s", method, err, msg)
			}
			switch {
			case frame.ID != nil && *frame.ID == i+1 && frame.Result != nil:
				id, replied = *frame.Result, true
			case frame.Params != nil && frame.Params.Subscription >= uint64(i):
				t.Fatalf("%s: a notification of subscription %d came before the reply: %s", method,
					frame.Params.Subscription, msg)
			case frame.Params == nil:
				t.Fatalf("%s: unexpected frame %s", method, msg)
			}
		}
		if id != uint64(i) {
			t.Fatalf("%s: subscription id %d, want %d", method, id, i)
		}
		// And its notifications do come, after the reply.
		for {
			_, msg, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("%s: no notification after the reply: %v", method, err)
			}
			var frame struct {
				Params *struct{ Subscription uint64 }
			}
			if json.Unmarshal(msg, &frame) == nil && frame.Params != nil && frame.Params.Subscription == id {
				break
			}
		}
	}
}
