package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
)

func TestBlockProductionModeFlagRefusesUnknownModes(t *testing.T) {
	var stderr bytes.Buffer
	err := run([]string{"--ledger", t.TempDir(), "--block-production-mode", "block"}, io.Discard, &stderr)
	if err == nil || !strings.Contains(err.Error()+stderr.String(), "want clock, transaction or manual") {
		t.Fatalf("run = %v, stderr %q", err, stderr.String())
	}
}

// --block-production-mode manual: no slot until ledgerd_advanceSlots asks for them.
func TestManualModeBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	_, url := startBinary(t, bin, "--ledger", t.TempDir(), "--block-production-mode", "manual", "--slot-ms", "10")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := rpcclient.New(url)
	slot := func() uint64 {
		var s uint64
		if err := c.Call(ctx, rpcapi.MethodGetSlot, []any{map[string]string{"commitment": "confirmed"}}, &s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	s0 := slot()
	time.Sleep(200 * time.Millisecond)
	if s := slot(); s != s0 {
		t.Fatalf("confirmed slot moved %d -> %d in manual mode", s0, s)
	}
	var got uint64
	if err := c.Call(ctx, rpcapi.MethodLedgerdAdvanceSlots, []any{5}, &got); err != nil || got != s0+5 {
		t.Fatalf("ledgerd_advanceSlots(5) = %d, %v (from %d)", got, err, s0)
	}
	if s := slot(); s != s0+5 {
		t.Fatalf("confirmed slot %d after advancing 5 from %d", s, s0)
	}
}
