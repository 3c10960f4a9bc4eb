package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"ledgerd/conformance/suite"
	"ledgerd/generated"
	"ledgerd/generated/rpcapi"
	"ledgerd/impl/node"
)

// notYetImplemented are the methods ledgerd does not fully serve yet (none now): until a method's issue lands
// it answers -32601 "Method not available yet", which the suite reports as "not implemented by this node"; only
// these may be. The test fails while a listed method is fully covered, so the list only shrinks.
var notYetImplemented = []string{}

// schemaGaps are errors ledgerd rightly answers that the schema does not declare for the method yet. Add an
// entry only with a plan to fix the schema; the test fails once a listed error is declared.
var schemaGaps = map[string][]int{}

func startNode(t *testing.T, tweaks ...func(*node.Config)) *node.Node {
	t.Helper()
	cfg := node.Config{
		LedgerDir:     t.TempDir(),
		RPCPort:       -1,
		WSPort:        -1,
		SlotDuration:  20 * time.Millisecond,
		FinalityDepth: 2,
		Logger:        slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	for _, tweak := range tweaks {
		tweak(&cfg)
	}
	n, err := node.Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := n.Close(ctx); err != nil {
			t.Errorf("closing the node: %v", err)
		}
	})
	return n
}

func runSuite(t *testing.T, cfg suite.Config) *suite.Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Second)
	defer cancel()
	cfg.Undeclared = schemaGaps
	rep, err := suite.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// The suite passes against ledgerd: every method of the schema has a valid and an invalid case, and only the
// methods of notYetImplemented are not covered.
func TestConformance(t *testing.T) {
	t.Parallel()
	n := startNode(t)
	rep := runSuite(t, suite.Config{URL: n.HTTPURL, WSURL: n.WSURL})
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	t.Logf("report:\n%s", text.String())

	for _, f := range rep.Failures() {
		t.Errorf("failure: %s", f)
	}
	// A method is covered when the node implements it and a valid and an invalid case passed; cases waiting
	// for a fixture a later issue adds (a v0 transaction, a token account) may stay not covered meanwhile.
	notCovered := map[string]string{}
	for _, m := range rep.Methods {
		passed := map[string]bool{}
		for _, c := range m.Results {
			if c.Outcome == suite.Pass {
				passed[c.Kind] = true
			}
			if c.Outcome == suite.NotImplemented {
				notCovered[m.Method] = string(c.Outcome) + ": " + c.Reason
			}
		}
		if _, ok := notCovered[m.Method]; !ok && m.Method != "(protocol)" && (!passed["valid"] || !passed["invalid"]) {
			notCovered[m.Method] = "no passing valid and invalid case"
		}
	}
	for _, m := range sortedKeys(notCovered) {
		if !slices.Contains(notYetImplemented, m) {
			t.Errorf("%s is not covered (%s), and is not in notYetImplemented", m, notCovered[m])
		}
	}
	for _, m := range notYetImplemented {
		if _, ok := notCovered[m]; !ok {
			t.Errorf("%s is covered now (implemented; a valid and an invalid case pass): remove it from notYetImplemented", m)
		}
	}

	// A gap of the schema that is closed must leave the list.
	spec, err := suite.LoadSpec(generated.OpenRPC)
	if err != nil {
		t.Fatal(err)
	}
	for method, codes := range schemaGaps {
		for _, e := range spec.Methods[method].Errors {
			if slices.Contains(codes, e.Code) {
				t.Errorf("%s declares %d (%s) now: remove it from schemaGaps", method, e.Code, e.Name)
			}
		}
	}

	// The reports: JSON that reads back, and a self-contained HTML page.
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back suite.Report
	if err := json.Unmarshal(js.Bytes(), &back); err != nil || back.Passed != rep.Passed || len(back.Methods) != len(rep.Methods) {
		t.Errorf("the JSON report does not read back: %v", err)
	}
	var page bytes.Buffer
	if err := rep.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{rep.Summary(), `id="getAccountInfo"`, "<style>"} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
	if regexp.MustCompile(`<(script|link|img)\b`).MatchString(page.String()) {
		t.Error("the HTML report loads something from outside")
	}
}

// The suite can fail: behind a proxy that spoils getVersion's result (feature-set becomes a string) and
// getBalance's error codes (-32000), exactly those two methods fail, for those reasons.
func TestConformanceCatchesAWrongEndpoint(t *testing.T) {
	t.Parallel()
	n := startNode(t)
	proxy := httptest.NewServer(corrupting(t, n.HTTPURL))
	t.Cleanup(proxy.Close)

	rep := runSuite(t, suite.Config{URL: proxy.URL})
	if rep.OK() {
		t.Fatal("the run passed against a wrong endpoint")
	}
	failed := map[string][]suite.CaseResult{}
	for _, m := range rep.Methods {
		for _, c := range m.Results {
			if c.Outcome.Failure(false) {
				failed[m.Method] = append(failed[m.Method], c)
			}
		}
	}
	if got := sortedKeys(failed); !slices.Equal(got, []string{rpcapi.MethodGetBalance, rpcapi.MethodGetVersion}) {
		t.Errorf("failing methods = %v, want [getBalance getVersion]; failures:\n%s", got, strings.Join(rep.Failures(), "\n"))
	}
	for _, c := range failed[rpcapi.MethodGetVersion] {
		if c.Outcome != suite.SchemaViolation || !strings.Contains(c.Reason, "/feature-set") || !strings.Contains(c.Reason, "expected integer") {
			t.Errorf("getVersion %s: %s: %s, want a schema violation at /feature-set", c.Name, c.Outcome, c.Reason)
		}
	}
	if len(failed[rpcapi.MethodGetBalance]) < 4 {
		t.Errorf("getBalance: %d failing cases, want every invalid one", len(failed[rpcapi.MethodGetBalance]))
	}
	for _, c := range failed[rpcapi.MethodGetBalance] {
		if c.Kind != "invalid" || c.Outcome != suite.UnexpectedError ||
			!strings.Contains(c.Reason, "error -32000") || !strings.Contains(c.Reason, "is not among the errors getBalance declares") {
			t.Errorf("getBalance %s %s: %s: %s, want an undeclared -32000", c.Kind, c.Name, c.Outcome, c.Reason)
		}
	}
	if rep.Failed != len(rep.Failures()) {
		t.Errorf("summary counts %d failures, the list has %d", rep.Failed, len(rep.Failures()))
	}

	// The command exits 1 on the same endpoint and writes both reports.
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	jsonPath, htmlPath := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.html")
	code := run([]string{"-url", proxy.URL, "-run", "^getVersion$", "-json", jsonPath, "-html", htmlPath}, &out, &errOut)
	if code != 1 {
		t.Errorf("exit status %d, want 1; stderr: %s", code, errOut.String())
	}
	if !regexp.MustCompile(`(?m)^\d+ passed, [1-9]\d* failed`).MatchString(out.String()) {
		t.Errorf("no summary line in:\n%s", out.String())
	}
	for _, p := range []string{jsonPath, htmlPath} {
		if b, err := os.ReadFile(p); err != nil || len(b) == 0 {
			t.Errorf("report %s: %v", p, err)
		}
	}
}

// A method without a valid and an invalid case is a failure of the run, so a method added to the schema shows
// up until someone writes its cases; -strict fails on methods the node does not implement (here voteSubscribe,
// turned off as the reference's unstable subscriptions can be).
func TestConformanceReportsGapsAndStrict(t *testing.T) {
	t.Parallel()
	n := startNode(t, func(c *node.Config) { c.PubSub.DisableVote = true })
	only := regexp.MustCompile(`^(getVersion|getGenesisHash|voteSubscribe)$`)
	var cases []suite.Case
	for _, c := range suite.Cases() {
		if c.Method == rpcapi.MethodGetVersion && c.Kind == suite.Valid || c.Method == rpcapi.MethodGetGenesisHash {
			cases = append(cases, c)
		}
	}
	rep := runSuite(t, suite.Config{URL: n.HTTPURL, Methods: only, Cases: cases})
	want := []string{"getVersion: not covered: no case with invalid params",
		"voteSubscribe: not covered: no case with valid params", "voteSubscribe: not covered: no case with invalid params"}
	if got := rep.Failures(); !slices.Equal(got, want) {
		t.Errorf("failures = %q, want %q", got, want)
	}

	strict := runSuite(t, suite.Config{URL: n.HTTPURL, WSURL: n.WSURL, Methods: only, Strict: true})
	var failing []string
	for _, m := range strict.Methods {
		if strings.HasPrefix(m.Status, suite.StatusFail) {
			failing = append(failing, m.Method)
		}
	}
	if !slices.Equal(failing, []string{rpcapi.MethodVoteSubscribe}) || strict.OK() {
		t.Errorf("strict: failing methods %v (ok %v), want [voteSubscribe]", failing, strict.OK())
	}
}

// corrupting proxies JSON-RPC to target, spoiling two things: getVersion's result loses its shape (feature-set
// becomes a string) and getBalance's errors get code -32000, which getBalance does not declare.
func corrupting(t *testing.T, target string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, target, bytes.NewReader(body))
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer resp.Body.Close()
		reply, _ := io.ReadAll(resp.Body)
		var call struct {
			Method string `json:"method"`
		}
		if resp.StatusCode == http.StatusOK && json.Unmarshal(body, &call) == nil {
			reply = spoil(t, call.Method, reply)
		}
		for k, v := range resp.Header {
			if k != "Content-Length" {
				w.Header()[k] = v
			}
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write(reply)
	})
}

func spoil(t *testing.T, method string, reply []byte) []byte {
	d := json.NewDecoder(bytes.NewReader(reply))
	d.UseNumber()
	var m map[string]any
	if d.Decode(&m) != nil {
		return reply
	}
	switch {
	case method == rpcapi.MethodGetVersion && m["result"] != nil:
		m["result"].(map[string]any)["feature-set"] = "3271415109"
	case method == rpcapi.MethodGetBalance && m["error"] != nil:
		m["error"].(map[string]any)["code"] = -32000
	default:
		return reply
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Errorf("re-encoding a spoiled reply: %v", err)
		return reply
	}
	return append(out, '\n')
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
