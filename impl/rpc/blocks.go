package rpc

import (
	"context"

	"ledgerd/generated/rpcapi"
)

func (s *Server) GetBlock(ctx context.Context, p *rpcapi.GetBlockParams) (r rpcapi.GetBlockResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getBlock")
}

func (s *Server) GetBlocks(ctx context.Context, p *rpcapi.GetBlocksParams) (r rpcapi.GetBlocksResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getBlocks")
}

func (s *Server) GetBlocksWithLimit(ctx context.Context, p *rpcapi.GetBlocksWithLimitParams) (r rpcapi.GetBlocksWithLimitResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getBlocksWithLimit")
}

func (s *Server) GetBlockTime(ctx context.Context, p *rpcapi.GetBlockTimeParams) (r rpcapi.GetBlockTimeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getBlockTime")
}

func (s *Server) GetConfirmedBlock(ctx context.Context, p *rpcapi.GetConfirmedBlockParams) (r rpcapi.GetConfirmedBlockResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getConfirmedBlock")
}

func (s *Server) GetConfirmedBlocks(ctx context.Context, p *rpcapi.GetConfirmedBlocksParams) (r rpcapi.GetConfirmedBlocksResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getConfirmedBlocks")
}

func (s *Server) GetConfirmedBlocksWithLimit(ctx context.Context, p *rpcapi.GetConfirmedBlocksWithLimitParams) (r rpcapi.GetConfirmedBlocksWithLimitResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getConfirmedBlocksWithLimit")
}
