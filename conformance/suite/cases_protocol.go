package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// ProtoCase is a transport case: a raw request body and what the raw reply must be. These belong to no method;
// the report shows them in the "(protocol)" row.
type ProtoCase struct {
	Name  string
	WS    bool // send over the WebSocket instead of HTTP POST
	Body  string
	Check func(status int, body []byte) error
}

// ProtocolCases are the JSON-RPC transport rules of the reference node (docs/reference-behaviour.md §1.2, §2.1).
func ProtocolCases() []ProtoCase {
	return []ProtoCase{
		{Name: "unknown method", Body: `{"jsonrpc":"2.0","id":1,"method":"noSuchMethod"}`,
			Check: wantError(-32601, "Method not found")},
		{Name: "body that is not JSON", Body: `{"jsonrpc":"2.0","id":1,"method":`,
			Check: wantError(-32700, "Parse error")},
		{Name: "wrong jsonrpc version", Body: `{"jsonrpc":"1.0","id":1,"method":"getVersion"}`,
			Check: wantCode(-32600)},
		{Name: "batch of two", Body: `[{"jsonrpc":"2.0","id":1,"method":"getVersion"},{"jsonrpc":"2.0","id":2,"method":"getIdentity"}]`,
			Check: wantBatch(1, 2)},
		{Name: "empty batch", Body: `[]`, Check: wantCode(-32600)},
		{Name: "notification only (no id): no reply", Body: `{"jsonrpc":"2.0","method":"getVersion"}`,
			Check: func(status int, body []byte) error {
				if status != http.StatusOK || len(bytes.TrimSpace(body)) != 0 {
					return fmt.Errorf("HTTP %d with body %q, want 200 and an empty body", status, short(string(body), 100))
				}
				return nil
			}},
		{Name: "subscription method over HTTP", Body: `{"jsonrpc":"2.0","id":1,"method":"slotSubscribe"}`,
			Check: wantCode(-32601)},
		{Name: "body over 50 KiB: HTTP 413", Body: `{"jsonrpc":"2.0","id":1,"method":"getVersion","params":["` + strings.Repeat("x", 51200) + `"]}`,
			Check: func(status int, body []byte) error {
				if status != http.StatusRequestEntityTooLarge {
					return fmt.Errorf("HTTP %d, want 413", status)
				}
				return nil
			}},
		{Name: "getVersion over the WebSocket", WS: true, Body: `{"jsonrpc":"2.0","id":1,"method":"getVersion"}`,
			Check: func(_ int, body []byte) error {
				rep := parseReply(body, 1)
				if rep.Envelope != nil || rep.Err != nil {
					return fmt.Errorf("want a result: %s", short(string(body), 200))
				}
				return nil
			}},
		{Name: "HTTP-only method over the WebSocket", WS: true, Body: `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["11111111111111111111111111111111"]}`,
			Check: wantCode(-32601)},
	}
}

func wantCode(code int) func(int, []byte) error { return wantError(code, "") }

func wantError(code int, msg string) func(int, []byte) error {
	return func(status int, body []byte) error {
		if status != http.StatusOK {
			return fmt.Errorf("HTTP %d, want 200 with a JSON-RPC error", status)
		}
		var r struct {
			JSONRPC string `json:"jsonrpc"`
			Error   *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(body, &r); err != nil || r.Error == nil || r.JSONRPC != "2.0" {
			return fmt.Errorf("want a JSON-RPC 2.0 error %d, got %s", code, short(string(body), 200))
		}
		if r.Error.Code != code || msg != "" && r.Error.Message != msg {
			return fmt.Errorf("got error %d %q, want %d%s", r.Error.Code, r.Error.Message, code, quoteIf(msg))
		}
		return nil
	}
}

func wantBatch(ids ...int) func(int, []byte) error {
	return func(status int, body []byte) error {
		var list []struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if status != http.StatusOK || json.Unmarshal(body, &list) != nil {
			return fmt.Errorf("HTTP %d %s, want 200 with an array of replies", status, short(string(body), 200))
		}
		seen := map[string]bool{}
		for _, r := range list {
			if r.Result == nil {
				return fmt.Errorf("batch member %s has no result", r.ID)
			}
			seen[string(r.ID)] = true
		}
		for _, id := range ids {
			if !seen[fmt.Sprint(id)] {
				return fmt.Errorf("no reply with id %d in %s", id, short(string(body), 200))
			}
		}
		if len(list) != len(ids) {
			return fmt.Errorf("%d replies, want %d", len(list), len(ids))
		}
		return nil
	}
}

func (r *runner) runProto(ctx context.Context, pc *ProtoCase) CaseResult {
	start := time.Now()
	res := CaseResult{Kind: "protocol", Name: pc.Name, Params: short(pc.Body, 200), Transport: "http"}
	defer func() { res.Millis = time.Since(start).Milliseconds() }()
	cctx, cancel := r.env.withTimeout(ctx)
	defer cancel()
	var status int
	var body []byte
	var err error
	if pc.WS {
		res.Transport = "ws"
		if r.env.wsURL == "" {
			res.Outcome, res.Reason = NotCovered, "no WebSocket endpoint given (-ws)"
			return res
		}
		status, body, err = wsRoundTrip(cctx, r.env.wsURL, pc.Body)
	} else {
		status, body, err = r.env.http.post(cctx, []byte(pc.Body))
	}
	if err != nil {
		res.Outcome, res.Reason = UnexpectedError, "no reply: "+err.Error()
		return res
	}
	res.Reply = short(string(body), 2000)
	if err := pc.Check(status, body); err != nil {
		res.Outcome, res.Reason = WrongResult, err.Error()
		return res
	}
	res.Outcome = Pass
	return res
}

// wsRoundTrip sends one raw frame on a new connection and returns the first reply frame.
func wsRoundTrip(ctx context.Context, url, body string) (int, []byte, error) {
	conn, err := dialWS(ctx, url)
	if err != nil {
		return 0, nil, err
	}
	defer conn.close()
	// The raw frame carries id 1; register for it as call would.
	ch := make(chan []byte, 1)
	conn.mu.Lock()
	conn.pending[1] = ch
	conn.mu.Unlock()
	if err := conn.conn.Write(ctx, websocket.MessageText, []byte(body)); err != nil {
		return 0, nil, err
	}
	select {
	case raw, ok := <-ch:
		if !ok {
			return 0, nil, fmt.Errorf("the connection closed: %v", conn.err)
		}
		return http.StatusOK, raw, nil
	case <-ctx.Done():
		return 0, nil, ctx.Err()
	}
}
