package sysvar

import (
	"sort"

	"ledgerd/impl/core"
)

// Sysvar addresses, re-exported from core for convenience.
var (
	ClockID             = core.SysvarClockID
	RentID              = core.SysvarRentID
	EpochScheduleID     = core.SysvarEpochScheduleID
	FeesID              = core.SysvarFeesID
	RecentBlockhashesID = core.SysvarRecentBlockhashesID
	SlotHashesID        = core.SysvarSlotHashesID
	SlotHistoryID       = core.SysvarSlotHistoryID
	StakeHistoryID      = core.SysvarStakeHistoryID
	InstructionsID      = core.SysvarInstructionsID
	LastRestartSlotID   = core.SysvarLastRestartSlotID
	EpochRewardsID      = core.SysvarEpochRewardsID
	RewardsID           = core.SysvarRewardsID
	OwnerID             = core.SysvarOwnerID
)

// Account data sizes of the sysvar accounts as the reference creates them: the bincode size for
// fixed layouts, the size at MaxEntries for the lists.
const (
	ClockSize             = 40
	RentSize              = 17
	EpochScheduleSize     = 33
	FeesSize              = 8
	RecentBlockhashesSize = 8 + RecentBlockhashesMaxEntries*40 // 6008
	SlotHashesSize        = 8 + SlotHashesMaxEntries*40        // 20488
	StakeHistorySize      = 8 + StakeHistoryMaxEntries*32      // 16392
	EpochRewardsSize      = 81
	LastRestartSlotSize   = 8
	RewardsSize           = 16
	SlotHistorySize       = 1 + 8 + 1024*1024/64*8 + 8 + 8 // 131097: tag, block count, blocks, bit length, next slot
)

// ---------------------------------------------------------------------------------------------
// Clock

// Clock is the Clock sysvar: the bank's slot, epoch and timestamps.
type Clock struct {
	Slot                uint64
	EpochStartTimestamp int64
	Epoch               uint64
	LeaderScheduleEpoch uint64
	UnixTimestamp       int64
}

// Marshal returns the 40-byte encoding.
func (c *Clock) Marshal() []byte {
	b := make([]byte, 0, ClockSize)
	b = appendU64(b, c.Slot)
	b = appendU64(b, uint64(c.EpochStartTimestamp))
	b = appendU64(b, c.Epoch)
	b = appendU64(b, c.LeaderScheduleEpoch)
	return appendU64(b, uint64(c.UnixTimestamp))
}

// Unmarshal reads a Clock from the start of data.
func (c *Clock) Unmarshal(data []byte) error {
	r := reader{b: data}
	v := Clock{Slot: r.u64(), EpochStartTimestamp: r.i64(), Epoch: r.u64(), LeaderScheduleEpoch: r.u64(), UnixTimestamp: r.i64()}
	if r.err != nil {
		return r.err
	}
	*c = v
	return nil
}

// ---------------------------------------------------------------------------------------------
// Fees

// FeeCalculator is the deprecated per-signature fee carried by Fees and RecentBlockhashes.
type FeeCalculator struct {
	LamportsPerSignature uint64
}

// Fees is the deprecated Fees sysvar.
type Fees struct {
	FeeCalculator FeeCalculator
}

// Marshal returns the 8-byte encoding.
func (f *Fees) Marshal() []byte { return appendU64(nil, f.FeeCalculator.LamportsPerSignature) }

// Unmarshal reads Fees from the start of data.
func (f *Fees) Unmarshal(data []byte) error {
	r := reader{b: data}
	v := r.u64()
	if r.err != nil {
		return r.err
	}
	f.FeeCalculator.LamportsPerSignature = v
	return nil
}

// ---------------------------------------------------------------------------------------------
// RecentBlockhashes

// RecentBlockhashesMaxEntries is how many blockhashes the deprecated sysvar keeps.
const RecentBlockhashesMaxEntries = 150

// RecentBlockhashesEntry is one blockhash with its fee calculator.
type RecentBlockhashesEntry struct {
	Blockhash     core.Hash
	FeeCalculator FeeCalculator
}

// RecentBlockhashes is the deprecated RecentBlockhashes sysvar, newest first.
type RecentBlockhashes []RecentBlockhashesEntry

// Marshal returns the bincode encoding (u64 length, then 40-byte entries).
func (rb RecentBlockhashes) Marshal() []byte {
	b := make([]byte, 0, 8+len(rb)*40)
	b = appendU64(b, uint64(len(rb)))
	for i := range rb {
		b = append(b, rb[i].Blockhash[:]...)
		b = appendU64(b, rb[i].FeeCalculator.LamportsPerSignature)
	}
	return b
}

// AccountData returns the encoding padded to the account size.
func (rb RecentBlockhashes) AccountData() []byte { return padTo(rb.Marshal(), RecentBlockhashesSize) }

// Unmarshal reads the list from the start of data.
func (rb *RecentBlockhashes) Unmarshal(data []byte) error {
	r := reader{b: data}
	n := r.vecLen(40)
	out := make(RecentBlockhashes, n)
	for i := range out {
		r.hash((*[32]byte)(&out[i].Blockhash))
		out[i].FeeCalculator.LamportsPerSignature = r.u64()
	}
	if r.err != nil {
		return r.err
	}
	*rb = out
	return nil
}

// ---------------------------------------------------------------------------------------------
// SlotHashes

// SlotHashesMaxEntries is how many (slot, hash) pairs the sysvar keeps.
const SlotHashesMaxEntries = 512

// SlotHash is one entry of SlotHashes.
type SlotHash struct {
	Slot uint64
	Hash core.Hash
}

// SlotHashes is the SlotHashes sysvar: recent slots and their bank hashes, newest first.
type SlotHashes []SlotHash

// NewSlotHashes returns the entries sorted newest first (it sorts a copy).
func NewSlotHashes(entries []SlotHash) SlotHashes {
	out := append(SlotHashes(nil), entries...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Slot > out[j].Slot })
	return out
}

// Add inserts or replaces the hash of slot, keeping the list sorted newest first and at most
// SlotHashesMaxEntries long.
func (sh *SlotHashes) Add(slot uint64, hash core.Hash) {
	s := *sh
	i := sort.Search(len(s), func(i int) bool { return s[i].Slot <= slot })
	if i < len(s) && s[i].Slot == slot {
		s[i].Hash = hash
	} else {
		s = append(s, SlotHash{})
		copy(s[i+1:], s[i:])
		s[i] = SlotHash{Slot: slot, Hash: hash}
	}
	if len(s) > SlotHashesMaxEntries {
		s = s[:SlotHashesMaxEntries]
	}
	*sh = s
}

// Get returns the hash of slot, if present.
func (sh SlotHashes) Get(slot uint64) (core.Hash, bool) {
	i := sort.Search(len(sh), func(i int) bool { return sh[i].Slot <= slot })
	if i < len(sh) && sh[i].Slot == slot {
		return sh[i].Hash, true
	}
	return core.Hash{}, false
}

// Marshal returns the bincode encoding (u64 length, then (u64 slot, hash) pairs).
func (sh SlotHashes) Marshal() []byte {
	b := make([]byte, 0, 8+len(sh)*40)
	b = appendU64(b, uint64(len(sh)))
	for i := range sh {
		b = appendU64(b, sh[i].Slot)
		b = append(b, sh[i].Hash[:]...)
	}
	return b
}

// AccountData returns the encoding padded to the account size.
func (sh SlotHashes) AccountData() []byte { return padTo(sh.Marshal(), SlotHashesSize) }

// Unmarshal reads the list from the start of data.
func (sh *SlotHashes) Unmarshal(data []byte) error {
	r := reader{b: data}
	n := r.vecLen(40)
	out := make(SlotHashes, n)
	for i := range out {
		out[i].Slot = r.u64()
		r.hash((*[32]byte)(&out[i].Hash))
	}
	if r.err != nil {
		return r.err
	}
	*sh = out
	return nil
}

// ---------------------------------------------------------------------------------------------
// StakeHistory

// StakeHistoryMaxEntries is how many epochs the sysvar keeps.
const StakeHistoryMaxEntries = 512

// StakeHistoryEntry is the cluster's stake at the end of an epoch.
type StakeHistoryEntry struct {
	Effective    uint64
	Activating   uint64
	Deactivating uint64
}

// StakeHistoryItem is one epoch of StakeHistory.
type StakeHistoryItem struct {
	Epoch uint64
	Entry StakeHistoryEntry
}

// StakeHistory is the StakeHistory sysvar, newest epoch first.
type StakeHistory []StakeHistoryItem

// Add inserts or replaces the entry of epoch, keeping the list sorted newest first and at most
// StakeHistoryMaxEntries long.
func (h *StakeHistory) Add(epoch uint64, e StakeHistoryEntry) {
	s := *h
	i := sort.Search(len(s), func(i int) bool { return s[i].Epoch <= epoch })
	if i < len(s) && s[i].Epoch == epoch {
		s[i].Entry = e
	} else {
		s = append(s, StakeHistoryItem{})
		copy(s[i+1:], s[i:])
		s[i] = StakeHistoryItem{Epoch: epoch, Entry: e}
	}
	if len(s) > StakeHistoryMaxEntries {
		s = s[:StakeHistoryMaxEntries]
	}
	*h = s
}

// Get returns the entry of epoch, if present.
func (h StakeHistory) Get(epoch uint64) (StakeHistoryEntry, bool) {
	i := sort.Search(len(h), func(i int) bool { return h[i].Epoch <= epoch })
	if i < len(h) && h[i].Epoch == epoch {
		return h[i].Entry, true
	}
	return StakeHistoryEntry{}, false
}

// Marshal returns the bincode encoding (u64 length, then 32-byte items).
func (h StakeHistory) Marshal() []byte {
	b := make([]byte, 0, 8+len(h)*32)
	b = appendU64(b, uint64(len(h)))
	for i := range h {
		b = appendU64(b, h[i].Epoch)
		b = appendU64(b, h[i].Entry.Effective)
		b = appendU64(b, h[i].Entry.Activating)
		b = appendU64(b, h[i].Entry.Deactivating)
	}
	return b
}

// AccountData returns the encoding padded to the account size.
func (h StakeHistory) AccountData() []byte { return padTo(h.Marshal(), StakeHistorySize) }

// Unmarshal reads the list from the start of data.
func (h *StakeHistory) Unmarshal(data []byte) error {
	r := reader{b: data}
	n := r.vecLen(32)
	out := make(StakeHistory, n)
	for i := range out {
		out[i] = StakeHistoryItem{Epoch: r.u64(), Entry: StakeHistoryEntry{Effective: r.u64(), Activating: r.u64(), Deactivating: r.u64()}}
	}
	if r.err != nil {
		return r.err
	}
	*h = out
	return nil
}

// ---------------------------------------------------------------------------------------------
// EpochRewards

// Uint128 is an unsigned 128-bit integer (little-endian on the wire: Lo then Hi).
type Uint128 struct {
	Lo, Hi uint64
}

// EpochRewards is the EpochRewards sysvar: the state of partitioned reward distribution.
type EpochRewards struct {
	DistributionStartingBlockHeight uint64
	NumPartitions                   uint64
	ParentBlockhash                 core.Hash
	TotalPoints                     Uint128
	TotalRewards                    uint64
	DistributedRewards              uint64
	Active                          bool
}

// Marshal returns the 81-byte encoding.
func (e *EpochRewards) Marshal() []byte {
	b := make([]byte, 0, EpochRewardsSize)
	b = appendU64(b, e.DistributionStartingBlockHeight)
	b = appendU64(b, e.NumPartitions)
	b = append(b, e.ParentBlockhash[:]...)
	b = appendU64(b, e.TotalPoints.Lo)
	b = appendU64(b, e.TotalPoints.Hi)
	b = appendU64(b, e.TotalRewards)
	b = appendU64(b, e.DistributedRewards)
	return appendBool(b, e.Active)
}

// Unmarshal reads EpochRewards from the start of data.
func (e *EpochRewards) Unmarshal(data []byte) error {
	r := reader{b: data}
	var v EpochRewards
	v.DistributionStartingBlockHeight = r.u64()
	v.NumPartitions = r.u64()
	r.hash((*[32]byte)(&v.ParentBlockhash))
	v.TotalPoints.Lo = r.u64()
	v.TotalPoints.Hi = r.u64()
	v.TotalRewards = r.u64()
	v.DistributedRewards = r.u64()
	v.Active = r.bool()
	if r.err != nil {
		return r.err
	}
	*e = v
	return nil
}

// ---------------------------------------------------------------------------------------------
// LastRestartSlot

// LastRestartSlot is the LastRestartSlot sysvar: the slot of the last cluster restart.
type LastRestartSlot struct {
	LastRestartSlot uint64
}

// Marshal returns the 8-byte encoding.
func (l *LastRestartSlot) Marshal() []byte { return appendU64(nil, l.LastRestartSlot) }

// Unmarshal reads LastRestartSlot from the start of data.
func (l *LastRestartSlot) Unmarshal(data []byte) error {
	r := reader{b: data}
	v := r.u64()
	if r.err != nil {
		return r.err
	}
	l.LastRestartSlot = v
	return nil
}

// ---------------------------------------------------------------------------------------------
// Rewards

// Rewards is the deprecated Rewards sysvar.
type Rewards struct {
	ValidatorPointValue float64
	Unused              float64
}

// Marshal returns the 16-byte encoding.
func (rw *Rewards) Marshal() []byte {
	b := make([]byte, 0, RewardsSize)
	b = appendU64(b, f64bits(rw.ValidatorPointValue))
	return appendU64(b, f64bits(rw.Unused))
}

// Unmarshal reads Rewards from the start of data.
func (rw *Rewards) Unmarshal(data []byte) error {
	r := reader{b: data}
	v := Rewards{ValidatorPointValue: r.f64(), Unused: r.f64()}
	if r.err != nil {
		return r.err
	}
	*rw = v
	return nil
}
