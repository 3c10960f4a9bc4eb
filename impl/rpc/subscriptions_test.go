package rpc_test

// Subscriptions over a real node (node.Start, in process, short slots), through the generated WebSocket client.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/node"
	"ledgerd/impl/programs/system"
)

const (
	testSlot  = 20 * time.Millisecond
	testDepth = 2
	waitLimit = 10 * time.Second
)

func startNode(t *testing.T, configure func(*node.Config)) *node.Node {
	t.Helper()
	cfg := node.Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, SlotDuration: testSlot,
		FinalityDepth: testDepth, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if configure != nil {
		configure(&cfg)
	}
	n, err := node.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Close(context.Background()) })
	return n
}

func dial(t *testing.T, n *node.Node) *rpcclient.WSClient {
	t.Helper()
	ws, err := rpcclient.Dial(context.Background(), n.WSURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

func ptr[T any](v T) *T { return &v }

func newKey(t *testing.T) core.Keypair {
	t.Helper()
	k, err := core.NewKeypair()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// transfer builds (without sending) a transfer from the faucet.
func transfer(n *node.Node, to core.Pubkey, lamports uint64) *core.Transaction {
	return core.NewTransferTx(n.Genesis.Faucet, to, lamports, n.Ledger.Bank(ledger.Processed).LastBlockhash())
}

// execute runs tx and returns its slot; the transaction must be processed.
func execute(t *testing.T, n *node.Node, tx *core.Transaction) (uint64, *ledger.Executed) {
	t.Helper()
	ex, err := n.Ledger.Execute(context.Background(), tx)
	if err != nil {
		t.Fatal(err)
	}
	if !ex.Result.Processed {
		t.Fatalf("transaction not processed: %v", ex.Result.Err)
	}
	return ex.Slot, ex
}

// must unwraps a subscribe call; a failed subscription is a broken test setup (and ends the test binary).
func must[T any](s *rpcclient.Subscription[T], err error) *rpcclient.Subscription[T] {
	if err != nil {
		panic(fmt.Sprintf("subscribe: %v", err))
	}
	return s
}

// next returns the next notification of s that satisfies ok (nil: any).
func next[T any](t *testing.T, s *rpcclient.Subscription[T], ok func(T) bool) T {
	t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case v, open := <-s.C:
			if !open {
				t.Fatalf("subscription %d closed", s.ID)
			}
			if ok == nil || ok(v) {
				return v
			}
		case <-deadline:
			var zero T
			t.Fatalf("no %T for subscription %d", zero, s.ID)
		}
	}
}

// quiet checks that s gets no notification for d.
func quiet[T any](t *testing.T, s *rpcclient.Subscription[T], d time.Duration) {
	t.Helper()
	select {
	case v := <-s.C:
		t.Fatalf("unexpected notification on subscription %d: %+v", s.ID, v)
	case <-time.After(d):
	}
}

// waitFor polls cond until it holds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func waitFinalized(t *testing.T, n *node.Node, slot uint64) {
	t.Helper()
	waitFor(t, fmt.Sprintf("slot %d to be finalized", slot), func() bool {
		_, _, f := n.Ledger.Slots()
		return f >= slot
	})
}

func accountParams(k core.Pubkey, commitment string, cfg *rpcapi.AccountInfoConfig) *rpcapi.AccountSubscribeParams {
	if cfg == nil {
		cfg = &rpcapi.AccountInfoConfig{}
	}
	if commitment != "" {
		cfg.Commitment = ptr(rpcapi.Commitment(commitment))
	}
	return &rpcapi.AccountSubscribeParams{Pubkey: k, Config: rpcapi.OptOf(cfg)}
}

func rpcCode(err error) (int, string) {
	if e, ok := rpcapi.AsError(err); ok {
		return int(e.Code), e.Message
	}
	return 0, fmt.Sprint(err)
}

// Each commitment is notified once per change, with the context slot of the transaction's slot, and only once
// the slot has reached it; encodings and dataSlice apply; a deleted account is sent as the default account.
func TestAccountSubscribe(t *testing.T) {
	t.Parallel()
	n := startNode(t, nil)
	ws := dial(t, n)
	ctx := context.Background()
	to := newKey(t)

	processed := must(ws.AccountSubscribe(ctx, accountParams(to.PublicKey(), "processed", nil)))
	confirmed := must(ws.AccountSubscribe(ctx, accountParams(to.PublicKey(), "confirmed", nil)))
	finalized := must(ws.AccountSubscribe(ctx, accountParams(to.PublicKey(), "", nil)))
	sliced := must(ws.AccountSubscribe(ctx, accountParams(to.PublicKey(), "confirmed",
		&rpcapi.AccountInfoConfig{Encoding: ptr(rpcapi.AccountEncodingBase64), DataSlice: &rpcapi.DataSlice{Offset: 0, Length: 4}})))
	parsed := must(ws.AccountSubscribe(ctx, accountParams(to.PublicKey(), "processed",
		&rpcapi.AccountInfoConfig{Encoding: ptr(rpcapi.AccountEncodingJsonParsed)})))

	const amount = 2 * ledger.LamportsPerSOL
	slot, _ := execute(t, n, transfer(n, to.PublicKey(), amount))

	check := func(name string, got rpcapi.AccountNotification, level ledger.Commitment) {
		t.Helper()
		if got.Context.Slot != slot || got.Value.Lamports != amount || got.Value.Owner != core.SystemProgramID.String() ||
			got.Value.Space != 0 {
			t.Errorf("%s: %+v, want slot %d and %d lamports", name, got, slot, amount)
		}
		_, c, f := n.Ledger.Slots()
		if reached := map[ledger.Commitment]uint64{ledger.Processed: slot, ledger.Confirmed: c, ledger.Finalized: f}[level]; reached < slot {
			t.Errorf("%s: notified before slot %d reached %s (at %d)", name, slot, level, reached)
		}
	}
	got := next(t, processed, nil)
	check("processed", got, ledger.Processed)
	if got.Value.Data.Binary == nil || *got.Value.Data.Binary != "" {
		t.Errorf("default encoding: data %+v, want the bare base-58 string", got.Value.Data)
	}
	check("confirmed", next(t, confirmed, nil), ledger.Confirmed)
	check("finalized", next(t, finalized, nil), ledger.Finalized)
	if got := next(t, sliced, nil); got.Value.Data.Encoded == nil || *got.Value.Data.Encoded != [2]string{"", "base64"} {
		t.Errorf("base64: data %+v", got.Value.Data)
	}
	if got := next(t, parsed, nil); got.Value.Data.Encoded == nil || *got.Value.Data.Encoded != [2]string{"", "base64"} {
		t.Errorf("jsonParsed of a wallet: data %+v, want the base64 fallback", got.Value.Data)
	}

	// The account empties itself (its fee and the rest of its lamports): it is deleted, and sent as the
	// default account. Nothing else was sent for the first change.
	drain := core.NewTransferTx(to, n.Genesis.Faucet.PublicKey(), amount-5000, n.Ledger.Bank(ledger.Processed).LastBlockhash())
	slot2, ex := execute(t, n, drain)
	if ex.Result.Err != nil {
		t.Fatalf("drain: %v", ex.Result.Err)
	}
	for _, s := range []*rpcclient.Subscription[rpcapi.AccountNotification]{processed, confirmed, finalized} {
		got := next(t, s, nil)
		if got.Context.Slot != slot2 || got.Value.Lamports != 0 || got.Value.Owner != core.SystemProgramID.String() ||
			got.Value.Data.Binary == nil || *got.Value.Data.Binary != "" {
			t.Errorf("deleted account: %+v (slot %d)", got, slot2)
		}
	}
	waitFinalized(t, n, slot2+2)
	quiet(t, confirmed, 5*testSlot)
	quiet(t, finalized, 5*testSlot)
}

// programSubscribe: one notification per changed account owned by the program that passes the filters,
// wrapped with the slot; filters are checked as getProgramAccounts checks them, with the PubSub prefix.
func TestProgramSubscribe(t *testing.T) {
	t.Parallel()
	n := startNode(t, nil)
	ws := dial(t, n)
	ctx := context.Background()
	to := newKey(t).PublicKey()

	program := func(cfg *rpcapi.ProgramSubscribeConfig) *rpcclient.Subscription[rpcapi.ProgramNotification] {
		return must(ws.ProgramSubscribe(ctx, &rpcapi.ProgramSubscribeParams{ProgramId: core.SystemProgramID, Config: rpcapi.OptOf(cfg)}))
	}
	wallets := program(&rpcapi.ProgramSubscribeConfig{Commitment: ptr(rpcapi.CommitmentConfirmed), Encoding: ptr(rpcapi.AccountEncodingBase64),
		Filters: &[]rpcapi.ProgramAccountsFilter{{DataSize: &rpcapi.ProgramAccountsFilterDataSize{DataSize: 0}}}})
	sized := program(&rpcapi.ProgramSubscribeConfig{Commitment: ptr(rpcapi.CommitmentProcessed),
		Filters: &[]rpcapi.ProgramAccountsFilter{{DataSize: &rpcapi.ProgramAccountsFilterDataSize{DataSize: 17}}}})

	slot, _ := execute(t, n, transfer(n, to, ledger.LamportsPerSOL))
	got := next(t, wallets, func(p rpcapi.ProgramNotification) bool { return p.Value.Pubkey == to.String() })
	if got.Context.Slot != slot || got.Value.Account.Lamports != ledger.LamportsPerSOL ||
		got.Value.Account.Data.Encoded == nil || got.Value.Account.Data.Encoded[1] != "base64" {
		t.Errorf("programNotification %+v, want slot %d", got, slot)
	}
	quiet(t, sized, 5*testSlot)

	tooLarge := strings.Repeat("2", 176)
	var id uint64
	err := ws.Call(ctx, rpcapi.MethodProgramSubscribe, []any{core.SystemProgramID.String(), map[string]any{
		"filters": []any{map[string]any{"memcmp": map[string]any{"offset": 0, "bytes": tooLarge}}}}}, &id)
	if code, msg := rpcCode(err); code != -32602 || msg != "Invalid params: Invalid param: DataTooLarge" {
		t.Errorf("oversized memcmp: %d %q", code, msg)
	}
}

// logsSubscribe: "all", and mentions of one address, at processed and at confirmed.
func TestLogsSubscribe(t *testing.T) {
	t.Parallel()
	n := startNode(t, nil)
	ws := dial(t, n)
	ctx := context.Background()
	to := newKey(t).PublicKey()

	mentions := must(ws.LogsSubscribe(ctx, &rpcapi.LogsSubscribeParams{
		Filter: rpcapi.LogsFilter{Mentions: &rpcapi.LogsFilterMentions{Mentions: []string{to.String()}}},
		Config: rpcapi.Some(rpcapi.CommitmentConfig{Commitment: ptr(rpcapi.CommitmentProcessed)})}))
	all := must(ws.LogsSubscribe(ctx, &rpcapi.LogsSubscribeParams{Filter: rpcapi.LogsFilter{All: ptr("all")},
		Config: rpcapi.Some(rpcapi.CommitmentConfig{Commitment: ptr(rpcapi.CommitmentConfirmed)})}))
	other := must(ws.LogsSubscribe(ctx, &rpcapi.LogsSubscribeParams{
		Filter: rpcapi.LogsFilter{Mentions: &rpcapi.LogsFilterMentions{Mentions: []string{newKey(t).PublicKey().String()}}},
		Config: rpcapi.Some(rpcapi.CommitmentConfig{Commitment: ptr(rpcapi.CommitmentProcessed)})}))

	tx := transfer(n, to, 1_000_000)
	slot, _ := execute(t, n, tx)
	sig := tx.Signature().String()
	wantLogs := []string{"Program 11111111111111111111111111111111 invoke [1]", "Program 11111111111111111111111111111111 success"}
	for name, s := range map[string]*rpcclient.Subscription[rpcapi.LogsNotification]{"mentions": mentions, "all": all} {
		got := next(t, s, func(l rpcapi.LogsNotification) bool { return l.Value.Signature == sig })
		if got.Context.Slot != slot || got.Value.Err != nil || !slices.Equal(got.Value.Logs, wantLogs) {
			t.Errorf("%s: %+v, want slot %d, logs %q", name, got, slot, wantLogs)
		}
	}
	quiet(t, other, 5*testSlot)
}

// signatureSubscribe: one notification at the subscription's commitment, after which the node removes it;
// "receivedSignature" first when asked for; a failed transaction carries its error.
func TestSignatureSubscribe(t *testing.T) {
	t.Parallel()
	n := startNode(t, nil)
	ws := dial(t, n)
	ctx := context.Background()
	tx := transfer(n, newKey(t).PublicKey(), 1_000_000)
	sigParams := func(commitment string, received bool) *rpcapi.SignatureSubscribeParams {
		var cfg rpcapi.SignatureSubscribeConfig
		if commitment != "" {
			cfg.Commitment = ptr(rpcapi.Commitment(commitment))
		}
		if received {
			cfg.EnableReceivedNotification = ptr(true)
		}
		return &rpcapi.SignatureSubscribeParams{Signature: tx.Signature(), Config: rpcapi.Some(cfg)}
	}
	processed := must(ws.SignatureSubscribe(ctx, sigParams("processed", true)))
	confirmed := must(ws.SignatureSubscribe(ctx, sigParams("confirmed", false)))
	finalized := must(ws.SignatureSubscribe(ctx, sigParams("", false)))
	if got := n.PubSub.Stats().Subscriptions; got != 3 {
		t.Fatalf("%d subscriptions, want 3", got)
	}

	// What sendTransaction reports when it accepts the transaction.
	n.PubSub.SignatureReceived(tx.Signature())
	if got := next(t, processed, nil); got.Value.Received == nil || *got.Value.Received != "receivedSignature" {
		t.Errorf("received: %+v", got)
	}
	slot, _ := execute(t, n, tx)
	for name, s := range map[string]*rpcclient.Subscription[rpcapi.SignatureNotification]{
		"processed": processed, "confirmed": confirmed, "finalized": finalized} {
		got := next(t, s, nil)
		if got.Context.Slot != slot || got.Value.Processed == nil || got.Value.Processed.Err != nil {
			t.Errorf("%s: %+v, want {err: null} at slot %d", name, got, slot)
		}
	}
	waitFor(t, "the notified subscriptions to be removed", func() bool { return n.PubSub.Stats().Subscriptions == 0 })
	if code, msg := rpcCode(processed.Unsubscribe(ctx)); code != -32602 || msg != "Invalid subscription id." {
		t.Errorf("unsubscribe after the final notification: %d %q", code, msg)
	}

	// A transaction that fails (but pays its fee) is reported with its error.
	poor := newKey(t)
	execute(t, n, transfer(n, poor.PublicKey(), ledger.LamportsPerSOL))
	failing := core.NewTransferTx(poor, newKey(t).PublicKey(), 2*ledger.LamportsPerSOL, n.Ledger.Bank(ledger.Processed).LastBlockhash())
	sub := must(ws.SignatureSubscribe(ctx, &rpcapi.SignatureSubscribeParams{Signature: failing.Signature(),
		Config: rpcapi.Some(rpcapi.SignatureSubscribeConfig{Commitment: ptr(rpcapi.CommitmentConfirmed)})}))
	execute(t, n, failing)
	got := next(t, sub, nil)
	if got.Value.Processed == nil || got.Value.Processed.Err == nil {
		t.Fatalf("failed transaction: %+v", got)
	}
	if b, _ := json.Marshal(got.Value.Processed.Err); string(b) != `{"InstructionError":[0,{"Custom":1}]}` {
		t.Errorf("err %s", b)
	}
}

// A subscription made after a transaction's slot reached its commitment is not notified of it (as the
// reference); the next change is.
func TestSubscriptionAfterTheSlotIsNotNotified(t *testing.T) {
	t.Parallel()
	n := startNode(t, nil)
	ws := dial(t, n)
	ctx := context.Background()
	to := newKey(t).PublicKey()
	tx := transfer(n, to, 1_000_000)
	slot, _ := execute(t, n, tx)
	waitFinalized(t, n, slot)

	sig := must(ws.SignatureSubscribe(ctx, &rpcapi.SignatureSubscribeParams{Signature: tx.Signature(),
		Config: rpcapi.Some(rpcapi.SignatureSubscribeConfig{Commitment: ptr(rpcapi.CommitmentProcessed)})}))
	var accounts []*rpcclient.Subscription[rpcapi.AccountNotification]
	for _, c := range []string{"processed", "confirmed", "finalized"} {
		accounts = append(accounts, must(ws.AccountSubscribe(ctx, accountParams(to, c, nil))))
	}
	quiet(t, accounts[0], 5*testSlot)
	quiet(t, accounts[2], 5*testSlot)
	quiet(t, sig, testSlot)

	slot2, _ := execute(t, n, transfer(n, to, 1_000_000))
	for _, s := range accounts {
		if got := next(t, s, nil); got.Context.Slot != slot2 || got.Value.Lamports != 2_000_000 {
			t.Errorf("after the second transfer: %+v", got)
		}
	}
	quiet(t, sig, testSlot)
}

// slotSubscribe, rootSubscribe and slotsUpdatesSubscribe follow the slots as they are created, frozen, confirmed
// and rooted.
func TestSlotRootAndSlotsUpdates(t *testing.T) {
	t.Parallel()
	n := startNode(t, nil)
	ws := dial(t, n)
	ctx := context.Background()
	slots := must(ws.SlotSubscribe(ctx))
	roots := must(ws.RootSubscribe(ctx))
	updates := must(ws.SlotsUpdatesSubscribe(ctx))

	first := next(t, slots, nil)
	for i := range 3 {
		s := next(t, slots, nil)
		wantRoot := uint64(max(int64(s.Slot)-1-testDepth, 0))
		if s.Slot != first.Slot+uint64(i)+1 || s.Parent != s.Slot-1 || s.Root != wantRoot {
			t.Errorf("slotNotification %+v", s)
		}
	}
	r := next(t, roots, nil)
	for range 3 {
		if got := next(t, roots, nil); got != r+1 {
			t.Errorf("root %d after %d", got, r)
		}
		r++
	}

	seen := map[string]rpcapi.SlotUpdate{}
	var watched uint64
	next(t, updates, func(u rpcapi.SlotUpdate) bool {
		if u.Type == "createdBank" && watched == 0 {
			watched = u.Slot
		}
		if watched != 0 && u.Slot == watched {
			seen[string(u.Type)] = u
		}
		return len(seen) == 5
	})
	now := uint64(time.Now().UnixMilli())
	for typ, u := range seen {
		if u.Timestamp > now || u.Timestamp+60_000 < now {
			t.Errorf("%s: timestamp %d is not milliseconds of now (%d)", typ, u.Timestamp, now)
		}
	}
	if u := seen["createdBank"]; u.Parent == nil || *u.Parent != watched-1 {
		t.Errorf("createdBank %+v", u)
	}
	if u := seen["frozen"]; u.Stats == nil {
		t.Errorf("frozen without stats: %+v", u)
	}
	for _, typ := range []string{"completed", "optimisticConfirmation", "root"} {
		if _, ok := seen[typ]; !ok {
			t.Errorf("no %s update for slot %d (saw %v)", typ, watched, seen)
		}
	}
}

// blockSubscribe: confirmed or finalized blocks with the subscription's encoding and details; a mentions filter
// keeps the matching transactions and skips blocks without one.
func TestBlockSubscribe(t *testing.T) {
	t.Parallel()
	n := startNode(t, nil)
	ws := dial(t, n)
	ctx := context.Background()
	to := newKey(t).PublicKey()
	mentions := must(ws.BlockSubscribe(ctx, &rpcapi.BlockSubscribeParams{
		Filter: rpcapi.BlockSubscribeFilter{MentionsAccountOrProgram: &rpcapi.BlockSubscribeFilterMentionsAccountOrProgram{MentionsAccountOrProgram: to.String()}},
		Config: rpcapi.Some(rpcapi.BlockSubscribeConfig{Commitment: ptr(rpcapi.CommitmentConfirmed)})}))
	all := must(ws.BlockSubscribe(ctx, &rpcapi.BlockSubscribeParams{Filter: rpcapi.BlockSubscribeFilter{All: ptr("all")},
		Config: rpcapi.Some(rpcapi.BlockSubscribeConfig{TransactionDetails: ptr(rpcapi.TransactionDetailsSignatures), ShowRewards: ptr(true)})}))

	tx := transfer(n, to, 1_000_000)
	slot, _ := execute(t, n, transfer(n, newKey(t).PublicKey(), 1_000_000)) // same slot, most likely: filtered out
	slot2, _ := execute(t, n, tx)
	got := next(t, mentions, nil)
	if got.Context.Slot != slot2 || got.Value.Slot != slot2 || got.Value.Err != nil || got.Value.Block == nil {
		t.Fatalf("mentions: %+v, want slot %d", got, slot2)
	}
	b := got.Value.Block
	if b.Transactions == nil || len(*b.Transactions) != 1 || b.Rewards != nil || b.BlockHeight == nil {
		t.Fatalf("mentions block: %+v", b)
	}
	if full := (*b.Transactions)[0].Full; full == nil || full.Transaction.Binary == nil || full.Transaction.Binary[1] != "base64" {
		t.Errorf("default encoding: %+v", (*b.Transactions)[0])
	}
	// Skip to the transfers' first slot: the notifications before it are the blocks finalized since subscribing
	// (none when the transfers landed in slot 1, the first after genesis).
	first := min(slot, slot2)
	if first > 1 {
		next(t, all, func(b rpcapi.BlockNotification) bool { return b.Value.Slot+1 == first })
	}
	for s := first; s <= slot2; s++ {
		got := next(t, all, nil)
		if got.Value.Slot != s || got.Value.Block == nil || got.Value.Block.Signatures == nil || got.Value.Block.Rewards == nil {
			t.Fatalf("all (finalized): %+v, want slot %d", got, s)
		}
		if s == slot2 && !slices.Contains(*got.Value.Block.Signatures, tx.Signature().String()) {
			t.Errorf("block %d signatures %v lack %s", s, *got.Value.Block.Signatures, tx.Signature())
		}
		_, _, f := n.Ledger.Slots()
		if f < s {
			t.Errorf("finalized block %d notified at root %d", s, f)
		}
	}

	var id uint64
	err := ws.Call(ctx, rpcapi.MethodBlockSubscribe, []any{"all", map[string]any{"commitment": "processed"}}, &id)
	if code, _ := rpcCode(err); code != -32602 {
		t.Errorf("processed block subscription: %v", err)
	}
	// The node votes for every slot: its votes are relayed with the vote account, the tower's slots and the
	// voted hash.
	votes := must(ws.VoteSubscribe(ctx))
	v := next(t, votes, func(v rpcapi.RpcVote) bool { return len(v.Slots) > 0 })
	if v.VotePubkey != n.Ledger.VoteAccount().String() || v.Hash == "" || v.Signature == "" || v.Timestamp == nil {
		t.Errorf("vote notification %+v", v)
	}
}

// The unstable subscriptions answer -32601 when turned off.
func TestDisabledUnstableSubscriptions(t *testing.T) {
	t.Parallel()
	n := startNode(t, func(c *node.Config) {
		c.PubSub.DisableBlock, c.PubSub.DisableSlotsUpdates, c.PubSub.DisableVote = true, true, true
	})
	ws := dial(t, n)
	for _, call := range []struct {
		method string
		params any
	}{
		{rpcapi.MethodBlockSubscribe, []any{"all"}}, {rpcapi.MethodBlockUnsubscribe, []any{0}},
		{rpcapi.MethodSlotsUpdatesSubscribe, nil}, {rpcapi.MethodSlotsUpdatesUnsubscribe, []any{0}},
		{rpcapi.MethodVoteSubscribe, nil}, {rpcapi.MethodVoteUnsubscribe, []any{0}},
	} {
		err := ws.Call(context.Background(), call.method, call.params, new(json.RawMessage))
		if code, msg := rpcCode(err); code != -32601 || msg != "Method not found" {
			t.Errorf("%s: %d %q", call.method, code, msg)
		}
	}
	if _, err := ws.SlotSubscribe(context.Background()); err != nil {
		t.Errorf("slotSubscribe: %v", err)
	}
}

// Identical subscriptions share an id across connections, each connection holding its reference; unsubscribing
// and disconnecting free them (counted in the hub).
func TestSharedIDsAndFreeing(t *testing.T) {
	t.Parallel()
	n := startNode(t, nil)
	a, b := dial(t, n), dial(t, n)
	ctx := context.Background()
	to := newKey(t).PublicKey()
	sa := must(a.AccountSubscribe(ctx, accountParams(to, "confirmed", nil)))
	sb := must(b.AccountSubscribe(ctx, accountParams(to, "confirmed", &rpcapi.AccountInfoConfig{Encoding: ptr(rpcapi.AccountEncodingBinary)})))
	other := must(b.AccountSubscribe(ctx, accountParams(to, "processed", nil)))
	if sa.ID != sb.ID || other.ID == sa.ID {
		t.Fatalf("ids %d, %d, %d: want the first two equal, the third different", sa.ID, sb.ID, other.ID)
	}
	if got := n.PubSub.Stats(); got.Subscriptions != 2 || got.References != 3 {
		t.Fatalf("stats %+v", got)
	}
	slot, _ := execute(t, n, transfer(n, to, 1_000_000))
	for _, s := range []*rpcclient.Subscription[rpcapi.AccountNotification]{sa, sb} {
		if got := next(t, s, nil); got.Context.Slot != slot {
			t.Errorf("shared id %d: %+v", s.ID, got)
		}
	}
	// a cannot release what only b holds.
	if code, _ := rpcCode(a.Call(ctx, rpcapi.MethodAccountUnsubscribe, []uint64{other.ID}, new(bool))); code != -32602 {
		t.Errorf("foreign unsubscribe: code %d", code)
	}
	if err := sa.Unsubscribe(ctx); err != nil {
		t.Fatal(err)
	}
	if got := n.PubSub.Stats(); got.Subscriptions != 2 || got.References != 2 {
		t.Errorf("after a's unsubscribe: %+v", got)
	}
	execute(t, n, transfer(n, to, 1_000_000))
	next(t, sb, nil) // b still hears about it
	b.Close()
	waitFor(t, "b's subscriptions to be freed", func() bool {
		s := n.PubSub.Stats()
		return s.Subscriptions == 0 && s.References == 0
	})
}

// A client that does not read is disconnected when its send queue fills, and its subscriptions are freed; the
// others keep being served.
func TestSlowConsumerIsDisconnected(t *testing.T) {
	t.Parallel()
	n := startNode(t, nil)
	ctx := context.Background()
	const size = 1000
	big := newKey(t)
	create := system.CreateAccount(n.Genesis.Faucet.PublicKey(), big.PublicKey(), ledger.LamportsPerSOL, size, core.SystemProgramID)
	tx, err := core.NewTransaction(n.Genesis.Faucet.PublicKey(), []core.Instruction{create},
		n.Ledger.Bank(ledger.Processed).LastBlockhash(), n.Genesis.Faucet, big)
	if err != nil {
		t.Fatal(err)
	}
	if _, ex := execute(t, n, tx); ex.Result.Err != nil {
		t.Fatal(ex.Result.Err)
	}

	// The slow client has a small TCP receive buffer, so the node's queue for it fills after a few hundred kB.
	dialer := &net.Dialer{}
	slow, _, err := websocket.Dial(ctx, n.WSURL, &websocket.DialOptions{HTTPClient: &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := dialer.DialContext(ctx, network, addr)
			if err == nil {
				err = c.(*net.TCPConn).SetReadBuffer(4096)
			}
			return c, err
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer slow.CloseNow()
	// It subscribes 100 times to the 1 kB account (distinct slices: distinct ids), then stops reading: every
	// transfer to the account queues 100 notifications of 1.4 kB for it.
	for i := range 100 {
		req := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"accountSubscribe","params":["%s",{"encoding":"base64","commitment":"processed","dataSlice":{"offset":0,"length":%d}}]}`,
			i, big.PublicKey(), size+i)
		if err := slow.Write(ctx, websocket.MessageText, []byte(req)); err != nil {
			t.Fatal(err)
		}
		if _, reply, err := slow.Read(ctx); err != nil || !strings.Contains(string(reply), `"result"`) {
			t.Fatalf("subscribe %d: %s %v", i, reply, err)
		}
	}
	healthy := dial(t, n)
	slots := must(healthy.SlotSubscribe(ctx))
	if got := n.PubSub.Stats().References; got != 101 {
		t.Fatalf("%d references, want 101", got)
	}

	deadline := time.Now().Add(3 * waitLimit)
	for i := uint64(1); n.PubSub.Stats().References > 1; i++ {
		if time.Now().After(deadline) {
			t.Fatalf("the slow client was not dropped after %d transfers: %+v", i, n.PubSub.Stats())
		}
		execute(t, n, transfer(n, big.PublicKey(), i))
		time.Sleep(time.Millisecond) // at a pace the worker keeps up with
	}
	if got := n.PubSub.Stats(); got.Subscriptions != 1 || got.References != 1 {
		t.Errorf("after the drop: %+v", got)
	}
	// The node closed the connection; what its kernel buffers still hold drains at the client's pace, so the
	// test does not wait for the end of the stream. The other client is still served.
	next(t, slots, nil)
	next(t, slots, nil)
}
