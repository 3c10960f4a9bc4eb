package node

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/bigtable/bttest"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/bigtable"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// btCall posts one JSON-RPC call and returns its result or its error.
func btCall(t *testing.T, url, method string, params ...any) (json.RawMessage, *struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(url, "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil {
		t.Fatal(err)
	}
	return reply.Result, reply.Error
}

// sameJSON compares two answers value by value and names the first path where they differ.
func sameJSON(a, b any, path string) string {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(av) != len(bv) {
			return fmt.Sprintf("%s: %v vs %v", path, a, b)
		}
		for k := range av {
			if d := sameJSON(av[k], bv[k], path+"."+k); d != "" {
				return d
			}
		}
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return fmt.Sprintf("%s: %v vs %v", path, a, b)
		}
		for i := range av {
			if d := sameJSON(av[i], bv[i], fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	default:
		if !reflect.DeepEqual(a, b) {
			return fmt.Sprintf("%s: %v vs %v", path, a, b)
		}
	}
	return ""
}

// TestHistoryFromBigtableMatchesLocal records the history answers of a few slots while the local ledger holds
// them, lets --limit-ledger-size prune them once Bigtable holds them, and asks again: every answer, now served
// from Bigtable, is the same field by field. Then Bigtable goes away and the same reads answer -32603 with the
// cause.
func TestHistoryFromBigtableMatchesLocal(t *testing.T) {
	srv, err := bttest.NewServer("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var closeOnce sync.Once
	stopBigtable := func() { closeOnce.Do(srv.Close) }
	defer stopBigtable()
	n, err := Start(Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		BlockProduction: ledger.ProduceOnRequest, FinalityDepthZero: true, NoSnapshots: true,
		// Short epochs: the first blocks of epochs 1 and 2 pay rewards, read back from Bigtable too.
		Genesis: ledger.GenesisOptions{SlotsPerEpoch: 32},
		History: HistoryOptions{Bigtable: &bigtable.Config{EmulatorHost: srv.Addr, CreateTables: true, Timeout: time.Second},
			LimitShreds: 1, PruneEvery: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Close(context.Background())
	l, url := n.Ledger, n.HTTPURL
	ctx := context.Background()

	alice, _ := core.NewKeypair()
	bob, _ := core.NewKeypair()
	if _, err := l.AdvanceSlots(ctx, 2); err != nil {
		t.Fatal(err)
	}
	faucet := l.Genesis.Faucet
	hash := l.Bank(ledger.Processed).LastBlockhash()
	memo, err := core.NewTransaction(faucet.PublicKey(), []core.Instruction{
		core.TransferInstruction(faucet.PublicKey(), alice.PublicKey(), 5_000_000_000),
		{ProgramID: core.MemoProgramID, Data: []byte("archived")},
	}, hash, faucet)
	if err != nil {
		t.Fatal(err)
	}
	var sigs []string
	for _, tx := range []*core.Transaction{memo} {
		if _, err := l.Execute(ctx, tx); err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, tx.Signature().String())
	}
	l.AdvanceSlots(ctx, 1)
	hash = l.Bank(ledger.Processed).LastBlockhash()
	for _, tx := range []*core.Transaction{
		core.NewTransferTx(alice, bob.PublicKey(), 9_000_000_000, hash), // fails: more than alice holds
		core.NewTransferTx(alice, bob.PublicKey(), 1_000_000, hash),
	} {
		if _, err := l.Execute(ctx, tx); err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, tx.Signature().String())
	}
	l.AdvanceSlots(ctx, 3)

	type q struct {
		method string
		params []any
	}
	queries := []q{
		{rpcapi.MethodGetBlocks, []any{0, 5}}, {rpcapi.MethodGetBlocksWithLimit, []any{1, 5}},
		{rpcapi.MethodGetSignaturesForAddress, []any{alice.PublicKey().String()}},
		{rpcapi.MethodGetSignaturesForAddress, []any{alice.PublicKey().String(), map[string]any{"before": sigs[2], "limit": 1}}},
		{rpcapi.MethodGetSignatureStatuses, []any{sigs, map[string]any{"searchTransactionHistory": true}}},
	}
	for s := 1; s <= 6; s++ {
		queries = append(queries, q{rpcapi.MethodGetBlockTime, []any{s}})
		for _, cfg := range []map[string]any{
			{"maxSupportedTransactionVersion": 0},
			{"encoding": "base64", "maxSupportedTransactionVersion": 0},
			{"encoding": "jsonParsed", "maxSupportedTransactionVersion": 0},
			{"transactionDetails": "signatures", "rewards": false},
			{"transactionDetails": "accounts", "maxSupportedTransactionVersion": 0},
		} {
			queries = append(queries, q{rpcapi.MethodGetBlock, []any{s, cfg}})
		}
	}
	for _, sig := range sigs {
		for _, enc := range []string{"json", "base64", "jsonParsed"} {
			queries = append(queries, q{rpcapi.MethodGetTransaction, []any{sig, map[string]any{"encoding": enc, "maxSupportedTransactionVersion": 0}}})
		}
	}
	local := make([]any, len(queries))
	for i, qq := range queries {
		res, e := btCall(t, url, qq.method, qq.params...)
		if e != nil {
			t.Fatalf("%s %v: %d %s", qq.method, qq.params, e.Code, e.Message)
		}
		if err := json.Unmarshal(res, &local[i]); err != nil {
			t.Fatal(err)
		}
	}

	// Two epochs on (below what a restart reads back, so nothing is pruned yet), the first blocks of epochs 1
	// and 2 with their rewards.
	if _, err := l.AdvanceSlots(ctx, 80); err != nil {
		t.Fatal(err)
	}
	staked := []string{l.Genesis.Vote.PublicKey().String(), l.Genesis.Stake.PublicKey().String()}
	rewardQueries := []q{{rpcapi.MethodGetBlock, []any{32, map[string]any{"transactionDetails": "none"}}},
		{rpcapi.MethodGetBlock, []any{64, map[string]any{"transactionDetails": "none"}}},
		{rpcapi.MethodGetInflationReward, []any{staked, map[string]any{"epoch": 0}}},
		{rpcapi.MethodGetInflationReward, []any{staked, map[string]any{"epoch": 1}}}}
	for _, qq := range rewardQueries {
		res, e := btCall(t, url, qq.method, qq.params...)
		if e != nil {
			t.Fatalf("%s %v: %d %s", qq.method, qq.params, e.Code, e.Message)
		}
		var v any
		if err := json.Unmarshal(res, &v); err != nil {
			t.Fatal(err)
		}
		queries, local = append(queries, qq), append(local, v)
	}
	if r := local[len(local)-1].([]any)[1]; r == nil {
		t.Fatal("no inflation reward for epoch 1: the comparison would prove nothing")
	}

	// Past what a restart reads back, the local ledger lets the slots go once Bigtable holds them.
	if _, err := l.AdvanceSlots(ctx, 560); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for l.FirstAvailableBlock() <= 64 {
		if time.Now().After(deadline) {
			t.Fatalf("the local ledger still starts at %d", l.FirstAvailableBlock())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if res, _ := btCall(t, url, rpcapi.MethodMinimumLedgerSlot); string(res) == "0" {
		t.Fatal("minimumLedgerSlot did not move")
	}
	if res, _ := btCall(t, url, rpcapi.MethodGetFirstAvailableBlock); string(res) != "0" {
		t.Errorf("getFirstAvailableBlock = %s, want 0 (Bigtable's first block)", res)
	}
	for i, qq := range queries {
		res, e := btCall(t, url, qq.method, qq.params...)
		if e != nil {
			t.Errorf("%s %v from Bigtable: %d %s", qq.method, qq.params, e.Code, e.Message)
			continue
		}
		var got any
		if err := json.Unmarshal(res, &got); err != nil {
			t.Fatal(err)
		}
		if qq.method == rpcapi.MethodGetSignatureStatuses {
			// The context slot moved on; the statuses are what is compared.
			got, local[i] = got.(map[string]any)["value"], local[i].(map[string]any)["value"]
		}
		if d := sameJSON(local[i], got, qq.method); d != "" {
			t.Errorf("%s %v differs from Bigtable: %s", qq.method, qq.params, d)
		}
	}

	// Bigtable gone: reads that need it fail with the cause, never "not found" or "skipped".
	stopBigtable()
	for _, qq := range []q{{rpcapi.MethodGetBlock, []any{3}}, {rpcapi.MethodGetTransaction, []any{sigs[0]}}, {rpcapi.MethodGetBlockTime, []any{3}},
		{rpcapi.MethodGetBlocks, []any{0, 8}}, {rpcapi.MethodGetSignaturesForAddress, []any{alice.PublicKey().String()}}} {
		_, e := btCall(t, url, qq.method, qq.params...)
		if e == nil || e.Code != -32603 || !strings.Contains(e.Message, "Bigtable") {
			t.Errorf("%s with Bigtable down: %+v", qq.method, e)
		}
	}
}
