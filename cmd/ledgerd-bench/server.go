package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"ledgerd/impl/node"
)

// server is a node (or the bare handler) under test: a started binary, or a node in this process when the
// run is profiled.
type server interface {
	URL() string
	// Pid is the process to read VmRSS of (this process for an in-process node).
	Pid() int
	Stop() error
}

// proc is a process the tool started: the ledgerd binary or the bare handler.
type proc struct {
	cmd     *exec.Cmd
	url     string
	stderr  *lockedBuffer
	done    chan error
	stopped sync.Once
	stopErr error
}

func (p *proc) URL() string { return p.url }
func (p *proc) Pid() int    { return p.cmd.Process.Pid }

// Stop sends SIGTERM and waits for a clean exit (a kill after 15 s). Later calls return the first one's result.
func (p *proc) Stop() error {
	p.stopped.Do(func() { p.stopErr = p.stop() })
	return p.stopErr
}

func (p *proc) stop() error {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		if err != nil {
			return fmt.Errorf("%s: exit: %v\n%s", filepath.Base(p.cmd.Path), err, p.stderr.tail())
		}
		return nil
	case <-time.After(15 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
		return fmt.Errorf("%s: still running 15 s after SIGTERM; killed", filepath.Base(p.cmd.Path))
	}
}

// startProc starts bin with args, its reply port already chosen, without waiting for it to serve.
func startProc(bin string, port int, args ...string) (*proc, error) {
	p := &proc{cmd: exec.Command(bin, args...), url: "http://127.0.0.1:" + strconv.Itoa(port),
		stderr: &lockedBuffer{}, done: make(chan error, 1)}
	p.cmd.Stdout = io.Discard
	p.cmd.Stderr = p.stderr
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { p.done <- p.cmd.Wait() }()
	return p, nil
}

// startLedgerd starts the binary on dir and returns once /health answers, with the time that took from the
// exec: the time a user (or a supervisor polling /health) waits for a usable node.
func startLedgerd(bin, dir string, extra ...string) (*proc, time.Duration, error) {
	port, err := freePort()
	if err != nil {
		return nil, 0, err
	}
	args := append([]string{"--ledger", dir, "--rpc-port", strconv.Itoa(port), "--ws-port", "-1", "--log-level", "warn"}, extra...)
	t0 := time.Now()
	p, err := startProc(bin, port, args...)
	if err != nil {
		return nil, 0, err
	}
	if err := waitHealthy(p.url, p.done, 30*time.Second); err != nil {
		_ = p.cmd.Process.Kill()
		return nil, 0, fmt.Errorf("ledgerd did not become healthy: %v\n%s", err, p.stderr.tail())
	}
	return p, time.Since(t0), nil
}

// inProc is a node started in this process (node.Start), for profiles and the in-process start figure.
type inProc struct {
	n       *node.Node
	stopped sync.Once
	stopErr error
}

func (p *inProc) URL() string { return p.n.HTTPURL }
func (p *inProc) Pid() int    { return os.Getpid() }
func (p *inProc) Stop() error {
	p.stopped.Do(func() { p.stopErr = p.n.Close(context.Background()) })
	return p.stopErr
}

// startInProc starts a node in this process on dir and returns once /health answers, with the time from the
// call of node.Start.
func startInProc(dir string, slot time.Duration) (*inProc, time.Duration, error) {
	t0 := time.Now()
	n, err := node.Start(node.Config{LedgerDir: dir, RPCPort: -1, WSPort: -1, SlotDuration: slot,
		Logger: slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	if err != nil {
		return nil, 0, err
	}
	if err := waitHealthy(n.HTTPURL, nil, 30*time.Second); err != nil {
		_ = n.Close(context.Background())
		return nil, 0, err
	}
	return &inProc{n: n}, time.Since(t0), nil
}

// startNode starts ledgerd on dir: the binary, or in this process when inProcess is set.
func startNode(bin, dir string, inProcess bool, slot time.Duration) (server, error) {
	if inProcess {
		s, _, err := startInProc(dir, slot)
		return s, err
	}
	s, _, err := startLedgerd(bin, dir, "--slot-ms", strconv.Itoa(int(slot/time.Millisecond)))
	return s, err
}

// startBare starts this program as the bare handler (see serveBare) in its own process, as ledgerd is, so
// both servers are measured the same way.
func startBare() (*proc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	p, err := startProc(self, port, "-serve-bare", strconv.Itoa(port))
	if err != nil {
		return nil, err
	}
	if err := waitHealthy(p.url, p.done, 10*time.Second); err != nil {
		_ = p.cmd.Process.Kill()
		return nil, fmt.Errorf("bare handler: %v\n%s", err, p.stderr.tail())
	}
	return p, nil
}

// bareReply is the fixed reply of the bare handler: a getBalance result of the same shape as ledgerd's.
var bareReply = []byte(`{"jsonrpc":"2.0","result":{"context":{"slot":1},"value":0},"id":1}`)

// serveBare runs the bare handler: Go's net/http server with its defaults, reading each request body and
// answering the fixed reply (and "ok" on /health, so it is started the same way as ledgerd). It is the floor
// of what an HTTP JSON-RPC server in Go costs per request.
func serveBare(port string) error {
	srv := &http.Server{Addr: "127.0.0.1:" + port, Handler: bareHandler()}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-sig
		_ = srv.Close()
	}()
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func bareHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/health" {
			_, _ = w.Write([]byte("ok"))
			return
		}
		_, _ = io.Copy(io.Discard, r.Body)
		hdr := w.Header()
		hdr["Content-Type"] = []string{"application/json"}
		hdr["Content-Length"] = []string{strconv.Itoa(len(bareReply))}
		_, _ = w.Write(bareReply)
	})
}

// waitHealthy polls GET /health every millisecond until it answers 200 "ok", the process exits (done), or the
// timeout passes.
func waitHealthy(url string, done <-chan error, timeout time.Duration) error {
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		select {
		case err := <-done:
			return fmt.Errorf("exited before serving: %v", err)
		default:
		}
		resp, err := client.Get(url + "/health")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == 200 && string(body) == "ok" {
				return nil
			}
			err = fmt.Errorf("/health: HTTP %d %q", resp.StatusCode, body)
		}
		last = err
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("not healthy after %v: %v", timeout, last)
}

// freePort returns a port that was free a moment ago. The port must be known before the exec, so that the
// start figure can poll /health from the first instant (the binary prints its URL only once it listens).
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// vmRSS reads the resident set size of pid from /proc, in bytes.
func vmRSS(pid int) (int64, error) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(raw)) {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, errors.New("no VmRSS in /proc/" + strconv.Itoa(pid) + "/status")
}

// diskUse is what a ledger directory holds on disk: the apparent size of its files, each counted once however
// many names it has (snapshots hard-link the store's table files); wal is the part in pebble's write-ahead logs,
// which are recycled, and snapshots the part only the snapshots hold.
type diskUse struct{ total, wal, snapshots int64 }

// dirSize measures the files under dir.
func dirSize(dir string) (diskUse, error) {
	var u diskUse
	seen := map[[2]uint64]bool{}
	snapshots := filepath.Join(dir, "snapshots") + string(filepath.Separator)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) { // pebble and the snapshotter remove files while we walk
				return nil
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		if st, ok := info.Sys().(*syscall.Stat_t); ok {
			id := [2]uint64{uint64(st.Dev), st.Ino}
			if seen[id] {
				return nil
			}
			seen[id] = true
		}
		u.total += info.Size()
		switch {
		case strings.HasPrefix(path, snapshots):
			u.snapshots += info.Size()
		case strings.HasSuffix(path, ".log"):
			u.wal += info.Size()
		}
		return nil
	})
	return u, err
}

// lockedBuffer collects a child's stderr for error reports.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.b.Len() > 1<<20 {
		return len(p), nil
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) tail() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.b.String()
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	return s
}

// cpuTime is the CPU time (user and system, all threads) process pid has used, from /proc/<pid>/stat. Its
// resolution is the clock tick (10 ms), fine over runs of seconds.
func cpuTime(pid int) (time.Duration, error) {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces: count fields after its end.
	i := bytes.LastIndexByte(raw, ')')
	if i < 0 {
		return 0, errors.New("malformed /proc/" + strconv.Itoa(pid) + "/stat")
	}
	f := strings.Fields(string(raw[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("malformed /proc/" + strconv.Itoa(pid) + "/stat")
	}
	// Fields 14 and 15 of the file (utime, stime) are 12 and 13 after the name, counting from 1 at state.
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	const clockTick = 10 * time.Millisecond // USER_HZ is 100 on every Linux the tool runs on
	return time.Duration(utime+stime) * clockTick, nil
}
