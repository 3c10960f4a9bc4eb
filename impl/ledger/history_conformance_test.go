package ledger_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/bigtable/bttest"

	"ledgerd/conformance/suite"
	"ledgerd/impl/bigtable"
	"ledgerd/impl/ledger"
	"ledgerd/impl/node"
)

// This test lives here, not beside the conformance test, for ledger.SetRestoreKeep (export_test.go): only this
// package's tests may lower the slots pruning leaves, and without it the node would have to produce 512 slots
// beyond the fixtures (over a thousand with the epoch below), half a minute under the race detector.

// historyMethods are the methods whose cases read the fixtures' blocks and transactions.
var historyMethods = regexp.MustCompile(`^(getBlock|getBlocks|getBlocksWithLimit|getBlockTime|getTransaction|` +
	`getSignaturesForAddress|getSignatureStatuses|getFirstAvailableBlock|getInflationReward)$`)

const (
	// historyEpoch is the epoch length of the node: long enough that the fixtures land in epoch 0, short enough
	// that the first block of epoch 1 (which getInflationReward reads for epoch 0, the default in epoch 1) is
	// pruned too.
	historyEpoch = 320
	// historyKeep is what pruning leaves below the confirmed slot once the fixtures are made.
	historyKeep = 16
)

// The conformance suite's history cases pass against a node that no longer holds the fixtures' slots: once the
// suite has prepared its fixtures, the node goes on past the first block of epoch 1 and past what the status
// cache holds, the uploader puts every slot in the emulator, --limit-ledger-size prunes the local ledger above
// them, and every getBlock, getTransaction, getSignaturesForAddress, ... of them is served from Bigtable.
// getSignatureStatuses runs only with searchTransactionHistory (without it the reference answers from its
// status cache, not from history); getInflationReward must answer (the suite also accepts -32004 from a node
// still in epoch 0).
func TestConformanceHistoryFromBigtable(t *testing.T) {
	t.Parallel()
	srv, err := bttest.NewServer("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	n, err := node.Start(node.Config{LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, SlotDuration: 20 * time.Millisecond,
		FinalityDepth: 2, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Genesis: ledger.GenesisOptions{SlotsPerEpoch: historyEpoch},
		History: node.HistoryOptions{Bigtable: &bigtable.Config{EmulatorHost: srv.Addr, CreateTables: true, Timeout: 5 * time.Second},
			LimitShreds: 1, PruneEvery: 20 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := n.Close(ctx); err != nil {
			t.Errorf("closing the node: %v", err)
		}
	}()
	l := n.Ledger

	var cases []suite.Case
	for _, c := range suite.Cases() {
		if c.Method == "getSignatureStatuses" && strings.Contains(c.Params, "{{transferSig}}") &&
			!strings.Contains(c.Params, "searchTransactionHistory") {
			continue
		}
		if c.Method == "getInflationReward" && c.Kind == suite.Valid {
			c.AcceptCodes = nil
		}
		cases = append(cases, c)
	}

	var top uint64 // the newest slot a fixture landed in
	prune := func(ctx context.Context, vars suite.Vars) error {
		for name, v := range vars {
			if strings.HasSuffix(name, "Slot") {
				s, err := strconv.ParseUint(v, 10, 64)
				if err != nil {
					return fmt.Errorf("{{%s}} = %q: %v", name, v, err)
				}
				top = max(top, s)
			}
		}
		if top >= historyEpoch {
			return fmt.Errorf("the fixtures reached slot %d, past epoch 0 (%d slots): getInflationReward would not read Bigtable", top, historyEpoch)
		}
		// The clock stops so the node stays in epoch 1 while the cases run; slots come from AdvanceSlots.
		l.PauseClock()
		ledger.SetRestoreKeep(l, historyKeep)
		_, tip, _ := l.Slots()
		// Past the first block of epoch 1 by what pruning leaves, and the fixtures past the rooted slots the status
		// cache keeps, so getSignatureStatuses has to search the history too.
		want := max(uint64(historyEpoch+historyKeep+8), top+ledger.MaxRecentBlockhashes+16)
		if want >= 2*historyEpoch {
			return fmt.Errorf("the fixtures reached slot %d: leaving the status cache would take the node past epoch 1", top)
		}
		if tip < want {
			if _, err := l.AdvanceSlots(ctx, want-tip); err != nil {
				return err
			}
		}
		deadline := time.Now().Add(15 * time.Second)
		for l.FirstAvailableBlock() <= historyEpoch {
			if time.Now().After(deadline) {
				return fmt.Errorf("the local ledger still starts at %d (uploaded: %s)", l.FirstAvailableBlock(), uploaded(n))
			}
			time.Sleep(20 * time.Millisecond)
		}
		return nil
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	rep, err := suite.Run(ctx, suite.Config{URL: n.HTTPURL, WSURL: n.WSURL, Strict: true, Methods: historyMethods,
		Cases: cases, Prepared: prune})
	if err != nil {
		t.Fatal(err)
	}
	if top == 0 {
		t.Fatal("the fixtures gave no slot")
	}
	for _, s := range rep.Setup {
		if s.Outcome != suite.Pass {
			t.Errorf("setup %s: %s %s", s.Name, s.Outcome, s.Reason)
		}
	}
	ran := 0
	for _, m := range rep.Methods {
		if !historyMethods.MatchString(m.Method) {
			t.Errorf("%s ran, not a history method", m.Method)
		}
		for _, c := range m.Results {
			ran++
			if testing.Verbose() {
				t.Logf("%-24s %-7s %-40s %s %s", m.Method, c.Kind, c.Name, c.Outcome, c.Reason)
			}
		}
	}
	if len(rep.Methods) != 9 || ran < 40 {
		t.Errorf("%d methods, %d cases ran; want the 9 history methods and their cases", len(rep.Methods), ran)
	}
	for _, f := range rep.Failures() {
		t.Errorf("failure: %s", f)
	}

	// The answers came from Bigtable: the node holds none of the fixtures' slots, nor epoch 1's first block.
	var minSlot uint64
	if err := json.Unmarshal(rpcResult(t, n.HTTPURL, "minimumLedgerSlot"), &minSlot); err != nil {
		t.Fatal(err)
	}
	if minSlot <= max(top, historyEpoch) {
		t.Errorf("minimumLedgerSlot = %d: the local ledger still holds slot %d", minSlot, max(top, historyEpoch))
	}
}

// uploaded is the newest slot the node's uploader put in Bigtable, for a failure message.
func uploaded(n *node.Node) string {
	if u := n.Uploader(); u != nil {
		if s, ok := u.Last(); ok {
			return strconv.FormatUint(s, 10)
		}
	}
	return "nothing"
}

// rpcResult posts one JSON-RPC call without params and returns its result.
func rpcResult(t *testing.T, url, method string) json.RawMessage {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+method+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var reply struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&reply); err != nil || reply.Result == nil {
		t.Fatalf("%s: %v %s", method, err, reply.Error)
	}
	return reply.Result
}
