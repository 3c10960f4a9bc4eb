package jsonrpc

import (
	"bytes"
	"strings"
	"testing"

	"ledgerd/generated/rpcapi"
)

// Strings inside generated unions (logs, memos) must come out unescaped, as serde_json writes them.
func TestEncodeValueKeepsHTMLCharactersInUnions(t *testing.T) {
	pair := [2]string{"<a&b>", "base64"}
	v := rpcapi.EncodedTransaction{Binary: &pair}
	var buf bytes.Buffer
	if err := encodeValue(&buf, v); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(buf.String()); got != `["<a&b>","base64"]` {
		t.Fatalf("encoded %s", got)
	}
}
