package vote_test

import (
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
)

// The node's loop: produce slot s, push s onto the local tower, and land a TowerSync for it in
// slot s+1, where SlotHashes holds s. Every rooted vote landed one slot late and earns the
// maximum 16 credits.
func TestTowerSyncEverySlot(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.at(0, 0)
	h.create(voteRent)
	vk := voteAcct.PublicKey()
	local := vote.NewState(defaultInit, 0)
	var sh sysvar.SlotHashes
	const slotsPerEpoch = 32
	for s := uint64(1); s <= 80; s++ {
		local.ProcessNextVoteSlot(s, s/slotsPerEpoch, s)
		sh.Add(s, slotHash(s))
		h.env.SysvarData[core.SysvarSlotHashesID] = sh.AccountData()
		h.at(s+1, (s+1)/slotsPerEpoch)
		ts := h.env.Clock.UnixTimestamp
		ix, err := vote.TowerSyncIx(vk, voter.PublicKey(), vote.TowerSyncFrom(local, slotHash(s), core.Hash{byte(s)}, &ts))
		if err != nil {
			t.Fatal(err)
		}
		res := h.exec([]core.Instruction{ix}, voter)
		runtimetest.WantErr(t, res, success)
		if res.ComputeUnitsConsumed != vote.DefaultComputeUnits {
			t.Fatalf("compute units %d", res.ComputeUnitsConsumed)
		}
	}
	s := h.state(vk)
	if last, _ := s.LastVotedSlot(); last != 80 || *s.RootSlot != 80-vote.MaxLockoutHistory {
		t.Fatalf("last vote %d root %v", last, s.RootSlot)
	}
	// Slots 1..49 are rooted: 31 of them while in epoch 1 (slots 32..63 land them), ...
	rooted := 80 - vote.MaxLockoutHistory
	if s.Credits() != uint64(rooted)*vote.VoteCreditsMaximumPerSlot {
		t.Fatalf("credits %d, want %d", s.Credits(), rooted*vote.VoteCreditsMaximumPerSlot)
	}
	// Roots start when slot 33 lands (in slot 33, epoch 1); slot 64 lands in epoch 2.
	want := []vote.EpochCredits{{Epoch: 1, Credits: 31 * 16, PrevCredits: 0}, {Epoch: 2, Credits: 49 * 16, PrevCredits: 31 * 16}}
	if len(s.EpochCredits) != 2 || s.EpochCredits[0] != want[0] || s.EpochCredits[1] != want[1] {
		t.Fatalf("epoch credits %+v, want %+v", s.EpochCredits, want)
	}
	for _, v := range s.Votes {
		if v.Latency != 1 {
			t.Fatalf("vote %+v", v)
		}
	}
	if s.LastTimestamp != (vote.BlockTimestamp{Slot: 80, Timestamp: 1_700_000_081}) {
		t.Fatalf("timestamp %+v", s.LastTimestamp)
	}
	// The local tower and the chain agree.
	for i := range s.Votes {
		if s.Votes[i].Lockout != local.Votes[i].Lockout {
			t.Fatalf("vote %d: chain %+v local %+v", i, s.Votes[i], local.Votes[i])
		}
	}
}

func towerSync(slots []uint64, root *uint64, hash core.Hash, ts *int64) vote.TowerSync {
	t := vote.TowerSync{Root: root, Hash: hash, Timestamp: ts}
	for i, s := range slots {
		t.Lockouts = append(t.Lockouts, vote.Lockout{Slot: s, ConfirmationCount: uint32(len(slots) - i)})
	}
	return t
}

func mustTowerSync(t vote.TowerSync) core.Instruction {
	ix, err := vote.TowerSyncIx(voteAcct.PublicKey(), voter.PublicKey(), t)
	if err != nil {
		panic(err)
	}
	return ix
}

func TestVoteInstructions(t *testing.T) {
	t.Parallel()
	vk := voteAcct.PublicKey()
	ready := func(h *harness) {
		installed(voteRent)(h)
		h.hashes(96, 97, 98, 99)
	}
	lastVote := func(want uint64) func(t *testing.T, h *harness) {
		return func(t *testing.T, h *harness) {
			if got, _ := h.state(vk).LastVotedSlot(); got != want {
				t.Fatalf("last vote %d, want %d", got, want)
			}
		}
	}
	runInstructionTests(t, []instructionTest{
		{name: "tower sync", setup: ready, ix: func() core.Instruction { return mustTowerSync(towerSync([]uint64{98, 99}, nil, slotHash(99), nil)) },
			signers: []core.Keypair{voter}, want: success, check: func(t *testing.T, h *harness) {
				s := h.state(vk)
				if len(s.Votes) != 2 || s.Votes[0].Latency != 2 || s.Votes[1].Latency != 1 || s.Votes[0].ConfirmationCount != 2 {
					t.Fatalf("votes %+v", s.Votes)
				}
				// The vote cached the epoch's voter.
				if s.AuthorizedVoters[0].Epoch != 1 {
					t.Fatalf("voters %+v", s.AuthorizedVoters)
				}
			}},
		{name: "tower sync switch", setup: ready, ix: func() core.Instruction {
			data, _ := vote.Instruction{Kind: vote.KindTowerSyncSwitch, TowerSync: towerSync([]uint64{99}, nil, slotHash(99), nil), ProofHash: core.Hash{9}}.Encode()
			ix := mustTowerSync(vote.TowerSync{})
			ix.Data = data
			return ix
		}, signers: []core.Keypair{voter}, want: success, check: lastVote(99)},
		{name: "tower sync, slot not in slot hashes", setup: ready, ix: func() core.Instruction {
			return mustTowerSync(towerSync([]uint64{97, 100}, nil, slotHash(100), nil))
		}, signers: []core.Keypair{voter}, want: `{"InstructionError":[0,{"Custom":1}]}`},
		{name: "tower sync, wrong hash", setup: ready, ix: func() core.Instruction { return mustTowerSync(towerSync([]uint64{99}, nil, slotHash(98), nil)) },
			signers: []core.Keypair{voter}, want: `{"InstructionError":[0,{"Custom":2}]}`},
		{name: "tower sync, too old", setup: ready, ix: func() core.Instruction { return mustTowerSync(towerSync([]uint64{50}, nil, slotHash(50), nil)) },
			signers: []core.Keypair{voter}, want: `{"InstructionError":[0,{"Custom":0}]}`},
		{name: "tower sync, empty", setup: ready, ix: func() core.Instruction { return mustTowerSync(towerSync(nil, nil, slotHash(99), nil)) },
			signers: []core.Keypair{voter}, want: `{"InstructionError":[0,{"Custom":3}]}`},
		{name: "tower sync, stale timestamp", setup: func(h *harness) {
			withState(voteRent, func(s *vote.State) { s.LastTimestamp = vote.BlockTimestamp{Slot: 90, Timestamp: 5000} })(h)
			h.hashes(96, 97, 98, 99)
		}, ix: func() core.Instruction {
			return mustTowerSync(towerSync([]uint64{99}, nil, slotHash(99), ptr(int64(4999))))
		},
			signers: []core.Keypair{voter}, want: `{"InstructionError":[0,{"Custom":4}]}`},
		{name: "tower sync by the withdrawer", setup: ready, ix: func() core.Instruction {
			ix, _ := vote.TowerSyncIx(vk, withdrawr.PublicKey(), towerSync([]uint64{99}, nil, slotHash(99), nil))
			return ix
		}, signers: []core.Keypair{withdrawr}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "tower sync without SlotHashes", setup: installed(voteRent), ix: func() core.Instruction {
			return mustTowerSync(towerSync([]uint64{99}, nil, slotHash(99), nil))
		}, signers: []core.Keypair{voter}, want: `{"InstructionError":[0,"UnsupportedSysvar"]}`},
		{name: "tower sync on an uninitialized account", setup: func(h *harness) {
			h.accs[vk] = runtime.Account{Lamports: voteRent, Owner: vote.ProgramID, Data: make([]byte, vote.Size)}
			h.hashes(99)
		}, ix: func() core.Instruction { return mustTowerSync(towerSync([]uint64{99}, nil, slotHash(99), nil)) },
			signers: []core.Keypair{voter}, want: `{"InstructionError":[0,"UninitializedAccount"]}`},
		{name: "tower sync, read-only vote account", setup: ready, ix: func() core.Instruction {
			ix := mustTowerSync(towerSync([]uint64{99}, nil, slotHash(99), nil))
			ix.Accounts[0].IsWritable = false
			return ix
		}, signers: []core.Keypair{voter}, want: `{"InstructionError":[0,"ReadonlyDataModified"]}`},
		{name: "legacy vote", setup: ready, ix: func() core.Instruction {
			return vote.VoteIx(vk, voter.PublicKey(), vote.Vote{Slots: []uint64{2, 97, 99}, Hash: slotHash(99), Timestamp: ptr(int64(7))})
		}, signers: []core.Keypair{voter}, want: success, check: func(t *testing.T, h *harness) {
			s := h.state(vk)
			if len(s.Votes) != 2 || s.LastTimestamp != (vote.BlockTimestamp{Slot: 99, Timestamp: 7}) {
				t.Fatalf("state %+v", s)
			}
		}},
		{name: "legacy vote switch", setup: ready, ix: func() core.Instruction {
			return vote.VoteSwitch(vk, voter.PublicKey(), vote.Vote{Slots: []uint64{99}, Hash: slotHash(99)}, core.Hash{1})
		}, signers: []core.Keypair{voter}, want: success, check: lastVote(99)},
		{name: "legacy vote, all too old", setup: ready, ix: func() core.Instruction {
			return vote.VoteIx(vk, voter.PublicKey(), vote.Vote{Slots: []uint64{2, 3}, Hash: slotHash(3)})
		}, signers: []core.Keypair{voter}, want: `{"InstructionError":[0,{"Custom":16}]}`},
		{name: "legacy vote, no slots", setup: ready, ix: func() core.Instruction {
			return vote.VoteIx(vk, voter.PublicKey(), vote.Vote{Hash: slotHash(3)})
		}, signers: []core.Keypair{voter}, want: `{"InstructionError":[0,{"Custom":3}]}`},
		{name: "legacy vote, wrong SlotHashes account", setup: ready, ix: func() core.Instruction {
			ix := vote.VoteIx(vk, voter.PublicKey(), vote.Vote{Slots: []uint64{99}, Hash: slotHash(99)})
			ix.Accounts[1].Pubkey = core.SysvarRentID
			return ix
		}, signers: []core.Keypair{voter}, want: `{"InstructionError":[0,"InvalidArgument"]}`},
		{name: "update vote state", setup: ready, ix: func() core.Instruction {
			return vote.UpdateVoteState(vk, voter.PublicKey(), vote.VoteStateUpdate{Lockouts: []vote.Lockout{{Slot: 98, ConfirmationCount: 2}, {Slot: 99, ConfirmationCount: 1}}, Hash: slotHash(99)})
		}, signers: []core.Keypair{voter}, want: success, check: lastVote(99)},
		{name: "compact update vote state", setup: ready, ix: func() core.Instruction {
			ix, err := vote.CompactUpdateVoteState(vk, voter.PublicKey(), vote.VoteStateUpdate{Lockouts: []vote.Lockout{{Slot: 97, ConfirmationCount: 1}}, Hash: slotHash(97)})
			if err != nil {
				panic(err)
			}
			return ix
		}, signers: []core.Keypair{voter}, want: success, check: lastVote(97)},
	})
}

// With SIMD-0138's feature on, only TowerSync votes.
func TestDeprecatedLegacyVotes(t *testing.T) {
	t.Parallel()
	vk := voteAcct.PublicKey()
	deprecated := func(r *runtime.Registry) {
		r.RegisterBuiltin(vote.ProgramID, vote.Program{DeprecateLegacyVoteInstructions: true})
	}
	ready := func(h *harness) {
		installed(voteRent)(h)
		h.hashes(98, 99)
	}
	invalid := `{"InstructionError":[0,"InvalidInstructionData"]}`
	runInstructionTests(t, []instructionTest{
		{name: "vote", setup: ready, ix: func() core.Instruction {
			return vote.VoteIx(vk, voter.PublicKey(), vote.Vote{Slots: []uint64{99}, Hash: slotHash(99)})
		}, signers: []core.Keypair{voter}, want: invalid},
		{name: "update vote state", setup: ready, ix: func() core.Instruction {
			return vote.UpdateVoteState(vk, voter.PublicKey(), vote.VoteStateUpdate{Lockouts: []vote.Lockout{{Slot: 99, ConfirmationCount: 1}}, Hash: slotHash(99)})
		}, signers: []core.Keypair{voter}, want: invalid},
		{name: "tower sync", setup: ready, ix: func() core.Instruction { return mustTowerSync(towerSync([]uint64{99}, nil, slotHash(99), nil)) },
			signers: []core.Keypair{voter}, want: success},
	}, deprecated)
}

// A 1.14.11-sized account that cannot afford the current size keeps the old layout; one that
// can is grown.
func TestOldLayoutAccounts(t *testing.T) {
	t.Parallel()
	vk := voteAcct.PublicKey()
	old := vote.NewState(defaultInit, 0).EncodeVersion(vote.Version1_14_11)
	oldAccount := func(lamports uint64) func(h *harness) {
		return func(h *harness) {
			data := make([]byte, vote.Size1_14_11)
			copy(data, old)
			h.accs[vk] = runtime.Account{Lamports: lamports, Owner: vote.ProgramID, Data: data}
			h.hashes(99)
		}
	}
	oldRent := uint64((128 + vote.Size1_14_11) * 6960)
	runInstructionTests(t, []instructionTest{
		{name: "stays old", setup: oldAccount(oldRent), ix: func() core.Instruction { return mustTowerSync(towerSync([]uint64{99}, nil, slotHash(99), nil)) },
			signers: []core.Keypair{voter}, want: success, check: func(t *testing.T, h *harness) {
				a := h.accs[vk]
				if len(a.Data) != vote.Size1_14_11 || h.state(vk).Version != vote.Version1_14_11 {
					t.Fatalf("%d bytes, version %d", len(a.Data), h.state(vk).Version)
				}
			}},
		{name: "grows", setup: oldAccount(voteRent), ix: func() core.Instruction { return mustTowerSync(towerSync([]uint64{99}, nil, slotHash(99), nil)) },
			signers: []core.Keypair{voter}, want: success, check: func(t *testing.T, h *harness) {
				s := h.state(vk)
				if len(h.accs[vk].Data) != vote.Size || s.Version != vote.VersionCurrent || s.Votes[0].Latency != 1 {
					t.Fatalf("%d bytes, state %+v", len(h.accs[vk].Data), s)
				}
			}},
	})
}
