package vote

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mr-tron/base58"

	"ledgerd/impl/core"
	"ledgerd/impl/core/bincode"
)

func parsedJSON(t *testing.T, pubkey core.Pubkey, data []byte) string {
	t.Helper()
	v, err := parseVoteAccount(pubkey, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every layout the reference's parser reads is shown in the V4 shape: the V4 fields, votes with
// their latency, no prior voters. A 1.14.11 or V3 state gets SIMD-0185's defaults for an account
// converted to V4: inflation rewards to the vote account itself at the commission in basis points,
// block revenue to the node at 100%, nothing pending, no BLS key.
func TestParseVoteAccount(t *testing.T) {
	t.Parallel()
	k := func(b byte) core.Pubkey { return core.Pubkey{b} }
	self := k(9)
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
	// Prior voters in the buffer: V4 shows none.
	s.PriorVoters.Buf[0] = PriorVoter{Pubkey: k(6), EpochStart: 1, EpochEnd: 2}
	s.PriorVoters.Idx, s.PriorVoters.IsEmpty = 0, false
	names := strings.NewReplacer("$1", k(1).String(), "$2", k(2).String(), "$3", k(3).String(), "$4", k(4).String(),
		"$7", k(7).String(), "$8", k(8).String(), "$9", self.String())
	want := func(votes string) string {
		return names.Replace(`{"info":{"authorizedVoters":[{"authorizedVoter":"$3","epoch":4},{"authorizedVoter":"$4","epoch":5}],` +
			`"authorizedWithdrawer":"$2","blockRevenueCollector":"$1","blockRevenueCommissionBps":10000,"blsPubkeyCompressed":null,` +
			`"commission":7,"epochCredits":[{"credits":"18446744073709551615","epoch":3,"previousCredits":"10"}],` +
			`"inflationRewardsCollector":"$9","inflationRewardsCommissionBps":700,` +
			`"lastTimestamp":{"slot":101,"timestamp":-5},"nodePubkey":"$1","pendingDelegatorRewards":"0","priorVoters":[],` +
			`"rootSlot":90,"votes":` + votes + `},"type":"vote"}`)
	}
	for _, c := range []struct {
		v     Version
		votes string
	}{
		{VersionCurrent, `[{"confirmationCount":2,"latency":3,"slot":100},{"confirmationCount":1,"latency":1,"slot":101}]`},
		// 1.14.11 stores no latency: the reference reads 0.
		{Version1_14_11, `[{"confirmationCount":2,"latency":0,"slot":100},{"confirmationCount":1,"latency":0,"slot":101}]`},
	} {
		data := make([]byte, Size)
		copy(data, s.EncodeVersion(c.v))
		if got := parsedJSON(t, self, data); got != want(c.votes) {
			t.Errorf("version %d:\n got %s\nwant %s", c.v, got, want(c.votes))
		}
	}

	// The 0.23.5 layout: the reference's V4 reader refuses it, so the account falls back to base64.
	old := bincode.AppendU32(nil, 0)
	old = bincode.AppendPubkey(old, k(1))
	old = bincode.AppendPubkey(old, k(3))
	old = bincode.AppendU64(old, 9)
	old = append(old, make([]byte, MaxPriorVoters*56+8)...)
	old = bincode.AppendPubkey(old, k(2))
	old = append(old, 100)
	old = bincode.AppendU64(old, 0) // no votes
	old = append(old, 0)            // no root
	old = bincode.AppendU64(old, 0) // no credits
	old = bincode.AppendU64(old, 60)
	old = bincode.AppendI64(old, 1700000000)
	if _, err := Decode(old); err != nil {
		t.Fatalf("the 0.23.5 state under test does not decode: %v", err)
	}
	if _, err := parseVoteAccount(self, old, nil); err == nil {
		t.Error("a 0.23.5 state parsed")
	}

	// V4 (SIMD-0185): the fields as stored, the commission from basis points (cast to a byte),
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
			b = append(b, 1)
			b = append(b, make([]byte, 47)...)
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
	bls := base58.Encode(append([]byte{1}, make([]byte, 47)...))
	v4want := func(commission, bps, bls string) string {
		return names.Replace(`{"info":{"authorizedVoters":[{"authorizedVoter":"$3","epoch":5},{"authorizedVoter":"$4","epoch":6}],` +
			`"authorizedWithdrawer":"$2","blockRevenueCollector":"$8","blockRevenueCommissionBps":10000,"blsPubkeyCompressed":` + bls + `,` +
			`"commission":` + commission + `,"epochCredits":[{"credits":"30","epoch":5,"previousCredits":"20"}],` +
			`"inflationRewardsCollector":"$7","inflationRewardsCommissionBps":` + bps + `,` +
			`"lastTimestamp":{"slot":70,"timestamp":1700000001},"nodePubkey":"$1","pendingDelegatorRewards":"5","priorVoters":[],"rootSlot":60,` +
			`"votes":[{"confirmationCount":1,"latency":2,"slot":70}]},"type":"vote"}`)
	}
	// The account's own address plays no part in a V4 state.
	if got, want := parsedJSON(t, self, v4(1234, 1)), v4want("12", "1234", `"`+bls+`"`); got != want {
		t.Errorf("V4:\n got %s\nwant %s", got, want)
	}
	if got, want := parsedJSON(t, self, v4(25600, 0)), v4want("0", "25600", "null"); got != want {
		t.Errorf("V4, 256%% commission:\n got %s\nwant %s", got, want)
	}
	if _, err := parseVoteAccount(self, v4(100, 2), nil); err == nil {
		t.Error("V4 with a bad option tag parsed")
	}

	for _, bad := range [][]byte{{}, {0, 0, 0, 0}, {3, 0, 0, 0}, {9, 9, 9, 9}, {2, 0, 0}} {
		if _, err := parseVoteAccount(self, bad, nil); err == nil {
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
