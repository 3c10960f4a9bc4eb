package sbpf

import (
	"encoding/binary"
	"math/bits"
)

// The ELF64 parser the lenient loader runs on, with the reference parser's checks in its order, so a broken file
// fails with the same error. Offsets are file offsets; the reference reads the structures in place from a 16-byte
// aligned copy, so a table whose offset is not a multiple of 8 is misaligned there and fails here too.

const (
	ehdrSize = 64
	phdrSize = 56
	shdrSize = 64
	symSize  = 24
	dynSize  = 16
	relSize  = 16

	elfClass64   = 2
	elfData2LSB  = 1
	evCurrent    = 1
	elfOSABINone = 0

	emBPF  = 247
	emSBPF = 263
	etDyn  = 3

	ptLoad    = 1
	ptDynamic = 2
	pfX       = 1
	pfR       = 4

	shtNull    = 0
	shtSymtab  = 2
	shtStrtab  = 3
	shtDynamic = 6
	shtNobits  = 8
	shtDynsym  = 11

	shfWrite = 1
	shfAlloc = 2

	sttFunc = 2

	dtNull   = 0
	dtSymtab = 6
	dtRel    = 17
	dtRelsz  = 18
	dtRelent = 19
	dtNum    = 35

	// sectionNameMax and symbolNameMax are the windows the reference reads names through: a name whose NUL is
	// not within them is "too long". The symbol limit decides which ELFs load, so it is consensus relevant.
	sectionNameMax = 16
	symbolNameMax  = 64
)

type elfHeader struct {
	ident                                                [16]byte
	etype, machine                                       uint16
	version                                              uint32
	entry, phoff, shoff                                  uint64
	flags                                                uint32
	ehsize, phentsize, phnum, shentsize, shnum, shstrndx uint16
}

type progHeader struct {
	ptype, flags                               uint32
	offset, vaddr, paddr, filesz, memsz, align uint64
}

type sectionHeader struct {
	name, stype               uint32
	flags, addr, offset, size uint64
	link, info                uint32
	addralign, entsize        uint64
}

type elfSymbol struct {
	name        uint32
	info, other uint8
	shndx       uint16
	value, size uint64
}

type elfRel struct{ offset, info uint64 }

func (r elfRel) rtype() uint32 { return uint32(r.info) }
func (r elfRel) sym() uint32   { return uint32(r.info >> 32) }

func (s *sectionHeader) isWritable() bool { return s.flags&(shfAlloc|shfWrite) == shfAlloc|shfWrite }

// fileRange is the section's bytes in the file; a NOBITS section has none.
func (s *sectionHeader) fileRange() (start, end uint64) {
	if s.stype == shtNobits {
		return 0, 0
	}
	return s.offset, elfSatAdd(s.offset, s.size)
}

func (s *sectionHeader) vmContains(addr uint64) bool {
	return addr >= s.addr && addr < elfSatAdd(s.addr, s.size)
}

// elfSpan is a half-open byte range [start, end) of the file; start > end only ever comes from corrupt input and
// then reads as empty and out of bounds, as a reversed range does in the reference.
type elfSpan struct{ start, end uint64 }

func (a elfSpan) disjoint(b elfSpan) bool { return a.end <= b.start || b.end <= a.start }

func elfSatAdd(a, b uint64) uint64 {
	s, c := bits.Add64(a, b, 0)
	if c != 0 {
		return ^uint64(0)
	}
	return s
}

func elfSatSub(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

func elfCheckedAdd(a, b uint64) (uint64, *parserErr) {
	s, c := bits.Add64(a, b, 0)
	if c != 0 {
		return 0, elfPerr(parseOutOfBounds)
	}
	return s, nil
}

func elfCheckedMulAdd(n, size, base uint64) (uint64, *parserErr) {
	hi, lo := bits.Mul64(n, size)
	if hi != 0 {
		return 0, elfPerr(parseOutOfBounds)
	}
	return elfCheckedAdd(lo, base)
}

// elfSlice returns b[r] if r lies inside b.
func elfSlice(b []byte, r elfSpan) ([]byte, bool) {
	if r.start > r.end || r.end > uint64(len(b)) {
		return nil, false
	}
	return b[r.start:r.end], true
}

// elfTable checks a range holding records of size each the way the reference casts bytes to a table: whole
// records, inside the file, 8-aligned.
func elfTable(b []byte, r elfSpan, size uint64) ([]byte, *parserErr) {
	n := uint64(0)
	if r.end > r.start {
		n = r.end - r.start
	}
	if n%size != 0 {
		return nil, elfPerr(parseInvalidSize)
	}
	s, ok := elfSlice(b, r)
	if !ok {
		return nil, elfPerr(parseOutOfBounds)
	}
	if r.start%8 != 0 {
		return nil, elfPerr(parseInvalidAlignment)
	}
	return s, nil
}

var elfLE = binary.LittleEndian

func readELFHeader(b []byte) (*elfHeader, *parserErr) {
	if len(b) < ehdrSize {
		return nil, elfPerr(parseOutOfBounds)
	}
	h := &elfHeader{}
	copy(h.ident[:], b[:16])
	h.etype = elfLE.Uint16(b[16:])
	h.machine = elfLE.Uint16(b[18:])
	h.version = elfLE.Uint32(b[20:])
	h.entry = elfLE.Uint64(b[24:])
	h.phoff = elfLE.Uint64(b[32:])
	h.shoff = elfLE.Uint64(b[40:])
	h.flags = elfLE.Uint32(b[48:])
	h.ehsize = elfLE.Uint16(b[52:])
	h.phentsize = elfLE.Uint16(b[54:])
	h.phnum = elfLE.Uint16(b[56:])
	h.shentsize = elfLE.Uint16(b[58:])
	h.shnum = elfLE.Uint16(b[60:])
	h.shstrndx = elfLE.Uint16(b[62:])
	return h, nil
}

func readProgHeader(b []byte) progHeader {
	return progHeader{
		ptype: elfLE.Uint32(b[0:]), flags: elfLE.Uint32(b[4:]), offset: elfLE.Uint64(b[8:]), vaddr: elfLE.Uint64(b[16:]),
		paddr: elfLE.Uint64(b[24:]), filesz: elfLE.Uint64(b[32:]), memsz: elfLE.Uint64(b[40:]), align: elfLE.Uint64(b[48:]),
	}
}

func readSectionHeader(b []byte) sectionHeader {
	return sectionHeader{
		name: elfLE.Uint32(b[0:]), stype: elfLE.Uint32(b[4:]), flags: elfLE.Uint64(b[8:]), addr: elfLE.Uint64(b[16:]),
		offset: elfLE.Uint64(b[24:]), size: elfLE.Uint64(b[32:]), link: elfLE.Uint32(b[40:]), info: elfLE.Uint32(b[44:]),
		addralign: elfLE.Uint64(b[48:]), entsize: elfLE.Uint64(b[56:]),
	}
}

func readSymbol(b []byte) elfSymbol {
	return elfSymbol{
		name: elfLE.Uint32(b[0:]), info: b[4], other: b[5], shndx: elfLE.Uint16(b[6:]),
		value: elfLE.Uint64(b[8:]), size: elfLE.Uint64(b[16:]),
	}
}

// elf64 is a parsed file: its headers, and the dynamic tables relocation needs.
type elf64 struct {
	bytes    []byte
	header   *elfHeader
	programs []progHeader
	sections []sectionHeader

	sectionNames *sectionHeader // .shstrtab, nil when e_shstrndx is 0
	dynstr       *sectionHeader
	hasSymtab    bool
	hasStrtab    bool

	dynamic     [dtNum]uint64
	relocations []elfRel // nil when the file has none
	dynsyms     []byte   // raw .dynsym records; nil when the file has no DT_SYMTAB
	hasDynsyms  bool
}

func fileHeaderOK(h *elfHeader) bool {
	return h.ident[0] == 0x7f && h.ident[1] == 'E' && h.ident[2] == 'L' && h.ident[3] == 'F' &&
		h.ident[4] == elfClass64 && h.ident[5] == elfData2LSB && h.ident[6] == evCurrent &&
		h.version == evCurrent && h.ehsize == ehdrSize && h.phentsize == phdrSize && h.shentsize == shdrSize &&
		h.shstrndx < h.shnum
}

func parseElf64(b []byte) (*elf64, *parserErr) {
	h, err := readELFHeader(b)
	if err != nil {
		return nil, err
	}
	if !fileHeaderOK(h) {
		return nil, elfPerr(parseInvalidFileHeader)
	}
	fileRange := elfSpan{0, ehdrSize}

	phEnd, err := elfCheckedMulAdd(uint64(h.phnum), phdrSize, h.phoff)
	if err != nil {
		return nil, err
	}
	phRange := elfSpan{h.phoff, phEnd}
	if !fileRange.disjoint(phRange) {
		return nil, elfPerr(parseOverlap)
	}
	phBytes, err := elfTable(b, phRange, phdrSize)
	if err != nil {
		return nil, err
	}

	shEnd, err := elfCheckedMulAdd(uint64(h.shnum), shdrSize, h.shoff)
	if err != nil {
		return nil, err
	}
	shRange := elfSpan{h.shoff, shEnd}
	if !fileRange.disjoint(shRange) || !phRange.disjoint(shRange) {
		return nil, elfPerr(parseOverlap)
	}
	shBytes, err := elfTable(b, shRange, shdrSize)
	if err != nil {
		return nil, err
	}

	e := &elf64{bytes: b, header: h}
	e.programs = make([]progHeader, len(phBytes)/phdrSize)
	for i := range e.programs {
		e.programs[i] = readProgHeader(phBytes[i*phdrSize:])
	}
	e.sections = make([]sectionHeader, len(shBytes)/shdrSize)
	for i := range e.sections {
		e.sections[i] = readSectionHeader(shBytes[i*shdrSize:])
	}

	if len(e.sections) == 0 || e.sections[0].stype != shtNull {
		return nil, elfPerr(parseInvalidSectionHeader)
	}

	vaddr := uint64(0)
	for i := range e.programs {
		p := &e.programs[i]
		if p.ptype != ptLoad {
			continue
		}
		if p.vaddr < vaddr {
			return nil, elfPerr(parseInvalidProgramHeader)
		}
		end, err := elfCheckedAdd(p.offset, p.filesz)
		if err != nil {
			return nil, err
		}
		if end > uint64(len(b)) {
			return nil, elfPerr(parseOutOfBounds)
		}
		vaddr = p.vaddr
	}

	offset := uint64(0)
	for i := range e.sections {
		s := &e.sections[i]
		if s.stype == shtNobits {
			continue
		}
		end, err := elfCheckedAdd(s.offset, s.size)
		if err != nil {
			return nil, err
		}
		r := elfSpan{s.offset, end}
		if !r.disjoint(fileRange) || !r.disjoint(phRange) || !r.disjoint(shRange) {
			return nil, elfPerr(parseOverlap)
		}
		if r.start < offset {
			return nil, elfPerr(parseSectionNotInOrder)
		}
		offset = r.end
		if offset > uint64(len(b)) {
			return nil, elfPerr(parseOutOfBounds)
		}
	}

	if h.shstrndx != 0 {
		e.sectionNames = &e.sections[h.shstrndx]
	}
	if err := e.parseSections(); err != nil {
		return nil, err
	}
	if err := e.parseDynamic(); err != nil {
		return nil, err
	}
	return e, nil
}

// stringIn reads the NUL-terminated string at offset of a string table section, looking at most max bytes far.
func (e *elf64) stringIn(s *sectionHeader, offset uint32, max uint64) ([]byte, *parserErr) {
	if s.stype != shtStrtab {
		return nil, elfPerr(parseInvalidSectionHeader)
	}
	start, err := elfCheckedAdd(s.offset, uint64(offset))
	if err != nil {
		return nil, err
	}
	sectionEnd, err := elfCheckedAdd(s.offset, s.size)
	if err != nil {
		return nil, err
	}
	windowEnd, err := elfCheckedAdd(start, max)
	if err != nil {
		return nil, err
	}
	raw, ok := elfSlice(e.bytes, elfSpan{start, min(sectionEnd, windowEnd)})
	if !ok {
		return nil, elfPerr(parseOutOfBounds)
	}
	for i, c := range raw {
		if c == 0 {
			return raw[:i], nil
		}
	}
	return nil, &parserErr{kind: parseStringTooLong, str: lossyString(raw), limit: int(max)}
}

func (e *elf64) sectionName(s *sectionHeader) ([]byte, *parserErr) {
	if e.sectionNames == nil {
		return nil, elfPerr(parseNoSectionNameStringTable)
	}
	return e.stringIn(e.sectionNames, s.name, sectionNameMax)
}

func (e *elf64) dynamicSymbolName(offset uint32) ([]byte, *parserErr) {
	if e.dynstr == nil {
		return nil, elfPerr(parseNoDynamicStringTable)
	}
	return e.stringIn(e.dynstr, offset, symbolNameMax)
}

func (e *elf64) parseSections() *parserErr {
	if e.sectionNames == nil {
		return elfPerr(parseNoSectionNameStringTable)
	}
	for i := range e.sections {
		name, err := e.sectionName(&e.sections[i])
		if err != nil {
			return err
		}
		switch string(name) {
		case ".symtab":
			if e.hasSymtab {
				return elfPerr(parseInvalidSectionHeader)
			}
			e.hasSymtab = true
		case ".strtab":
			if e.hasStrtab {
				return elfPerr(parseInvalidSectionHeader)
			}
			e.hasStrtab = true
		case ".dynstr":
			if e.dynstr != nil {
				return elfPerr(parseInvalidSectionHeader)
			}
			e.dynstr = &e.sections[i]
		}
	}
	return nil
}

func (e *elf64) parseDynamic() *parserErr {
	var dyn []byte
	found := false
	for i := range e.programs {
		p := &e.programs[i]
		if p.ptype != ptDynamic {
			continue
		}
		// A PT_DYNAMIC that does not describe a table is ignored in favour of the section, as some old test
		// files need.
		if end, err := elfCheckedAdd(p.offset, p.filesz); err == nil {
			if t, err := elfTable(e.bytes, elfSpan{p.offset, end}, dynSize); err == nil {
				dyn, found = t, true
			}
		}
		break
	}
	if !found {
		for i := range e.sections {
			s := &e.sections[i]
			if s.stype != shtDynamic {
				continue
			}
			end, err := elfCheckedAdd(s.offset, s.size)
			if err != nil {
				return elfPerr(parseInvalidDynamicSectionTable)
			}
			t, terr := elfTable(e.bytes, elfSpan{s.offset, end}, dynSize)
			if terr != nil {
				return elfPerr(parseInvalidDynamicSectionTable)
			}
			dyn, found = t, true
			break
		}
	}
	if !found {
		return nil // a static file
	}
	for i := 0; i+dynSize <= len(dyn); i += dynSize {
		tag, val := elfLE.Uint64(dyn[i:]), elfLE.Uint64(dyn[i+8:])
		if tag == dtNull {
			break
		}
		if tag >= dtNum {
			continue
		}
		e.dynamic[tag] = val
	}
	if err := e.parseRelocations(); err != nil {
		return err
	}
	return e.parseDynamicSymbols()
}

func (e *elf64) parseRelocations() *parserErr {
	vaddr := e.dynamic[dtRel]
	if vaddr == 0 {
		return nil
	}
	if e.dynamic[dtRelent] != relSize {
		return elfPerr(parseInvalidDynamicSectionTable)
	}
	size := e.dynamic[dtRelsz]
	if size == 0 {
		return elfPerr(parseInvalidDynamicSectionTable)
	}
	var offset uint64
	found := false
	for i := range e.programs {
		p := &e.programs[i]
		end, err := elfCheckedAdd(p.vaddr, p.memsz)
		if err != nil {
			return err
		}
		if vaddr >= p.vaddr && vaddr < end {
			offset, err = elfCheckedAdd(vaddr-p.vaddr, p.offset)
			if err != nil {
				return err
			}
			found = true
			break
		}
	}
	if !found {
		// Old toolchains put DT_REL outside every segment; the section at that address is the table then.
		for i := range e.sections {
			if e.sections[i].addr == vaddr {
				offset, found = e.sections[i].offset, true
				break
			}
		}
		if !found {
			return elfPerr(parseInvalidDynamicSectionTable)
		}
	}
	end, err := elfCheckedAdd(offset, size)
	if err != nil {
		return err
	}
	t, terr := elfTable(e.bytes, elfSpan{offset, end}, relSize)
	if terr != nil {
		return elfPerr(parseInvalidDynamicSectionTable)
	}
	e.relocations = make([]elfRel, len(t)/relSize)
	for i := range e.relocations {
		e.relocations[i] = elfRel{elfLE.Uint64(t[i*relSize:]), elfLE.Uint64(t[i*relSize+8:])}
	}
	return nil
}

func (e *elf64) parseDynamicSymbols() *parserErr {
	vaddr := e.dynamic[dtSymtab]
	if vaddr == 0 {
		return nil
	}
	var s *sectionHeader
	for i := range e.sections {
		if e.sections[i].addr == vaddr {
			s = &e.sections[i]
			break
		}
	}
	if s == nil {
		return elfPerr(parseInvalidDynamicSectionTable)
	}
	if s.stype != shtSymtab && s.stype != shtDynsym {
		return elfPerr(parseInvalidSectionHeader)
	}
	end, err := elfCheckedAdd(s.offset, s.size)
	if err != nil {
		return err
	}
	t, err := elfTable(e.bytes, elfSpan{s.offset, end}, symSize)
	if err != nil {
		return err
	}
	e.dynsyms, e.hasDynsyms = t, true
	return nil
}

// dynamicSymbol returns symbol i of the dynamic symbol table.
func (e *elf64) dynamicSymbol(i uint32) (elfSymbol, bool) {
	if !e.hasDynsyms || uint64(i) >= uint64(len(e.dynsyms)/symSize) {
		return elfSymbol{}, false
	}
	return readSymbol(e.dynsyms[int(i)*symSize:]), true
}
