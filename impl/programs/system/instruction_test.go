package system_test

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
)

func TestDecodeRoundTrip(t *testing.T) {
	t.Parallel()
	k := key(9).PublicKey()
	tests := []system.Instruction{
		{Kind: system.KindCreateAccount, Lamports: 1, Space: 2, Owner: k},
		{Kind: system.KindAssign, Owner: k},
		{Kind: system.KindTransfer, Lamports: 1 << 60},
		{Kind: system.KindCreateAccountWithSeed, Base: k, Seed: "seed é", Lamports: 3, Space: 4, Owner: k},
		{Kind: system.KindAdvanceNonceAccount},
		{Kind: system.KindWithdrawNonceAccount, Lamports: 5},
		{Kind: system.KindInitializeNonceAccount, Authority: k},
		{Kind: system.KindAuthorizeNonceAccount, Authority: k},
		{Kind: system.KindAllocate, Space: 6},
		{Kind: system.KindAllocateWithSeed, Base: k, Seed: "", Space: 7, Owner: k},
		{Kind: system.KindAssignWithSeed, Base: k, Seed: "x", Owner: k},
		{Kind: system.KindTransferWithSeed, Lamports: 8, Seed: "y", Owner: k},
		{Kind: system.KindUpgradeNonceAccount},
		{Kind: system.KindCreateAccountAllowPrefund, Lamports: 9, Space: 10, Owner: k},
	}
	for _, ix := range tests {
		b := ix.Encode()
		got, err := system.Decode(b)
		if err != nil || got != ix {
			t.Errorf("%s: %+v, %v", ix.Kind, got, err)
		}
		// Trailing bytes are ignored; a byte short is an error.
		if got, err := system.Decode(append(b, 1, 2, 3)); err != nil || got != ix {
			t.Errorf("%s with trailing bytes: %v", ix.Kind, err)
		}
		if _, err := system.Decode(b[:len(b)-1]); err == nil {
			t.Errorf("%s: truncated data accepted", ix.Kind)
		}
	}
}

// The wire form of Transfer, as @solana/web3.js builds it.
func TestTransferEncoding(t *testing.T) {
	t.Parallel()
	got := hex.EncodeToString(system.Transfer(key(1).PublicKey(), key(2).PublicKey(), 1_000_000_000).Data)
	if got != "0200000000ca9a3b00000000" {
		t.Fatalf("transfer data %s", got)
	}
	if !core.IsAdvanceNonceInstructionData(system.AdvanceNonceAccount(key(1).PublicKey(), key(2).PublicKey()).Data) {
		t.Fatal("advance nonce data")
	}
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	seedIx := func(seed []byte, declared uint64) []byte {
		b := []byte{3, 0, 0, 0}
		b = append(b, make([]byte, 32)...)
		b = append(b, byte(declared), byte(declared>>8), byte(declared>>16), byte(declared>>24), byte(declared>>32), 0, 0, 0)
		b = append(b, seed...)
		return append(b, make([]byte, 48)...)
	}
	tests := map[string][]byte{
		"empty":              nil,
		"short tag":          {2, 0, 0},
		"unknown tag":        {14, 0, 0, 0},
		"huge tag":           {0, 0, 0, 1},
		"short lamports":     {2, 0, 0, 0, 1},
		"invalid utf-8 seed": seedIx([]byte{0xff, 0xfe}, 2),
		"seed past the end":  seedIx([]byte("ab"), 1<<33),
		"seed over the size limit": func() []byte {
			seed := bytes.Repeat([]byte("a"), 1200)
			return seedIx(seed, uint64(len(seed)))
		}(),
	}
	for name, data := range tests {
		if _, err := system.Decode(data); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// A long seed decodes (CreateWithSeed rejects it later) while under the size limit.
	if ix, err := system.Decode(seedIx([]byte(strings.Repeat("s", 100)), 100)); err != nil || len(ix.Seed) != 100 {
		t.Fatalf("100-byte seed: %v", err)
	}
}

func TestSystemErrors(t *testing.T) {
	t.Parallel()
	if system.NonceBlockhashNotExpired.Instruction().Error() != "custom program error: 0x7" ||
		system.AddressWithSeedMismatch.Name() != "AddressWithSeedMismatch" ||
		system.NonceUnexpectedBlockhashValue != 8 ||
		system.ResultWithNegativeLamports.Error() != "account does not have enough SOL to perform the operation" {
		t.Fatal("system errors")
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(system.Transfer(key(1).PublicKey(), key(2).PublicKey(), 5).Data)
	f.Add(system.CreateAccountWithSeed(key(1).PublicKey(), key(2).PublicKey(), key(3).PublicKey(), "seed", 1, 2, key(4).PublicKey()).Data)
	f.Add(system.TransferWithSeed(key(1).PublicKey(), key(2).PublicKey(), "s", key(3).PublicKey(), key(4).PublicKey(), 1).Data)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := system.Decode(data)
		if err != nil {
			return
		}
		again, err := system.Decode(ix.Encode())
		if err != nil || again != ix {
			t.Fatalf("re-decode of %x: %+v %v", data, again, err)
		}
	})
}
