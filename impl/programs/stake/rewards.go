package stake

import (
	"math/big"

	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/vote"
)

// Inflation rewards, as the bank computes them at an epoch boundary (Agave 2.1's points.rs and
// rewards.rs): every delegation earns points = effective stake × credits its vote account
// earned, epoch by epoch, since the stake last observed them; the epoch's rewards are shared in
// proportion to points, and the vote account's commission is taken off each share.

// Points is an unsigned 128-bit count of points.
type Points = sysvar.Uint128

func toBig(p Points) *big.Int {
	v := new(big.Int).SetUint64(p.Hi)
	v.Lsh(v, 64)
	return v.Or(v, new(big.Int).SetUint64(p.Lo))
}

func fromBig(v *big.Int) Points {
	lo := new(big.Int).And(v, new(big.Int).SetUint64(^uint64(0)))
	hi := new(big.Int).Rsh(v, 64)
	return Points{Lo: lo.Uint64(), Hi: hi.Uint64()}
}

// AddPoints returns a+b (wrapping at 2^128, which real totals never reach).
func AddPoints(a, b Points) Points {
	lo := a.Lo + b.Lo
	carry := uint64(0)
	if lo < a.Lo {
		carry = 1
	}
	return Points{Lo: lo, Hi: a.Hi + b.Hi + carry}
}

// PointValue is an epoch's rewards and the points they are shared over.
type PointValue struct {
	Rewards uint64
	Points  Points
}

// stakePoints is what a delegation earned against a vote state.
type stakePoints struct {
	points             *big.Int
	newCreditsObserved uint64
	// forceCreditsUpdate: credits went backwards (a recreated vote account); credits observed
	// must follow even though nothing is paid.
	forceCreditsUpdate bool
}

func calculateStakePoints(st Stake, credits []vote.EpochCredits, creditsInVote uint64, history sysvar.StakeHistory, newRateActivationEpoch *uint64) stakePoints {
	creditsInStake := st.CreditsObserved
	switch {
	case creditsInVote < creditsInStake:
		return stakePoints{points: new(big.Int), newCreditsObserved: creditsInVote, forceCreditsUpdate: true}
	case creditsInVote == creditsInStake:
		return stakePoints{points: new(big.Int), newCreditsObserved: creditsInStake}
	}
	points := new(big.Int)
	newObserved := creditsInStake
	for _, c := range credits {
		stake := st.Delegation.EffectiveStake(c.Epoch, history, newRateActivationEpoch)
		var earned uint64
		switch {
		case creditsInStake < c.PrevCredits:
			earned = c.Credits - c.PrevCredits // observed the whole epoch
		case creditsInStake < c.Credits:
			earned = c.Credits - newObserved // delegated during the epoch
		}
		newObserved = max(newObserved, c.Credits)
		points.Add(points, new(big.Int).Mul(new(big.Int).SetUint64(stake), new(big.Int).SetUint64(earned)))
	}
	return stakePoints{points: points, newCreditsObserved: newObserved}
}

// CalculatePoints returns the points a delegated stake account has earned against its vote
// account's state, over all of its credit history (the reference's calculate_points, summed
// over all delegations to find an epoch's point value). Other states earn none.
func CalculatePoints(s State, voteState *vote.State, history sysvar.StakeHistory, newRateActivationEpoch *uint64) Points {
	if s.Kind != StateStake {
		return Points{}
	}
	return fromBig(calculateStakePoints(s.Stake, voteState.EpochCredits, voteState.Credits(), history, newRateActivationEpoch).points)
}

// Rewards is the outcome of redeeming one stake account's rewards for an epoch.
type Rewards struct {
	// Staker is credited to the stake account (and added to its delegation); Voter to the
	// vote account as commission.
	Staker, Voter uint64
	// State is the stake account's new state: stake and credits observed updated.
	State State
}

// RedeemRewards computes a delegated stake account's rewards for rewardedEpoch given the
// epoch's point value (the reference's redeem_rewards). ok is false when nothing is paid and
// credits observed stay as they are (NoCreditsToRedeem in the reference); a zero payout with
// ok true still advances credits observed (inflation disabled, just activated, or credits gone
// back), and the caller stores State.
func RedeemRewards(rewardedEpoch uint64, s State, voteState *vote.State, pv PointValue, history sysvar.StakeHistory, newRateActivationEpoch *uint64) (Rewards, bool) {
	if s.Kind != StateStake {
		return Rewards{}, false
	}
	st := s.Stake
	var credits []vote.EpochCredits
	for _, c := range voteState.EpochCredits {
		if c.Epoch > rewardedEpoch {
			break
		}
		credits = append(credits, c)
	}
	sp := calculateStakePoints(st, credits, voteState.CreditsForRecentEpoch(rewardedEpoch), history, newRateActivationEpoch)
	force := sp.forceCreditsUpdate || pv.Rewards == 0 || st.Delegation.ActivationEpoch == rewardedEpoch
	var staker, voter uint64
	if !force {
		total := toBig(pv.Points)
		if sp.points.Sign() == 0 || total.Sign() == 0 {
			return Rewards{}, false
		}
		r := new(big.Int).Mul(sp.points, new(big.Int).SetUint64(pv.Rewards))
		r.Quo(r, total)
		if !r.IsUint64() || r.Uint64() == 0 {
			// The reference unwraps the conversion; a reward above u64 cannot happen with
			// consistent point values.
			return Rewards{}, false
		}
		var split bool
		voter, staker, split = voteState.CommissionSplit(r.Uint64())
		if split && (voter == 0 || staker == 0) {
			// Do not move credits observed when a whole lamport would be lost on one side.
			return Rewards{}, false
		}
	}
	st.CreditsObserved = sp.newCreditsObserved
	st.Delegation.Stake += staker
	s.Stake = st
	return Rewards{Staker: staker, Voter: voter, State: s}, true
}
