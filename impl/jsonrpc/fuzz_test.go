package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"ledgerd/impl/jsonrpc/transcript"
)

// fuzzDispatcher is the test dispatcher without its slow method, so the fuzzer does not wait.
type fuzzDispatcher struct{ testDispatcher }

func (d *fuzzDispatcher) Call(ctx context.Context, method string, params json.RawMessage, ws bool) (any, error) {
	if method == "slow" {
		return "slow", nil
	}
	return d.testDispatcher.Call(ctx, method, params, ws)
}

// FuzzHTTP feeds arbitrary bodies to the HTTP handler: it must never panic, and every reply must be one of the
// plain-text refusals or well-formed JSON-RPC.
func FuzzHTTP(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.rpc"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		tr, err := transcript.Parse(filepath.Base(file), data)
		if err != nil {
			f.Fatal(err)
		}
		for _, x := range tr.Exchanges {
			if len(x.Body) <= 4096 {
				f.Add(x.Body)
			}
		}
	}
	f.Add([]byte(`[{"jsonrpc":"2.0","method":"echo","params":{"a":[1,{"b":null}]},"id":"\u00e9"},{"jsonrpc":"2.0","method":"u64"}]`))

	h := NewHTTPHandler(&fuzzDispatcher{}, HTTPOptions{MaxBodyBytes: 8192, OpenRPC: []byte(testOpenRPC), Logger: discardLogger()})
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		got := rec.Body.Bytes()

		switch rec.Code {
		case http.StatusRequestEntityTooLarge:
			if len(body) <= 8192 {
				t.Fatalf("413 for a %d-byte body", len(body))
			}
			return
		case http.StatusBadRequest:
			if utf8.Valid(body) {
				t.Fatalf("400 for a valid UTF-8 body: %s", got)
			}
			if want := "utf-8 encoding error at byte " + strconv.Itoa(validUTF8Prefix(body)) + " in request body"; string(got) != want {
				t.Fatalf("400 body %q, want %q", got, want)
			}
			return
		case http.StatusOK:
		default:
			t.Fatalf("status %d: %s", rec.Code, got)
		}
		if len(body) > 8192 || !utf8.Valid(body) {
			t.Fatalf("200 for a body the transport must refuse")
		}
		if len(got) == 0 {
			return // only notifications
		}
		if got[len(got)-1] != '\n' {
			t.Fatalf("reply does not end with a newline: %q", got)
		}
		if !json.Valid(got) {
			t.Fatalf("reply is not JSON: %q", got)
		}
		trimmed := bytes.TrimSpace(body)
		if got[0] == '[' {
			if len(trimmed) == 0 || trimmed[0] != '[' {
				t.Fatalf("an array reply to a request that is not a batch: %s", got)
			}
			var replies []json.RawMessage
			if err := json.Unmarshal(got, &replies); err != nil {
				t.Fatal(err)
			}
			if len(replies) == 0 {
				t.Fatal("an empty array reply")
			}
			for _, r := range replies {
				checkReply(t, r)
			}
			return
		}
		checkReply(t, got)
	})
}

// checkReply checks that raw is a JSON-RPC 2.0 response object.
func checkReply(t *testing.T, raw []byte) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("reply member is not an object: %s", raw)
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		t.Fatalf("jsonrpc member: %s", raw)
	}
	id, ok := m["id"]
	if !ok || !validID(id) {
		t.Fatalf("id missing or of the wrong type: %s", raw)
	}
	_, hasResult := m["result"]
	errRaw, hasError := m["error"]
	if len(m) != 3 || hasResult == hasError {
		t.Fatalf("want exactly jsonrpc, id and one of result or error: %s", raw)
	}
	if hasError {
		var e struct {
			Code    *int    `json:"code"`
			Message *string `json:"message"`
		}
		if err := json.Unmarshal(errRaw, &e); err != nil || e.Code == nil || e.Message == nil {
			t.Fatalf("error member: %s", raw)
		}
		if *e.Code == CodeParseError && string(id) != "null" {
			t.Fatalf("a parse error with an id: %s", raw)
		}
		if strings.TrimSpace(*e.Message) == "" {
			t.Fatalf("an error without a message: %s", raw)
		}
	}
}

// FuzzScan checks the request scanner against encoding/json on every valid JSON input.
func FuzzScan(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","method":"m","params":[1,{"a":"]}"}],"id":1}`))
	f.Add([]byte(` [ {"id" : "x\"}" , "\u006dethod":null} , 1 , "s" , [[]] ] `))
	f.Add([]byte(`{"id":1,"id":2,"":3,"params":{"x":[{},[],"\\"]}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		b = bytes.Trim(b, " \t\r\n")
		if !json.Valid(b) {
			return
		}
		switch b[0] {
		case '[':
			var want []json.RawMessage
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			got := scanArray(b)
			if len(got) != len(want) {
				t.Fatalf("scanArray found %d elements, encoding/json %d", len(got), len(want))
			}
			for i := range got {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("element %d: %q, want %q", i, got[i], want[i])
				}
			}
		case '{':
			var m map[string]json.RawMessage
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			got := scanRequest(b)
			for name, value := range map[string][]byte{"jsonrpc": got.version, "method": got.method, "params": got.params, "id": got.id} {
				if want := m[name]; !bytes.Equal(value, want) || (value == nil) != (want == nil) {
					t.Fatalf("member %s: %q, want %q", name, value, want)
				}
			}
		}
	})
}
