package rpc

import (
	"context"

	"ledgerd/generated/rpcapi"
)

func (s *Server) GetBlockHeight(ctx context.Context, p *rpcapi.GetBlockHeightParams) (r rpcapi.GetBlockHeightResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getBlockHeight")
}

func (s *Server) GetSlot(ctx context.Context, p *rpcapi.GetSlotParams) (r rpcapi.GetSlotResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getSlot")
}

func (s *Server) GetMaxRetransmitSlot(ctx context.Context) (r rpcapi.GetMaxRetransmitSlotResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getMaxRetransmitSlot")
}

func (s *Server) GetMaxShredInsertSlot(ctx context.Context) (r rpcapi.GetMaxShredInsertSlotResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getMaxShredInsertSlot")
}

func (s *Server) GetEpochInfo(ctx context.Context, p *rpcapi.GetEpochInfoParams) (r rpcapi.GetEpochInfoResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getEpochInfo")
}

func (s *Server) GetEpochSchedule(ctx context.Context) (r rpcapi.GetEpochScheduleResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getEpochSchedule")
}

func (s *Server) GetTransactionCount(ctx context.Context, p *rpcapi.GetTransactionCountParams) (r rpcapi.GetTransactionCountResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getTransactionCount")
}

func (s *Server) GetLatestBlockhash(ctx context.Context, p *rpcapi.GetLatestBlockhashParams) (r rpcapi.GetLatestBlockhashResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getLatestBlockhash")
}

func (s *Server) IsBlockhashValid(ctx context.Context, p *rpcapi.IsBlockhashValidParams) (r rpcapi.IsBlockhashValidResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("isBlockhashValid")
}

func (s *Server) GetFeeForMessage(ctx context.Context, p *rpcapi.GetFeeForMessageParams) (r rpcapi.GetFeeForMessageResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getFeeForMessage")
}

func (s *Server) GetRecentPrioritizationFees(ctx context.Context, p *rpcapi.GetRecentPrioritizationFeesParams) (r rpcapi.GetRecentPrioritizationFeesResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getRecentPrioritizationFees")
}

func (s *Server) GetRecentPerformanceSamples(ctx context.Context, p *rpcapi.GetRecentPerformanceSamplesParams) (r rpcapi.GetRecentPerformanceSamplesResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getRecentPerformanceSamples")
}

func (s *Server) GetFeeCalculatorForBlockhash(ctx context.Context, p *rpcapi.GetFeeCalculatorForBlockhashParams) (r rpcapi.GetFeeCalculatorForBlockhashResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getFeeCalculatorForBlockhash")
}

func (s *Server) GetFeeRateGovernor(ctx context.Context) (r rpcapi.GetFeeRateGovernorResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getFeeRateGovernor")
}

func (s *Server) GetFees(ctx context.Context, p *rpcapi.GetFeesParams) (r rpcapi.GetFeesResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getFees")
}

func (s *Server) GetRecentBlockhash(ctx context.Context, p *rpcapi.GetRecentBlockhashParams) (r rpcapi.GetRecentBlockhashResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getRecentBlockhash")
}

func (s *Server) MinimumLedgerSlot(ctx context.Context) (r rpcapi.MinimumLedgerSlotResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("minimumLedgerSlot")
}

func (s *Server) GetFirstAvailableBlock(ctx context.Context) (r rpcapi.GetFirstAvailableBlockResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getFirstAvailableBlock")
}
