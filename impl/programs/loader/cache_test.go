package loader

import (
	"errors"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/sbpf/sbpftest"
)

func TestVerifyELF(t *testing.T) {
	good := sbpftest.MustELF("mov64 r0, 0\nexit", nil)
	if err := VerifyELF(good, DefaultFeatures()); err != nil {
		t.Fatalf("a valid program: %v", err)
	}
	var de *DeployError
	broken := sbpftest.MustELF("call sol_no_such_syscall\nmov64 r0, 0\nexit", nil)
	if err := VerifyELF(broken, DefaultFeatures()); !errors.As(err, &de) || de.Verify {
		t.Fatalf("an unresolved syscall at deployment: %v, want a load error", err)
	} else if err.Error() != "ELF error: Unresolved symbol (sol_no_such_syscall) at instruction #0 (ELF file offset 0x120)" {
		t.Logf("load error text: %s", err)
	}
	if err := VerifyELF([]byte("not an elf"), DefaultFeatures()); !errors.As(err, &de) {
		t.Fatalf("garbage: %v", err)
	}
	// The execution environment accepts what deployment refuses (the call faults when it runs).
	env, _ := EnvironmentFor(DefaultFeatures())
	if _, err := Programs.Load(core.Pubkey{9}, 0, broken, env); err != nil {
		t.Fatalf("execution load of an unresolved syscall: %v", err)
	}
	Programs.Invalidate(core.Pubkey{9})
}

func TestCacheReuseAndInvalidation(t *testing.T) {
	env, err := EnvironmentFor(DefaultFeatures())
	if err != nil {
		t.Fatal(err)
	}
	c := NewCache(1 << 20)
	id := core.Pubkey{1}
	a := sbpftest.MustELF("mov64 r0, 0\nexit", nil)
	b := sbpftest.MustELF("mov64 r0, 1\nexit", nil)
	e1, err := c.Load(id, 5, a, env)
	if err != nil {
		t.Fatal(err)
	}
	if e2, _ := c.Load(id, 5, append([]byte(nil), a...), env); e2 != e1 {
		t.Error("the same deployment was loaded twice")
	}
	if e3, _ := c.Load(id, 6, a, env); e3 == e1 {
		t.Error("a new deployment slot reused the old executable")
	}
	e4, _ := c.Load(id, 6, b, env)
	if e4 == e1 || e4.Text[4] != 1 {
		t.Error("changed ELF bytes reused the old executable")
	}
	c.Invalidate(id)
	if c.Len() != 0 {
		t.Errorf("%d entries after Invalidate", c.Len())
	}
	// The bound: entries beyond maxBytes push the oldest out.
	small := NewCache(len(a) + 1)
	small.Load(core.Pubkey{1}, 0, a, env)
	small.Load(core.Pubkey{2}, 0, a, env)
	if small.Len() != 1 {
		t.Errorf("bounded cache holds %d entries, want 1", small.Len())
	}
}
