package sbpftest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"ledgerd/impl/sbpf"
	"ledgerd/impl/sbpf/sbpftest"
)

// clang finds a clang that can target BPF, or skips the test.
func clang(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"clang", "clang-19", "clang-16", "clang-15", "clang-14"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skip("no clang installed (apt-get install clang) to compile C test programs")
	return ""
}

func TestLinkObject(t *testing.T) {
	cc := clang(t)
	obj := filepath.Join(t.TempDir(), "link.o")
	out, err := exec.Command(cc, "-target", "bpf", "-mcpu=v2", "-O2", "-ffreestanding", "-fno-builtin",
		"-c", "testdata/link.c", "-o", obj).CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", cc, err, out)
	}
	o, err := os.ReadFile(obj)
	if err != nil {
		t.Fatal(err)
	}
	so, lay, err := sbpftest.Program{}.LinkObject(o)
	if err != nil {
		t.Fatal(err)
	}
	if lay.Relocations == 0 {
		t.Fatal("no relocations")
	}

	cfg := sbpf.DefaultConfig()
	cfg.RejectBrokenELFs = true
	loader := sbpf.NewLoader(cfg)
	var logs []string
	_ = loader.Register("sol_log_", func(vm *sbpf.VM, ptr, n, _, _, _ uint64) (uint64, error) {
		msg, err := vm.Translate(ptr, n, sbpf.Load)
		if err != nil {
			return 0, err
		}
		logs = append(logs, string(msg))
		return 0, nil
	})
	_ = loader.Register("sol_log_64_", func(vm *sbpf.VM, a, b, c, d, e uint64) (uint64, error) {
		logs = append(logs, strings.Repeat("#", int(a)))
		return 0, nil
	})
	exe, err := sbpf.LoadELF(so, loader)
	if err != nil {
		t.Fatal(err)
	}
	if err := sbpf.Verify(exe, loader); err != nil {
		t.Fatal(err)
	}
	input := []byte{5, 4, 2}
	vm, err := sbpf.NewVM(exe, loader, sbpf.Params{Meter: &sbpf.Meter{Remaining: 10_000},
		Input: []sbpf.Region{{VMAddr: sbpf.MMInputStart, Data: input, Writable: true}}})
	if err != nil {
		t.Fatal(err)
	}
	r0, err := vm.Run()
	// helper(5) + global_fn(2) = 16 + 9; names[4 % 3] through the relocated pointer table.
	if err != nil || r0 != 25 {
		t.Fatalf("r0 %d, err %v", r0, err)
	}
	if got := strings.Join(logs, "|"); got != "hello from C|two|"+strings.Repeat("#", 25) {
		t.Fatalf("logs %q", got)
	}
}

func TestLinkObjectRefusesWritableData(t *testing.T) {
	cc := clang(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "w.c")
	if err := os.WriteFile(src, []byte("unsigned long counter = 1;\nunsigned long entrypoint(void) { return ++counter; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	obj := filepath.Join(dir, "w.o")
	if out, err := exec.Command(cc, "-target", "bpf", "-O2", "-c", src, "-o", obj).CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	o, _ := os.ReadFile(obj)
	if _, _, err := (sbpftest.Program{}).LinkObject(o); err == nil || !strings.Contains(err.Error(), "writable section .data") {
		t.Fatalf("got %v", err)
	}
}
