package parse

import (
	"testing"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// EncodeBlock works from what it is given: the signatures detail from the block's list, the full details only
// from the records passed (never nil for a block with transactions), the parent hash as the default hash when
// the parent was pruned.
func TestEncodeBlockFromItsRecords(t *testing.T) {
	from, to := keypair(1), key(2)
	tx := core.NewTransferTx(from, to, 5, core.Hash{3})
	info := &ledger.BlockInfo{Slot: 9, ParentSlot: 8, BlockHeight: 9, Blockhash: core.Hash{1}, PreviousBlockhash: core.Hash{2},
		BlockTime: 1_700_000_000, Signatures: []core.Signature{tx.Signature()}, Failed: []bool{false}}
	rec := &ledger.TxRecord{Slot: 9, Tx: tx, Meta: &ledger.TxMeta{Fee: 5000, PreBalances: []uint64{10, 0, 1},
		PostBalances: []uint64{5, 5, 1}, Logs: []string{}}}

	sigs, err := EncodeBlock(info, nil, false, BlockOptions{Details: rpcapi.TransactionDetailsSignatures})
	if err != nil || sigs.Signatures == nil || len(*sigs.Signatures) != 1 || (*sigs.Signatures)[0] != tx.Signature().String() {
		t.Fatalf("signatures detail: %+v, %v", sigs, err)
	}
	if sigs.PreviousBlockhash != info.PreviousBlockhash.String() {
		t.Errorf("previousBlockhash %s, want the parent's", sigs.PreviousBlockhash)
	}
	full := BlockOptions{Details: rpcapi.TransactionDetailsFull, Encoding: rpcapi.TransactionEncodingBase64}
	if _, err := EncodeBlock(info, nil, false, full); err == nil {
		t.Error("full details without the records: no error")
	}
	b, err := EncodeBlock(info, []*ledger.TxRecord{rec}, true, full)
	if err != nil || b.Transactions == nil || len(*b.Transactions) != 1 {
		t.Fatalf("full details: %+v, %v", b, err)
	}
	if b.PreviousBlockhash != (core.Hash{}).String() {
		t.Errorf("previousBlockhash %s with the parent pruned, want the default hash", b.PreviousBlockhash)
	}
}
