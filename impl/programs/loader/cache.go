package loader

import (
	"bytes"
	"container/list"
	"fmt"
	"sync"
	"unsafe"

	"ledgerd/impl/core"
	"ledgerd/impl/sbpf"
	"ledgerd/impl/sbpf/syscalls"
)

// Environment is what programs are loaded and run with under one feature set: the syscall table
// deployed programs run with (unresolved symbols load and fault only when called, as the
// reference's execution environment does), and the stricter one a deployment is checked
// against (unresolved symbols refuse the ELF, and sol_alloc_free_ is gone once its feature is
// active).
type Environment struct {
	Features syscalls.Features
	Exec     *sbpf.Loader
	Deploy   *sbpf.Loader
}

// NewEnvironment builds the two syscall tables of a feature set.
func NewEnvironment(f syscalls.Features) (*Environment, error) {
	exec := sbpf.NewLoader(sbpf.DefaultConfig())
	if err := syscalls.Register(exec, f, false); err != nil {
		return nil, err
	}
	cfg := sbpf.DefaultConfig()
	cfg.RejectBrokenELFs = true
	deploy := sbpf.NewLoader(cfg)
	if err := syscalls.Register(deploy, f, true); err != nil {
		return nil, err
	}
	return &Environment{Features: f, Exec: exec, Deploy: deploy}, nil
}

var (
	envMu   sync.Mutex
	envByFS = map[syscalls.Features]*Environment{}
)

// EnvironmentFor returns the (shared, immutable) environment of a feature set.
func EnvironmentFor(f syscalls.Features) (*Environment, error) {
	envMu.Lock()
	defer envMu.Unlock()
	if e, ok := envByFS[f]; ok {
		return e, nil
	}
	e, err := NewEnvironment(f)
	if err != nil {
		return nil, err
	}
	envByFS[f] = e
	return e, nil
}

// DefaultFeatures is the syscall feature set ledgerd runs programs with: every feature a fresh
// test validator (and LiteSVM) has.
func DefaultFeatures() syscalls.Features { return syscalls.AllFeatures() }

// VerifyELF checks elf as a deployment does (the reference's deploy_program): loaded with the
// deployment syscalls and reject_broken_elfs, then verified. The error's text is what the
// reference logs after "Failed to load ELF: ..." / "Failed to verify program: ..."; a
// *DeployError says which step failed.
func VerifyELF(elf []byte, f syscalls.Features) error {
	env, err := EnvironmentFor(f)
	if err != nil {
		return err
	}
	_, err = loadExecutable(elf, env.Deploy)
	return err
}

// DeployError is an ELF a deployment refuses: Verify is false when loading (parsing,
// relocation, unresolved symbols) failed, true when the verifier rejected the program.
type DeployError struct {
	Verify bool
	Err    error
}

func (e *DeployError) Error() string { return e.Err.Error() }
func (e *DeployError) Unwrap() error { return e.Err }

// loadExecutable loads and verifies elf under l.
func loadExecutable(elf []byte, l *sbpf.Loader) (*sbpf.Executable, error) {
	exe, err := sbpf.LoadELF(elf, l)
	if err != nil {
		return nil, &DeployError{Err: err}
	}
	if err := sbpf.Verify(exe, l); err != nil {
		return nil, &DeployError{Verify: true, Err: err}
	}
	return exe, nil
}

// Cache holds loaded, verified programs so each deployment is loaded once and reused by every
// transaction and bank that runs it. An entry is keyed by program id and checked against the
// deployment it was built from: the ProgramData's deployment slot for upgradeable programs, and
// the ELF bytes themselves (compared, not hashed: a memory compare is far cheaper than loading)
// for every loader, so an upgrade, a close or an extend can never run stale code even without
// Invalidate. The cache is bounded by the total size of the ELFs it holds; the least recently
// used entries go first. It is safe for concurrent use.
//
// A program whose account a bank rewrites in place, keeping the slice it handed to a
// transaction, would defeat the address check in matches; banks store a changed account as a
// new value, as runtime.MapSource.Apply does.
type Cache struct {
	mu       sync.Mutex
	entries  map[core.Pubkey]*list.Element
	lru      list.List // front: most recently used; values are *cacheEntry
	bytes    int
	maxBytes int
}

// DefaultCacheBytes bounds the default cache: the ELF bytes of the programs it keeps loaded
// (their loaded form is of the same order).
const DefaultCacheBytes = 256 << 20

// NewCache returns an empty cache holding at most maxBytes of ELF (at least one program).
func NewCache(maxBytes int) *Cache {
	return &Cache{entries: make(map[core.Pubkey]*list.Element), maxBytes: maxBytes}
}

// Programs is the cache the node's loaders run programs from.
var Programs = NewCache(DefaultCacheBytes)

// cacheEntry is one loaded deployment. err is set when the ELF failed to load or verify (the
// reference's FailedVerification entry: invoking it is "Program is not deployed").
type cacheEntry struct {
	program core.Pubkey
	slot    uint64
	elf     []byte // a private copy
	// seen is the address of the account data this entry was last matched against: the
	// runtime never writes the slices its account source hands out (a changed account is a new
	// slice), so the same address and length are the same bytes, and the common case (the
	// same bank's account, run again) skips comparing the whole ELF.
	seen *byte
	env  *Environment
	exe  *sbpf.Executable
	err  error
}

// matches reports whether elf holds the entry's bytes, remembering elf's address when it does.
func (e *cacheEntry) matches(elf []byte) bool {
	if len(e.elf) != len(elf) {
		return false
	}
	p := unsafe.SliceData(elf)
	if len(elf) == 0 || p == e.seen {
		return true
	}
	if !bytes.Equal(e.elf, elf) {
		return false
	}
	e.seen = p
	return true
}

// Load returns the executable of program's deployment (its ProgramData slot for upgradeable
// programs, 0 otherwise) whose ELF is elf, loading and verifying it under env on a miss. A
// program that does not load or verify returns the *DeployError, cached as well.
func (c *Cache) Load(program core.Pubkey, slot uint64, elf []byte, env *Environment) (*sbpf.Executable, error) {
	c.mu.Lock()
	if el, ok := c.entries[program]; ok {
		e := el.Value.(*cacheEntry)
		if e.slot == slot && e.env == env && e.matches(elf) {
			c.lru.MoveToFront(el)
			c.mu.Unlock()
			return e.exe, e.err
		}
	}
	c.mu.Unlock()

	// Load outside the lock: other programs keep running meanwhile. Two transactions missing
	// at once both load; the second store wins, both results are equal.
	exe, err := loadExecutable(elf, env.Exec)
	e := &cacheEntry{program: program, slot: slot, elf: append([]byte(nil), elf...), seen: unsafe.SliceData(elf),
		env: env, exe: exe, err: err}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[program]; ok {
		c.remove(el)
	}
	c.entries[program] = c.lru.PushFront(e)
	c.bytes += len(e.elf)
	for c.bytes > c.maxBytes && c.lru.Len() > 1 {
		c.remove(c.lru.Back())
	}
	return exe, err
}

func (c *Cache) remove(el *list.Element) {
	e := el.Value.(*cacheEntry)
	c.lru.Remove(el)
	delete(c.entries, e.program)
	c.bytes -= len(e.elf)
}

// Invalidate drops program's entry (an upgrade, a close or an extend calls it; the next run
// loads the new deployment).
func (c *Cache) Invalidate(program core.Pubkey) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[program]; ok {
		c.remove(el)
	}
}

// Len returns how many deployments the cache holds.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lru.Len()
}

// String describes the cache for logs.
func (c *Cache) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Sprintf("program cache: %d programs, %d bytes of ELF", c.lru.Len(), c.bytes)
}
