package vote

import (
	"errors"
	"reflect"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
)

func hashOf(s uint64) core.Hash { return core.HashBytes([]byte{byte(s), byte(s >> 8)}) }

func slotHashesFor(slots ...uint64) sysvar.SlotHashes {
	var sh sysvar.SlotHashes
	for _, s := range slots {
		sh.Add(s, hashOf(s))
	}
	return sh
}

func towerOf(s *State) []Lockout {
	out := make([]Lockout, len(s.Votes))
	for i, v := range s.Votes {
		out[i] = v.Lockout
	}
	return out
}

func newTestState() *State {
	return NewState(VoteInit{AuthorizedVoter: core.Pubkey{1}, AuthorizedWithdrawer: core.Pubkey{2}}, 0)
}

func TestProcessNextVoteSlotLockouts(t *testing.T) {
	t.Parallel()
	s := newTestState()
	for slot := uint64(0); slot < 4; slot++ {
		s.ProcessNextVoteSlot(slot, 0, slot+1)
	}
	want := []Lockout{{0, 4}, {1, 3}, {2, 2}, {3, 1}}
	if got := towerOf(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("tower %v, want %v", got, want)
	}
	// A vote for an older slot is ignored.
	s.ProcessNextVoteSlot(2, 0, 10)
	if got := towerOf(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("old vote changed the tower: %v", got)
	}
	// Slot 10 expires 3 (locked out to 4), 2 (to 6) and 1 (to 9), newest first; 0 (to 16)
	// holds.
	s.ProcessNextVoteSlot(10, 0, 11)
	want = []Lockout{{0, 4}, {10, 1}}
	if got := towerOf(s); !reflect.DeepEqual(got, want) {
		t.Fatalf("after expiry %v, want %v", got, want)
	}
	s.ProcessNextVoteSlot(30, 0, 31)
	if got := towerOf(s); !reflect.DeepEqual(got, []Lockout{{30, 1}}) {
		t.Fatalf("after full expiry %v", got)
	}
}

func TestProcessNextVoteSlotRootsAndCredits(t *testing.T) {
	t.Parallel()
	s := newTestState()
	// 31 votes fill the tower; each later vote roots the oldest one.
	for slot := uint64(1); slot <= MaxLockoutHistory; slot++ {
		s.ProcessNextVoteSlot(slot, 0, slot+1) // latency 1
	}
	if s.RootSlot != nil || s.Credits() != 0 || len(s.Votes) != MaxLockoutHistory {
		t.Fatalf("full tower: root %v credits %d votes %d", s.RootSlot, s.Credits(), len(s.Votes))
	}
	if s.Votes[0].ConfirmationCount != MaxLockoutHistory {
		t.Fatalf("oldest vote has %d confirmations", s.Votes[0].ConfirmationCount)
	}
	s.ProcessNextVoteSlot(32, 0, 40) // latency 8
	if s.RootSlot == nil || *s.RootSlot != 1 || s.Credits() != VoteCreditsMaximumPerSlot {
		t.Fatalf("after 32 votes: root %v credits %d", s.RootSlot, s.Credits())
	}
	for slot := uint64(33); slot < 40; slot++ {
		s.ProcessNextVoteSlot(slot, 1, slot+1)
	}
	// Slots 2..8 rooted in epoch 1, 16 credits each.
	want := []EpochCredits{{0, 16, 0}, {1, 16 + 7*16, 16}}
	if !reflect.DeepEqual(s.EpochCredits, want) || *s.RootSlot != 8 {
		t.Fatalf("epoch credits %v root %d", s.EpochCredits, *s.RootSlot)
	}
	// Slot 32 landed 8 slots late: it will earn 16 - (8 - 2) = 10.
	if got := s.CreditsForVoteAtIndex(len(s.Votes) - 8); got != 10 {
		t.Fatalf("credits for the late vote: %d", got)
	}
}

func TestCreditsForLatency(t *testing.T) {
	t.Parallel()
	for latency, want := range map[uint8]uint64{0: 1, 1: 16, 2: 16, 3: 15, 10: 8, 17: 1, 18: 1, 255: 1} {
		s := &State{Votes: []LandedVote{{Latency: latency}}}
		if got := s.CreditsForVoteAtIndex(0); got != want {
			t.Errorf("latency %d: %d credits, want %d", latency, got, want)
		}
	}
	if got := (&State{}).CreditsForVoteAtIndex(3); got != 1 {
		t.Errorf("missing vote: %d", got)
	}
}

func TestIncrementCredits(t *testing.T) {
	t.Parallel()
	s := &State{}
	s.IncrementCredits(0, 1)
	s.IncrementCredits(0, 1)
	s.IncrementCredits(1, 1)
	s.IncrementCredits(2, 0) // epoch 1 earned: a new entry
	s.IncrementCredits(3, 0) // epoch 2 earned nothing: its entry moves to 3
	want := []EpochCredits{{0, 2, 0}, {1, 3, 2}, {3, 3, 3}}
	if !reflect.DeepEqual(s.EpochCredits, want) {
		t.Fatalf("epoch credits %v, want %v", s.EpochCredits, want)
	}
	for e := uint64(4); e < 100; e++ {
		s.IncrementCredits(e, 1)
	}
	if len(s.EpochCredits) != MaxEpochCreditsHistory || s.EpochCredits[0].Epoch != 36 || s.Credits() != 99 {
		t.Fatalf("history: %d entries from epoch %d, credits %d", len(s.EpochCredits), s.EpochCredits[0].Epoch, s.Credits())
	}
	if s.CreditsForRecentEpoch(50) != 3+50-3 || s.CreditsForRecentEpoch(1) != 0 {
		t.Fatalf("credits for recent epoch: %d %d", s.CreditsForRecentEpoch(50), s.CreditsForRecentEpoch(1))
	}
}

func TestProcessTimestamp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		last    BlockTimestamp
		slot    uint64
		ts      int64
		wantErr bool
	}{
		{BlockTimestamp{}, 0, 5, false},
		{BlockTimestamp{0, 5}, 0, 6, false}, // slot 0 may be restamped
		{BlockTimestamp{10, 100}, 11, 100, false},
		{BlockTimestamp{10, 100}, 10, 100, false},
		{BlockTimestamp{10, 100}, 10, 101, true},
		{BlockTimestamp{10, 100}, 9, 200, true},
		{BlockTimestamp{10, 100}, 11, 99, true},
	}
	for _, tc := range tests {
		s := &State{LastTimestamp: tc.last}
		err := s.ProcessTimestamp(tc.slot, tc.ts)
		if (err != nil) != tc.wantErr || (err != nil && err != TimestampTooOld) {
			t.Errorf("last %+v, (%d, %d): %v", tc.last, tc.slot, tc.ts, err)
		}
	}
}

func TestAuthorizedVoters(t *testing.T) {
	t.Parallel()
	a, b, c := core.Pubkey{0xa}, core.Pubkey{0xb}, core.Pubkey{0xc}
	s := NewState(VoteInit{AuthorizedVoter: a}, 0)
	ok := func(core.Pubkey) error { return nil }
	if err := s.setNewAuthorizedVoter(b, 0, 2, ok); err != nil {
		t.Fatal(err)
	}
	if err := s.setNewAuthorizedVoter(c, 1, 2, ok); !errors.Is(err, TooSoonToReauthorize) {
		t.Fatalf("same target epoch: %v", err)
	}
	if p, _ := s.PriorVoters.Last(); p != (PriorVoter{a, 0, 2}) {
		t.Fatalf("prior voter %+v", p)
	}
	if err := s.setNewAuthorizedVoter(c, 1, 4, ok); err != nil {
		t.Fatal(err)
	}
	if p, _ := s.PriorVoters.Last(); p != (PriorVoter{b, 2, 4}) {
		t.Fatalf("prior voter %+v", p)
	}
	for epoch, want := range map[uint64]core.Pubkey{1: a, 2: b, 3: b, 4: c, 9: c} {
		if got, _ := s.AuthorizedVoter(epoch); got != want {
			t.Errorf("voter at %d: %s, want %s", epoch, got, want)
		}
	}
	// A vote in epoch 3 caches epoch 3 and drops 1 and 2.
	if k, err := s.GetAndUpdateAuthorizedVoter(3); err != nil || k != b {
		t.Fatalf("voter at 3: %s %v", k, err)
	}
	want := []AuthorizedVoter{{3, b}, {4, c}}
	if !reflect.DeepEqual(s.AuthorizedVoters, want) {
		t.Fatalf("voters %v, want %v", s.AuthorizedVoters, want)
	}
	if _, err := s.GetAndUpdateAuthorizedVoter(2); err != runtime.ErrInvalidAccountData {
		t.Fatalf("purged epoch: %v", err)
	}
	// A rejected signature stops everything.
	if err := s.setNewAuthorizedVoter(a, 3, 9, func(core.Pubkey) error { return runtime.ErrMissingRequiredSignature }); err != runtime.ErrMissingRequiredSignature {
		t.Fatalf("verify: %v", err)
	}
	// Reauthorizing the latest voter records no prior voter.
	before := s.PriorVoters
	if err := s.setNewAuthorizedVoter(c, 3, 7, ok); err != nil || s.PriorVoters != before {
		t.Fatalf("same voter: %v", err)
	}
}

func TestCheckSlotsAreValid(t *testing.T) {
	t.Parallel()
	sh := slotHashesFor(4, 5, 6, 8)
	withVote := func(slots ...uint64) *State {
		s := newTestState()
		for _, slot := range slots {
			s.ProcessNextVoteSlot(slot, 0, slot)
		}
		return s
	}
	tests := []struct {
		name  string
		state *State
		slots []uint64
		hash  core.Hash
		want  error
	}{
		{"valid", newTestState(), []uint64{5, 6}, hashOf(6), nil},
		{"skips voted slots", withVote(5), []uint64{4, 5, 8}, hashOf(8), nil},
		{"no slot hashes", newTestState(), []uint64{5}, hashOf(5), VoteTooOld},
		{"all voted", withVote(8), []uint64{5, 6}, hashOf(6), VoteTooOld},
		{"missing slot", newTestState(), []uint64{5, 7}, hashOf(7), SlotsMismatch},
		{"wrong hash", newTestState(), []uint64{5, 6}, hashOf(5), SlotHashMismatch},
	}
	for _, tc := range tests {
		h := sh
		if tc.name == "no slot hashes" {
			h = nil
		}
		if err := checkSlotsAreValid(tc.state, tc.slots, tc.hash, h); err != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}

func lockouts(pairs ...uint64) []Lockout {
	out := make([]Lockout, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Lockout{Slot: pairs[i], ConfirmationCount: uint32(pairs[i+1])})
	}
	return out
}

func TestCheckAndFilterProposedVoteState(t *testing.T) {
	t.Parallel()
	sh := slotHashesFor(4, 5, 6, 8) // earliest 4
	stateWith := func(root *uint64, slots ...uint64) *State {
		s := newTestState()
		for _, slot := range slots {
			s.Votes = append(s.Votes, LandedVote{Lockout: Lockout{Slot: slot, ConfirmationCount: 1}})
		}
		s.RootSlot = root
		return s
	}
	u := func(v uint64) *uint64 { return &v }
	tests := []struct {
		name     string
		state    *State
		lockouts []Lockout
		root     *uint64
		hash     core.Hash
		wantErr  error
		wantLock []Lockout
		wantRoot *uint64
	}{
		{"valid", newTestState(), lockouts(5, 2, 6, 1), nil, hashOf(6), nil, lockouts(5, 2, 6, 1), nil},
		{"empty", newTestState(), nil, nil, hashOf(6), EmptySlots, nil, nil},
		{"not newer", stateWith(nil, 6), lockouts(5, 2, 6, 1), nil, hashOf(6), VoteTooOld, nil, nil},
		{"older than history", newTestState(), lockouts(2, 2, 3, 1), nil, hashOf(3), VoteTooOld, nil, nil},
		{"missing slot", newTestState(), lockouts(5, 2, 7, 1), nil, hashOf(7), SlotsMismatch, nil, nil},
		{"missing root", newTestState(), lockouts(6, 1), u(7), hashOf(6), RootOnDifferentFork, nil, nil},
		{"root on fork", newTestState(), lockouts(8, 1), u(7), hashOf(8), RootOnDifferentFork, nil, nil},
		{"wrong hash", newTestState(), lockouts(5, 2, 6, 1), nil, hashOf(5), SlotHashMismatch, nil, nil},
		{"not ordered", newTestState(), lockouts(6, 2, 5, 1), nil, hashOf(5), SlotsNotOrdered, nil, nil},
		{"old slots dropped", newTestState(), lockouts(1, 4, 2, 3, 5, 2, 6, 1), nil, hashOf(6), nil, lockouts(5, 2, 6, 1), nil},
		{"old voted slot kept", stateWith(nil, 2), lockouts(1, 4, 2, 3, 5, 2, 6, 1), nil, hashOf(6), nil, lockouts(2, 3, 5, 2, 6, 1), nil},
		{"old root from votes", stateWith(u(0), 1, 2, 3), lockouts(5, 1), u(2), hashOf(5), nil, lockouts(5, 1), u(2)},
		{"old root below votes", stateWith(u(0), 1, 3), lockouts(5, 1), u(2), hashOf(5), nil, lockouts(5, 1), u(1)},
		{"old root from root", stateWith(u(0), 3), lockouts(5, 1), u(2), hashOf(5), nil, lockouts(5, 1), u(0)},
		{"checked root", newTestState(), lockouts(6, 1), u(5), hashOf(6), nil, lockouts(6, 1), u(5)},
	}
	for _, tc := range tests {
		got, root, err := checkAndFilterProposedVoteState(tc.state, tc.lockouts, tc.root, tc.hash, sh)
		if err != tc.wantErr {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.wantErr)
			continue
		}
		if err == nil && (!reflect.DeepEqual(got, tc.wantLock) || !sameRoot(root, tc.wantRoot)) {
			t.Errorf("%s: %v root %v, want %v root %v", tc.name, got, root, tc.wantLock, tc.wantRoot)
		}
	}
	if _, _, err := checkAndFilterProposedVoteState(newTestState(), lockouts(6, 1), nil, hashOf(6), nil); err != SlotsMismatch {
		t.Errorf("no slot hashes: %v", err)
	}
}

func landed(pairs ...uint64) []LandedVote {
	ls := lockouts(pairs...)
	out := make([]LandedVote, len(ls))
	for i, l := range ls {
		out[i] = LandedVote{Lockout: l}
	}
	return out
}

func TestProcessNewVoteState(t *testing.T) {
	t.Parallel()
	u := func(v uint64) *uint64 { return &v }
	current := func() *State {
		s := newTestState()
		s.Votes = []LandedVote{{Latency: 1, Lockout: Lockout{1, 3}}, {Latency: 5, Lockout: Lockout{2, 2}}, {Latency: 1, Lockout: Lockout{3, 1}}}
		s.RootSlot = u(0)
		return s
	}
	tooMany := make([]LandedVote, MaxLockoutHistory+1)
	for i := range tooMany {
		tooMany[i] = LandedVote{Lockout: Lockout{uint64(i + 1), uint32(MaxLockoutHistory + 1 - i)}}
	}
	tests := []struct {
		name string
		new  []LandedVote
		root *uint64
		want error
	}{
		{"too many", tooMany, u(0), TooManyVotes},
		{"root rollback", landed(4, 1), nil, RootRollBack},
		{"zero confirmations", landed(4, 0), u(0), ZeroConfirmations},
		{"confirmation too large", landed(4, 32), u(0), ConfirmationTooLarge},
		{"slot below root", landed(4, 2, 5, 1), u(4), SlotSmallerThanRoot},
		{"slots not ordered", landed(5, 2, 4, 1), u(0), SlotsNotOrdered},
		{"confirmations not ordered", landed(4, 1, 5, 1), u(0), ConfirmationsNotOrdered},
		{"lockout mismatch", landed(4, 2, 9, 1), u(0), NewVoteStateLockoutMismatch},
		{"lockout conflict", landed(2, 2, 4, 1), u(0), LockoutConflict},
		{"confirmation rollback", landed(1, 2, 4, 1), u(0), ConfirmationRollBack},
	}
	for _, tc := range tests {
		if err := processNewVoteState(current(), tc.new, tc.root, nil, 0, 10); err != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}

	// Rooting 1 and 2 earns 16 (latency 1) and 13 (latency 5); 3 keeps its latency, 4 gets 6.
	s := current()
	if err := processNewVoteState(s, landed(3, 2, 4, 1), u(2), ptr64(500), 0, 10); err != nil {
		t.Fatal(err)
	}
	want := []LandedVote{{Latency: 1, Lockout: Lockout{3, 2}}, {Latency: 6, Lockout: Lockout{4, 1}}}
	if !reflect.DeepEqual(s.Votes, want) || *s.RootSlot != 2 || s.Credits() != 16+13 {
		t.Fatalf("votes %v root %d credits %d", s.Votes, *s.RootSlot, s.Credits())
	}
	if s.LastTimestamp != (BlockTimestamp{4, 500}) {
		t.Fatalf("timestamp %+v", s.LastTimestamp)
	}
	// The same root again earns nothing and leaves credits as they are.
	if err := processNewVoteState(s, landed(3, 3, 4, 2, 5, 1), u(2), nil, 0, 11); err != nil || s.Credits() != 29 {
		t.Fatalf("no new root: %v credits %d", err, s.Credits())
	}
	// A timestamp going back fails the whole update.
	if err := processNewVoteState(s, landed(3, 4, 4, 3, 5, 2, 6, 1), u(2), ptr64(1), 0, 12); err != TimestampTooOld {
		t.Fatalf("old timestamp: %v", err)
	}
}

func ptr64(v int64) *int64 { return &v }
