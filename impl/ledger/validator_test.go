package ledger

import (
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/vote"
)

// The node votes for each slot in the next block, earns credits, and at the epoch boundary records the stake
// history and pays its stake account the epoch's inflation. (Epoch 0 earns nothing: votes earn credits once
// rooted, and the tower roots its first vote only after 31 more.)
func TestVotesAndEpochRewards(t *testing.T) {
	l, err := Open(Config{Dir: t.TempDir(), SlotDuration: 5 * time.Millisecond, FinalityDepth: 2,
		Genesis: GenesisOptions{SlotsPerEpoch: 32}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	waitFor(t, "the third epoch's first block", func() bool { _, c, _ := l.Slots(); return c >= 66 })

	block, found, err := l.Block(5, Confirmed)
	if err != nil || !found || len(block.Signatures) == 0 {
		t.Fatalf("block 5 has no vote: %v %v", err, found)
	}
	rec, _, _ := l.Transaction(block.Signatures[0], Confirmed)
	if !vote.IsSimpleVoteTransaction(rec.Tx) || rec.Meta.Err != nil {
		t.Fatalf("first transaction of block 5 is not a successful vote: %v", rec.Meta.Err)
	}

	bank := l.Bank(Confirmed)
	va, _ := bank.GetAccount(l.VoteAccount())
	vs, err := vote.Decode(va.Data)
	if err != nil || vs.Credits() == 0 || vs.RootSlot == nil {
		t.Fatalf("vote state: credits %d root %v err %v", vs.Credits(), vs.RootSlot, err)
	}
	if _, ok := bank.StakeHistory().Get(0); !ok {
		t.Fatal("no stake history entry for epoch 0")
	}
	rewards, slot, found, err := l.InflationRewards(1, Confirmed)
	if err != nil || !found || slot != 64 {
		t.Fatalf("rewards of epoch 1: %v %v slot %d", err, found, slot)
	}
	var staking *Reward
	for i := range rewards {
		if rewards[i].RewardType == "Staking" && rewards[i].Pubkey == l.StakeAccount() {
			staking = &rewards[i]
		}
	}
	if staking == nil || staking.Lamports <= 0 {
		t.Fatalf("no staking reward in %+v", rewards)
	}
	sa, _ := bank.GetAccount(l.StakeAccount())
	if sa.Lamports < BootstrapStakeLamports+uint64(staking.Lamports) {
		t.Fatalf("stake account %d not credited", sa.Lamports)
	}
	_ = core.StakeProgramID
}
