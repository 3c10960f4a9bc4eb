package sbpf_test

import (
	"bytes"
	"errors"
	"testing"

	"ledgerd/impl/sbpf"
)

// strictELF lays out a v3 file the way the strict parser wants it: header, two program headers, rodata at VM
// address 0, bytecode at 0x1_0000_0000.
func strictELF(rodata, text []byte, entryPC uint64) []byte {
	b := make([]byte, 64+2*56)
	copy(b, []byte{0x7f, 'E', 'L', 'F', 2, 1, 1})
	le.PutUint16(b[16:], 3)
	le.PutUint16(b[18:], 247)
	le.PutUint32(b[20:], 1)
	le.PutUint64(b[24:], sbpf.MMBytecodeStart+entryPC*8)
	le.PutUint64(b[32:], 64)
	le.PutUint32(b[48:], 3)
	le.PutUint16(b[52:], 64)
	le.PutUint16(b[54:], 56)
	le.PutUint16(b[56:], 2)
	ph := func(i int, flags uint32, offset, vaddr, size uint64) {
		p := b[64+i*56:]
		le.PutUint32(p[0:], 1)
		le.PutUint32(p[4:], flags)
		le.PutUint64(p[8:], offset)
		le.PutUint64(p[16:], vaddr)
		le.PutUint64(p[24:], vaddr)
		le.PutUint64(p[32:], size)
		le.PutUint64(p[40:], size)
		le.PutUint64(p[48:], 8)
	}
	ph(0, 4, 176, 0, uint64(len(rodata)))
	ph(1, 1, 176+uint64(len(rodata)), sbpf.MMBytecodeStart, uint64(len(text)))
	return append(append(b, rodata...), text...)
}

func v3Loader() *sbpf.Loader {
	cfg := sbpf.DefaultConfig()
	cfg.MaxVersion = sbpf.V3
	return sbpf.NewLoader(cfg)
}

func TestStrictParser(t *testing.T) {
	rodata := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	text := sbpf.MustAssemble("mov64 r0, 1\nexit\nmov64 r0, 2\nexit").Text
	good := strictELF(rodata, text, 2)
	exe, err := sbpf.LoadELF(good, v3Loader())
	if err != nil {
		t.Fatal(err)
	}
	if exe.Version != sbpf.V3 || !bytes.Equal(exe.Text, text) || !bytes.Equal(exe.RO, rodata) ||
		exe.ROVAddr != sbpf.MMRodataStart || exe.TextVAddr != sbpf.MMBytecodeStart || exe.EntryPC != 2 {
		t.Fatalf("executable %+v", exe)
	}
	// v3 is not enabled by default (as on mainnet).
	if _, err := sbpf.LoadELF(good, sbpf.NewLoader(sbpf.DefaultConfig())); !errors.Is(err, &sbpf.ELFError{Kind: sbpf.ErrUnsupportedSBPFVersion}) {
		t.Fatalf("v3 under the default config: %v", err)
	}

	// Break the file header one byte at a time: the reference accepts changes to e_type, e_shoff, e_flags
	// (here it would change the version, so skipped) and the section header fields, and nothing else.
	for off := 0; off < 64; off++ {
		if off >= 48 && off < 52 {
			continue
		}
		b := append([]byte(nil), good...)
		b[off] = 0xaf
		_, err := sbpf.LoadELF(b, v3Loader())
		ok := off == 16 || off == 17 || (off >= 40 && off < 48) || off >= 58
		if ok && err != nil {
			t.Errorf("header byte %d: %v", off, err)
		}
		if !ok && (err == nil || err.Error() != "Failed to parse ELF file: invalid file header") {
			t.Errorf("header byte %d: %v", off, err)
		}
	}
	// Break each program header one byte at a time: all but p_align matter.
	for off := 64; off < 64+2*56; off++ {
		b := append([]byte(nil), good...)
		b[off] = 0xaf
		_, err := sbpf.LoadELF(b, v3Loader())
		if (off-64)%56 >= 48 {
			if err != nil {
				t.Errorf("program header byte %d: %v", off, err)
			}
		} else if !errors.Is(err, &sbpf.ELFError{Kind: sbpf.ErrInvalidProgramHeader}) {
			t.Errorf("program header byte %d: %v", off, err)
		}
	}
	// Without rodata: a single PF_X segment is the bytecode.
	b := strictELF(nil, text, 0)
	le.PutUint16(b[56:], 1)
	copy(b[64:120], b[120:176])
	b = append(b[:120], text...)
	le.PutUint64(b[64+8:], 120)
	exe, err = sbpf.LoadELF(b, v3Loader())
	if err != nil || len(exe.RO) != 0 || !bytes.Equal(exe.Text, text) {
		t.Fatalf("single segment: %v", err)
	}
	// A read-only first segment needs a second one.
	b = append([]byte(nil), good...)
	le.PutUint16(b[56:], 1)
	if _, err := sbpf.LoadELF(b[:120], v3Loader()); err == nil || err.Error() != "Failed to parse ELF file: invalid file header" {
		t.Fatalf("rodata without bytecode: %v", err)
	}
	// Truncated: the header itself is out of bounds.
	if _, err := sbpf.LoadELF(good[:60], v3Loader()); !errors.Is(err, &sbpf.ELFError{Kind: sbpf.ErrValueOutOfBounds}) {
		t.Fatalf("truncated: %v", err)
	}
}
