package alt_test

import (
	"encoding/hex"
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/alt"
)

func TestInstructionEncoding(t *testing.T) {
	t.Parallel()
	a := core.Pubkey{0xaa}
	for _, c := range []struct {
		ix   alt.Instruction
		want string
	}{
		{alt.Instruction{Kind: alt.KindCreateLookupTable, RecentSlot: 0x0102030405, BumpSeed: 254}, "00000000" + "0504030201000000" + "fe"},
		{alt.Instruction{Kind: alt.KindFreezeLookupTable}, "01000000"},
		{alt.Instruction{Kind: alt.KindExtendLookupTable, NewAddresses: []core.Pubkey{a}}, "02000000" + "0100000000000000" + hex.EncodeToString(a[:])},
		{alt.Instruction{Kind: alt.KindDeactivateLookupTable}, "03000000"},
		{alt.Instruction{Kind: alt.KindCloseLookupTable}, "04000000"},
	} {
		data := c.ix.Encode()
		if got := hex.EncodeToString(data); got != c.want {
			t.Errorf("%s: %s, want %s", c.ix.Kind, got, c.want)
		}
		back, err := alt.DecodeInstruction(append(data, 0xff)) // trailing bytes are ignored
		if err != nil || back.Kind != c.ix.Kind || back.RecentSlot != c.ix.RecentSlot || back.BumpSeed != c.ix.BumpSeed ||
			!slices.Equal(back.NewAddresses, c.ix.NewAddresses) {
			t.Errorf("%s: decoded %+v, %v", c.ix.Kind, back, err)
		}
	}
	long := alt.Instruction{Kind: alt.KindExtendLookupTable, NewAddresses: addresses(alt.MaxNewAddresses, 1)}.Encode()
	if _, err := alt.DecodeInstruction(long); err != nil || alt.MaxNewAddresses != 38 {
		t.Errorf("38 addresses: %v", err)
	}
	for name, data := range map[string][]byte{
		"empty":         nil,
		"short tag":     {1, 0, 0},
		"unknown":       {5, 0, 0, 0},
		"short create":  alt.Instruction{Kind: alt.KindCreateLookupTable}.Encode()[:12],
		"no length":     {2, 0, 0, 0},
		"too many":      alt.Instruction{Kind: alt.KindExtendLookupTable, NewAddresses: addresses(39, 1)}.Encode(),
		"huge length":   {2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80},
		"short address": long[:len(long)-1],
	} {
		if _, err := alt.DecodeInstruction(data); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

func TestBuilders(t *testing.T) {
	t.Parallel()
	authority := core.KeypairFromSeed([32]byte{2}).PublicKey()
	payer, recipient := core.Pubkey{1}, core.Pubkey{3}
	// The address LiteSVM's client derived for this authority and slot (testdata/litesvm_corpus.json).
	table, bump := alt.DeriveAddress(authority, 999)
	if table.String() != "DUNfbCbyVUvVX6kFy9mfucRQ6ZAKsW7ebAZrTxYq4Xob" {
		t.Fatalf("derived %s", table)
	}
	metas := func(ix core.Instruction) string {
		s := ""
		for _, m := range ix.Accounts {
			switch {
			case m.IsSigner && m.IsWritable:
				s += "S"
			case m.IsSigner:
				s += "s"
			case m.IsWritable:
				s += "w"
			default:
				s += "r"
			}
		}
		return s
	}
	ix, got := alt.CreateLookupTable(authority, payer, 999)
	if got != table || ix.ProgramID != alt.ProgramID || metas(ix) != "wrSr" || ix.Accounts[3].Pubkey != core.SystemProgramID ||
		hex.EncodeToString(ix.Data) != "00000000e703000000000000"+hex.EncodeToString([]byte{bump}) {
		t.Errorf("create: %+v", ix)
	}
	if ix, _ := alt.CreateLookupTableSigned(authority, payer, 999); metas(ix) != "wsSr" {
		t.Errorf("signed create: %s", metas(ix))
	}
	if ix := alt.ExtendLookupTable(table, authority, &payer, addresses(2, 1)); metas(ix) != "wsSr" || len(ix.Data) != 12+64 {
		t.Errorf("extend: %s", metas(ix))
	}
	if ix := alt.ExtendLookupTable(table, authority, nil, addresses(2, 1)); metas(ix) != "ws" {
		t.Errorf("extend without payer: %s", metas(ix))
	}
	for _, ix := range []core.Instruction{alt.FreezeLookupTable(table, authority), alt.DeactivateLookupTable(table, authority)} {
		if metas(ix) != "ws" || ix.Accounts[0].Pubkey != table || ix.Accounts[1].Pubkey != authority {
			t.Errorf("%x: %s", ix.Data, metas(ix))
		}
	}
	if ix := alt.CloseLookupTable(table, authority, recipient); metas(ix) != "wsw" || ix.Accounts[2].Pubkey != recipient {
		t.Errorf("close: %s", metas(ix))
	}
}
