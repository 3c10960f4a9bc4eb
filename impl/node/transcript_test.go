package node

// Transcript tests of the real generated dispatch: one node runs in-process and every testdata/*.rpc file is a
// conversation with it, over HTTP (through a real client, against n.HTTPURL) and, for files marked
// "// transports: http ws", over its WebSocket URL. The syntax is documented in package
// ledgerd/impl/jsonrpc/transcript.

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"

	"ledgerd/impl/jsonrpc/transcript"
)

// wsSentinel asks for a method no transport serves, so its reply does not depend on the node's state or version.
var wsSentinel = transcript.Sentinel{
	Request: `{"jsonrpc":"2.0","method":"transcriptSentinel","id":"sentinel"}`,
	Reply:   `{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":"sentinel"}`,
}

// reproducibleNode starts a node whose replies do not depend on the run: fixed keypairs and genesis time, a
// clock that stands still, and slots an hour long, so it stays at its first working slot (processed 1, confirmed
// and finalized 0) for the whole test.
func reproducibleNode(t *testing.T) *Node {
	t.Helper()
	identity, faucet := core.KeypairFromSeed([32]byte{1}), core.KeypairFromSeed([32]byte{2})
	const genesisTime = 1_700_000_000
	n, err := Start(Config{
		LedgerDir: t.TempDir(), RPCPort: -1, WSPort: -1, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		SlotDuration: time.Hour,
		Genesis:      ledger.GenesisOptions{CreationTime: genesisTime, Identity: &identity, Faucet: &faucet},
		Now:          func() time.Time { return time.Unix(genesisTime, 0) },
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestTranscripts(t *testing.T) {
	n := reproducibleNode(t)
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
