package jsonrpc

// Transcript tests. Each testdata/*.rpc file is a conversation with the server:
//
//	// This test checks ...              the first line: what the file is about (required)
//	// transports: http ws               optional: where to run it (default http); other // lines are comments
//	--> BODY                             POST / with Content-Type: application/json and body BODY
//	--> METHOD /path [BODY]              another method or path (GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH)
//	-->> Name: value                     a request header for the exchange above (replaces the default Content-Type)
//	<-- JSON                             the reply: HTTP 200, Content-Type application/json, body JSON + "\n";
//	                                     over WebSocket, one message JSON (no newline)
//	<-- nothing                          no reply: HTTP 200 with an empty body; over WebSocket, no message
//	<-- NNN [TEXT]                       HTTP status NNN and body TEXT exactly (HTTP only)
//	<<- Name: value                      a reply header, exact; "Name:" with no value means the header is absent
//
// BODY and TEXT are taken verbatim, up to the end of the line, after expanding these macros:
//
//	$(nl)            a newline
//	$(hex c3 28)     raw bytes, for bodies that are not valid UTF-8
//	$(pad N)         N 'x' characters
//	$(fill N)        as many 'x' characters as make the whole line N bytes long
//
// Over WebSocket, a file runs on one connection; at its end a sentinel request checks that no unexpected reply
// (for example to a notification) was sent.

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

type exchange struct {
	line    int
	method  string // "" for the default POST /
	path    string
	headers http.Header // request headers
	body    []byte

	wantJSON    []byte // set for a JSON reply
	wantNothing bool
	wantStatus  int // set for a status reply
	wantText    []byte
	wantHeaders [][2]string
}

func (x *exchange) hasExpectation() bool {
	return x.wantJSON != nil || x.wantNothing || x.wantStatus != 0
}

type transcript struct {
	name       string
	transports []string
	exchanges  []*exchange
}

var (
	requestLine = regexp.MustCompile(`^(GET|HEAD|POST|PUT|DELETE|OPTIONS|PATCH) (/\S*)(?: (.*))?$`)
	statusLine  = regexp.MustCompile(`^([1-5][0-9][0-9])(?: (.*))?$`)
	macro       = regexp.MustCompile(`\$\((nl|hex|pad|fill)((?: [0-9a-fA-F]+)*)\)`)
)

func parseTranscript(name string, data []byte) (*transcript, error) {
	t := &transcript{name: name, transports: []string{"http"}}
	var cur *exchange
	seenHeader := false
	for i, line := range strings.Split(string(data), "\n") {
		n := i + 1
		fail := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, n, fmt.Sprintf(format, args...))
		}
		switch {
		case strings.TrimSpace(line) == "":
			continue
		case !seenHeader:
			if !strings.HasPrefix(line, "// This test checks ") {
				return nil, fail(`a transcript must open with "// This test checks ..."`)
			}
			seenHeader = true
		case strings.HasPrefix(line, "// transports:"):
			t.transports = strings.Fields(strings.TrimPrefix(line, "// transports:"))
			for _, tr := range t.transports {
				if tr != "http" && tr != "ws" {
					return nil, fail("unknown transport %q", tr)
				}
			}
		case strings.HasPrefix(line, "//"):
			continue
		case strings.HasPrefix(line, "-->>"):
			if cur == nil || cur.hasExpectation() {
				return nil, fail("request header outside a request")
			}
			name, value, ok := strings.Cut(strings.TrimSpace(line[4:]), ":")
			if !ok {
				return nil, fail("header line without a colon")
			}
			cur.headers.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		case strings.HasPrefix(line, "-->"):
			if cur != nil && !cur.hasExpectation() {
				return nil, fail("request at line %d has no expected reply", cur.line)
			}
			rest := strings.TrimPrefix(strings.TrimPrefix(line, "-->"), " ")
			cur = &exchange{line: n, headers: http.Header{}}
			if m := requestLine.FindStringSubmatch(rest); m != nil {
				cur.method, cur.path, rest = m[1], m[2], m[3]
			}
			body, err := expand(rest)
			if err != nil {
				return nil, fail("%v", err)
			}
			cur.body = body
			t.exchanges = append(t.exchanges, cur)
		case strings.HasPrefix(line, "<<-"):
			if cur == nil || !cur.hasExpectation() {
				return nil, fail("reply header before a reply")
			}
			name, value, ok := strings.Cut(strings.TrimSpace(line[3:]), ":")
			if !ok {
				return nil, fail("header line without a colon")
			}
			cur.wantHeaders = append(cur.wantHeaders, [2]string{strings.TrimSpace(name), strings.TrimSpace(value)})
		case strings.HasPrefix(line, "<--"):
			if cur == nil || cur.hasExpectation() {
				return nil, fail("reply without a request")
			}
			rest := strings.TrimPrefix(strings.TrimPrefix(line, "<--"), " ")
			switch m := statusLine.FindStringSubmatch(rest); {
			case rest == "nothing":
				cur.wantNothing = true
			case m != nil:
				cur.wantStatus, _ = strconv.Atoi(m[1])
				text, err := expand(m[2])
				if err != nil {
					return nil, fail("%v", err)
				}
				cur.wantText = text
			default:
				want, err := expand(rest)
				if err != nil {
					return nil, fail("%v", err)
				}
				cur.wantJSON = want
			}
		default:
			return nil, fail("unrecognised line %q", line)
		}
	}
	if !seenHeader {
		return nil, fmt.Errorf("%s: empty transcript", name)
	}
	if cur == nil {
		return nil, fmt.Errorf("%s: no exchanges", name)
	}
	if !cur.hasExpectation() {
		return nil, fmt.Errorf("%s:%d: request has no expected reply", name, cur.line)
	}
	return t, nil
}

// expand replaces the macros of s; see the comment at the top of the file.
func expand(s string) ([]byte, error) {
	var err error
	fill := -1
	out := macro.ReplaceAllStringFunc(s, func(m string) string {
		sub := macro.FindStringSubmatch(m)
		args := strings.Fields(sub[2])
		switch sub[1] {
		case "nl":
			return "\n"
		case "hex":
			b, e := hex.DecodeString(strings.Join(args, ""))
			if e != nil {
				err = e
			}
			return string(b)
		case "pad", "fill":
			if len(args) != 1 {
				err = fmt.Errorf("%s takes one number", sub[1])
				return ""
			}
			k, e := strconv.Atoi(args[0])
			if e != nil {
				err = e
				return ""
			}
			if sub[1] == "pad" {
				return strings.Repeat("x", k)
			}
			if fill >= 0 {
				err = fmt.Errorf("at most one fill per line")
			}
			fill = k
			return "\x00FILL\x00"
		}
		return m
	})
	if err != nil {
		return nil, err
	}
	if fill >= 0 {
		k := fill - (len(out) - len("\x00FILL\x00"))
		if k < 0 {
			return nil, fmt.Errorf("line is already longer than %d bytes", fill)
		}
		out = strings.Replace(out, "\x00FILL\x00", strings.Repeat("x", k), 1)
	}
	return []byte(out), nil
}

func loadTranscripts(t testing.TB) []*transcript {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "*.rpc"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/*.rpc files")
	}
	var out []*transcript
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := parseTranscript(filepath.Base(f), data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tr)
	}
	return out
}

func TestTranscripts(t *testing.T) {
	t.Parallel()
	for _, tr := range loadTranscripts(t) {
		for _, transport := range tr.transports {
			t.Run(strings.TrimSuffix(tr.name, ".rpc")+"/"+transport, func(t *testing.T) {
				t.Parallel()
				switch transport {
				case "http":
					runHTTPTranscript(t, tr)
				case "ws":
					runWSTranscript(t, tr)
				}
			})
		}
	}
}

func runHTTPTranscript(t *testing.T, tr *transcript) {
	h := newTestHTTPHandler(nil)
	for _, x := range tr.exchanges {
		method, path := x.method, x.path
		if method == "" {
			method, path = http.MethodPost, "/"
		}
		req := httptest.NewRequest(method, path, bytes.NewReader(x.body))
		if method == http.MethodPost && x.headers.Get("Content-Type") == "" {
			req.Header.Set("Content-Type", "application/json")
		}
		for name, values := range x.headers {
			req.Header[name] = values
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)

		where := fmt.Sprintf("%s:%d", tr.name, x.line)
		gotBody := rec.Body.Bytes()
		switch {
		case x.wantJSON != nil:
			if rec.Code != http.StatusOK {
				t.Errorf("%s: status = %d, want 200 (body %q)", where, rec.Code, gotBody)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("%s: Content-Type = %q, want application/json", where, ct)
			}
			if want := append(slices.Clone(x.wantJSON), '\n'); !bytes.Equal(gotBody, want) {
				t.Errorf("%s: reply mismatch\n got: %s\nwant: %s", where, gotBody, want)
			}
		case x.wantNothing:
			if rec.Code != http.StatusOK || len(gotBody) != 0 {
				t.Errorf("%s: got status %d body %q, want 200 with an empty body", where, rec.Code, gotBody)
			}
		default:
			if rec.Code != x.wantStatus {
				t.Errorf("%s: status = %d, want %d (body %q)", where, rec.Code, x.wantStatus, gotBody)
			}
			if !bytes.Equal(gotBody, x.wantText) {
				t.Errorf("%s: body mismatch\n got: %q\nwant: %q", where, gotBody, x.wantText)
			}
		}
		if cl := rec.Header().Get("Content-Length"); cl != "" && cl != strconv.Itoa(len(gotBody)) && method != http.MethodHead {
			t.Errorf("%s: Content-Length %s for a body of %d bytes", where, cl, len(gotBody))
		}
		for _, hv := range x.wantHeaders {
			got, present := rec.Header()[http.CanonicalHeaderKey(hv[0])]
			switch {
			case hv[1] == "" && present:
				t.Errorf("%s: header %s = %q, want it absent", where, hv[0], got)
			case hv[1] != "" && (len(got) != 1 || got[0] != hv[1]):
				t.Errorf("%s: header %s = %q, want %q", where, hv[0], got, hv[1])
			}
		}
	}
}

func runWSTranscript(t *testing.T, tr *transcript) {
	h := NewWSHandler(&testDispatcher{}, WSOptions{OpenRPC: []byte(testOpenRPC), Logger: discardLogger()})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()

	for _, x := range tr.exchanges {
		where := fmt.Sprintf("%s:%d", tr.name, x.line)
		if x.method != "" || len(x.headers) > 0 || x.wantStatus != 0 || len(x.wantHeaders) > 0 {
			t.Fatalf("%s: an HTTP-only exchange in a transcript that runs over WebSocket", where)
		}
		if err := c.Write(ctx, websocket.MessageText, x.body); err != nil {
			t.Fatalf("%s: write: %v", where, err)
		}
		if x.wantNothing {
			continue
		}
		_, got, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("%s: read: %v", where, err)
		}
		if !bytes.Equal(got, x.wantJSON) {
			t.Errorf("%s: reply mismatch\n got: %s\nwant: %s", where, got, x.wantJSON)
		}
	}

	const sentinel = `{"jsonrpc":"2.0","method":"echo","params":["sentinel"],"id":"sentinel"}`
	if err := c.Write(ctx, websocket.MessageText, []byte(sentinel)); err != nil {
		t.Fatal(err)
	}
	_, got, err := c.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","result":["sentinel"],"id":"sentinel"}`; string(got) != want {
		t.Errorf("%s: an unexpected message arrived before the sentinel's reply: %s", tr.name, got)
	}
	c.Close(websocket.StatusNormalClosure, "")
	if err := h.Shutdown(ctx); err != nil {
		t.Error(err)
	}
}

// TestExpand pins the macro language the transcripts rely on.
func TestExpand(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{`a$(nl)b`, "a\nb"},
		{`$(hex c3 28)`, "\xc3\x28"},
		{`"$(pad 3)"`, `"xxx"`},
		{`["$(fill 10)"]`, `["xxxxxx"]`},
	}
	for _, tt := range tests {
		got, err := expand(tt.in)
		if err != nil {
			t.Errorf("expand(%q): %v", tt.in, err)
			continue
		}
		if string(got) != tt.want {
			t.Errorf("expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if _, err := expand(`$(fill 2)abc`); err == nil {
		t.Error("expand accepted a fill shorter than the line")
	}
}
