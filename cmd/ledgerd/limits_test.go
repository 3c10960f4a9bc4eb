package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// The RPC limit flags reach the server.
func TestRPCLimitFlags(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	_, httpURL := startBinary(t, bin, "--ledger", t.TempDir(), "--rpc-max-batch-size", "2", "--rpc-max-response-size", "1000")
	post := func(body string) string {
		t.Helper()
		resp, err := http.Post(httpURL, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return strings.TrimSpace(string(b))
	}
	health := `{"jsonrpc":"2.0","id":1,"method":"getHealth"}`
	if got, want := post("["+health+","+health+","+health+"]"), `{"jsonrpc":"2.0","error":{"code":-32600,"message":"batch too large"},"id":null}`; got != want {
		t.Errorf("3 calls with --rpc-max-batch-size 2: got %s, want %s", got, want)
	}
	if got, want := post(`{"jsonrpc":"2.0","id":1,"method":"getLeaderSchedule"}`), `{"jsonrpc":"2.0","error":{"code":-32091,"message":"response too large"},"id":1}`; got != want {
		t.Errorf("getLeaderSchedule with --rpc-max-response-size 1000: got %.300s, want %s", got, want)
	}
}
