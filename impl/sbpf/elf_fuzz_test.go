package sbpf_test

import (
	"errors"
	"math/rand"
	"runtime"
	"sync"
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/sbpf"
	"ledgerd/impl/sbpf/sbpftest"
)

// loadChecked loads data with a deployment and an execution loader (and a v3 one), and checks what any input
// must give: an *ELFError or an executable whose parts are no larger than the file, which the verifier (and, when
// measuring, the VM) then handle without panicking. It returns whether some loader accepted the file.
func loadChecked(t *testing.T, data []byte, measure bool) bool {
	t.Helper()
	loaded := false
	fuzzLoadersOnce.Do(func() {
		fuzzLoaders = []*sbpf.Loader{referenceLoader(t, true), referenceLoader(t, false), v3Loader()}
	})
	for _, loader := range fuzzLoaders {
		var before, after runtime.MemStats
		if measure {
			runtime.ReadMemStats(&before)
		}
		exe, err := sbpf.LoadELF(data, loader)
		if measure {
			runtime.ReadMemStats(&after)
			// The loader copies the file once to relocate it and builds a program region no larger than the
			// file; everything else is proportional to the tables, which lie inside the file.
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 16*uint64(len(data))+1<<20 {
				t.Fatalf("loading %d bytes allocated %d bytes", len(data), grew)
			}
		}
		if err != nil {
			var ee *sbpf.ELFError
			if !errors.As(err, &ee) {
				t.Fatalf("error %T %v is not an *ELFError", err, err)
			}
			if ee.Error() == "" {
				t.Fatal("empty error text")
			}
			continue
		}
		loaded = true
		if len(exe.Text) > len(data) || len(exe.RO) > len(data) {
			t.Fatalf("executable of %d text and %d RO bytes from a %d-byte file", len(exe.Text), len(exe.RO), len(data))
		}
		if sbpf.Verify(exe, loader) != nil || !measure {
			continue
		}
		vm, err := sbpf.NewVM(exe, loader, sbpf.Params{Meter: &sbpf.Meter{Remaining: 300}})
		if err != nil {
			continue
		}
		_, _ = vm.Run()
	}
	return loaded
}

var (
	fuzzLoadersOnce sync.Once
	fuzzLoaders     []*sbpf.Loader
)

func fuzzSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	for _, p := range []sbpftest.Program{
		{Asm: sampleAsm, Rodata: sampleRodata(), RodataPointers: []uint64{16}},
		{Asm: nopProgram},
		{Asm: callProgram, Machine: 263},
		{Asm: "call f\nexit\nf:\nlddw r0, rodata+4\nexit", Rodata: make([]byte, 16), Extra: []sbpftest.Section{
			{Name: ".eh_frame", Data: make([]byte, 8)}, {Name: ".data.rel.ro", Data: make([]byte, 8)}}},
	} {
		b, _, err := p.Build()
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	text := sbpf.MustAssemble("mov64 r0, 1\nexit").Text
	return append(seeds, strictELF([]byte{1, 2, 3, 4, 5, 6, 7, 8}, text, 0), nil, []byte("\x7fELF"))
}

// FuzzLoadELF feeds the loader arbitrary and mutated files: no panic, bounded memory, only *ELFError failures.
func FuzzLoadELF(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { loadChecked(t, data, true) })
}

// TestLoadMutatedELFs runs the fuzz target's checks over systematic mutations of the seeds (every byte set to
// 0x00, 0xff and its complement) and over random multi-byte corruptions, so that `go test` covers them.
func TestLoadMutatedELFs(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for _, seed := range fuzzSeeds(t) {
		if len(seed) < 64 {
			loadChecked(t, seed, true)
			continue
		}
		if !loadChecked(t, seed, true) {
			t.Fatalf("a seed of %d bytes does not load", len(seed))
		}
		b := make([]byte, len(seed))
		for i := range seed {
			for _, v := range []byte{0, 0xff, ^seed[i]} {
				copy(b, seed)
				b[i] = v
				loadChecked(t, b, false)
			}
		}
		for range 300 {
			copy(b, seed)
			for range 1 + rng.Intn(4) {
				i := rng.Intn(len(b)-8) &^ 7
				le.PutUint64(b[i:], []uint64{0, ^uint64(0), uint64(rng.Uint32()), rng.Uint64(), 1 << 32, uint64(len(b))}[rng.Intn(6)])
			}
			loadChecked(t, b, false)
			loadChecked(t, b[:rng.Intn(len(b))], false)
		}
	}
}

// TestLoadMutatedRealELFs corrupts the smallest real build byte by byte (SPL Memo 4.0.0, every byte) and the
// headers and tables of the others at random: only *ELFError failures, no panic.
func TestLoadMutatedRealELFs(t *testing.T) {
	progs := realelf.Programs(t)
	memo := progs[realelf.Memo4].ELF
	b := make([]byte, len(memo))
	for i := range memo {
		for _, v := range []byte{0, 0xff, ^memo[i]} {
			copy(b, memo)
			b[i] = v
			loadChecked(t, b, false)
		}
	}
	rng := rand.New(rand.NewSource(11))
	for _, name := range realelf.Names() {
		elf := progs[name].ELF
		shoff := int(le.Uint64(elf[40:]))
		b := make([]byte, len(elf))
		for range 40 {
			copy(b, elf)
			// A word of the header and program headers, or of the section header table.
			i := rng.Intn(0x200) &^ 7
			if rng.Intn(2) == 0 && shoff+8 < len(b) {
				i = shoff + rng.Intn(len(b)-shoff-8)&^7
			}
			le.PutUint64(b[i:], []uint64{0, ^uint64(0), uint64(rng.Uint32()), 1 << 32, uint64(len(b))}[rng.Intn(5)])
			loadChecked(t, b, false)
		}
	}
}
