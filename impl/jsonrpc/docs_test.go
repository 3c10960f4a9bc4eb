package jsonrpc

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"ledgerd/generated/docs"
	"ledgerd/generated/rpcapi"
)

func TestHTTPDocs(t *testing.T) {
	t.Parallel()
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Docs: docs.HTML, Logger: discardLogger()})
	for _, method := range []string{http.MethodGet, http.MethodHead} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(method, "/docs", nil))
		if rec.Code != http.StatusOK {
			t.Fatalf("%s /docs: status %d, want 200", method, rec.Code)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "text/html; charset=utf-8" {
			t.Errorf("%s /docs: Content-Type %q, want text/html; charset=utf-8", method, ct)
		}
		if method == http.MethodHead {
			continue
		}
		body := rec.Body.String()
		for name := range rpcapi.Methods {
			if !strings.Contains(body, `id="`+name+`"`) {
				t.Errorf("GET /docs has no section for %s", name)
			}
		}
	}
	// POST /docs stays JSON-RPC, as on every other path.
	req := httptest.NewRequest(http.MethodPost, "/docs", strings.NewReader(`{"jsonrpc":"2.0","method":"nope","id":1}`))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if !strings.Contains(rec.Body.String(), `"error"`) {
		t.Errorf("POST /docs: %q, want a JSON-RPC error reply", rec.Body)
	}
}

func TestHTTPNoDocs(t *testing.T) {
	t.Parallel()
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Logger: discardLogger()})
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/docs", nil))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("GET /docs without Docs: status %d, want 405 as for any GET", rec.Code)
	}
}
