//go:build unix

// Package npmdeps is test support for the conformance tests that run Node.js: it skips a test when node or npm is
// missing and installs the npm packages a directory's package-lock.json pins, once, however many test processes
// share the directory.
package npmdeps

import (
	"context"
	"fmt"
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
// dir/package-lock.json, failing t if it cannot (see Ensure).
func Install(t testing.TB, dir, lockPath string) {
	t.Helper()
	if err := Ensure(t.Context(), dir, lockPath, t.Logf); err != nil {
		t.Fatal(err)
	}
}

// Ensure is Install for callers without a testing.TB (a command extracting files from an npm package): it runs npm
// ci --no-audit --no-fund in dir when dir/node_modules is missing or older than dir/package-lock.json, telling logf
// when it does. npm writes node_modules/.package-lock.json last, so its modification time stamps a completed
// install. An exclusive flock on lockPath, which every process installing into dir must name alike, keeps them from
// installing at once; freshness is checked again once the lock is held, since another process may have installed
// while this one waited.
func Ensure(ctx context.Context, dir, lockPath string, logf func(format string, args ...any)) error {
	if ok, err := fresh(dir); ok || err != nil {
		return err
	}
	lock, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	defer lock.Close() // closing releases the lock
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("locking %s: %w", lockPath, err)
	}
	if ok, err := fresh(dir); ok || err != nil {
		return err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	logf("npm ci: installing the packages pinned by %s", filepath.Join(abs, "package-lock.json"))
	ctx, cancel := context.WithTimeout(ctx, installTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci --no-audit --no-fund (in %s): %w\n%s", abs, err, out)
	}
	return nil
}

// fresh reports whether dir/node_modules holds a completed install at least as new as dir/package-lock.json.
func fresh(dir string) (bool, error) {
	want, err := os.Stat(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return false, err
	}
	got, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	return err == nil && !got.ModTime().Before(want.ModTime()), nil
}
