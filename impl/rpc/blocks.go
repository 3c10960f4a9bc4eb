package rpc

import (
	"context"
	"fmt"
	"math"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/ledger"
	"ledgerd/impl/parse"
)

// maxBlocksRange is the reference's MAX_GET_CONFIRMED_BLOCKS_RANGE: the widest getBlocks range and the largest
// getBlocksWithLimit limit.
const maxBlocksRange = 500_000

// findBlock returns the block of slot at a history commitment, or the reference's error: -32001 below the first
// block held, -32007 for a rooted slot without a block, -32004 for a slot not yet at the commitment.
func (s *Server) findBlock(slot uint64, c *rpcapi.Commitment) (*ledger.BlockInfo, error) {
	level, err := historyCommitment(c)
	if err != nil {
		return nil, err
	}
	_, confirmed, root := s.ledger.Slots()
	if slot <= root {
		if first := s.ledger.FirstAvailableBlock(); slot < first {
			if s.ledger.HasArchive() {
				return s.archivedBlock(slot)
			}
			return nil, rpcapi.NewBlockCleanedUpError(slot, first)
		}
		info, found, err := s.ledger.Block(slot, ledger.Finalized)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, rpcapi.NewSlotSkippedError(slot)
		}
		return info, nil
	}
	if level == ledger.Confirmed && slot <= confirmed {
		info, found, err := s.ledger.Block(slot, ledger.Confirmed)
		if err != nil {
			return nil, err
		}
		if found {
			return info, nil
		}
	}
	return nil, rpcapi.NewBlockNotAvailableError(slot)
}

// GetBlock returns a confirmed block. The second param is a config object or, in the old form, the encoding.
// Defaults: encoding json, transactionDetails full, rewards true, commitment finalized.
func (s *Server) GetBlock(ctx context.Context, p *rpcapi.GetBlockParams) (rpcapi.GetBlockResult, error) {
	o := parse.BlockOptions{Encoding: rpcapi.TransactionEncodingJson, Details: rpcapi.TransactionDetailsFull, Rewards: true}
	var commitment *rpcapi.Commitment
	if config, ok := p.Config.Get(); ok {
		if config.Encoding != nil {
			o.Encoding = *config.Encoding
		}
		if cfg := config.Config; cfg != nil {
			if cfg.Encoding != nil {
				o.Encoding = *cfg.Encoding
			}
			if cfg.TransactionDetails != nil {
				o.Details = *cfg.TransactionDetails
			}
			if cfg.Rewards != nil {
				o.Rewards = *cfg.Rewards
			}
			commitment = cfg.Commitment
			o.MaxVersion = cfg.MaxSupportedTransactionVersion
		}
	}
	info, err := s.findBlock(p.Slot, commitment)
	if err != nil {
		return nil, err
	}
	var txs []*ledger.TxRecord
	if o.NeedsTransactions() {
		if txs, err = s.ledger.BlockTransactions(info); err != nil {
			return nil, err
		}
	}
	// With an archive the parent is held there, and the block's own record names its hash.
	parentPruned := !s.ledger.HasArchive() && info.Slot > 0 && info.ParentSlot < s.ledger.FirstAvailableBlock()
	b, err := parse.EncodeBlock(info, txs, parentPruned, o)
	if err != nil {
		return nil, encodeTxVersionErr(err)
	}
	return b, nil
}

// GetConfirmedBlock is the deprecated getBlock: no accounts detail, no maxSupportedTransactionVersion (legacy
// transactions only) and no blockHeight.
func (s *Server) GetConfirmedBlock(ctx context.Context, p *rpcapi.GetConfirmedBlockParams) (rpcapi.GetConfirmedBlockResult, error) {
	params := &rpcapi.GetBlockParams{Slot: p.Slot}
	if config, ok := p.Config.Get(); ok {
		get := rpcapi.GetBlockConfig{Encoding: config.Encoding}
		if c := config.Config; c != nil {
			var details *rpcapi.TransactionDetails
			if c.TransactionDetails != nil {
				d := rpcapi.TransactionDetails(*c.TransactionDetails)
				details = &d
			}
			if details != nil && *details == rpcapi.TransactionDetailsAccounts {
				// Refused by validation already; this guards direct calls.
				return nil, rpcapi.NewInvalidParamsError("Invalid params: config.transactionDetails: unknown variant `accounts`, expected one of `full`, `signatures`, `none`")
			}
			get.Config = &rpcapi.BlockConfig{Commitment: c.Commitment, Encoding: c.Encoding,
				TransactionDetails: details, Rewards: c.Rewards}
		}
		params.Config = rpcapi.Some(get)
	}
	b, err := s.GetBlock(ctx, params)
	if err != nil {
		return nil, err
	}
	out := &rpcapi.ConfirmedBlock{
		PreviousBlockhash: b.PreviousBlockhash,
		Blockhash:         b.Blockhash,
		ParentSlot:        b.ParentSlot,
		Signatures:        b.Signatures,
		Rewards:           b.Rewards,
		BlockTime:         b.BlockTime,
	}
	if b.Transactions != nil {
		txs := make([]rpcapi.EncodedTransactionWithMeta, len(*b.Transactions))
		for i, tx := range *b.Transactions {
			txs[i] = *tx.Full
		}
		out.Transactions = &txs
	}
	return out, nil
}

// blocksInRange is getBlocks: the end defaults to start+500000 and is capped at the newest block of the
// commitment; the range is checked after that cap, as the reference does.
func (s *Server) blocksInRange(start uint64, end *uint64, cfg *rpcapi.ContextConfig) ([]uint64, error) {
	level, err := s.blocksCommitment(cfg)
	if err != nil {
		return nil, err
	}
	_, confirmed, root := s.ledger.Slots()
	highest := root
	if level == ledger.Confirmed {
		highest = confirmed
	}
	last := start + maxBlocksRange
	if last < start {
		last = math.MaxUint64
	}
	if end != nil {
		last = *end
	}
	last = min(last, highest)
	if last < start {
		return []uint64{}, nil
	}
	if last-start > maxBlocksRange {
		return nil, rpcapi.NewInvalidParamsError(fmt.Sprintf("Slot range too large; max %d", maxBlocksRange))
	}
	return s.ledger.Blocks(start, last, 0, level)
}

// blocksWithLimit is getBlocksWithLimit.
func (s *Server) blocksWithLimit(start, limit uint64, cfg *rpcapi.ContextConfig) ([]uint64, error) {
	level, err := s.blocksCommitment(cfg)
	if err != nil {
		return nil, err
	}
	if limit > maxBlocksRange {
		return nil, rpcapi.NewInvalidParamsError(fmt.Sprintf("Limit too large; max %d", maxBlocksRange))
	}
	if limit == 0 { // the ledger reads 0 as no limit
		return []uint64{}, nil
	}
	return s.ledger.Blocks(start, math.MaxUint64, int(limit), level)
}

// blocksCommitment reads the config of getBlocks and getBlocksWithLimit: a history commitment, and the
// minContextSlot the bank at that commitment must have reached.
func (s *Server) blocksCommitment(cfg *rpcapi.ContextConfig) (ledger.Commitment, error) {
	if cfg == nil {
		return ledger.Finalized, nil
	}
	level, err := historyCommitment(cfg.Commitment)
	if err != nil {
		return 0, err
	}
	if _, err := s.bankAt(cfg.Commitment, cfg.MinContextSlot); err != nil {
		return 0, err
	}
	return level, nil
}

// GetBlocks lists the slots of the blocks in [start, end] at a history commitment.
func (s *Server) GetBlocks(ctx context.Context, p *rpcapi.GetBlocksParams) (rpcapi.GetBlocksResult, error) {
	end, cfg := blocksEndAndConfig(p.EndSlot, p.Config)
	return s.blocksInRange(p.StartSlot, end, cfg)
}

// GetConfirmedBlocks is the deprecated getBlocks.
func (s *Server) GetConfirmedBlocks(ctx context.Context, p *rpcapi.GetConfirmedBlocksParams) (rpcapi.GetConfirmedBlocksResult, error) {
	var endSlot rpcapi.Opt[rpcapi.GetBlocksEndSlot]
	if e, ok := p.EndSlot.Get(); ok {
		endSlot = rpcapi.Some(rpcapi.GetBlocksEndSlot{EndSlot: e.EndSlot, Config: contextOf(e.Config)})
	}
	end, cfg := blocksEndAndConfig(endSlot, rpcapi.OptOf(contextOf(commitmentConfig(p.Config))))
	return s.blocksInRange(p.StartSlot, end, cfg)
}

// blocksEndAndConfig reads getBlocks' second param, an end slot or the config in its place; a config in the
// third place wins.
func blocksEndAndConfig(second rpcapi.Opt[rpcapi.GetBlocksEndSlot], third rpcapi.Opt[rpcapi.ContextConfig]) (*uint64, *rpcapi.ContextConfig) {
	s, ok := second.Get()
	if !ok {
		return nil, third.Ptr()
	}
	if !third.IsSet() {
		return s.EndSlot, s.Config
	}
	return s.EndSlot, third.Ptr()
}

// GetBlocksWithLimit lists up to limit slots of blocks from start on, at a history commitment.
func (s *Server) GetBlocksWithLimit(ctx context.Context, p *rpcapi.GetBlocksWithLimitParams) (rpcapi.GetBlocksWithLimitResult, error) {
	return s.blocksWithLimit(p.StartSlot, p.Limit, p.Config.Ptr())
}

// GetConfirmedBlocksWithLimit is the deprecated getBlocksWithLimit.
func (s *Server) GetConfirmedBlocksWithLimit(ctx context.Context, p *rpcapi.GetConfirmedBlocksWithLimitParams) (rpcapi.GetConfirmedBlocksWithLimitResult, error) {
	return s.blocksWithLimit(p.StartSlot, p.Limit, contextOf(commitmentConfig(p.Config)))
}

// contextOf widens a commitment-only config (the deprecated methods) to a context config.
func contextOf(cfg *rpcapi.CommitmentConfig) *rpcapi.ContextConfig {
	if cfg == nil {
		return nil
	}
	return &rpcapi.ContextConfig{Commitment: cfg.Commitment}
}

// GetBlockTime returns the time of a block: the genesis creation time for slot 0, the stored time of a rooted
// block, the clock of a newer bank the node holds; -32004 for a slot it has no bank for, -32001 below the first
// block held and -32007 for a rooted slot without a block.
func (s *Server) GetBlockTime(ctx context.Context, p *rpcapi.GetBlockTimeParams) (rpcapi.GetBlockTimeResult, error) {
	slot := p.Slot
	if slot == 0 {
		t := s.ledger.Genesis.Config.CreationTime
		return &t, nil
	}
	_, _, root := s.ledger.Slots()
	if slot <= root {
		if first := s.ledger.FirstAvailableBlock(); slot < first {
			if s.ledger.HasArchive() {
				info, err := s.archivedBlock(slot)
				if err != nil {
					return nil, err
				}
				return &info.BlockTime, nil
			}
			return nil, rpcapi.NewBlockCleanedUpError(slot, first)
		}
		t, ok := s.ledger.BlockTime(slot)
		if !ok {
			return nil, rpcapi.NewSlotSkippedError(slot)
		}
		return &t, nil
	}
	if working := s.ledger.Bank(ledger.Processed); working.Slot == slot {
		t := working.BlockTime
		return &t, nil
	}
	if t, ok := s.ledger.BlockTime(slot); ok {
		return &t, nil
	}
	return nil, rpcapi.NewBlockNotAvailableError(slot)
}
