package main

import (
	"io"
	"strings"
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// --expected-genesis-hash refuses another chain and a malformed hash, before serving anything.
func TestExpectedGenesisHashFlag(t *testing.T) {
	dir := t.TempDir()
	l, err := ledger.Open(ledger.Config{Dir: dir, SlotDuration: 5 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	other := core.HashBytes([]byte("another chain"))
	for _, c := range []struct{ hash, want string }{
		{other.String(), "not the expected"},
		{"not-base58!", "is not a genesis hash"},
		{"3yZe7d", "is not a genesis hash"},
	} {
		err := run([]string{"--ledger", dir, "--rpc-port", "0", "--expected-genesis-hash", c.hash}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("--expected-genesis-hash %s: %v, want an error saying %q", c.hash, err, c.want)
		}
	}
}
