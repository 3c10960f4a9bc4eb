// Package transcript runs transcript tests: files that spell out a conversation with a JSON-RPC server, request by
// request, with the exact reply expected to each. impl/jsonrpc uses it for the transports, impl/node for the real
// generated dispatch. Each testdata/*.rpc file is one conversation:
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
//
// Load reads a directory of transcripts; RunHTTP runs one against an http.Handler, RunHTTPURL against a running
// server, and RunWS over a WebSocket connection.
package transcript

import (
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Exchange is one request of a transcript and the reply expected to it.
type Exchange struct {
	Line   int    // line of the request in the file
	Method string // "" for the default POST /
	Path   string
	Header http.Header // request headers
	Body   []byte

	WantJSON    []byte // set for a JSON reply
	WantNothing bool
	WantStatus  int // set for a status reply
	WantText    []byte
	WantHeaders [][2]string // name, value; an empty value means the header must be absent
}

// HasExpectation reports whether the reply to x has been given.
func (x *Exchange) HasExpectation() bool {
	return x.WantJSON != nil || x.WantNothing || x.WantStatus != 0
}

// httpOnly reports whether x uses what only HTTP has: a method or path, headers, a status reply.
func (x *Exchange) httpOnly() bool {
	return x.Method != "" || len(x.Header) > 0 || x.WantStatus != 0 || len(x.WantHeaders) > 0
}

// Transcript is one parsed file.
type Transcript struct {
	Name       string   // the file's base name
	Transports []string // "http", "ws"
	Exchanges  []*Exchange
}

// RunsOver reports whether the transcript is meant to run over transport ("http" or "ws").
func (tr *Transcript) RunsOver(transport string) bool {
	for _, t := range tr.Transports {
		if t == transport {
			return true
		}
	}
	return false
}

var (
	requestLine = regexp.MustCompile(`^(GET|HEAD|POST|PUT|DELETE|OPTIONS|PATCH) (/\S*)(?: (.*))?$`)
	statusLine  = regexp.MustCompile(`^([1-5][0-9][0-9])(?: (.*))?$`)
	macro       = regexp.MustCompile(`\$\((nl|hex|pad|fill)((?: [0-9a-fA-F]+)*)\)`)
)

// Parse reads one transcript; name is used in its error messages.
func Parse(name string, data []byte) (*Transcript, error) {
	t := &Transcript{Name: name, Transports: []string{"http"}}
	var cur *Exchange
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
			t.Transports = strings.Fields(strings.TrimPrefix(line, "// transports:"))
			for _, tr := range t.Transports {
				if tr != "http" && tr != "ws" {
					return nil, fail("unknown transport %q", tr)
				}
			}
		case strings.HasPrefix(line, "//"):
			continue
		case strings.HasPrefix(line, "-->>"):
			if cur == nil || cur.HasExpectation() {
				return nil, fail("request header outside a request")
			}
			name, value, ok := strings.Cut(strings.TrimSpace(line[4:]), ":")
			if !ok {
				return nil, fail("header line without a colon")
			}
			cur.Header.Add(strings.TrimSpace(name), strings.TrimSpace(value))
		case strings.HasPrefix(line, "-->"):
			if cur != nil && !cur.HasExpectation() {
				return nil, fail("request at line %d has no expected reply", cur.Line)
			}
			rest := strings.TrimPrefix(strings.TrimPrefix(line, "-->"), " ")
			cur = &Exchange{Line: n, Header: http.Header{}}
			if m := requestLine.FindStringSubmatch(rest); m != nil {
				cur.Method, cur.Path, rest = m[1], m[2], m[3]
			}
			body, err := Expand(rest)
			if err != nil {
				return nil, fail("%v", err)
			}
			cur.Body = body
			t.Exchanges = append(t.Exchanges, cur)
		case strings.HasPrefix(line, "<<-"):
			if cur == nil || !cur.HasExpectation() {
				return nil, fail("reply header before a reply")
			}
			name, value, ok := strings.Cut(strings.TrimSpace(line[3:]), ":")
			if !ok {
				return nil, fail("header line without a colon")
			}
			cur.WantHeaders = append(cur.WantHeaders, [2]string{strings.TrimSpace(name), strings.TrimSpace(value)})
		case strings.HasPrefix(line, "<--"):
			if cur == nil || cur.HasExpectation() {
				return nil, fail("reply without a request")
			}
			rest := strings.TrimPrefix(strings.TrimPrefix(line, "<--"), " ")
			switch m := statusLine.FindStringSubmatch(rest); {
			case rest == "nothing":
				cur.WantNothing = true
			case m != nil:
				cur.WantStatus, _ = strconv.Atoi(m[1])
				text, err := Expand(m[2])
				if err != nil {
					return nil, fail("%v", err)
				}
				cur.WantText = text
			default:
				want, err := Expand(rest)
				if err != nil {
					return nil, fail("%v", err)
				}
				cur.WantJSON = want
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
	if !cur.HasExpectation() {
		return nil, fmt.Errorf("%s:%d: request has no expected reply", name, cur.Line)
	}
	if t.RunsOver("ws") {
		for _, x := range t.Exchanges {
			if x.httpOnly() {
				return nil, fmt.Errorf("%s:%d: an HTTP-only exchange in a transcript that runs over WebSocket", name, x.Line)
			}
		}
	}
	return t, nil
}

// Expand replaces the macros of s; see the package documentation.
func Expand(s string) ([]byte, error) {
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

// Load parses every dir/*.rpc file, in name order. It fails the test when there are none or one does not parse.
func Load(t testing.TB, dir string) []*Transcript {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.rpc"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no %s/*.rpc files", dir)
	}
	var out []*Transcript
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Parse(filepath.Base(f), data)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tr)
	}
	return out
}
