package ledger

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// openReplicaOf starts a replica of leader in a new directory from the leader's genesis.json.
func openReplicaOf(t *testing.T, leader *Ledger) *Ledger {
	t.Helper()
	g, err := leader.GenesisRecord()
	if err != nil || !g.SlotFound {
		t.Fatalf("genesis record: %v (genesis block held: %v)", err, g != nil && g.SlotFound)
	}
	dir := t.TempDir()
	if err := WriteReplicaGenesis(dir, g.Config); err != nil {
		t.Fatal(err)
	}
	r, err := Open(Config{Dir: dir, Replica: true, FinalityDepth: g.FinalityDepth, WarpSlot: g.Slot})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// replayAll replays every confirmed block of leader the replica has not.
func replayAll(t *testing.T, leader, r *Ledger) error {
	t.Helper()
	for {
		_, next, _ := r.Slots()
		next++
		blocks, _, _, _, err := leader.BlockRecords(next, 10, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if len(blocks) == 0 {
			return nil
		}
		for i := range blocks {
			if err := r.ReplayBlock(context.Background(), &blocks[i]); err != nil {
				return err
			}
		}
	}
}

// A replica replaying a leader's blocks (transfers, failed transactions, votes, fees) stores the same records and
// reaches the same accounts; it refuses what would make a slot of its own.
func TestReplicaReplaysLeader(t *testing.T) {
	t.Parallel()
	leader := openMode(t, ProduceOnRequest, 2)
	leader.Start()
	ctx := context.Background()
	alice, bob := newKey(t), newKey(t)
	if _, err := leader.Airdrop(ctx, alice.PublicKey(), 10*LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	if _, err := leader.AdvanceSlots(ctx, 1); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		tx := core.NewTransferTx(alice, bob.PublicKey(), uint64(1_000_000+i), leader.Bank(Processed).LastBlockhash())
		if _, err := leader.Execute(ctx, tx); err != nil {
			t.Fatal(err)
		}
	}
	// A failed transaction (more than alice holds) pays its fee and is replayed failed.
	over := core.NewTransferTx(alice, bob.PublicKey(), 100*LamportsPerSOL, leader.Bank(Processed).LastBlockhash())
	if ex, err := leader.Execute(ctx, over); err != nil || ex.Result.Err == nil {
		t.Fatalf("overdraft: %v %v", err, ex)
	}
	if _, err := leader.AdvanceSlots(ctx, 4); err != nil {
		t.Fatal(err)
	}

	r := openReplicaOf(t, leader)
	if err := replayAll(t, leader, r); err != nil {
		t.Fatal(err)
	}
	_, lc, lf := leader.Slots()
	_, rc, rf := r.Slots()
	if lc != rc || lf != rf {
		t.Fatalf("replica at confirmed %d finalized %d, leader %d %d", rc, rf, lc, lf)
	}
	for s := uint64(0); s <= lc; s++ {
		a, _ := leader.RawBlock(s)
		b, _ := r.RawBlock(s)
		if !bytes.Equal(a, b) {
			t.Fatalf("block %d differs", s)
		}
	}
	for _, k := range []core.Pubkey{alice.PublicKey(), bob.PublicKey(), leader.Genesis.Identity.PublicKey(), leader.VoteAccount()} {
		a, _ := leader.Bank(Confirmed).GetAccount(k)
		b, _ := r.Bank(Confirmed).GetAccount(k)
		if a.Lamports != b.Lamports || !bytes.Equal(a.Data, b.Data) {
			t.Errorf("account %s: leader %d lamports, replica %d", k, a.Lamports, b.Lamports)
		}
	}
	if _, err := r.Execute(ctx, core.NewTransferTx(alice, bob.PublicKey(), 1, r.Bank(Processed).LastBlockhash())); !errors.Is(err, ErrReplica) {
		t.Errorf("a transaction executed on a replica: %v", err)
	}
	if _, err := r.AdvanceSlots(ctx, 1); !errors.Is(err, ErrReplica) {
		t.Errorf("a slot advanced on a replica: %v", err)
	}
	if _, err := r.Airdrop(ctx, bob.PublicKey(), 1); err == nil {
		t.Errorf("an airdrop on a replica succeeded")
	}
}

// A block whose records the replica cannot reproduce stops the replica before anything of it is stored: a
// transaction record that differs, a block record that differs (capitalization), a parent that is not the
// replica's newest block. A signature that does not verify is refused likewise.
func TestReplicaDivergence(t *testing.T) {
	t.Parallel()
	leader := openMode(t, ProduceOnRequest, 2)
	leader.Start()
	ctx := context.Background()
	alice := newKey(t)
	if _, err := leader.Airdrop(ctx, alice.PublicKey(), LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	if _, err := leader.AdvanceSlots(ctx, 2); err != nil {
		t.Fatal(err)
	}
	_, tip, _ := leader.Slots()
	blocks, _, _, _, err := leader.BlockRecords(1, 10, 1<<20)
	if err != nil || len(blocks) != int(tip) {
		t.Fatalf("records: %v, %d blocks", err, len(blocks))
	}
	withTx := -1
	for i, b := range blocks {
		if len(b.Transactions) > 1 { // the airdrop beside the vote
			withTx = i
		}
	}
	if withTx < 0 {
		t.Fatal("no block holds the airdrop")
	}

	for _, c := range []struct {
		name string
		edit func(b *RawBlock)
		want string
	}{
		{"a transaction record", func(b *RawBlock) {
			tx, meta, _ := decodeTx(b.Transactions[len(b.Transactions)-1])
			meta.Fee++
			b.Transactions[len(b.Transactions)-1] = encodeTx(tx, meta)
		}, "fee 5000 here, 5001 on the leader"},
		{"the block record", func(b *RawBlock) {
			info, _ := decodeBlock(b.Block)
			info.Capitalization--
			b.Block = encodeBlock(info)
		}, "capitalization"},
		{"a signature", func(b *RawBlock) {
			tx, meta, _ := decodeTx(b.Transactions[len(b.Transactions)-1])
			tx.Message.Instructions[0].Data[4] ^= 1 // the amount: the signature no longer covers the message
			b.Transactions[len(b.Transactions)-1] = encodeTx(tx, meta)
		}, "does not verify"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := openReplicaOf(t, leader)
			for i := range withTx {
				if err := r.ReplayBlock(ctx, &blocks[i]); err != nil {
					t.Fatal(err)
				}
			}
			_, before, _ := r.Slots()
			b := blocks[withTx]
			b.Transactions = append([][]byte(nil), b.Transactions...)
			c.edit(&b)
			err := r.ReplayBlock(ctx, &b)
			if !errors.Is(err, ErrDiverged) || !bytes.Contains([]byte(err.Error()), []byte(c.want)) {
				t.Fatalf("replay: %v, want a divergence naming %q", err, c.want)
			}
			if _, after, _ := r.Slots(); after != before {
				t.Errorf("confirmed moved from %d to %d on a diverged block", before, after)
			}
			if raw, _ := r.RawBlock(b.Slot); raw != nil {
				t.Errorf("the diverged block was stored")
			}
			// The leader's true block is refused too: the replica stopped.
			if err := r.ReplayBlock(ctx, &blocks[withTx]); !errors.Is(err, ErrDiverged) {
				t.Errorf("replay after a divergence: %v", err)
			}
		})
	}

	t.Run("a parent that is not the replica's", func(t *testing.T) {
		r := openReplicaOf(t, leader)
		if err := r.ReplayBlock(ctx, &blocks[0]); err != nil {
			t.Fatal(err)
		}
		info, _ := decodeBlock(blocks[1].Block)
		info.PreviousBlockhash[0] ^= 1
		b := blocks[1]
		b.Block = encodeBlock(info)
		if err := r.ReplayBlock(ctx, &b); !errors.Is(err, ErrDiverged) || !bytes.Contains([]byte(err.Error()), []byte("chain changed")) {
			t.Fatalf("replay: %v", err)
		}
	})
}

// A cheat write is recorded as the leader's cheat slot, before the slot is frozen.
func TestCheatSlotRecorded(t *testing.T) {
	t.Parallel()
	l := openMode(t, ProduceOnRequest, 2)
	l.Start()
	ctx := context.Background()
	if _, found, _ := l.CheatSlot(); found {
		t.Fatal("a fresh ledger has a cheat slot")
	}
	k := newKey(t).PublicKey()
	slot, err := l.Cheat(ctx, func(AccountReader, func(core.Pubkey) ([]core.Pubkey, error)) ([]runtime.AccountWrite, error) {
		return []runtime.AccountWrite{{Pubkey: k, Account: runtime.Account{Lamports: 5, Owner: core.SystemProgramID}}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, found, _ := l.CheatSlot(); !found || got != slot {
		t.Fatalf("cheat slot %d (found %v), want %d", got, found, slot)
	}
}

// A follower's directory holding another chain's genesis is refused.
func TestWriteReplicaGenesisRefusesAnotherChain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, GenesisFile), []byte(`{"creationTime":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteReplicaGenesis(dir, []byte(`{"creationTime":2}`)); err == nil {
		t.Fatal("another chain's genesis was accepted")
	}
}

// A replica crosses epoch boundaries with its leader: the stake history and the inflation rewards it pays in the
// first block of an epoch are the leader's, so the blocks' records (rewards, capitalization) agree.
func TestReplicaAcrossEpochs(t *testing.T) {
	t.Parallel()
	leader, err := Open(Config{Dir: t.TempDir(), FinalityDepth: 2, BlockProduction: ProduceOnRequest,
		Genesis: GenesisOptions{SlotsPerEpoch: 32}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { leader.Close() })
	if _, err := leader.AdvanceSlots(context.Background(), 70); err != nil {
		t.Fatal(err)
	}
	r := openReplicaOf(t, leader)
	if err := replayAll(t, leader, r); err != nil {
		t.Fatal(err)
	}
	info, found, err := r.Block(64, Confirmed)
	if err != nil || !found {
		t.Fatalf("block 64: %v", err)
	}
	paid := 0
	for _, rw := range info.Rewards {
		if rw.RewardType == "Staking" || rw.RewardType == "Voting" {
			paid++
		}
	}
	if paid == 0 {
		t.Errorf("the first block of epoch 2 paid no inflation rewards: %+v", info.Rewards)
	}
	if _, c, _ := r.Slots(); c != 70 {
		t.Errorf("replica at slot %d", c)
	}
}
