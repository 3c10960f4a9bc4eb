package jsonrpc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"
)

// testDispatcher is the method table the tests run against. Each method exercises one path of the transport.
type testDispatcher struct {
	conns chan Conn // "subscribe" sends the calling connection here when non-nil
}

// simulationError stands for a generated error type: its data is a struct whose field order must survive.
type simulationError struct {
	Err  any      `json:"err"`
	Logs []string `json:"logs"`
}

type codedError struct {
	code int
	msg  string
	data any
}

func (e *codedError) Error() string  { return e.msg }
func (e *codedError) ErrorCode() int { return e.code }
func (e *codedError) ErrorData() any { return e.data }

func (d *testDispatcher) Call(ctx context.Context, method string, params json.RawMessage, ws bool) (any, error) {
	switch method {
	case "echo":
		return params, nil // nil params encode as null
	case "ok":
		return "ok", nil
	case "errorWithData":
		return nil, &codedError{
			code: -32002,
			msg:  "Transaction simulation failed: Blockhash not found",
			data: simulationError{Err: "BlockhashNotFound", Logs: []string{}},
		}
	case "errorTypedNilData":
		return nil, &codedError{code: -32005, msg: "Node is unhealthy", data: (*simulationError)(nil)}
	case "wrappedError":
		return nil, fmt.Errorf("loading account: %w", &Error{Code: CodeInvalidParams, Message: "Invalid param: WrongSize"})
	case "plainError":
		return nil, errors.New("blockstore: disk on fire")
	case "panic":
		panic("boom")
	case "slow":
		select {
		case <-time.After(20 * time.Millisecond):
			return "slow", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	case "hang": // runs until its context ends, as a scan over a huge ledger would
		<-ctx.Done()
		return nil, ctx.Err()
	case "budget":
		return ReplyBudget(ctx), nil
	case "sized": // a string result of params[0] bytes
		var n []int
		if err := json.Unmarshal(params, &n); err != nil || len(n) != 1 {
			return nil, &Error{Code: CodeInvalidParams, Message: "want [n]"}
		}
		return strings.Repeat("x", n[0]), nil
	case "wsOnly":
		if !ws {
			return nil, MethodNotFound()
		}
		return "ws", nil
	case "u64":
		return struct {
			RentEpoch uint64      `json:"rentEpoch"`
			Lamports  uint64      `json:"lamports"`
			Big       json.Number `json:"big"`
		}{math.MaxUint64, 1<<53 + 1, "340282366920938463463374607431768211455"}, nil
	case "html":
		return "<a href=\"x\">&</a> \u2028", nil
	case "badResult":
		return math.Inf(1), nil
	case "subscribe":
		c, ok := ConnFromContext(ctx)
		if !ok {
			return nil, MethodNotFound()
		}
		if d.conns != nil {
			d.conns <- c
		}
		return c.ID(), nil
	default:
		return nil, MethodNotFound()
	}
}

// testOpenRPC is written with spaces so the tests show rpc.discover compacting it.
const testOpenRPC = `{"openrpc": "1.2.6", "info": {"title": "ledgerd", "version": "0.0.0"}, "methods": []}`

// lockedBuffer collects log output written from several goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newTestHTTPHandler(log *slog.Logger) http.Handler {
	if log == nil {
		log = discardLogger()
	}
	return NewHTTPHandler(&testDispatcher{}, HTTPOptions{
		OpenRPC: []byte(testOpenRPC),
		Health:  func() string { return "ok" },
		Extra: map[string]http.Handler{
			"/docs": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				_, _ = io.WriteString(w, "<h1>docs</h1>")
			}),
		},
		Logger: log,
	})
}
