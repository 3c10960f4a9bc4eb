package sbpftest

import (
	"bytes"
	"debug/elf"
	"fmt"

	"ledgerd/impl/sbpf"
)

// LinkObject turns a relocatable BPF object, as `clang -target bpf -mcpu=v2 -O2 -c prog.c` makes it, into a v0
// program ELF laid out like Program's: no Debian linker can link a Solana shared object, so tests that write
// programs in C go through this. The object's executable sections become .text, its read-only allocated sections
// one .rodata; relocations are resolved the way the platform tools' linker leaves them:
//   - R_BPF_64_64 (lddw of a symbol's address): the ELF vaddr in the instruction, plus an R_BPF_64_RELATIVE;
//   - R_BPF_64_ABS64 (a pointer in read-only data): the target vaddr in the slot's upper half, plus an
//     R_BPF_64_RELATIVE;
//   - R_BPF_64_32 (call): a pc-relative call to a function of the object, or an R_BPF_64_32 against an undefined
//     symbol, which the loader resolves as a syscall.
//
// Writable data (.data, .bss) is refused, as the loader would refuse it. The entry point is the symbol
// "entrypoint". Extra, Machine and Flags of p apply to the result; its Asm and Rodata are ignored.
func (p Program) LinkObject(obj []byte) ([]byte, Layout, error) {
	f, err := elf.NewFile(bytes.NewReader(obj))
	if err != nil {
		return nil, Layout{}, fmt.Errorf("sbpftest: %w", err)
	}
	if f.Type != elf.ET_REL || f.Machine != elf.EM_BPF || f.Class != elf.ELFCLASS64 || f.Data != elf.ELFDATA2LSB {
		return nil, Layout{}, fmt.Errorf("sbpftest: not a 64-bit little-endian BPF object (%v %v %v)", f.Type, f.Machine, f.Class)
	}
	syms, err := f.Symbols()
	if err != nil {
		return nil, Layout{}, fmt.Errorf("sbpftest: symbols: %w", err)
	}

	// Place the sections: executable ones concatenated into the text, read-only allocated ones into the rodata.
	var img image
	inText := map[int]uint64{} // section index -> offset in the text
	inRodata := map[int]uint64{}
	for i, s := range f.Sections {
		if s.Flags&elf.SHF_ALLOC == 0 || s.Size == 0 {
			continue
		}
		if s.Flags&elf.SHF_WRITE != 0 || s.Type == elf.SHT_NOBITS {
			return nil, Layout{}, fmt.Errorf("sbpftest: writable section %s: sBPF programs have no writable data", s.Name)
		}
		data, err := s.Data()
		if err != nil {
			return nil, Layout{}, fmt.Errorf("sbpftest: section %s: %w", s.Name, err)
		}
		if s.Flags&elf.SHF_EXECINSTR != 0 {
			img.text = padTo(img.text, 8)
			inText[i] = uint64(len(img.text))
			img.text = append(img.text, data...)
			continue
		}
		img.rodata = padTo(img.rodata, max(s.Addralign, 1))
		inRodata[i] = uint64(len(img.rodata))
		img.rodata = append(img.rodata, data...)
	}
	if len(img.text) == 0 {
		return nil, Layout{}, fmt.Errorf("sbpftest: the object has no code")
	}
	ro := rodataOffset(len(img.text))
	// vaddr gives the ELF address of a symbol in the output, or false when it is undefined.
	vaddr := func(sym elf.Symbol) (uint64, bool) {
		i := int(sym.Section)
		if off, ok := inText[i]; ok {
			return textOffset + off + sym.Value, true
		}
		if off, ok := inRodata[i]; ok {
			return ro + off + sym.Value, true
		}
		return 0, false
	}

	entry, found := uint64(0), false
	for _, s := range syms {
		if s.Name == "entrypoint" && elf.ST_TYPE(s.Info) == elf.STT_FUNC {
			if a, ok := vaddr(s); ok && a >= textOffset {
				entry, found = (a-textOffset)/8, true
			}
		}
	}
	if !found {
		return nil, Layout{}, fmt.Errorf("sbpftest: no function named entrypoint")
	}
	img.entryPC = entry

	for _, rs := range f.Sections {
		if rs.Type != elf.SHT_REL {
			continue
		}
		target := int(rs.Info)
		textBase, isText := inText[target]
		roBase, isRodata := inRodata[target]
		if !isText && !isRodata {
			continue // debug information and other sections that are not loaded
		}
		data, err := rs.Data()
		if err != nil {
			return nil, Layout{}, fmt.Errorf("sbpftest: %s: %w", rs.Name, err)
		}
		for i := 0; i+16 <= len(data); i += 16 {
			off := le.Uint64(data[i:])
			info := le.Uint64(data[i+8:])
			typ, symIndex := uint32(info), int(info>>32)
			if symIndex < 1 || symIndex > len(syms) {
				return nil, Layout{}, fmt.Errorf("sbpftest: %s: relocation against symbol %d", rs.Name, symIndex)
			}
			sym := syms[symIndex-1]
			addr, defined := vaddr(sym)
			switch {
			case isText && typ == rBPF64_64:
				at := textBase + off
				if at+16 > uint64(len(img.text)) {
					return nil, Layout{}, fmt.Errorf("sbpftest: lddw relocation at %#x outside the text", off)
				}
				if !defined {
					return nil, Layout{}, fmt.Errorf("sbpftest: lddw of undefined symbol %s", sym.Name)
				}
				a := addr + uint64(le.Uint32(img.text[at+4:])) // implicit addend
				le.PutUint32(img.text[at+4:], uint32(a))
				le.PutUint32(img.text[at+12:], uint32(a>>32))
				img.relative = append(img.relative, textOffset+at)
			case isText && typ == rel64_32:
				at := textBase + off
				if at+8 > uint64(len(img.text)) || at%8 != 0 {
					return nil, Layout{}, fmt.Errorf("sbpftest: call relocation at %#x outside the text", off)
				}
				pc := at / 8
				if !defined {
					img.syscalls = append(img.syscalls, sbpf.AsmSyscall{PC: pc, Name: sym.Name})
					continue
				}
				if addr < textOffset || addr >= textOffset+uint64(len(img.text)) {
					return nil, Layout{}, fmt.Errorf("sbpftest: call of %s, which is not code", sym.Name)
				}
				le.PutUint32(img.text[at+4:], uint32(int32(int64((addr-textOffset)/8)-int64(pc)-1)))
			case isRodata && typ == rBPF64Abs64:
				at := roBase + off
				if at+8 > uint64(len(img.rodata)) {
					return nil, Layout{}, fmt.Errorf("sbpftest: pointer relocation at %#x outside the rodata", off)
				}
				if !defined {
					return nil, Layout{}, fmt.Errorf("sbpftest: pointer to undefined symbol %s", sym.Name)
				}
				a := addr + le.Uint64(img.rodata[at:]) // implicit addend
				if a >= 1<<32 {
					return nil, Layout{}, fmt.Errorf("sbpftest: pointer target %#x too far", a)
				}
				le.PutUint32(img.rodata[at:], 0)
				le.PutUint32(img.rodata[at+4:], uint32(a))
				img.relative = append(img.relative, ro+at)
			default:
				return nil, Layout{}, fmt.Errorf("sbpftest: %s: relocation type %d is not supported", rs.Name, typ)
			}
		}
	}
	return p.write(img)
}

// Relocation types of BPF objects (LLVM's BPF backend) besides R_BPF_64_32 (rel64_32, a call).
const (
	rBPF64_64   = 1 // lddw of a symbol's address
	rBPF64Abs64 = 2 // 64-bit absolute address in data
)

func padTo(b []byte, align uint64) []byte {
	for uint64(len(b))%align != 0 {
		b = append(b, 0)
	}
	return b
}
