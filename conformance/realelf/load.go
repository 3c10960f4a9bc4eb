//go:build unix

package realelf

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"

	"ledgerd/conformance/npmdeps"
)

// NPMDir is the directory whose package-lock.json pins npm litesvm@1.5.0: the LiteSVM parity test's
// (conformance/parity), whose install this package shares.
func NPMDir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return "", errors.New("realelf: cannot locate conformance/parity: the source path of this package is unknown (built with -trimpath?)")
	}
	return filepath.Join(filepath.Dir(file), "..", "parity"), nil
}

// npmLock is the file every process installing into NPMDir locks, as the parity test names it.
const npmLock = ".npm-ci.lock"

// moduleGlob matches the native module of the one platform binding npm installs beside litesvm (on linux x64
// litesvm-linux-x64-gnu/litesvm.linux-x64-gnu.node); every binding embeds the same ELF files.
const moduleGlob = "node_modules/litesvm-*/litesvm.*.node"

// cacheDir holds the extracted builds, inside node_modules so that a new install (npm ci removes node_modules)
// drops them; a stamp file names the module they were cut from by size and modification time.
const cacheDir = "node_modules/.cache/ledgerd-realelf"

// Load installs the npm packages NPMDir pins when they are missing or stale (telling logf), then returns the eight
// builds, from the cache when it matches the installed module, each identified and its sha256 checked.
func Load(ctx context.Context, logf func(format string, args ...any)) (map[Name]Program, error) {
	dir, err := NPMDir()
	if err != nil {
		return nil, err
	}
	if err := npmdeps.Ensure(ctx, dir, filepath.Join(dir, npmLock), logf); err != nil {
		return nil, err
	}
	modules, err := filepath.Glob(filepath.Join(dir, moduleGlob))
	if err != nil {
		return nil, err
	}
	if len(modules) != 1 {
		return nil, fmt.Errorf("realelf: want one LiteSVM native module under %s, found %d (%v)", filepath.Join(dir, "node_modules"), len(modules), modules)
	}
	module := modules[0]
	fi, err := os.Stat(module)
	if err != nil {
		return nil, err
	}
	stamp := module + " " + strconv.FormatInt(fi.Size(), 10) + " " + strconv.FormatInt(fi.ModTime().UnixNano(), 10) + "\n"
	cache := filepath.Join(dir, cacheDir)
	if progs, err := readCache(cache, stamp); err == nil {
		return progs, nil
	}
	data, err := os.ReadFile(module)
	if err != nil {
		return nil, err
	}
	progs, err := Extract(data)
	if err != nil {
		return nil, fmt.Errorf("realelf: %s: %w", module, err)
	}
	if err := writeCache(cache, stamp, progs); err != nil {
		logf("realelf: the extracted builds are not cached: %v", err)
	}
	return progs, nil
}

// readCache returns the builds cached in dir when its stamp is stamp and every file is still the pinned build.
func readCache(dir, stamp string) (map[Name]Program, error) {
	got, err := os.ReadFile(filepath.Join(dir, "stamp"))
	if err != nil {
		return nil, err
	}
	if string(got) != stamp {
		return nil, errors.New("stale")
	}
	out := map[Name]Program{}
	for _, n := range Names() {
		elf, err := os.ReadFile(filepath.Join(dir, string(n)+".so"))
		if err != nil {
			return nil, err
		}
		p, err := Identify(elf)
		if err != nil || p.Name != n {
			return nil, fmt.Errorf("cached %s: %v", n, err)
		}
		out[n] = p
	}
	return out, nil
}

// writeCache writes the builds and, last, the stamp, through temporary files renamed into place, so that a reader
// racing a writer sees either the old cache or the new one.
func writeCache(dir, stamp string, progs map[Name]Program) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	write := func(name string, b []byte) error {
		f, err := os.CreateTemp(dir, name+".tmp*")
		if err != nil {
			return err
		}
		_, werr := f.Write(b)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr == nil {
			werr = os.Rename(f.Name(), filepath.Join(dir, name))
		}
		if werr != nil {
			os.Remove(f.Name())
		}
		return werr
	}
	for n, p := range progs {
		if err := write(string(n)+".so", p.ELF); err != nil {
			return err
		}
	}
	return write("stamp", []byte(stamp))
}

// WriteFiles writes every build to dir as <name>.so and returns their paths by name.
func WriteFiles(dir string, progs map[Name]Program) (map[Name]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	out := map[Name]string{}
	for n, p := range progs {
		path := filepath.Join(dir, string(n)+".so")
		if err := os.WriteFile(path, p.ELF, 0o644); err != nil {
			return nil, err
		}
		out[n] = path
	}
	return out, nil
}

var loaded struct {
	sync.Mutex
	progs map[Name]Program
}

// Programs returns the eight real builds bundled in npm litesvm@1.5.0, installing it first if needed (once per
// process; the extraction is cached on disk across processes). It skips t when node or npm is not installed and
// fails it on any other problem: a missing or changed build is an error, not a skip. Each call returns its own
// copies of the ELF bytes.
func Programs(t testing.TB) map[Name]Program {
	t.Helper()
	npmdeps.Require(t, "the real program builds come from npm litesvm@1.5.0")
	loaded.Lock()
	defer loaded.Unlock()
	if loaded.progs == nil {
		progs, err := Load(t.Context(), t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		loaded.progs = progs
	}
	out := make(map[Name]Program, len(loaded.progs))
	for n, p := range loaded.progs {
		p.ELF = append([]byte(nil), p.ELF...)
		out[n] = p
	}
	return out
}
