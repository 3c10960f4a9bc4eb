package ledger

import (
	"context"
	"fmt"
	"testing"
	"time"

	"ledgerd/impl/core"
)

// BenchmarkReplay measures a replica's replay of a leader's blocks of SOL transfers (signature checks, execution,
// the byte-for-byte comparison of every record, the synced write of each block): the rate a follower keeps up
// with. The leader's blocks (1,000 transfers each, from 256 payers) are made before the clock starts.
//
//	go test -run '^$' -bench Replay -benchtime 20000x ./impl/ledger
func BenchmarkReplay(b *testing.B) {
	leader, err := Open(Config{Dir: b.TempDir(), FinalityDepth: 32, BlockProduction: ProduceOnRequest})
	if err != nil {
		b.Fatal(err)
	}
	defer leader.Close()
	ctx := context.Background()
	const payers, perBlock = 256, 1000
	keys := make([]core.Keypair, payers)
	for i := range keys {
		var seed [32]byte
		copy(seed[:], fmt.Sprintf("replay bench payer %d", i))
		keys[i] = core.KeypairFromSeed(seed)
		if _, err := leader.Airdrop(ctx, keys[i].PublicKey(), 100*LamportsPerSOL); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := leader.AdvanceSlots(ctx, 1); err != nil {
		b.Fatal(err)
	}
	_, first, _ := leader.Slots()
	first++
	for i := 0; i < b.N; i++ {
		if i > 0 && i%perBlock == 0 {
			if _, err := leader.AdvanceSlots(ctx, 1); err != nil {
				b.Fatal(err)
			}
		}
		tx := core.NewTransferTx(keys[i%payers], keys[(i+1)%payers].PublicKey(), 1_000+uint64(i), leader.Bank(Processed).LastBlockhash())
		if ex, err := leader.Execute(ctx, tx); err != nil || ex.Result.Err != nil {
			b.Fatalf("transfer %d: %v", i, err)
		}
	}
	if _, err := leader.AdvanceSlots(ctx, 1); err != nil {
		b.Fatal(err)
	}
	r := openReplicaOfB(b, leader)
	// Catch up to the blocks of the transfers, then time their replay.
	var blocks []RawBlock
	for next := uint64(1); ; {
		got, confirmed, _, _, err := leader.BlockRecords(next, 64, 64<<20)
		if err != nil {
			b.Fatal(err)
		}
		blocks = append(blocks, got...)
		if next = got[len(got)-1].Slot + 1; next > confirmed {
			break
		}
	}
	var i int
	for ; blocks[i].Slot < first; i++ {
		if err := r.ReplayBlock(ctx, &blocks[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.ResetTimer()
	start := time.Now()
	for ; i < len(blocks); i++ {
		if err := r.ReplayBlock(ctx, &blocks[i]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "tx/s")
}

func openReplicaOfB(b *testing.B, leader *Ledger) *Ledger {
	g, err := leader.GenesisRecord()
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	if err := WriteReplicaGenesis(dir, g.Config); err != nil {
		b.Fatal(err)
	}
	r, err := Open(Config{Dir: dir, Replica: true, FinalityDepth: g.FinalityDepth, WarpSlot: g.Slot})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { r.Close() })
	return r
}
