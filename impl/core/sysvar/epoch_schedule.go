package sysvar

import (
	"fmt"
	"math"
	"math/bits"
)

// Epoch schedule constants.
const (
	DefaultSlotsPerEpoch            uint64 = 432_000
	DefaultLeaderScheduleSlotOffset uint64 = DefaultSlotsPerEpoch
	// MinimumSlotsPerEpoch is the length of the first warmup epoch (MAX_LOCKOUT_HISTORY).
	MinimumSlotsPerEpoch uint64 = 32
	// MaxLeaderScheduleEpochOffset: how many epochs ahead a leader schedule may be known.
	MaxLeaderScheduleEpochOffset uint64 = 3
)

// minimumSlotsPerEpochLog2 is MINIMUM_SLOTS_PER_EPOCH.trailing_zeros().
const minimumSlotsPerEpochLog2 = 5

// EpochSchedule is the EpochSchedule sysvar. With warmup, epochs start at
// MinimumSlotsPerEpoch slots and double until they reach SlotsPerEpoch.
type EpochSchedule struct {
	SlotsPerEpoch            uint64
	LeaderScheduleSlotOffset uint64
	Warmup                   bool
	FirstNormalEpoch         uint64
	FirstNormalSlot          uint64
}

// NewEpochSchedule computes the schedule as the reference's EpochSchedule::custom does. It is an
// error for slotsPerEpoch to be below MinimumSlotsPerEpoch (the reference asserts).
func NewEpochSchedule(slotsPerEpoch, leaderScheduleSlotOffset uint64, warmup bool) (EpochSchedule, error) {
	if slotsPerEpoch < MinimumSlotsPerEpoch {
		return EpochSchedule{}, fmt.Errorf("slots per epoch %d is below the minimum %d", slotsPerEpoch, MinimumSlotsPerEpoch)
	}
	s := EpochSchedule{SlotsPerEpoch: slotsPerEpoch, LeaderScheduleSlotOffset: leaderScheduleSlotOffset, Warmup: warmup}
	if warmup {
		p := nextPowerOfTwo(slotsPerEpoch)
		s.FirstNormalEpoch = uint64(satSub32(uint32(bits.TrailingZeros64(p)), minimumSlotsPerEpochLog2))
		s.FirstNormalSlot = satSub(p, MinimumSlotsPerEpoch)
	}
	return s, nil
}

// DefaultEpochSchedule returns the default: 432000 slots per epoch, offset 432000, warmup.
func DefaultEpochSchedule() EpochSchedule {
	s, _ := NewEpochSchedule(DefaultSlotsPerEpoch, DefaultLeaderScheduleSlotOffset, true)
	return s
}

// GetSlotsInEpoch returns the length of epoch in slots.
func (s *EpochSchedule) GetSlotsInEpoch(epoch uint64) uint64 {
	if epoch < s.FirstNormalEpoch {
		return satPow2(satAdd32(uint32(epoch), minimumSlotsPerEpochLog2))
	}
	return s.SlotsPerEpoch
}

// GetLeaderScheduleEpoch returns the epoch whose leader schedule is computed from the stakes at
// slot.
func (s *EpochSchedule) GetLeaderScheduleEpoch(slot uint64) uint64 {
	if slot < s.FirstNormalSlot {
		// During warmup, behave as if the offset were a whole epoch.
		e, _ := s.GetEpochAndSlotIndex(slot)
		return satAdd(e, 1)
	}
	sinceFirstNormal := satSub(slot, s.FirstNormalSlot)
	scheduleSlot := satAdd(sinceFirstNormal, s.LeaderScheduleSlotOffset)
	var epochs uint64
	if s.SlotsPerEpoch != 0 {
		epochs = scheduleSlot / s.SlotsPerEpoch
	}
	return satAdd(s.FirstNormalEpoch, epochs)
}

// GetEpoch returns the epoch of slot.
func (s *EpochSchedule) GetEpoch(slot uint64) uint64 {
	e, _ := s.GetEpochAndSlotIndex(slot)
	return e
}

// GetEpochAndSlotIndex returns the epoch of slot and the slot's offset within it.
func (s *EpochSchedule) GetEpochAndSlotIndex(slot uint64) (epoch, slotIndex uint64) {
	if slot < s.FirstNormalSlot {
		tz := uint32(bits.TrailingZeros64(nextPowerOfTwo(satAdd(satAdd(slot, MinimumSlotsPerEpoch), 1))))
		e := satSub32(satSub32(tz, minimumSlotsPerEpochLog2), 1)
		epochLen := satPow2(satAdd32(e, minimumSlotsPerEpochLog2))
		return uint64(e), satSub(slot, satSub(epochLen, MinimumSlotsPerEpoch))
	}
	normalSlotIndex := satSub(slot, s.FirstNormalSlot)
	var normalEpochIndex, index uint64
	if s.SlotsPerEpoch != 0 {
		normalEpochIndex = normalSlotIndex / s.SlotsPerEpoch
		index = normalSlotIndex % s.SlotsPerEpoch
	}
	return satAdd(s.FirstNormalEpoch, normalEpochIndex), index
}

// GetFirstSlotInEpoch returns the first slot of epoch.
func (s *EpochSchedule) GetFirstSlotInEpoch(epoch uint64) uint64 {
	if epoch <= s.FirstNormalEpoch {
		return satMul(satSub(satPow2(uint32(epoch)), 1), MinimumSlotsPerEpoch)
	}
	return satAdd(satMul(satSub(epoch, s.FirstNormalEpoch), s.SlotsPerEpoch), s.FirstNormalSlot)
}

// GetLastSlotInEpoch returns the last slot of epoch.
func (s *EpochSchedule) GetLastSlotInEpoch(epoch uint64) uint64 {
	return satSub(satAdd(s.GetFirstSlotInEpoch(epoch), s.GetSlotsInEpoch(epoch)), 1)
}

// Marshal returns the 33-byte encoding.
func (s *EpochSchedule) Marshal() []byte {
	b := make([]byte, 0, EpochScheduleSize)
	b = appendU64(b, s.SlotsPerEpoch)
	b = appendU64(b, s.LeaderScheduleSlotOffset)
	b = appendBool(b, s.Warmup)
	b = appendU64(b, s.FirstNormalEpoch)
	return appendU64(b, s.FirstNormalSlot)
}

// Unmarshal reads an EpochSchedule from the start of data.
func (s *EpochSchedule) Unmarshal(data []byte) error {
	r := reader{b: data}
	v := EpochSchedule{SlotsPerEpoch: r.u64(), LeaderScheduleSlotOffset: r.u64(), Warmup: r.bool()}
	v.FirstNormalEpoch = r.u64()
	v.FirstNormalSlot = r.u64()
	if r.err != nil {
		return r.err
	}
	*s = v
	return nil
}

// Saturating arithmetic, as the reference writes it.

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

func satMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 {
		return math.MaxUint64
	}
	return lo
}

func satAdd32(a, b uint32) uint32 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxUint32
}

func satSub32(a, b uint32) uint32 {
	if a < b {
		return 0
	}
	return a - b
}

// satPow2 is 2u64.saturating_pow(e).
func satPow2(e uint32) uint64 {
	if e >= 64 {
		return math.MaxUint64
	}
	return 1 << e
}

// nextPowerOfTwo is u64::next_power_of_two as compiled in release mode: 0 and 1 give 1, and a
// result that would overflow wraps to 0.
func nextPowerOfTwo(x uint64) uint64 {
	if x <= 1 {
		return 1
	}
	n := bits.Len64(x - 1)
	if n >= 64 {
		return 0
	}
	return 1 << n
}
