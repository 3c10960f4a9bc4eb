package runtime_test

import (
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

// BenchmarkExecuteTransfer executes a signed system transfer and commits its writes, as a
// bank does after signature verification (which is not included).
func BenchmarkExecuteTransfer(b *testing.B) {
	h := newHarness(b)
	payer, to := key(1), key(2).PublicKey()
	h.fund(payer.PublicKey(), 1e18)
	h.fund(to, 1e9)
	tx := h.tx([]core.Instruction{system.Transfer(payer.PublicKey(), to, 1)}, payer)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		res := runtime.Execute(h.env, h.accs, tx, runtime.Options{})
		if res.Err != nil {
			b.Fatal(res.Err)
		}
		h.accs.Apply(res.Writes)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
}
