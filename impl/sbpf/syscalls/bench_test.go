package syscalls

import (
	"testing"

	"ledgerd/impl/sbpf"
)

// Per-call cost of the syscalls programs call most, without the interpreter.
func BenchmarkSyscalls(b *testing.B) {
	buf := putSlices(make([]byte, 4096), 0, make([]byte, 64))
	cases := []struct {
		name string
		fn   sbpf.Syscall
		args [5]uint64
	}{
		{"memcpy64", memcpy, [5]uint64{in + 1024, in + 2048, 64}},
		{"memcmp64", memcmp, [5]uint64{in + 1024, in + 2048, 64, in + 3072}},
		{"memset64", memset, [5]uint64{in + 1024, 0, 64}},
		{"sha256_64", hashSyscall(SHA256), [5]uint64{in, 1, in + 3072}},
		{"log_64", log64, [5]uint64{1, 2, 3, 4, 5}},
		{"remaining", remainingComputeUnits, [5]uint64{}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			e := newEnv(b, buf, nil, 1<<62)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.fn(e.vm, c.args[0], c.args[1], c.args[2], c.args[3], c.args[4]); err != nil {
					b.Fatal(err)
				}
				e.host.logs = e.host.logs[:0]
			}
		})
	}
}
