package vote_test

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/vote"
)

func TestNewStateLayout(t *testing.T) {
	t.Parallel()
	s := vote.NewState(defaultInit, 7)
	data := s.AccountData()
	if len(data) != vote.Size {
		t.Fatalf("len %d", len(data))
	}
	u64 := func(off int) uint64 { return binary.LittleEndian.Uint64(data[off:]) }
	checks := []struct {
		name string
		got  any
		want any
	}{
		{"version tag", binary.LittleEndian.Uint32(data[0:]), uint32(2)},
		{"node", core.Pubkey(data[4:36]), node.PublicKey()},
		{"withdrawer", core.Pubkey(data[36:68]), withdrawr.PublicKey()},
		{"commission", data[68], uint8(10)},
		{"votes len", u64(69), uint64(0)},
		{"root tag", data[77], uint8(0)},
		{"voters len", u64(78), uint64(1)},
		{"voter epoch", u64(86), uint64(7)},
		{"voter", core.Pubkey(data[94:126]), voter.PublicKey()},
		{"prior voters idx", u64(126 + 32*48), uint64(31)},
		{"prior voters empty", data[126+32*48+8], uint8(1)},
		{"epoch credits len", u64(1671), uint64(0)},
		{"last timestamp", u64(1679) | u64(1687), uint64(0)},
		{"serialized size", s.SerializedSize(), 1695},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	if !bytes.Equal(data[1695:], make([]byte, vote.Size-1695)) {
		t.Error("tail not zero")
	}
	if !vote.IsCorrectSizeAndInitialized(data) || vote.IsCorrectSizeAndInitialized(make([]byte, vote.Size)) {
		t.Error("IsCorrectSizeAndInitialized")
	}
}

// maxState is the largest current vote state: it fills a vote account exactly.
func maxState() *vote.State {
	s := vote.NewState(defaultInit, 0)
	for i := range vote.MaxLockoutHistory {
		s.Votes = append(s.Votes, vote.LandedVote{Latency: uint8(i), Lockout: vote.Lockout{Slot: uint64(100 + i), ConfirmationCount: uint32(31 - i)}})
	}
	s.RootSlot = ptr(uint64(99))
	for e := uint64(1); e <= 3; e++ {
		s.AuthorizedVoters = append(s.AuthorizedVoters, vote.AuthorizedVoter{Epoch: e, Pubkey: core.Pubkey{byte(e)}})
	}
	for e := range uint64(vote.MaxEpochCreditsHistory) {
		s.EpochCredits = append(s.EpochCredits, vote.EpochCredits{Epoch: e, Credits: 10 * (e + 1), PrevCredits: 10 * e})
	}
	for i := range 5 {
		s.PriorVoters.Append(vote.PriorVoter{Pubkey: core.Pubkey{0xee, byte(i)}, EpochStart: uint64(i), EpochEnd: uint64(i + 1)})
	}
	s.LastTimestamp = vote.BlockTimestamp{Slot: 130, Timestamp: -5}
	return s
}

func TestMaxStateFillsAccount(t *testing.T) {
	t.Parallel()
	s := maxState()
	if n := len(s.Encode()); n != vote.Size || s.SerializedSize() != vote.Size {
		t.Fatalf("max state is %d bytes (SerializedSize %d), want %d", n, s.SerializedSize(), vote.Size)
	}
	if n := len(s.EncodeVersion(vote.Version1_14_11)); n != vote.Size1_14_11 {
		t.Fatalf("max 1.14.11 state is %d bytes, want %d", n, vote.Size1_14_11)
	}
}

func TestStateRoundTrip(t *testing.T) {
	t.Parallel()
	for _, s := range []*vote.State{vote.NewState(defaultInit, 3), maxState()} {
		got, err := vote.Decode(s.AccountData())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, s) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", got, s)
		}
		// The 1.14.11 layout loses only latencies.
		old, err := vote.Decode(s.EncodeVersion(vote.Version1_14_11))
		if err != nil {
			t.Fatal(err)
		}
		want := s.Clone()
		want.Version = vote.Version1_14_11
		for i := range want.Votes {
			want.Votes[i].Latency = 0
		}
		if !reflect.DeepEqual(old, want) {
			t.Fatalf("1.14.11 round trip:\n got %+v\nwant %+v", old, want)
		}
	}
}

func TestDecodeLegacyAndInvalid(t *testing.T) {
	t.Parallel()
	// All-zero data is an uninitialized 0.23.5 state.
	s, err := vote.Decode(make([]byte, vote.Size))
	if err != nil || s.Version != vote.Version0_23_5 || !s.IsUninitialized() {
		t.Fatalf("zero data: %+v %v", s, err)
	}
	// A hand-built 0.23.5 state: one authorized voter with its epoch, one vote.
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, 0)
	b = append(b, pk(node)...)
	b = append(b, pk(voter)...)
	b = binary.LittleEndian.AppendUint64(b, 9)
	b = append(b, make([]byte, 32*56+8)...)
	b = append(b, pk(withdrawr)...)
	b = append(b, 42)
	b = binary.LittleEndian.AppendUint64(b, 1)
	b = binary.LittleEndian.AppendUint64(b, 77)
	b = binary.LittleEndian.AppendUint32(b, 3)
	b = append(b, 1)
	b = binary.LittleEndian.AppendUint64(b, 70)
	b = binary.LittleEndian.AppendUint64(b, 0)
	b = binary.LittleEndian.AppendUint64(b, 77)
	b = binary.LittleEndian.AppendUint64(b, 1234)
	s, err = vote.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	want := &vote.State{Version: vote.Version0_23_5, NodePubkey: node.PublicKey(), AuthorizedWithdrawer: withdrawr.PublicKey(),
		Commission: 42, Votes: []vote.LandedVote{{Lockout: vote.Lockout{Slot: 77, ConfirmationCount: 3}}}, RootSlot: ptr(uint64(70)),
		AuthorizedVoters: []vote.AuthorizedVoter{{Epoch: 9, Pubkey: voter.PublicKey()}}, PriorVoters: vote.DefaultPriorVoters(),
		LastTimestamp: vote.BlockTimestamp{Slot: 77, Timestamp: 1234}}
	if !reflect.DeepEqual(s, want) || s.IsUninitialized() {
		t.Fatalf("0.23.5:\n got %+v\nwant %+v", s, want)
	}
	good := vote.NewState(defaultInit, 0).Encode()
	bad := map[string][]byte{
		"empty":           nil,
		"unknown version": binary.LittleEndian.AppendUint32(nil, 3),
		"truncated":       good[:len(good)-1],
		"bad root tag":    func() []byte { d := bytes.Clone(good); d[77] = 2; return d }(),
		"bad empty flag":  func() []byte { d := bytes.Clone(good); d[126+32*48+8] = 7; return d }(),
		"huge votes len":  func() []byte { d := bytes.Clone(good); binary.LittleEndian.PutUint64(d[69:], 1<<60); return d }(),
	}
	for name, d := range bad {
		if _, err := vote.Decode(d); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

func pk(k core.Keypair) []byte { p := k.PublicKey(); return p[:] }

func TestLockoutArithmetic(t *testing.T) {
	t.Parallel()
	tests := []struct {
		l        vote.Lockout
		lockout  uint64
		lastSlot uint64
	}{
		{vote.Lockout{Slot: 10, ConfirmationCount: 1}, 2, 12},
		{vote.Lockout{Slot: 10, ConfirmationCount: 5}, 32, 42},
		{vote.Lockout{Slot: 0, ConfirmationCount: 31}, 1 << 31, 1 << 31},
		{vote.Lockout{Slot: 0, ConfirmationCount: 40}, 1 << 31, 1 << 31},
		{vote.Lockout{Slot: ^uint64(0) - 1, ConfirmationCount: 3}, 8, ^uint64(0)},
	}
	for _, tc := range tests {
		if got := tc.l.Lockout(); got != tc.lockout {
			t.Errorf("%+v lockout %d, want %d", tc.l, got, tc.lockout)
		}
		if got := tc.l.LastLockedOutSlot(); got != tc.lastSlot {
			t.Errorf("%+v last locked out %d, want %d", tc.l, got, tc.lastSlot)
		}
	}
}

func TestCommissionSplit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		commission        uint8
		on, voter, staker uint64
		split             bool
	}{
		{0, 100, 0, 100, false},
		{100, 100, 100, 0, false},
		{150, 100, 100, 0, false},
		{10, 105, 10, 94, true},
		{50, 1, 0, 0, true},
		{1, ^uint64(0), 184467440737095516, 18262276632972456098, true},
	}
	for _, tc := range tests {
		s := &vote.State{Commission: tc.commission}
		v, st, split := s.CommissionSplit(tc.on)
		if v != tc.voter || st != tc.staker || split != tc.split {
			t.Errorf("commission %d on %d: (%d, %d, %v), want (%d, %d, %v)", tc.commission, tc.on, v, st, split, tc.voter, tc.staker, tc.split)
		}
	}
}
