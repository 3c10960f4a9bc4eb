package core

import (
	"bytes"
	"crypto/ed25519"
	"testing"
)

// The CreateProgramAddress vectors are the SDK's published ones; the associated token addresses
// and the bump search results were derived independently with a from-scratch Python
// implementation (testdata/vectors.py: SHA-256 and an Ed25519 square-root test), which reproduces the published
// vectors too.
func TestCreateProgramAddress(t *testing.T) {
	t.Parallel()
	program := BPFLoaderUpgradeableProgramID
	seedKey := MustParsePubkey("SeedPubey1111111111111111111111111111111111")
	tests := []struct {
		seeds [][]byte
		want  string
	}{
		{[][]byte{{}, {1}}, "BwqrghZA2htAcqq8dzP1WDAhTXYTYWj7CHxF5j7TDBAe"},
		{[][]byte{[]byte("☉"), {0}}, "13yWmRpaTR4r5nAktwLqMpRNr28tnVUZw26rTvPSSB19"},
		{[][]byte{[]byte("Talking"), []byte("Squirrels")}, "2fnQrngrQT4SeLcdToJAD96phoEjNL2man2kfRLCASVk"},
		{[][]byte{seedKey[:], {1}}, "976ymqVnfE32QFe6NfGDctSvVa36LWnvYxhU6G2232YL"},
	}
	for _, tt := range tests {
		got, err := CreateProgramAddress(tt.seeds, program)
		if err != nil || got.String() != tt.want {
			t.Errorf("CreateProgramAddress(%q) = %s, %v; want %s", tt.seeds, got, err, tt.want)
		}
		if got.IsOnCurve() {
			t.Errorf("%s is on the curve", got)
		}
	}
	a, _ := CreateProgramAddress([][]byte{[]byte("Talking")}, program)
	b, _ := CreateProgramAddress([][]byte{[]byte("Talking"), []byte("Squirrels")}, program)
	if a == b {
		t.Error("different seeds gave the same address")
	}

	exceeded := bytes.Repeat([]byte{127}, MaxSeedLen+1)
	if _, err := CreateProgramAddress([][]byte{exceeded}, program); err != ErrMaxSeedLengthExceeded {
		t.Errorf("long seed: %v", err)
	}
	if _, err := CreateProgramAddress([][]byte{[]byte("short_seed"), exceeded}, program); err != ErrMaxSeedLengthExceeded {
		t.Errorf("long second seed: %v", err)
	}
	if _, err := CreateProgramAddress([][]byte{make([]byte, MaxSeedLen)}, program); err != nil {
		t.Errorf("max seed: %v", err)
	}
	seeds := make([][]byte, 17)
	for i := range seeds {
		seeds[i] = []byte{byte(i + 1)}
	}
	if _, err := CreateProgramAddress(seeds, program); err != ErrMaxSeedLengthExceeded {
		t.Errorf("17 seeds: %v", err)
	}
	if _, err := CreateProgramAddress(seeds[:16], program); err != nil {
		t.Errorf("16 seeds: %v", err)
	}
	if _, _, err := FindProgramAddress(seeds[:16], program); err != ErrMaxSeedLengthExceeded {
		t.Errorf("find with 16 seeds leaves no room for the bump: %v", err)
	}
	// An on-curve hash is refused: find seeds whose first bump candidate lands on the curve.
	found := false
	for i := 0; i < 64 && !found; i++ {
		h := programAddressHash([][]byte{{byte(i)}}, nil, &program)
		if IsOnCurve(h[:]) {
			found = true
			if _, err := CreateProgramAddress([][]byte{{byte(i)}}, program); err != ErrInvalidSeeds {
				t.Errorf("on-curve seeds: %v", err)
			}
		}
	}
	if !found {
		t.Error("no on-curve example among 64 seeds (expected about half)")
	}
}

func TestFindProgramAddress(t *testing.T) {
	t.Parallel()
	addr, bump, err := FindProgramAddress([][]byte{[]byte("Lil'"), []byte("Bits")}, BPFLoaderUpgradeableProgramID)
	if err != nil || addr.String() != "H4feCuM8B43jxwbHAsUHDasw1raRkvWF6py4Fx7suB8N" || bump != 254 {
		t.Fatalf("FindProgramAddress = %s, %d, %v", addr, bump, err)
	}
	again, err := CreateProgramAddress([][]byte{[]byte("Lil'"), []byte("Bits"), {bump}}, BPFLoaderUpgradeableProgramID)
	if err != nil || again != addr {
		t.Fatalf("CreateProgramAddress with the bump = %s, %v", again, err)
	}
}

func TestAssociatedTokenAddress(t *testing.T) {
	t.Parallel()
	wallet := MustParsePubkey("E645TckHQnDcavVv92Etc6xSWQaq8zzPtPRGBheviRAk")
	usdc := MustParsePubkey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
	tests := []struct {
		program Pubkey
		want    string
	}{
		{TokenProgramID, "2gS6PA4z17TuboiWyowsHDzdMbhhb4v5GBGSXBQqLG2U"},
		{Token2022ProgramID, "Bq27ztqYE2QQEGThwWrDECZH9q8qukVnQYBUVjXg3xHF"},
	}
	for _, tt := range tests {
		got, bump := FindAssociatedTokenAddress(wallet, usdc, tt.program)
		if got.String() != tt.want || bump != 254 {
			t.Errorf("ATA under %s = %s (bump %d), want %s", tt.program, got, bump, tt.want)
		}
	}
}

func TestCreateWithSeed(t *testing.T) {
	t.Parallel()
	got, err := CreateWithSeed(Pubkey{}, "limber chicken: 4/45", Pubkey{})
	if err != nil || got.String() != "9h1HyLCW5dZnBVap8C5egQ9Z6pHyjsh5MNy83iPqqRuq" {
		t.Fatalf("CreateWithSeed = %s, %v", got, err)
	}
	if _, err := CreateWithSeed(Pubkey{}, string(bytes.Repeat([]byte{'a'}, 33)), Pubkey{}); err != ErrMaxSeedLengthExceeded {
		t.Errorf("33-byte seed: %v", err)
	}
	if _, err := CreateWithSeed(Pubkey{}, string(bytes.Repeat([]byte{'a'}, 32)), Pubkey{}); err != nil {
		t.Errorf("32-byte seed: %v", err)
	}
	var owner Pubkey
	copy(owner[PubkeyLen-len(PDAMarker):], PDAMarker)
	if _, err := CreateWithSeed(Pubkey{}, "x", owner); err != ErrIllegalOwner {
		t.Errorf("PDA-marker owner: %v", err)
	}
	owner[31] ^= 1
	if _, err := CreateWithSeed(Pubkey{}, "x", owner); err != nil {
		t.Errorf("near-marker owner: %v", err)
	}
}

func TestIsOnCurve(t *testing.T) {
	t.Parallel()
	// Every Ed25519 public key is on the curve.
	for i := range 32 {
		if k := seedKeypair(byte(i)); !k.PublicKey().IsOnCurve() {
			t.Fatalf("public key %s off curve", k.PublicKey())
		}
	}
	if !MustParsePubkey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v").IsOnCurve() {
		t.Error("USDC mint is on the curve")
	}
	// y = 2^255 - 1 reduces to 18 (a non-canonical encoding dalek accepts when 18 is a valid y).
	// Cross-check the two forms agree.
	nonCanon := bytes.Repeat([]byte{0xff}, 32)
	nonCanon[31] = 0x7f
	canon := make([]byte, 32)
	canon[0] = 18
	if IsOnCurve(nonCanon) != IsOnCurve(canon) {
		t.Error("non-canonical y must be judged as its reduction")
	}
	if IsOnCurve(make([]byte, 31)) {
		t.Error("wrong length")
	}
	_ = ed25519.PublicKeySize
}

func BenchmarkFindProgramAddress(b *testing.B) {
	wallet := MustParsePubkey("E645TckHQnDcavVv92Etc6xSWQaq8zzPtPRGBheviRAk")
	usdc := MustParsePubkey("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")
	b.ReportAllocs()
	for b.Loop() {
		FindAssociatedTokenAddress(wallet, usdc, TokenProgramID)
	}
}
