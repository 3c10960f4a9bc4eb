package sbpf

// The ELF loader: LoadELF turns a program's ELF into an Executable exactly as the reference's Executable::load
// does, with the same checks in the same order and the same errors. v0-v2 files go through the lenient parser
// and are relocated in a private copy; v3+ files go through the strict parser and are not relocated.
//
// What relocation does, for readers of the code below (v0 toolchains emit shared objects that still need it):
//   - a `call imm` whose imm is not -1 is a pc-relative call to a function of the same file; it is rewritten to
//     the key HashSymbolName(target pc as 8 LE bytes), registered in the executable's function registry;
//   - R_BPF_64_64 (lddw of a symbol's address) and R_BPF_64_RELATIVE (lddw or 8-byte data pointer to rodata) are
//     rebased into the program region (VM address 0x1_0000_0000 + ELF vaddr);
//   - R_BPF_64_32 (call of a symbol) becomes a BPF-to-BPF call when the symbol is a defined function, otherwise a
//     syscall keyed by HashSymbolName(symbol name). A deployment's loader (Config.RejectBrokenELFs) refuses a
//     syscall it does not register; the execution loader accepts it, and the call faults when it runs.

import "errors"

const (
	eFlagsOffset = 48

	relNone     = 0 // R_BPF_NONE: the reference has no case for it and rejects it as unknown
	rel64_64    = 1
	relRelative = 8
	rel64_32    = 10
)

// LoadELF parses, validates and relocates an ELF under loader's configuration and syscalls. It does not run the
// verifier (Verify does), as the reference's load does not. The ELF bytes are not modified or retained.
func LoadELF(elfBytes []byte, loader *Loader) (*Executable, error) {
	if loader == nil {
		return nil, errors.New("sbpf: LoadELF needs a loader")
	}
	if len(elfBytes) < eFlagsOffset+4 {
		return nil, elfErr(ErrValueOutOfBounds)
	}
	version := VersionFromELFFlags(elfLE.Uint32(elfBytes[eFlagsOffset:]))
	if !loader.Config.VersionEnabled(version) {
		return nil, elfErr(ErrUnsupportedSBPFVersion)
	}
	var exe *Executable
	var err error
	if version.EnableStricterELFHeaders() {
		exe, err = loadStrict(elfBytes)
	} else {
		exe, err = loadLenient(elfBytes, loader)
	}
	if err != nil {
		return nil, err
	}
	exe.Version = version
	return exe, nil
}

// functionRegistry is the executable's call-key -> pc map; a key registered twice must name the same pc.
type functionRegistry map[uint32]uint64

func (r functionRegistry) register(key uint32, pc uint64) error {
	if old, ok := r[key]; ok && old != pc {
		return &ELFError{Kind: ErrSymbolHashCollision, Hash: key}
	}
	r[key] = pc
	return nil
}

// registerHashed registers a function the way relocation does: keyed by the hash of its pc (of the name for the
// entry point), and never under a key a syscall of the loader already has.
func (r functionRegistry) registerHashed(loader *Loader, name []byte, pc uint64) (uint32, error) {
	key := HashPC(pc)
	if string(name) == "entrypoint" {
		key = EntrypointHash
	}
	if _, ok := loader.Lookup(key); ok {
		return 0, &ELFError{Kind: ErrSymbolHashCollision, Hash: key}
	}
	return key, r.register(key, pc)
}

func (e *elf64) section(name string) (*sectionHeader, error) {
	for i := range e.sections {
		n, err := e.sectionName(&e.sections[i])
		if err != nil {
			return nil, toELFError(err)
		}
		if string(n) == name {
			return &e.sections[i], nil
		}
	}
	return nil, &ELFError{Kind: ErrSectionNotFound, Name: name}
}

func elfHasPrefix(b []byte, p string) bool { return len(b) >= len(p) && string(b[:len(p)]) == p }

// validateELF is the reference's Executable::validateELF.
func validateELF(e *elf64, b []byte) error {
	h := e.header
	switch {
	case h.ident[4] != elfClass64:
		return elfErr(ErrWrongClass)
	case h.ident[5] != elfData2LSB:
		return elfErr(ErrWrongEndianess)
	case h.ident[7] != elfOSABINone:
		return elfErr(ErrWrongAbi)
	case h.machine != emBPF && h.machine != emSBPF:
		return elfErr(ErrWrongMachine)
	case h.etype != etDyn:
		return elfErr(ErrWrongType)
	}
	texts := 0
	for i := range e.sections {
		if n, err := e.sectionName(&e.sections[i]); err == nil && string(n) == ".text" {
			texts++
		}
	}
	if texts != 1 {
		return elfErr(ErrNotOneTextSection)
	}
	for i := range e.sections {
		s := &e.sections[i]
		n, err := e.sectionName(s)
		if err != nil {
			continue
		}
		if elfHasPrefix(n, ".bss") || (s.isWritable() && elfHasPrefix(n, ".data") && !elfHasPrefix(n, ".data.rel")) {
			return &ELFError{Kind: ErrWritableSectionNotSupported, Name: lossyString(n)}
		}
	}
	for i := range e.sections {
		s := &e.sections[i]
		end, overflow := elfCheckedAdd(s.offset, s.size)
		if overflow != nil {
			return elfErr(ErrValueOutOfBounds)
		}
		if _, ok := elfSlice(b, elfSpan{s.offset, end}); !ok {
			return elfErr(ErrValueOutOfBounds)
		}
	}
	text, err := e.section(".text")
	if err != nil {
		return err
	}
	if !text.vmContains(h.entry) {
		return elfErr(ErrEntrypointOutOfBounds)
	}
	return nil
}

func loadLenient(original []byte, loader *Loader) (*Executable, error) {
	e, perr := parseElf64(original)
	if perr != nil {
		return nil, toELFError(perr)
	}
	if err := validateELF(e, original); err != nil {
		return nil, err
	}
	text, err := e.section(".text")
	if err != nil {
		return nil, err
	}
	textVAddr := elfSatAdd(text.addr, RegionSize)
	if (loader.Config.RejectBrokenELFs && text.addr != text.offset) || textVAddr >= MMStackStart {
		return nil, elfErr(ErrValueOutOfBounds)
	}

	// Relocation writes into a private copy; the parsed tables keep reading the original bytes, as the
	// reference's parser keeps borrowing the unrelocated file.
	b := make([]byte, len(original))
	copy(b, original)
	functions := functionRegistry{}
	syscalls, err := relocateELF(e, text, b, functions, loader)
	if err != nil {
		return nil, err
	}

	offset := elfSatSub(e.header.entry, text.addr)
	if offset%InsnSize != 0 {
		return nil, elfErr(ErrInvalidEntrypoint)
	}
	entryPC := offset / InsnSize
	delete(functions, EntrypointHash)
	if _, err := functions.registerHashed(loader, []byte("entrypoint"), entryPC); err != nil {
		return nil, err
	}

	ro, err := roRegion(e, b, loader.Config.RejectBrokenELFs)
	if err != nil {
		return nil, err
	}
	// The text is read back from the read-only region, not the file, so that it is what the program sees at
	// its address even where another read-only section overlaps it.
	textStart, textEnd := text.fileRange()
	textLen := textEnd - textStart
	return &Executable{
		Text:        ro[text.addr : text.addr+textLen : text.addr+textLen],
		TextVAddr:   textVAddr,
		RO:          ro,
		ROVAddr:     MMBytecodeStart,
		EntryPC:     entryPC,
		Functions:   functions,
		SyscallKeys: syscalls,
	}, nil
}

func elfReadU32(b []byte, off uint64) (uint32, bool) {
	s, ok := elfSlice(b, elfSpan{off, elfSatAdd(off, 4)})
	if !ok {
		return 0, false
	}
	return elfLE.Uint32(s), true
}

func elfWriteU32(b []byte, off uint64, v uint32) bool {
	s, ok := elfSlice(b, elfSpan{off, elfSatAdd(off, 4)})
	if ok {
		elfLE.PutUint32(s, v)
	}
	return ok
}

// relocateELF is the reference's Executable::relocateELF on the private copy b. It returns the syscall keys the
// relocations reference, in order of first use.
func relocateELF(e *elf64, text *sectionHeader, b []byte, functions functionRegistry, loader *Loader) ([]uint32, error) {
	textStart, textEnd := text.fileRange()
	textBytes, ok := elfSlice(b, elfSpan{textStart, textEnd})
	if !ok {
		return nil, elfErr(ErrValueOutOfBounds)
	}
	n := uint64(len(textBytes)) / InsnSize
	for i := uint64(0); i < n; i++ {
		insn := textBytes[i*InsnSize:]
		imm := int32(elfLE.Uint32(insn[4:]))
		if insn[0] != 0x85 || imm == -1 {
			continue
		}
		target := int64(i) + 1 + int64(imm)
		if target < 0 || target >= int64(n) {
			return nil, &ELFError{Kind: ErrRelativeJumpOutOfBounds, Index: i}
		}
		key, err := functions.registerHashed(loader, nil, uint64(target))
		if err != nil {
			return nil, err
		}
		elfLE.PutUint32(insn[4:], key)
	}

	var syscalls []uint32
	seen := map[uint32]bool{}
	for _, r := range e.relocations {
		immOff := elfSatAdd(r.offset, 4)
		switch r.rtype() {
		case rel64_64:
			refd, ok := elfReadU32(b, immOff)
			if !ok {
				return nil, elfErr(ErrValueOutOfBounds)
			}
			sym, ok := e.dynamicSymbol(r.sym())
			if !ok {
				return nil, &ELFError{Kind: ErrUnknownSymbol, Index: uint64(r.sym())}
			}
			addr := elfSatAdd(sym.value, uint64(refd))
			if addr < RegionSize {
				addr += RegionSize
			}
			if !elfWriteU32(b, immOff, uint32(addr)) || !elfWriteU32(b, elfSatAdd(immOff, InsnSize), uint32(addr>>32)) {
				return nil, elfErr(ErrValueOutOfBounds)
			}
		case relRelative:
			if r.offset >= textStart && r.offset < textEnd {
				// An lddw: the address is split over the two slots' immediates.
				highOff := elfSatAdd(elfSatAdd(r.offset, InsnSize), 4)
				lo, ok1 := elfReadU32(b, immOff)
				if !ok1 {
					return nil, elfErr(ErrValueOutOfBounds)
				}
				hi, ok2 := elfReadU32(b, highOff)
				if !ok2 {
					return nil, elfErr(ErrValueOutOfBounds)
				}
				addr := uint64(hi)<<32 | uint64(lo)
				if addr == 0 {
					return nil, &ELFError{Kind: ErrELFInvalidVirtualAddress, Addr: 0}
				}
				if addr < RegionSize {
					addr += RegionSize
				}
				elfWriteU32(b, immOff, uint32(addr))
				elfWriteU32(b, highOff, uint32(addr>>32))
			} else {
				// A data pointer. Toolchains before solana-labs/llvm-project#35 stored only the low 32 bits of
				// the target, in the slot's upper half, and the reference reads it there for every file.
				refd, ok := elfReadU32(b, immOff)
				if !ok {
					return nil, elfErr(ErrValueOutOfBounds)
				}
				s, ok := elfSlice(b, elfSpan{r.offset, elfSatAdd(r.offset, 8)})
				if !ok {
					return nil, elfErr(ErrValueOutOfBounds)
				}
				elfLE.PutUint64(s, RegionSize+uint64(refd))
			}
		case rel64_32:
			sym, ok := e.dynamicSymbol(r.sym())
			if !ok {
				return nil, &ELFError{Kind: ErrUnknownSymbol, Index: uint64(r.sym())}
			}
			name, nerr := e.dynamicSymbolName(sym.name)
			if nerr != nil {
				return nil, &ELFError{Kind: ErrUnknownSymbol, Index: uint64(sym.name)}
			}
			var key uint32
			if sym.info&0xf == sttFunc && sym.value != 0 {
				if !text.vmContains(sym.value) {
					return nil, elfErr(ErrValueOutOfBounds)
				}
				k, err := functions.registerHashed(loader, name, (sym.value-text.addr)/InsnSize)
				if err != nil {
					return nil, err
				}
				key = k
			} else {
				key = HashSymbolName(name)
				if _, ok := loader.Lookup(key); !ok && loader.Config.RejectBrokenELFs {
					return nil, &ELFError{Kind: ErrUnresolvedSymbol, Name: lossyString(name),
						Index: r.offset / InsnSize, Offset: r.offset}
				}
				if !seen[key] {
					seen[key] = true
					syscalls = append(syscalls, key)
				}
			}
			if !elfWriteU32(b, immOff, key) {
				return nil, elfErr(ErrValueOutOfBounds)
			}
		default:
			return nil, &ELFError{Kind: ErrUnknownRelocation, Index: uint64(r.rtype())}
		}
	}
	return syscalls, nil
}

// roRegion builds the program region of a v0-v2 executable the way the reference does with optimize_rodata off
// (as Agave runs it): a buffer covering VM offsets [0, highest section end) where every section named exactly
// .text, .rodata, .data.rel.ro or .eh_frame is copied at its vaddr, in section table order, and all else is zero.
func roRegion(e *elf64, b []byte, rejectBroken bool) ([]byte, error) {
	type piece struct {
		addr uint64
		data []byte
	}
	var pieces []piece
	lowest, highest, fill := ^uint64(0), uint64(0), uint64(0)
	invalidOffsets := false
	for i := range e.sections {
		s := &e.sections[i]
		name, err := e.sectionName(s)
		if err != nil {
			continue
		}
		switch string(name) {
		case ".text", ".rodata", ".data.rel.ro", ".eh_frame":
		default:
			continue
		}
		if s.addr != s.offset {
			invalidOffsets = true
		}
		if (rejectBroken && invalidOffsets) || elfSatAdd(s.addr, RegionSize) > MMStackStart {
			return nil, elfErr(ErrValueOutOfBounds)
		}
		start, end := s.fileRange()
		data, ok := elfSlice(b, elfSpan{start, end})
		if !ok {
			return nil, elfErr(ErrValueOutOfBounds)
		}
		lowest = min(lowest, s.addr)
		highest = max(highest, elfSatAdd(s.addr, uint64(len(data))))
		fill = elfSatAdd(fill, uint64(len(data)))
		if len(data) > 0 {
			pieces = append(pieces, piece{s.addr, data})
		}
	}
	if rejectBroken && elfSatAdd(lowest, fill) > highest {
		return nil, elfErr(ErrValueOutOfBounds)
	}
	// The whole of [0, highest) is mappable for backwards compatibility; it is never larger than the file.
	if highest > uint64(len(b)) {
		return nil, elfErr(ErrValueOutOfBounds)
	}
	ro := make([]byte, highest)
	for _, p := range pieces {
		copy(ro[p.addr:], p.data)
	}
	return ro, nil
}

// loadStrict is the reference's strict parser for v3+ files: exact header values, one or two PT_LOAD segments
// (optional read-only data at VM address 0, then bytecode at 0x1_0000_0000), no relocations.
func loadStrict(b []byte) (*Executable, error) {
	h, perr := readELFHeader(b)
	if perr != nil {
		return nil, toELFError(perr)
	}
	phEnd := elfSatAdd(ehdrSize, uint64(phdrSize)*uint64(h.phnum))
	pad := true
	for _, c := range h.ident[9:16] {
		pad = pad && c == 0
	}
	if h.ident[0] != 0x7f || h.ident[1] != 'E' || h.ident[2] != 'L' || h.ident[3] != 'F' ||
		h.ident[4] != elfClass64 || h.ident[5] != elfData2LSB || h.ident[6] != evCurrent ||
		h.ident[7] != elfOSABINone || h.ident[8] != 0 || !pad ||
		h.machine != emBPF || h.version != evCurrent || h.phoff != ehdrSize || h.ehsize != ehdrSize ||
		h.phentsize != phdrSize || h.phnum == 0 || phEnd > uint64(len(b)) {
		return nil, toELFError(elfPerr(parseInvalidFileHeader))
	}
	phs := make([]progHeader, h.phnum)
	for i := range phs {
		phs[i] = readProgHeader(b[ehdrSize+i*phdrSize:])
	}
	type expect struct {
		flags uint32
		vaddr uint64
	}
	expected := []expect{{pfR, MMRodataStart}, {pfX, MMBytecodeStart}}
	skipRodata := phs[0].flags != pfR
	if skipRodata {
		expected = expected[1:]
	} else if h.phnum < 2 {
		return nil, toELFError(elfPerr(parseInvalidFileHeader))
	}
	next := phEnd
	size := uint64(len(b))
	for i := 0; i < len(phs) && i < len(expected); i++ {
		p, x := &phs[i], expected[i]
		if p.ptype != ptLoad || p.flags != x.flags || p.offset != next || p.offset >= size ||
			p.offset%InsnSize != 0 || p.vaddr != x.vaddr || p.paddr != x.vaddr || p.filesz != p.memsz ||
			p.filesz > elfSatSub(size, p.offset) || p.filesz%InsnSize != 0 || p.memsz >= RegionSize {
			return nil, elfErr(ErrInvalidProgramHeader)
		}
		next = elfSatAdd(next, p.filesz)
	}
	var roStart, roEnd uint64
	bytecode := &phs[0]
	if skipRodata {
		roStart, roEnd = phEnd, phEnd
	} else {
		roStart, roEnd = phs[0].offset, phs[0].offset+phs[0].filesz
		bytecode = &phs[1]
	}
	last := elfSatSub(elfSatAdd(h.entry, InsnSize), 1)
	if last < bytecode.vaddr || last >= elfSatAdd(bytecode.vaddr, bytecode.memsz) || h.entry%InsnSize != 0 {
		return nil, toELFError(elfPerr(parseInvalidFileHeader))
	}
	text := append([]byte(nil), b[bytecode.offset:bytecode.offset+bytecode.filesz]...)
	return &Executable{
		Text:      text,
		TextVAddr: bytecode.vaddr,
		RO:        append([]byte(nil), b[roStart:roEnd]...),
		ROVAddr:   MMRodataStart,
		EntryPC:   elfSatSub(h.entry, bytecode.vaddr) / InsnSize,
		Functions: map[uint32]uint64{},
	}, nil
}
