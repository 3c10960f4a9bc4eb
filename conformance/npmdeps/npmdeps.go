//go:build unix

// Package npmdeps is test support for the conformance tests that run Node.js: it skips a test when node or npm is
// missing and installs the npm packages a directory's package-lock.json pins, once, however many test processes
// share the directory.
package npmdeps

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// installTimeout bounds one npm ci.
const installTimeout = 10 * time.Minute

// Require skips t, saying "<tool> is not installed: <why>", unless node and npm are both on PATH, and returns the
// path of node.
func Require(t testing.TB, why string) (node string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("node is not installed: %s", why)
	}
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skipf("npm is not installed: %s", why)
	}
	return node
}

// Install runs npm ci --no-audit --no-fund in dir when dir/node_modules is missing or older than
// dir/package-lock.json. npm writes node_modules/.package-lock.json last, so its modification time stamps a
// completed install. An exclusive flock on lockPath, which every process installing into dir must name alike,
// keeps them from installing at once; freshness is checked again once the lock is held, since another process
// may have installed while this one waited.
func Install(t testing.TB, dir, lockPath string) {
	t.Helper()
	if fresh(t, dir) {
		return
	}
	lock, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close() // closing releases the lock
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatalf("locking %s: %v", lockPath, err)
	}
	if fresh(t, dir) {
		return
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("npm ci: installing the packages pinned by %s", filepath.Join(abs, "package-lock.json"))
	ctx, cancel := context.WithTimeout(t.Context(), installTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci --no-audit --no-fund (in %s): %v\n%s", abs, err, out)
	}
}

// fresh reports whether dir/node_modules holds a completed install at least as new as dir/package-lock.json.
func fresh(t testing.TB, dir string) bool {
	t.Helper()
	want, err := os.Stat(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	return err == nil && !got.ModTime().Before(want.ModTime())
}
