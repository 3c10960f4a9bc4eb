package vote

import (
	"errors"
	"math"
	"math/bits"
	"slices"

	"ledgerd/impl/core"
	"ledgerd/impl/core/bincode"
)

// Layout constants of the vote state (solana-vote-interface).
const (
	// Size is the data length of a vote account: the largest serialized current vote state
	// (VoteStateVersions::Current, 31 votes, 4 authorized voters, 64 epoch credits).
	Size = 3762
	// Size1_14_11 is the largest serialized 1.14.11 vote state (votes without latency).
	Size1_14_11 = 3731
	// MaxLockoutHistory is the deepest tower: a vote that would be the 32nd is rooted.
	MaxLockoutHistory = 31
	// InitialLockout is the base of the exponential lockout.
	InitialLockout = 2
	// MaxEpochCreditsHistory is how many epochs of credits a vote state keeps.
	MaxEpochCreditsHistory = 64
	// MaxPriorVoters is the size of the prior voters circular buffer.
	MaxPriorVoters = 32
	// VoteCreditsGraceSlots: votes landing within this many slots earn the maximum credits.
	VoteCreditsGraceSlots = 2
	// VoteCreditsMaximumPerSlot is the most credits one rooted vote earns (timely vote credits).
	VoteCreditsMaximumPerSlot = 16
)

// Version is the VoteStateVersions variant (its u32 bincode tag).
type Version uint32

// The vote state versions.
const (
	Version0_23_5  Version = 0
	Version1_14_11 Version = 1
	VersionCurrent Version = 2
)

// ErrInvalidAccountData is returned for data that is not a vote state.
var ErrInvalidAccountData = errors.New("vote: invalid account data")

// Lockout is a vote for a slot and the number of votes stacked on it.
type Lockout struct {
	Slot              uint64
	ConfirmationCount uint32
}

// Lockout returns the number of slots the vote is locked out for: 2^confirmations.
func (l Lockout) Lockout() uint64 {
	return uint64(1) << min(l.ConfirmationCount, MaxLockoutHistory)
}

// LastLockedOutSlot is the last slot at which the vote is still locked out.
func (l Lockout) LastLockedOutSlot() uint64 { return satAdd(l.Slot, l.Lockout()) }

// IsLockedOutAtSlot reports whether the vote is still locked out at slot.
func (l Lockout) IsLockedOutAtSlot(slot uint64) bool { return l.LastLockedOutSlot() >= slot }

// LandedVote is a lockout with the latency (slots between the voted slot and the slot the vote
// landed in) that decides its credits; 0 means unknown (older software), worth 1 credit.
type LandedVote struct {
	Latency uint8
	Lockout
}

// BlockTimestamp is the last (slot, unix timestamp) a vote carried.
type BlockTimestamp struct {
	Slot      uint64
	Timestamp int64
}

// AuthorizedVoter is the voter authority from Epoch on.
type AuthorizedVoter struct {
	Epoch  uint64
	Pubkey core.Pubkey
}

// PriorVoter is a voter authority that was replaced, with the epochs it served
// ([EpochStart, EpochEnd)).
type PriorVoter struct {
	Pubkey     core.Pubkey
	EpochStart uint64
	EpochEnd   uint64
}

// PriorVoters is the reference's CircBuf of the last MaxPriorVoters replaced voters. Idx is the
// slot of the newest entry.
type PriorVoters struct {
	Buf     [MaxPriorVoters]PriorVoter
	Idx     uint64
	IsEmpty bool
}

// DefaultPriorVoters is the empty buffer (next write goes to index 0).
func DefaultPriorVoters() PriorVoters { return PriorVoters{Idx: MaxPriorVoters - 1, IsEmpty: true} }

// Append records v as the newest entry.
func (p *PriorVoters) Append(v PriorVoter) {
	p.Idx = (p.Idx + 1) % MaxPriorVoters
	p.Buf[p.Idx] = v
	p.IsEmpty = false
}

// Last returns the newest entry.
func (p *PriorVoters) Last() (PriorVoter, bool) {
	if p.IsEmpty || p.Idx >= MaxPriorVoters {
		return PriorVoter{}, false
	}
	return p.Buf[p.Idx], true
}

// EpochCredits is the credit counter at the end of Epoch (Credits) and at its start
// (PrevCredits); Credits-PrevCredits were earned in Epoch.
type EpochCredits struct {
	Epoch       uint64
	Credits     uint64
	PrevCredits uint64
}

// State is a vote account's state, in the current (V3) shape whatever version it was read
// from.
type State struct {
	// Version is the variant the state was decoded from (informational; Encode writes
	// VersionCurrent).
	Version              Version
	NodePubkey           core.Pubkey
	AuthorizedWithdrawer core.Pubkey
	// Commission is the percentage (0-100) of rewards that goes to the vote account.
	Commission uint8
	// Votes is the tower, oldest first.
	Votes []LandedVote
	// RootSlot is the last slot popped off the tower, nil before the first root.
	RootSlot *uint64
	// AuthorizedVoters maps epochs to voter authorities, sorted by epoch; empty means
	// uninitialized.
	AuthorizedVoters []AuthorizedVoter
	PriorVoters      PriorVoters
	// EpochCredits holds the last MaxEpochCreditsHistory epochs, oldest first.
	EpochCredits  []EpochCredits
	LastTimestamp BlockTimestamp
}

// VoteInit is what InitializeAccount sets up.
type VoteInit struct {
	NodePubkey           core.Pubkey
	AuthorizedVoter      core.Pubkey
	AuthorizedWithdrawer core.Pubkey
	Commission           uint8
}

// NewState returns the state InitializeAccount writes: the voter authorized from epoch.
func NewState(init VoteInit, epoch uint64) *State {
	return &State{
		Version:              VersionCurrent,
		NodePubkey:           init.NodePubkey,
		AuthorizedWithdrawer: init.AuthorizedWithdrawer,
		Commission:           init.Commission,
		AuthorizedVoters:     []AuthorizedVoter{{Epoch: epoch, Pubkey: init.AuthorizedVoter}},
		PriorVoters:          DefaultPriorVoters(),
	}
}

// defaultState is VoteState::default(), which a closed account is left holding.
func defaultState() *State {
	return &State{Version: VersionCurrent, PriorVoters: DefaultPriorVoters()}
}

// IsUninitialized reports whether the state is the uninitialized one (the reference's
// VoteStateVersions::is_uninitialized): no authorized voter, or, for the 0.23.5 layout an
// all-zero data decodes as, a default authorized voter.
func (s *State) IsUninitialized() bool {
	if s.Version == Version0_23_5 {
		return len(s.AuthorizedVoters) == 0 || s.AuthorizedVoters[0].Pubkey.IsZero()
	}
	return len(s.AuthorizedVoters) == 0
}

// Clone returns a deep copy.
func (s *State) Clone() *State {
	c := *s
	c.Votes = slices.Clone(s.Votes)
	c.AuthorizedVoters = slices.Clone(s.AuthorizedVoters)
	c.EpochCredits = slices.Clone(s.EpochCredits)
	if s.RootSlot != nil {
		r := *s.RootSlot
		c.RootSlot = &r
	}
	return &c
}

// Credits returns the total credits earned (the last epoch's counter).
func (s *State) Credits() uint64 {
	if len(s.EpochCredits) == 0 {
		return 0
	}
	return s.EpochCredits[len(s.EpochCredits)-1].Credits
}

// CreditsForRecentEpoch returns the credit counter at the end of the newest epoch at or
// before epoch.
func (s *State) CreditsForRecentEpoch(epoch uint64) uint64 {
	for i := len(s.EpochCredits) - 1; i >= 0; i-- {
		if s.EpochCredits[i].Epoch <= epoch {
			return s.EpochCredits[i].Credits
		}
	}
	return 0
}

// CurrentEpoch returns the epoch of the newest credits entry (0 without one).
func (s *State) CurrentEpoch() uint64 {
	if len(s.EpochCredits) == 0 {
		return 0
	}
	return s.EpochCredits[len(s.EpochCredits)-1].Epoch
}

// LastVotedSlot returns the newest slot in the tower.
func (s *State) LastVotedSlot() (uint64, bool) {
	if len(s.Votes) == 0 {
		return 0, false
	}
	return s.Votes[len(s.Votes)-1].Slot, true
}

// ContainsSlot reports whether the tower holds a vote for slot.
func (s *State) ContainsSlot(slot uint64) bool {
	_, found := slices.BinarySearchFunc(s.Votes, slot, func(v LandedVote, slot uint64) int {
		switch {
		case v.Slot < slot:
			return -1
		case v.Slot > slot:
			return 1
		}
		return 0
	})
	return found
}

// AuthorizedVoter returns the voter authority for epoch without changing the state.
func (s *State) AuthorizedVoter(epoch uint64) (core.Pubkey, bool) {
	k, _, ok := s.voterForEpoch(epoch)
	return k, ok
}

// voterForEpoch returns the entry for epoch, or the newest one before it (exact reports which).
func (s *State) voterForEpoch(epoch uint64) (k core.Pubkey, exact, ok bool) {
	for i := len(s.AuthorizedVoters) - 1; i >= 0; i-- {
		v := s.AuthorizedVoters[i]
		if v.Epoch == epoch {
			return v.Pubkey, true, true
		}
		if v.Epoch < epoch {
			return v.Pubkey, false, true
		}
	}
	return core.Pubkey{}, false, false
}

// insertVoter sets the voter of epoch, keeping the list sorted.
func (s *State) insertVoter(epoch uint64, k core.Pubkey) {
	i, found := slices.BinarySearchFunc(s.AuthorizedVoters, epoch, func(v AuthorizedVoter, e uint64) int {
		switch {
		case v.Epoch < e:
			return -1
		case v.Epoch > e:
			return 1
		}
		return 0
	})
	if found {
		s.AuthorizedVoters[i].Pubkey = k
		return
	}
	s.AuthorizedVoters = slices.Insert(s.AuthorizedVoters, i, AuthorizedVoter{Epoch: epoch, Pubkey: k})
}

// CommissionSplit divides rewards between the vote account (voter) and the stakers
// (staker); split reports whether both sides were meant to get a share.
func (s *State) CommissionSplit(rewards uint64) (voter, staker uint64, split bool) {
	switch c := min(s.Commission, 100); c {
	case 0:
		return 0, rewards, false
	case 100:
		return rewards, 0, false
	default:
		hi, lo := bits.Mul64(rewards, uint64(c))
		mine, _ := bits.Div64(hi, lo, 100)
		hi, lo = bits.Mul64(rewards, uint64(100-c))
		theirs, _ := bits.Div64(hi, lo, 100)
		return mine, theirs, true
	}
}

// ---------------------------------------------------------------------------------------------
// Encoding

// Decode reads a vote account's data (bincode VoteStateVersions; trailing bytes ignored). Older
// layouts are converted to the current shape, as the reference does: 1.14.11 votes get latency
// 0, and a 0.23.5 state (all-zero data is one) keeps its single authorized voter.
func Decode(data []byte) (*State, error) {
	r := bincode.NewReader(data)
	var s *State
	switch Version(r.U32()) {
	case Version0_23_5:
		s = decode0_23_5(r)
	case Version1_14_11:
		s = decodeV3(r, false)
		s.Version = Version1_14_11
	case VersionCurrent:
		s = decodeV3(r, true)
	default:
		return nil, ErrInvalidAccountData
	}
	if r.Err() != nil {
		return nil, ErrInvalidAccountData
	}
	return s, nil
}

func decodeLockouts(r *bincode.Reader, latency bool) []LandedVote {
	size := 12
	if latency {
		size = 13
	}
	n := r.SeqLen(size)
	if n == 0 {
		return nil
	}
	votes := make([]LandedVote, n)
	for i := range votes {
		if latency {
			votes[i].Latency = r.U8()
		}
		votes[i].Slot = r.U64()
		votes[i].ConfirmationCount = r.U32()
	}
	return votes
}

func decodeEpochCredits(r *bincode.Reader) []EpochCredits {
	n := r.SeqLen(24)
	if n == 0 {
		return nil
	}
	out := make([]EpochCredits, n)
	for i := range out {
		out[i] = EpochCredits{Epoch: r.U64(), Credits: r.U64(), PrevCredits: r.U64()}
	}
	return out
}

func decodeV3(r *bincode.Reader, latency bool) *State {
	s := &State{Version: VersionCurrent}
	s.NodePubkey = r.Pubkey()
	s.AuthorizedWithdrawer = r.Pubkey()
	s.Commission = r.U8()
	s.Votes = decodeLockouts(r, latency)
	s.RootSlot = r.OptU64()
	n := r.SeqLen(40)
	for range n {
		e := r.U64()
		k := r.Pubkey()
		s.insertVoter(e, k) // a BTreeMap: a repeated epoch keeps the last value
	}
	for i := range s.PriorVoters.Buf {
		s.PriorVoters.Buf[i] = PriorVoter{Pubkey: r.Pubkey(), EpochStart: r.U64(), EpochEnd: r.U64()}
	}
	s.PriorVoters.Idx = r.U64()
	s.PriorVoters.IsEmpty = r.Bool()
	s.EpochCredits = decodeEpochCredits(r)
	s.LastTimestamp = BlockTimestamp{Slot: r.U64(), Timestamp: r.I64()}
	return s
}

// decode0_23_5 reads the oldest layout: one authorized voter with its epoch, and a prior
// voters buffer of (pubkey, epoch, epoch, slot) without an emptiness flag, which the
// conversion drops.
func decode0_23_5(r *bincode.Reader) *State {
	s := &State{Version: Version0_23_5, PriorVoters: DefaultPriorVoters()}
	s.NodePubkey = r.Pubkey()
	voter := r.Pubkey()
	voterEpoch := r.U64()
	r.Skip(MaxPriorVoters*(32+8+8+8) + 8)
	s.AuthorizedWithdrawer = r.Pubkey()
	s.Commission = r.U8()
	s.Votes = decodeLockouts(r, false)
	s.RootSlot = r.OptU64()
	s.EpochCredits = decodeEpochCredits(r)
	s.LastTimestamp = BlockTimestamp{Slot: r.U64(), Timestamp: r.I64()}
	s.AuthorizedVoters = []AuthorizedVoter{{Epoch: voterEpoch, Pubkey: voter}}
	return s
}

// Encode returns the bincode encoding as VoteStateVersions::Current.
func (s *State) Encode() []byte { return s.EncodeVersion(VersionCurrent) }

// EncodeVersion returns the encoding as version (VersionCurrent or Version1_14_11, whose votes
// carry no latency). It panics for Version0_23_5, which is never written.
func (s *State) EncodeVersion(v Version) []byte {
	if v != VersionCurrent && v != Version1_14_11 {
		panic("vote: only the current and 1.14.11 layouts are written")
	}
	b := make([]byte, 0, s.SerializedSize())
	b = bincode.AppendU32(b, uint32(v))
	b = bincode.AppendPubkey(b, s.NodePubkey)
	b = bincode.AppendPubkey(b, s.AuthorizedWithdrawer)
	b = append(b, s.Commission)
	b = bincode.AppendU64(b, uint64(len(s.Votes)))
	for _, vote := range s.Votes {
		if v == VersionCurrent {
			b = append(b, vote.Latency)
		}
		b = bincode.AppendU64(b, vote.Slot)
		b = bincode.AppendU32(b, vote.ConfirmationCount)
	}
	b = bincode.AppendOptU64(b, s.RootSlot)
	b = bincode.AppendU64(b, uint64(len(s.AuthorizedVoters)))
	for _, av := range s.AuthorizedVoters {
		b = bincode.AppendU64(b, av.Epoch)
		b = bincode.AppendPubkey(b, av.Pubkey)
	}
	for _, p := range s.PriorVoters.Buf {
		b = bincode.AppendPubkey(b, p.Pubkey)
		b = bincode.AppendU64(b, p.EpochStart)
		b = bincode.AppendU64(b, p.EpochEnd)
	}
	b = bincode.AppendU64(b, s.PriorVoters.Idx)
	b = bincode.AppendBool(b, s.PriorVoters.IsEmpty)
	b = bincode.AppendU64(b, uint64(len(s.EpochCredits)))
	for _, c := range s.EpochCredits {
		b = bincode.AppendU64(b, c.Epoch)
		b = bincode.AppendU64(b, c.Credits)
		b = bincode.AppendU64(b, c.PrevCredits)
	}
	b = bincode.AppendU64(b, s.LastTimestamp.Slot)
	b = bincode.AppendI64(b, s.LastTimestamp.Timestamp)
	return b
}

// SerializedSize returns the length of Encode's output.
func (s *State) SerializedSize() int {
	n := 4 + 32 + 32 + 1 + 8 + 13*len(s.Votes) + 1 + 8 + 40*len(s.AuthorizedVoters) +
		MaxPriorVoters*48 + 8 + 1 + 8 + 24*len(s.EpochCredits) + 16
	if s.RootSlot != nil {
		n += 8
	}
	return n
}

// AccountData returns the state encoded into a Size-byte account.
func (s *State) AccountData() []byte {
	d := make([]byte, Size)
	copy(d, s.Encode())
	return d
}

// IsCorrectSizeAndInitialized reports, without decoding, whether data is a vote account of
// either current size whose state is initialized (the reference's cheap check used by the
// vote-account caches).
func IsCorrectSizeAndInitialized(data []byte) bool {
	const versionOffset = 4
	switch len(data) {
	case Size:
		return !isZero(data[versionOffset : versionOffset+114])
	case Size1_14_11:
		return !isZero(data[versionOffset : versionOffset+82])
	}
	return false
}

func isZero(b []byte) bool {
	for _, x := range b {
		if x != 0 {
			return false
		}
	}
	return true
}

func satAdd(a, b uint64) uint64 {
	if s := a + b; s >= a {
		return s
	}
	return math.MaxUint64
}
