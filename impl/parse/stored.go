package parse

import (
	"fmt"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/encoding"
	"ledgerd/impl/ledger"
	"ledgerd/impl/runtime"
)

// This file turns what the ledger stored (blocks, transactions and their metadata) into the UI shapes, so
// getBlock, getTransaction and blockSubscribe show the same thing.

// RanInstructions reports whether execution reached the transaction's instructions, as opposed to a
// transaction that failed before loading or only paid its fee (the reference's FeesOnly): only executed
// transactions have logs and inner instructions recorded.
func RanInstructions(processed bool, err *runtime.TransactionError) bool {
	if !processed {
		return false
	}
	if err == nil {
		return true
	}
	switch err.Kind {
	case runtime.TxInstructionError, runtime.TxInsufficientFundsForRent, runtime.TxUnbalancedTransaction:
		return true
	}
	return false
}

// StoredMeta is the ledger's stored metadata as the encoders take it. Stored transactions were all processed,
// so a failure outside the instructions means a fee-only transaction, whose logs and inner instructions the
// reference records as null.
func StoredMeta(m *ledger.TxMeta) *Meta {
	if m == nil {
		return nil
	}
	ran := RanInstructions(true, m.Err)
	return &Meta{
		Err:                          m.Err,
		Fee:                          m.Fee,
		PreBalances:                  m.PreBalances,
		PostBalances:                 m.PostBalances,
		Logs:                         m.Logs,
		LogsNotRecorded:              !ran,
		InnerInstructions:            m.InnerInstructions,
		InnerInstructionsNotRecorded: !ran,
		PreTokenBalances:             TokenBalances(m.PreTokenBalances),
		PostTokenBalances:            TokenBalances(m.PostTokenBalances),
		ReturnData:                   m.ReturnData,
		ComputeUnitsConsumed:         m.ComputeUnitsConsumed,
	}
}

// StoredTx is a stored transaction as the encoders take it.
func StoredTx(rec *ledger.TxRecord) TxWithMeta {
	out := TxWithMeta{Tx: rec.Tx, Meta: StoredMeta(rec.Meta)}
	if rec.Meta != nil {
		out.Loaded = rec.Meta.LoadedAddresses
	}
	return out
}

// TokenBalances is the RPC form of a transaction's recorded token balances. As the reference records them,
// amounts use the mint's decimals only (no interest or scaling), and owner and programId are always known.
func TokenBalances(balances []ledger.TokenBalance) []rpcapi.UiTransactionTokenBalance {
	out := make([]rpcapi.UiTransactionTokenBalance, len(balances))
	for i, b := range balances {
		owner, program := b.Owner.String(), b.ProgramID.String()
		out[i] = rpcapi.UiTransactionTokenBalance{
			AccountIndex:  b.AccountIndex,
			Mint:          b.Mint.String(),
			Owner:         &owner,
			ProgramId:     &program,
			UiTokenAmount: encoding.TokenAmount(b.Amount, b.Decimals).RPC(),
		}
	}
	return out
}

// BlockOptions are what a reader asks of a block: getBlock's config, or a block subscription's.
type BlockOptions struct {
	Encoding rpcapi.TransactionEncoding
	Details  rpcapi.TransactionDetails
	Rewards  bool
	// MaxVersion is maxSupportedTransactionVersion: nil refuses v0 transactions and leaves out `version`.
	MaxVersion *uint8
}

// NeedsTransactions reports whether a block encoded with o shows its transactions' contents (and not only their
// signatures), which EncodeBlock must then be given.
func (o BlockOptions) NeedsTransactions() bool {
	return o.Details == rpcapi.TransactionDetailsFull || o.Details == rpcapi.TransactionDetailsAccounts
}

// EncodeBlock is the block as getBlock and blockSubscribe show it. It reads nothing: txs are the transactions
// shown (the block's own, or those a subscription's filter kept), needed when o.NeedsTransactions (for the
// signatures detail nil means all of the block's); parentPruned shows the parent's hash as the default hash, as
// the reference does for a parent removed by ledger cleanup. A v0 transaction without MaxVersion fails with
// *UnsupportedVersionError.
func EncodeBlock(info *ledger.BlockInfo, txs []*ledger.TxRecord, parentPruned bool, o BlockOptions) (*rpcapi.UiConfirmedBlock, error) {
	blockTime, height := info.BlockTime, info.BlockHeight
	out := &rpcapi.UiConfirmedBlock{
		PreviousBlockhash: info.PreviousBlockhash.String(),
		Blockhash:         info.Blockhash.String(),
		ParentSlot:        info.ParentSlot,
		BlockTime:         &blockTime,
		BlockHeight:       &height,
	}
	if parentPruned {
		out.PreviousBlockhash = core.Hash{}.String()
	}
	switch o.Details {
	case rpcapi.TransactionDetailsSignatures:
		var sigs []rpcapi.Signature
		if txs == nil {
			sigs = make([]rpcapi.Signature, len(info.Signatures))
			for i, sig := range info.Signatures {
				sigs[i] = sig.String()
			}
		} else {
			sigs = make([]rpcapi.Signature, len(txs))
			for i, tx := range txs {
				sigs[i] = tx.Tx.Signature().String()
			}
		}
		out.Signatures = &sigs
	case rpcapi.TransactionDetailsFull, rpcapi.TransactionDetailsAccounts:
		if txs == nil && len(info.Signatures) > 0 {
			return nil, fmt.Errorf("parse: the transactions of block %d were not given", info.Slot)
		}
		withVersion := o.MaxVersion != nil
		list := make([]rpcapi.UiBlockTransaction, len(txs))
		for i, rec := range txs {
			if err := CheckVersion(rec.Tx, o.MaxVersion); err != nil {
				return nil, err
			}
			tx := StoredTx(rec)
			if o.Details == rpcapi.TransactionDetailsAccounts {
				a := EncodeAccounts(tx, withVersion, o.Rewards)
				list[i] = rpcapi.UiBlockTransaction{Accounts: &a}
				continue
			}
			full, err := EncodeTransaction(tx, o.Encoding, withVersion, o.Rewards)
			if err != nil {
				return nil, err
			}
			list[i] = rpcapi.UiBlockTransaction{Full: &full}
		}
		out.Transactions = &list
	}
	if o.Rewards {
		rewards := BlockRewards(info.Rewards)
		out.Rewards = &rewards
	}
	return out, nil
}

// BlockRewards is the `rewards` list of a block.
func BlockRewards(in []ledger.Reward) []rpcapi.Reward {
	out := make([]rpcapi.Reward, len(in))
	for i, r := range in {
		out[i] = rpcapi.Reward{Pubkey: r.Pubkey.String(), Lamports: r.Lamports, PostBalance: r.PostBalance, Commission: r.Commission}
		if r.RewardType != "" {
			kind := rpcapi.RewardType(r.RewardType)
			out[i].RewardType = &kind
		}
	}
	return out
}
