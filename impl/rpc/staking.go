package rpc

import (
	"context"

	"ledgerd/generated/rpcapi"
)


func (s *Server) GetInflationGovernor(ctx context.Context, p *rpcapi.GetInflationGovernorParams) (r rpcapi.GetInflationGovernorResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getInflationGovernor")
}

func (s *Server) GetInflationRate(ctx context.Context) (r rpcapi.GetInflationRateResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getInflationRate")
}

func (s *Server) GetInflationReward(ctx context.Context, p *rpcapi.GetInflationRewardParams) (r rpcapi.GetInflationRewardResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getInflationReward")
}

func (s *Server) GetStakeActivation(ctx context.Context, p *rpcapi.GetStakeActivationParams) (r rpcapi.GetStakeActivationResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getStakeActivation")
}

func (s *Server) GetStakeMinimumDelegation(ctx context.Context, p *rpcapi.GetStakeMinimumDelegationParams) (r rpcapi.GetStakeMinimumDelegationResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getStakeMinimumDelegation")
}

func (s *Server) GetVoteAccounts(ctx context.Context, p *rpcapi.GetVoteAccountsParams) (r rpcapi.GetVoteAccountsResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getVoteAccounts")
}

func (s *Server) GetSlotLeader(ctx context.Context, p *rpcapi.GetSlotLeaderParams) (r rpcapi.GetSlotLeaderResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getSlotLeader")
}

func (s *Server) GetSlotLeaders(ctx context.Context, p *rpcapi.GetSlotLeadersParams) (r rpcapi.GetSlotLeadersResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getSlotLeaders")
}

func (s *Server) GetLeaderSchedule(ctx context.Context, p *rpcapi.GetLeaderScheduleParams) (r rpcapi.GetLeaderScheduleResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getLeaderSchedule")
}

func (s *Server) GetBlockCommitment(ctx context.Context, p *rpcapi.GetBlockCommitmentParams) (r rpcapi.GetBlockCommitmentResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getBlockCommitment")
}

func (s *Server) GetBlockProduction(ctx context.Context, p *rpcapi.GetBlockProductionParams) (r rpcapi.GetBlockProductionResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getBlockProduction")
}
