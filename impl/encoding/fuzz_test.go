package encoding

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/nonce"
)

var (
	fuzzOwners  = []core.Pubkey{core.SystemProgramID, core.SysvarOwnerID, core.MemoProgramID, core.VoteProgramID}
	fuzzPubkeys = []core.Pubkey{
		sysvar.ClockID, sysvar.RentID, sysvar.EpochScheduleID, sysvar.FeesID, sysvar.RecentBlockhashesID,
		sysvar.SlotHashesID, sysvar.StakeHistoryID, sysvar.SlotHistoryID, sysvar.EpochRewardsID,
		sysvar.LastRestartSlotID, sysvar.RewardsID, sysvar.InstructionsID, {5},
	}
	fuzzEncodings = []rpcapi.AccountEncoding{Binary, Base58, Base64, Base64Zstd, JSONParsed}
)

// FuzzEncodeAccount feeds arbitrary data, owner, address, encoding and slice through
// EncodeAccount. It must never panic, fail only as documented, and whatever it returns must
// decode back to the sliced data.
func FuzzEncodeAccount(f *testing.F) {
	clock := sysvar.Clock{Slot: 9, UnixTimestamp: -1}
	rent := sysvar.DefaultRent()
	schedule := sysvar.DefaultEpochSchedule()
	rewards := sysvar.EpochRewards{TotalPoints: sysvar.Uint128{Hi: 3}, Active: true}
	var slotHashes sysvar.SlotHashes
	slotHashes.Add(3, core.Hash{1})
	var stakeHistory sysvar.StakeHistory
	stakeHistory.Add(2, sysvar.StakeHistoryEntry{Effective: 1})
	seeds := []struct {
		data          []byte
		owner, pubkey uint8
	}{
		{marshal(&clock), 1, 0},
		{marshal(&rent), 1, 1},
		{marshal(&schedule), 1, 2},
		{marshal(&sysvar.Fees{}), 1, 3},
		{sysvar.RecentBlockhashes{{Blockhash: core.Hash{2}}}.Marshal(), 1, 4},
		{slotHashes.Marshal(), 1, 5},
		{stakeHistory.Marshal(), 1, 6},
		{(&sysvar.SlotHistory{Bits: []uint64{1}, BitLen: 64, NextSlot: 1}).Marshal(), 1, 7},
		{marshal(&rewards), 1, 8},
		{marshal(&sysvar.LastRestartSlot{LastRestartSlot: 1}), 1, 9},
		{marshal(&sysvar.Rewards{ValidatorPointValue: 0.5}), 1, 10},
		{nonce.NewInitialized(core.Pubkey{1}, core.Hash{2}, 5000).Encode(), 0, 12},
		{make([]byte, 80), 0, 12},
		{nil, 0, 12},
		{bytes.Repeat([]byte{0xAB}, 300), 2, 12},
	}
	for i, s := range seeds {
		enc := fuzzEncodings[i%len(fuzzEncodings)]
		f.Add(s.data, s.owner, s.pubkey, string(enc), false, uint64(0), uint64(0), false)
		f.Add(s.data, s.owner, s.pubkey, string(JSONParsed), true, uint64(1), uint64(129), i%2 == 0)
	}
	f.Add([]byte{1, 2, 3}, uint8(2), uint8(0), "base64+zstd", true, ^uint64(0), ^uint64(0), false)
	f.Add(bytes.Repeat([]byte{1}, 129), uint8(2), uint8(0), "binary", false, uint64(0), uint64(0), true)
	f.Add([]byte{1}, uint8(2), uint8(0), "nonsense", false, uint64(0), uint64(0), false)

	dec, err := zstd.NewReader(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte, ownerSel, pubkeySel uint8, name string, hasSlice bool, offset, length uint64, notification bool) {
		encoding := rpcapi.AccountEncoding(name)
		acct := runtime.Account{Lamports: 3, Owner: fuzzOwners[int(ownerSel)%len(fuzzOwners)], RentEpoch: 1, Data: data}
		pubkey := fuzzPubkeys[int(pubkeySel)%len(fuzzPubkeys)]
		var ds *rpcapi.DataSlice
		if hasSlice {
			ds = &rpcapi.DataSlice{Offset: offset, Length: length}
		}
		sliced := SliceData(data, ds)
		if uint64(len(sliced)) > uint64(len(data)) {
			t.Fatalf("slice longer than data")
		}

		got, err := EncodeAccount(acct, pubkey, encoding, ds, Options{Notification: notification})
		if err != nil {
			var rpcErr *rpcapi.Error
			switch {
			case errors.Is(err, ErrUnknownEncoding):
				for _, e := range fuzzEncodings {
					if e == encoding {
						t.Fatalf("known encoding %q refused: %v", encoding, err)
					}
				}
			case errors.As(err, &rpcErr) && rpcErr.Code == rpcapi.CodeOversizedBase58Data:
				if (encoding != Binary && encoding != Base58) || notification || len(sliced) <= MaxBase58Bytes {
					t.Fatalf("unexpected oversized error: %s, %d sliced bytes, notification %v", encoding, len(sliced), notification)
				}
			default:
				t.Fatalf("unexpected error: %v", err)
			}
			return
		}
		if got.Space != uint64(len(data)) || got.Lamports != 3 || got.RentEpoch != 1 || got.Owner != acct.Owner.String() {
			t.Fatalf("wrapper fields wrong: %+v", got)
		}
		if _, err := json.Marshal(got); err != nil {
			t.Fatalf("json.Marshal: %v", err)
		}

		d := got.Data
		set := 0
		for _, ok := range []bool{d.Binary != nil, d.Encoded != nil, d.Parsed != nil} {
			if ok {
				set++
			}
		}
		if set != 1 {
			t.Fatalf("%d union members set", set)
		}
		var text string
		var as rpcapi.AccountEncoding
		switch {
		case d.Parsed != nil:
			if encoding != JSONParsed || d.Parsed.Space != uint64(len(data)) {
				t.Fatalf("parsed data for %s, space %d", encoding, d.Parsed.Space)
			}
			return
		case d.Binary != nil:
			text, as = *d.Binary, Base58
		default:
			text, as = d.Encoded[0], rpcapi.AccountEncoding(d.Encoded[1])
		}
		if text == DataTooLargeForBase58 && as == Base58 {
			if !notification || len(sliced) <= MaxBase58Bytes {
				t.Fatalf("too-large text for %d bytes, notification %v", len(sliced), notification)
			}
			return
		}
		var back []byte
		switch as {
		case Base58:
			back, err = base58.Decode(text)
			if text == "" {
				back, err = nil, nil
			}
		case Base64:
			back, err = base64.StdEncoding.DecodeString(text)
		case Base64Zstd:
			var compressed []byte
			if compressed, err = base64.StdEncoding.DecodeString(text); err == nil {
				back, err = dec.DecodeAll(compressed, nil)
			}
		default:
			t.Fatalf("data labelled %q", as)
		}
		if err != nil || !bytes.Equal(back, sliced) {
			t.Fatalf("%s data does not decode to the sliced bytes: %v", as, err)
		}
	})
}

// FuzzReferenceZstdBlock: a block written as libzstd writes it is a valid zstd frame's only block, decoding to
// the input.
func FuzzReferenceZstdBlock(f *testing.F) {
	f.Add([]byte("test data"))
	f.Add(make([]byte, 165))
	f.Add(bytes.Repeat([]byte{1, 2, 3, 0, 0, 0, 0, 9}, 40))
	dec, err := zstd.NewReader(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		block, ok := referenceBlock(data)
		if !ok {
			return
		}
		frame := append([]byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58}, block...)
		plain, err := dec.DecodeAll(frame, nil)
		if err != nil || !bytes.Equal(plain, data) {
			t.Fatalf("decoded %d bytes (err %v) from % x", len(plain), err, frame)
		}
	})
}
