package core

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mr-tron/base58"
)

func TestParsePubkey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want error
	}{
		{"system program", "11111111111111111111111111111111", nil},
		{"token program", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", nil},
		{"empty", "", ErrWrongSize},
		{"too short", "1111", ErrWrongSize},
		{"one leading zero too many", "111111111111111111111111111111111", ErrWrongSize},
		{"45 chars", strings.Repeat("2", 45), ErrWrongSize},
		{"bad char 0", "0okenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", ErrInvalid},
		{"bad char I", "IokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", ErrInvalid},
		{"bad char l", "lokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", ErrInvalid},
		{"non-ascii", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D☉", ErrWrongSize}, // 46 bytes
		{"space", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5D ", ErrInvalid},
		{"decodes to 33 bytes", strings.Repeat("z", 44), ErrWrongSize},
		{"a signature", "4fsZrArpDZYxPXXPtEPBxNjxSfEZwtjrcRUc8VUQ1Xmt4tmpkGYww8zdqkH8TFWk95Xrwn9wyTSUgTjyeHV7eRx6", ErrWrongSize},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePubkey(tt.in)
			if !errors.Is(err, tt.want) {
				t.Fatalf("ParsePubkey(%q) error = %v, want %v", tt.in, err, tt.want)
			}
			if err == nil && p.String() != tt.in {
				t.Fatalf("round trip: got %s, want %s", p, tt.in)
			}
		})
	}
	if ErrWrongSize.Error() != "WrongSize" || ErrInvalid.Error() != "Invalid" {
		t.Fatal("parse error texts must be the reference's Debug forms")
	}
}

func TestParseSignatureAndHash(t *testing.T) {
	t.Parallel()
	const sig = "4fsZrArpDZYxPXXPtEPBxNjxSfEZwtjrcRUc8VUQ1Xmt4tmpkGYww8zdqkH8TFWk95Xrwn9wyTSUgTjyeHV7eRx6"
	s, err := ParseSignature(sig)
	if err != nil || s.String() != sig {
		t.Fatalf("ParseSignature: %v %s", err, s)
	}
	for in, want := range map[string]error{
		"": ErrWrongSize,
		"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA": ErrWrongSize,
		strings.Repeat("2", 89):                       ErrWrongSize,
		"0" + sig[1:]:                                 ErrInvalid,
		strings.Repeat("1", 64):                       nil,
	} {
		if _, err := ParseSignature(in); !errors.Is(err, want) {
			t.Errorf("ParseSignature(%q) = %v, want %v", in, err, want)
		}
	}
	h, err := ParseHash("4ruaGCyaofHWGxPFXFVjuEJCdfBGZ2wCtEx6LzdzVqtV")
	if err != nil || h != HashBytes([]byte("blockhash")) {
		t.Fatalf("ParseHash: %v %s", err, h)
	}
	if _, err := ParseHash(sig); !errors.Is(err, ErrWrongSize) {
		t.Fatalf("ParseHash(signature) = %v", err)
	}
}

func TestHashBytes(t *testing.T) {
	t.Parallel()
	if HashBytes([]byte("ab"), []byte("c")) != HashBytes([]byte("abc")) {
		t.Fatal("hashv must hash the concatenation")
	}
}

func TestPrimitiveJSON(t *testing.T) {
	t.Parallel()
	type doc struct {
		Key  Pubkey            `json:"key"`
		Sig  Signature         `json:"sig"`
		Hash Hash              `json:"hash"`
		Map  map[Pubkey]uint64 `json:"map"`
	}
	in := doc{Key: TokenProgramID, Sig: Signature{1, 2, 3}, Hash: HashBytes([]byte("x")), Map: map[Pubkey]uint64{SystemProgramID: 7}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"key":"TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA","sig":"` + in.Sig.String() + `","hash":"` + in.Hash.String() + `","map":{"11111111111111111111111111111111":7}}`
	if string(b) != want {
		t.Fatalf("json = %s\nwant   %s", b, want)
	}
	var out doc
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.Key != in.Key || out.Sig != in.Sig || out.Hash != in.Hash || out.Map[SystemProgramID] != 7 {
		t.Fatalf("round trip mismatch: %+v", out)
	}
	for _, bad := range []string{`{"key":"0"}`, `{"key":12}`, `{"key":"1111"}`} {
		if err := json.Unmarshal([]byte(bad), &out); err == nil {
			t.Errorf("Unmarshal(%s) succeeded", bad)
		}
	}
	var p Pubkey
	if err := json.Unmarshal([]byte(`"Invalid0"`), &p); !errors.Is(err, ErrInvalid) {
		t.Errorf("want ErrInvalid, got %v", err)
	}
}

func TestWellKnownIDs(t *testing.T) {
	t.Parallel()
	// Each id must decode to exactly 32 bytes and print back unchanged.
	for name, id := range map[string]Pubkey{
		"system": SystemProgramID, "vote": VoteProgramID, "stake": StakeProgramID,
		"config": ConfigProgramID, "compute budget": ComputeBudgetProgramID,
		"alt": AddressLookupTableProgramID, "bpf2": BPFLoaderProgramID,
		"upgradeable": BPFLoaderUpgradeableProgramID, "deprecated": BPFLoaderDeprecatedProgramID,
		"native loader": NativeLoaderProgramID, "token": TokenProgramID, "token22": Token2022ProgramID,
		"ata": AssociatedTokenProgramID, "memo1": MemoV1ProgramID, "memo": MemoProgramID,
		"incinerator": IncineratorID, "native mint": NativeMintID, "clock": SysvarClockID,
		"rent": SysvarRentID, "epoch schedule": SysvarEpochScheduleID, "fees": SysvarFeesID,
		"recent blockhashes": SysvarRecentBlockhashesID, "slot hashes": SysvarSlotHashesID,
		"slot history": SysvarSlotHistoryID, "stake history": SysvarStakeHistoryID,
		"instructions": SysvarInstructionsID, "last restart": SysvarLastRestartSlotID,
		"epoch rewards": SysvarEpochRewardsID,
	} {
		raw, err := base58.Decode(id.String())
		if err != nil || len(raw) != 32 {
			t.Errorf("%s: %s decodes to %d bytes (%v)", name, id, len(raw), err)
		}
	}
	if !SystemProgramID.IsZero() {
		t.Error("system program id must be all zeros")
	}
	if len(ReservedAccountKeys()) != 30 {
		t.Errorf("reserved keys = %d, want 30", len(ReservedAccountKeys()))
	}
	if !IsReservedAccountKey(SysvarClockID) || IsReservedAccountKey(TokenProgramID) || !IsSysvarID(SysvarRentID) || IsSysvarID(SystemProgramID) {
		t.Error("reserved/sysvar classification wrong")
	}
}

func FuzzParsePubkey(f *testing.F) {
	for _, s := range []string{"11111111111111111111111111111111", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", "", "1", strings.Repeat("z", 44), "0O"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePubkey(s)
		if len(s) > 2*maxBase58PubkeyLen {
			// Rejected by length alone; the quadratic reference decoder is not worth running.
			if !errors.Is(err, ErrWrongSize) {
				t.Fatalf("long input: %v", err)
			}
			return
		}
		ref, refErr := base58.Decode(s)
		switch {
		case err == nil:
			if p.String() != s {
				t.Fatalf("round trip %q -> %s", s, p)
			}
			if refErr != nil || string(ref) != string(p[:]) {
				t.Fatalf("disagrees with reference decoder for %q", s)
			}
		case errors.Is(err, ErrInvalid):
			if refErr == nil {
				t.Fatalf("%q: Invalid but reference decodes it", s)
			}
		case errors.Is(err, ErrWrongSize):
			if len(s) <= maxBase58PubkeyLen && s != "" && (refErr != nil || len(ref) == 32) {
				t.Fatalf("%q: WrongSize but reference gives %d bytes, %v", s, len(ref), refErr)
			}
		default:
			t.Fatalf("unexpected error %v", err)
		}
	})
}

func BenchmarkParsePubkey(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParsePubkey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"); err != nil {
			b.Fatal(err)
		}
	}
}
