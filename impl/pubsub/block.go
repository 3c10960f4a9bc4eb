package pubsub

import (
	"errors"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/parse"
)

// blockNotification builds the notification of a block for one subscription; ok is false when a mentions filter
// leaves no transaction (the reference then sends nothing). loadErr is the error reading the transactions.
func (h *Hub) blockNotification(slot uint64, info *ledger.BlockInfo, txs []*ledger.TxRecord, loadErr error,
	o *blockOptions) (rpcapi.BlockNotification, bool) {
	note := rpcapi.BlockNotification{Context: rpcapi.NotificationContext{Slot: slot},
		Value: rpcapi.BlockNotificationValue{Slot: slot}}
	if loadErr != nil {
		note.Value.Err = "BlockStoreError"
		return note, true
	}
	if txs == nil {
		txs = []*ledger.TxRecord{} // these are all of them, none
	}
	if o.mentions != nil {
		kept := make([]*ledger.TxRecord, 0, len(txs))
		for _, tx := range txs {
			if mentions(tx, *o.mentions) {
				kept = append(kept, tx)
			}
		}
		if len(kept) == 0 {
			return note, false
		}
		txs = kept
	}
	parentPruned := info.Slot > 0 && info.ParentSlot < h.l.FirstAvailableBlock()
	block, err := parse.EncodeBlock(info, txs, parentPruned, o.BlockOptions)
	var unsupported *parse.UnsupportedVersionError
	switch {
	case errors.As(err, &unsupported):
		note.Value.Err = map[string]uint8{"UnsupportedTransactionVersion": unsupported.Version}
	case err != nil:
		h.log.Error("pubsub: encoding a block notification", "slot", slot, "err", err)
		note.Value.Err = "BlockStoreError"
	default:
		note.Value.Block = block
	}
	return note, true
}

func mentions(tx *ledger.TxRecord, k core.Pubkey) bool {
	var loaded *core.LoadedAddresses
	if tx.Meta != nil {
		loaded = tx.Meta.LoadedAddresses
	}
	for _, key := range tx.Tx.Message.FullAccountKeys(loaded) {
		if key == k {
			return true
		}
	}
	return false
}
