package stake_test

import (
	"testing"

	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/stake"
)

func entry(effective, activating, deactivating uint64) sysvar.StakeHistoryEntry {
	return sysvar.StakeHistoryEntry{Effective: effective, Activating: activating, Deactivating: deactivating}
}

func history(entries map[uint64]sysvar.StakeHistoryEntry) sysvar.StakeHistory {
	var h sysvar.StakeHistory
	for e, v := range entries {
		h.Add(e, v)
	}
	return h
}

// Hand-computed warmup and cooldown: each epoch a delegation gets
// floor(its share of the cluster's activating (deactivating) stake × rate × the cluster's
// effective stake), at least 1 lamport.
func TestActivationStatus(t *testing.T) {
	t.Parallel()
	newRate := ptr(uint64(0)) // 9% throughout
	d := func(amount, activation, deactivation uint64) stake.Delegation {
		x := stake.NewDelegation(voteA.PublicKey(), amount, activation)
		x.DeactivationEpoch = deactivation
		return x
	}
	tests := []struct {
		name    string
		d       stake.Delegation
		history sysvar.StakeHistory
		epoch   uint64
		rate    *uint64
		want    sysvar.StakeHistoryEntry
	}{
		// The reference's step-function cases (old 25% rate).
		{"activation epoch", d(1000, 0, 5), nil, 0, nil, entry(0, 1000, 0)},
		{"no history: active", d(1000, 0, 5), nil, 3, nil, entry(1000, 0, 0)},
		{"deactivation epoch", d(1000, 0, 5), nil, 5, nil, entry(1000, 0, 1000)},
		{"no history: inactive", d(1000, 0, 5), nil, 6, nil, entry(0, 0, 0)},
		{"before activation", d(1000, 4, 5), nil, 3, nil, entry(0, 0, 0)},
		{"entry without my activating stake", d(1000, 0, 5), history(map[uint64]sysvar.StakeHistoryEntry{0: entry(1000, 0, 0)}), 1, nil, entry(0, 1000, 0)},
		{"history gap shorts the stake", d(1000, 0, 5), history(map[uint64]sysvar.StakeHistoryEntry{0: entry(1000, 1000, 0)}), 2, nil, entry(250, 750, 0)},
		{"entry without my deactivating stake", d(1000, 0, 5), history(map[uint64]sysvar.StakeHistoryEntry{5: entry(1000, 0, 0)}), 6, nil, entry(1000, 0, 1000)},
		{"cooldown gap", d(1000, 0, 5), history(map[uint64]sysvar.StakeHistoryEntry{5: entry(1000, 0, 1000)}), 7, nil, entry(750, 0, 750)},
		// Shares of the allowance.
		{"share at 25%", d(300, 0, never), history(map[uint64]sysvar.StakeHistoryEntry{0: entry(1000, 1000, 0)}), 1, nil, entry(75, 225, 0)},
		{"other share at 25%", d(700, 0, never), history(map[uint64]sysvar.StakeHistoryEntry{0: entry(1000, 1000, 0)}), 1, nil, entry(175, 525, 0)},
		{"share at 9%, truncated", d(333, 0, never), history(map[uint64]sysvar.StakeHistoryEntry{0: entry(1000, 1000, 0)}), 1, newRate, entry(29, 304, 0)},
		{"rate switches with the epoch", d(1000, 0, never), history(map[uint64]sysvar.StakeHistoryEntry{0: entry(1000, 1000, 0)}), 1, ptr(uint64(1)), entry(90, 910, 0)},
		{"old rate before the switch", d(1000, 0, never), history(map[uint64]sysvar.StakeHistoryEntry{0: entry(1000, 1000, 0)}), 1, ptr(uint64(2)), entry(250, 750, 0)},
		// Two epochs of warmup: 9% of 1,000,000, then 9% of 1,090,000.
		{"two epochs", d(500_000, 1, never), history(map[uint64]sysvar.StakeHistoryEntry{
			1: entry(1_000_000, 500_000, 0), 2: entry(1_090_000, 410_000, 0)}), 3, newRate, entry(188_100, 311_900, 0)},
		// Without effective stake the allowance is zero, and the stake gains 1 lamport an epoch.
		{"one lamport an epoch", d(5, 0, never), history(map[uint64]sysvar.StakeHistoryEntry{
			0: entry(0, 5, 0), 1: entry(1, 4, 0), 2: entry(2, 3, 0)}), 3, newRate, entry(3, 2, 0)},
		{"fully active", d(1000, 0, never), history(map[uint64]sysvar.StakeHistoryEntry{0: entry(100_000, 1000, 0)}), 1, newRate, entry(1000, 0, 0)},
		{"bootstrap", d(1000, never, never), nil, 0, newRate, entry(1000, 0, 0)},
		{"deactivated when delegated", d(1000, 3, 3), nil, 3, newRate, entry(0, 0, 0)},
		{"deactivated when delegated, later", d(1000, 3, 3), nil, 9, newRate, entry(0, 0, 0)},
		// Deactivated during warmup: only the effective part deactivates.
		{"deactivated in warmup", d(1000, 0, 2), history(map[uint64]sysvar.StakeHistoryEntry{
			0: entry(1000, 1000, 0), 1: entry(1250, 750, 0)}), 2, nil, entry(562, 0, 562)},
		{"cooling after warmup", d(1000, 0, 2), history(map[uint64]sysvar.StakeHistoryEntry{
			0: entry(1000, 1000, 0), 1: entry(1250, 750, 0), 2: entry(1562, 0, 562)}), 3, nil, entry(172, 0, 172)},
		// Cooldown: 9% of 10,000, then 9% of 9,100 exceeds what is left.
		{"cooldown", d(1000, never, 5), history(map[uint64]sysvar.StakeHistoryEntry{5: entry(10_000, 0, 1000)}), 6, newRate, entry(100, 0, 100)},
		{"cooled", d(1000, never, 5), history(map[uint64]sysvar.StakeHistoryEntry{5: entry(10_000, 0, 1000), 6: entry(9_100, 0, 100)}), 7, newRate, entry(0, 0, 0)},
	}
	for _, tc := range tests {
		if got := tc.d.ActivationStatus(tc.epoch, tc.history, tc.rate); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestWarmupCooldownRate(t *testing.T) {
	t.Parallel()
	if stake.WarmupCooldownRate(100, nil) != 0.25 || stake.WarmupCooldownRate(4, ptr(uint64(5))) != 0.25 ||
		stake.WarmupCooldownRate(5, ptr(uint64(5))) != 0.09 {
		t.Fatal("rates")
	}
}

func TestActivationReport(t *testing.T) {
	t.Parallel()
	h := history(map[uint64]sysvar.StakeHistoryEntry{0: entry(1000, 1000, 0)})
	rate := ptr(uint64(0))
	tests := []struct {
		name             string
		state            stake.State
		lamports, epoch  uint64
		want             stake.ActivationState
		active, inactive uint64
	}{
		{"initialized", initialized(stake.Lockup{}), reserve + 77, 3, stake.Inactive, 0, 77},
		{"activating", delegated(1000, 0, never), reserve + 1000, 1, stake.Activating, 90, 910},
		{"warmup cut short by a history gap", delegated(1000, 0, never), reserve + 1000, 9, stake.Activating, 90, 910},
		{"active", delegated(1000, 3, never), reserve + 1005, 9, stake.Active, 1000, 0},
		{"deactivating", delegated(1000, 1, 4), reserve + 1005, 4, stake.Deactivating, 1000, 5},
		{"inactive", delegated(1000, 1, 4), reserve + 1005, 5, stake.Inactive, 0, 1005},
	}
	for _, tc := range tests {
		st, active, inactive, err := stake.Activation(tc.state, tc.lamports, tc.epoch, h, rate)
		if err != nil || st != tc.want || active != tc.active || inactive != tc.inactive {
			t.Errorf("%s: %s %d %d %v, want %s %d %d", tc.name, st, active, inactive, err, tc.want, tc.active, tc.inactive)
		}
	}
	if _, _, _, err := stake.Activation(stake.State{}, 1, 0, nil, rate); err == nil {
		t.Error("uninitialized account has an activation")
	}
	sum := stake.HistoryEntry(1, []stake.Delegation{delegated(1000, 0, never).Stake.Delegation, stake.NewDelegation(voteA.PublicKey(), 500, never)}, h, rate)
	if sum != entry(590, 910, 0) {
		t.Errorf("history entry %+v", sum)
	}
}
