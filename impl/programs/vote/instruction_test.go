package vote_test

import (
	"bytes"
	"encoding/hex"
	"reflect"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/vote"
)

func sampleInstructions() []vote.Instruction {
	k := other.PublicKey()
	h := core.Hash{7}
	ts := int64(-3)
	root := uint64(90)
	lockouts := []vote.Lockout{{Slot: 95, ConfirmationCount: 3}, {Slot: 96, ConfirmationCount: 2}, {Slot: 300, ConfirmationCount: 1}}
	return []vote.Instruction{
		{Kind: vote.KindInitializeAccount, Init: defaultInit},
		{Kind: vote.KindAuthorize, NewAuthority: k, Authorize: vote.AuthorizeWithdrawer},
		{Kind: vote.KindVote, Vote: vote.Vote{Slots: []uint64{1, 2, 3}, Hash: h, Timestamp: &ts}},
		{Kind: vote.KindWithdraw, Lamports: 1 << 40},
		{Kind: vote.KindUpdateValidatorIdentity},
		{Kind: vote.KindUpdateCommission, Commission: 7},
		{Kind: vote.KindVoteSwitch, Vote: vote.Vote{Slots: []uint64{9}, Hash: h}, ProofHash: core.Hash{1}},
		{Kind: vote.KindAuthorizeChecked, Authorize: vote.AuthorizeVoter},
		{Kind: vote.KindUpdateVoteState, Update: vote.VoteStateUpdate{Lockouts: lockouts, Root: &root, Hash: h, Timestamp: &ts}},
		{Kind: vote.KindUpdateVoteStateSwitch, Update: vote.VoteStateUpdate{Lockouts: lockouts, Hash: h}, ProofHash: core.Hash{2}},
		{Kind: vote.KindAuthorizeWithSeed, Authorize: vote.AuthorizeVoter, SeedOwner: k, Seed: "seed é", NewAuthority: base.PublicKey()},
		{Kind: vote.KindAuthorizeCheckedWithSeed, Authorize: vote.AuthorizeWithdrawer, SeedOwner: k, Seed: ""},
		{Kind: vote.KindCompactUpdateVoteState, Update: vote.VoteStateUpdate{Lockouts: lockouts, Root: &root, Hash: h, Timestamp: &ts}},
		{Kind: vote.KindCompactUpdateVoteStateSwitch, Update: vote.VoteStateUpdate{Lockouts: lockouts, Hash: h}, ProofHash: core.Hash{3}},
		{Kind: vote.KindTowerSync, TowerSync: vote.TowerSync{Lockouts: lockouts, Root: &root, Hash: h, Timestamp: &ts, BlockID: core.Hash{4}}},
		{Kind: vote.KindTowerSyncSwitch, TowerSync: vote.TowerSync{Lockouts: lockouts, Hash: h, BlockID: core.Hash{5}}, ProofHash: core.Hash{6}},
	}
}

func TestInstructionRoundTrip(t *testing.T) {
	t.Parallel()
	for _, ix := range sampleInstructions() {
		b, err := ix.Encode()
		if err != nil {
			t.Fatalf("%s: %v", ix.Kind, err)
		}
		got, err := vote.DecodeInstruction(b)
		if err != nil || !reflect.DeepEqual(got, ix) {
			t.Errorf("%s: %+v, %v", ix.Kind, got, err)
		}
		if got, err := vote.DecodeInstruction(append(b, 1, 2, 3)); err != nil || !reflect.DeepEqual(got, ix) {
			t.Errorf("%s with trailing bytes: %v", ix.Kind, err)
		}
		if _, err := vote.DecodeInstruction(b[:len(b)-1]); err == nil {
			t.Errorf("%s: truncated data accepted", ix.Kind)
		}
	}
}

// The wire form of a TowerSync: tag 14, the root (u64::MAX for none), a short_vec of (varint
// offset, confirmations), the hash, the timestamp option and the block id.
func TestTowerSyncEncoding(t *testing.T) {
	t.Parallel()
	ix, err := vote.TowerSyncIx(voteAcct.PublicKey(), voter.PublicKey(), vote.TowerSync{
		Lockouts: []vote.Lockout{{Slot: 5, ConfirmationCount: 2}, {Slot: 200, ConfirmationCount: 1}},
		Hash:     core.Hash{0xaa}, BlockID: core.Hash{0xbb},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "0e000000" + "ffffffffffffffff" + "02" + "0502" + "c30101" +
		"aa" + strings.Repeat("00", 31) + "00" + "bb" + strings.Repeat("00", 31)
	if got := hex.EncodeToString(ix.Data); got != want {
		t.Fatalf("tower sync data\n got %s\nwant %s", got, want)
	}
	if len(ix.Accounts) != 2 || !ix.Accounts[0].IsWritable || ix.Accounts[0].IsSigner || !ix.Accounts[1].IsSigner || ix.Accounts[1].IsWritable {
		t.Fatalf("accounts %+v", ix.Accounts)
	}
	// Lockouts that go back cannot be compact.
	if _, err := vote.TowerSyncIx(voteAcct.PublicKey(), voter.PublicKey(), vote.TowerSync{
		Lockouts: []vote.Lockout{{Slot: 5, ConfirmationCount: 1}}, Root: ptr(uint64(6)),
	}); err == nil {
		t.Fatal("slot below the root encoded")
	}
	// Withdraw: tag 3, then the lamports.
	if got := hex.EncodeToString(vote.Withdraw(voteAcct.PublicKey(), withdrawr.PublicKey(), 5, other.PublicKey()).Data); got != "030000000500000000000000" {
		t.Fatalf("withdraw data %s", got)
	}
}

func TestDecodeInstructionErrors(t *testing.T) {
	t.Parallel()
	compact := func(offsets ...byte) []byte {
		b := []byte{14, 0, 0, 0}
		b = append(b, bytes.Repeat([]byte{0xff}, 8)...)
		b = append(b, 1)
		b = append(b, offsets...)
		b = append(b, 1) // confirmations
		b = append(b, make([]byte, 32)...)
		b = append(b, 0)
		return append(b, make([]byte, 32)...)
	}
	if _, err := vote.DecodeInstruction(compact(0x05)); err != nil {
		t.Fatalf("valid compact tower: %v", err)
	}
	tests := map[string][]byte{
		"empty":                  nil,
		"unknown kind":           {16, 0, 0, 0},
		"bad authorize":          append(append([]byte{1, 0, 0, 0}, make([]byte, 32)...), 2, 0, 0, 0),
		"bad option tag":         append(append([]byte{2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, make([]byte, 32)...), 2),
		"varint trailing zero":   compact(0x85, 0x00),
		"varint overflow":        compact(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02),
		"varint too long":        compact(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01),
		"seed not utf-8":         append(append([]byte{11, 0, 0, 0, 0, 0, 0, 0}, make([]byte, 32)...), 1, 0, 0, 0, 0, 0, 0, 0, 0xff),
		"slots past the limit":   append([]byte{2, 0, 0, 0, 0xa0, 0, 0, 0, 0, 0, 0, 0}, make([]byte, 160*8+40)...),
		"slot offsets overflows": {},
	}
	// Two lockouts whose offsets overflow a u64.
	over := []byte{14, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 5, 1}
	tests["slot offsets overflows"] = append(append(over, make([]byte, 33)...), make([]byte, 32)...)
	for name, data := range tests {
		if ix, err := vote.DecodeInstruction(data); err == nil {
			t.Errorf("%s: decoded %+v", name, ix)
		}
	}
}

func TestIsSimpleVoteTransaction(t *testing.T) {
	t.Parallel()
	ix := mustTowerSync(towerSync([]uint64{1}, nil, core.Hash{}, nil))
	tx, err := core.NewTransaction(voter.PublicKey(), []core.Instruction{ix}, blockhash, voter)
	if err != nil {
		t.Fatal(err)
	}
	if !vote.IsSimpleVoteTransaction(tx) {
		t.Fatal("a tower sync is a simple vote")
	}
	two, err := core.NewTransaction(voter.PublicKey(), []core.Instruction{ix, ix}, blockhash, voter)
	if err != nil {
		t.Fatal(err)
	}
	transfer := core.NewTransferTx(payer, other.PublicKey(), 1, blockhash)
	if vote.IsSimpleVoteTransaction(two) || vote.IsSimpleVoteTransaction(transfer) {
		t.Fatal("not simple votes")
	}
}
