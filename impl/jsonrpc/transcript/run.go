package transcript

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// reply is what an HTTP exchange got back.
type reply struct {
	status int
	header http.Header
	body   []byte
}

// RunHTTP runs tr's exchanges, in order, against h in-process.
func RunHTTP(t testing.TB, tr *Transcript, h http.Handler) {
	t.Helper()
	runHTTP(t, tr, func(req *http.Request) (reply, error) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return reply{status: rec.Code, header: rec.Header(), body: rec.Body.Bytes()}, nil
	}, func(method, path string, body []byte) (*http.Request, error) {
		return httptest.NewRequest(method, path, bytes.NewReader(body)), nil
	})
}

// RunHTTPURL runs tr's exchanges, in order, against the server at baseURL (such as "http://127.0.0.1:8899"),
// through a real HTTP client.
func RunHTTPURL(t testing.TB, tr *Transcript, baseURL string) {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second}
	baseURL = strings.TrimSuffix(baseURL, "/")
	runHTTP(t, tr, func(req *http.Request) (reply, error) {
		resp, err := client.Do(req)
		if err != nil {
			return reply{}, err
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return reply{}, err
		}
		return reply{status: resp.StatusCode, header: resp.Header, body: body}, nil
	}, func(method, path string, body []byte) (*http.Request, error) {
		return http.NewRequest(method, baseURL+path, bytes.NewReader(body))
	})
}

func runHTTP(t testing.TB, tr *Transcript, do func(*http.Request) (reply, error),
	newRequest func(method, path string, body []byte) (*http.Request, error)) {
	t.Helper()
	for _, x := range tr.Exchanges {
		where := fmt.Sprintf("%s:%d", tr.Name, x.Line)
		method, path := x.Method, x.Path
		if method == "" {
			method, path = http.MethodPost, "/"
		}
		req, err := newRequest(method, path, x.Body)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		if method == http.MethodPost && x.Header.Get("Content-Type") == "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for name, values := range x.Header {
			req.Header[name] = values
		}
		rep, err := do(req)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}

		switch {
		case x.WantJSON != nil:
			if rep.status != http.StatusOK {
				t.Errorf("%s: status = %d, want 200 (body %q)", where, rep.status, rep.body)
			}
			if ct := rep.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("%s: Content-Type = %q, want application/json", where, ct)
			}
			if want := append(slices.Clone(x.WantJSON), '\n'); !bytes.Equal(rep.body, want) {
				t.Errorf("%s: reply mismatch\n got: %s\nwant: %s", where, rep.body, want)
			}
		case x.WantNothing:
			if rep.status != http.StatusOK || len(rep.body) != 0 {
				t.Errorf("%s: got status %d body %q, want 200 with an empty body", where, rep.status, rep.body)
			}
		default:
			if rep.status != x.WantStatus {
				t.Errorf("%s: status = %d, want %d (body %q)", where, rep.status, x.WantStatus, rep.body)
			}
			if !bytes.Equal(rep.body, x.WantText) {
				t.Errorf("%s: body mismatch\n got: %q\nwant: %q", where, rep.body, x.WantText)
			}
		}
		if cl := rep.header.Get("Content-Length"); cl != "" && cl != strconv.Itoa(len(rep.body)) && method != http.MethodHead {
			t.Errorf("%s: Content-Length %s for a body of %d bytes", where, cl, len(rep.body))
		}
		for _, hv := range x.WantHeaders {
			got, present := rep.header[http.CanonicalHeaderKey(hv[0])]
			switch {
			case hv[1] == "" && present:
				t.Errorf("%s: header %s = %q, want it absent", where, hv[0], got)
			case hv[1] != "" && (len(got) != 1 || got[0] != hv[1]):
				t.Errorf("%s: header %s = %q, want %q", where, hv[0], got, hv[1])
			}
		}
	}
}

// Sentinel is the request RunWS sends after the last exchange, and the exact reply it must get: any other message
// arriving first is a reply nobody expected.
type Sentinel struct {
	Request string
	Reply   string
}

// maxWSReply is the largest WebSocket message RunWS reads.
const maxWSReply = 64 << 20

// RunWS runs tr's exchanges, in order, on one WebSocket connection to wsURL (such as "ws://127.0.0.1:8900"), then
// checks sentinel and closes the connection normally.
func RunWS(t testing.TB, tr *Transcript, wsURL string, sentinel Sentinel) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, wsURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	// Replies such as rpc.discover's are far larger than the client's default limit of 32 KiB.
	c.SetReadLimit(maxWSReply)

	for _, x := range tr.Exchanges {
		where := fmt.Sprintf("%s:%d", tr.Name, x.Line)
		if x.httpOnly() {
			t.Fatalf("%s: an HTTP-only exchange in a transcript that runs over WebSocket", where)
		}
		if err := c.Write(ctx, websocket.MessageText, x.Body); err != nil {
			t.Fatalf("%s: write: %v", where, err)
		}
		if x.WantNothing {
			continue
		}
		_, got, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("%s: read: %v", where, err)
		}
		if !bytes.Equal(got, x.WantJSON) {
			t.Errorf("%s: reply mismatch\n got: %s\nwant: %s", where, got, x.WantJSON)
		}
	}

	if err := c.Write(ctx, websocket.MessageText, []byte(sentinel.Request)); err != nil {
		t.Fatalf("%s: sentinel write: %v", tr.Name, err)
	}
	_, got, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("%s: sentinel read: %v", tr.Name, err)
	}
	if string(got) != sentinel.Reply {
		t.Errorf("%s: an unexpected message arrived before the sentinel's reply: %s", tr.Name, got)
	}
	c.Close(websocket.StatusNormalClosure, "")
}
