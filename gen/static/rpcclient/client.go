// Package rpcclient is the schema-independent transport of the generated package ledgerd/generated/rpcclient,
// kept as real Go so that it is compiled, vetted and tested where it is edited. The generator copies client.go
// (from its import block on) into generated/rpcclient/rpc_transport_gen.go.
package rpcclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/coder/websocket"

	"ledgerd/generated/rpcapi"
)

// Client calls the HTTP methods of a node. The zero value is not usable; use New.
type Client struct {
	URL  string
	HTTP *http.Client
	id   atomic.Uint64
}

// New returns a client for the JSON-RPC endpoint at url (for example http://127.0.0.1:8899).
func New(url string) *Client { return &Client{URL: url, HTTP: http.DefaultClient} }

type request struct {
	JSONRPC string `json:"jsonrpc"`
	ID      uint64 `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

type response struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *rpcapi.Error   `json:"error"`
}

// Call runs one method: params is marshalled as the params array (or left out when nil) and the result is
// decoded into result. A JSON-RPC error comes back as *rpcapi.Error.
func (c *Client) Call(ctx context.Context, method string, params any, result any) error {
	params = dropNil(params)
	body, err := json.Marshal(request{JSONRPC: "2.0", ID: c.id.Add(1), Method: method, Params: params})
	if err != nil {
		return err
	}
	raw, err := c.post(ctx, body)
	if err != nil {
		return err
	}
	var r response
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("%s: decoding reply: %w", method, err)
	}
	if r.Error != nil {
		return r.Error
	}
	if result == nil {
		return nil
	}
	return json.Unmarshal(r.Result, result)
}

// BatchCall is one member of a batch: fill Method, Params and Result; Err is set after the batch runs.
type BatchCall struct {
	Method string
	Params any
	Result any
	Err    error
}

// Batch sends calls as one JSON-RPC batch and decodes each reply into its call.
func (c *Client) Batch(ctx context.Context, calls []*BatchCall) error {
	reqs := make([]request, len(calls))
	byID := map[string]*BatchCall{}
	for i, bc := range calls {
		id := c.id.Add(1)
		reqs[i] = request{JSONRPC: "2.0", ID: id, Method: bc.Method, Params: dropNil(bc.Params)}
		byID[fmt.Sprint(id)] = bc
	}
	body, err := json.Marshal(reqs)
	if err != nil {
		return err
	}
	raw, err := c.post(ctx, body)
	if err != nil {
		return err
	}
	var rs []response
	if err := json.Unmarshal(raw, &rs); err != nil {
		return fmt.Errorf("batch: decoding reply: %w", err)
	}
	for _, r := range rs {
		bc := byID[string(r.ID)]
		if bc == nil {
			continue
		}
		delete(byID, string(r.ID))
		switch {
		case r.Error != nil:
			bc.Err = r.Error
		case bc.Result != nil:
			bc.Err = json.Unmarshal(r.Result, bc.Result)
		}
	}
	for _, bc := range byID {
		bc.Err = errors.New("batch: no reply for " + bc.Method)
	}
	return nil
}

// HTTPError is a reply that is not JSON-RPC (413, 415, ...).
type HTTPError struct {
	Status int
	Body   string
}

func (e *HTTPError) Error() string { return fmt.Sprintf("HTTP %d: %s", e.Status, e.Body) }

func (c *Client) post(ctx context.Context, body []byte) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 256<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, &HTTPError{Status: resp.StatusCode, Body: string(raw)}
	}
	return raw, nil
}

// WSClient holds one WebSocket connection to a node's PubSub endpoint.
type WSClient struct {
	conn    *websocket.Conn
	id      atomic.Uint64
	mu      sync.Mutex
	pending map[uint64]chan response
	subs    map[uint64]func(json.RawMessage)
	early   map[uint64][]json.RawMessage // notifications that arrived before their subscribe reply was read
	done    chan struct{}
	err     error
}

// Dial connects to a PubSub endpoint (for example ws://127.0.0.1:8900).
func Dial(ctx context.Context, url string) (*WSClient, error) {
	conn, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, err
	}
	conn.SetReadLimit(64 << 20)
	c := &WSClient{conn: conn, pending: map[uint64]chan response{}, subs: map[uint64]func(json.RawMessage){}, early: map[uint64][]json.RawMessage{}, done: make(chan struct{})}
	go c.read()
	return c, nil
}

// Close closes the connection; every subscription channel is closed.
func (c *WSClient) Close() error { return c.conn.Close(websocket.StatusNormalClosure, "") }

// Done is closed when the connection ends.
func (c *WSClient) Done() <-chan struct{} { return c.done }

func (c *WSClient) read() {
	defer close(c.done)
	for {
		_, data, err := c.conn.Read(context.Background())
		if err != nil {
			c.mu.Lock()
			c.err = err
			for _, ch := range c.pending {
				close(ch)
			}
			c.pending = map[uint64]chan response{}
			c.mu.Unlock()
			return
		}
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Result       json.RawMessage `json:"result"`
				Subscription uint64          `json:"subscription"`
			} `json:"params"`
			Result json.RawMessage `json:"result"`
			Error  *rpcapi.Error   `json:"error"`
		}
		if json.Unmarshal(data, &msg) != nil {
			continue
		}
		c.mu.Lock()
		if msg.Method != "" {
			if f := c.subs[msg.Params.Subscription]; f != nil {
				f(msg.Params.Result)
			} else {
				c.early[msg.Params.Subscription] = append(c.early[msg.Params.Subscription], msg.Params.Result)
			}
			c.mu.Unlock()
			continue
		}
		var id uint64
		_ = json.Unmarshal(msg.ID, &id)
		if ch := c.pending[id]; ch != nil {
			delete(c.pending, id)
			ch <- response{ID: msg.ID, Result: msg.Result, Error: msg.Error}
		}
		c.mu.Unlock()
	}
}

// Call runs one method over the WebSocket.
func (c *WSClient) Call(ctx context.Context, method string, params any, result any) error {
	id := c.id.Add(1)
	ch := make(chan response, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return c.err
	}
	c.pending[id] = ch
	c.mu.Unlock()
	body, err := json.Marshal(request{JSONRPC: "2.0", ID: id, Method: method, Params: dropNil(params)})
	if err != nil {
		return err
	}
	if err := c.conn.Write(ctx, websocket.MessageText, body); err != nil {
		return err
	}
	select {
	case r, ok := <-ch:
		if !ok {
			return errors.New("connection closed")
		}
		if r.Error != nil {
			return r.Error
		}
		if result != nil {
			return json.Unmarshal(r.Result, result)
		}
		return nil
	case <-ctx.Done():
		c.mu.Lock()
		delete(c.pending, id)
		c.mu.Unlock()
		return ctx.Err()
	}
}

// Subscription delivers the typed notifications of one subscription. C is closed by Unsubscribe.
type Subscription[T any] struct {
	ID          uint64
	C           <-chan T
	c           *WSClient
	unsubscribe string
	mu          sync.Mutex
	ch          chan T
	closed      bool
}

// Unsubscribe cancels the subscription on the node and closes C.
func (s *Subscription[T]) Unsubscribe(ctx context.Context) error {
	s.c.mu.Lock()
	delete(s.c.subs, s.ID)
	s.c.mu.Unlock()
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.ch)
	}
	s.mu.Unlock()
	var ok bool
	return s.c.Call(ctx, s.unsubscribe, []uint64{s.ID}, &ok)
}

func (s *Subscription[T]) deliver(raw json.RawMessage) {
	var v T
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	select {
	case s.ch <- v:
	default: // a consumer that does not keep up loses notifications rather than blocking the reader
	}
}

func subscribe[T any](ctx context.Context, c *WSClient, method, unsubscribe string, params any) (*Subscription[T], error) {
	var id uint64
	if err := c.Call(ctx, method, params, &id); err != nil {
		return nil, err
	}
	ch := make(chan T, 1024)
	s := &Subscription[T]{ID: id, C: ch, ch: ch, c: c, unsubscribe: unsubscribe}
	c.mu.Lock()
	c.subs[id] = s.deliver
	early := c.early[id]
	delete(c.early, id)
	c.mu.Unlock()
	for _, raw := range early {
		s.deliver(raw)
	}
	return s, nil
}

// dropNil turns a nil params pointer into no params at all, so the request leaves "params" out.
func dropNil(params any) any {
	if v := reflect.ValueOf(params); params != nil && v.Kind() == reflect.Pointer && v.IsNil() {
		return nil
	}
	return params
}
