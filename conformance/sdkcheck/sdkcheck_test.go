//go:build unix

package sdkcheck

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"ledgerd/conformance/npmdeps"
	"ledgerd/generated/rpcapi"
	"ledgerd/impl/jsonrpc"
)

// The files the tools read. They are read here too, so go test's cache is invalidated when one changes (it
// does not see what a child process reads).
var (
	sdkDir       = "../../generated/sdk/typescript"
	goldenSDKDir = "../../gen/testdata/minimal/want/sdk/typescript"
	openRPC      = "../../generated/openrpc.json"
	goldenRPC    = "../../gen/testdata/minimal/want/openrpc.json"
	inputs       = []string{
		sdkDir + "/index.ts", sdkDir + "/tsconfig.json", sdkDir + "/package.json", goldenSDKDir + "/index.ts",
		openRPC, goldenRPC, "usage.ts", "tsconfig.json", "validate.mjs", "package.json", "package-lock.json",
	}
)

func TestSDKAndSchemaTools(t *testing.T) {
	npmdeps.Require(t, "the TypeScript SDK and the OpenRPC document are not checked (install Node.js >= 20 to run this test)")
	for _, p := range inputs {
		if _, err := os.ReadFile(p); err != nil {
			t.Fatal(err)
		}
	}
	npmdeps.Install(t, ".", installLock(t))
	tsc := filepath.Join("node_modules", ".bin", "tsc")

	t.Run("tsc/sdk", func(t *testing.T) {
		t.Parallel()
		// The package's own tsconfig: strict, ES2022 only (no DOM, no @types/node), as a user builds it.
		run(t, tsc, "-p", sdkDir, "--noEmit")
	})
	t.Run("tsc/golden", func(t *testing.T) {
		t.Parallel()
		run(t, tsc, "-p", goldenSDKDir, "--noEmit")
	})
	t.Run("openrpc/validator", func(t *testing.T) {
		t.Parallel()
		out := run(t, "node", "validate.mjs", openRPC)
		if !strings.HasPrefix(out, "ok: ") {
			t.Errorf("validate.mjs: %q, want ok", out)
		}
		run(t, "node", "validate.mjs", goldenRPC)
	})
	t.Run("openrpc/validator-fails", func(t *testing.T) {
		t.Parallel()
		// The validator is only worth its "ok" if it can say no: a document without info.version and with a
		// dangling $ref.
		bad := filepath.Join(t.TempDir(), "bad.json")
		os.WriteFile(bad, []byte(`{"openrpc":"1.3.2","info":{"title":"x"},"methods":[{"name":"a","params":[],
			"result":{"name":"r","schema":{"$ref":"#/components/schemas/Nope"}}}]}`), 0o644)
		out, err := command(t, "node", "validate.mjs", bad).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "version") {
			t.Errorf("validate.mjs accepted a broken document (err %v):\n%s", err, out)
		}
	})
	t.Run("usage", func(t *testing.T) {
		t.Parallel()
		// Type-check usage.ts and the SDK (stricter than strict, with DOM types), emit them, and run usage.js.
		out := t.TempDir()
		run(t, tsc, "-p", ".", "--outDir", out)
		os.WriteFile(filepath.Join(out, "package.json"), []byte(`{"type":"module"}`), 0o644)
		httpURL, wsURL := startStubNode(t)
		args := []string{filepath.Join(out, "conformance", "sdkcheck", "usage.js"), httpURL, wsURL}
		if major := nodeMajor(t); major < 22 {
			// Node 20 and 21 have a WebSocket client behind a flag; the SDK takes whatever class it is given.
			args = append([]string{"--experimental-websocket"}, args...)
		}
		if got := run(t, "node", args...); strings.TrimSpace(got) != "ok" {
			t.Errorf("usage.js: %q, want ok", got)
		}
	})
}

func command(t *testing.T, name string, args ...string) *exec.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return exec.CommandContext(ctx, name, args...)
}

// run runs a tool in this directory and returns its stdout; a failure fails the test with all of its output.
func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd := command(t, name, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

func nodeMajor(t *testing.T) int {
	v := strings.TrimPrefix(strings.TrimSpace(run(t, "node", "--version")), "v")
	major, err := strconv.Atoi(strings.SplitN(v, ".", 2)[0])
	if err != nil {
		t.Fatalf("node --version: %q", v)
	}
	if major < 20 {
		t.Skipf("node %s has no WebSocket client; usage.ts needs Node >= 20", v)
	}
	return major
}

// installLock is the file whose lock keeps concurrent test runs in this checkout from installing over each other:
// one in the temporary directory per checkout, so that none is left beside package.json.
func installLock(t *testing.T) string {
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(dir))
	return filepath.Join(os.TempDir(), "ledgerd-sdkcheck-"+hex.EncodeToString(sum[:8])+".lock")
}

// startStubNode serves the generated dispatcher over HTTP and WebSocket, with a stub Handler answering the few
// methods usage.ts calls; everything else (params validation, error replies, batches) is the real runtime.
func startStubNode(t *testing.T) (httpURL, wsURL string) {
	var (
		mu   sync.Mutex
		next uint64 = 1
		subs        = map[uint64]context.CancelFunc{}
	)
	stub := &rpcapi.Stub{
		GetBalanceFunc: func(ctx context.Context, p *rpcapi.GetBalanceParams) (rpcapi.GetBalanceResult, error) {
			return rpcapi.GetBalanceResult{Context: rpcapi.RpcContext{Slot: 7}, Value: 42}, nil
		},
		GetSlotFunc: func(ctx context.Context, p *rpcapi.GetSlotParams) (rpcapi.GetSlotResult, error) { return 7, nil },
		GetVersionFunc: func(ctx context.Context) (rpcapi.GetVersionResult, error) {
			return rpcapi.GetVersionResult{SolanaCore: "2.1.16", NodeCore: "2.1.16", FeatureSet: 1}, nil
		},
		SlotSubscribeFunc: func(ctx context.Context) (rpcapi.SlotSubscribeResult, error) {
			conn, ok := jsonrpc.ConnFromContext(ctx)
			if !ok {
				return 0, errors.New("slotSubscribe over HTTP")
			}
			mu.Lock()
			id := next
			next++
			stop, cancel := context.WithCancel(context.Background())
			subs[id] = cancel
			mu.Unlock()
			conn.OnClose(cancel)
			// Slots 100, 101, ... until unsubscribed; the first may overtake the reply, which the SDK must survive.
			go func() {
				tick := time.NewTicker(10 * time.Millisecond)
				defer tick.Stop()
				for slot := rpcapi.Slot(100); ; slot++ {
					select {
					case <-stop.Done():
						return
					case <-tick.C:
					}
					info := rpcapi.SlotInfo{Parent: slot - 1, Root: slot - 32, Slot: slot}
					if conn.Notify(rpcapi.MethodSlotNotification, map[string]any{"result": info, "subscription": id}) != nil {
						return
					}
				}
			}()
			return id, nil
		},
		SlotUnsubscribeFunc: func(ctx context.Context, p *rpcapi.SlotUnsubscribeParams) (rpcapi.SlotUnsubscribeResult, error) {
			mu.Lock()
			defer mu.Unlock()
			cancel, ok := subs[p.Subscription]
			if !ok {
				return false, rpcapi.NewInvalidSubscriptionIdError()
			}
			cancel()
			delete(subs, p.Subscription)
			return true, nil
		},
	}
	d := &rpcapi.Dispatcher{Handler: stub}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	httpSrv := httptest.NewServer(jsonrpc.NewHTTPHandler(d, jsonrpc.HTTPOptions{Logger: logger}))
	wsHandler := jsonrpc.NewWSHandler(d, jsonrpc.WSOptions{Logger: logger})
	wsSrv := httptest.NewServer(wsHandler)
	t.Cleanup(func() {
		httpSrv.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		wsHandler.Shutdown(ctx)
		wsSrv.Close()
	})
	return httpSrv.URL, "ws" + strings.TrimPrefix(wsSrv.URL, "http")
}
