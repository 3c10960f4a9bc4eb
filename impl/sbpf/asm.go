package sbpf

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The assembler turns sBPF assembly text into instruction bytes, in the reference assembler's syntax:
//
//	entrypoint:
//	    mov64 r1, 2              # ALU: add sub mul div or and lsh rsh mod xor mov arsh (+32/64), neg, hor64
//	    ldxdw r2, [r1+8]         # ldx{b,h,w,dw} dst, [src+off]; st{b,h,w,dw} [dst+off], imm; stx... [dst+off], src
//	    lddw r3, 0x1122334455667788
//	    lddw r4, rodata+16       # address of byte 16 of the rodata the ELF writer lays out
//	    jeq r1, 0, done          # jeq jgt jge jlt jle jset jne jsgt jsge jslt jsle (+32 for JMP32), reg or imm
//	    ja +2                    # offsets are relative to the next instruction; labels work everywhere
//	    call helper              # a label: a BPF-to-BPF call
//	    call sol_log_            # any other name: a syscall (syscall NAME is the same)
//	    callx r5
//	    be16 r1                  # le16/32/64, be16/32/64
//	done:
//	    exit
//
// Comments start with '#', ';' or "//". Integers are decimal or 0x hex with an optional sign; immediates must fit
// in 32 bits (signed, or unsigned for hex), lddw takes any 64-bit value. ".fill N, VALUE" emits N raw slots
// (opcode = VALUE&0xff, dst, src, off, imm in the following bits), as in the reference.
//
// Read-only data can be written in the text too, after a ".rodata" line (".text" switches back):
//
//	.rodata
//	msg:   .ascii "hello"        # also .asciz/.string (NUL-terminated)
//	table: .quad msg, msg+2      # pointers to data labels, relocated; .quad/.word/.short/.byte also take integers
//	       .zero 16              # also .align N
//
// and `lddw rX, msg` or `lddw rX, msg+1` loads a data label's address. Such data is Assembly.Rodata; a text-only
// executable (Assembly.Executable) does not map it, an ELF written by sbpftest does.

// maxAsmInstructions bounds what one text may assemble to (8 MiB of bytecode), so that .fill cannot ask for
// unbounded memory.
const maxAsmInstructions = 1 << 20

// maxAsmData bounds the read-only data of one text.
const maxAsmData = 8 << 20

type dataPointer struct {
	line   int
	slot   uint64
	label  string
	addend int64
}

// data appends the bytes of one data directive to a.Rodata.
func (a *Assembly) data(l asmLine, pointers []dataPointer) ([]dataPointer, error) {
	switch l.mnemonic {
	case ".ascii", ".asciz", ".string":
		str, err := strconv.Unquote(l.rawOperands)
		if err != nil {
			return nil, fmt.Errorf("expected a quoted string, got %s", l.rawOperands)
		}
		a.Rodata = append(a.Rodata, str...)
		if l.mnemonic != ".ascii" {
			a.Rodata = append(a.Rodata, 0)
		}
		return pointers, nil
	case ".zero", ".space", ".align":
		if len(l.operands) != 1 || l.operands[0].kind != opInteger || l.operands[0].value < 0 ||
			l.operands[0].value > maxAsmData {
			return nil, fmt.Errorf("expected a size")
		}
		n := uint64(l.operands[0].value)
		if l.mnemonic == ".align" {
			if n == 0 || n&(n-1) != 0 {
				return nil, fmt.Errorf("alignment %d is not a power of two", n)
			}
			n = (n - uint64(len(a.Rodata))%n) % n
		}
		a.Rodata = append(a.Rodata, make([]byte, n)...)
		return pointers, nil
	}
	width := map[string]int{".byte": 1, ".short": 2, ".half": 2, ".2byte": 2, ".word": 4, ".long": 4, ".4byte": 4,
		".quad": 8, ".8byte": 8, ".dword": 8}[l.mnemonic]
	if width == 0 {
		return nil, fmt.Errorf("unknown data directive")
	}
	if len(l.operands) == 0 {
		return nil, fmt.Errorf("expected values")
	}
	for _, o := range l.operands {
		var v uint64
		switch {
		case o.kind == opLabel && width == 8:
			pointers = append(pointers, dataPointer{l.line, uint64(len(a.Rodata)), o.text, o.offset})
		case o.kind == opInteger:
			if width < 8 && (o.value >= 1<<(8*width) || o.value < -(1<<(8*width-1))) {
				return nil, fmt.Errorf("%s does not fit in %d bytes", o.text, width)
			}
			v = uint64(o.value)
		default:
			return nil, fmt.Errorf("bad value %s", o.text)
		}
		for i := range width {
			a.Rodata = append(a.Rodata, byte(v>>(8*i)))
		}
	}
	return pointers, nil
}

// Assembly is assembled text.
type Assembly struct {
	// Text is the program as the reference assembler emits it for a text-only executable: a BPF-to-BPF call's imm
	// is the target pc (Functions maps it to itself), a syscall's imm is HashSymbolName(name), and an lddw of
	// rodata+N holds N. NewExecutableFromText(Text, version, Functions) runs it.
	Text []byte
	// Functions are the call targets, keyed as Text's calls name them, plus the entry point.
	Functions map[uint32]uint64
	// Labels maps each label to its instruction index.
	Labels map[string]uint64
	// Calls, Syscalls and RodataRefs locate what an ELF writer must turn into relocations.
	Calls      []AsmCall
	Syscalls   []AsmSyscall
	RodataRefs []AsmRodataRef
	// Rodata is the data of the text's .rodata part; RodataPointers are the offsets of its 8-byte slots that
	// hold offsets into it (.quad of a label), to be relocated into pointers; DataLabels maps its labels to
	// offsets.
	Rodata         []byte
	RodataPointers []uint64
	DataLabels     map[string]uint64
}

// AsmCall is a BPF-to-BPF `call` at PC to the instruction Target.
type AsmCall struct{ PC, Target uint64 }

// AsmSyscall is a `call NAME` (or `syscall NAME`) at PC of a symbol that is not a label.
type AsmSyscall struct {
	PC   uint64
	Name string
}

// AsmRodataRef is an `lddw rX, rodata+Offset` at PC.
type AsmRodataRef struct{ PC, Offset uint64 }

// Assemble assembles v0 text.
func Assemble(src string) (*Assembly, error) { return AssembleVersion(src, V0) }

// AssembleVersion assembles text for an SBPF version: it decides the opcodes of loads and stores (moved in v2)
// and which field of callx names the register.
func AssembleVersion(src string, version Version) (*Assembly, error) {
	lines, err := parseAsm(src)
	if err != nil {
		return nil, err
	}
	a := &Assembly{Functions: map[uint32]uint64{}, Labels: map[string]uint64{}, DataLabels: map[string]uint64{}}
	pc := uint64(0)
	inData := false
	var pointers []dataPointer
	for i := range lines {
		l := &lines[i]
		switch l.mnemonic {
		case ".rodata", ".section":
			if l.mnemonic == ".section" && l.rawOperands != ".rodata" {
				return nil, fmt.Errorf("line %d: only .section .rodata is supported", l.line)
			}
			inData = true
		case ".text":
			inData = false
		}
		l.data = inData
		for _, lab := range l.labels {
			_, dup := a.Labels[lab]
			_, dupData := a.DataLabels[lab]
			if dup || dupData {
				return nil, fmt.Errorf("line %d: label %q defined twice", l.line, lab)
			}
			if inData {
				a.DataLabels[lab] = uint64(len(a.Rodata))
			} else {
				a.Labels[lab] = pc
			}
		}
		switch {
		case l.mnemonic == "" || l.mnemonic == ".rodata" || l.mnemonic == ".section" || l.mnemonic == ".text":
		case inData:
			var err error
			if pointers, err = a.data(*l, pointers); err != nil {
				return nil, fmt.Errorf("line %d: %s: %w", l.line, l.mnemonic, err)
			}
		case l.mnemonic == ".fill":
			if len(l.operands) != 2 || l.operands[0].kind != opInteger || l.operands[1].kind != opInteger ||
				l.operands[0].value < 0 || l.operands[0].value > 1<<20 {
				return nil, fmt.Errorf("line %d: .fill takes a count and a value", l.line)
			}
			pc += uint64(l.operands[0].value)
		case l.mnemonic == "lddw":
			pc += 2
		default:
			pc++
		}
		if pc > maxAsmInstructions || len(a.Rodata) > maxAsmData {
			return nil, fmt.Errorf("line %d: program too large", l.line)
		}
	}
	for _, p := range pointers {
		off, ok := a.DataLabels[p.label]
		if !ok {
			return nil, fmt.Errorf("line %d: data label %q not found", p.line, p.label)
		}
		elfLE.PutUint64(a.Rodata[p.slot:], off+uint64(p.addend))
		a.RodataPointers = append(a.RodataPointers, p.slot)
	}
	if _, ok := a.Labels["entrypoint"]; !ok {
		a.Labels["entrypoint"] = 0
	}
	a.Functions[EntrypointHash] = a.Labels["entrypoint"]

	table := instructionTable(version)
	pc = 0
	for _, l := range lines {
		if l.mnemonic == "" || l.data || l.mnemonic == ".text" {
			continue
		}
		if l.mnemonic == ".fill" {
			v := uint64(l.operands[1].value)
			for range l.operands[0].value {
				a.Text = appendInsn(a.Text, uint8(v), uint8(v>>8)&0xf, uint8(v>>12)&0xf, int16(v>>16), int32(v>>32))
				pc++
			}
			continue
		}
		if strings.HasPrefix(l.mnemonic, ".") {
			return nil, fmt.Errorf("line %d: unknown directive %s", l.line, l.mnemonic)
		}
		entry, ok := table[l.mnemonic]
		if !ok {
			return nil, fmt.Errorf("line %d: unknown instruction %q", l.line, l.mnemonic)
		}
		n, err := a.encode(entry, l, pc, version)
		if err != nil {
			return nil, fmt.Errorf("line %d: %s: %w", l.line, l.mnemonic, err)
		}
		pc += n
	}
	return a, nil
}

// MustAssemble is Assemble for tests and fixed programs: it panics on an error.
func MustAssemble(src string) *Assembly {
	a, err := Assemble(src)
	if err != nil {
		panic(err)
	}
	return a
}

// Executable returns a text-only executable of the assembly (no rodata, no ELF), as the reference's assembler
// builds one.
func (a *Assembly) Executable(version Version) *Executable {
	return NewExecutableFromText(a.Text, version, a.Functions)
}

type insnClass uint8

const (
	classAluBinary insnClass = iota
	classAluUnary
	classLddw
	classLoad
	classStoreImm
	classStoreReg
	classJa
	classJcc
	classSyscall
	classCall
	classCallx
	classEndian
	classNoOperand
)

type tableEntry struct {
	class insnClass
	opc   uint8
	size  int64 // endianness width
}

func instructionTable(version Version) map[string]tableEntry {
	t := map[string]tableEntry{
		"lddw": {classLddw, 0x18, 0}, "ja": {classJa, 0x05, 0}, "syscall": {classSyscall, 0x85, 0},
		"call": {classCall, 0x85, 0}, "callx": {classCallx, 0x8d, 0}, "exit": {classNoOperand, 0x95, 0},
		"neg": {classAluUnary, 0x87, 0}, "neg32": {classAluUnary, 0x84, 0}, "neg64": {classAluUnary, 0x87, 0},
	}
	alu := []struct {
		name string
		op   uint8
	}{{"add", 0x00}, {"sub", 0x10}, {"mul", 0x20}, {"div", 0x30}, {"or", 0x40}, {"and", 0x50}, {"lsh", 0x60},
		{"rsh", 0x70}, {"mod", 0x90}, {"xor", 0xa0}, {"mov", 0xb0}, {"arsh", 0xc0}, {"hor", 0xf0}}
	for _, o := range alu {
		t[o.name] = tableEntry{classAluBinary, 0x07 | o.op, 0}
		t[o.name+"64"] = tableEntry{classAluBinary, 0x07 | o.op, 0}
		t[o.name+"32"] = tableEntry{classAluBinary, 0x04 | o.op, 0}
	}
	pqr := []struct {
		name string
		op   uint8
	}{{"lmul", 0x80}, {"uhmul", 0x20}, {"shmul", 0xa0}, {"udiv", 0x40}, {"urem", 0x60}, {"sdiv", 0xc0},
		{"srem", 0xe0}}
	for _, o := range pqr {
		t[o.name] = tableEntry{classAluBinary, 0x06 | 0x10 | o.op, 0}
		t[o.name+"64"] = tableEntry{classAluBinary, 0x06 | 0x10 | o.op, 0}
		if o.name != "uhmul" && o.name != "shmul" {
			t[o.name+"32"] = tableEntry{classAluBinary, 0x06 | o.op, 0}
		}
	}
	sizes := []struct {
		suffix     string
		old, moved uint8
	}{{"b", 0x10, 0x20}, {"h", 0x08, 0x30}, {"w", 0x00, 0x80}, {"dw", 0x18, 0x90}}
	for _, s := range sizes {
		if version.MoveMemoryInstructionClasses() {
			t["ldx"+s.suffix] = tableEntry{classLoad, 0x04 | 0x08 | s.moved, 0}
			t["st"+s.suffix] = tableEntry{classStoreImm, 0x07 | s.moved, 0}
			t["stx"+s.suffix] = tableEntry{classStoreReg, 0x07 | 0x08 | s.moved, 0}
		} else {
			t["ldx"+s.suffix] = tableEntry{classLoad, 0x61 | s.old, 0}
			t["st"+s.suffix] = tableEntry{classStoreImm, 0x62 | s.old, 0}
			t["stx"+s.suffix] = tableEntry{classStoreReg, 0x63 | s.old, 0}
		}
	}
	jumps := []struct {
		name string
		op   uint8
	}{{"jeq", 0x10}, {"jgt", 0x20}, {"jge", 0x30}, {"jlt", 0xa0}, {"jle", 0xb0}, {"jset", 0x40}, {"jne", 0x50},
		{"jsgt", 0x60}, {"jsge", 0x70}, {"jslt", 0xc0}, {"jsle", 0xd0}}
	for _, j := range jumps {
		t[j.name] = tableEntry{classJcc, 0x05 | j.op, 0}
		t[j.name+"64"] = tableEntry{classJcc, 0x05 | j.op, 0}
		t[j.name+"32"] = tableEntry{classJcc, 0x06 | j.op, 0}
	}
	for _, w := range []int64{16, 32, 64} {
		t[fmt.Sprintf("le%d", w)] = tableEntry{classEndian, 0xd4, w}
		t[fmt.Sprintf("be%d", w)] = tableEntry{classEndian, 0xdc, w}
	}
	return t
}

func appendInsn(b []byte, opc, dst, src uint8, off int16, imm int32) []byte {
	return append(b, opc, dst&0xf|src<<4, byte(off), byte(uint16(off)>>8),
		byte(imm), byte(uint32(imm)>>8), byte(uint32(imm)>>16), byte(uint32(imm)>>24))
}

func (a *Assembly) emit(opc uint8, dst, src int64, off int64, imm int64) error {
	if dst < 0 || dst > 15 {
		return fmt.Errorf("invalid destination register r%d", dst)
	}
	if src < 0 || src > 15 {
		return fmt.Errorf("invalid source register r%d", src)
	}
	if off < math.MinInt16 || off > math.MaxInt16 {
		return fmt.Errorf("offset %d does not fit in 16 bits", off)
	}
	if imm < math.MinInt32 || imm > math.MaxUint32 {
		return fmt.Errorf("immediate %d does not fit in 32 bits", imm)
	}
	a.Text = appendInsn(a.Text, opc, uint8(dst), uint8(src), int16(off), int32(uint32(imm)))
	return nil
}

// imm32 checks an immediate operand: signed 32-bit, or a hex bit pattern of up to 32 bits.
func imm32(o asmOperand) (int64, error) {
	if o.value >= math.MinInt32 && o.value <= math.MaxInt32 {
		return o.value, nil
	}
	if o.hex && o.value >= 0 && o.value <= math.MaxUint32 {
		return int64(int32(uint32(o.value))), nil
	}
	return 0, fmt.Errorf("immediate %s does not fit in 32 bits", o.text)
}

func (a *Assembly) target(o asmOperand, pc uint64) (int64, error) {
	switch o.kind {
	case opInteger:
		return o.value, nil
	case opLabel:
		t, ok := a.Labels[o.text]
		if !ok || o.offset != 0 {
			return 0, fmt.Errorf("label %q not found", o.text)
		}
		return int64(t) - int64(pc) - 1, nil
	}
	return 0, fmt.Errorf("expected a label or an offset, got %s", o.text)
}

func kinds(ops []asmOperand, want ...operandKind) bool {
	if len(ops) != len(want) {
		return false
	}
	for i, k := range want {
		if ops[i].kind != k && !(k == opLabel && ops[i].kind == opInteger) {
			return false
		}
	}
	return true
}

func (a *Assembly) encode(e tableEntry, l asmLine, pc uint64, version Version) (uint64, error) {
	ops := l.operands
	bad := fmt.Errorf("unexpected operands %q", l.rawOperands)
	switch e.class {
	case classAluBinary:
		if kinds(ops, opRegister, opRegister) {
			return 1, a.emit(e.opc|0x08, ops[0].value, ops[1].value, 0, 0)
		}
		if kinds(ops, opRegister, opInteger) {
			imm, err := imm32(ops[1])
			if err != nil {
				return 0, err
			}
			return 1, a.emit(e.opc, ops[0].value, 0, 0, imm)
		}
	case classAluUnary:
		if kinds(ops, opRegister) {
			return 1, a.emit(e.opc, ops[0].value, 0, 0, 0)
		}
	case classEndian:
		if kinds(ops, opRegister) {
			return 1, a.emit(e.opc, ops[0].value, 0, 0, e.size)
		}
	case classNoOperand:
		if len(ops) == 0 {
			return 1, a.emit(e.opc, 0, 0, 0, 0)
		}
	case classLddw:
		if len(ops) != 2 || ops[0].kind != opRegister {
			return 0, bad
		}
		v := uint64(ops[1].value)
		switch ops[1].kind {
		case opRodata:
			a.RodataRefs = append(a.RodataRefs, AsmRodataRef{PC: pc, Offset: v})
		case opLabel:
			off, ok := a.DataLabels[ops[1].text]
			if !ok || int64(off)+ops[1].offset < 0 {
				return 0, fmt.Errorf("data label %q not found", ops[1].text)
			}
			v = uint64(int64(off) + ops[1].offset)
			a.RodataRefs = append(a.RodataRefs, AsmRodataRef{PC: pc, Offset: v})
		case opInteger:
		default:
			return 0, bad
		}
		if err := a.emit(e.opc, ops[0].value, 0, 0, int64(int32(uint32(v)))); err != nil {
			return 0, err
		}
		return 2, a.emit(0, 0, 0, 0, int64(int32(uint32(v>>32))))
	case classLoad:
		if kinds(ops, opRegister, opMemory) {
			return 1, a.emit(e.opc, ops[0].value, ops[1].value, ops[1].offset, 0)
		}
	case classStoreImm:
		if kinds(ops, opMemory, opInteger) {
			imm, err := imm32(ops[1])
			if err != nil {
				return 0, err
			}
			return 1, a.emit(e.opc, ops[0].value, 0, ops[0].offset, imm)
		}
	case classStoreReg:
		if kinds(ops, opMemory, opRegister) {
			return 1, a.emit(e.opc, ops[0].value, ops[1].value, ops[0].offset, 0)
		}
	case classJa:
		if len(ops) == 1 {
			off, err := a.target(ops[0], pc)
			if err != nil {
				return 0, err
			}
			return 1, a.emit(e.opc, 0, 0, off, 0)
		}
	case classJcc:
		if len(ops) != 3 || ops[0].kind != opRegister {
			return 0, bad
		}
		off, err := a.target(ops[2], pc)
		if err != nil {
			return 0, err
		}
		switch ops[1].kind {
		case opRegister:
			return 1, a.emit(e.opc|0x08, ops[0].value, ops[1].value, off, 0)
		case opInteger:
			imm, err := imm32(ops[1])
			if err != nil {
				return 0, err
			}
			return 1, a.emit(e.opc, ops[0].value, 0, off, imm)
		}
	case classSyscall, classCall:
		if len(ops) != 1 {
			return 0, bad
		}
		switch o := ops[0]; {
		case o.kind == opInteger && e.class == classSyscall:
			imm, err := imm32(o)
			if err != nil {
				return 0, err
			}
			return 1, a.emit(e.opc, 0, 0, 0, imm)
		case o.kind == opInteger || (o.kind == opLabel && e.class == classCall && a.hasLabel(o.text)):
			rel, err := a.target(o, pc)
			if err != nil {
				return 0, err
			}
			t := int64(pc) + 1 + rel
			if t < 0 || t > math.MaxUint32 {
				return 0, fmt.Errorf("call target %d out of range", t)
			}
			a.Calls = append(a.Calls, AsmCall{PC: pc, Target: uint64(t)})
			a.Functions[uint32(t)] = uint64(t)
			if version.StaticSyscalls() {
				return 1, a.emit(e.opc, 0, 1, 0, rel)
			}
			return 1, a.emit(e.opc, 0, 0, 0, t)
		case o.kind == opLabel:
			a.Syscalls = append(a.Syscalls, AsmSyscall{PC: pc, Name: o.text})
			return 1, a.emit(e.opc, 0, 0, 0, int64(int32(HashSymbolName([]byte(o.text)))))
		}
	case classCallx:
		if kinds(ops, opRegister) {
			r := ops[0].value
			switch {
			case version.CallxUsesSrcReg():
				return 1, a.emit(e.opc, 0, r, 0, 0)
			case version.CallxUsesDstReg():
				return 1, a.emit(e.opc, r, 0, 0, 0)
			}
			return 1, a.emit(e.opc, 0, 0, 0, r)
		}
	}
	return 0, bad
}

func (a *Assembly) hasLabel(name string) bool {
	_, ok := a.Labels[name]
	return ok
}

type operandKind uint8

const (
	opRegister operandKind = iota
	opInteger
	opMemory
	opLabel
	opRodata
)

type asmOperand struct {
	kind   operandKind
	value  int64 // register number, integer value, memory base register, rodata offset
	offset int64 // memory offset
	hex    bool
	text   string
}

type asmLine struct {
	data        bool // in the .rodata part
	line        int
	labels      []string
	mnemonic    string
	operands    []asmOperand
	rawOperands string
}

func parseAsm(src string) ([]asmLine, error) {
	var out []asmLine
	for i, raw := range strings.Split(src, "\n") {
		n := i + 1
		s := strings.TrimSpace(stripComment(raw))
		l := asmLine{line: n}
		for {
			j := strings.IndexByte(s, ':')
			if j <= 0 || !isIdent(s[:j]) {
				break
			}
			l.labels = append(l.labels, s[:j])
			s = strings.TrimSpace(s[j+1:])
		}
		if s != "" {
			mn, rest, _ := strings.Cut(s, " ")
			if k := strings.IndexByte(mn, '\t'); k >= 0 {
				mn, rest = mn[:k], mn[k+1:]+" "+rest
			}
			l.mnemonic = strings.ToLower(mn)
			l.rawOperands = strings.TrimSpace(rest)
			switch l.mnemonic {
			case ".ascii", ".asciz", ".string", ".section":
				out = append(out, l)
				continue
			}
			if l.rawOperands != "" {
				for _, f := range strings.Split(l.rawOperands, ",") {
					o, err := parseOperand(strings.TrimSpace(f))
					if err != nil {
						return nil, fmt.Errorf("line %d: %w", n, err)
					}
					l.operands = append(l.operands, o)
				}
			}
		}
		if len(l.labels) > 0 || l.mnemonic != "" {
			out = append(out, l)
		}
	}
	return out, nil
}

// stripComment cuts a line at its first '#', ';' or "//" outside a quoted string.
func stripComment(s string) string {
	quoted := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && (c == '#' || c == ';' || c == '/' && i+1 < len(s) && s[i+1] == '/'):
			return s[:i]
		}
	}
	return s
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '.' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func parseRegister(s string) (int64, bool) {
	if len(s) < 2 || (s[0] != 'r' && s[0] != 'R') {
		return 0, false
	}
	v, err := strconv.ParseUint(s[1:], 10, 8)
	if err != nil {
		return 0, false
	}
	return int64(v), true
}

// parseInteger parses [+|-] (0x hex | decimal); hex reads up to 64 bits as a bit pattern.
func parseInteger(s string) (int64, bool, error) {
	t := strings.TrimSpace(s)
	neg := false
	if t != "" && (t[0] == '-' || t[0] == '+') {
		neg = t[0] == '-'
		t = strings.TrimSpace(t[1:])
	}
	if t == "" || t[0] < '0' || t[0] > '9' {
		return 0, false, fmt.Errorf("not a number: %q", s)
	}
	var v int64
	hex := false
	if strings.HasPrefix(t, "0x") || strings.HasPrefix(t, "0X") {
		u, err := strconv.ParseUint(t[2:], 16, 64)
		if err != nil {
			return 0, false, fmt.Errorf("bad number %q", s)
		}
		v, hex = int64(u), true
	} else {
		d, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			u, uerr := strconv.ParseUint(t, 10, 64)
			if uerr != nil || neg {
				return 0, false, fmt.Errorf("bad number %q", s)
			}
			return int64(u), true, nil
		}
		v = d
	}
	if neg {
		v = -v
	}
	return v, hex, nil
}

func parseOperand(s string) (asmOperand, error) {
	if s == "" {
		return asmOperand{}, fmt.Errorf("empty operand")
	}
	if r, ok := parseRegister(s); ok {
		return asmOperand{kind: opRegister, value: r, text: s}, nil
	}
	if s[0] == '[' {
		if s[len(s)-1] != ']' {
			return asmOperand{}, fmt.Errorf("bad memory operand %q", s)
		}
		in := strings.TrimSpace(s[1 : len(s)-1])
		j := strings.IndexAny(in, "+-")
		base, off := in, ""
		if j >= 0 {
			base, off = strings.TrimSpace(in[:j]), in[j:]
		}
		r, ok := parseRegister(base)
		if !ok {
			return asmOperand{}, fmt.Errorf("bad memory operand %q", s)
		}
		o := asmOperand{kind: opMemory, value: r, text: s}
		if off != "" {
			v, _, err := parseInteger(off)
			if err != nil {
				return asmOperand{}, fmt.Errorf("bad memory operand %q", s)
			}
			o.offset = v
		}
		return o, nil
	}
	if c := s[0]; c == '-' || c == '+' || c >= '0' && c <= '9' {
		v, hex, err := parseInteger(s)
		if err != nil {
			return asmOperand{}, err
		}
		return asmOperand{kind: opInteger, value: v, hex: hex, text: s}, nil
	}
	if s == "rodata" || strings.HasPrefix(s, "rodata+") || strings.HasPrefix(s, "rodata +") {
		o := asmOperand{kind: opRodata, text: s}
		if rest := strings.TrimSpace(strings.TrimPrefix(s, "rodata")); rest != "" {
			v, _, err := parseInteger(rest)
			if err != nil || v < 0 {
				return asmOperand{}, fmt.Errorf("bad rodata offset %q", s)
			}
			o.value = v
		}
		return o, nil
	}
	if isIdent(s) {
		return asmOperand{kind: opLabel, text: s}, nil
	}
	if j := strings.IndexAny(s, "+-"); j > 0 && isIdent(strings.TrimSpace(s[:j])) {
		v, _, err := parseInteger(s[j:])
		if err == nil {
			return asmOperand{kind: opLabel, text: strings.TrimSpace(s[:j]), offset: v}, nil
		}
	}
	return asmOperand{}, fmt.Errorf("bad operand %q", s)
}
