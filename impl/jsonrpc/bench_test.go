package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// balanceDispatcher answers like getBalance: a context and a u64.
type balanceDispatcher struct{}

type rpcContext struct {
	Slot       uint64 `json:"slot"`
	APIVersion string `json:"apiVersion,omitempty"`
}

type balanceResult struct {
	Context rpcContext `json:"context"`
	Value   uint64     `json:"value"`
}

func (balanceDispatcher) Call(ctx context.Context, method string, params json.RawMessage, ws bool) (any, error) {
	var p []json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil || len(p) == 0 {
		return nil, &Error{Code: CodeInvalidParams, Message: "Invalid params"}
	}
	return &balanceResult{Context: rpcContext{Slot: 345678901, APIVersion: "2.2.0"}, Value: 1_000_000_000}, nil
}

// discardWriter is the cheapest http.ResponseWriter, so the benchmark measures the handler, not a recorder.
type discardWriter struct {
	h http.Header
	n int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(int)             {}
func (w *discardWriter) Write(p []byte) (int, error) { w.n += len(p); return len(p), nil }

// BenchmarkHTTPGetBalanceLike measures the transport's overhead for one small request: checks, decoding,
// dispatch and encoding, without the network.
func BenchmarkHTTPGetBalanceLike(b *testing.B) {
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri",{"commitment":"confirmed"}]}`)
	h := NewHTTPHandler(balanceDispatcher{}, HTTPOptions{Logger: discardLogger()})
	req := httptest.NewRequest(http.MethodPost, "/", nil)
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = int64(len(body))
	w := &discardWriter{h: http.Header{}}
	rd := bytes.NewReader(body)

	// Check the reply once.
	rd.Reset(body)
	req.Body = io.NopCloser(rd)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if want := `{"jsonrpc":"2.0","result":{"context":{"slot":345678901,"apiVersion":"2.2.0"},"value":1000000000},"id":1}` + "\n"; rec.Body.String() != want {
		b.Fatalf("reply %q, want %q", rec.Body, want)
	}

	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		rd.Reset(body)
		req.Body = io.NopCloser(rd)
		clear(w.h)
		h.ServeHTTP(w, req)
	}
}

// BenchmarkHTTPBatch10 is the same call ten times in one batch (web3.js getTransactions style).
func BenchmarkHTTPBatch10(b *testing.B) {
	one := `{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["83astBRguLMdt2h5U1Tpdq5tjFoJ6noeGwaY3mDLVcri"]}`
	body := []byte("[" + one + "," + one + "," + one + "," + one + "," + one + "," + one + "," + one + "," + one + "," + one + "," + one + "]")
	h := NewHTTPHandler(balanceDispatcher{}, HTTPOptions{Logger: discardLogger()})
	req := httptest.NewRequest(http.MethodPost, "/", nil)
	req.Header.Set("Content-Type", "application/json")
	req.ContentLength = int64(len(body))
	w := &discardWriter{h: http.Header{}}
	rd := bytes.NewReader(body)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		rd.Reset(body)
		req.Body = io.NopCloser(rd)
		clear(w.h)
		h.ServeHTTP(w, req)
	}
}
