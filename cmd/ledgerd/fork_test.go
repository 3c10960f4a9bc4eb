package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"ledgerd/impl/core"
)

// --fork-url takes a URL or a moniker and --fork-offline addresses, on a new ledger or an existing one; a bare
// --warp-slot reads the fork's slot when there is no --url; --fork-offline alone, or a bad URL, is refused.
func TestForkFlags(t *testing.T) {
	t.Parallel()
	cluster := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"jsonrpc":"2.0","result":777,"id":1}`)
	}))
	defer cluster.Close()
	dir := t.TempDir()
	off := core.Pubkey{0x71}
	tv, cfg, given, accounts := parseTV(t, "-l", filepath.Join(dir, "a"), "--mint", off.String(), "--fork-url", cluster.URL,
		"--fork-offline", off.String(), "--warp-slot")
	if _, err := tv.apply(context.Background(), cfg, given, accounts, false); err != nil {
		t.Fatal(err)
	}
	if cfg.Fork == nil || cfg.Fork.URL != cluster.URL || len(cfg.Fork.Offline) != 1 || cfg.Fork.Offline[0] != off || cfg.WarpSlot != 777 {
		t.Fatalf("fork %+v, warp slot %d", cfg.Fork, cfg.WarpSlot)
	}
	tv, cfg, given, accounts = parseTV(t, "-l", filepath.Join(dir, "b"), "--mint", off.String(), "--fork-url", "d")
	if _, err := tv.apply(context.Background(), cfg, given, accounts, false); err != nil || cfg.Fork == nil ||
		cfg.Fork.URL != "https://api.devnet.solana.com" {
		t.Fatalf("moniker: %v %+v", err, cfg.Fork)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--fork-offline", off.String()}, "--fork-offline needs --fork-url"},
		{[]string{"--fork-url", "ftp://x"}, "--fork-url"},
		{[]string{"--fork-url", cluster.URL, "--fork-offline", "nope"}, "--fork-offline"},
	} {
		tv, cfg, given, accounts := parseTV(t, append([]string{"-l", filepath.Join(dir, "c"), "--mint", off.String()}, c.args...)...)
		if _, err := tv.apply(context.Background(), cfg, given, accounts, false); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
