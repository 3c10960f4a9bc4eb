package realelf

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// synthELF builds a little-endian ELF64 of the given machine: header, one program header, three section headers
// (a null one, a .text with textLen bytes at 0x100, a .bss NOBITS of a huge size that must not count), the section
// header table after .text. It returns the file and its expected scanned length.
func synthELF(machine uint16, textLen int) ([]byte, int) {
	le := binary.LittleEndian
	const textOff = 0x100
	shoff := textOff + textLen
	n := shoff + 3*64
	b := make([]byte, n)
	copy(b, "\x7fELF")
	b[4], b[5], b[6] = 2, 1, 1
	le.PutUint16(b[16:], 3) // ET_DYN
	le.PutUint16(b[18:], machine)
	le.PutUint64(b[32:], 64) // e_phoff
	le.PutUint64(b[40:], uint64(shoff))
	le.PutUint16(b[52:], 64)
	le.PutUint16(b[54:], 56)
	le.PutUint16(b[56:], 1)
	le.PutUint16(b[58:], 64)
	le.PutUint16(b[60:], 3)
	ph := b[64:]
	le.PutUint32(ph[0:], 1)
	le.PutUint64(ph[8:], textOff)
	le.PutUint64(ph[32:], uint64(textLen))
	for i := range textLen {
		b[textOff+i] = byte(i*7 + 1)
	}
	text := b[shoff+64:]
	le.PutUint32(text[4:], 1) // PROGBITS
	le.PutUint64(text[24:], textOff)
	le.PutUint64(text[32:], uint64(textLen))
	bss := b[shoff+128:]
	le.PutUint32(bss[4:], shtNobits)
	le.PutUint64(bss[24:], uint64(n))
	le.PutUint64(bss[32:], 1<<40)
	return b, n
}

func TestScan(t *testing.T) {
	good, goodLen := synthELF(MachineSBPF, 40)
	old, oldLen := synthELF(MachineBPF, 8)
	x86, _ := synthELF(62, 16)
	bigEndian := bytes.Clone(good)
	bigEndian[5] = 2
	class32 := bytes.Clone(good)
	class32[4] = 1
	truncated := good[:goodLen-1] // its section header table runs past the end
	pastEnd := bytes.Clone(good)
	binary.LittleEndian.PutUint64(pastEnd[binary.LittleEndian.Uint64(pastEnd[40:])+64+24:], 1<<62) // .text's offset, far past the end

	var file []byte
	add := func(b []byte) int {
		file = append(file, "junk\x7fEL\x7f"...)
		off := len(file)
		file = append(file, b...)
		return off
	}
	add(x86)
	add(bigEndian)
	wantGood := add(good)
	add(class32)
	add(pastEnd)
	wantOld := add(old)
	add(truncated)

	got := Scan(file)
	want := []Embedded{{wantGood, MachineSBPF, good}, {wantOld, MachineBPF, old}}
	if len(got) != len(want) {
		t.Fatalf("Scan found %d ELFs, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Offset != w.Offset || g.Machine != w.Machine || !bytes.Equal(g.ELF, w.ELF) {
			t.Errorf("ELF %d: offset %d, machine %d, %d bytes; want %d, %d, %d bytes", i, g.Offset, g.Machine, len(g.ELF), w.Offset, w.Machine, len(w.ELF))
		}
	}
	if len(got[0].ELF) != goodLen || len(got[1].ELF) != oldLen {
		t.Errorf("lengths %d, %d; want %d, %d", len(got[0].ELF), len(got[1].ELF), goodLen, oldLen)
	}

	// Bytes after an ELF's last extent are not part of it, and an ELF embedded inside a kept one is not reported
	// on its own: scanning resumes after the kept one.
	inner, _ := synthELF(MachineSBPF, 4)
	outer, outerLen := synthELF(MachineSBPF, len(inner)+8)
	copy(outer[0x100:], inner)
	got = Scan(append(bytes.Clone(outer), 0xff, 0xff))
	if len(got) != 1 || len(got[0].ELF) != outerLen {
		t.Fatalf("Scan of an ELF holding another: %d ELFs (first %d bytes), want 1 of %d bytes", len(got), len(got[0].ELF), outerLen)
	}
}

// FuzzScan: whatever the bytes, Scan does not panic, and what it reports are ordered, disjoint sub-slices of its
// input that start with the magic and scan again as themselves.
func FuzzScan(f *testing.F) {
	good, _ := synthELF(MachineSBPF, 40)
	old, _ := synthELF(MachineBPF, 3)
	f.Add(good)
	f.Add(append(append([]byte("xx"), old...), good...))
	f.Add(good[:100])
	f.Add([]byte("\x7fELF\x02\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		end := 0
		for _, e := range Scan(data) {
			if e.Offset < end || e.Offset+len(e.ELF) > len(data) || !bytes.Equal(e.ELF, data[e.Offset:e.Offset+len(e.ELF)]) {
				t.Fatalf("ELF at %d (%d bytes) is not a disjoint sub-slice after %d of %d input bytes", e.Offset, len(e.ELF), end, len(data))
			}
			if !bytes.HasPrefix(e.ELF, elfMagic) || (e.Machine != MachineBPF && e.Machine != MachineSBPF) {
				t.Fatalf("ELF at %d: no magic or machine %d", e.Offset, e.Machine)
			}
			again := Scan(e.ELF)
			if len(again) == 0 || again[0].Offset != 0 || len(again[0].ELF) != len(e.ELF) {
				t.Fatalf("ELF at %d does not scan as itself", e.Offset)
			}
			end = e.Offset + len(e.ELF)
		}
	})
}
