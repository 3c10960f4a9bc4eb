package vote

import (
	"math"
	"slices"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
)

// This file holds the vote state's rules: authorized voters, the tower (lockouts doubling as
// votes stack up, expired votes popped, the 32nd vote rooting the oldest), credits for rooted
// votes (timely vote credits) and timestamps; and the checks of the vote instructions against
// the SlotHashes sysvar. Errors are VoteError values or runtime instruction errors.

// GetAndUpdateAuthorizedVoter returns the voter authority for epoch, recording it under epoch
// when it was inherited from an earlier one and dropping the entries of earlier epochs, as
// every vote does.
func (s *State) GetAndUpdateAuthorizedVoter(epoch uint64) (core.Pubkey, error) {
	k, exact, ok := s.voterForEpoch(epoch)
	if !ok {
		return core.Pubkey{}, runtime.ErrInvalidAccountData
	}
	if !exact {
		s.insertVoter(epoch, k)
	}
	i := 0
	for i < len(s.AuthorizedVoters) && s.AuthorizedVoters[i].Epoch < epoch {
		i++
	}
	s.AuthorizedVoters = slices.Delete(s.AuthorizedVoters, 0, i)
	return k, nil
}

// setNewAuthorizedVoter schedules authorized as voter from targetEpoch, once verify accepts the
// current voter (or the withdrawer signed), recording the replaced voter in PriorVoters.
func (s *State) setNewAuthorizedVoter(authorized core.Pubkey, currentEpoch, targetEpoch uint64, verify func(core.Pubkey) error) error {
	current, err := s.GetAndUpdateAuthorizedVoter(currentEpoch)
	if err != nil {
		return err
	}
	if err := verify(current); err != nil {
		return err
	}
	if _, exact, _ := s.voterForEpoch(targetEpoch); exact {
		return TooSoonToReauthorize
	}
	if len(s.AuthorizedVoters) == 0 {
		return runtime.ErrInvalidAccountData
	}
	latest := s.AuthorizedVoters[len(s.AuthorizedVoters)-1]
	if latest.Pubkey != authorized {
		var lastSwitch uint64
		if p, ok := s.PriorVoters.Last(); ok {
			lastSwitch = p.EpochEnd
		}
		if targetEpoch <= latest.Epoch {
			return runtime.ErrInvalidAccountData
		}
		s.PriorVoters.Append(PriorVoter{Pubkey: latest.Pubkey, EpochStart: lastSwitch, EpochEnd: targetEpoch})
	}
	s.insertVoter(targetEpoch, authorized)
	return nil
}

// computeVoteLatency is how many slots after votedFor the vote landed, capped at 255.
func computeVoteLatency(votedFor, current uint64) uint8 {
	if current <= votedFor {
		return 0
	}
	return uint8(min(current-votedFor, math.MaxUint8))
}

// CreditsForVoteAtIndex returns the credits the vote at index earns when rooted: the maximum
// within the grace period, one less per slot of latency beyond it, at least 1; a vote with
// unknown latency (0) earns 1.
func (s *State) CreditsForVoteAtIndex(index int) uint64 {
	var latency uint8
	if index >= 0 && index < len(s.Votes) {
		latency = s.Votes[index].Latency
	}
	switch {
	case latency == 0:
		return 1
	case latency <= VoteCreditsGraceSlots:
		return VoteCreditsMaximumPerSlot
	}
	diff := latency - VoteCreditsGraceSlots
	if diff >= VoteCreditsMaximumPerSlot {
		return 1
	}
	return uint64(VoteCreditsMaximumPerSlot - diff)
}

// IncrementCredits adds credits earned in epoch, opening a new epoch entry when the previous
// one earned something (otherwise it is moved to epoch) and keeping MaxEpochCreditsHistory
// entries.
func (s *State) IncrementCredits(epoch, credits uint64) {
	if len(s.EpochCredits) == 0 {
		s.EpochCredits = append(s.EpochCredits, EpochCredits{Epoch: epoch})
	} else if last := &s.EpochCredits[len(s.EpochCredits)-1]; epoch != last.Epoch {
		if last.Credits != last.PrevCredits {
			s.EpochCredits = append(s.EpochCredits, EpochCredits{Epoch: epoch, Credits: last.Credits, PrevCredits: last.Credits})
		} else {
			last.Epoch = epoch
		}
		if len(s.EpochCredits) > MaxEpochCreditsHistory {
			s.EpochCredits = slices.Delete(s.EpochCredits, 0, 1)
		}
	}
	last := &s.EpochCredits[len(s.EpochCredits)-1]
	last.Credits = satAdd(last.Credits, credits)
}

// ProcessTimestamp records a vote's timestamp for slot; it may not go back in slot or time, and
// a second timestamp for the same slot must be the same.
func (s *State) ProcessTimestamp(slot uint64, timestamp int64) error {
	last := s.LastTimestamp
	if slot < last.Slot || timestamp < last.Timestamp ||
		(slot == last.Slot && (BlockTimestamp{Slot: slot, Timestamp: timestamp}) != last && last.Slot != 0) {
		return TimestampTooOld
	}
	s.LastTimestamp = BlockTimestamp{Slot: slot, Timestamp: timestamp}
	return nil
}

func (s *State) popExpiredVotes(next uint64) {
	for len(s.Votes) > 0 && !s.Votes[len(s.Votes)-1].IsLockedOutAtSlot(next) {
		s.Votes = s.Votes[:len(s.Votes)-1]
	}
}

func (s *State) doubleLockouts() {
	depth := uint64(len(s.Votes))
	for i := range s.Votes {
		v := &s.Votes[i]
		if depth > uint64(i)+uint64(v.ConfirmationCount) && v.ConfirmationCount < math.MaxUint32 {
			v.ConfirmationCount++
		}
	}
}

// ProcessNextVoteSlot pushes a vote for slot onto the tower as the reference's local tower and
// legacy Vote instruction do: votes for slots not newer than the last are ignored, expired
// votes are popped, a full tower roots its oldest vote (crediting it in epoch), and lockouts
// double. currentSlot is the slot the vote lands in (for its latency).
func (s *State) ProcessNextVoteSlot(slot, epoch, currentSlot uint64) {
	if last, ok := s.LastVotedSlot(); ok && slot <= last {
		return
	}
	s.popExpiredVotes(slot)
	if len(s.Votes) == MaxLockoutHistory {
		credits := s.CreditsForVoteAtIndex(0)
		root := s.Votes[0].Slot
		s.Votes = slices.Delete(s.Votes, 0, 1)
		s.RootSlot = &root
		s.IncrementCredits(epoch, credits)
	}
	s.Votes = append(s.Votes, LandedVote{Latency: computeVoteLatency(slot, currentSlot), Lockout: Lockout{Slot: slot, ConfirmationCount: 1}})
	s.doubleLockouts()
}

// checkSlotsAreValid checks a legacy vote's slots (oldest first) against SlotHashes (newest
// first): the slots newer than the last vote must all be there, and the newest must carry hash.
func checkSlotsAreValid(s *State, voteSlots []uint64, hash core.Hash, slotHashes sysvar.SlotHashes) error {
	last, hasLast := s.LastVotedSlot()
	i, j := 0, len(slotHashes)
	for i < len(voteSlots) && j > 0 {
		if hasLast && voteSlots[i] <= last {
			i++
			continue
		}
		if voteSlots[i] != slotHashes[j-1].Slot {
			j--
			continue
		}
		i++
		j--
	}
	switch {
	case j == len(slotHashes):
		return VoteTooOld
	case i != len(voteSlots):
		return SlotsMismatch
	case slotHashes[j].Hash != hash:
		return SlotHashMismatch
	}
	return nil
}

// processVote applies a legacy Vote: slots older than SlotHashes are dropped, the rest checked
// and pushed one by one.
func processVote(s *State, v *Vote, slotHashes sysvar.SlotHashes, epoch, currentSlot uint64) error {
	if len(v.Slots) == 0 {
		return EmptySlots
	}
	var earliest uint64
	if len(slotHashes) > 0 {
		earliest = slotHashes[len(slotHashes)-1].Slot
	}
	slots := make([]uint64, 0, len(v.Slots))
	for _, slot := range v.Slots {
		if slot >= earliest {
			slots = append(slots, slot)
		}
	}
	if len(slots) == 0 {
		return VotesTooOldAllFiltered
	}
	if err := checkSlotsAreValid(s, slots, v.Hash, slotHashes); err != nil {
		return err
	}
	for _, slot := range slots {
		s.ProcessNextVoteSlot(slot, epoch, currentSlot)
	}
	return nil
}

// checkAndFilterProposedVoteState checks a proposed tower (UpdateVoteState, TowerSync) against
// SlotHashes: its newest slot must be newer than the current tower's and carry hash; a root
// too old to check is replaced by the newest current vote at or below it (or the current root);
// proposed slots too old to check are dropped unless already in the tower; every other slot
// must be in SlotHashes. It returns the filtered lockouts and root.
func checkAndFilterProposedVoteState(s *State, lockouts []Lockout, root *uint64, hash core.Hash, slotHashes sysvar.SlotHashes) ([]Lockout, *uint64, error) {
	if len(lockouts) == 0 {
		return nil, nil, EmptySlots
	}
	lastProposed := lockouts[len(lockouts)-1].Slot
	if last, ok := s.LastVotedSlot(); ok && lastProposed <= last {
		return nil, nil, VoteTooOld
	}
	if len(slotHashes) == 0 {
		return nil, nil, SlotsMismatch
	}
	earliest := slotHashes[len(slotHashes)-1].Slot
	if lastProposed < earliest {
		return nil, nil, VoteTooOld
	}
	if root != nil && *root < earliest {
		r := *root
		root = s.RootSlot
		for i := len(s.Votes) - 1; i >= 0; i-- {
			if s.Votes[i].Slot <= r {
				v := s.Votes[i].Slot
				root = &v
				break
			}
		}
	}

	rootToCheck := root
	li := 0               // index into lockouts, oldest first
	hi := len(slotHashes) // one past the slot hash compared, walking from the oldest
	var filter []int
	for li < len(lockouts) && hi > 0 {
		var slot uint64
		if rootToCheck != nil {
			slot = *rootToCheck
		} else {
			slot = lockouts[li].Slot
		}
		if rootToCheck == nil && li > 0 && slot <= lockouts[li-1].Slot {
			return nil, nil, SlotsNotOrdered
		}
		ancestor := slotHashes[hi-1].Slot
		switch {
		case slot < ancestor:
			if hi != len(slotHashes) {
				// Recent enough to be in SlotHashes but missing: another fork.
				if rootToCheck != nil {
					return nil, nil, RootOnDifferentFork
				}
				return nil, nil, SlotsMismatch
			}
			// Older than the oldest slot hash.
			if slot >= earliest {
				return nil, nil, AssertionFailed
			}
			if rootToCheck == nil && !s.ContainsSlot(slot) {
				filter = append(filter, li)
			}
			if rootToCheck != nil {
				rootToCheck = nil
			} else {
				li++
			}
		case slot > ancestor:
			hi--
		default:
			if rootToCheck != nil {
				rootToCheck = nil
			} else {
				li++
				hi--
			}
		}
	}
	if li != len(lockouts) {
		return nil, nil, SlotsMismatch
	}
	if hi >= len(slotHashes) || slotHashes[hi].Slot != lastProposed {
		return nil, nil, AssertionFailed
	}
	if slotHashes[hi].Hash != hash {
		return nil, nil, SlotHashMismatch
	}
	if len(filter) == 0 {
		return lockouts, root, nil
	}
	kept := make([]Lockout, 0, len(lockouts)-len(filter))
	fi := 0
	for i, l := range lockouts {
		if fi < len(filter) && filter[fi] == i {
			fi++
			continue
		}
		kept = append(kept, l)
	}
	return kept, root, nil
}

func sameRoot(a, b *uint64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// processNewVoteState replaces the tower with a checked proposed one: it must be well formed
// (ordered slots, decreasing confirmations within 1..31, lockouts that do not expire each
// other), must not roll back the root or any confirmation, and may drop a current vote only if
// a newer proposed vote expired it. Votes rooted by the new root earn their credits in epoch;
// new votes get their latency from currentSlot; the timestamp applies to the newest slot.
func processNewVoteState(s *State, newState []LandedVote, newRoot *uint64, timestamp *int64, epoch, currentSlot uint64) error {
	if len(newState) == 0 {
		return EmptySlots
	}
	if len(newState) > MaxLockoutHistory {
		return TooManyVotes
	}
	if s.RootSlot != nil && (newRoot == nil || *newRoot < *s.RootSlot) {
		return RootRollBack
	}
	for i, v := range newState {
		switch {
		case v.ConfirmationCount == 0:
			return ZeroConfirmations
		case v.ConfirmationCount > MaxLockoutHistory:
			return ConfirmationTooLarge
		case newRoot != nil && v.Slot <= *newRoot && *newRoot != 0:
			return SlotSmallerThanRoot
		}
		if i > 0 {
			prev := newState[i-1]
			switch {
			case prev.Slot >= v.Slot:
				return SlotsNotOrdered
			case prev.ConfirmationCount <= v.ConfirmationCount:
				return ConfirmationsNotOrdered
			case v.Slot > prev.LastLockedOutSlot():
				return NewVoteStateLockoutMismatch
			}
		}
	}

	cur, next := 0, 0
	var earned uint64
	if newRoot != nil {
		for cur < len(s.Votes) && s.Votes[cur].Slot <= *newRoot {
			earned += s.CreditsForVoteAtIndex(cur)
			cur++
		}
	}
	for cur < len(s.Votes) && next < len(newState) {
		c, n := s.Votes[cur], &newState[next]
		switch {
		case c.Slot < n.Slot:
			if c.LastLockedOutSlot() >= n.Slot {
				return LockoutConflict
			}
			cur++
		case c.Slot == n.Slot:
			if n.ConfirmationCount < c.ConfirmationCount {
				return ConfirmationRollBack
			}
			n.Latency = c.Latency
			cur++
			next++
		default:
			next++
		}
	}
	for i := range newState {
		if newState[i].Latency == 0 {
			newState[i].Latency = computeVoteLatency(newState[i].Slot, currentSlot)
		}
	}
	if !sameRoot(s.RootSlot, newRoot) {
		s.IncrementCredits(epoch, earned)
	}
	if timestamp != nil {
		if err := s.ProcessTimestamp(newState[len(newState)-1].Slot, *timestamp); err != nil {
			return err
		}
	}
	if newRoot != nil {
		r := *newRoot
		newRoot = &r
	}
	s.RootSlot = newRoot
	s.Votes = newState
	return nil
}

// processProposedTower checks and applies a proposed tower (UpdateVoteState,
// CompactUpdateVoteState, TowerSync).
func processProposedTower(s *State, lockouts []Lockout, root *uint64, hash core.Hash, timestamp *int64, slotHashes sysvar.SlotHashes, epoch, currentSlot uint64) error {
	lockouts, root, err := checkAndFilterProposedVoteState(s, lockouts, root, hash, slotHashes)
	if err != nil {
		return err
	}
	landed := make([]LandedVote, len(lockouts))
	for i, l := range lockouts {
		landed[i] = LandedVote{Lockout: l}
	}
	return processNewVoteState(s, landed, root, timestamp, epoch, currentSlot)
}
