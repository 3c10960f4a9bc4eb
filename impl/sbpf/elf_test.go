package sbpf_test

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"ledgerd/impl/sbpf"
	"ledgerd/impl/sbpf/sbpftest"
)

var le = binary.LittleEndian

// logged is a syscall registry for tests: each syscall appends its name and arguments.
type logged struct{ calls []string }

func testLoader(t testing.TB, reject bool, names ...string) (*sbpf.Loader, *logged) {
	t.Helper()
	cfg := sbpf.DefaultConfig()
	cfg.RejectBrokenELFs = reject
	l := sbpf.NewLoader(cfg)
	lg := &logged{}
	for _, n := range names {
		name := n
		if err := l.Register(name, func(vm *sbpf.VM, a1, a2, a3, a4, a5 uint64) (uint64, error) {
			lg.calls = append(lg.calls, name)
			return a1 + a2, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	return l, lg
}

const sampleAsm = `
# a helper before the entry point, so that the entry is not pc 0
helper:
    mov64 r0, r1
    add64 r0, 5
    exit
entrypoint:
    lddw r1, rodata+8        # address of the second word
    ldxdw r2, [r1+0]         # 0x1122334455667788
    lddw r3, rodata+16       # the pointer slot
    ldxdw r3, [r3]           # relocated pointer to rodata+0
    ldxdw r3, [r3]           # 7
    mov64 r1, r3
    call helper              # r0 = 12
    mov64 r6, r0
    mov64 r1, 30
    mov64 r2, 12
    call sol_log_            # r0 = 42
    add64 r0, r6             # 54
    mov64 r1, 1
    mov64 r2, 1
    call sol_log_64_
    exit
`

func sampleRodata() []byte {
	ro := make([]byte, 24)
	le.PutUint64(ro[0:], 7)
	le.PutUint64(ro[8:], 0x1122334455667788)
	le.PutUint64(ro[16:], 0) // pointer to rodata+0
	return ro
}

func sampleELF(t testing.TB) ([]byte, sbpftest.Layout) {
	t.Helper()
	b, lay, err := sbpftest.Program{Asm: sampleAsm, Rodata: sampleRodata(), RodataPointers: []uint64{16}}.Build()
	if err != nil {
		t.Fatal(err)
	}
	return b, lay
}

func run(t *testing.T, exe *sbpf.Executable, loader *sbpf.Loader) (uint64, error) {
	t.Helper()
	if err := sbpf.Verify(exe, loader); err != nil {
		t.Fatalf("verify: %v", err)
	}
	vm, err := sbpf.NewVM(exe, loader, sbpf.Params{Meter: &sbpf.Meter{Remaining: 10_000}})
	if err != nil {
		t.Fatal(err)
	}
	return vm.Run()
}

func TestWriterOutputIsAWellFormedELF(t *testing.T) {
	b, lay := sampleELF(t)
	f, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("debug/elf rejects the writer's output: %v", err)
	}
	if f.Type != elf.ET_DYN || f.Machine != elf.EM_BPF || f.Class != elf.ELFCLASS64 {
		t.Fatalf("header: %v %v %v", f.Type, f.Machine, f.Class)
	}
	if f.Entry != 0x120+3*8 {
		t.Fatalf("entry %#x, want %#x", f.Entry, 0x120+3*8)
	}
	text := f.Section(".text")
	if text == nil || text.Addr != 0x120 || text.Offset != 0x120 {
		t.Fatalf(".text %+v", text)
	}
	if len(f.Progs) != 4 || f.Progs[3].Type != elf.PT_DYNAMIC {
		t.Fatalf("program headers %+v", f.Progs)
	}
	syms, err := f.DynamicSymbols()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range syms {
		names = append(names, s.Name)
	}
	if got := strings.Join(names, ","); got != "sol_log_,sol_log_64_,entrypoint" {
		t.Fatalf("dynamic symbols %s", got)
	}
	// 2 lddw + 1 rodata pointer (type 8), 2 syscall calls (type 10).
	if lay.Relocations != 5 {
		t.Fatalf("%d relocations, want 5", lay.Relocations)
	}
	rel := f.Section(".rel.dyn")
	data, _ := rel.Data()
	var types []uint32
	for i := 0; i+16 <= len(data); i += 16 {
		types = append(types, uint32(le.Uint64(data[i+8:])))
	}
	if want := []uint32{8, 8, 8, 10, 10}; !equalU32(types, want) {
		t.Fatalf("relocation types %v, want %v", types, want)
	}
}

func equalU32(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestLoadRelocatesAndRuns(t *testing.T) {
	b, lay := sampleELF(t)
	orig := append([]byte(nil), b...)
	loader, lg := testLoader(t, true, "sol_log_", "sol_log_64_")
	exe, err := sbpf.LoadELF(b, loader)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b, orig) {
		t.Fatal("LoadELF modified its input")
	}
	if exe.Version != sbpf.V0 || exe.EntryPC != 3 || exe.TextVAddr != sbpf.MMBytecodeStart+0x120 ||
		exe.ROVAddr != sbpf.MMBytecodeStart {
		t.Fatalf("executable %+v", exe)
	}
	// The program region covers [0, end of rodata), zero before .text.
	if uint64(len(exe.RO)) != lay.RodataOffset+24 || !bytes.Equal(exe.RO[:0x120], make([]byte, 0x120)) {
		t.Fatalf("RO has %d bytes", len(exe.RO))
	}
	// lddw rodata+8 -> 0x1_0000_0000 + vaddr.
	want := sbpf.MMBytecodeStart + lay.RodataOffset + 8
	got := uint64(le.Uint32(exe.Text[3*8+4:])) | uint64(le.Uint32(exe.Text[4*8+4:]))<<32
	if got != want {
		t.Fatalf("lddw relocated to %#x, want %#x", got, want)
	}
	// The rodata pointer is a full VM address now.
	if p := le.Uint64(exe.RO[lay.RodataOffset+16:]); p != sbpf.MMBytecodeStart+lay.RodataOffset {
		t.Fatalf("rodata pointer %#x", p)
	}
	// call helper: imm is the hash of the target pc, registered.
	callImm := le.Uint32(exe.Text[11*8+4:])
	if callImm != sbpf.HashPC(0) || exe.Functions[callImm] != 0 {
		t.Fatalf("internal call imm %#x, functions %v", callImm, exe.Functions)
	}
	if exe.Functions[sbpf.EntrypointHash] != 3 {
		t.Fatalf("entrypoint registered at %d", exe.Functions[sbpf.EntrypointHash])
	}
	if imm := le.Uint32(exe.Text[15*8+4:]); imm != sbpf.HashSymbolName([]byte("sol_log_")) {
		t.Fatalf("syscall imm %#x", imm)
	}
	if len(exe.SyscallKeys) != 2 {
		t.Fatalf("syscall keys %v", exe.SyscallKeys)
	}
	// The text is the program region's bytes at the text's address.
	if !bytes.Equal(exe.Text, exe.RO[0x120:0x120+len(exe.Text)]) {
		t.Fatal("text differs from the program region")
	}
	r0, err := run(t, exe, loader)
	if err != nil {
		t.Fatal(err)
	}
	if r0 != 2 || strings.Join(lg.calls, ",") != "sol_log_,sol_log_64_" {
		t.Fatalf("r0 = %d, calls %v", r0, lg.calls)
	}
}

func TestUnresolvedSyscall(t *testing.T) {
	b := sbpftest.MustELF("mov64 r1, 1\ncall sol_missing_\nexit", nil)
	// Deployment: rejected, with the reference's text.
	deploy, _ := testLoader(t, true, "sol_log_")
	_, err := sbpf.LoadELF(b, deploy)
	var ee *sbpf.ELFError
	if !errors.As(err, &ee) || ee.Kind != sbpf.ErrUnresolvedSymbol {
		t.Fatalf("deploy: %v", err)
	}
	if want := "Unresolved symbol (sol_missing_) at instruction #37 (ELF file offset 0x128)"; err.Error() != want {
		t.Fatalf("got %q, want %q", err.Error(), want)
	}
	// Execution: loads; the call faults when it runs.
	exec, _ := testLoader(t, false, "sol_log_")
	exe, err := sbpf.LoadELF(b, exec)
	if err != nil {
		t.Fatal(err)
	}
	_, err = run(t, exe, exec)
	if sbpf.KindOf(err) != sbpf.ErrUnsupportedInstruction {
		t.Fatalf("running an unresolved syscall: %v", err)
	}
}

func TestLoadBothMachines(t *testing.T) {
	for _, m := range []uint16{247, 263} {
		b, _, err := sbpftest.Program{Asm: "mov64 r0, 0\nexit", Machine: m}.Build()
		if err != nil {
			t.Fatal(err)
		}
		loader, _ := testLoader(t, true)
		if _, err := sbpf.LoadELF(b, loader); err != nil {
			t.Fatalf("e_machine %d: %v", m, err)
		}
	}
}

func TestRelocationVariants(t *testing.T) {
	prog := sbpftest.Program{Asm: "entrypoint:\nlddw r0, rodata+0\nexit", Rodata: make([]byte, 8)}
	loader, _ := testLoader(t, true)
	load := func(b []byte) uint64 {
		t.Helper()
		exe, err := sbpf.LoadELF(b, loader)
		if err != nil {
			t.Fatal(err)
		}
		r0, err := run(t, exe, loader)
		if err != nil {
			t.Fatal(err)
		}
		return r0
	}
	t.Run("R_BPF_64_64 adds the symbol's value", func(t *testing.T) {
		b, lay := build(t, prog)
		// Make the lddw load the entry point symbol's address: imm 0, type 1 against symbol 1 (entrypoint).
		le.PutUint32(b[0x120+4:], 0)
		le.PutUint64(b[lay.RelDynOffset+relInfo:], 1<<32|1)
		if r0 := load(b); r0 != sbpf.MMBytecodeStart+0x120 {
			t.Fatalf("r0 %#x", r0)
		}
	})
	t.Run("an lddw already in the program region is left alone", func(t *testing.T) {
		b, lay := build(t, prog)
		le.PutUint32(b[0x120+12:], 1) // high half: 0x1_xxxx_xxxx
		if r0 := load(b); r0 != sbpf.MMBytecodeStart+lay.RodataOffset {
			t.Fatalf("r0 %#x", r0)
		}
	})
	t.Run("a data pointer is read from the slot's upper half", func(t *testing.T) {
		b, lay, err := sbpftest.Program{Asm: "lddw r1, rodata+0\nldxdw r0, [r1]\nexit", Rodata: make([]byte, 8),
			RodataPointers: []uint64{0}}.Build()
		if err != nil {
			t.Fatal(err)
		}
		// The low half is ignored: garbage there changes nothing.
		le.PutUint32(b[lay.RodataOffset:], 0xdeadbeef)
		if r0 := load(b); r0 != sbpf.MMBytecodeStart+lay.RodataOffset {
			t.Fatalf("r0 %#x", r0)
		}
	})
}

func TestDataInTheAssembly(t *testing.T) {
	b, err := sbpftest.ELF(`
    lddw r1, table
    ldxdw r1, [r1+8]        # the second pointer: msg+2
    ldxb r0, [r1]
    exit
.rodata
msg:   .ascii "xyz"
       .align 8
table: .quad msg, msg+2
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	loader, _ := testLoader(t, true)
	exe, err := sbpf.LoadELF(b, loader)
	if err != nil {
		t.Fatal(err)
	}
	if r0, err := run(t, exe, loader); err != nil || r0 != 'z' {
		t.Fatalf("r0 %q, err %v", rune(r0), err)
	}
	if _, _, err := (sbpftest.Program{Asm: ".rodata\n.byte 1\n.text\nexit", Rodata: []byte{1}}).Build(); err == nil {
		t.Fatal("rodata given twice was accepted")
	}
}
