package sbpftest_test

import (
	"bytes"
	"debug/elf"
	"fmt"
	"testing"

	"ledgerd/impl/sbpf"
	"ledgerd/impl/sbpf/sbpftest"
)

// Example writes a program that logs a string from its rodata, loads it as a deployment would, and runs it.
func Example() {
	elfBytes := sbpftest.MustELF(`
entrypoint:
    lddw r1, rodata+0
    mov64 r2, 5
    call sol_log_
    mov64 r0, 0
    exit
`, []byte("hello"))

	cfg := sbpf.DefaultConfig()
	cfg.RejectBrokenELFs = true // deployment: unknown syscalls are refused
	loader := sbpf.NewLoader(cfg)
	_ = loader.Register("sol_log_", func(vm *sbpf.VM, ptr, n, _, _, _ uint64) (uint64, error) {
		msg, err := vm.Translate(ptr, n, sbpf.Load)
		if err != nil {
			return 0, err
		}
		fmt.Printf("Program log: %s\n", msg)
		return 0, nil
	})
	exe, err := sbpf.LoadELF(elfBytes, loader)
	if err != nil {
		panic(err)
	}
	if err := sbpf.Verify(exe, loader); err != nil {
		panic(err)
	}
	meter := &sbpf.Meter{Remaining: 1000}
	vm, err := sbpf.NewVM(exe, loader, sbpf.Params{Meter: meter})
	if err != nil {
		panic(err)
	}
	r0, err := vm.Run()
	fmt.Println(r0, err, 1000-meter.Remaining)
	// Output:
	// Program log: hello
	// 0 <nil> 5
}

func TestLayout(t *testing.T) {
	b, lay, err := sbpftest.Program{Asm: "call sol_log_\ncall sol_log_64_\ncall sol_log_\nexit"}.Build()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// No rodata: no .rodata section, the rest as usual; each syscall named once.
	if f.Section(".rodata") != nil || f.Section(".rel.dyn") == nil || lay.Relocations != 3 {
		t.Fatalf("sections %v, %d relocations", lay.Sections, lay.Relocations)
	}
	syms, _ := f.DynamicSymbols()
	if len(syms) != 3 || syms[0].Name != "sol_log_" || syms[1].Name != "sol_log_64_" || syms[2].Name != "entrypoint" {
		t.Fatalf("symbols %+v", syms)
	}
	// Every section lies at the address of its file offset, as the reference's deployment checks require.
	for _, s := range f.Sections {
		if s.Flags&elf.SHF_ALLOC != 0 && s.Addr != s.Offset {
			t.Fatalf("%s at %#x, file offset %#x", s.Name, s.Addr, s.Offset)
		}
	}
	// Without relocations the dynamic table has no DT_REL (a zero-sized one would be refused).
	b, lay, err = sbpftest.Program{Asm: "exit"}.Build()
	if err != nil || lay.Relocations != 0 {
		t.Fatal(err)
	}
	f, _ = elf.NewFile(bytes.NewReader(b))
	if f.Section(".rel.dyn") != nil {
		t.Fatal("empty .rel.dyn written")
	}
	if v, _ := f.DynValue(elf.DT_REL); len(v) != 0 {
		t.Fatal("DT_REL without relocations")
	}
}

func TestErrors(t *testing.T) {
	for _, p := range []sbpftest.Program{
		{Asm: ""},
		{Asm: "bogus"},
		{Asm: "exit", Rodata: make([]byte, 8), RodataPointers: []uint64{4}},
	} {
		if _, _, err := p.Build(); err == nil {
			t.Errorf("%+v built", p)
		}
	}
}
