package stake

import (
	"math"

	"ledgerd/impl/core/sysvar"
)

// Warmup and cooldown: each epoch, at most a rate of the cluster's effective stake may become
// effective (or stop being effective); a delegation gets its share of that allowance in
// proportion to its part of the cluster's activating (deactivating) stake, as recorded in the
// StakeHistory sysvar. The arithmetic is the reference's f64 one (Agave 2.1's
// stake_activating_and_deactivating), so results match to the lamport.

// The warmup/cooldown rates: the original one, and the one after feature
// reduce_stake_warmup_cooldown.
const (
	DefaultWarmupCooldownRate = 0.25
	NewWarmupCooldownRate     = 0.09
)

// PerpetualNewRateActivationEpoch is the new-rate activation epoch the stake program itself
// uses: as long as everything it checks has been fully (de)activated once since the rate
// changed, pretending the new rate always applied changes nothing, so it does.
const PerpetualNewRateActivationEpoch uint64 = 0

// WarmupCooldownRate returns the rate in effect at epoch; newRateActivationEpoch is the epoch
// the new rate took effect in (nil: never).
func WarmupCooldownRate(epoch uint64, newRateActivationEpoch *uint64) float64 {
	if newRateActivationEpoch == nil || epoch < *newRateActivationEpoch {
		return DefaultWarmupCooldownRate
	}
	return NewWarmupCooldownRate
}

// Status is how much of a delegation is effective, activating and deactivating at an epoch
// (the reference's StakeActivationStatus, which is a StakeHistoryEntry; summing the statuses of
// all delegations gives an epoch's StakeHistory entry).
type Status = sysvar.StakeHistoryEntry

// AddStatus returns a+b, saturating like the reference's StakeHistoryEntry addition.
func AddStatus(a, b Status) Status {
	return Status{
		Effective:    satAdd(a.Effective, b.Effective),
		Activating:   satAdd(a.Activating, b.Activating),
		Deactivating: satAdd(a.Deactivating, b.Deactivating),
	}
}

// f64ToU64 converts as Rust's `as u64` does: saturating, NaN to 0.
func f64ToU64(f float64) uint64 {
	switch {
	case f != f || f <= 0:
		return 0
	case f >= 18446744073709551615.0:
		return math.MaxUint64
	}
	return uint64(f)
}

// EffectiveStake returns the effective stake of d at epoch.
func (d Delegation) EffectiveStake(epoch uint64, history sysvar.StakeHistory, newRateActivationEpoch *uint64) uint64 {
	return d.ActivationStatus(epoch, history, newRateActivationEpoch).Effective
}

// ActivationStatus returns the effective, activating and deactivating stake of d at epoch
// given the StakeHistory (the reference's stake_activating_and_deactivating).
func (d Delegation) ActivationStatus(epoch uint64, history sysvar.StakeHistory, newRateActivationEpoch *uint64) Status {
	effective, activating := d.stakeAndActivating(epoch, history, newRateActivationEpoch)
	switch {
	case epoch < d.DeactivationEpoch:
		return Status{Effective: effective, Activating: activating}
	case epoch == d.DeactivationEpoch:
		// Only what was effective can deactivate.
		return Status{Effective: effective, Deactivating: effective}
	}
	prev, ok := history.Get(d.DeactivationEpoch)
	if !ok {
		// No history, or out of it: fully deactivated.
		return Status{}
	}
	prevEpoch := d.DeactivationEpoch
	current := effective
	for {
		currentEpoch := prevEpoch + 1
		if prev.Deactivating == 0 {
			break
		}
		weight := float64(current) / float64(prev.Deactivating)
		rate := WarmupCooldownRate(currentEpoch, newRateActivationEpoch)
		clusterAllowance := float64(prev.Effective) * rate
		newlyNotEffective := max(f64ToU64(weight*clusterAllowance), 1)
		current = satSub(current, newlyNotEffective)
		if current == 0 || currentEpoch >= epoch {
			break
		}
		next, ok := history.Get(currentEpoch)
		if !ok {
			break
		}
		prevEpoch, prev = currentEpoch, next
	}
	return Status{Effective: current, Deactivating: current}
}

// stakeAndActivating returns the effective and activating stake before deactivation.
func (d Delegation) stakeAndActivating(epoch uint64, history sysvar.StakeHistory, newRateActivationEpoch *uint64) (effective, activating uint64) {
	delegated := d.Stake
	switch {
	case d.IsBootstrap():
		return delegated, 0
	case d.ActivationEpoch == d.DeactivationEpoch:
		// Deactivated in the epoch it was delegated: never any stake.
		return 0, 0
	case epoch == d.ActivationEpoch:
		return 0, delegated
	case epoch < d.ActivationEpoch:
		return 0, 0
	}
	prev, ok := history.Get(d.ActivationEpoch)
	if !ok {
		// No history, or out of it: fully effective.
		return delegated, 0
	}
	prevEpoch := d.ActivationEpoch
	var current uint64
	for {
		currentEpoch := prevEpoch + 1
		if prev.Activating == 0 {
			break
		}
		remaining := delegated - current
		weight := float64(remaining) / float64(prev.Activating)
		rate := WarmupCooldownRate(currentEpoch, newRateActivationEpoch)
		clusterAllowance := float64(prev.Effective) * rate
		current = satAdd(current, max(f64ToU64(weight*clusterAllowance), 1))
		if current >= delegated {
			current = delegated
			break
		}
		if currentEpoch >= epoch || currentEpoch >= d.DeactivationEpoch {
			break
		}
		next, ok := history.Get(currentEpoch)
		if !ok {
			break
		}
		prevEpoch, prev = currentEpoch, next
	}
	return current, delegated - current
}

// ActivationState is what getStakeActivation reports.
type ActivationState string

// The activation states.
const (
	Active       ActivationState = "active"
	Inactive     ActivationState = "inactive"
	Activating   ActivationState = "activating"
	Deactivating ActivationState = "deactivating"
)

// Activation returns a stake account's activation at epoch as the reference's
// getStakeActivation computes it: the state, the active stake and the inactive lamports
// (beyond the rent-exempt reserve). It fails for accounts that are not initialized.
func Activation(s State, lamports, epoch uint64, history sysvar.StakeHistory, newRateActivationEpoch *uint64) (ActivationState, uint64, uint64, error) {
	if s.Kind != StateInitialized && s.Kind != StateStake {
		return "", 0, 0, ErrInvalidAccountData
	}
	reserve := s.Meta.RentExemptReserve
	if s.Kind != StateStake {
		return Inactive, 0, satSub(lamports, reserve), nil
	}
	st := s.Stake.Delegation.ActivationStatus(epoch, history, newRateActivationEpoch)
	switch {
	case st.Deactivating > 0:
		return Deactivating, st.Effective, satSub(lamports, satAdd(st.Effective, reserve)), nil
	case st.Activating > 0:
		return Activating, st.Effective, st.Activating, nil
	case st.Effective > 0:
		return Active, st.Effective, 0, nil
	}
	return Inactive, 0, satSub(lamports, reserve), nil
}

// HistoryEntry sums the statuses of delegations at epoch: the StakeHistory entry the bank
// records for epoch at the boundary into the next.
func HistoryEntry(epoch uint64, delegations []Delegation, history sysvar.StakeHistory, newRateActivationEpoch *uint64) sysvar.StakeHistoryEntry {
	var sum Status
	for _, d := range delegations {
		sum = AddStatus(sum, d.ActivationStatus(epoch, history, newRateActivationEpoch))
	}
	return sum
}

func satAdd(a, b uint64) uint64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxUint64
}

func satSub(a, b uint64) uint64 {
	if a < b {
		return 0
	}
	return a - b
}
