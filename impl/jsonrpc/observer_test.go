package jsonrpc

import (
	"slices"
	"sync"
	"testing"
	"time"
)

type observed struct {
	method string
	ws     bool
	code   int
}

type recordingObserver struct {
	mu    sync.Mutex
	calls []observed
	slow  time.Duration // the longest elapsed seen
}

func (o *recordingObserver) ObserveCall(method string, ws bool, code int, elapsed time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.calls = append(o.calls, observed{method, ws, code})
	o.slow = max(o.slow, elapsed)
}

// Every call the transport answers reaches the Observer once, with the code its reply carries: each member of a
// batch, a notification, and a body refused whole (method "").
func TestObserverHearsEveryCall(t *testing.T) {
	t.Parallel()
	obs := &recordingObserver{}
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{Observer: obs})
	post(t, h, `{"jsonrpc":"2.0","id":1,"method":"ok"}`)
	post(t, h, `[{"jsonrpc":"2.0","id":1,"method":"slow"},{"jsonrpc":"2.0","id":2,"method":"wrappedError"},`+
		`{"jsonrpc":"2.0","id":3,"method":"nope"},{"jsonrpc":"2.0","method":"plainError"},`+
		`{"jsonrpc":"2.0","id":4,"method":"ok","params":1},{"jsonrpc":"2.0","id":5,"method":"panic"}]`)
	post(t, h, `{not json`)
	post(t, h, `[]`)
	want := []observed{
		{"ok", false, 0},
		{"slow", false, 0},
		{"wrappedError", false, CodeInvalidParams},
		{"nope", false, CodeMethodNotFound},
		{"plainError", false, CodeInternalError},
		{"ok", false, CodeInvalidRequest},
		{"panic", false, CodeInternalError},
		{"", false, CodeParseError},
		{"", false, CodeInvalidRequest},
	}
	if !slices.Equal(obs.calls, want) {
		t.Errorf("observed\n%v\nwant\n%v", obs.calls, want)
	}
	if obs.slow < 20*time.Millisecond {
		t.Errorf("longest call observed %v; the slow method takes 20ms", obs.slow)
	}
}

// Without an Observer nothing changes; a nil one is the default.
func TestObserverOptional(t *testing.T) {
	t.Parallel()
	h := NewHTTPHandler(&testDispatcher{}, HTTPOptions{})
	if got := post(t, h, `{"jsonrpc":"2.0","id":1,"method":"ok"}`).Body.String(); got != `{"jsonrpc":"2.0","result":"ok","id":1}`+"\n" {
		t.Errorf("reply %q", got)
	}
}
