package sysvar

import (
	"bytes"
	"encoding/hex"
	"math"
	"testing"

	"ledgerd/impl/core"
)

type codec interface {
	Marshal() []byte
	Unmarshal([]byte) error
}

func TestSizes(t *testing.T) {
	t.Parallel()
	rent := DefaultRent()
	es := DefaultEpochSchedule()
	tests := []struct {
		name string
		got  int
		want int
	}{
		{"clock", len((&Clock{}).Marshal()), 40},
		{"rent", len(rent.Marshal()), 17},
		{"epoch schedule", len(es.Marshal()), 33},
		{"fees", len((&Fees{}).Marshal()), 8},
		{"epoch rewards", len((&EpochRewards{}).Marshal()), 81},
		{"last restart slot", len((&LastRestartSlot{}).Marshal()), 8},
		{"rewards", len((&Rewards{}).Marshal()), 16},
		{"slot history", len(NewSlotHistory().Marshal()), 131097},
		{"slot history const", SlotHistorySize, 131097},
		{"slot hashes account", len(SlotHashes{{Slot: 1}}.AccountData()), 20488},
		{"stake history account", len(StakeHistory{}.AccountData()), 16392},
		{"recent blockhashes account", len(RecentBlockhashes{}.AccountData()), 6008},
		{"empty slot hashes", len(SlotHashes{}.Marshal()), 8},
		{"fee rate governor", len((&FeeRateGovernor{}).Marshal()), 33},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %d bytes, want %d", tt.name, tt.got, tt.want)
		}
	}
}

func TestClockLayout(t *testing.T) {
	t.Parallel()
	c := Clock{Slot: 1, EpochStartTimestamp: -2, Epoch: 3, LeaderScheduleEpoch: 4, UnixTimestamp: 1_700_000_000}
	want := "0100000000000000" + "feffffffffffffff" + "0300000000000000" + "0400000000000000" + "00f1536500000000"
	if got := hex.EncodeToString(c.Marshal()); got != want {
		t.Fatalf("clock = %s\nwant    %s", got, want)
	}
	var back Clock
	if err := back.Unmarshal(c.Marshal()); err != nil || back != c {
		t.Fatalf("round trip %+v %v", back, err)
	}
	if err := back.Unmarshal(make([]byte, 39)); err != ErrUnexpectedEOF {
		t.Fatalf("short clock: %v", err)
	}
}

func TestRent(t *testing.T) {
	t.Parallel()
	r := DefaultRent()
	if r.LamportsPerByteYear != 3480 || r.ExemptionThreshold != 2.0 || r.BurnPercent != 50 {
		t.Fatalf("default rent %+v", r)
	}
	for _, tt := range []struct{ len, want uint64 }{
		{0, 890_880}, {1, 897_840}, {82, 1_461_600}, {165, 2_039_280}, {200, 2_282_880}, {3762, 27_074_400}, {10 * 1024 * 1024, (128 + 10*1024*1024) * 6960},
	} {
		if got := r.MinimumBalance(tt.len); got != tt.want || got != (128+tt.len)*6960 {
			t.Errorf("MinimumBalance(%d) = %d, want %d", tt.len, got, tt.want)
		}
	}
	if !r.IsExempt(890_880, 0) || r.IsExempt(890_879, 0) {
		t.Error("IsExempt boundary")
	}
	// 3480 = 0x0d98; 2.0 = 0x4000000000000000; 50 = 0x32.
	if got := hex.EncodeToString(r.Marshal()); got != "980d000000000000"+"0000000000000040"+"32" {
		t.Errorf("rent bytes = %s", got)
	}
	if b, rest := r.CalculateBurn(101); b != 50 || rest != 51 {
		t.Errorf("burn = %d, %d", b, rest)
	}
	odd := Rent{LamportsPerByteYear: 5, ExemptionThreshold: 2.5}
	if got := odd.MinimumBalance(2); got != uint64(float64(130*5)*2.5) {
		t.Errorf("custom rent = %d", got)
	}
	if got := (Rent{LamportsPerByteYear: 1, ExemptionThreshold: math.NaN()}).MinimumBalance(1); got != 0 {
		t.Errorf("NaN threshold = %d", got)
	}
	if got := (Rent{LamportsPerByteYear: math.MaxUint64 / 128, ExemptionThreshold: 1e300}).MinimumBalance(0); got != math.MaxUint64 {
		t.Errorf("saturation = %d", got)
	}
}

func TestEpochScheduleDefaults(t *testing.T) {
	t.Parallel()
	es := DefaultEpochSchedule()
	if es.SlotsPerEpoch != 432000 || es.LeaderScheduleSlotOffset != 432000 || !es.Warmup || es.FirstNormalEpoch != 14 || es.FirstNormalSlot != 524256 {
		t.Fatalf("default = %+v", es)
	}
	if _, err := NewEpochSchedule(31, 31, true); err == nil {
		t.Fatal("31 slots per epoch accepted")
	}
	nw, _ := NewEpochSchedule(432000, 432000, false)
	if nw.FirstNormalEpoch != 0 || nw.FirstNormalSlot != 0 {
		t.Fatalf("without warmup = %+v", nw)
	}
	if e, i := nw.GetEpochAndSlotIndex(432000*3 + 5); e != 3 || i != 5 {
		t.Fatalf("no warmup epoch = %d,%d", e, i)
	}
	for _, tt := range []struct{ slot, epoch, index uint64 }{
		{0, 0, 0}, {31, 0, 31}, {32, 1, 0}, {95, 1, 63}, {96, 2, 0}, {524255, 13, 262143}, {524256, 14, 0}, {524256 + 432000, 15, 0},
	} {
		if e, i := es.GetEpochAndSlotIndex(tt.slot); e != tt.epoch || i != tt.index {
			t.Errorf("slot %d: epoch %d index %d, want %d %d", tt.slot, e, i, tt.epoch, tt.index)
		}
	}
	if es.GetFirstSlotInEpoch(14) != 524256 || es.GetLastSlotInEpoch(13) != 524255 || es.GetSlotsInEpoch(13) != 262144 || es.GetSlotsInEpoch(14) != 432000 {
		t.Error("epoch boundaries")
	}
	if es.GetLeaderScheduleEpoch(0) != 1 || es.GetLeaderScheduleEpoch(524256) != 15 {
		t.Errorf("leader schedule epochs %d %d", es.GetLeaderScheduleEpoch(0), es.GetLeaderScheduleEpoch(524256))
	}
	want := "80970600000000008097060000000000010e00000000000000e0ff070000000000"
	if got := hex.EncodeToString(es.Marshal()); got != want {
		t.Errorf("bytes %s\nwant  %s", got, want)
	}
}

// TestEpochScheduleWarmup ports the SDK's property test: epochs and leader-schedule epochs are
// continuous, warmup epochs double, and the schedule reaches normal epochs.
func TestEpochScheduleWarmup(t *testing.T) {
	t.Parallel()
	for spe := MinimumSlotsPerEpoch; spe <= MinimumSlotsPerEpoch*16; spe++ {
		es, err := NewEpochSchedule(spe, spe/2, true)
		if err != nil {
			t.Fatal(err)
		}
		if es.GetFirstSlotInEpoch(0) != 0 || es.GetLastSlotInEpoch(0) != MinimumSlotsPerEpoch-1 {
			t.Fatalf("spe %d: first epoch bounds", spe)
		}
		var lastLeader, lastEpoch uint64
		lastSlotsInEpoch := MinimumSlotsPerEpoch
		for slot := uint64(0); slot < 2*spe; slot++ {
			leader := es.GetLeaderScheduleEpoch(slot)
			if leader != lastLeader {
				if leader != lastLeader+1 {
					t.Fatalf("spe %d slot %d: leader schedule epoch jumped %d -> %d", spe, slot, lastLeader, leader)
				}
				lastLeader = leader
			}
			epoch, offset := es.GetEpochAndSlotIndex(slot)
			if epoch != lastEpoch {
				if epoch != lastEpoch+1 {
					t.Fatalf("spe %d slot %d: epoch jumped", spe, slot)
				}
				lastEpoch = epoch
				if es.GetFirstSlotInEpoch(epoch) != slot || es.GetLastSlotInEpoch(epoch-1) != slot-1 {
					t.Fatalf("spe %d: epoch %d bounds", spe, epoch)
				}
				n := es.GetSlotsInEpoch(epoch)
				if n != lastSlotsInEpoch && n != spe && n != lastSlotsInEpoch*2 {
					t.Fatalf("spe %d: epoch %d has %d slots after %d", spe, epoch, n, lastSlotsInEpoch)
				}
				lastSlotsInEpoch = n
			}
			if offset >= lastSlotsInEpoch {
				t.Fatalf("spe %d slot %d: offset %d >= %d", spe, slot, offset, lastSlotsInEpoch)
			}
		}
		if lastLeader == 0 || lastEpoch == 0 || lastSlotsInEpoch != spe {
			t.Fatalf("spe %d: never reached normal epochs", spe)
		}
	}
}

func TestEpochScheduleExtremes(t *testing.T) {
	t.Parallel()
	huge, err := NewEpochSchedule(math.MaxUint64, math.MaxUint64, true)
	if err != nil {
		t.Fatal(err)
	}
	// The reference's arithmetic saturates; none of this may panic.
	for _, s := range []uint64{0, 1, 1 << 40, math.MaxUint64} {
		huge.GetEpochAndSlotIndex(s)
		huge.GetLeaderScheduleEpoch(s)
		huge.GetFirstSlotInEpoch(s)
		huge.GetLastSlotInEpoch(s)
		huge.GetSlotsInEpoch(s)
	}
	zero := EpochSchedule{} // as decoded from zeroed data: no division by zero
	zero.GetEpochAndSlotIndex(5)
	zero.GetLeaderScheduleEpoch(5)
}

func TestFeeRateGovernor(t *testing.T) {
	t.Parallel()
	def := DefaultFeeRateGovernor()
	if def.TargetLamportsPerSignature != 10000 || def.TargetSignaturesPerSlot != 20000 || def.BurnPercent != 50 || def.LamportsPerSignature != 0 {
		t.Fatalf("default %+v", def)
	}
	bank := NewDerivedFeeRateGovernor(def, 0)
	if bank.LamportsPerSignature != DefaultLamportsPerSignature || bank.MinLamportsPerSignature != 5000 || bank.MaxLamportsPerSignature != 100000 {
		t.Fatalf("derived from genesis %+v", bank)
	}
	if f1 := NewDerivedFeeRateGovernor(def, DefaultTargetSignaturesPerSlot); f1.LamportsPerSignature != 5000 {
		t.Fatalf("derived at target load = %d", f1.LamportsPerSignature)
	}
	if g := NewFeeRateGovernor(10000, 20000); g.LamportsPerSignature != 9500 {
		t.Fatalf("new = %+v", g)
	}
	if g := NewFeeRateGovernor(7, 0); g.LamportsPerSignature != 7 || g.MinLamportsPerSignature != 7 || g.MaxLamportsPerSignature != 7 {
		t.Fatalf("fixed = %+v", g)
	}
	if kept, burned := def.Burn(2); kept != 1 || burned != 1 {
		t.Fatal("burn 50%")
	}
	// Ramp down to the minimum, then converge on the target at target load.
	f := NewDerivedFeeRateGovernor(FeeRateGovernor{TargetLamportsPerSignature: 100, TargetSignaturesPerSlot: 100, BurnPercent: 50}, 0)
	for range 1000 {
		last := f.LamportsPerSignature
		f = NewDerivedFeeRateGovernor(f, 0)
		if f.LamportsPerSignature == last {
			break
		}
	}
	if f.LamportsPerSignature != 50 {
		t.Fatalf("minimum = %d", f.LamportsPerSignature)
	}
	for n := 0; f.LamportsPerSignature != f.TargetLamportsPerSignature; n++ {
		if n > 100 {
			t.Fatal("did not reach target")
		}
		f = NewDerivedFeeRateGovernor(f, f.TargetSignaturesPerSlot)
	}
}

func TestSlotHashes(t *testing.T) {
	t.Parallel()
	var sh SlotHashes
	for _, s := range []uint64{5, 1, 9, 5, 7} {
		sh.Add(s, core.Hash{byte(s)})
	}
	if len(sh) != 4 || sh[0].Slot != 9 || sh[3].Slot != 1 {
		t.Fatalf("order %+v", sh)
	}
	if h, ok := sh.Get(7); !ok || h != (core.Hash{7}) {
		t.Fatal("get 7")
	}
	if _, ok := sh.Get(8); ok {
		t.Fatal("get 8")
	}
	for s := uint64(10); s < 600; s++ {
		sh.Add(s, core.Hash{})
	}
	if len(sh) != SlotHashesMaxEntries || sh[0].Slot != 599 {
		t.Fatalf("truncation: %d entries, newest %d", len(sh), sh[0].Slot)
	}
	sorted := NewSlotHashes([]SlotHash{{Slot: 1}, {Slot: 3}, {Slot: 2}})
	if sorted[0].Slot != 3 || sorted[2].Slot != 1 {
		t.Fatal("NewSlotHashes order")
	}
	var back SlotHashes
	if err := back.Unmarshal(sh.AccountData()); err != nil || len(back) != len(sh) || back[511] != sh[511] {
		t.Fatalf("account data round trip: %v", err)
	}
}

func TestStakeHistory(t *testing.T) {
	t.Parallel()
	var h StakeHistory
	for e := uint64(0); e < 600; e++ {
		h.Add(e, StakeHistoryEntry{Effective: e})
	}
	if len(h) != StakeHistoryMaxEntries || h[0].Epoch != 599 {
		t.Fatalf("%d entries, newest %d", len(h), h[0].Epoch)
	}
	if e, ok := h.Get(500); !ok || e.Effective != 500 {
		t.Fatal("get 500")
	}
	if _, ok := h.Get(10); ok {
		t.Fatal("old epoch kept")
	}
	h.Add(599, StakeHistoryEntry{Activating: 1})
	if e, _ := h.Get(599); e.Activating != 1 || len(h) != StakeHistoryMaxEntries {
		t.Fatal("replace")
	}
}

func TestSlotHistory(t *testing.T) {
	t.Parallel()
	h := NewSlotHistory()
	h.Add(2)
	if h.Check(0) != SlotFound || h.Check(1) != SlotNotFound || h.Check(3) != SlotFuture {
		t.Fatal("after add 2")
	}
	h.Add(20)
	h.Add(SlotHistoryMaxEntries)
	if h.Check(0) != SlotTooOld || h.Check(1) != SlotNotFound || h.Check(2) != SlotFound || h.Check(20) != SlotFound || h.Check(21) != SlotNotFound || h.Check(SlotHistoryMaxEntries) != SlotFound {
		t.Fatal("after add max")
	}
	slot := 3*SlotHistoryMaxEntries + 3
	h.Add(slot)
	if h.Check(SlotHistoryMaxEntries) != SlotTooOld || h.Check(slot-1) != SlotNotFound || h.Check(slot) != SlotFound {
		t.Fatal("after wrap")
	}
	var back SlotHistory
	if err := back.Unmarshal(h.Marshal()); err != nil || back.NextSlot != h.NextSlot || back.Check(slot) != SlotFound {
		t.Fatalf("round trip: %v", err)
	}
	genesis := NewSlotHistory().Marshal()
	if genesis[0] != 1 || genesis[9] != 1 || !bytes.Equal(genesis[len(genesis)-16:], []byte{0, 0, 16, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}) {
		t.Fatalf("genesis layout: head %x tail %x", genesis[:10], genesis[len(genesis)-16:])
	}
}

func TestEpochRewardsLayout(t *testing.T) {
	t.Parallel()
	e := EpochRewards{DistributionStartingBlockHeight: 1, NumPartitions: 2, ParentBlockhash: core.Hash{3}, TotalPoints: Uint128{Lo: 4, Hi: 5}, TotalRewards: 6, DistributedRewards: 7, Active: true}
	b := e.Marshal()
	if b[16] != 3 || b[48] != 4 || b[56] != 5 || b[64] != 6 || b[72] != 7 || b[80] != 1 {
		t.Fatalf("layout %x", b)
	}
	b[80] = 2
	var back EpochRewards
	if err := back.Unmarshal(b); err == nil {
		t.Fatal("bool 2 accepted")
	}
}

// allCodecs returns a fresh value of every sysvar type, indexed by a selector byte.
func allCodecs() []codec {
	return []codec{
		&Clock{}, &Rent{}, &EpochSchedule{}, &Fees{}, &RecentBlockhashes{}, &SlotHashes{},
		&StakeHistory{}, &EpochRewards{}, &LastRestartSlot{}, &Rewards{}, &SlotHistory{}, &FeeRateGovernor{},
	}
}

func TestRoundTripAll(t *testing.T) {
	t.Parallel()
	rent := DefaultRent()
	es := DefaultEpochSchedule()
	samples := []codec{
		&Clock{Slot: 9, UnixTimestamp: -1}, &rent, &es, &Fees{FeeCalculator{5000}},
		&RecentBlockhashes{{Blockhash: core.Hash{1}, FeeCalculator: FeeCalculator{5000}}},
		&SlotHashes{{Slot: 3, Hash: core.Hash{3}}}, &StakeHistory{{Epoch: 1, Entry: StakeHistoryEntry{1, 2, 3}}},
		&EpochRewards{Active: true}, &LastRestartSlot{7}, &Rewards{ValidatorPointValue: 1.5},
		&SlotHistory{Bits: []uint64{1, 2}, BitLen: 128, NextSlot: 3}, &FeeRateGovernor{TargetLamportsPerSignature: 1, BurnPercent: 2},
	}
	for i, s := range samples {
		b := s.Marshal()
		fresh := allCodecs()[i]
		if err := fresh.Unmarshal(append(b, 0xde, 0xad)); err != nil {
			t.Fatalf("%T: %v", s, err)
		}
		if !bytes.Equal(fresh.Marshal(), b) {
			t.Fatalf("%T: round trip differs", s)
		}
		if len(b) > 0 {
			if err := allCodecs()[i].Unmarshal(b[:len(b)-1]); err == nil {
				t.Fatalf("%T: truncated input accepted", s)
			}
		}
	}
}

func FuzzUnmarshal(f *testing.F) {
	for i, c := range allCodecs() {
		f.Add(append([]byte{byte(i)}, c.Marshal()...))
	}
	es := DefaultEpochSchedule()
	f.Add(append([]byte{2}, es.Marshal()...))
	f.Add(append([]byte{5}, SlotHashes{{Slot: 1}}.Marshal()...))
	f.Add([]byte{10, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		codecs := allCodecs()
		c := codecs[int(data[0])%len(codecs)]
		in := data[1:]
		if err := c.Unmarshal(in); err != nil {
			return
		}
		out := c.Marshal()
		if !bytes.HasPrefix(in, out) {
			t.Fatalf("%T: marshal is not the consumed prefix:\n in  %x\n out %x", c, in, out)
		}
		if es, ok := c.(*EpochSchedule); ok {
			es.GetEpochAndSlotIndex(uint64(len(in)) * 12345)
			es.GetLeaderScheduleEpoch(math.MaxUint64)
			es.GetLastSlotInEpoch(uint64(len(in)))
		}
		if r, ok := c.(*Rent); ok {
			r.MinimumBalance(uint64(len(in)))
		}
		if h, ok := c.(*SlotHistory); ok {
			h.Check(5)
			h.Add(uint64(len(in)))
		}
	})
}

func TestInstructionsSysvar(t *testing.T) {
	t.Parallel()
	a, b, prog := core.Pubkey{1}, core.Pubkey{2}, core.MemoProgramID
	ixs := []core.Instruction{
		{ProgramID: prog, Accounts: []core.AccountMeta{core.WritableSigner(a), core.Readonly(b)}, Data: []byte("hi")},
		{ProgramID: core.SystemProgramID, Data: []byte{}},
	}
	data := SerializeInstructions(ixs)
	// 2 + 2*2 offsets; first instruction at 6: 2 + 2*33 + 32 + 2 + 2 = 104 bytes; second at 110.
	if data[0] != 2 || data[2] != 6 || data[4] != 110 || len(data) != 110+2+32+2+2 {
		t.Fatalf("layout: %x (len %d)", data[:6], len(data))
	}
	if data[8] != 3 || data[41] != 0 {
		t.Fatalf("flags %d %d", data[8], data[41])
	}
	StoreCurrentInstructionIndex(data, 1)
	if idx, err := LoadCurrentInstructionIndex(data); err != nil || idx != 1 {
		t.Fatalf("current index %d %v", idx, err)
	}
	got, err := LoadInstructionAt(data, 0)
	if err != nil || got.ProgramID != prog || len(got.Accounts) != 2 || !got.Accounts[0].IsSigner || !got.Accounts[0].IsWritable || got.Accounts[1].IsWritable || string(got.Data) != "hi" {
		t.Fatalf("instruction 0: %+v %v", got, err)
	}
	if got, err := LoadInstructionAt(data, 1); err != nil || got.ProgramID != core.SystemProgramID || len(got.Data) != 0 {
		t.Fatalf("instruction 1: %+v %v", got, err)
	}
	if _, err := LoadInstructionAt(data, 2); err != ErrInvalidInstructionsData {
		t.Fatal("index out of range accepted")
	}
	for i := range data {
		LoadInstructionAt(data[:i], 0) // must not panic on truncation
		LoadInstructionAt(data[:i], 1)
	}
}
