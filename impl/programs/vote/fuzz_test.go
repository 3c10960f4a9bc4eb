package vote_test

import (
	"reflect"
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/runtime"
)

// FuzzDecodeState checks that any data either fails to decode or decodes to a state that
// survives a round trip through the current layout.
func FuzzDecodeState(f *testing.F) {
	f.Add(vote.NewState(defaultInit, 3).AccountData())
	f.Add(maxState().Encode())
	f.Add(maxState().EncodeVersion(vote.Version1_14_11))
	f.Add(make([]byte, vote.Size))
	f.Add([]byte{2, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := vote.Decode(data)
		if err != nil {
			return
		}
		enc := s.Encode()
		if len(enc) != s.SerializedSize() {
			t.Fatalf("encoded %d bytes, SerializedSize %d", len(enc), s.SerializedSize())
		}
		again, err := vote.Decode(enc)
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		s.Version = vote.VersionCurrent
		if !reflect.DeepEqual(again, s) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", again, s)
		}
	})
}

// FuzzDecodeInstruction checks that any data either fails to decode or decodes to an
// instruction that encodes and decodes back to itself.
func FuzzDecodeInstruction(f *testing.F) {
	for _, ix := range sampleInstructions() {
		b, err := ix.Encode()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := vote.DecodeInstruction(data)
		if err != nil {
			return
		}
		b, err := ix.Encode()
		if err != nil {
			t.Fatalf("encode %+v: %v", ix, err)
		}
		again, err := vote.DecodeInstruction(b)
		if err != nil || !reflect.DeepEqual(again, ix) {
			t.Fatalf("round trip: %+v, %v\nwant %+v", again, err, ix)
		}
	})
}

// FuzzExecute runs arbitrary vote instructions over vote accounts. The program must never
// panic (the runtime would report ProgramFailedToComplete), and lamports stay conserved.
func FuzzExecute(f *testing.F) {
	for _, ix := range sampleInstructions() {
		b, _ := ix.Encode()
		f.Add(uint16(0xffff), uint8(0xff), b)
	}
	tower, _ := vote.Instruction{Kind: vote.KindTowerSync, TowerSync: towerSync([]uint64{97, 98}, nil, slotHash(98), nil)}.Encode()
	f.Add(uint16(0), uint8(0b11_111111), tower)
	f.Fuzz(func(t *testing.T, pick uint16, signers uint8, data []byte) {
		h := newHarness(t)
		h.at(100, 1)
		h.hashes(90, 95, 96, 97, 98, 99)
		s := vote.NewState(defaultInit, 0)
		s.Votes = []vote.LandedVote{{Latency: 1, Lockout: vote.Lockout{Slot: 95, ConfirmationCount: 2}}, {Latency: 3, Lockout: vote.Lockout{Slot: 96, ConfirmationCount: 1}}}
		s.EpochCredits = []vote.EpochCredits{{Epoch: 1, Credits: 5}}
		h.accs[voteAcct.PublicKey()] = runtime.Account{Lamports: voteRent + 10, Owner: vote.ProgramID, Data: s.AccountData()}
		h.accs[base.PublicKey()] = runtime.Account{Lamports: voteRent, Owner: vote.ProgramID, Data: make([]byte, vote.Size)}
		candidates := []core.Pubkey{voteAcct.PublicKey(), base.PublicKey(), other.PublicKey(), core.SysvarClockID,
			core.SysvarSlotHashesID, core.SysvarRentID, voter.PublicKey(), withdrawr.PublicKey(), node.PublicKey()}
		keys := map[core.Pubkey]core.Keypair{voteAcct.PublicKey(): voteAcct, base.PublicKey(): base, other.PublicKey(): other,
			voter.PublicKey(): voter, withdrawr.PublicKey(): withdrawr, node.PublicKey(): node}
		var metas []core.AccountMeta
		var signing []core.Keypair
		n := int(signers>>6) + 2
		for i := range n {
			k := candidates[int(pick>>(2*i)+uint16(i))%len(candidates)]
			_, canSign := keys[k]
			sign := canSign && signers&(1<<i) != 0
			metas = append(metas, core.AccountMeta{Pubkey: k, IsSigner: sign, IsWritable: i < 2 && !core.IsSysvarID(k)})
			if sign && !slices.ContainsFunc(signing, func(s core.Keypair) bool { return s.PublicKey() == k }) {
				signing = append(signing, keys[k])
			}
		}
		before := totalLamports(h)
		res := h.exec([]core.Instruction{{ProgramID: vote.ProgramID, Accounts: metas, Data: data}}, signing...)
		if res.Err != nil && res.Err.Kind == runtime.TxInstructionError && res.Err.Instruction == runtime.ErrProgramFailedToComplete {
			t.Fatalf("program failed: %q", res.Logs)
		}
		if got := totalLamports(h) + res.Fee; got != before {
			t.Fatalf("lamports %d + fee %d, want %d", totalLamports(h), res.Fee, before)
		}
	})
}

func totalLamports(h *harness) uint64 {
	var sum uint64
	for _, a := range h.accs {
		sum += a.Lamports
	}
	return sum
}
