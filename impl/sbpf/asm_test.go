package sbpf_test

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	"ledgerd/impl/sbpf"
)

func hexBytes(s string) []byte {
	var out []byte
	for _, f := range strings.Fields(s) {
		var b byte
		for _, c := range f {
			b <<= 4
			switch {
			case c >= '0' && c <= '9':
				b |= byte(c - '0')
			default:
				b |= byte(c-'a') + 10
			}
		}
		out = append(out, b)
	}
	return out
}

func TestAssembleEncodings(t *testing.T) {
	cases := []struct{ src, want string }{
		// The reference assembler's documentation example.
		{"add64 r1, 0x605\nmov64 r2, 0x32\nmov64 r1, r0\nbe16 r0\nneg64 r2\nexit",
			"07 01 00 00 05 06 00 00 b7 02 00 00 32 00 00 00 bf 01 00 00 00 00 00 00 " +
				"dc 00 00 00 10 00 00 00 87 02 00 00 00 00 00 00 95 00 00 00 00 00 00 00"},
		{"ldxdw r2, [r1+8]", "79 12 08 00 00 00 00 00"},
		{"ldxb r0, [r10 - 1]", "71 a0 ff ff 00 00 00 00"},
		{"stb [r10-1], 5", "72 0a ff ff 05 00 00 00"},
		{"stxw [r1+4], r3", "63 31 04 00 00 00 00 00"},
		{"stdw [r1], -1", "7a 01 00 00 ff ff ff ff"},
		{"lddw r1, 0x1122334455667788", "18 01 00 00 88 77 66 55 00 00 00 00 44 33 22 11"},
		{"add32 r1, -1", "04 01 00 00 ff ff ff ff"},
		{"mov32 r1, 0xffffffff", "b4 01 00 00 ff ff ff ff"},
		{"div r1, r2", "3f 21 00 00 00 00 00 00"},
		{"le64 r3", "d4 03 00 00 40 00 00 00"},
		{"neg32 r4", "84 04 00 00 00 00 00 00"},
		{"ja +2", "05 00 02 00 00 00 00 00"},
		{"jeq r1, 0, -1", "15 01 ff ff 00 00 00 00"},
		{"jsgt r1, r2, +3", "6d 21 03 00 00 00 00 00"},
		{"loop:\n  add64 r1, 1\n  jne r1, 10, loop\n  exit",
			"07 01 00 00 01 00 00 00 55 01 fe ff 0a 00 00 00 95 00 00 00 00 00 00 00"},
		{"callx r3", "8d 00 00 00 03 00 00 00"},
		{"syscall sol_log_", "85 00 00 00 bd 59 75 20"},
		{"call sol_log_ // a syscall: not a label", "85 00 00 00 bd 59 75 20"},
		// A BPF-to-BPF call carries the target pc, as the reference's text form does.
		{"call f\nexit\nf:\nexit", "85 00 00 00 02 00 00 00 95 00 00 00 00 00 00 00 95 00 00 00 00 00 00 00"},
		{".fill 2, 0x95", "95 00 00 00 00 00 00 00 95 00 00 00 00 00 00 00"},
	}
	for _, c := range cases {
		a, err := sbpf.Assemble(c.src)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		if want := hexBytes(c.want); !bytes.Equal(a.Text, want) {
			t.Errorf("%q:\n got % x\nwant % x", c.src, a.Text, want)
		}
	}
}

func TestAssembleErrors(t *testing.T) {
	for _, src := range []string{
		"bogus r1", "mov64 r1", "mov64 r1, r2, r3", "mov64 r1, 0x100000000", "mov64 r1, 2147483648",
		"ja nowhere", "jeq r1, 1", "ldxw r1, r2", "ldxw r1, [x+1]", "ja 40000", "mov64 r16, 1",
		"a:\na:\nexit", ".bogus 1", "lddw r1, rodata+x", "mov64 r1, @",
	} {
		if _, err := sbpf.Assemble(src); err == nil {
			t.Errorf("%q assembled", src)
		}
	}
}

func TestAssembledProgramRuns(t *testing.T) {
	// Sum 1..10 with a loop and a BPF-to-BPF call, text only.
	a := sbpf.MustAssemble(`
entrypoint:
    mov64 r6, 0
    mov64 r7, 1
loop:
    mov64 r1, r6
    mov64 r2, r7
    call add
    mov64 r6, r0
    add64 r7, 1
    jle r7, 10, loop
    mov64 r0, r6
    exit
add:
    mov64 r0, r1
    add64 r0, r2
    exit
`)
	loader, _ := testLoader(t, false)
	r0, err := run(t, a.Executable(sbpf.V0), loader)
	if err != nil || r0 != 55 {
		t.Fatalf("r0 = %d, err %v", r0, err)
	}
}

func TestDisassembleRoundTrip(t *testing.T) {
	a := sbpf.MustAssemble(sampleAsm)
	text := sbpf.Disassemble(a.Text)
	b, err := sbpf.Assemble(text)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if !bytes.Equal(a.Text, b.Text) {
		t.Fatalf("round trip differs:\n%s", text)
	}
	if !strings.Contains(text, "ldxdw r2, [r1+0]") || !strings.Contains(text, "syscall 0x207559bd") {
		t.Fatalf("unexpected disassembly:\n%s", text)
	}
	// Any bytes at all come back unchanged (stray fields and unknown opcodes become .fill).
	rng := rand.New(rand.NewSource(1))
	for range 200 {
		raw := make([]byte, 8*(1+rng.Intn(16)))
		rng.Read(raw)
		for i := 0; i < len(raw); i += 8 {
			if rng.Intn(2) == 0 { // mostly real opcodes with clean fields
				raw[i] = []byte{0x07, 0x0f, 0xb7, 0x61, 0x7b, 0x05, 0x15, 0x1d, 0x85, 0x95, 0x18, 0x00, 0xdc, 0x8d}[rng.Intn(14)]
				raw[i+1] &= 0x99
			}
		}
		dis := sbpf.Disassemble(raw)
		back, err := sbpf.Assemble(dis)
		if err != nil || !bytes.Equal(back.Text, raw) {
			t.Fatalf("% x\n%s\n-> err %v, % x", raw, dis, err, back)
		}
	}
}

// FuzzAssemble: any text assembles or fails with an error, and what assembles disassembles back to itself.
func FuzzAssemble(f *testing.F) {
	f.Add(sampleAsm)
	f.Add("loop:\n add64 r1, 1\n jne r1, 10, loop\n exit")
	f.Add(".fill 3, 0x1122334455667795\nlddw r1, -1\nstxdw [r10-8], r1\ncallx r2\nbe32 r3")
	f.Fuzz(func(t *testing.T, src string) {
		a, err := sbpf.Assemble(src)
		if err != nil {
			return
		}
		back, err := sbpf.Assemble(sbpf.Disassemble(a.Text))
		if err != nil || !bytes.Equal(back.Text, a.Text) {
			t.Fatalf("%q: round trip: %v", src, err)
		}
	})
}

func TestAssembleData(t *testing.T) {
	a, err := sbpf.Assemble(`
entrypoint:
    lddw r1, msg+1
    exit
.rodata
msg:   .ascii "a;b # \"c\""   # comment characters inside the string stay
       .align 8
table: .quad msg, msg+2, 7
bytes: .byte 1, 0xff, -1
       .short 0x1234
       .word -2
       .asciz "z"
.text
    exit
`)
	if err != nil {
		t.Fatal(err)
	}
	want := append([]byte(`a;b # "c"`), 0, 0, 0, 0, 0, 0, 0)
	want = append(want, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 0)
	want = append(want, 1, 0xff, 0xff, 0x34, 0x12, 0xfe, 0xff, 0xff, 0xff, 'z', 0)
	if !bytes.Equal(a.Rodata, want) {
		t.Fatalf("rodata\n got % x\nwant % x", a.Rodata, want)
	}
	if len(a.RodataPointers) != 2 || a.RodataPointers[0] != 16 || a.RodataPointers[1] != 24 {
		t.Fatalf("pointers %v", a.RodataPointers)
	}
	if len(a.RodataRefs) != 1 || a.RodataRefs[0].Offset != 1 || len(a.Text) != 4*8 {
		t.Fatalf("refs %v, %d bytes of text", a.RodataRefs, len(a.Text))
	}
	for _, src := range []string{
		".rodata\n.quad nowhere", ".rodata\n.byte 256", ".rodata\n.ascii nope", ".rodata\n.align 3",
		".rodata\nx: .byte 1\n.text\nx: exit", "lddw r1, nowhere", ".section .data", ".rodata\n.zero 99999999999",
		"ja loop+1\nloop: exit",
	} {
		if _, err := sbpf.Assemble(src); err == nil {
			t.Errorf("%q assembled", src)
		}
	}
}
