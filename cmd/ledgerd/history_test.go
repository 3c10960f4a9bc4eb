package main

import (
	"flag"
	"io"
	"testing"

	"ledgerd/impl/node"
)

func TestHistoryFlags(t *testing.T) {
	for _, tc := range []struct {
		args     []string
		bigtable bool
		noUpload bool
		limit    uint64
		instance string
		emulator string
		err      bool
	}{
		{args: nil},
		{args: []string{"--limit-ledger-size="}, limit: 10_000},
		{args: []string{"--limit-ledger-size=50000"}, limit: 50_000},
		{args: []string{"--limit-ledger-size=x"}, err: true},
		{args: []string{"--bigtable-instance=archive"}, bigtable: true, instance: "archive"},
		{args: []string{"--rpc-bigtable-instance=archive", "--bigtable-read-only"}, bigtable: true, noUpload: true, instance: "archive"},
		{args: []string{"--bigtable-emulator-host=127.0.0.1:8086"}, bigtable: true, emulator: "127.0.0.1:8086"},
		{args: []string{"--enable-rpc-bigtable-ledger-storage"}, bigtable: true, noUpload: true},
		{args: []string{"--enable-rpc-bigtable-ledger-storage", "--enable-bigtable-ledger-upload"}, bigtable: true},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var h historyFlags
		h.register(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		var cfg node.Config
		err := h.apply(&cfg, givenFlags(fs))
		if (err != nil) != tc.err {
			t.Errorf("%v: err %v", tc.args, err)
			continue
		}
		b := cfg.History.Bigtable
		if (b != nil) != tc.bigtable || cfg.History.NoUpload != tc.noUpload || cfg.History.LimitShreds != tc.limit {
			t.Errorf("%v: %+v", tc.args, cfg.History)
		}
		if b != nil && (b.Instance != tc.instance || b.EmulatorHost != tc.emulator) {
			t.Errorf("%v: %+v", tc.args, *b)
		}
	}
}
