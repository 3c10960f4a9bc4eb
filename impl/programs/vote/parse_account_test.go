package vote

import (
	"encoding/json"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/bincode"
)

func parsedJSON(t *testing.T, data []byte) string {
	t.Helper()
	v, err := parseVoteAccount(core.Pubkey{}, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseVoteAccount(t *testing.T) {
	t.Parallel()
	k := func(b byte) core.Pubkey { return core.Pubkey{b} }
	root := uint64(90)
	s := &State{
		NodePubkey: k(1), AuthorizedWithdrawer: k(2), Commission: 7,
		Votes:            []LandedVote{{Latency: 3, Lockout: Lockout{Slot: 100, ConfirmationCount: 2}}, {Latency: 1, Lockout: Lockout{Slot: 101, ConfirmationCount: 1}}},
		RootSlot:         &root,
		AuthorizedVoters: []AuthorizedVoter{{Epoch: 4, Pubkey: k(3)}, {Epoch: 5, Pubkey: k(4)}},
		PriorVoters:      DefaultPriorVoters(),
		EpochCredits:     []EpochCredits{{Epoch: 3, Credits: 18446744073709551615, PrevCredits: 10}},
		LastTimestamp:    BlockTimestamp{Slot: 101, Timestamp: -5},
	}
	// Two entries, the second written first in the buffer: the reference lists them in buffer order.
	s.PriorVoters.Buf[0] = PriorVoter{Pubkey: k(6), EpochStart: 1, EpochEnd: 2}
	s.PriorVoters.Buf[5] = PriorVoter{Pubkey: k(5), EpochStart: 0, EpochEnd: 1}
	s.PriorVoters.Idx, s.PriorVoters.IsEmpty = 5, false
	names := strings.NewReplacer("$1", k(1).String(), "$2", k(2).String(), "$3", k(3).String(), "$4", k(4).String(),
		"$5", k(5).String(), "$6", k(6).String())
	want := names.Replace(`{"info":{"authorizedVoters":[{"authorizedVoter":"$3","epoch":4},{"authorizedVoter":"$4","epoch":5}],` +
		`"authorizedWithdrawer":"$2","commission":7,"epochCredits":[{"credits":"18446744073709551615","epoch":3,"previousCredits":"10"}],` +
		`"lastTimestamp":{"slot":101,"timestamp":-5},"nodePubkey":"$1",` +
		`"priorVoters":[{"authorizedPubkey":"$6","epochOfLastAuthorizedSwitch":1,"targetEpoch":2},{"authorizedPubkey":"$5","epochOfLastAuthorizedSwitch":0,"targetEpoch":1}],` +
		`"rootSlot":90,"votes":[{"confirmationCount":2,"slot":100},{"confirmationCount":1,"slot":101}]},"type":"vote"}`)
	for _, v := range []Version{VersionCurrent, Version1_14_11} {
		data := make([]byte, Size)
		copy(data, s.EncodeVersion(v))
		if got := parsedJSON(t, data); got != want {
			t.Errorf("version %d:\n got %s\nwant %s", v, got, want)
		}
	}

	// The 0.23.5 layout: one voter with its epoch, prior voters with a slot and no emptiness flag.
	old := bincode.AppendU32(nil, 0)
	old = bincode.AppendPubkey(old, k(1))
	old = bincode.AppendPubkey(old, k(3))
	old = bincode.AppendU64(old, 9)
	for i := range MaxPriorVoters {
		if i == 2 {
			old = bincode.AppendPubkey(old, k(5))
			old = bincode.AppendU64(old, 1)
			old = bincode.AppendU64(old, 2)
			old = bincode.AppendU64(old, 77)
			continue
		}
		old = append(old, make([]byte, 56)...)
	}
	old = bincode.AppendU64(old, 2)
	old = bincode.AppendPubkey(old, k(2))
	old = append(old, 100)
	old = bincode.AppendU64(old, 1)
	old = bincode.AppendU64(old, 50)
	old = bincode.AppendU32(old, 3)
	old = append(old, 0) // no root
	old = bincode.AppendU64(old, 0)
	old = bincode.AppendU64(old, 60)
	old = bincode.AppendI64(old, 1700000000)
	want = names.Replace(`{"info":{"authorizedVoters":[{"authorizedVoter":"$3","epoch":9}],"authorizedWithdrawer":"$2","commission":100,` +
		`"epochCredits":[],"lastTimestamp":{"slot":60,"timestamp":1700000000},"nodePubkey":"$1",` +
		`"priorVoters":[{"authorizedPubkey":"$5","epochOfLastAuthorizedSwitch":1,"targetEpoch":2}],"rootSlot":null,` +
		`"votes":[{"confirmationCount":3,"slot":50}]},"type":"vote"}`)
	if got := parsedJSON(t, old); got != want {
		t.Errorf("0.23.5:\n got %s\nwant %s", got, want)
	}

	// V4 (SIMD-0185): the commission comes from basis points (cast to a byte), no prior voters,
	// voters shown in epoch order.
	v4 := func(bps uint16, bls byte) []byte {
		b := bincode.AppendU32(nil, 3)
		for _, x := range []byte{1, 2, 7, 8} {
			b = bincode.AppendPubkey(b, k(x))
		}
		b = append(b, byte(bps), byte(bps>>8), 0x10, 0x27)
		b = bincode.AppendU64(b, 5)
		b = append(b, bls)
		if bls == 1 {
			b = append(b, make([]byte, 48)...)
		}
		b = bincode.AppendU64(b, 1)
		b = append(b, 2)
		b = bincode.AppendU64(b, 70)
		b = bincode.AppendU32(b, 1)
		b = append(b, 1)
		b = bincode.AppendU64(b, 60)
		b = bincode.AppendU64(b, 2)
		b = bincode.AppendU64(b, 6)
		b = bincode.AppendPubkey(b, k(4))
		b = bincode.AppendU64(b, 5)
		b = bincode.AppendPubkey(b, k(3))
		b = bincode.AppendU64(b, 1)
		b = bincode.AppendU64(b, 5)
		b = bincode.AppendU64(b, 30)
		b = bincode.AppendU64(b, 20)
		b = bincode.AppendU64(b, 70)
		b = bincode.AppendI64(b, 1700000001)
		data := make([]byte, Size)
		copy(data, b)
		return data
	}
	v4want := func(commission string) string {
		return names.Replace(`{"info":{"authorizedVoters":[{"authorizedVoter":"$3","epoch":5},{"authorizedVoter":"$4","epoch":6}],` +
			`"authorizedWithdrawer":"$2","commission":` + commission + `,"epochCredits":[{"credits":"30","epoch":5,"previousCredits":"20"}],` +
			`"lastTimestamp":{"slot":70,"timestamp":1700000001},"nodePubkey":"$1","priorVoters":[],"rootSlot":60,` +
			`"votes":[{"confirmationCount":1,"slot":70}]},"type":"vote"}`)
	}
	if got := parsedJSON(t, v4(1234, 1)); got != v4want("12") {
		t.Errorf("V4:\n got %s\nwant %s", got, v4want("12"))
	}
	if got := parsedJSON(t, v4(25600, 0)); got != v4want("0") {
		t.Errorf("V4, 256%% commission:\n got %s\nwant %s", got, v4want("0"))
	}
	if _, err := parseVoteAccount(core.Pubkey{}, v4(100, 2), nil); err == nil {
		t.Error("V4 with a bad option tag parsed")
	}

	for _, bad := range [][]byte{{}, {0, 0, 0, 0}, {3, 0, 0, 0}, {9, 9, 9, 9}} {
		if _, err := parseVoteAccount(core.Pubkey{}, bad, nil); err == nil {
			t.Errorf("%x parsed", bad)
		}
	}
}

// FuzzParseVoteAccount: any data parses or fails cleanly, and what parses marshals.
func FuzzParseVoteAccount(f *testing.F) {
	f.Add(make([]byte, Size))
	f.Add(NewState(VoteInit{NodePubkey: core.Pubkey{1}}, 0).AccountData())
	f.Add([]byte{1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := parseVoteAccount(core.Pubkey{}, data, nil)
		if err != nil {
			return
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	})
}
