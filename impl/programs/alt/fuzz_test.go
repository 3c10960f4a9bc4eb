package alt_test

import (
	"bytes"
	"encoding/binary"
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/alt"
	"ledgerd/impl/runtime"
)

// FuzzDecode: table data never panics the decoder, and what decodes encodes back to the same
// metadata and addresses.
func FuzzDecode(f *testing.F) {
	authority := core.Pubkey{1}
	f.Add(alt.Encode(alt.NewMeta(authority), addresses(2, 1)))
	f.Add(alt.Encode(alt.Meta{DeactivationSlot: 9}, nil))
	f.Add([]byte{1, 0, 0, 0})
	f.Add(make([]byte, alt.MetaSize+31))
	f.Fuzz(func(t *testing.T, data []byte) {
		tbl, err := alt.Decode(data)
		if err != nil {
			return
		}
		again, err := alt.Decode(alt.Encode(tbl.Meta, tbl.Addresses))
		if err != nil || again.Meta.DeactivationSlot != tbl.Meta.DeactivationSlot ||
			again.Meta.LastExtendedSlot != tbl.Meta.LastExtendedSlot ||
			again.Meta.LastExtendedSlotStartIndex != tbl.Meta.LastExtendedSlotStartIndex ||
			(again.Meta.Authority == nil) != (tbl.Meta.Authority == nil) || !slices.Equal(again.Addresses, tbl.Addresses) {
			t.Fatalf("round trip of %x: %+v / %+v (%v)", data, tbl, again, err)
		}
		_, _ = tbl.Lookup(binary.LittleEndian.Uint64(append(slices.Clone(data), make([]byte, 8)...)), data, alt.SlotHashes(data))
	})
}

// FuzzDecodeInstruction: instruction data never panics the decoder, and what decodes encodes to a
// prefix of the data (the program ignores trailing bytes).
func FuzzDecodeInstruction(f *testing.F) {
	f.Add(alt.Instruction{Kind: alt.KindCreateLookupTable, RecentSlot: 5, BumpSeed: 255}.Encode())
	f.Add(alt.Instruction{Kind: alt.KindExtendLookupTable, NewAddresses: addresses(3, 1)}.Encode())
	f.Add([]byte{2, 0, 0, 0, 39, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{4, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := alt.DecodeInstruction(data)
		if err != nil {
			return
		}
		if enc := ix.Encode(); !bytes.HasPrefix(data, enc) {
			t.Fatalf("%x decoded to %+v, which encodes to %x", data, ix, enc)
		}
	})
}

// FuzzExecute runs arbitrary instruction data against an arbitrary table: the program may fail
// but never panics (which the runtime would report as ProgramFailedToComplete).
func FuzzExecute(f *testing.F) {
	authority := key(2)
	f.Add(alt.Instruction{Kind: alt.KindExtendLookupTable, NewAddresses: addresses(2, 1)}.Encode(),
		alt.Encode(alt.NewMeta(authority.PublicKey()), addresses(3, 1)), uint8(0))
	f.Add(alt.Instruction{Kind: alt.KindCloseLookupTable}.Encode(), alt.Encode(alt.Meta{DeactivationSlot: 3}, nil), uint8(4))
	f.Add(alt.Instruction{Kind: alt.KindCreateLookupTable, RecentSlot: 9}.Encode(), []byte{}, uint8(1))
	f.Fuzz(func(t *testing.T, data, table []byte, accounts uint8) {
		h := newHarness(t, 10)
		payer := key(1)
		h.fund(payer.PublicKey(), 1_000_000_000)
		tableKey := core.Pubkey{0xee}
		h.accts[tableKey] = runtime.Account{Lamports: 1_000_000, Owner: alt.ProgramID, Data: table}
		metas := []core.AccountMeta{core.Writable(tableKey), core.ReadonlySigner(authority.PublicKey()),
			core.WritableSigner(payer.PublicKey()), core.Readonly(core.SystemProgramID)}
		metas = metas[:min(int(accounts)%5, len(metas))]
		signers := []core.Keypair{payer}
		if len(metas) > 1 {
			signers = append(signers, authority)
		}
		ix := core.Instruction{ProgramID: alt.ProgramID, Accounts: metas, Data: data}
		tx, err := core.NewTransaction(payer.PublicKey(), []core.Instruction{ix}, h.env.Blockhash, signers...)
		if err != nil {
			t.Skip(err)
		}
		res := runtime.Execute(h.env, h.accts, tx, runtime.Options{})
		if res.Err != nil && res.Err.Kind == runtime.TxInstructionError && res.Err.Instruction == runtime.ErrProgramFailedToComplete {
			t.Fatalf("program panicked: %v", res.Logs)
		}
	})
}
