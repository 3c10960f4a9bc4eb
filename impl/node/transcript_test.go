package node

// Transcript tests of the real generated dispatch: one node runs in-process and every testdata/*.rpc file is a
// conversation with it, over HTTP (through a real client, against n.HTTPURL) and, for files marked
// "// transports: http ws", over its WebSocket URL. The syntax is documented in package
// ledgerd/impl/jsonrpc/transcript.

import (
	"context"
	"strings"
	"testing"

	"ledgerd/impl/jsonrpc/transcript"
)

// wsSentinel asks for a method no transport serves, so its reply does not depend on the node's state or version.
var wsSentinel = transcript.Sentinel{
	Request: `{"jsonrpc":"2.0","method":"transcriptSentinel","id":"sentinel"}`,
	Reply:   `{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":"sentinel"}`,
}

func TestTranscripts(t *testing.T) {
	n := startNode(t, t.TempDir(), false)
	t.Cleanup(func() {
		if err := n.Close(context.Background()); err != nil {
			t.Error(err)
		}
	})
	for _, tr := range transcript.Load(t, "testdata") {
		for _, transport := range tr.Transports {
			t.Run(strings.TrimSuffix(tr.Name, ".rpc")+"/"+transport, func(t *testing.T) {
				t.Parallel()
				switch transport {
				case "http":
					transcript.RunHTTPURL(t, tr, n.HTTPURL)
				case "ws":
					transcript.RunWS(t, tr, n.WSURL, wsSentinel)
				}
			})
		}
	}
}
