package ledger

import (
	"bytes"
	"context"
	"testing"

	"ledgerd/impl/core"
)

// FuzzReplayBlock hands a new replica an arbitrary block record and transaction records for its first slot after
// genesis, seeded with a leader's real first block: the replay never panics, and a block it accepts is stored as
// the record it was given, byte for byte.
//
//	go test -run '^$' -fuzz FuzzReplayBlock -fuzztime 60s ./impl/ledger
func FuzzReplayBlock(f *testing.F) {
	leader, err := Open(Config{Dir: f.TempDir(), FinalityDepth: 2, BlockProduction: ProduceOnRequest})
	if err != nil {
		f.Fatal(err)
	}
	defer leader.Close()
	ctx := context.Background()
	alice := core.KeypairFromSeed([32]byte{9})
	if _, err := leader.Airdrop(ctx, alice.PublicKey(), LamportsPerSOL); err != nil {
		f.Fatal(err)
	}
	if _, err := leader.AdvanceSlots(ctx, 1); err != nil {
		f.Fatal(err)
	}
	blocks, _, _, _, err := leader.BlockRecords(1, 1, 1<<20)
	if err != nil || len(blocks) != 1 {
		f.Fatalf("records: %v", err)
	}
	g, err := leader.GenesisRecord()
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	if err := WriteReplicaGenesis(dir, g.Config); err != nil {
		f.Fatal(err)
	}
	b := blocks[0]
	f.Add(b.Block, b.Transactions[0], []byte(nil), uint8(1))
	if len(b.Transactions) > 1 {
		f.Add(b.Block, b.Transactions[0], b.Transactions[1], uint8(2))
	}
	f.Add([]byte{1}, []byte{1, 0}, []byte(nil), uint8(0))
	// A replica is reused while inputs leave it untouched (most do not decode); one that replayed or diverged is
	// replaced.
	var r *Ledger
	defer func() {
		if r != nil {
			r.Close()
		}
	}()
	f.Fuzz(func(t *testing.T, block, tx0, tx1 []byte, n uint8) {
		if r != nil {
			if _, c, _ := r.Slots(); c != 0 || r.Diverged() != nil {
				r.Close()
				r = nil
			}
		}
		if r == nil {
			if r, err = Open(Config{Dir: dir, Replica: true, StoreInMemory: true, FinalityDepth: g.FinalityDepth}); err != nil {
				t.Fatal(err)
			}
		}
		rb := &RawBlock{Slot: 1, Block: block, Transactions: [][]byte{tx0, tx1}[:min(n, 2)]}
		if err := r.ReplayBlock(ctx, rb); err != nil {
			return
		}
		if stored, _ := r.RawBlock(1); !bytes.Equal(stored, block) {
			t.Fatalf("accepted block stored as %x, given %x", stored, block)
		}
	})
}
