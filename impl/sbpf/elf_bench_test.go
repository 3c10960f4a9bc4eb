package sbpf_test

import (
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/sbpf"
)

// BenchmarkLoadELF measures loading (parse, relocate, build the program region) and verifying a program: the work
// a deployment does once and a program cache does once per deployed version.
func BenchmarkLoadELF(b *testing.B) {
	files := map[string][]byte{"sample": func() []byte { e, _ := sampleELF(b); return e }()}
	if testing.Short() {
		b.Log("real builds skipped in -short")
	} else {
		progs := realelf.Programs(b)
		files["spl_token-3.5.0"] = progs[realelf.SPLToken].ELF
		files["spl_token_2022-11.0.0"] = progs[realelf.Token2022].ELF
	}
	loader := referenceLoader(b, false)
	for _, name := range []string{"sample", "spl_token-3.5.0", "spl_token_2022-11.0.0"} {
		elf, ok := files[name]
		if !ok {
			continue
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(elf)))
			b.ReportAllocs()
			for b.Loop() {
				exe, err := sbpf.LoadELF(elf, loader)
				if err != nil {
					b.Fatal(err)
				}
				if err := sbpf.Verify(exe, loader); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
