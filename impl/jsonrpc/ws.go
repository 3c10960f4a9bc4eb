package jsonrpc

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// WebSocket defaults.
const (
	// DefaultMaxMessageBytes is the reference's largest incoming PubSub message and frame.
	DefaultMaxMessageBytes = 4096
	// DefaultSendQueue bounds the outgoing messages waiting for one connection's writer.
	DefaultSendQueue = 1024
	// DefaultSendQueueBytes bounds their bytes: a block notification can weigh megabytes, so a count alone would
	// let one slow client hold gigabytes.
	DefaultSendQueueBytes = 64 << 20
	// DefaultWriteTimeout bounds one message write: a peer that does not read for this long is dropped.
	DefaultWriteTimeout = 10 * time.Second
	// DefaultPingInterval is how often an idle connection is pinged to find peers that vanished without a FIN.
	DefaultPingInterval = 30 * time.Second
)

// Errors returned by Conn.Notify.
var (
	ErrConnClosed   = errors.New("jsonrpc: connection closed")
	ErrSlowConsumer = errors.New("jsonrpc: send queue full; connection closed")
)

// WSOptions configures NewWSHandler. The zero value is usable.
type WSOptions struct {
	// MaxMessageBytes is the largest incoming message; a larger one closes the connection with 1009.
	// 0 means DefaultMaxMessageBytes.
	MaxMessageBytes int64
	// Limits bound the batch size, reply size and run time of one message.
	Limits Limits
	// SendQueue is the capacity of the per-connection queue of outgoing messages; 0 means DefaultSendQueue.
	SendQueue int
	// SendQueueBytes bounds the bytes of those messages; 0 means DefaultSendQueueBytes. One message larger than
	// the bound is still sent when the queue is empty.
	SendQueueBytes int64
	// WriteTimeout bounds the write of one message; 0 means DefaultWriteTimeout.
	WriteTimeout time.Duration
	// PingInterval is the period of keep-alive pings, each of which must be answered within the same period;
	// 0 means DefaultPingInterval, a negative value disables pings.
	PingInterval time.Duration
	// OpenRPC, when set, is the result of rpc.discover.
	OpenRPC []byte
	// Logger receives internal errors, recovered panics and dropped connections; nil means slog.Default().
	Logger *slog.Logger
	// Observer hears of every call answered; nil counts nothing.
	Observer Observer
}

// Conn is the WebSocket connection a method is called on; methods get it with ConnFromContext.
type Conn interface {
	// Notify queues a notification frame {"jsonrpc":"2.0","method":method,"params":params}. When the queue is full
	// the connection is closed (a client that cannot keep up is dropped, never buffered without bound); returns an
	// error then (ErrSlowConsumer), and ErrConnClosed once the connection has ended.
	Notify(method string, params any) error
	// OnClose registers f to run once when the connection ends (used to free subscriptions). Callbacks run in
	// reverse order of registration after the last method call on the connection has returned; f registered after
	// the end runs at once.
	OnClose(f func())
	// ID identifies the connection among those of its handler; ids start at 1.
	ID() uint64
}

type connKey struct{}

// ConnFromContext returns the WebSocket connection a call arrived on; ok is false for HTTP calls.
func ConnFromContext(ctx context.Context) (Conn, bool) {
	c, ok := ctx.Value(connKey{}).(*wsConn)
	return c, ok
}

// WSHandler serves JSON-RPC over WebSocket (the PubSub endpoint). Create it with NewWSHandler.
type WSHandler struct {
	engine       *engine
	maxMessage   int64
	sendQueue    int
	sendBytes    int64
	writeTimeout time.Duration
	pingInterval time.Duration

	nextID atomic.Uint64

	mu       sync.Mutex
	conns    map[uint64]*wsConn
	shutdown bool
	active   sync.WaitGroup // one per ServeHTTP that passed the shutdown check
}

// NewWSHandler returns the WebSocket endpoint. Each text message is one request or batch, dispatched with ws=true;
// replies go back in request order. Any origin may connect. It panics if d is nil or OpenRPC is not valid JSON.
func NewWSHandler(d Dispatcher, o WSOptions) *WSHandler {
	h := &WSHandler{
		engine:       newEngine(d, o.Logger, o.OpenRPC, o.Limits, o.Observer),
		maxMessage:   o.MaxMessageBytes,
		sendQueue:    o.SendQueue,
		sendBytes:    o.SendQueueBytes,
		writeTimeout: o.WriteTimeout,
		pingInterval: o.PingInterval,
		conns:        make(map[uint64]*wsConn),
	}
	if h.maxMessage <= 0 {
		h.maxMessage = DefaultMaxMessageBytes
	}
	if h.sendQueue <= 0 {
		h.sendQueue = DefaultSendQueue
	}
	if h.sendBytes <= 0 {
		h.sendBytes = DefaultSendQueueBytes
	}
	if h.writeTimeout <= 0 {
		h.writeTimeout = DefaultWriteTimeout
	}
	if h.pingInterval == 0 {
		h.pingInterval = DefaultPingInterval
	}
	return h
}

// NumConns returns the number of open connections.
func (h *WSHandler) NumConns() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.conns)
}

// Shutdown refuses new connections, closes every open one with 1001 (going away), and waits until their
// goroutines and OnClose callbacks have finished or ctx ends. http.Server.Shutdown does not do this: it does not
// track hijacked connections.
func (h *WSHandler) Shutdown(ctx context.Context) error {
	h.mu.Lock()
	h.shutdown = true
	conns := make([]*wsConn, 0, len(h.conns))
	for _, c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()

	for _, c := range conns {
		c.close(websocket.StatusGoingAway, "server shutting down", true)
	}
	done := make(chan struct{})
	go func() {
		h.active.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (h *WSHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	if h.shutdown {
		h.mu.Unlock()
		http.Error(w, "server is shutting down", http.StatusServiceUnavailable)
		return
	}
	h.active.Add(1)
	h.mu.Unlock()
	defer h.active.Done()

	gw := &guardedWriter{ResponseWriter: w, limit: h.maxMessage}
	ws, err := websocket.Accept(gw, r, &websocket.AcceptOptions{
		InsecureSkipVerify: true, // any origin, like the reference; the endpoint has no cookies or credentials
	})
	if err != nil {
		h.engine.log.DebugContext(r.Context(), "jsonrpc: WebSocket handshake failed", "err", err)
		return // Accept has written the HTTP error
	}
	ws.SetReadLimit(h.maxMessage)

	c := &wsConn{
		guard:      gw.guard,
		id:         h.nextID.Add(1),
		h:          h,
		ws:         ws,
		queue:      make(chan []byte, h.sendQueue),
		writerDone: make(chan struct{}),
		pingerDone: make(chan struct{}),
		closeDone:  make(chan struct{}),
	}
	var cancel context.CancelFunc
	c.ctx, cancel = context.WithCancel(r.Context())
	c.ctx = context.WithValue(c.ctx, connKey{}, c)
	c.cancel = cancel

	h.mu.Lock()
	h.conns[c.id] = c
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.conns, c.id)
		h.mu.Unlock()
	}()

	c.serve()
}

// wsConn is one WebSocket connection. Its goroutines: the handler's (reads and dispatches, in order), a writer
// that alone writes data messages, draining queue, and a pinger.
type wsConn struct {
	guard  *frameGuard
	id     uint64
	h      *WSHandler
	ws     *websocket.Conn
	ctx    context.Context // carries the Conn; cancelled when the connection starts closing
	cancel context.CancelFunc

	queue      chan []byte  // never closed: senders select on ctx instead
	queued     atomic.Int64 // bytes in queue
	writerDone chan struct{}
	pingerDone chan struct{}

	closeOnce sync.Once
	closeDone chan struct{}

	mu         sync.Mutex
	onClose    []func()
	ended      bool
	afterReply []func() // of the message being handled
}

func (c *wsConn) ID() uint64 { return c.id }

func (c *wsConn) OnClose(f func()) {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		c.runCallback(f)
		return
	}
	c.onClose = append(c.onClose, f)
	c.mu.Unlock()
}

// AfterReply registers f to run once the reply of the message being handled has been queued (so it goes out
// before any frame queued later), or the connection has ended. Subscriptions hold their notifications until then.
func (c *wsConn) AfterReply(f func()) {
	c.mu.Lock()
	c.afterReply = append(c.afterReply, f)
	c.mu.Unlock()
}

func (c *wsConn) runAfterReply() {
	c.mu.Lock()
	fs := c.afterReply
	c.afterReply = nil
	c.mu.Unlock()
	for _, f := range fs {
		f()
	}
}

func (c *wsConn) Notify(method string, params any) error {
	if c.ctx.Err() != nil {
		return ErrConnClosed
	}
	buf := getBuffer()
	defer putBuffer(buf)
	buf.WriteString(`{"jsonrpc":"2.0","method":`)
	if err := encodeValue(buf, method); err != nil {
		return err
	}
	buf.WriteString(`,"params":`)
	if err := encodeValue(buf, params); err != nil {
		return fmt.Errorf("jsonrpc: encoding %s params: %w", method, err)
	}
	buf.WriteByte('}')
	msg := append([]byte(nil), buf.Bytes()...)

	if c.enqueue(msg) {
		return nil
	}
	c.h.engine.log.Warn("jsonrpc: dropping WebSocket client that cannot keep up",
		"conn", c.id, "queue", cap(c.queue), "queuedBytes", c.queued.Load(), "method", method)
	// No close handshake: the peer is not reading, so it would only delay the release.
	c.close(websocket.StatusPolicyViolation, "send queue full", false)
	return ErrSlowConsumer
}

// enqueue queues msg for the writer unless the queue is full by count or by bytes; a message larger than the
// byte bound passes alone. The bytes are claimed before the message is queued, so the bound holds for
// concurrent senders.
func (c *wsConn) enqueue(msg []byte) bool {
	size := int64(len(msg))
	if n := c.queued.Add(size); n > c.h.sendBytes && n > size {
		c.queued.Add(-size)
		return false
	}
	select {
	case c.queue <- msg:
		return true
	default:
		c.queued.Add(-size)
		return false
	}
}

func (c *wsConn) serve() {
	go c.writeLoop()
	go c.pingLoop()
	c.readLoop()

	c.close(websocket.StatusNormalClosure, "", true) // a no-op when something else closed first
	<-c.closeDone
	<-c.writerDone
	<-c.pingerDone

	c.mu.Lock()
	c.ended = true
	callbacks := c.onClose
	c.onClose = nil
	c.mu.Unlock()
	for i := len(callbacks) - 1; i >= 0; i-- {
		c.runCallback(callbacks[i])
	}
}

func (c *wsConn) readLoop() {
	log := c.h.engine.log
	for {
		// Not c.ctx: coder/websocket drops the connection without a close frame when a read's context ends.
		// close() unblocks this read by closing the connection.
		_, data, err := c.ws.Read(context.Background())
		if err != nil {
			if code, reason := c.guard.closeStatusFor(); code != -1 {
				log.Debug("jsonrpc: WebSocket frame refused", "conn", c.id, "err", c.guard.err)
				c.close(code, reason, true)
				return
			}
			if s := websocket.CloseStatus(err); s != websocket.StatusNormalClosure && s != websocket.StatusGoingAway &&
				c.ctx.Err() == nil {
				log.Debug("jsonrpc: WebSocket read ended", "conn", c.id, "err", err)
			}
			return
		}
		// Text and binary messages are treated alike, as the reference does: it looks only at the bytes.
		if int64(len(data)) > c.h.maxMessage { // SetReadLimit already enforces this; cheap to be sure
			c.close(websocket.StatusMessageTooBig, "message too big", true)
			return
		}
		if !utf8.Valid(data) {
			// The reference closes the connection without an error reply.
			c.close(websocket.StatusInvalidFramePayloadData, "message is not valid UTF-8", true)
			return
		}
		reply := c.h.engine.handle(c.ctx, data, true)
		if reply == nil {
			c.runAfterReply()
			continue
		}
		// Replies wait for room instead of dropping the connection: their rate is the client's own request rate,
		// and a client that stops reading is dropped by the writer's timeout.
		c.queued.Add(int64(len(reply)))
		select {
		case c.queue <- reply:
			c.runAfterReply()
		case <-c.ctx.Done():
			c.runAfterReply()
			return
		}
	}
}

func (c *wsConn) writeLoop() {
	defer close(c.writerDone)
	for {
		select {
		case <-c.ctx.Done():
			return
		case msg := <-c.queue:
			c.queued.Add(-int64(len(msg)))
			// Not c.ctx either: Shutdown should let the message in flight finish before the close frame.
			ctx, cancel := context.WithTimeout(context.Background(), c.h.writeTimeout)
			err := c.ws.Write(ctx, websocket.MessageText, msg)
			cancel()
			if err != nil {
				if c.ctx.Err() == nil {
					c.h.engine.log.Debug("jsonrpc: WebSocket write failed", "conn", c.id, "err", err)
				}
				c.close(websocket.StatusPolicyViolation, "write failed", false)
				return
			}
		}
	}
}

func (c *wsConn) pingLoop() {
	defer close(c.pingerDone)
	if c.h.pingInterval < 0 {
		return
	}
	t := time.NewTicker(c.h.pingInterval)
	defer t.Stop()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), c.h.pingInterval)
		err := c.ws.Ping(ctx) // returns at once when the connection closes
		cancel()
		if err != nil {
			if c.ctx.Err() == nil {
				c.h.engine.log.Debug("jsonrpc: WebSocket peer did not answer a ping", "conn", c.id, "err", err)
			}
			c.close(websocket.StatusPolicyViolation, "ping timeout", false)
			return
		}
	}
}

// close starts closing the connection once: it cancels the context (stopping the writer, the pinger and any
// running call), then closes the socket, with a close handshake when graceful, which unblocks the reader.
func (c *wsConn) close(code websocket.StatusCode, reason string, graceful bool) {
	c.closeOnce.Do(func() {
		c.cancel()
		go func() {
			defer close(c.closeDone)
			// Close waits at most a few seconds for the peer (coder/websocket's own timeouts); errors only say
			// the peer left first.
			if graceful {
				_ = c.ws.Close(code, reason)
			} else {
				_ = c.ws.CloseNow()
			}
		}()
	})
}

func (c *wsConn) runCallback(f func()) {
	defer func() {
		if p := recover(); p != nil {
			c.h.engine.log.Error("jsonrpc: OnClose callback panicked", "conn", c.id,
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	f()
}
