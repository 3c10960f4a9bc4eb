package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func post(t *testing.T, h http.Handler, body string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// endlessReader yields 'x' forever and counts what was taken from it.
type endlessReader struct{ n atomic.Int64 }

func (r *endlessReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	r.n.Add(int64(len(p)))
	return len(p), nil
}

func TestHTTPOversizedBodyWithoutLengthIsNotReadWhole(t *testing.T) {
	t.Parallel()
	for _, limit := range []int64{0, 100, 4096} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			t.Parallel()
			h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{MaxBodyBytes: limit, Logger: discardLogger()})
			want := limit
			if want == 0 {
				want = DefaultMaxBodyBytes
			}
			body := &endlessReader{}
			req := httptest.NewRequest(http.MethodPost, "/", io.NopCloser(body))
			req.ContentLength = -1 // chunked: the size is known only by reading
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusRequestEntityTooLarge || rec.Body.String() != textTooLarge {
				t.Errorf("got %d %q, want 413 %q", rec.Code, rec.Body, textTooLarge)
			}
			if got := body.n.Load(); got > want+1 {
				t.Errorf("read %d bytes of the body, want at most limit+1 = %d", got, want+1)
			}
		})
	}
}

func TestHTTPOversizedBodyWithLengthIsNotRead(t *testing.T) {
	t.Parallel()
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Logger: discardLogger()})
	body := &endlessReader{}
	req := httptest.NewRequest(http.MethodPost, "/", io.NopCloser(body))
	req.ContentLength = 1 << 30
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("status = %d, want 413", rec.Code)
	}
	if n := body.n.Load(); n != 0 {
		t.Errorf("read %d bytes of a body whose Content-Length is over the limit", n)
	}
}

func TestHTTPCustomBodyLimit(t *testing.T) {
	t.Parallel()
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{MaxBodyBytes: 64, Logger: discardLogger()})
	ok := `{"jsonrpc":"2.0","method":"ok","id":1}`
	if rec := post(t, h, ok+strings.Repeat(" ", 64-len(ok))); rec.Code != http.StatusOK {
		t.Errorf("64-byte body: status %d, want 200", rec.Code)
	}
	if rec := post(t, h, ok+strings.Repeat(" ", 65-len(ok))); rec.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("65-byte body: status %d, want 413", rec.Code)
	}
}

func TestHTTPPanicIsLoggedWithStackAndServingGoesOn(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	h := newTestHTTPHandler(slog.New(slog.NewTextHandler(&logs, nil)))

	rec := post(t, h, `{"jsonrpc":"2.0","method":"panic","id":1}`)
	if want := `{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"},"id":1}` + "\n"; rec.Body.String() != want {
		t.Errorf("reply = %q, want %q", rec.Body, want)
	}
	got := logs.String()
	for _, want := range []string{"level=ERROR", "method panicked", "method=panic", "panic=boom", "stack=", "dispatcher_test.go"} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %q:\n%s", want, got)
		}
	}
	if rec := post(t, h, `{"jsonrpc":"2.0","method":"ok","id":2}`); rec.Body.String() != `{"jsonrpc":"2.0","result":"ok","id":2}`+"\n" {
		t.Errorf("after a panic: %q", rec.Body)
	}
}

func TestHTTPInternalErrorsAreLoggedAndCodedErrorsAreNot(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	h := newTestHTTPHandler(slog.New(slog.NewTextHandler(&logs, nil)))

	post(t, h, `{"jsonrpc":"2.0","method":"errorWithData","id":1}`)
	post(t, h, `{"jsonrpc":"2.0","method":"wrappedError","id":1}`)
	if got := logs.String(); got != "" {
		t.Errorf("a CodedError was logged:\n%s", got)
	}
	post(t, h, `{"jsonrpc":"2.0","method":"plainError","id":1}`)
	post(t, h, `{"jsonrpc":"2.0","method":"badResult","id":1}`)
	got := logs.String()
	for _, want := range []string{"method failed", "blockstore: disk on fire", "cannot encode result", "method=badResult"} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %q:\n%s", want, got)
		}
	}
}

func TestHTTPZeroOptions(t *testing.T) {
	t.Parallel()
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Logger: discardLogger()})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/health", nil))
	if rec.Code != http.StatusOK || rec.Body.String() != "ok" {
		t.Errorf("/health: %d %q, want 200 ok", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/openrpc.json", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("/openrpc.json without a document: status %d, want 405", rec.Code)
	}
	// Without a document rpc.discover is the Dispatcher's.
	rec = post(t, h, `{"jsonrpc":"2.0","method":"rpc.discover","id":1}`)
	if want := `{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":1}` + "\n"; rec.Body.String() != want {
		t.Errorf("rpc.discover: %q, want %q", rec.Body, want)
	}
}

func TestHTTPHealthStatus(t *testing.T) {
	t.Parallel()
	status := "behind"
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Health: func() string { return status }, Logger: discardLogger()})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/health", nil))
	if rec.Code != http.StatusOK || rec.Body.String() != "behind" {
		t.Errorf("/health: %d %q, want 200 behind (the reference answers 200 whatever the status)", rec.Code, rec.Body)
	}
}

func TestNewHTTPHandlerRejectsBrokenOpenRPC(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Error("no panic for an OpenRPC document that is not JSON")
		}
	}()
	NewHTTPHandler(&testDispatcher{}, HTTPOptions{OpenRPC: []byte(`{"openrpc":`)})
}

// cancellingDispatcher cancels the request's context in its first call, as a client hanging up would.
type cancellingDispatcher struct {
	cancel context.CancelFunc
	calls  atomic.Int32
}

func (d *cancellingDispatcher) Call(ctx context.Context, method string, params json.RawMessage, ws bool) (any, error) {
	d.calls.Add(1)
	d.cancel()
	return "ok", nil
}

func TestBatchStopsWhenTheClientLeaves(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	d := &cancellingDispatcher{cancel: cancel}
	h := NewHTTPHandler(d, HTTPOptions{Logger: discardLogger()})
	body := `[{"jsonrpc":"2.0","method":"a","id":1},{"jsonrpc":"2.0","method":"b","id":2},{"jsonrpc":"2.0","method":"c","id":3}]`
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(httptest.NewRecorder(), req)
	if n := d.calls.Load(); n != 1 {
		t.Errorf("%d members ran after the client left, want only the first", n)
	}
}

func TestNewHTTPServerBoundsSlowClients(t *testing.T) {
	t.Parallel()
	s := NewHTTPServer("127.0.0.1:0", http.NotFoundHandler())
	if s.ReadHeaderTimeout <= 0 || s.ReadTimeout <= 0 || s.WriteTimeout <= 0 || s.IdleTimeout <= 0 {
		t.Errorf("a timeout is unset: %+v", s)
	}
	if s.MaxHeaderBytes <= 0 || s.MaxHeaderBytes >= http.DefaultMaxHeaderBytes {
		t.Errorf("MaxHeaderBytes = %d, want a positive value below the 1 MiB default", s.MaxHeaderBytes)
	}
}

// A connection that never sent a request does not hold up Shutdown (http.Server waits 5 s for one), while a
// request in flight still gets its reply.
func TestServerShutdownSkipsConnectionsWithoutRequests(t *testing.T) {
	t.Parallel()
	started, release := make(chan struct{}), make(chan struct{})
	s := NewServer("", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		io.WriteString(w, "done")
	}))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)

	silent, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	reply := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String())
		if err != nil {
			reply <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		reply <- string(b)
	}()
	<-started

	// Under the 5 s http.Server would wait for the silent connection, with room for a loaded machine.
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	shut := make(chan error, 1)
	go func() { shut <- s.Shutdown(ctx) }()
	close(release)
	if err := <-shut; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	if got := <-reply; got != "done" {
		t.Errorf("the request in flight got %q, want done", got)
	}
	silent.SetReadDeadline(time.Now().Add(4 * time.Second))
	if _, err := silent.Read(make([]byte, 1)); err != io.EOF {
		t.Errorf("reading the silent connection: %v, want EOF (closed by the server)", err)
	}
}

// TestHTTPOverTheNetwork runs the handler behind NewHTTPServer's settings with a real client: concurrent calls
// (for the race detector), and 413 for bodies with and without a Content-Length.
func TestHTTPOverTheNetwork(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = NewHTTPServer("", newTestHTTPHandler(nil))
	srv.Start()
	t.Cleanup(srv.Close)

	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			body := fmt.Sprintf(`[{"jsonrpc":"2.0","method":"echo","params":[%d],"id":%d},{"jsonrpc":"2.0","method":"panic","id":0}]`, i, i)
			resp, err := http.Post(srv.URL, "application/json", strings.NewReader(body))
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			got, _ := io.ReadAll(resp.Body)
			want := fmt.Sprintf(`[{"jsonrpc":"2.0","result":[%d],"id":%d},{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"},"id":0}]`+"\n", i, i)
			if string(got) != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
	wg.Wait()

	big := bytes.Repeat([]byte("x"), 1<<20)
	resp, err := http.Post(srv.URL, "application/json", bytes.NewReader(big))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || string(got) != textTooLarge {
		t.Errorf("1 MiB body: %d %q", resp.StatusCode, got)
	}

	// io.MultiReader hides the length, so the client sends the body chunked.
	resp, err = http.Post(srv.URL, "application/json", io.MultiReader(bytes.NewReader(big)))
	if err != nil {
		t.Fatal(err)
	}
	got, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || string(got) != textTooLarge {
		t.Errorf("1 MiB chunked body: %d %q", resp.StatusCode, got)
	}
}

func TestHasLoneSurrogate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want bool
	}{
		{`"plain"`, false},
		{`"\ud800"`, true},
		{`"\uDBFF"`, true},
		{`"\udc00"`, true},
		{`"\ud800\udc00"`, false},
		{`"\ud800\u0041"`, true},
		{`"\ud800\\udc00"`, true},
		{`"\\ud800"`, false},
		{`"\\\ud800"`, true},
		{`["\ud83d\ude00","\ud83d"]`, true},
		{`{"\ud83d\ude00":1}`, false},
		{`"\u0041\ud7ff\ue000"`, false},
		{`"\ud800"   `, true},
	}
	for _, tt := range tests {
		if !json.Valid([]byte(tt.in)) {
			t.Fatalf("test input %s is not JSON", tt.in)
		}
		if got := hasLoneSurrogate([]byte(tt.in)); got != tt.want {
			t.Errorf("hasLoneSurrogate(%s) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestValidUTF8Prefix(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"\xff", 0},
		{"ab\xff", 2},
		{"é\xc3(", 2},
		{"a\xed\xa0\x80", 1},    // an encoded surrogate
		{"ab\xe2\x82", 2},       // cut short
		{"\xf4\x90\x80\x80", 0}, // above U+10FFFF
	}
	for _, tt := range tests {
		if got := validUTF8Prefix([]byte(tt.in)); got != tt.want {
			t.Errorf("validUTF8Prefix(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestHTTPNotificationFailuresAreLogged(t *testing.T) {
	t.Parallel()
	var logs lockedBuffer
	h := newTestHTTPHandler(slog.New(slog.NewTextHandler(&logs, nil)))
	post(t, h, `[{"jsonrpc":"2.0","method":"plainError"},{"jsonrpc":"2.0","method":"panic"},{"jsonrpc":"2.0","method":"nope"}]`)
	got := logs.String()
	for _, want := range []string{"notification failed", "disk on fire", "method panicked"} {
		if !strings.Contains(got, want) {
			t.Errorf("log lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "method=nope") {
		t.Errorf("a CodedError from a notification was logged:\n%s", got)
	}
}
