package stake

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"ledgerd/impl/core"
)

func TestParseStakeAccount(t *testing.T) {
	t.Parallel()
	k := func(b byte) core.Pubkey { return core.Pubkey{b} }
	meta := Meta{RentExemptReserve: 2282880, Authorized: Authorized{Staker: k(1), Withdrawer: k(2)},
		Lockup: Lockup{UnixTimestamp: -3, Epoch: 7, Custodian: k(3)}}
	names := strings.NewReplacer("$1", k(1).String(), "$2", k(2).String(), "$3", k(3).String(), "$4", k(4).String())
	metaJSON := `{"authorized":{"staker":"$1","withdrawer":"$2"},"lockup":{"custodian":"$3","epoch":7,"unixTimestamp":-3},"rentExemptReserve":"2282880"}`
	for _, c := range []struct {
		state State
		want  string
	}{
		{State{Kind: StateUninitialized}, `{"type":"uninitialized"}`},
		{State{Kind: StateRewardsPool}, `{"type":"rewardsPool"}`},
		{State{Kind: StateInitialized, Meta: meta}, `{"info":{"meta":` + metaJSON + `,"stake":null},"type":"initialized"}`},
		{State{Kind: StateStake, Meta: meta, Stake: Stake{Delegation: Delegation{VoterPubkey: k(4), Stake: 5e9, ActivationEpoch: 1,
			DeactivationEpoch: math.MaxUint64, WarmupCooldownRate: 0.25}, CreditsObserved: 12}, Flags: 1},
			`{"info":{"meta":` + metaJSON + `,"stake":{"creditsObserved":12,"delegation":{"activationEpoch":"1",` +
				`"deactivationEpoch":"18446744073709551615","stake":"5000000000","voter":"$4"}}},"type":"delegated"}`},
		{State{Kind: StateStake, Meta: meta, Stake: Stake{Delegation: Delegation{VoterPubkey: k(4), WarmupCooldownRate: 1}}},
			`{"info":{"meta":` + metaJSON + `,"stake":{"creditsObserved":0,"delegation":{"activationEpoch":"0",` +
				`"deactivationEpoch":"0","stake":"0","voter":"$4"}}},"type":"delegated"}`},
	} {
		v, err := parseStakeAccount(core.Pubkey{}, c.state.AccountData(), nil)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(v)
		if want := names.Replace(c.want); string(b) != want {
			t.Errorf("%s:\n got %s\nwant %s", c.state.Kind, b, want)
		}
	}
	for _, bad := range [][]byte{{}, {1, 0, 0, 0}, {4, 0, 0, 0}, {2, 0, 0, 0, 1}} {
		if _, err := parseStakeAccount(core.Pubkey{}, bad, nil); err == nil {
			t.Errorf("%x parsed", bad)
		}
	}
}

// jsonFloat writes what serde_json (ryu) writes.
func TestJSONFloat(t *testing.T) {
	t.Parallel()
	for f, want := range map[float64]string{
		0.25: "0.25", 1: "1.0", 0.09: "0.09", 123.456: "123.456", 1e15: "1000000000000000.0", 1e16: "1e16",
		1.5e300: "1.5e300", 1e-5: "0.00001", 1.25e-5: "0.0000125", 1e-6: "1e-6", 1.5e-7: "1.5e-7", -2.5: "-2.5",
		math.Copysign(0, -1): "-0.0", 0: "0.0", 5e-324: "5e-324", math.MaxFloat64: "1.7976931348623157e308",
	} {
		if got := jsonFloat(f); got != json.Number(want) {
			t.Errorf("%v: got %v, want %s", f, got, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := jsonFloat(f); got != nil {
			t.Errorf("%v: got %v, want null", f, got)
		}
	}
}

// FuzzParseStakeAccount: any data parses or fails cleanly, and what parses marshals (a NaN or
// infinite rate included).
func FuzzParseStakeAccount(f *testing.F) {
	f.Add(State{Kind: StateStake}.AccountData())
	f.Add(State{Kind: StateInitialized}.AccountData())
	f.Add([]byte{3, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := parseStakeAccount(core.Pubkey{}, data, nil)
		if err != nil {
			return
		}
		if _, err := json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	})
}
