package realelf

import (
	"bytes"
	"encoding/binary"
)

// The ELF64 fields the scanner reads (little-endian, as every sBPF program is).
const (
	elfHeaderSize  = 64
	sectionHdrSize = 64 // the smallest e_shentsize an ELF64 section header fits in
	programHdrSize = 56 // likewise for e_phentsize
	shtNobits      = 8  // a section that occupies no bytes of the file (.bss)

	// MachineBPF and MachineSBPF are the e_machine values of sBPF programs: EM_BPF (247), which the platform tools
	// wrote before SBPF v1, and EM_SBPF (263). Production programs carry either.
	MachineBPF  = 247
	MachineSBPF = 263
)

var elfMagic = []byte("\x7fELF")

// Embedded is one ELF found inside a larger file.
type Embedded struct {
	Offset  int    // where it starts in the scanned file
	Machine uint16 // e_machine
	ELF     []byte // its bytes, a sub-slice of the scanned file
}

// Scan returns every little-endian ELF64 sBPF program embedded in data, in file order. A candidate is kept when
// its magic, class (ELFCLASS64), data encoding (ELFDATA2LSB) and e_machine (247 or 263) match and every extent it
// names lies inside data; its length is the furthest of those extents: the ELF header, the program header table,
// the section header table, and the file bytes of every segment and of every section but NOBITS ones. Scanning
// resumes after a kept ELF, or one byte after a rejected candidate, so a truncated or corrupt header costs nothing
// but itself. Scan never reads outside data, whatever it holds.
func Scan(data []byte) []Embedded {
	var out []Embedded
	for pos := 0; pos < len(data); {
		i := bytes.Index(data[pos:], elfMagic)
		if i < 0 {
			break
		}
		start := pos + i
		n, machine, ok := elfLength(data[start:])
		if !ok {
			pos = start + 1
			continue
		}
		out = append(out, Embedded{Offset: start, Machine: machine, ELF: data[start : start+n : start+n]})
		pos = start + n
	}
	return out
}

// elfLength returns the length of the sBPF ELF64 at the start of b, or false when b does not start with one that
// fits inside b.
func elfLength(b []byte) (n int, machine uint16, ok bool) {
	if len(b) < elfHeaderSize || !bytes.Equal(b[:4], elfMagic) || b[4] != 2 || b[5] != 1 {
		return 0, 0, false
	}
	le := binary.LittleEndian
	machine = le.Uint16(b[18:])
	if machine != MachineBPF && machine != MachineSBPF {
		return 0, 0, false
	}
	size := uint64(len(b))
	end := uint64(elfHeaderSize)
	// extent reports whether [off, off+count*entsize) lies inside b and pushes end past it.
	extent := func(off, count, entsize uint64) bool {
		if count != 0 && entsize > size/count {
			return false
		}
		length := count * entsize
		if off > size || length > size-off {
			return false
		}
		end = max(end, off+length)
		return true
	}

	phoff, phentsize, phnum := le.Uint64(b[32:]), uint64(le.Uint16(b[54:])), uint64(le.Uint16(b[56:]))
	if phnum > 0 {
		if phentsize < programHdrSize || !extent(phoff, phnum, phentsize) {
			return 0, 0, false
		}
		for k := range phnum {
			ph := b[phoff+k*phentsize:]
			if !extent(le.Uint64(ph[8:]), 1, le.Uint64(ph[32:])) { // p_offset, p_filesz
				return 0, 0, false
			}
		}
	}
	shoff, shentsize, shnum := le.Uint64(b[40:]), uint64(le.Uint16(b[58:])), uint64(le.Uint16(b[60:]))
	if shnum > 0 {
		if shentsize < sectionHdrSize || !extent(shoff, shnum, shentsize) {
			return 0, 0, false
		}
		for k := range shnum {
			sh := b[shoff+k*shentsize:]
			if le.Uint32(sh[4:]) == shtNobits {
				continue
			}
			if !extent(le.Uint64(sh[24:]), 1, le.Uint64(sh[32:])) { // sh_offset, sh_size
				return 0, 0, false
			}
		}
	}
	return int(end), machine, true
}
