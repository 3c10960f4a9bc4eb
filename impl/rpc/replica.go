package rpc

import (
	"context"
	"encoding/base64"
	"errors"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/ledger"
)

// The replication methods (schema/methods/replica.yaml): a follower (ledgerd --follow, impl/follow) starts from
// ledgerd_getGenesis and replays ledgerd_getBlockRecords. They only read, so they answer on any address.

// Replication limits: the blocks of one answer, and the bytes of records past which no further block is added, so
// an answer of large blocks stays far below the default reply limit (26 MB), the base64 encoding included.
const (
	defaultRecordBlocks = 100
	maxRecordBytes      = 8 << 20
)

func (s *Server) LedgerdGetGenesis(ctx context.Context) (r rpcapi.LedgerdGetGenesisResult, err error) {
	g, err := s.ledger.GenesisRecord()
	if err != nil {
		return r, err
	}
	r = rpcapi.GenesisRecord{GenesisHash: s.node.GenesisHash, Config: base64.StdEncoding.EncodeToString(g.Config),
		FinalityDepth: g.FinalityDepth}
	if g.SlotFound {
		r.GenesisSlot = &g.Slot
	}
	return r, nil
}

func (s *Server) LedgerdGetBlockRecords(ctx context.Context, p *rpcapi.LedgerdGetBlockRecordsParams) (r rpcapi.LedgerdGetBlockRecordsResult, err error) {
	limit := int(p.Limit.Or(uint64(defaultRecordBlocks)))
	blocks, confirmed, finalized, cheat, err := s.ledger.BlockRecords(p.StartSlot, limit, maxRecordBytes)
	var gone *ledger.CleanedUpError
	if errors.As(err, &gone) {
		return r, rpcapi.NewBlockCleanedUpError(gone.Slot, gone.First)
	}
	if err != nil {
		return r, err
	}
	r = rpcapi.BlockRecords{ConfirmedSlot: confirmed, FinalizedSlot: finalized, CheatSlot: cheat,
		Blocks: make([]rpcapi.BlockRecord, len(blocks))}
	for i, b := range blocks {
		txs := make([]string, len(b.Transactions))
		for j, t := range b.Transactions {
			txs[j] = base64.StdEncoding.EncodeToString(t)
		}
		r.Blocks[i] = rpcapi.BlockRecord{Slot: b.Slot, Block: base64.StdEncoding.EncodeToString(b.Block), Transactions: txs}
	}
	return r, nil
}
