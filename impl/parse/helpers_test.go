package parse

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"ledgerd/impl/core"
)

// keypair returns a fixed keypair per n, so expected texts can name its address.
func keypair(n byte) core.Keypair {
	var seed [32]byte
	seed[0] = n
	return core.KeypairFromSeed(seed)
}

// key returns a fixed address per n (one that sorts in n's order among other key(n) values).
func key(n byte) core.Pubkey {
	var k core.Pubkey
	k[0], k[31] = n, 0xaa
	return k
}

// marshal writes v as the RPC codec does (no HTML escaping), without the trailing newline.
func marshal(t testing.TB, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// compact returns want, a readable JSON text with $names replaced from vars, in compact form.
// Key order is kept, so comparing compact texts checks it too.
func compact(t testing.TB, want string, vars map[string]string) string {
	t.Helper()
	var pairs []string
	for k, v := range vars {
		pairs = append(pairs, "$"+k, v)
	}
	// Longer names first, so $payer2 is not replaced as $payer followed by 2.
	want = longestFirstReplacer(pairs).Replace(want)
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(want)); err != nil {
		t.Fatalf("expected text is not JSON: %v\n%s", err, want)
	}
	return buf.String()
}

func longestFirstReplacer(pairs []string) *strings.Replacer {
	for i := 0; i < len(pairs); i += 2 {
		for j := i + 2; j < len(pairs); j += 2 {
			if len(pairs[j]) > len(pairs[i]) {
				pairs[i], pairs[i+1], pairs[j], pairs[j+1] = pairs[j], pairs[j+1], pairs[i], pairs[i+1]
			}
		}
	}
	return strings.NewReplacer(pairs...)
}

// wantJSON fails t unless v marshals to want (after substitution and compaction).
func wantJSON(t testing.TB, v any, want string, vars map[string]string) {
	t.Helper()
	got := marshal(t, v)
	if w := compact(t, want, vars); got != w {
		t.Errorf("JSON mismatch\n got %s\nwant %s", got, w)
	}
}
