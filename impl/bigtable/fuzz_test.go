package bigtable

import (
	"reflect"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/runtime"
)

// FuzzDecodeBlock: any bytes in a blocks row's proto cell give a block or an error, never a panic; a block
// that decodes encodes and decodes again to itself.
func FuzzDecodeBlock(f *testing.F) {
	commission := uint8(5)
	tx := &core.Transaction{Signatures: []core.Signature{{1}}, Message: core.Message{Version: core.Version0,
		Header: core.MessageHeader{NumRequiredSignatures: 1}, AccountKeys: []core.Pubkey{{2}, {3}},
		Instructions:        []core.CompiledInstruction{{ProgramIDIndex: 1, Accounts: []uint8{0}, Data: []byte{9}}},
		AddressTableLookups: []core.AddressTableLookup{{AccountKey: core.Pubkey{4}, WritableIndexes: []uint8{1}}}}}
	meta := &ledger.TxMeta{Err: runtime.InstructionErrorAt(0, runtime.CustomError(3)), Fee: 5000, PreBalances: []uint64{1, 2},
		PostBalances: []uint64{0, 2}, Logs: []string{"log"}, ComputeUnitsConsumed: 150,
		InnerInstructions: []runtime.InnerInstructions{{Index: 0, Instructions: []runtime.InnerInstruction{{ProgramIDIndex: 1, StackHeight: 2}}}},
		PreTokenBalances:  []ledger.TokenBalance{{AccountIndex: 1, Amount: 10, Decimals: 2}}}
	info := &ledger.BlockInfo{Slot: 3, ParentSlot: 2, BlockHeight: 3, BlockTime: 99, Signatures: []core.Signature{{1}},
		Failed: []bool{true}, Rewards: []ledger.Reward{{Lamports: 5, RewardType: "Fee", Commission: &commission}}}
	raw, err := EncodeBlock(info, []*ledger.TxRecord{{Slot: 3, Tx: tx, Meta: meta, BlockTime: 99}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add([]byte{})
	f.Add([]byte{0x22, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		info, txs, err := DecodeBlock(7, b)
		if err != nil {
			return
		}
		again, err := EncodeBlock(info, txs)
		if err != nil {
			return // a transaction error kind ledgerd does not know
		}
		info2, txs2, err := DecodeBlock(7, again)
		if err != nil {
			t.Fatalf("re-encoded block does not decode: %v", err)
		}
		if !reflect.DeepEqual(info, info2) || !reflect.DeepEqual(txs, txs2) {
			t.Fatalf("block changed through encoding")
		}
	})
}

// FuzzDecodeCells: the other cells (tx rows, tx-by-addr rows in both forms, the legacy bincode block) and the
// compression header never panic on any bytes.
func FuzzDecodeCells(f *testing.F) {
	memo := "m"
	ti, _ := encodeTxInfo(&TxInfo{Slot: 5, Index: 1, Err: runtime.InstructionErrorAt(2, runtime.CustomError(7)), Memo: &memo})
	f.Add(ti)
	bt := int64(4)
	f.Add(encodeTxByAddr([]AddrEntry{{Signature: core.Signature{1}, Err: runtime.NewTransactionError(runtime.TxAccountInUse),
		Index: 3, Memo: &memo, BlockTime: &bt}}))
	f.Add(compressCell(make([]byte, 300)))
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 9})
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeTxInfo(b)
		decodeTxByAddr(b)
		decodeLegacyTxByAddr(b)
		decodeStoredBlock(1, b)
		decompressCell(b)
		decodeStructuredErr(b)
	})
}
