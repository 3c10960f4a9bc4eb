// Package sbpftest builds sBPF program ELFs for tests: assembly text plus read-only data in, a v0 shared object
// out, laid out as the platform tools lay out a program (text at 0x120, .rodata, .dynamic, .dynsym, .dynstr,
// .rel.dyn, four program headers), with the relocations the reference loader resolves: R_BPF_64_RELATIVE for
// every lddw of rodata and every pointer in rodata, R_BPF_64_32 for every syscall. Tests of the VM, the loaders
// and the runtime write programs as text and deploy the bytes this package returns; LinkObject does the same for
// C programs compiled with clang -target bpf.
package sbpftest

import (
	"encoding/binary"
	"fmt"
	"sort"

	"ledgerd/impl/sbpf"
)

// Program describes one ELF.
type Program struct {
	// Asm is the program in the assembler's syntax (sbpf.Assemble). Execution starts at the label
	// "entrypoint", or at the first instruction. `lddw rX, rodata+N` loads the address of Rodata[N]; `call NAME`
	// of a name that is not a label is a syscall.
	Asm string
	// Rodata is the read-only data, placed right after the text (or write it in Asm after a .rodata line).
	Rodata []byte
	// RodataPointers are offsets of 8-byte slots in Rodata holding a little-endian offset into Rodata; each
	// becomes a pointer to that byte, relocated as toolchains emit it (target in the slot's upper half).
	RodataPointers []uint64
	// Extra are sections placed after .rodata, for loader tests (a writable .data, a .bss, an .eh_frame...).
	Extra []Section
	// Machine is e_machine: 0 means 247 (EM_BPF); 263 (EM_SBPF) is the other value real programs carry.
	Machine uint16
	// Flags is e_flags (the SBPF version; 0 is v0).
	Flags uint32
}

// Section is an extra section of a Program.
type Section struct {
	Name  string
	Type  uint32 // SHT_PROGBITS (1) when 0
	Flags uint64 // SHF_ALLOC (2) when 0; SHF_WRITE is 1
	Data  []byte // a NOBITS (8) section's size is len(Data), its bytes are not written
}

// Layout tells where the writer put things, for tests that corrupt a file on purpose.
type Layout struct {
	TextOffset, RodataOffset, DynamicOffset, DynsymOffset, DynstrOffset, RelDynOffset uint64
	SectionHeadersOffset                                                              uint64
	// Sections are the section names in section-table order (index 0 is the null section).
	Sections []string
	// Relocations is the number of .rel.dyn entries.
	Relocations int
}

// ELF assembles asm and writes a v0 ELF with rodata.
func ELF(asm string, rodata []byte) ([]byte, error) {
	b, _, err := Program{Asm: asm, Rodata: rodata}.Build()
	return b, err
}

// MustELF is ELF for tests: it panics on an error.
func MustELF(asm string, rodata []byte) []byte {
	b, err := ELF(asm, rodata)
	if err != nil {
		panic(err)
	}
	return b
}

const (
	textOffset = 0x120 // ELF header and four program headers

	shtProgbits = 1
	shtSymtab   = 2
	shtStrtab   = 3
	shtDynamic  = 6
	shtNobits   = 8
	shtRel      = 9
	shtDynsym   = 11

	shfWrite = 1
	shfAlloc = 2
	shfExec  = 4

	relRelative = 8
	rel64_32    = 10
)

var le = binary.LittleEndian

func align8(n uint64) uint64 { return (n + 7) &^ 7 }

// Build writes the ELF and says where its parts are.
func (p Program) Build() ([]byte, Layout, error) {
	a, err := sbpf.Assemble(p.Asm)
	if err != nil {
		return nil, Layout{}, err
	}
	return p.build(a)
}

// BuildAssembly writes the ELF of an already assembled program.
func (p Program) BuildAssembly(a *sbpf.Assembly) ([]byte, Layout, error) { return p.build(a) }

type reloc struct {
	offset uint64
	typ    uint32
	sym    uint32
}

// image is a program ready to be written: text with its calls pc-relative and its lddw immediates holding ELF
// vaddrs, rodata with its pointers in the toolchains' form, and what the dynamic relocations must say.
type image struct {
	text, rodata []byte
	relative     []uint64 // file offsets of R_BPF_64_RELATIVE relocations
	syscalls     []sbpf.AsmSyscall
	entryPC      uint64
}

func rodataOffset(textLen int) uint64 { return align8(textOffset + uint64(textLen)) }

func (p Program) build(a *sbpf.Assembly) ([]byte, Layout, error) {
	if len(a.Text) == 0 {
		return nil, Layout{}, fmt.Errorf("sbpftest: empty program")
	}
	img := image{text: append([]byte(nil), a.Text...), rodata: append([]byte(nil), p.Rodata...),
		syscalls: a.Syscalls, entryPC: a.Labels["entrypoint"]}
	pointers := p.RodataPointers
	if len(a.Rodata) > 0 {
		if len(p.Rodata) > 0 || len(p.RodataPointers) > 0 {
			return nil, Layout{}, fmt.Errorf("sbpftest: rodata given both in the assembly and in Program.Rodata")
		}
		img.rodata = append([]byte(nil), a.Rodata...)
		pointers = a.RodataPointers
	}
	ro := rodataOffset(len(img.text))
	// Patch the text into the form a linker leaves it in: pc-relative calls, ELF vaddrs in lddw.
	for _, c := range a.Calls {
		le.PutUint32(img.text[c.PC*8+4:], uint32(int32(int64(c.Target)-int64(c.PC)-1)))
	}
	for _, r := range a.RodataRefs {
		addr := ro + r.Offset
		le.PutUint32(img.text[r.PC*8+4:], uint32(addr))
		le.PutUint32(img.text[r.PC*8+12:], uint32(addr>>32))
		img.relative = append(img.relative, textOffset+r.PC*8)
	}
	for _, ptr := range pointers {
		if ptr+8 > uint64(len(img.rodata)) {
			return nil, Layout{}, fmt.Errorf("sbpftest: rodata pointer at %d is outside the rodata", ptr)
		}
		target := ro + le.Uint64(img.rodata[ptr:])
		le.PutUint32(img.rodata[ptr:], 0)
		le.PutUint32(img.rodata[ptr+4:], uint32(target))
		img.relative = append(img.relative, ro+ptr)
	}
	return p.write(img)
}

// write lays out and writes an image, with p's extra sections, machine and flags.
func (p Program) write(img image) ([]byte, Layout, error) {
	var lay Layout
	text, rodata := img.text, img.rodata
	machine := p.Machine
	if machine == 0 {
		machine = 247
	}

	// File layout, every section at vaddr == file offset.
	lay.TextOffset = textOffset
	off := rodataOffset(len(text))
	lay.RodataOffset = off
	off += uint64(len(rodata))
	type placed struct {
		Section
		offset uint64
	}
	var extras []placed
	for _, s := range p.Extra {
		if s.Type == 0 {
			s.Type = shtProgbits
		}
		if s.Flags == 0 {
			s.Flags = shfAlloc
		}
		off = align8(off)
		extras = append(extras, placed{s, off})
		if s.Type != shtNobits {
			off += uint64(len(s.Data))
		}
	}

	// Syscall symbols, in order of first use; the entry point symbol last.
	var names []string
	symIndex := map[string]uint32{}
	for _, s := range img.syscalls {
		if _, ok := symIndex[s.Name]; !ok {
			symIndex[s.Name] = uint32(1 + len(names))
			names = append(names, s.Name)
		}
	}
	dynstr := []byte{0}
	nameOff := map[string]uint32{}
	for _, n := range append(append([]string(nil), names...), "entrypoint") {
		nameOff[n] = uint32(len(dynstr))
		dynstr = append(append(dynstr, n...), 0)
	}

	var relocs []reloc
	for _, r := range img.relative {
		relocs = append(relocs, reloc{offset: r, typ: relRelative})
	}
	relative := len(relocs)
	for _, s := range img.syscalls {
		le.PutUint32(text[s.PC*8+4:], 0xffffffff)
		relocs = append(relocs, reloc{offset: textOffset + s.PC*8, typ: rel64_32, sym: symIndex[s.Name]})
	}
	sort.SliceStable(relocs[:relative], func(i, j int) bool { return relocs[i].offset < relocs[j].offset })

	entry := textOffset + img.entryPC*8

	// .dynamic, .dynsym, .dynstr, .rel.dyn.
	off = align8(off)
	lay.DynamicOffset = off
	const (
		dtNull, dtStrtab, dtSymtab, dtStrsz, dtSyment, dtRel, dtRelsz, dtRelent, dtTextrel, dtFlags = 0, 5, 6, 10, 11, 17, 18, 19, 22, 30
		dtRelcount                                                                                  = 0x6ffffffa
		dfTextrel                                                                                   = 4
	)
	nDyn := 7
	if len(relocs) > 0 {
		nDyn += 4
	}
	lay.DynsymOffset = off + uint64(nDyn)*16
	nSyms := uint64(len(names) + 2)
	lay.DynstrOffset = lay.DynsymOffset + nSyms*24
	lay.RelDynOffset = align8(lay.DynstrOffset + uint64(len(dynstr)))
	relEnd := lay.RelDynOffset + uint64(len(relocs))*16
	var dynamic []byte
	putDyn := func(tag, val uint64) { dynamic = le.AppendUint64(le.AppendUint64(dynamic, tag), val) }
	putDyn(dtFlags, dfTextrel)
	if len(relocs) > 0 {
		putDyn(dtRel, lay.RelDynOffset)
		putDyn(dtRelsz, uint64(len(relocs))*16)
		putDyn(dtRelent, 16)
		putDyn(dtRelcount, uint64(relative))
	}
	putDyn(dtSymtab, lay.DynsymOffset)
	putDyn(dtSyment, 24)
	putDyn(dtStrtab, lay.DynstrOffset)
	putDyn(dtStrsz, uint64(len(dynstr)))
	putDyn(dtTextrel, 0)
	putDyn(dtNull, 0)

	// Section table.
	type shdr struct {
		name                      string
		typ                       uint32
		flags, addr, offset, size uint64
		link, info                uint32
		align, entsize            uint64
	}
	shdrs := []shdr{{}}
	shdrs = append(shdrs, shdr{name: ".text", typ: shtProgbits, flags: shfAlloc | shfExec, addr: textOffset,
		offset: textOffset, size: uint64(len(text)), align: 8})
	textIndex := uint32(1)
	if len(rodata) > 0 {
		shdrs = append(shdrs, shdr{name: ".rodata", typ: shtProgbits, flags: shfAlloc, addr: lay.RodataOffset,
			offset: lay.RodataOffset, size: uint64(len(rodata)), align: 8})
	}
	for _, e := range extras {
		shdrs = append(shdrs, shdr{name: e.Name, typ: e.Type, flags: e.Flags, addr: e.offset, offset: e.offset,
			size: uint64(len(e.Data)), align: 8})
	}
	dynstrIndex := uint32(len(shdrs) + 2)
	dynsymIndex := uint32(len(shdrs) + 1)
	shdrs = append(shdrs,
		shdr{name: ".dynamic", typ: shtDynamic, flags: shfAlloc | shfWrite, addr: lay.DynamicOffset,
			offset: lay.DynamicOffset, size: uint64(len(dynamic)), link: dynstrIndex, align: 8, entsize: 16},
		shdr{name: ".dynsym", typ: shtDynsym, flags: shfAlloc, addr: lay.DynsymOffset, offset: lay.DynsymOffset,
			size: nSyms * 24, link: dynstrIndex, info: 1, align: 8, entsize: 24},
		shdr{name: ".dynstr", typ: shtStrtab, flags: shfAlloc, addr: lay.DynstrOffset, offset: lay.DynstrOffset,
			size: uint64(len(dynstr)), align: 1})
	if len(relocs) > 0 {
		shdrs = append(shdrs, shdr{name: ".rel.dyn", typ: shtRel, flags: shfAlloc, addr: lay.RelDynOffset,
			offset: lay.RelDynOffset, size: uint64(len(relocs)) * 16, link: dynsymIndex, align: 8, entsize: 16})
	}
	shstrtabOffset := relEnd
	shdrs = append(shdrs, shdr{name: ".shstrtab", typ: shtStrtab, offset: shstrtabOffset, align: 1})
	shstrtab := []byte{0}
	shName := make([]uint32, len(shdrs))
	for i := 1; i < len(shdrs); i++ {
		shName[i] = uint32(len(shstrtab))
		shstrtab = append(append(shstrtab, shdrs[i].name...), 0)
	}
	shdrs[len(shdrs)-1].size = uint64(len(shstrtab))
	lay.SectionHeadersOffset = align8(shstrtabOffset + uint64(len(shstrtab)))
	for _, s := range shdrs {
		lay.Sections = append(lay.Sections, s.name)
	}
	lay.Relocations = len(relocs)

	size := lay.SectionHeadersOffset + uint64(len(shdrs))*64
	out := make([]byte, size)

	// ELF header.
	copy(out, []byte{0x7f, 'E', 'L', 'F', 2, 1, 1, 0})
	le.PutUint16(out[16:], 3) // ET_DYN
	le.PutUint16(out[18:], machine)
	le.PutUint32(out[20:], 1)
	le.PutUint64(out[24:], entry)
	le.PutUint64(out[32:], 64)
	le.PutUint64(out[40:], lay.SectionHeadersOffset)
	le.PutUint32(out[48:], p.Flags)
	le.PutUint16(out[52:], 64)
	le.PutUint16(out[54:], 56)
	le.PutUint16(out[56:], 4)
	le.PutUint16(out[58:], 64)
	le.PutUint16(out[60:], uint16(len(shdrs)))
	le.PutUint16(out[62:], uint16(len(shdrs)-1))

	// Program headers: text (R+X), rodata (R), dynsym..rel.dyn (R), dynamic.
	ph := func(i int, typ, flags uint32, offset, size, align uint64) {
		b := out[64+i*56:]
		le.PutUint32(b[0:], typ)
		le.PutUint32(b[4:], flags)
		le.PutUint64(b[8:], offset)
		le.PutUint64(b[16:], offset)
		le.PutUint64(b[24:], offset)
		le.PutUint64(b[32:], size)
		le.PutUint64(b[40:], size)
		le.PutUint64(b[48:], align)
	}
	roEnd := lay.RodataOffset + uint64(len(rodata))
	if len(extras) > 0 {
		last := extras[len(extras)-1]
		if last.Type != shtNobits {
			roEnd = last.offset + uint64(len(last.Data))
		}
	}
	ph(0, 1, 5, textOffset, uint64(len(text)), 0x1000)
	ph(1, 1, 4, lay.RodataOffset, roEnd-lay.RodataOffset, 0x1000)
	ph(2, 1, 4, lay.DynsymOffset, relEnd-lay.DynsymOffset, 0x1000)
	ph(3, 2, 6, lay.DynamicOffset, uint64(len(dynamic)), 8)

	copy(out[textOffset:], text)
	copy(out[lay.RodataOffset:], rodata)
	for _, e := range extras {
		if e.Type != shtNobits {
			copy(out[e.offset:], e.Data)
		}
	}
	copy(out[lay.DynamicOffset:], dynamic)
	sym := func(i int, name uint32, info uint8, shndx uint16, value uint64) {
		b := out[lay.DynsymOffset+uint64(i)*24:]
		le.PutUint32(b[0:], name)
		b[4] = info
		le.PutUint16(b[6:], shndx)
		le.PutUint64(b[8:], value)
	}
	for i, n := range names {
		sym(i+1, nameOff[n], 0x10, 0, 0) // GLOBAL NOTYPE, undefined
	}
	sym(len(names)+1, nameOff["entrypoint"], 0x12, uint16(textIndex), entry) // GLOBAL FUNC
	copy(out[lay.DynstrOffset:], dynstr)
	for i, r := range relocs {
		b := out[lay.RelDynOffset+uint64(i)*16:]
		le.PutUint64(b[0:], r.offset)
		le.PutUint64(b[8:], uint64(r.sym)<<32|uint64(r.typ))
	}
	copy(out[shstrtabOffset:], shstrtab)
	for i, s := range shdrs {
		b := out[lay.SectionHeadersOffset+uint64(i)*64:]
		le.PutUint32(b[0:], shName[i])
		le.PutUint32(b[4:], s.typ)
		le.PutUint64(b[8:], s.flags)
		le.PutUint64(b[16:], s.addr)
		le.PutUint64(b[24:], s.offset)
		le.PutUint64(b[32:], s.size)
		le.PutUint32(b[40:], s.link)
		le.PutUint32(b[44:], s.info)
		le.PutUint64(b[48:], s.align)
		le.PutUint64(b[56:], s.entsize)
	}
	return out, lay, nil
}
