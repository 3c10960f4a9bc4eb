package sbpf

import "testing"

// benchLoop runs a compute-bound loop of iters iterations and reports interpreted instructions
// per second.
func benchLoop(b *testing.B, body ...[]byte) {
	const iters = 100_000
	prog := [][]byte{
		vi(OpMOV64I, 1, 0, 0, iters),
		vi(OpMOV64I, 0, 0, 0, 0),
	}
	prog = append(prog, body...)
	prog = append(prog,
		vi(OpSUB64I, 1, 0, 0, 1),
		vi(OpJNEI, 1, 0, int16(-2-len(body)), 0),
		vexit())
	loader := NewLoader(DefaultConfig())
	exe := NewExecutableFromText(vmText(prog...), V0, nil)
	if err := Verify(exe, loader); err != nil {
		b.Fatal(err)
	}
	perRun := uint64(2 + iters*(len(body)+2) + 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		vm, err := NewVM(exe, loader, Params{Meter: &Meter{Remaining: 1 << 40}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := vm.Run(); err != nil {
			b.Fatal(err)
		}
		vm.Release()
		if vm.Used() != perRun {
			b.Fatalf("used %d, want %d", vm.Used(), perRun)
		}
	}
	b.ReportMetric(float64(perRun)*float64(b.N)/b.Elapsed().Seconds(), "insns/s")
}

// BenchmarkInterpreterALU is arithmetic and branches only.
func BenchmarkInterpreterALU(b *testing.B) {
	benchLoop(b,
		vi(OpADD64R, 0, 1, 0, 0),
		vi(OpXOR64I, 0, 0, 0, 0x5555),
		vi(OpMUL64I, 0, 0, 0, 3),
		vi(OpRSH64I, 0, 0, 0, 1),
		vi(OpADD32I, 2, 0, 0, 7),
		vi(OpAND64I, 2, 0, 0, 0xffff),
	)
}

// BenchmarkInterpreterMemory mixes stack loads and stores into the loop.
func BenchmarkInterpreterMemory(b *testing.B) {
	benchLoop(b,
		vi(OpSTXDW, 10, 1, -8, 0),
		vi(OpLDXDW, 2, 10, -8, 0),
		vi(OpADD64R, 0, 2, 0, 0),
		vi(OpSTXB, 10, 0, -16, 0),
		vi(OpLDXB, 3, 10, -16, 0),
		vi(OpADD64R, 0, 3, 0, 0),
	)
}

// BenchmarkVMSetup is the fixed cost of one execution: a VM for a two-instruction program with a
// small input region, run and released.
func BenchmarkVMSetup(b *testing.B) {
	loader := NewLoader(DefaultConfig())
	exe := NewExecutableFromText(vmText(vi(OpMOV64I, 0, 0, 0, 0), vexit()), V0, nil)
	input := make([]byte, 1024)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		vm, err := NewVM(exe, loader, Params{Input: []Region{{VMAddr: MMInputStart, Data: input, Writable: true}},
			Meter: &Meter{Remaining: 1000}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := vm.Run(); err != nil {
			b.Fatal(err)
		}
		vm.Release()
	}
}

// BenchmarkInterpreterCalls is a loop of BPF-to-BPF calls to a two-instruction function.
func BenchmarkInterpreterCalls(b *testing.B) {
	const iters = 100_000
	fn := HashPC(5)
	prog := [][]byte{
		vi(OpMOV64I, 6, 0, 0, iters),
		vi(OpCALL, 0, 0, 0, int32(fn)),
		vi(OpSUB64I, 6, 0, 0, 1),
		vi(OpJNEI, 6, 0, -3, 0),
		vexit(),
		vi(OpADD64I, 0, 0, 0, 1), // pc 5
		vexit(),
	}
	loader := NewLoader(DefaultConfig())
	exe := NewExecutableFromText(vmText(prog...), V0, map[uint32]uint64{fn: 5})
	if err := Verify(exe, loader); err != nil {
		b.Fatal(err)
	}
	perRun := uint64(1 + iters*5 + 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		vm, err := NewVM(exe, loader, Params{Meter: &Meter{Remaining: 1 << 40}})
		if err != nil {
			b.Fatal(err)
		}
		r0, err := vm.Run()
		if err != nil || r0 != iters {
			b.Fatal(r0, err)
		}
		if vm.Used() != perRun {
			b.Fatalf("used %d, want %d", vm.Used(), perRun)
		}
		vm.Release()
	}
	b.ReportMetric(float64(perRun)*float64(b.N)/b.Elapsed().Seconds(), "insns/s")
}
