package jsonrpc

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

type wsFixture struct {
	h     *WSHandler
	url   string
	conns chan Conn // connections that called "subscribe"
	logs  *lockedBuffer
}

func startWS(t *testing.T, o WSOptions) *wsFixture {
	t.Helper()
	f := &wsFixture{conns: make(chan Conn, 16), logs: &lockedBuffer{}}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	f.h = NewWSHandler(&testDispatcher{conns: f.conns}, o)
	srv := httptest.NewServer(f.h)
	f.url = "ws" + strings.TrimPrefix(srv.URL, "http")
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := f.h.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		srv.Close()
	})
	return f
}

func (f *wsFixture) dial(t *testing.T) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, f.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(-1)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// subscribe calls the "subscribe" method on c and returns the server side of the connection.
func (f *wsFixture) subscribe(t *testing.T, c *websocket.Conn) Conn {
	t.Helper()
	send(t, c, `{"jsonrpc":"2.0","method":"subscribe","id":1}`)
	expect(t, c, "")
	select {
	case conn := <-f.conns:
		return conn
	case <-time.After(5 * time.Second):
		t.Fatal("subscribe did not reach the dispatcher")
		return nil
	}
}

func send(t *testing.T, c *websocket.Conn, msg string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageText, []byte(msg)); err != nil {
		t.Fatalf("write: %v", err)
	}
}

// expect reads one message and compares it with want ("" accepts anything).
func expect(t *testing.T, c *websocket.Conn, want string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, got, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if want != "" && string(got) != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
	return string(got)
}

// expectClose reads until the connection ends and checks the close status the server sent.
func expectClose(t *testing.T, c *websocket.Conn, want websocket.StatusCode) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, msg, err := c.Read(ctx)
		if err == nil {
			t.Errorf("unexpected message before the close: %s", msg)
			continue
		}
		if got := websocket.CloseStatus(err); got != want {
			t.Fatalf("connection ended with %v (status %v), want status %v", err, got, want)
		}
		return
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestWSRepliesInRequestOrder(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{})
	c := f.dial(t)
	// Sent back to back: the slow call's reply must still come first.
	send(t, c, `{"jsonrpc":"2.0","method":"slow","id":1}`)
	send(t, c, `{"jsonrpc":"2.0","method":"echo","params":[2],"id":2}`)
	send(t, c, `[{"jsonrpc":"2.0","method":"slow","id":3},{"jsonrpc":"2.0","method":"ok","id":4}]`)
	expect(t, c, `{"jsonrpc":"2.0","result":"slow","id":1}`)
	expect(t, c, `{"jsonrpc":"2.0","result":[2],"id":2}`)
	expect(t, c, `[{"jsonrpc":"2.0","result":"slow","id":3},{"jsonrpc":"2.0","result":"ok","id":4}]`)
}

func TestWSKitPingKeepsTheConnection(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{})
	c := f.dial(t)
	for range 3 {
		send(t, c, `{"jsonrpc":"2.0","method":"ping"}`) // what @solana/kit sends every few seconds
	}
	time.Sleep(50 * time.Millisecond) // room for a wrong reply or close to arrive first
	send(t, c, `{"jsonrpc":"2.0","method":"ok","id":1}`)
	expect(t, c, `{"jsonrpc":"2.0","result":"ok","id":1}`)
}

func TestWSBinaryMessagesAreServedLikeText(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{})
	c := f.dial(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := c.Write(ctx, websocket.MessageBinary, []byte(`{"jsonrpc":"2.0","method":"ok","id":1}`)); err != nil {
		t.Fatal(err)
	}
	expect(t, c, `{"jsonrpc":"2.0","result":"ok","id":1}`)
}

func TestWSMessageSizeLimit(t *testing.T) {
	t.Parallel()
	for _, limit := range []int64{0, 1000} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			t.Parallel()
			f := startWS(t, WSOptions{MaxMessageBytes: limit})
			maxBytes := limit
			if maxBytes == 0 {
				maxBytes = DefaultMaxMessageBytes
			}
			c := f.dial(t)
			atLimit := fmt.Sprintf(`{"jsonrpc":"2.0","method":"ok","params":["%s"],"id":1}`, strings.Repeat("x", int(maxBytes)-52))
			if len(atLimit) != int(maxBytes) {
				t.Fatalf("test message is %d bytes, want %d", len(atLimit), maxBytes)
			}
			send(t, c, atLimit)
			expect(t, c, `{"jsonrpc":"2.0","result":"ok","id":1}`)

			send(t, c, atLimit[:len(atLimit)-1]+" }")
			expectClose(t, c, websocket.StatusMessageTooBig)
			waitFor(t, "the server to drop the connection", func() bool { return f.h.NumConns() == 0 })
		})
	}
}

func TestWSInvalidUTF8ClosesWithoutReply(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{})
	c := f.dial(t)
	send(t, c, "{\"jsonrpc\":\"2.0\",\"method\":\"echo\",\"params\":[\"\xff\"],\"id\":1}")
	expectClose(t, c, websocket.StatusInvalidFramePayloadData)
}

func TestWSNotify(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{})
	c := f.dial(t)
	conn := f.subscribe(t, c)
	if conn.ID() == 0 {
		t.Error("connection id 0; ids start at 1")
	}

	type slotInfo struct {
		Parent uint64 `json:"parent"`
		Root   uint64 `json:"root"`
		Slot   uint64 `json:"slot"`
	}
	type params struct {
		Result       slotInfo `json:"result"`
		Subscription uint64   `json:"subscription"`
	}
	if err := conn.Notify("slotNotification", params{slotInfo{Parent: 7, Root: 1, Slot: 8}, 0}); err != nil {
		t.Fatal(err)
	}
	expect(t, c, `{"jsonrpc":"2.0","method":"slotNotification","params":{"result":{"parent":7,"root":1,"slot":8},"subscription":0}}`)

	// Notifications and replies share the queue; both arrive.
	if err := conn.Notify("rootNotification", map[string]uint64{"result": 18446744073709551615, "subscription": 3}); err != nil {
		t.Fatal(err)
	}
	send(t, c, `{"jsonrpc":"2.0","method":"ok","id":9}`)
	expect(t, c, `{"jsonrpc":"2.0","method":"rootNotification","params":{"result":18446744073709551615,"subscription":3}}`)
	expect(t, c, `{"jsonrpc":"2.0","result":"ok","id":9}`)

	// Params that cannot be encoded are the caller's error, not the connection's.
	if err := conn.Notify("badNotification", func() {}); err == nil {
		t.Error("Notify accepted params that cannot be encoded")
	}
	send(t, c, `{"jsonrpc":"2.0","method":"ok","id":10}`)
	expect(t, c, `{"jsonrpc":"2.0","result":"ok","id":10}`)
}

func TestWSConcurrentNotify(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{})
	c := f.dial(t)
	conn := f.subscribe(t, c)
	const senders, each = 8, 100
	var wg sync.WaitGroup
	for s := range senders {
		wg.Go(func() {
			for i := range each {
				if err := conn.Notify("n", []int{s, i}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for range senders * each {
		expect(t, c, "")
	}
	wg.Wait()
}

func TestWSSlowReaderIsDropped(t *testing.T) {
	t.Parallel()
	const queue = 8
	f := startWS(t, WSOptions{SendQueue: queue, WriteTimeout: time.Minute, PingInterval: -1})
	c := f.dial(t)
	conn := f.subscribe(t, c)
	closed := make(chan struct{})
	conn.OnClose(func() { close(closed) })

	// The client stops reading. Each notification is 64 KiB; what the server will hold for it is the queue plus
	// the socket buffers, so Notify must fail long before the bound below (64 MiB).
	payload := strings.Repeat("x", 64<<10)
	const bound = 1000
	var err error
	sent := 0
	for ; sent < bound; sent++ {
		if err = conn.Notify("bigNotification", payload); err != nil {
			break
		}
	}
	if !errors.Is(err, ErrSlowConsumer) {
		t.Fatalf("after %d notifications to a client that does not read: err = %v, want ErrSlowConsumer", sent, err)
	}
	t.Logf("dropped after %d notifications (queue %d; the rest sat in socket buffers)", sent, queue)

	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("OnClose did not run after the connection was dropped")
	}
	waitFor(t, "the server to forget the connection", func() bool { return f.h.NumConns() == 0 })
	if err := conn.Notify("bigNotification", "late"); !errors.Is(err, ErrConnClosed) {
		t.Errorf("Notify after the drop: %v, want ErrConnClosed", err)
	}
	if !strings.Contains(f.logs.String(), "cannot keep up") {
		t.Errorf("the drop was not logged:\n%s", f.logs)
	}
}

// The send queue is bounded by bytes as well as by messages: a few large notifications fill it long before the
// message count does, while one message larger than the whole bound still passes alone.
func TestWSSendQueueBoundsBytes(t *testing.T) {
	t.Parallel()
	c := &wsConn{h: &WSHandler{sendBytes: 1 << 20}, queue: make(chan []byte, 1024)}
	big := make([]byte, 100<<10)
	queued := 0
	for c.enqueue(big) {
		queued++
	}
	if queued != 10 || c.queued.Load() != 10*100<<10 {
		t.Errorf("queued %d messages of 100 KiB (%d bytes) under a 1 MiB bound, want 10", queued, c.queued.Load())
	}
	for range queued {
		c.queued.Add(-int64(len(<-c.queue))) // what the writer does
	}
	if huge := make([]byte, 2<<20); !c.enqueue(huge) || c.enqueue([]byte("x")) {
		t.Error("a message over the bound must pass alone into an empty queue, and nothing after it")
	}

	// Over a real connection the writer gives the bytes back as it writes.
	f := startWS(t, WSOptions{SendQueueBytes: 1 << 20, PingInterval: -1})
	ws := f.dial(t)
	conn := f.subscribe(t, ws)
	for i := range 50 {
		if err := conn.Notify("n", strings.Repeat("y", 50<<10)); err != nil {
			t.Fatalf("notification %d to a reading client: %v", i, err)
		}
		expect(t, ws, "")
	}
	waitFor(t, "the queue to drain", func() bool { return conn.(*wsConn).queued.Load() == 0 })
}

func TestWSOnClose(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{})
	c := f.dial(t)
	conn := f.subscribe(t, c)

	var order []int
	var mu sync.Mutex
	var runs atomic.Int32
	done := make(chan struct{})
	conn.OnClose(func() {
		mu.Lock()
		order = append(order, 1)
		mu.Unlock()
		runs.Add(1)
		close(done)
	})
	conn.OnClose(func() {
		mu.Lock()
		order = append(order, 2)
		mu.Unlock()
		runs.Add(1)
	})
	conn.OnClose(func() { panic("a broken callback must not stop the others") })

	c.Close(websocket.StatusNormalClosure, "bye")
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("OnClose callbacks did not run")
	}
	mu.Lock()
	if fmt.Sprint(order) != "[2 1]" {
		t.Errorf("callbacks ran in order %v, want [2 1] (reverse of registration)", order)
	}
	mu.Unlock()

	// Registered after the end: runs at once. Nothing runs twice.
	late := false
	conn.OnClose(func() { late = true })
	if !late {
		t.Error("a callback registered after the end did not run at once")
	}
	if n := runs.Load(); n != 2 {
		t.Errorf("callbacks ran %d times, want 2", n)
	}
	if err := conn.Notify("n", 1); !errors.Is(err, ErrConnClosed) {
		t.Errorf("Notify after the end: %v, want ErrConnClosed", err)
	}
	if !strings.Contains(f.logs.String(), "OnClose callback panicked") {
		t.Errorf("the panicking callback was not logged:\n%s", f.logs)
	}
	waitFor(t, "the server to forget the connection", func() bool { return f.h.NumConns() == 0 })
}

func TestWSShutdownClosesEveryConnection(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{})
	clients := []*websocket.Conn{f.dial(t), f.dial(t), f.dial(t)}
	var closed atomic.Int32
	for _, c := range clients {
		conn := f.subscribe(t, c)
		conn.OnClose(func() { closed.Add(1) })
	}
	if n := f.h.NumConns(); n != 3 {
		t.Fatalf("NumConns = %d, want 3", n)
	}

	// The clients must read for the close handshake to complete; each does so in expectClose.
	var wg sync.WaitGroup
	for _, c := range clients {
		wg.Go(func() { expectClose(t, c, websocket.StatusGoingAway) })
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := f.h.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if n := closed.Load(); n != 3 {
		t.Errorf("%d OnClose callbacks ran by the time Shutdown returned, want 3", n)
	}
	if n := f.h.NumConns(); n != 0 {
		t.Errorf("NumConns = %d after Shutdown", n)
	}

	dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer dcancel()
	_, resp, err := websocket.Dial(dctx, f.url, nil)
	if err == nil {
		t.Fatal("a new connection was accepted after Shutdown")
	}
	if resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("dial after Shutdown: %v, %v; want HTTP 503", resp, err)
	}
}

func TestWSPeerThatDoesNotAnswerPingsIsDropped(t *testing.T) {
	t.Parallel()
	// Pings must be answered within the interval: long enough that a loaded machine's live client still makes it.
	f := startWS(t, WSOptions{PingInterval: 500 * time.Millisecond})

	// A client that reads answers pings (coder/websocket does it inside Read) and stays.
	alive := f.dial(t)
	readCtx := alive.CloseRead(context.Background())

	// A client that never reads never answers: the server must let it go.
	dead := f.dial(t)
	conn := f.subscribe(t, dead)
	gone := make(chan struct{})
	conn.OnClose(func() { close(gone) })
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("a peer that never answered pings was kept")
	}
	// The dead connection leaves the count just after its OnClose callbacks have run.
	for deadline := time.Now().Add(5 * time.Second); f.h.NumConns() > 1 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if f.h.NumConns() != 1 || readCtx.Err() != nil {
		t.Errorf("the live client was dropped too (conns %d, %v)", f.h.NumConns(), readCtx.Err())
	}
}

func TestWSNonUpgradeRequest(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{})
	resp, err := http.Get("http" + strings.TrimPrefix(f.url, "ws"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode < 400 {
		t.Errorf("a plain GET got %d", resp.StatusCode)
	}
}

func TestWSLogsPanics(t *testing.T) {
	t.Parallel()
	f := startWS(t, WSOptions{})
	c := f.dial(t)
	send(t, c, `{"jsonrpc":"2.0","method":"panic","id":1}`)
	expect(t, c, `{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"},"id":1}`)
	if logs := f.logs.String(); !strings.Contains(logs, "method panicked") || !strings.Contains(logs, "ws=true") {
		t.Errorf("panic not logged:\n%s", logs)
	}
}

func TestConnFromContext(t *testing.T) {
	t.Parallel()
	if _, ok := ConnFromContext(context.Background()); ok {
		t.Error("a plain context has a Conn")
	}
}

// TestWSOutlivesHTTPServerTimeouts backs the claim on NewHTTPServer: its timeouts do not cut WebSocket
// connections, because net/http clears the deadlines of a hijacked connection.
func TestWSOutlivesHTTPServerTimeouts(t *testing.T) {
	t.Parallel()
	h := NewWSHandler(&testDispatcher{}, WSOptions{Logger: discardLogger()})
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = NewHTTPServer("", h)
	srv.Config.ReadTimeout = 100 * time.Millisecond
	srv.Config.WriteTimeout = 100 * time.Millisecond
	srv.Config.IdleTimeout = 100 * time.Millisecond
	srv.Start()
	t.Cleanup(func() {
		_ = h.Shutdown(context.Background())
		srv.Close()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	time.Sleep(400 * time.Millisecond)
	send(t, c, `{"jsonrpc":"2.0","method":"ok","id":1}`)
	expect(t, c, `{"jsonrpc":"2.0","result":"ok","id":1}`)
}
