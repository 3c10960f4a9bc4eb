package main

import (
	"bufio"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestReadReply(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in   string
		wantStatus int
		wantBody   string
		wantErr    bool
	}{
		{name: "content length", in: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\nhello",
			wantStatus: 200, wantBody: "hello"},
		{name: "header case and spaces", in: "HTTP/1.1 413 Request Entity Too Large\r\ncontent-length:  3 \r\n\r\nbig",
			wantStatus: 413, wantBody: "big"},
		{name: "empty body", in: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", wantStatus: 200},
		{name: "chunked", in: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", wantErr: true},
		{name: "no length", in: "HTTP/1.1 200 OK\r\n\r\nhello", wantErr: true},
		{name: "short body", in: "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhello", wantErr: true},
		{name: "not HTTP", in: "SSH-2.0-OpenSSH\r\n", wantErr: true},
		{name: "bad length", in: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", wantErr: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			status, body, err := readReply(bufio.NewReader(strings.NewReader(tc.in)), nil)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("readReply = %d %q, want an error", status, body)
				}
				return
			}
			if err != nil || status != tc.wantStatus || string(body) != tc.wantBody {
				t.Fatalf("readReply = %d %q %v, want %d %q", status, body, err, tc.wantStatus, tc.wantBody)
			}
		})
	}
}

// Two replies back to back on one connection: the second is read from where the first ended.
func TestReadReplyKeepAlive(t *testing.T) {
	t.Parallel()
	r := bufio.NewReader(strings.NewReader("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nabHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\ncde"))
	var buf []byte
	for _, want := range []string{"ab", "cde"} {
		_, body, err := readReply(r, buf)
		if err != nil || string(body) != want {
			t.Fatalf("readReply = %q %v, want %q", body, err, want)
		}
		buf = body
	}
}

// The load loop against the bare handler: every request answered and checked, the work list honoured.
func TestClosedLoopBare(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(bareHandler())
	defer srv.Close()
	var sent atomic.Int64
	next := func() ([]byte, bool) {
		if sent.Add(1) > 100 {
			return nil, false
		}
		return []byte(`{"jsonrpc":"2.0","id":1,"method":"getBalance","params":["x"]}`), true
	}
	res, err := closedLoop(hostPort(srv.URL), 4, time.Time{}, next, isResult)
	if err != nil {
		t.Fatal(err)
	}
	if res.OK != 100 || res.Failed != 0 {
		t.Fatalf("closedLoop = %+v, want 100 OK and none failed", res)
	}
}

func TestCPUTime(t *testing.T) {
	t.Parallel()
	d, err := cpuTime(os.Getpid())
	if err != nil || d < 0 {
		t.Fatalf("cpuTime(self) = %v, %v", d, err)
	}
	if _, err := vmRSS(os.Getpid()); err != nil {
		t.Fatalf("vmRSS(self): %v", err)
	}
}

// A file with two names (a snapshot's hard link to a table) is counted once, under the store.
func TestDirSizeCountsLinksOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, d := range []string{"accounts", "snapshots/s1"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name string, n int) {
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("accounts/000001.sst", 1000)
	write("accounts/000002.log", 300)
	write("snapshots/s1/000003.log", 20)
	if err := os.Link(filepath.Join(dir, "accounts/000001.sst"), filepath.Join(dir, "snapshots/s1/000001.sst")); err != nil {
		t.Skip("no hard links here:", err)
	}
	got, err := dirSize(dir)
	if want := (diskUse{total: 1320, wal: 300, snapshots: 20}); err != nil || got != want {
		t.Fatalf("dirSize = %+v, %v; want %+v", got, err, want)
	}
}
