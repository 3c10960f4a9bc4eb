package pubsub

import (
	"errors"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/parse"
)

// SetTxWithMeta sets how a stored transaction is handed to impl/parse for block notifications, so they encode
// transactions exactly as getBlock does (the RPC layer owns that mapping). Until set, a plain mapping is used.
func (h *Hub) SetTxWithMeta(f func(*ledger.TxRecord) parse.TxWithMeta) {
	h.mu.Lock()
	h.txWithMeta = f
	h.mu.Unlock()
}

func plainTxWithMeta(rec *ledger.TxRecord) parse.TxWithMeta {
	out := parse.TxWithMeta{Tx: rec.Tx}
	if m := rec.Meta; m != nil {
		out.Loaded = m.LoadedAddresses
		out.Meta = &parse.Meta{Err: m.Err, Fee: m.Fee, PreBalances: m.PreBalances, PostBalances: m.PostBalances,
			Logs: m.Logs, InnerInstructions: m.InnerInstructions, ReturnData: m.ReturnData,
			ComputeUnitsConsumed: m.ComputeUnitsConsumed}
	}
	return out
}

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
	h.mu.RLock()
	toParse := h.txWithMeta
	h.mu.RUnlock()
	if toParse == nil {
		toParse = plainTxWithMeta
	}
	block, err := h.encodeBlock(info, txs, o, toParse)
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

// encodeBlock is the block as getBlock encodes it, with the subscription's options and its (filtered)
// transactions.
func (h *Hub) encodeBlock(info *ledger.BlockInfo, txs []*ledger.TxRecord, o *blockOptions,
	toParse func(*ledger.TxRecord) parse.TxWithMeta) (*rpcapi.UiConfirmedBlock, error) {
	blockTime, height := info.BlockTime, info.BlockHeight
	out := &rpcapi.UiConfirmedBlock{
		PreviousBlockhash: info.PreviousBlockhash.String(),
		Blockhash:         info.Blockhash.String(),
		ParentSlot:        info.ParentSlot,
		BlockTime:         &blockTime,
		BlockHeight:       &height,
	}
	if info.Slot > 0 && info.ParentSlot < h.l.FirstAvailableBlock() {
		out.PreviousBlockhash = core.Hash{}.String() // a parent removed by ledger cleanup, as getBlock shows it
	}
	withVersion := o.maxVersion != nil
	switch o.details {
	case rpcapi.TransactionDetailsSignatures:
		sigs := make([]rpcapi.Signature, len(txs))
		for i, tx := range txs {
			sigs[i] = tx.Tx.Signature().String()
		}
		out.Signatures = &sigs
	case rpcapi.TransactionDetailsFull, rpcapi.TransactionDetailsAccounts:
		list := make([]rpcapi.UiBlockTransaction, len(txs))
		for i, rec := range txs {
			if err := parse.CheckVersion(rec.Tx, o.maxVersion); err != nil {
				return nil, err
			}
			tx := toParse(rec)
			if o.details == rpcapi.TransactionDetailsAccounts {
				a := parse.EncodeAccounts(tx, withVersion, o.showRewards)
				list[i] = rpcapi.UiBlockTransaction{Accounts: &a}
				continue
			}
			full, err := parse.EncodeTransaction(tx, o.encoding, withVersion, o.showRewards)
			if err != nil {
				return nil, err
			}
			list[i] = rpcapi.UiBlockTransaction{Full: &full}
		}
		out.Transactions = &list
	}
	if o.showRewards {
		rewards := make([]rpcapi.Reward, len(info.Rewards))
		for i, r := range info.Rewards {
			rewards[i] = rpcapi.Reward{Pubkey: r.Pubkey.String(), Lamports: r.Lamports, PostBalance: r.PostBalance,
				Commission: r.Commission}
			if r.RewardType != "" {
				kind := r.RewardType
				rewards[i].RewardType = &kind
			}
		}
		out.Rewards = &rewards
	}
	return out, nil
}
