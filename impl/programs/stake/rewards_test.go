package stake_test

import (
	"testing"

	"ledgerd/impl/programs/stake"
	"ledgerd/impl/programs/vote"
)

// The reference's calculate_rewards cases: a bootstrap stake of 1 lamport against a vote
// account earning a few credits.
func TestRedeemRewards(t *testing.T) {
	t.Parallel()
	rate := ptr(stake.PerpetualNewRateActivationEpoch)
	vs := &vote.State{}
	s := delegated(1, never, never)
	s.Stake.CreditsObserved = 0
	pv := func(rewards, points uint64) stake.PointValue {
		return stake.PointValue{Rewards: rewards, Points: stake.Points{Lo: points}}
	}
	redeem := func(epoch, observed uint64, p stake.PointValue) (stake.Rewards, bool) {
		st := s
		st.Stake.CreditsObserved = observed
		return stake.RedeemRewards(epoch, st, vs, p, nil, rate)
	}
	expect := func(name string, got stake.Rewards, ok bool, wantOK bool, staker, voter, observed uint64) {
		t.Helper()
		if ok != wantOK || (ok && (got.Staker != staker || got.Voter != voter || got.State.Stake.CreditsObserved != observed ||
			got.State.Stake.Delegation.Stake != 1+staker)) {
			t.Errorf("%s: %+v %v, want %v (%d, %d, observed %d)", name, got, ok, wantOK, staker, voter, observed)
		}
	}
	r, ok := redeem(0, 0, pv(1_000_000_000, 1))
	expect("no credits", r, ok, false, 0, 0, 0)

	vs.IncrementCredits(0, 1)
	vs.IncrementCredits(0, 1)
	r, ok = redeem(0, 0, pv(2, 2))
	expect("two credits", r, ok, true, 2, 0, 2)
	r, ok = redeem(0, 1, pv(1, 1))
	expect("one already observed", r, ok, true, 1, 0, 2)

	vs.IncrementCredits(1, 1)
	r, ok = redeem(1, 2, pv(2, 2))
	expect("epoch 1", r, ok, true, 1, 0, 3)

	vs.IncrementCredits(2, 1)
	r, ok = redeem(2, 2, pv(2, 2))
	expect("epochs 1 and 2", r, ok, true, 2, 0, 4)
	r, ok = redeem(2, 0, pv(4, 4))
	expect("everything", r, ok, true, 4, 0, 4)
	// Only epochs up to the rewarded one count.
	r, ok = redeem(1, 0, pv(3, 3))
	expect("through epoch 1", r, ok, true, 3, 0, 3)

	// A commission that would leave one side without a whole lamport pays nothing.
	vs.Commission = 1
	r, ok = redeem(2, 0, pv(4, 4))
	expect("commission 1", r, ok, false, 0, 0, 0)
	vs.Commission = 99
	r, ok = redeem(2, 0, pv(4, 4))
	expect("commission 99", r, ok, false, 0, 0, 0)
	vs.Commission = 50
	r, ok = redeem(2, 0, pv(4, 4))
	expect("commission 50", r, ok, true, 2, 2, 4)

	// No inflation: nothing paid, credits observed move on.
	vs.Commission = 0
	r, ok = redeem(2, 0, pv(0, 4))
	expect("inflation disabled", r, ok, true, 0, 0, 4)
	// Just activated: same.
	just := s
	just.Stake.Delegation.ActivationEpoch = 2
	r, ok = stake.RedeemRewards(2, just, vs, pv(4, 4), nil, rate)
	expect("just activated", r, ok, true, 0, 0, 4)
	// Credits went backwards (the vote account was recreated): observed follows them down.
	r, ok = redeem(2, 10, pv(4, 4))
	expect("rewound", r, ok, true, 0, 0, 4)

	if p := stake.CalculatePoints(s, vs, nil, rate); p != (stake.Points{Lo: 4}) {
		t.Errorf("points %+v", p)
	}
	if p := stake.CalculatePoints(initialized(stake.Lockup{}), vs, nil, rate); p != (stake.Points{}) {
		t.Errorf("points of an undelegated account %+v", p)
	}
}

func TestPointsBeyond64Bits(t *testing.T) {
	t.Parallel()
	vs := &vote.State{}
	vs.IncrementCredits(0, 1<<40)
	s := delegated(1<<40, never, never)
	s.Stake.CreditsObserved = 0
	p := stake.CalculatePoints(s, vs, nil, nil)
	if p != (stake.Points{Hi: 1 << 16}) {
		t.Fatalf("points %+v", p)
	}
	sum := stake.AddPoints(p, stake.Points{Lo: ^uint64(0)})
	if sum != (stake.Points{Hi: 1 << 16, Lo: ^uint64(0)}) || stake.AddPoints(sum, stake.Points{Lo: 1}) != (stake.Points{Hi: 1<<16 + 1}) {
		t.Fatalf("sum %+v", sum)
	}
	// Half the points get half the rewards.
	r, ok := stake.RedeemRewards(0, s, vs, stake.PointValue{Rewards: 1000, Points: stake.Points{Hi: 1 << 17}}, nil, nil)
	if !ok || r.Staker != 500 {
		t.Fatalf("rewards %+v %v", r, ok)
	}
}
