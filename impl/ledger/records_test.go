package ledger

import (
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

func TestRecordsRoundTrip(t *testing.T) {
	k := core.KeypairFromSeed([32]byte{3})
	tx := core.NewTransferTx(k, core.Pubkey{9}, 5, core.Hash{1})
	meta := &TxMeta{Err: runtime.InstructionErrorAt(0, runtime.CustomError(1)), Fee: 5000, PreBalances: []uint64{10, 0},
		PostBalances: []uint64{5, 0}, Logs: []string{"Program log: x"}, InnerInstructions: []runtime.InnerInstructions{},
		PreTokenBalances: []TokenBalance{{AccountIndex: 1, Mint: core.Pubkey{2}, Amount: 7, Decimals: 6}}}
	gotTx, gotMeta, err := decodeTx(encodeTx(tx, meta))
	if err != nil || gotTx.Signature() != tx.Signature() || gotMeta.Err.Error() != meta.Err.Error() ||
		gotMeta.PreTokenBalances[0] != meta.PreTokenBalances[0] {
		t.Fatalf("tx record: %v %+v", err, gotMeta)
	}
	commission := uint8(5)
	b := &BlockInfo{Slot: 7, ParentSlot: 6, BlockHeight: 7, Blockhash: core.Hash{4}, BlockTime: -1,
		Signatures: []core.Signature{tx.Signature()}, Failed: []bool{true},
		Rewards: []Reward{{Pubkey: core.Pubkey{5}, Lamports: -3, RewardType: "Fee", Commission: &commission}}}
	got, err := decodeBlock(encodeBlock(b))
	if err != nil || got.Slot != 7 || got.BlockTime != -1 || !got.Failed[0] || *got.Rewards[0].Commission != 5 {
		t.Fatalf("block record: %v %+v", err, got)
	}
}

// FuzzDecodeRecords: stored records read back from a damaged ledger give an error, never a panic.
func FuzzDecodeRecords(f *testing.F) {
	k := core.KeypairFromSeed([32]byte{3})
	tx := core.NewTransferTx(k, core.Pubkey{9}, 5, core.Hash{1})
	f.Add(encodeTx(tx, &TxMeta{Fee: 5000}))
	f.Add(encodeBlock(&BlockInfo{Slot: 1, Signatures: []core.Signature{{1}}, Failed: []bool{false}}))
	f.Add([]byte{blockFormatV1})
	f.Add([]byte{txFormatV1, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = decodeBlock(data)
		_, _, _ = decodeTx(data)
	})
}
