package jsonrpc

// Transcript tests of the transports: each testdata/*.rpc file is a conversation with a server built on the test
// dispatcher. The syntax is documented in package ledgerd/impl/jsonrpc/transcript.

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"ledgerd/impl/jsonrpc/transcript"
)

// wsSentinel is answered by the test dispatcher's echo method.
var wsSentinel = transcript.Sentinel{
	Request: `{"jsonrpc":"2.0","method":"echo","params":["sentinel"],"id":"sentinel"}`,
	Reply:   `{"jsonrpc":"2.0","result":["sentinel"],"id":"sentinel"}`,
}

func TestTranscripts(t *testing.T) {
	t.Parallel()
	for _, tr := range transcript.Load(t, "testdata") {
		for _, transport := range tr.Transports {
			t.Run(strings.TrimSuffix(tr.Name, ".rpc")+"/"+transport, func(t *testing.T) {
				t.Parallel()
				switch transport {
				case "http":
					transcript.RunHTTP(t, tr, newTestHTTPHandler(nil))
				case "ws":
					runWSTranscript(t, tr)
				}
			})
		}
	}
}

// runWSTranscript runs tr on a WebSocket server of its own, then checks that the handler shuts down cleanly.
func runWSTranscript(t *testing.T, tr *transcript.Transcript) {
	h := NewWSHandler(&testDispatcher{}, WSOptions{OpenRPC: []byte(testOpenRPC), Logger: discardLogger()})
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	transcript.RunWS(t, tr, "ws"+strings.TrimPrefix(srv.URL, "http"), wsSentinel)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.Shutdown(ctx); err != nil {
		t.Error(err)
	}
}
