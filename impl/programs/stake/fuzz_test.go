package stake_test

import (
	"reflect"
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/stake"
	"ledgerd/impl/runtime"
)

// FuzzDecodeState checks that any data either fails to decode or decodes to a state that
// encodes back to the bytes it was read from.
func FuzzDecodeState(f *testing.F) {
	f.Add(delegated(7, 3, 9).AccountData())
	f.Add(initialized(stake.Lockup{Epoch: 1}).AccountData())
	f.Add(make([]byte, stake.Size))
	f.Add([]byte{3, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := stake.Decode(data)
		if err != nil {
			return
		}
		enc := s.Encode()
		if len(enc) > len(data) || !reflect.DeepEqual(enc, data[:len(enc)]) {
			t.Fatalf("re-encoded\n%x\nfrom\n%x", enc, data)
		}
	})
}

// FuzzDecodeInstruction checks that any data either fails to decode or decodes to an
// instruction that encodes back to the bytes it was read from.
func FuzzDecodeInstruction(f *testing.F) {
	for _, ix := range sampleInstructions() {
		f.Add(ix.Encode())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := stake.DecodeInstruction(data)
		if err != nil {
			return
		}
		enc := ix.Encode()
		if len(enc) > len(data) || !reflect.DeepEqual(enc, data[:len(enc)]) {
			t.Fatalf("re-encoded\n%x\nfrom\n%x", enc, data)
		}
	})
}

// FuzzExecute runs arbitrary stake instructions over a set of stake and vote accounts. The
// program must never panic (the runtime would report ProgramFailedToComplete), and lamports
// stay conserved.
func FuzzExecute(f *testing.F) {
	for _, ix := range sampleInstructions() {
		f.Add(uint16(0xffff), uint8(0xff), ix.Encode())
	}
	f.Fuzz(func(t *testing.T, pick uint16, signers uint8, data []byte) {
		h := newHarness(t)
		h.put(stakeAcct.PublicKey(), delegated(sol, 1, never), reserve+sol)
		h.put(stake2.PublicKey(), initialized(stake.Lockup{}), reserve+sol)
		h.accs[other.PublicKey()] = runtime.Account{Lamports: reserve, Owner: stake.ProgramID, Data: make([]byte, stake.Size)}
		h.setHistory(sysvar.StakeHistory{{Epoch: 9, Entry: sysvar.StakeHistoryEntry{Effective: 10 * sol, Activating: sol, Deactivating: sol}}})
		candidates := []core.Pubkey{stakeAcct.PublicKey(), stake2.PublicKey(), other.PublicKey(), voteA.PublicKey(), voteB.PublicKey(),
			core.SysvarClockID, core.SysvarStakeHistoryID, core.SysvarRentID, staker.PublicKey(), withdrawer.PublicKey(),
			custodian.PublicKey(), core.StakeConfigID}
		keys := map[core.Pubkey]core.Keypair{stakeAcct.PublicKey(): stakeAcct, stake2.PublicKey(): stake2, other.PublicKey(): other,
			staker.PublicKey(): staker, withdrawer.PublicKey(): withdrawer, custodian.PublicKey(): custodian}
		var metas []core.AccountMeta
		var signing []core.Keypair
		n := int(signers>>6) + 3
		for i := range n {
			k := candidates[int(pick>>(2*i)+uint16(i))%len(candidates)]
			_, canSign := keys[k]
			sign := canSign && signers&(1<<i) != 0
			metas = append(metas, core.AccountMeta{Pubkey: k, IsSigner: sign, IsWritable: i < 2 && !core.IsSysvarID(k) && k != core.StakeConfigID})
			if sign && !slices.ContainsFunc(signing, func(s core.Keypair) bool { return s.PublicKey() == k }) {
				signing = append(signing, keys[k])
			}
		}
		before := totalLamports(h)
		res := h.exec([]core.Instruction{{ProgramID: stake.ProgramID, Accounts: metas, Data: data}}, signing...)
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
