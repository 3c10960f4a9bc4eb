package jsonrpc

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
)

func call(id int, method, params string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s,"id":%d}`, method, params, id)
}

func batch(calls ...string) string { return "[" + strings.Join(calls, ",") + "]" }

func TestLimitErrorsMatchTheCatalogue(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		got  *Error
		want *rpcapi.Error
	}{
		{errRequestTimedOut, rpcapi.NewRequestTimedOutError()},
		{errResponseTooLarge, rpcapi.NewResponseTooLargeError()},
		{errBatchTooLarge, rpcapi.NewBatchTooLargeError()},
	} {
		if c.got.Code != c.want.Code || c.got.Message != c.want.Message {
			t.Errorf("transport error %d %q, catalogue says %d %q", c.got.Code, c.got.Message, c.want.Code, c.want.Message)
		}
	}
}

// A batch of more members than the limit is refused whole, before any member runs; the default limit holds for a
// batch that fits in the default body limit.
func TestBatchItemLimit(t *testing.T) {
	t.Parallel()
	want := `{"jsonrpc":"2.0","error":{"code":-32600,"message":"batch too large"},"id":null}` + "\n"
	calls := make([]string, DefaultMaxBatchItems+1)
	for i := range calls {
		calls[i] = `{"jsonrpc":"2.0","method":"ok","id":1}`
	}
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Logger: discardLogger()})
	if got := post(t, h, batch(calls...)).Body.String(); got != want {
		t.Errorf("%d members, default limit: got %.200q, want %q", len(calls), got, want)
	}
	if got := post(t, h, batch(calls[1:]...)).Body.String(); strings.Contains(got, "error") {
		t.Errorf("%d members, default limit: got %.200q, want every result", len(calls)-1, got)
	}

	h = NewHTTPHandler(&testDispatcher{}, HTTPOptions{Limits: Limits{MaxBatchItems: 2}, Logger: discardLogger()})
	if got := post(t, h, batch(calls[:3]...)).Body.String(); got != want {
		t.Errorf("3 members, limit 2: got %q, want %q", got, want)
	}
	if got := post(t, h, batch(calls[:2]...)).Body.String(); strings.Contains(got, "error") {
		t.Errorf("2 members, limit 2: got %q, want both results", got)
	}
}

func TestResponseSizeLimit(t *testing.T) {
	t.Parallel()
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Limits: Limits{MaxResponseBytes: 1000}, Logger: discardLogger()})
	tooLarge := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","error":{"code":-32091,"message":"response too large"},"id":%d}`, id)
	}
	result := func(id, n int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","result":"%s","id":%d}`, strings.Repeat("x", n), id)
	}
	for _, c := range []struct{ name, body, want string }{
		{"single within", call(1, "sized", "[900]"), result(1, 900)},
		{"single over", call(1, "sized", "[1000]"), tooLarge(1)},
		// The member that passes the limit and every member after it get the error, however small.
		{"batch", batch(call(1, "sized", "[500]"), call(2, "sized", "[500]"), call(3, "ok", "[]"), `{"jsonrpc":"2.0","method":"ok"}`),
			"[" + result(1, 500) + "," + tooLarge(2) + "," + tooLarge(3) + "]"},
	} {
		if got := post(t, h, c.body).Body.String(); got != c.want+"\n" {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// Methods see what is left of the reply's budget, so a scan can stop before it builds a result that cannot be sent.
func TestReplyBudgetReachesTheMethod(t *testing.T) {
	t.Parallel()
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Limits: Limits{MaxResponseBytes: 1000}, Logger: discardLogger()})
	got := post(t, h, batch(call(1, "sized", "[400]"), call(2, "budget", "[]"))).Body.String()
	i := strings.LastIndex(got, `"result":`)
	budget, err := strconv.Atoi(got[i+len(`"result":`) : strings.LastIndex(got, `,"id"`)])
	if err != nil || budget <= 0 || budget >= 1000-400 {
		t.Errorf("second member's budget: got %q, want a number between 0 and 600", got)
	}
	if b := ReplyBudget(context.Background()); b <= 1<<40 {
		t.Errorf("ReplyBudget outside a call = %d, want unbounded", b)
	}
}

// A call running past the deadline is answered with the timeout error at the deadline, and the batch members
// after it are not run.
func TestCallTimeout(t *testing.T) {
	t.Parallel()
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Limits: Limits{CallTimeout: 50 * time.Millisecond}, Logger: discardLogger()})
	timedOut := func(id int) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","error":{"code":-32090,"message":"request timed out"},"id":%d}`, id)
	}
	for _, c := range []struct{ name, body, want string }{
		{"single", call(1, "hang", "[]"), timedOut(1)},
		{"batch", batch(call(1, "ok", "[]"), call(2, "hang", "[]"), call(3, "ok", "[]")),
			`[{"jsonrpc":"2.0","result":"ok","id":1},` + timedOut(2) + "," + timedOut(3) + "]"},
	} {
		done := make(chan string, 1)
		go func() { done <- post(t, h, c.body).Body.String() }()
		select {
		case got := <-done:
			if got != c.want+"\n" {
				t.Errorf("%s: got %q, want %q", c.name, got, c.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no answer 10 s after a 50 ms deadline", c.name)
		}
	}
}

// rawExchange sends raw bytes to a real server and returns the status line and whether the server then closed
// the connection, within a few seconds.
func rawExchange(t *testing.T, h http.Handler, request string) (status string, closed bool) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no reply within 5 s: %v", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	_, err = br.ReadByte()
	return resp.Status, err == io.EOF
}

// A body declared larger than the limit is refused at once, without waiting for bytes the client may never send,
// and the connection is closed rather than drained.
func TestHTTPDeclaredOversizedBodyIsRefusedAtOnce(t *testing.T) {
	t.Parallel()
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Logger: discardLogger()})
	status, closed := rawExchange(t, h, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
		"Content-Length: 60000\r\n\r\n{\"jsonrpc\":")
	if status != "413 Request Entity Too Large" || !closed {
		t.Errorf("got %q, closed %v; want 413 and a closed connection", status, closed)
	}
}

// A body that cannot be read (here a malformed chunk size) is a 400 and a closed connection, never an empty 200.
func TestHTTPUnreadableBodyIs400(t *testing.T) {
	t.Parallel()
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Logger: discardLogger()})
	status, closed := rawExchange(t, h, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"+
		"Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
	if status != "400 Bad Request" || !closed {
		t.Errorf("got %q, closed %v; want 400 and a closed connection", status, closed)
	}
}

// The server's write timeout leaves room for a request that runs its whole call timeout.
func TestHTTPServerWriteTimeoutFollowsCallTimeout(t *testing.T) {
	t.Parallel()
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Limits: Limits{CallTimeout: 5 * time.Minute}})
	if s := NewHTTPServer("", h); s.WriteTimeout <= 5*time.Minute {
		t.Errorf("WriteTimeout %v with a 5 min call timeout", s.WriteTimeout)
	}
}

// A method that stops because its client left is not logged as failing.
func TestClientLeavingIsNotAnError(t *testing.T) {
	t.Parallel()
	logs := &lockedBuffer{}
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/", strings.NewReader(call(1, "hang", "[]")))
	req.Header.Set("Content-Type", "application/json")
	time.AfterFunc(10*time.Millisecond, cancel)
	h.ServeHTTP(httptest.NewRecorder(), req)
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("logged: %s", logs)
	}
}
