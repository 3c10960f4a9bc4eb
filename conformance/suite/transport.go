package suite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/coder/websocket"
)

// The cases talk to the endpoint through this raw transport rather than the typed client, so what is checked is
// the exact JSON on the wire (exact u64 values, absent versus null keys, the envelope).

// RPCError is a JSON-RPC error object as it came over the wire.
type RPCError struct {
	Code    int
	Message string
	Data    json.RawMessage // nil when the key is absent
	Raw     json.RawMessage
}

func (e *RPCError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Message) }

// reply is one JSON-RPC response: a result or an error, and any problem with the envelope itself.
type reply struct {
	Result   json.RawMessage // nil when the reply is an error
	Err      *RPCError
	Envelope error // not JSON-RPC 2.0, id not echoed, both or neither of result and error
}

// parseReply reads a response object and checks its envelope against the id that was sent.
func parseReply(body []byte, id uint64) *reply {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return &reply{Envelope: fmt.Errorf("reply is not a JSON object: %v: %s", err, short(string(body), 200))}
	}
	r := &reply{}
	var problems []string
	if v, ok := m["jsonrpc"]; !ok || string(v) != `"2.0"` {
		problems = append(problems, fmt.Sprintf(`"jsonrpc" is %s, want "2.0"`, orAbsent(v, ok)))
	}
	if v, ok := m["id"]; !ok || string(v) != strconv.FormatUint(id, 10) {
		problems = append(problems, fmt.Sprintf(`"id" is %s, want %d`, orAbsent(v, ok), id))
	}
	res, hasRes := m["result"]
	errRaw, hasErr := m["error"]
	switch {
	case hasRes && hasErr:
		problems = append(problems, "both result and error are present")
	case !hasRes && !hasErr:
		problems = append(problems, "neither result nor error is present")
	case hasErr:
		var e struct {
			Code    *int            `json:"code"`
			Message *string         `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(errRaw, &e); err != nil || e.Code == nil || e.Message == nil {
			problems = append(problems, "error is not an object with an integer code and a string message: "+short(string(errRaw), 200))
		} else {
			var keys map[string]json.RawMessage
			_ = json.Unmarshal(errRaw, &keys)
			r.Err = &RPCError{Code: *e.Code, Message: *e.Message, Raw: errRaw}
			if d, ok := keys["data"]; ok {
				r.Err.Data = d
			}
		}
	default:
		r.Result = res
	}
	if len(problems) > 0 {
		r.Envelope = errors.New(joinSemi(problems))
	}
	return r
}

func orAbsent(v json.RawMessage, ok bool) string {
	if !ok {
		return "absent"
	}
	return string(v)
}

// httpConn posts JSON-RPC requests to an HTTP endpoint.
type httpConn struct {
	url    string
	client *http.Client
	id     atomic.Uint64
}

func newHTTPConn(url string, client *http.Client) *httpConn {
	if client == nil {
		client = http.DefaultClient
	}
	return &httpConn{url: url, client: client}
}

// post sends a raw body and returns the HTTP status and body.
func (h *httpConn) post(ctx context.Context, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := h.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	return resp.StatusCode, raw, err
}

// call sends one request with raw params ("" leaves params out).
func (h *httpConn) call(ctx context.Context, method, params string) (*reply, error) {
	id := h.id.Add(1)
	body, err := requestBody(id, method, params)
	if err != nil {
		return nil, err
	}
	status, raw, err := h.post(ctx, body)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return &reply{Envelope: fmt.Errorf("HTTP %d: %s", status, short(string(raw), 200))}, nil
	}
	return parseReply(raw, id), nil
}

func requestBody(id uint64, method, params string) ([]byte, error) {
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != "" {
		if !json.Valid([]byte(params)) {
			return nil, fmt.Errorf("params are not valid JSON: %s", params)
		}
		req["params"] = json.RawMessage(params)
	}
	return json.Marshal(req)
}

// note is one notification frame.
type note struct {
	Method string
	Sub    string          // the subscription id as written
	Result json.RawMessage // params.result
	Raw    []byte
	Bad    error // the frame is not a well-formed notification
}

// wsConn is one WebSocket connection: calls wait for their reply by id; notifications are queued in order.
type wsConn struct {
	conn    *websocket.Conn
	id      atomic.Uint64
	mu      sync.Mutex
	pending map[uint64]chan []byte
	notes   chan note
	done    chan struct{}
	err     error
}

func dialWS(ctx context.Context, url string) (*wsConn, error) {
	conn, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, err
	}
	conn.SetReadLimit(64 << 20)
	c := &wsConn{conn: conn, pending: map[uint64]chan []byte{}, notes: make(chan note, 4096), done: make(chan struct{})}
	go c.read()
	return c, nil
}

func (c *wsConn) close() { _ = c.conn.Close(websocket.StatusNormalClosure, "") }

func (c *wsConn) read() {
	defer close(c.done)
	for {
		_, data, err := c.conn.Read(context.Background())
		if err != nil {
			c.mu.Lock()
			c.err = err
			for id, ch := range c.pending {
				close(ch)
				delete(c.pending, id)
			}
			c.mu.Unlock()
			return
		}
		var head struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if json.Unmarshal(data, &head) != nil {
			continue
		}
		if head.Method != "" && len(head.ID) == 0 {
			n := note{Method: head.Method, Raw: data}
			var p map[string]json.RawMessage
			if err := json.Unmarshal(head.Params, &p); err != nil {
				n.Bad = fmt.Errorf("params is not an object: %s", short(string(head.Params), 200))
			} else if res, ok := p["result"]; !ok {
				n.Bad = errors.New("params has no result")
			} else if sub, ok := p["subscription"]; !ok {
				n.Bad = errors.New("params has no subscription")
			} else {
				n.Result, n.Sub = res, string(sub)
			}
			select {
			case c.notes <- n:
			default: // a case that stopped listening must not stall the reader
			}
			continue
		}
		id, err := strconv.ParseUint(string(head.ID), 10, 64)
		if err != nil {
			continue
		}
		c.mu.Lock()
		ch := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if ch != nil {
			ch <- data
		}
	}
}

// call sends one request over the connection and waits for its reply.
func (c *wsConn) call(ctx context.Context, method, params string) (*reply, error) {
	id := c.id.Add(1)
	body, err := requestBody(id, method, params)
	if err != nil {
		return nil, err
	}
	ch := make(chan []byte, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return nil, c.err
	}
	c.pending[id] = ch
	c.mu.Unlock()
	if err := c.conn.Write(ctx, websocket.MessageText, body); err != nil {
		return nil, err
	}
	select {
	case raw, ok := <-ch:
		if !ok {
			return nil, fmt.Errorf("the connection closed before the reply: %v", c.err)
		}
		return parseReply(raw, id), nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return nil, fmt.Errorf("no reply to %s: %w", method, ctx.Err())
	}
}

func joinSemi(parts []string) string {
	var b bytes.Buffer
	for i, p := range parts {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(p)
	}
	return b.String()
}
