package sbpf_test

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"ledgerd/impl/sbpf"
	"ledgerd/impl/sbpf/sbpftest"
)

// Offsets in the ELF header and tables, for corrupting files on purpose.
const (
	offEntry    = 24
	offFlags    = 48
	phdr0       = 64
	phdrSize    = 56
	phVAddr     = 16
	phOffset    = 8
	phFilesz    = 32
	shdrSize    = 64
	shAddr      = 16
	shOffset    = 24
	shSize      = 32
	shName      = 0
	relInfo     = 8
	nopProgram  = "mov64 r0, 0\nexit"
	callProgram = "mov64 r1, 1\ncall sol_log_\nexit"
)

func build(t *testing.T, p sbpftest.Program) ([]byte, sbpftest.Layout) {
	t.Helper()
	b, lay, err := p.Build()
	if err != nil {
		t.Fatal(err)
	}
	return b, lay
}

func sectionIndex(t *testing.T, lay sbpftest.Layout, name string) int {
	t.Helper()
	for i, n := range lay.Sections {
		if n == name {
			return i
		}
	}
	t.Fatalf("no section %s in %v", name, lay.Sections)
	return 0
}

func shdr(lay sbpftest.Layout, i int) int { return int(lay.SectionHeadersOffset) + i*shdrSize }

// TestLoadRejects checks each way a file fails against the reference's error kind and text.
func TestLoadRejects(t *testing.T) {
	type tc struct {
		name   string
		file   func(t *testing.T) []byte
		kind   sbpf.ELFErrorKind
		text   string
		loader func(t *testing.T) *sbpf.Loader
	}
	plain := func(t *testing.T) []byte { b, _ := build(t, sbpftest.Program{Asm: nopProgram}); return b }
	mutate := func(p sbpftest.Program, f func(b []byte, lay sbpftest.Layout)) func(t *testing.T) []byte {
		return func(t *testing.T) []byte {
			b, lay := build(t, p)
			f(b, lay)
			return b
		}
	}
	sample := sbpftest.Program{Asm: sampleAsm, Rodata: sampleRodata(), RodataPointers: []uint64{16}}
	oob := "Offset or value is out of bounds"
	cases := []tc{
		{"bss section", mutate(sbpftest.Program{Asm: nopProgram, Extra: []sbpftest.Section{
			{Name: ".bss", Type: 8, Flags: 3, Data: make([]byte, 16)}}}, func([]byte, sbpftest.Layout) {}),
			sbpf.ErrWritableSectionNotSupported, "Found writable section (.bss) in ELF, read-write data not supported", nil},
		{"read-only bss is still refused", mutate(sbpftest.Program{Asm: nopProgram, Extra: []sbpftest.Section{
			{Name: ".bss.x", Type: 8, Flags: 2, Data: make([]byte, 16)}}}, func([]byte, sbpftest.Layout) {}),
			sbpf.ErrWritableSectionNotSupported, "Found writable section (.bss.x) in ELF, read-write data not supported", nil},
		{"writable data", mutate(sbpftest.Program{Asm: nopProgram, Extra: []sbpftest.Section{
			{Name: ".data", Flags: 3, Data: []byte{1, 2, 3, 4}}}}, func([]byte, sbpftest.Layout) {}),
			sbpf.ErrWritableSectionNotSupported, "Found writable section (.data) in ELF, read-write data not supported", nil},
		{"two text sections", mutate(sbpftest.Program{Asm: nopProgram, Extra: []sbpftest.Section{
			{Name: ".text", Flags: 6, Data: make([]byte, 8)}}}, func([]byte, sbpftest.Layout) {}),
			sbpf.ErrNotOneTextSection, "Multiple or no text sections, consider removing llc option: -function-sections", nil},
		{"section name longer than 15 bytes", mutate(sbpftest.Program{Asm: nopProgram, Extra: []sbpftest.Section{
			{Name: ".rodata.too_long_a_name", Data: make([]byte, 8)}}}, func([]byte, sbpftest.Layout) {}),
			sbpf.ErrFailedToParse, "Failed to parse ELF file: Section or symbol name `.rodata.too_long` is longer than `16` bytes", nil},
		{"wrong machine", mutate(sbpftest.Program{Asm: nopProgram, Machine: 62}, func([]byte, sbpftest.Layout) {}),
			sbpf.ErrWrongMachine, "Incompatible ELF: wrong machine", nil},
		{"wrong type", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) { b[16] = 2 }),
			sbpf.ErrWrongType, "Incompatible ELF: wrong type", nil},
		{"wrong ABI", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) { b[7] = 3 }),
			sbpf.ErrWrongAbi, "Incompatible ELF: wrong ABI", nil},
		{"32-bit class", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) { b[4] = 1 }),
			sbpf.ErrFailedToParse, "Failed to parse ELF file: invalid file header", nil},
		{"big endian", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) { b[5] = 2 }),
			sbpf.ErrFailedToParse, "Failed to parse ELF file: invalid file header", nil},
		{"v1 not enabled", mutate(sbpftest.Program{Asm: nopProgram, Flags: 1}, func([]byte, sbpftest.Layout) {}),
			sbpf.ErrUnsupportedSBPFVersion, "Detected sbpf_version required by the executable which are not enabled", nil},
		{"v3 not enabled", mutate(sbpftest.Program{Asm: nopProgram, Flags: 3}, func([]byte, sbpftest.Layout) {}),
			sbpf.ErrUnsupportedSBPFVersion, "Detected sbpf_version required by the executable which are not enabled", nil},
		{"reserved version", mutate(sbpftest.Program{Asm: nopProgram, Flags: 0xff}, func([]byte, sbpftest.Layout) {}),
			sbpf.ErrUnsupportedSBPFVersion, "Detected sbpf_version required by the executable which are not enabled",
			func(t *testing.T) *sbpf.Loader {
				cfg := sbpf.DefaultConfig()
				cfg.MaxVersion = sbpf.V4
				return sbpf.NewLoader(cfg)
			}},
		{"empty file", func(*testing.T) []byte { return nil }, sbpf.ErrValueOutOfBounds, oob, nil},
		{"header cut short", func(t *testing.T) []byte { return plain(t)[:60] }, sbpf.ErrValueOutOfBounds, oob, nil},
		{"section headers cut off", func(t *testing.T) []byte { b := plain(t); return b[:len(b)-10] },
			sbpf.ErrValueOutOfBounds, oob, nil},
		{"program headers overflow the file", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) {
			le.PutUint16(b[56:], 2000)
		}), sbpf.ErrValueOutOfBounds, oob, nil},
		{"program header count times size overflows", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) {
			le.PutUint64(b[32:], math.MaxUint64-10)
		}), sbpf.ErrValueOutOfBounds, oob, nil},
		{"program headers overlap the file header", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) {
			le.PutUint64(b[32:], 8)
		}), sbpf.ErrFailedToParse, "Failed to parse ELF file: values overlap", nil},
		{"misaligned program headers", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) {
			le.PutUint64(b[32:], 68)
		}), sbpf.ErrFailedToParse, "Failed to parse ELF file: invalid alignment", nil},
		{"segments not ascending", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) {
			le.PutUint64(b[phdr0+2*phdrSize+phVAddr:], 0x100)
		}), sbpf.ErrInvalidProgramHeader, "Invalid ELF program header", nil},
		{"segment past the end of the file", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) {
			le.PutUint64(b[phdr0+phFilesz:], 1<<20)
		}), sbpf.ErrValueOutOfBounds, oob, nil},
		{"segment size overflows", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) {
			le.PutUint64(b[phdr0+phFilesz:], math.MaxUint64)
		}), sbpf.ErrValueOutOfBounds, oob, nil},
		{"section size overflows", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, lay sbpftest.Layout) {
			le.PutUint64(b[shdr(lay, 1)+shSize:], math.MaxUint64)
		}), sbpf.ErrValueOutOfBounds, oob, nil},
		{"section past the end of the file", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, lay sbpftest.Layout) {
			le.PutUint64(b[shdr(lay, 1)+shOffset:], uint64(len(b)))
		}), sbpf.ErrValueOutOfBounds, oob, nil},
		{"section overlapping the section headers", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, lay sbpftest.Layout) {
			le.PutUint64(b[shdr(lay, 1)+shOffset:], lay.SectionHeadersOffset)
		}), sbpf.ErrFailedToParse, "Failed to parse ELF file: values overlap", nil},
		{"sections out of order", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, lay sbpftest.Layout) {
			le.PutUint64(b[shdr(lay, 1)+shOffset:], lay.DynsymOffset)
		}), sbpf.ErrFailedToParse, "Failed to parse ELF file: sections not in ascending order", nil},
		{"no section name table", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) {
			le.PutUint16(b[62:], 0)
		}), sbpf.ErrFailedToParse, "Failed to parse ELF file: no section name string table found", nil},
		{"first section not null", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, lay sbpftest.Layout) {
			le.PutUint32(b[shdr(lay, 0)+4:], 1)
		}), sbpf.ErrFailedToParse, "Failed to parse ELF file: invalid section header", nil},
		{"entry point outside the text", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) {
			le.PutUint64(b[offEntry:], 0x120+16)
		}), sbpf.ErrEntrypointOutOfBounds, "Entrypoint out of bounds", nil},
		{"entry point not on an instruction", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, _ sbpftest.Layout) {
			le.PutUint64(b[offEntry:], 0x120+4)
		}), sbpf.ErrInvalidEntrypoint, "Invalid entrypoint", nil},
		{"relocation out of bounds", mutate(sample, func(b []byte, lay sbpftest.Layout) {
			le.PutUint64(b[lay.RelDynOffset:], uint64(len(b))-6)
		}), sbpf.ErrValueOutOfBounds, oob, nil},
		{"relocation offset overflows", mutate(sample, func(b []byte, lay sbpftest.Layout) {
			le.PutUint64(b[lay.RelDynOffset:], math.MaxUint64-2)
		}), sbpf.ErrValueOutOfBounds, oob, nil},
		{"syscall relocation out of bounds", mutate(sbpftest.Program{Asm: callProgram}, func(b []byte, lay sbpftest.Layout) {
			le.PutUint64(b[lay.RelDynOffset:], uint64(len(b))-4)
		}), sbpf.ErrValueOutOfBounds, oob, nil},
		{"relocation table outside the file", mutate(sample, func(b []byte, lay sbpftest.Layout) {
			// DT_RELSZ (the third .dynamic entry) far past the end.
			le.PutUint64(b[lay.DynamicOffset+2*16+8:], 1<<20)
		}), sbpf.ErrFailedToParse, "Failed to parse ELF file: invalid dynamic section table", nil},
		{"relocation entry size", mutate(sample, func(b []byte, lay sbpftest.Layout) {
			le.PutUint64(b[lay.DynamicOffset+3*16+8:], 24)
		}), sbpf.ErrFailedToParse, "Failed to parse ELF file: invalid dynamic section table", nil},
		{"unknown relocation type", mutate(sample, func(b []byte, lay sbpftest.Layout) {
			le.PutUint64(b[lay.RelDynOffset+relInfo:], 2)
		}), sbpf.ErrUnknownRelocation, "Relocation failed, unknown type 2", nil},
		{"relocation type 0 is unknown too", mutate(sample, func(b []byte, lay sbpftest.Layout) {
			le.PutUint64(b[lay.RelDynOffset+relInfo:], 0)
		}), sbpf.ErrUnknownRelocation, "Relocation failed, unknown type 0", nil},
		{"unknown symbol", mutate(sbpftest.Program{Asm: callProgram}, func(b []byte, lay sbpftest.Layout) {
			le.PutUint64(b[lay.RelDynOffset+relInfo:], 99<<32|10)
		}), sbpf.ErrUnknownSymbol, "Unknown symbol with index 99", nil},
		{"symbol name outside the string table", mutate(sbpftest.Program{Asm: callProgram}, func(b []byte, lay sbpftest.Layout) {
			le.PutUint32(b[lay.DynsymOffset+24:], 5000)
		}), sbpf.ErrUnknownSymbol, "Unknown symbol with index 5000", nil},
		{"lddw of address zero", mutate(sample, func(b []byte, lay sbpftest.Layout) {
			// The first relocation is the lddw at pc 3; zero both halves of its immediate.
			le.PutUint32(b[0x120+3*8+4:], 0)
			le.PutUint32(b[0x120+4*8+4:], 0)
		}), sbpf.ErrELFInvalidVirtualAddress, "Relocation failed, invalid referenced virtual address 0x0", nil},
		{"relative call before the text", mutate(sbpftest.Program{Asm: "call f\nf:\nexit"}, func(b []byte, _ sbpftest.Layout) {
			le.PutUint32(b[0x120+4:], uint32(0xffffffff-1)) // -2
		}), sbpf.ErrRelativeJumpOutOfBounds, "Relative jump out of bounds at instruction #0", nil},
		{"relative call past the text", mutate(sbpftest.Program{Asm: "call f\nf:\nexit"}, func(b []byte, _ sbpftest.Layout) {
			le.PutUint32(b[0x120+4:], 1)
		}), sbpf.ErrRelativeJumpOutOfBounds, "Relative jump out of bounds at instruction #0", nil},
		{"call key collides with a syscall", func(t *testing.T) []byte {
			b, _ := build(t, sbpftest.Program{Asm: "call f\nf:\nexit"})
			return b
		}, sbpf.ErrSymbolHashCollision, "Symbol hash collision 0x" + hex32(sbpf.HashPC(1)), func(t *testing.T) *sbpf.Loader {
			l := sbpf.NewLoader(sbpf.DefaultConfig())
			// A syscall whose name is the 8 bytes of pc 1 has the key of a call to pc 1.
			if err := l.Register(string([]byte{1, 0, 0, 0, 0, 0, 0, 0}), nil); err != nil {
				t.Fatal(err)
			}
			return l
		}},
		{"deployment refuses a read-only section whose address is not its offset", mutate(sample, func(b []byte, lay sbpftest.Layout) {
			i := sectionIndex(t, lay, ".rodata")
			le.PutUint64(b[shdr(lay, i)+shAddr:], lay.RodataOffset+8)
		}), sbpf.ErrValueOutOfBounds, oob, func(t *testing.T) *sbpf.Loader { l, _ := testLoader(t, true, "sol_log_", "sol_log_64_"); return l }},
		{"text at the program region's end", mutate(sbpftest.Program{Asm: nopProgram}, func(b []byte, lay sbpftest.Layout) {
			le.PutUint64(b[shdr(lay, 1)+shAddr:], 1<<32)
			le.PutUint64(b[offEntry:], 1<<32)
		}), sbpf.ErrValueOutOfBounds, oob, func(t *testing.T) *sbpf.Loader { l, _ := testLoader(t, false); return l }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			loader, _ := testLoader(t, true, "sol_log_")
			if c.loader != nil {
				loader = c.loader(t)
			}
			exe, err := sbpf.LoadELF(c.file(t), loader)
			if err == nil {
				t.Fatalf("loaded: %+v", exe)
			}
			var ee *sbpf.ELFError
			if !errors.As(err, &ee) {
				t.Fatalf("error %T %v is not an *ELFError", err, err)
			}
			if ee.Kind != c.kind || err.Error() != c.text {
				t.Fatalf("got %v %q\nwant %v %q", ee.Kind, err.Error(), c.kind, c.text)
			}
			if !errors.Is(err, &sbpf.ELFError{Kind: c.kind}) {
				t.Fatal("errors.Is does not match the kind")
			}
		})
	}
}

func hex32(v uint32) string {
	const digits = "0123456789abcdef"
	var out []byte
	for started, i := false, 28; i >= 0; i -= 4 {
		d := v >> uint(i) & 0xf
		if d != 0 || started || i == 0 {
			started = true
			out = append(out, digits[d])
		}
	}
	return string(out)
}

// TestLoadAccepts covers files the reference loads although they look odd.
func TestLoadAccepts(t *testing.T) {
	t.Run("read-only sections other than the four are not mapped", func(t *testing.T) {
		data := bytes.Repeat([]byte{0xaa}, 8)
		b, lay := build(t, sbpftest.Program{Asm: nopProgram, Rodata: []byte{1, 2, 3, 4, 5, 6, 7, 8}, Extra: []sbpftest.Section{
			{Name: ".data", Flags: 2, Data: data},                                  // read-only .data is allowed and ignored
			{Name: ".data.rel.ro", Flags: 3, Data: []byte{9, 9, 9, 9, 9, 9, 9, 9}}, // writable .data.rel* too, and mapped
			{Name: ".eh_frame", Data: []byte{7, 7, 7, 7}},
		}})
		loader, _ := testLoader(t, true)
		exe, err := sbpf.LoadELF(b, loader)
		if err != nil {
			t.Fatal(err)
		}
		if got := exe.RO[lay.RodataOffset : lay.RodataOffset+8]; !bytes.Equal(got, []byte{1, 2, 3, 4, 5, 6, 7, 8}) {
			t.Fatalf(".rodata mapped as % x", got)
		}
		if bytes.Contains(exe.RO, data) {
			t.Fatal(".data was mapped")
		}
		if !bytes.Contains(exe.RO, []byte{9, 9, 9, 9, 9, 9, 9, 9}) || !bytes.HasSuffix(exe.RO, []byte{7, 7, 7, 7}) {
			t.Fatal(".data.rel.ro or .eh_frame not mapped")
		}
	})
	t.Run("execution loads a read-only section whose address is not its offset", func(t *testing.T) {
		b, lay := build(t, sbpftest.Program{Asm: sampleAsm, Rodata: sampleRodata(), RodataPointers: []uint64{16}})
		i := sectionIndex(t, lay, ".rodata")
		le.PutUint64(b[shdr(lay, i)+shAddr:], lay.RodataOffset+8)
		loader, _ := testLoader(t, false, "sol_log_", "sol_log_64_")
		exe, err := sbpf.LoadELF(b, loader)
		if err != nil {
			t.Fatal(err)
		}
		// The rodata is mapped at its (moved) address.
		if got := le.Uint64(exe.RO[lay.RodataOffset+8:]); got != 7 {
			t.Fatalf("rodata word at the section's address: %d", got)
		}
	})
	t.Run("PT_DYNAMIC missing falls back to the .dynamic section", func(t *testing.T) {
		b, _ := build(t, sbpftest.Program{Asm: callProgram})
		le.PutUint32(b[phdr0+3*phdrSize:], 0) // PT_NULL
		loader, _ := testLoader(t, true, "sol_log_")
		exe, err := sbpf.LoadELF(b, loader)
		if err != nil {
			t.Fatal(err)
		}
		if len(exe.SyscallKeys) != 1 {
			t.Fatal("relocations were not read through the section")
		}
	})
	t.Run("a relocation table outside every segment is found by section address", func(t *testing.T) {
		b, lay := build(t, sbpftest.Program{Asm: callProgram})
		// Shrink the third PT_LOAD so it no longer covers .rel.dyn.
		le.PutUint64(b[phdr0+2*phdrSize+phFilesz:], lay.RelDynOffset-lay.DynsymOffset)
		le.PutUint64(b[phdr0+2*phdrSize+40:], lay.RelDynOffset-lay.DynsymOffset)
		loader, _ := testLoader(t, true, "sol_log_")
		if _, err := sbpf.LoadELF(b, loader); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("a syscall relocation to a defined function is a BPF-to-BPF call", func(t *testing.T) {
		// Turn the syscall symbol into a function at the text's second instruction.
		b, lay := build(t, sbpftest.Program{Asm: "call sol_log_\nexit\nmov64 r0, 9\nexit"})
		sym := lay.DynsymOffset + 24
		b[sym+4] = 0x12
		le.PutUint64(b[sym+8:], 0x120+16)
		loader, _ := testLoader(t, true)
		exe, err := sbpf.LoadELF(b, loader)
		if err != nil {
			t.Fatal(err)
		}
		if key := le.Uint32(exe.Text[4:]); key != sbpf.HashPC(2) || exe.Functions[key] != 2 {
			t.Fatalf("call key %#x, functions %v", key, exe.Functions)
		}
		if r0, err := run(t, exe, loader); err != nil || r0 != 9 {
			t.Fatalf("r0 %d err %v", r0, err)
		}
	})
}
