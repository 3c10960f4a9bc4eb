package node

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/jsonrpc"
)

// The generated client against the generated dispatch over the real transport, with a Stub handler: typed calls,
// batches with per-member errors, and a typed WebSocket subscription.
func TestGeneratedClientRoundTrip(t *testing.T) {
	stub := &rpcapi.Stub{
		GetBalanceFunc: func(ctx context.Context, p *rpcapi.GetBalanceParams) (rpcapi.GetBalanceResult, error) {
			if m := p.Config.OrZero().MinContextSlot; m != nil && *m > 7 {
				return rpcapi.GetBalanceResult{}, rpcapi.NewMinContextSlotNotReachedError(7)
			}
			return rpcapi.GetBalanceResult{Context: rpcapi.RpcContext{Slot: 7}, Value: 18446744073709551615}, nil
		},
		AccountSubscribeFunc: func(ctx context.Context, p *rpcapi.AccountSubscribeParams) (rpcapi.AccountSubscribeResult, error) {
			conn, ok := jsonrpc.ConnFromContext(ctx)
			if !ok {
				t.Error("no connection in the context of a WebSocket call")
			}
			data := "abc"
			note := rpcapi.AccountNotification{Context: rpcapi.NotificationContext{Slot: 9}, Value: rpcapi.UiAccount{
				Lamports: 5, Owner: "11111111111111111111111111111111", Data: rpcapi.AccountData{Binary: &data}, RentEpoch: 18446744073709551615,
			}}
			// The notification is queued behind the reply, on the same connection.
			go conn.Notify(rpcapi.MethodAccountNotification, map[string]any{"result": note, "subscription": 42})
			return 42, nil
		},
		AccountUnsubscribeFunc: func(ctx context.Context, p *rpcapi.AccountUnsubscribeParams) (rpcapi.AccountUnsubscribeResult, error) {
			return p.Subscription == 42, nil
		},
	}
	d := &rpcapi.Dispatcher{Handler: stub}
	httpSrv := httptest.NewServer(jsonrpc.NewHTTPHandler(d, jsonrpc.HTTPOptions{}))
	defer httpSrv.Close()
	wsHandler := jsonrpc.NewWSHandler(d, jsonrpc.WSOptions{})
	wsSrv := httptest.NewServer(wsHandler)
	defer wsSrv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	c := rpcclient.New(httpSrv.URL)
	key := "83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri"
	bal, err := c.GetBalance(ctx, &rpcapi.GetBalanceParams{Pubkey: core.MustParsePubkey(key)})
	if err != nil || bal.Value != 18446744073709551615 || bal.Context.Slot != 7 {
		t.Fatalf("getBalance = %+v, %v", bal, err)
	}

	var good, bad rpcapi.GetBalanceResult
	high := uint64(100)
	calls := []*rpcclient.BatchCall{
		{Method: rpcapi.MethodGetBalance, Params: &rpcapi.GetBalanceParams{Pubkey: core.MustParsePubkey(key)}, Result: &good},
		{Method: rpcapi.MethodGetBalance, Params: &rpcapi.GetBalanceParams{Pubkey: core.MustParsePubkey(key), Config: rpcapi.Some(rpcapi.ContextConfig{MinContextSlot: &high})}, Result: &bad},
		{Method: rpcapi.MethodGetSlot, Params: &rpcapi.GetSlotParams{}},
	}
	if err := c.Batch(ctx, calls); err != nil {
		t.Fatal(err)
	}
	if calls[0].Err != nil || good.Value == 0 {
		t.Errorf("batch member 0: %v %+v", calls[0].Err, good)
	}
	if e, ok := rpcapi.AsError(calls[1].Err); !ok || e.Code != -32016 || e.Data.(map[string]any)["contextSlot"].(float64) != 7 {
		t.Errorf("batch member 1: %#v", calls[1].Err)
	}
	if e, ok := rpcapi.AsError(calls[2].Err); !ok || e.Code != -32601 || !strings.Contains(e.Message, rpcapi.MethodGetSlot) {
		t.Errorf("batch member 2: %v", calls[2].Err)
	}

	ws, err := rpcclient.Dial(ctx, "ws"+strings.TrimPrefix(wsSrv.URL, "http"))
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	sub, err := ws.AccountSubscribe(ctx, &rpcapi.AccountSubscribeParams{Pubkey: core.MustParsePubkey(key)})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-sub.C:
		if n.Context.Slot != 9 || n.Value.Lamports != 5 || n.Value.Data.Binary == nil || *n.Value.Data.Binary != "abc" {
			t.Errorf("notification = %+v", n)
		}
	case <-ctx.Done():
		t.Fatal("no notification")
	}
	if err := sub.Unsubscribe(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok := <-sub.C; ok {
		t.Error("channel still open after Unsubscribe")
	}
	wsHandler.Shutdown(ctx)
}
