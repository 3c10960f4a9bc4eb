package bigtable

import (
	"context"
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// BenchmarkUpload uploads 40 rooted slots of 25 transfers each (and their votes) to the in-memory emulator,
// through the uploader as a node runs it (reading each block from the ledger, then writing its rows), and
// reports slots and transactions a second. go test -run - -bench Upload ./impl/bigtable
func BenchmarkUpload(b *testing.B) {
	l := chainB(b)
	ctx := context.Background()
	payers := make([]core.Keypair, 25)
	faucet := l.Genesis.Faucet
	for i := range payers {
		payers[i], _ = core.NewKeypair()
	}
	if _, err := l.AdvanceSlots(ctx, 1); err != nil {
		b.Fatal(err)
	}
	hash := l.Bank(ledger.Processed).LastBlockhash()
	for _, p := range payers {
		if _, err := l.Execute(ctx, core.NewTransferTx(faucet, p.PublicKey(), 1_000_000_000, hash)); err != nil {
			b.Fatal(err)
		}
	}
	const slots = 40
	for s := range slots {
		if _, err := l.AdvanceSlots(ctx, 1); err != nil {
			b.Fatal(err)
		}
		hash = l.Bank(ledger.Processed).LastBlockhash()
		for i, p := range payers {
			to := payers[(i+1)%len(payers)].PublicKey()
			if _, err := l.Execute(ctx, core.NewTransferTx(p, to, uint64(1000+s), hash)); err != nil {
				b.Fatal(err)
			}
		}
	}
	if _, err := l.AdvanceSlots(ctx, 1); err != nil {
		b.Fatal(err)
	}
	_, _, root := l.Slots()
	first := root - slots + 1
	var txs uint64
	b.ResetTimer()
	for range b.N {
		// Each round writes into a new emulator: every slot is written once, as a node writes it.
		b.StopTimer()
		c, _ := emulatorTimeout(b, 10*time.Second)
		b.StartTimer()
		u, err := NewUploader(c, l, UploaderConfig{Logger: quiet})
		if err != nil {
			b.Fatal(err)
		}
		u.last, u.haveLast = first-1, true
		if err := u.catchUp(ctx); err != nil {
			b.Fatal(err)
		}
		_, n := u.Counts()
		txs += n
	}
	b.StopTimer()
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(slots*b.N)/sec, "slots/s")
	b.ReportMetric(float64(txs)/sec, "tx/s")
}

func chainB(b *testing.B) *ledger.Ledger {
	l, err := ledger.Open(ledger.Config{Dir: b.TempDir(), FinalityDepthZero: true, BlockProduction: ledger.ProduceOnRequest,
		Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { l.Stop(); l.Close() })
	return l
}
