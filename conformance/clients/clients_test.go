package clients

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"ledgerd/conformance/npmdeps"
)

const (
	// startTimeout bounds the start-up: genesis, the announcement of the URLs, and /health saying ok.
	startTimeout = 60 * time.Second
	// scenarioTimeout bounds one node <scenario>.mjs run.
	scenarioTimeout = 120 * time.Second
	// stopTimeout is how long ledgerd gets to exit after SIGTERM before it is killed.
	stopTimeout = 10 * time.Second
)

// nodeFlags start a fresh chain on free ports that produces slots quickly (50 ms) and finalizes 4 slots behind the
// tip, with a faucet large enough for every scenario's airdrops.
var nodeFlags = []string{
	"--rpc-port", "0",
	"--ws-port", "0",
	"--slot-ms", "50",
	"--finality-depth", "4",
	"--faucet-sol", "1000000",
}

// TestClients runs every scenario (*.mjs but lib.mjs) with node against one ledgerd started for the test.
func TestClients(t *testing.T) {
	nodeBin := npmdeps.Require(t, "the real-client scenarios need Node.js 20.18+ and npm")
	scenarios := scenarioFiles(t)
	npmdeps.Install(t, ".", ".npm-ci.lock")
	n := startNode(t, buildNode(t))

	for _, file := range scenarios {
		t.Run(strings.TrimSuffix(file, ".mjs"), func(t *testing.T) {
			runScenario(t, nodeBin, file, n)
		})
	}
}

func scenarioFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.mjs")
	if err != nil {
		t.Fatal(err)
	}
	var scenarios []string
	for _, f := range files {
		if f != "lib.mjs" {
			scenarios = append(scenarios, f)
		}
	}
	if len(scenarios) == 0 {
		t.Fatal("no scenarios (*.mjs) found")
	}
	return scenarios
}

func buildNode(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "ledgerd")
	if out, err := exec.Command("go", "build", "-o", bin, "ledgerd/cmd/ledgerd").CombinedOutput(); err != nil {
		t.Fatalf("go build ledgerd/cmd/ledgerd: %v\n%s", err, out)
	}
	return bin
}

// node is a started ledgerd.
type node struct {
	httpURL, wsURL string
}

// The binary announces its endpoints the way solana-test-validator does ("JSON RPC URL: http://...",
// "WebSocket PubSub URL: ws://..."); any line's URL is taken, so the labels may change.
var urlPattern = regexp.MustCompile(`\b(https?|wss?)://\S+`)

// startNode starts the binary on a fresh ledger, reads the URLs from its stdout and waits for /health to say ok. The
// process is stopped (SIGTERM, then SIGKILL) when the test ends; its output is logged if the test failed.
func startNode(t *testing.T, bin string, extraFlags ...string) node {
	t.Helper()
	cmd := exec.Command(bin, append(append([]string{"--ledger", t.TempDir()}, nodeFlags...), extraFlags...)...)
	output := new(lockedBuffer)
	stdoutR, stdoutW := io.Pipe()
	cmd.Stdout = stdoutW
	cmd.Stderr = output
	t.Logf("starting %s %s", filepath.Base(bin), strings.Join(cmd.Args[1:], " "))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}

	var waitErr error
	exited := make(chan struct{})
	go func() {
		waitErr = cmd.Wait()
		stdoutW.Close()
		close(exited)
	}()
	t.Cleanup(func() {
		select {
		case <-exited:
			t.Errorf("ledgerd exited before the end of the test: %v", waitErr)
		default:
			cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-exited:
				if waitErr != nil {
					t.Errorf("ledgerd after SIGTERM: %v", waitErr)
				}
			case <-time.After(stopTimeout):
				cmd.Process.Kill()
				<-exited
				t.Errorf("ledgerd still running %v after SIGTERM; killed", stopTimeout)
			}
		}
		if t.Failed() {
			t.Logf("ledgerd output:\n%s", output.Tail(64<<10))
		}
	})

	// Read stdout to its end (so the node never blocks on it), keeping a copy and announcing the URLs once seen.
	announced := make(chan node, 1)
	go func() {
		var n node
		sent := false
		sc := bufio.NewScanner(stdoutR)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(output, line)
			for _, m := range urlPattern.FindAllStringSubmatch(line, -1) {
				switch {
				case strings.HasPrefix(m[1], "http") && n.httpURL == "":
					n.httpURL = strings.TrimSuffix(m[0], "/")
				case strings.HasPrefix(m[1], "ws") && n.wsURL == "":
					n.wsURL = strings.TrimSuffix(m[0], "/")
				}
			}
			if n.httpURL != "" && n.wsURL != "" && !sent {
				announced <- n
				sent = true
			}
		}
		io.Copy(io.Discard, stdoutR)
	}()

	deadline := time.After(startTimeout)
	var n node
	select {
	case n = <-announced:
	case <-exited:
		t.Fatalf("ledgerd exited before announcing its URLs: %v\n%s", waitErr, output.Tail(64<<10))
	case <-deadline:
		t.Fatalf("ledgerd did not announce an http:// and a ws:// URL within %v", startTimeout)
	}
	t.Logf("ledgerd serves %s and %s", n.httpURL, n.wsURL)

	client := &http.Client{Timeout: 2 * time.Second}
	last := "no reply"
	for {
		if body, err := getHealth(client, n.httpURL); err != nil {
			last = err.Error()
		} else if body == "ok" {
			return n
		} else {
			last = fmt.Sprintf("%q", body)
		}
		select {
		case <-exited:
			t.Fatalf("ledgerd exited while starting: %v", waitErr)
		case <-deadline:
			t.Fatalf("/health did not say ok within %v; last: %s", startTimeout, last)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func getHealth(client *http.Client, httpURL string) (string, error) {
	resp, err := client.Get(httpURL + "/health")
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	return strings.TrimSpace(string(body)), err
}

// runScenario runs node <file> with RPC_URL and WS_URL, passing its output to t.Log line by line (shown when the
// scenario fails, or with -v).
func runScenario(t *testing.T, nodeBin, file string, n node) { runScenarioEnv(t, nodeBin, file, n) }

// runScenarioEnv is runScenario with more environment variables.
func runScenarioEnv(t *testing.T, nodeBin, file string, n node, env ...string) {
	ctx, cancel := context.WithTimeout(t.Context(), scenarioTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin, file)
	cmd.Env = append(append(os.Environ(), "RPC_URL="+n.httpURL, "WS_URL="+n.wsURL), env...)
	out := &lineLogger{t: t}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	out.Flush()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		t.Fatalf("node %s did not finish within %v", file, scenarioTimeout)
	case err != nil:
		t.Fatalf("node %s: %v", file, err)
	}
}

// lineLogger passes whole lines to t.Log. exec gives Stdout and Stderr, being the same writer, one goroutine at a time.
type lineLogger struct {
	t       *testing.T
	partial []byte
}

func (l *lineLogger) Write(p []byte) (int, error) {
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		l.t.Log(string(l.partial[:i]))
		l.partial = l.partial[i+1:]
	}
}

func (l *lineLogger) Flush() {
	if len(l.partial) > 0 {
		l.t.Log(string(l.partial))
		l.partial = nil
	}
}

// lockedBuffer collects the node's output from two goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// Tail returns at most the last max bytes written.
func (b *lockedBuffer) Tail(max int) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	s := b.buf.String()
	if len(s) > max {
		return "...\n" + s[len(s)-max:]
	}
	return s
}
