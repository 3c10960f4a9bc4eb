package encoding

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/nonce"
)

// Base58 of [1;32], [2;32] and [3;32], checked with an independent encoder.
const (
	ones   = "4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi"
	twos   = "8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR"
	threes = "CktRuQ2mttgRGkXJtyksdKHjUdc2C4TgDzyB98oEzy8"
)

func fill(b byte) (h core.Hash) {
	for i := range h {
		h[i] = b
	}
	return h
}

func marshal(m interface{ Marshal() []byte }) []byte { return m.Marshal() }

// TestParsedShapes compares each jsonParsed value, as the `data` field's JSON, with the shape
// the reference's parse_sysvar.rs and parse_nonce.rs give (keys sorted, as serde_json::Value
// writes them).
func TestParsedShapes(t *testing.T) {
	t.Parallel()
	slotHistory := sysvar.NewSlotHistory()
	slotHistory.Add(42)
	var slotHashes sysvar.SlotHashes
	slotHashes.Add(1, fill(1))
	var stakeHistory sysvar.StakeHistory
	stakeHistory.Add(1, sysvar.StakeHistoryEntry{Effective: 10, Activating: 2, Deactivating: 3})
	recent := sysvar.RecentBlockhashes{{Blockhash: fill(1), FeeCalculator: sysvar.FeeCalculator{LamportsPerSignature: 10}}}
	rent := sysvar.DefaultRent()
	schedule := sysvar.DefaultEpochSchedule()
	custom := sysvar.EpochSchedule{SlotsPerEpoch: 12, FirstNormalEpoch: 1, FirstNormalSlot: 12}
	rewards := sysvar.EpochRewards{
		DistributionStartingBlockHeight: 42, NumPartitions: 3, ParentBlockhash: fill(1),
		TotalPoints: sysvar.Uint128{Lo: 1, Hi: 1}, TotalRewards: 100, DistributedRewards: 20, Active: true,
	}
	nonceCurrent := nonce.NewInitialized(core.Pubkey(fill(2)), fill(3), 5000).Encode()
	nonceLegacy := nonce.Versions{Version: nonce.Legacy, Initialized: true, Data: nonce.Data{
		Authority: core.Pubkey(fill(3)), DurableNonce: fill(1), LamportsPerSignature: 0,
	}}.Encode()

	tests := []struct {
		name   string
		pubkey core.Pubkey
		owner  core.Pubkey
		data   []byte
		want   string
	}{
		{"clock", sysvar.ClockID, core.SysvarOwnerID,
			marshal(&sysvar.Clock{Slot: 1, EpochStartTimestamp: -2, Epoch: 3, LeaderScheduleEpoch: 4, UnixTimestamp: 1_700_000_000}),
			`{"program":"sysvar","parsed":{"info":{"epoch":3,"epochStartTimestamp":-2,"leaderScheduleEpoch":4,"slot":1,"unixTimestamp":1700000000},"type":"clock"},"space":40}`},
		{"rent", sysvar.RentID, core.SysvarOwnerID, marshal(&rent),
			`{"program":"sysvar","parsed":{"info":{"lamportsPerByte":"3480"},"type":"rent"},"space":17}`},
		{"epoch schedule", sysvar.EpochScheduleID, core.SysvarOwnerID, marshal(&schedule),
			`{"program":"sysvar","parsed":{"info":{"firstNormalEpoch":14,"firstNormalSlot":524256,"leaderScheduleSlotOffset":432000,"slotsPerEpoch":432000,"warmup":true},"type":"epochSchedule"},"space":33}`},
		{"epoch schedule without warmup", sysvar.EpochScheduleID, core.SysvarOwnerID, marshal(&custom),
			`{"program":"sysvar","parsed":{"info":{"firstNormalEpoch":1,"firstNormalSlot":12,"leaderScheduleSlotOffset":0,"slotsPerEpoch":12,"warmup":false},"type":"epochSchedule"},"space":33}`},
		{"fees", sysvar.FeesID, core.SysvarOwnerID, marshal(&sysvar.Fees{FeeCalculator: sysvar.FeeCalculator{LamportsPerSignature: 5000}}),
			`{"program":"sysvar","parsed":{"info":{"feeCalculator":{"lamportsPerSignature":"5000"}},"type":"fees"},"space":8}`},
		{"recent blockhashes", sysvar.RecentBlockhashesID, core.SysvarOwnerID, recent.AccountData(),
			`{"program":"sysvar","parsed":{"info":[{"blockhash":"` + ones + `","feeCalculator":{"lamportsPerSignature":"10"}}],"type":"recentBlockhashes"},"space":6008}`},
		{"recent blockhashes empty", sysvar.RecentBlockhashesID, core.SysvarOwnerID, sysvar.RecentBlockhashes{}.AccountData(),
			`{"program":"sysvar","parsed":{"info":[],"type":"recentBlockhashes"},"space":6008}`},
		{"slot hashes", sysvar.SlotHashesID, core.SysvarOwnerID, slotHashes.AccountData(),
			`{"program":"sysvar","parsed":{"info":[{"hash":"` + ones + `","slot":1}],"type":"slotHashes"},"space":20488}`},
		{"stake history", sysvar.StakeHistoryID, core.SysvarOwnerID, stakeHistory.AccountData(),
			`{"program":"sysvar","parsed":{"info":[{"epoch":1,"stakeHistory":{"activating":2,"deactivating":3,"effective":10}}],"type":"stakeHistory"},"space":16392}`},
		{"slot history", sysvar.SlotHistoryID, core.SysvarOwnerID, slotHistory.Marshal(),
			`{"program":"sysvar","parsed":{"info":{"bits":"1` + strings.Repeat("0", 41) + "1" + strings.Repeat("0", 1024*1024-43) +
				`","nextSlot":43},"type":"slotHistory"},"space":131097}`},
		{"epoch rewards", sysvar.EpochRewardsID, core.SysvarOwnerID, marshal(&rewards),
			`{"program":"sysvar","parsed":{"info":{"active":true,"distributedRewards":"20","distributionStartingBlockHeight":42,"numPartitions":3,"parentBlockhash":"` + ones +
				`","totalPoints":"18446744073709551617","totalRewards":"100"},"type":"epochRewards"},"space":81}`},
		{"last restart slot", sysvar.LastRestartSlotID, core.SysvarOwnerID, marshal(&sysvar.LastRestartSlot{LastRestartSlot: 1282}),
			`{"program":"sysvar","parsed":{"info":{"lastRestartSlot":1282},"type":"lastRestartSlot"},"space":8}`},
		{"rewards", sysvar.RewardsID, core.SysvarOwnerID, marshal(&sysvar.Rewards{ValidatorPointValue: 1.5}),
			`{"program":"sysvar","parsed":{"info":{"validatorPointValue":1.5},"type":"rewards"},"space":16}`},
		{"sysvar with trailing bytes", sysvar.LastRestartSlotID, core.SysvarOwnerID, append(marshal(&sysvar.LastRestartSlot{LastRestartSlot: 7}), 9, 9),
			`{"program":"sysvar","parsed":{"info":{"lastRestartSlot":7},"type":"lastRestartSlot"},"space":10}`},
		{"nonce", core.Pubkey{5}, core.SystemProgramID, nonceCurrent,
			`{"program":"nonce","parsed":{"info":{"authority":"` + twos + `","blockhash":"` + threes + `","feeCalculator":{"lamportsPerSignature":"5000"}},"type":"initialized"},"space":80}`},
		{"legacy nonce", core.Pubkey{5}, core.SystemProgramID, nonceLegacy,
			`{"program":"nonce","parsed":{"info":{"authority":"` + threes + `","blockhash":"` + ones + `","feeCalculator":{"lamportsPerSignature":"0"}},"type":"initialized"},"space":80}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			acct := runtime.Account{Lamports: 1, Owner: tt.owner, Data: tt.data}
			// A slice must not change a successful parse.
			got, err := EncodeAccount(acct, tt.pubkey, JSONParsed, slice(0, 1), Options{})
			if err != nil {
				t.Fatalf("EncodeAccount: %v", err)
			}
			if got.Data.Parsed == nil {
				t.Fatalf("data = %s, want parsed", mustJSON(t, got.Data))
			}
			if s := mustJSON(t, got.Data); s != tt.want {
				t.Errorf("got  %s\nwant %s", abbreviate(s), abbreviate(tt.want))
			}
		})
	}
}

// abbreviate keeps failure messages readable for the megabyte SlotHistory string.
func abbreviate(s string) string {
	if len(s) > 600 {
		return s[:300] + "…" + s[len(s)-300:]
	}
	return s
}

// TestParseFallback lists accounts a parser is registered for but that do not parse: they
// fall back to base64 of the sliced data.
func TestParseFallback(t *testing.T) {
	t.Parallel()
	slotHistory := sysvar.NewSlotHistory()
	short := sysvar.SlotHistory{Bits: make([]uint64, 4), BitLen: 256, NextSlot: 1}
	lying := sysvar.SlotHistory{Bits: make([]uint64, 4), BitLen: sysvar.SlotHistoryMaxEntries, NextSlot: 1}
	clock := sysvar.Clock{Slot: 1}
	schedule := sysvar.DefaultEpochSchedule()
	badWarmup := marshal(&schedule)
	badWarmup[16] = 2
	rewards := sysvar.EpochRewards{}
	badActive := marshal(&rewards)
	badActive[80] = 2

	tests := []struct {
		name   string
		pubkey core.Pubkey
		owner  core.Pubkey
		data   []byte
	}{
		{"uninitialized nonce, 8 bytes", core.Pubkey{5}, core.SystemProgramID, make([]byte, 8)},
		{"uninitialized nonce, 80 bytes", core.Pubkey{5}, core.SystemProgramID, make([]byte, 80)},
		{"current uninitialized nonce", core.Pubkey{5}, core.SystemProgramID, []byte{1, 0, 0, 0, 0, 0, 0, 0}},
		{"nonce too short", core.Pubkey{5}, core.SystemProgramID, []byte{0, 0, 0, 0}},
		{"nonce initialized but truncated", core.Pubkey{5}, core.SystemProgramID, nonce.NewInitialized(core.Pubkey{1}, core.Hash{2}, 5000).Encode()[:79]},
		{"nonce bad state tag", core.Pubkey{5}, core.SystemProgramID, []byte{0, 0, 0, 0, 2, 0, 0, 0}},
		{"nonce bad version tag", core.Pubkey{5}, core.SystemProgramID, []byte{2, 0, 0, 0, 1, 0, 0, 0}},
		{"system wallet", core.Pubkey{5}, core.SystemProgramID, nil},
		{"instructions sysvar", sysvar.InstructionsID, core.SysvarOwnerID, sysvar.SerializeInstructions(nil)},
		{"unknown address owned by sysvar", core.Pubkey{5}, core.SysvarOwnerID, marshal(&clock)},
		{"clock too short", sysvar.ClockID, core.SysvarOwnerID, marshal(&clock)[:39]},
		{"rent too short", sysvar.RentID, core.SysvarOwnerID, make([]byte, 16)},
		{"epoch schedule bad bool", sysvar.EpochScheduleID, core.SysvarOwnerID, badWarmup},
		{"epoch rewards bad bool", sysvar.EpochRewardsID, core.SysvarOwnerID, badActive},
		{"fees empty", sysvar.FeesID, core.SysvarOwnerID, nil},
		{"slot hashes length past data", sysvar.SlotHashesID, core.SysvarOwnerID, []byte{2, 0, 0, 0, 0, 0, 0, 0, 1}},
		{"stake history huge length", sysvar.StakeHistoryID, core.SysvarOwnerID, bytes.Repeat([]byte{0xff}, 40)},
		{"recent blockhashes too short", sysvar.RecentBlockhashesID, core.SysvarOwnerID, make([]byte, 4)},
		{"slot history truncated", sysvar.SlotHistoryID, core.SysvarOwnerID, slotHistory.Marshal()[:1000]},
		{"slot history shorter than its window", sysvar.SlotHistoryID, core.SysvarOwnerID, short.Marshal()},
		{"slot history length beyond its blocks", sysvar.SlotHistoryID, core.SysvarOwnerID, lying.Marshal()},
		{"slot history without blocks", sysvar.SlotHistoryID, core.SysvarOwnerID, (&sysvar.SlotHistory{BitLen: sysvar.SlotHistoryMaxEntries}).Marshal()},
		{"clock layout at the rent address", sysvar.RentID, core.SysvarOwnerID, make([]byte, 8)},
		{"sysvar layout owned by another program", sysvar.ClockID, otherOwner, marshal(&clock)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			acct := runtime.Account{Owner: tt.owner, Data: tt.data}
			if p, err := Parse(tt.pubkey, acct, nil); err == nil {
				t.Fatalf("Parse = %s, want an error", abbreviate(mustJSON(t, p)))
			}
			for _, ds := range []*rpcapi.DataSlice{nil, slice(1, 3)} {
				got, err := EncodeAccount(acct, tt.pubkey, JSONParsed, ds, Options{})
				if err != nil {
					t.Fatalf("EncodeAccount: %v", err)
				}
				want := `["` + base64.StdEncoding.EncodeToString(SliceData(tt.data, ds)) + `","base64"]`
				if g := mustJSON(t, got.Data); g != want {
					t.Errorf("slice %v: data = %s, want %s", ds, abbreviate(g), abbreviate(want))
				}
				if got.Space != uint64(len(tt.data)) {
					t.Errorf("space = %d, want %d", got.Space, len(tt.data))
				}
			}
		})
	}
}

func TestModuleParser(t *testing.T) {
	t.Parallel()
	owner := core.Pubkey{0xEE, 1, 2, 3}
	mint := core.Pubkey{0xEE, 9}
	var gotPubkey core.Pubkey
	reg := runtime.NewRegistry(runtime.Module{ID: owner, Name: "test", Kind: runtime.OnChain,
		ParseAccount: &runtime.AccountParser{Program: "test-program", Parse: func(pubkey core.Pubkey, data []byte, lookup Lookup) (any, error) {
			gotPubkey = pubkey
			if len(data) == 0 {
				return nil, errors.New("empty")
			}
			m, ok := lookup(mint)
			if !ok {
				return nil, errors.New("mint missing")
			}
			return map[string]any{"decimals": m.Data[0], "first": data[0]}, nil
		}}})
	lookup := func(k core.Pubkey) (runtime.Account, bool) {
		if k == mint {
			return runtime.Account{Data: []byte{6}}, true
		}
		return runtime.Account{}, false
	}
	acct := runtime.Account{Owner: owner, Data: []byte{7, 8, 9}}

	got, err := EncodeAccount(acct, core.Pubkey{4}, JSONParsed, nil, Options{Lookup: lookup, Programs: reg})
	if err != nil {
		t.Fatal(err)
	}
	if s, want := mustJSON(t, got.Data), `{"program":"test-program","parsed":{"decimals":6,"first":7},"space":3}`; s != want {
		t.Errorf("data = %s, want %s", s, want)
	}
	if gotPubkey != (core.Pubkey{4}) {
		t.Errorf("parser saw pubkey %s, want the account's address", gotPubkey)
	}
	// Without a Lookup the parser sees one that finds nothing, and the account falls back.
	got, err = EncodeAccount(acct, core.Pubkey{4}, JSONParsed, nil, Options{Programs: reg})
	if err != nil {
		t.Fatal(err)
	}
	if s, want := mustJSON(t, got.Data), `["BwgJ","base64"]`; s != want {
		t.Errorf("without lookup: data = %s, want %s", s, want)
	}
	// The shipped list does not know the test module, and a module without an account parser
	// (the memo programs) leaves its accounts unparsed.
	if _, err := Parse(core.Pubkey{4}, acct, lookup); !errors.Is(err, ErrNoParser) {
		t.Errorf("owner outside the shipped list: err = %v, want ErrNoParser", err)
	}
	if _, err := Parse(core.Pubkey{4}, runtime.Account{Owner: core.MemoProgramID, Data: []byte{1}}, nil); !errors.Is(err, ErrNoParser) {
		t.Errorf("module without an account parser: err = %v, want ErrNoParser", err)
	}
}
