package ledger

import (
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/stake"
)

// The banks' Env.EpochStake reports the genesis stake delegated to the node's vote account, and it as the
// total, for the working bank and for a bank restored from the store; any other address has none.
func TestEpochStakeOfGenesis(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(Config{Dir: dir, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	sa, _ := l.Bank(Processed).GetAccount(l.StakeAccount())
	st, err := stake.Decode(sa.Data)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := st.Delegation()
	if !ok || d.VoterPubkey != l.VoteAccount() || d.Stake == 0 {
		t.Fatalf("genesis stake delegation %+v, %v", d, ok)
	}
	check := func(b *Bank, what string) {
		t.Helper()
		if b.Env.EpochStake == nil {
			t.Fatalf("%s: no EpochStake", what)
		}
		vote, other := l.VoteAccount(), core.Pubkey{9}
		if got := b.Env.EpochStake(nil); got != d.Stake {
			t.Errorf("%s: total epoch stake %d, want %d", what, got, d.Stake)
		}
		if got := b.Env.EpochStake(&vote); got != d.Stake {
			t.Errorf("%s: the vote account's epoch stake %d, want %d", what, got, d.Stake)
		}
		if got := b.Env.EpochStake(&other); got != 0 {
			t.Errorf("%s: another address's epoch stake %d, want 0", what, got)
		}
	}
	check(l.Bank(Processed), "working bank")
	l.Close()
	l, err = Open(Config{Dir: dir, Paused: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	check(l.Bank(Finalized), "restored bank")
}
