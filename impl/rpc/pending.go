package rpc

import (
	"context"

	"ledgerd/generated/rpcapi"
)

// The methods below belong to later issues (the ledger, subscriptions, programs, cluster). Until each lands it
// answers -32601 "Method not available yet: <method>", so a client sees clearly what is missing.

func (s *Server) GetAccountInfo(ctx context.Context, p *rpcapi.GetAccountInfoParams) (r rpcapi.GetAccountInfoResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getAccountInfo")
}

func (s *Server) GetBalance(ctx context.Context, p *rpcapi.GetBalanceParams) (r rpcapi.GetBalanceResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getBalance")
}

func (s *Server) GetMultipleAccounts(ctx context.Context, p *rpcapi.GetMultipleAccountsParams) (r rpcapi.GetMultipleAccountsResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getMultipleAccounts")
}

func (s *Server) GetProgramAccounts(ctx context.Context, p *rpcapi.GetProgramAccountsParams) (r rpcapi.GetProgramAccountsResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getProgramAccounts")
}

func (s *Server) GetMinimumBalanceForRentExemption(ctx context.Context, p *rpcapi.GetMinimumBalanceForRentExemptionParams) (r rpcapi.GetMinimumBalanceForRentExemptionResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getMinimumBalanceForRentExemption")
}

func (s *Server) GetLargestAccounts(ctx context.Context, p *rpcapi.GetLargestAccountsParams) (r rpcapi.GetLargestAccountsResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getLargestAccounts")
}

func (s *Server) GetSupply(ctx context.Context, p *rpcapi.GetSupplyParams) (r rpcapi.GetSupplyResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getSupply")
}

func (s *Server) RequestAirdrop(ctx context.Context, p *rpcapi.RequestAirdropParams) (r rpcapi.RequestAirdropResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("requestAirdrop")
}

func (s *Server) GetBlock(ctx context.Context, p *rpcapi.GetBlockParams) (r rpcapi.GetBlockResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getBlock")
}

func (s *Server) GetBlockHeight(ctx context.Context, p *rpcapi.GetBlockHeightParams) (r rpcapi.GetBlockHeightResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getBlockHeight")
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

func (s *Server) GetFirstAvailableBlock(ctx context.Context) (r rpcapi.GetFirstAvailableBlockResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getFirstAvailableBlock")
}

func (s *Server) MinimumLedgerSlot(ctx context.Context) (r rpcapi.MinimumLedgerSlotResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("minimumLedgerSlot")
}

func (s *Server) GetEpochInfo(ctx context.Context, p *rpcapi.GetEpochInfoParams) (r rpcapi.GetEpochInfoResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getEpochInfo")
}

func (s *Server) GetEpochSchedule(ctx context.Context) (r rpcapi.GetEpochScheduleResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getEpochSchedule")
}

func (s *Server) GetInflationGovernor(ctx context.Context, p *rpcapi.GetInflationGovernorParams) (r rpcapi.GetInflationGovernorResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getInflationGovernor")
}

func (s *Server) GetInflationRate(ctx context.Context) (r rpcapi.GetInflationRateResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getInflationRate")
}

func (s *Server) GetInflationReward(ctx context.Context, p *rpcapi.GetInflationRewardParams) (r rpcapi.GetInflationRewardResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getInflationReward")
}

func (s *Server) GetClusterNodes(ctx context.Context) (r rpcapi.GetClusterNodesResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getClusterNodes")
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

func (s *Server) GetConfirmedSignaturesForAddress2(ctx context.Context, p *rpcapi.GetConfirmedSignaturesForAddress2Params) (r rpcapi.GetConfirmedSignaturesForAddress2Result, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getConfirmedSignaturesForAddress2")
}

func (s *Server) GetConfirmedTransaction(ctx context.Context, p *rpcapi.GetConfirmedTransactionParams) (r rpcapi.GetConfirmedTransactionResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getConfirmedTransaction")
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

func (s *Server) GetSnapshotSlot(ctx context.Context) (r rpcapi.GetSnapshotSlotResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getSnapshotSlot")
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

func (s *Server) GetHighestSnapshotSlot(ctx context.Context) (r rpcapi.GetHighestSnapshotSlotResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getHighestSnapshotSlot")
}

func (s *Server) GetSlot(ctx context.Context, p *rpcapi.GetSlotParams) (r rpcapi.GetSlotResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getSlot")
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

func (s *Server) GetMaxRetransmitSlot(ctx context.Context) (r rpcapi.GetMaxRetransmitSlotResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getMaxRetransmitSlot")
}

func (s *Server) GetMaxShredInsertSlot(ctx context.Context) (r rpcapi.GetMaxShredInsertSlotResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getMaxShredInsertSlot")
}

func (s *Server) GetRecentPerformanceSamples(ctx context.Context, p *rpcapi.GetRecentPerformanceSamplesParams) (r rpcapi.GetRecentPerformanceSamplesResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getRecentPerformanceSamples")
}

func (s *Server) GetBlockCommitment(ctx context.Context, p *rpcapi.GetBlockCommitmentParams) (r rpcapi.GetBlockCommitmentResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getBlockCommitment")
}

func (s *Server) GetBlockProduction(ctx context.Context, p *rpcapi.GetBlockProductionParams) (r rpcapi.GetBlockProductionResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getBlockProduction")
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

func (s *Server) AccountSubscribe(ctx context.Context, p *rpcapi.AccountSubscribeParams) (r rpcapi.AccountSubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("accountSubscribe")
}

func (s *Server) AccountUnsubscribe(ctx context.Context, p *rpcapi.AccountUnsubscribeParams) (r rpcapi.AccountUnsubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("accountUnsubscribe")
}

func (s *Server) LogsSubscribe(ctx context.Context, p *rpcapi.LogsSubscribeParams) (r rpcapi.LogsSubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("logsSubscribe")
}

func (s *Server) LogsUnsubscribe(ctx context.Context, p *rpcapi.LogsUnsubscribeParams) (r rpcapi.LogsUnsubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("logsUnsubscribe")
}

func (s *Server) ProgramSubscribe(ctx context.Context, p *rpcapi.ProgramSubscribeParams) (r rpcapi.ProgramSubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("programSubscribe")
}

func (s *Server) ProgramUnsubscribe(ctx context.Context, p *rpcapi.ProgramUnsubscribeParams) (r rpcapi.ProgramUnsubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("programUnsubscribe")
}

func (s *Server) SignatureSubscribe(ctx context.Context, p *rpcapi.SignatureSubscribeParams) (r rpcapi.SignatureSubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("signatureSubscribe")
}

func (s *Server) SignatureUnsubscribe(ctx context.Context, p *rpcapi.SignatureUnsubscribeParams) (r rpcapi.SignatureUnsubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("signatureUnsubscribe")
}

func (s *Server) SlotSubscribe(ctx context.Context) (r rpcapi.SlotSubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("slotSubscribe")
}

func (s *Server) SlotUnsubscribe(ctx context.Context, p *rpcapi.SlotUnsubscribeParams) (r rpcapi.SlotUnsubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("slotUnsubscribe")
}

func (s *Server) BlockSubscribe(ctx context.Context, p *rpcapi.BlockSubscribeParams) (r rpcapi.BlockSubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("blockSubscribe")
}

func (s *Server) BlockUnsubscribe(ctx context.Context, p *rpcapi.BlockUnsubscribeParams) (r rpcapi.BlockUnsubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("blockUnsubscribe")
}

func (s *Server) SlotsUpdatesSubscribe(ctx context.Context) (r rpcapi.SlotsUpdatesSubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("slotsUpdatesSubscribe")
}

func (s *Server) SlotsUpdatesUnsubscribe(ctx context.Context, p *rpcapi.SlotsUpdatesUnsubscribeParams) (r rpcapi.SlotsUpdatesUnsubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("slotsUpdatesUnsubscribe")
}

func (s *Server) VoteSubscribe(ctx context.Context) (r rpcapi.VoteSubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("voteSubscribe")
}

func (s *Server) VoteUnsubscribe(ctx context.Context, p *rpcapi.VoteUnsubscribeParams) (r rpcapi.VoteUnsubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("voteUnsubscribe")
}

func (s *Server) RootSubscribe(ctx context.Context) (r rpcapi.RootSubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("rootSubscribe")
}

func (s *Server) RootUnsubscribe(ctx context.Context, p *rpcapi.RootUnsubscribeParams) (r rpcapi.RootUnsubscribeResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("rootUnsubscribe")
}

func (s *Server) GetTokenAccountBalance(ctx context.Context, p *rpcapi.GetTokenAccountBalanceParams) (r rpcapi.GetTokenAccountBalanceResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getTokenAccountBalance")
}

func (s *Server) GetTokenSupply(ctx context.Context, p *rpcapi.GetTokenSupplyParams) (r rpcapi.GetTokenSupplyResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getTokenSupply")
}

func (s *Server) GetTokenLargestAccounts(ctx context.Context, p *rpcapi.GetTokenLargestAccountsParams) (r rpcapi.GetTokenLargestAccountsResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getTokenLargestAccounts")
}

func (s *Server) GetTokenAccountsByOwner(ctx context.Context, p *rpcapi.GetTokenAccountsByOwnerParams) (r rpcapi.GetTokenAccountsByOwnerResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getTokenAccountsByOwner")
}

func (s *Server) GetTokenAccountsByDelegate(ctx context.Context, p *rpcapi.GetTokenAccountsByDelegateParams) (r rpcapi.GetTokenAccountsByDelegateResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getTokenAccountsByDelegate")
}

func (s *Server) GetTransaction(ctx context.Context, p *rpcapi.GetTransactionParams) (r rpcapi.GetTransactionResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getTransaction")
}

func (s *Server) GetTransactionCount(ctx context.Context, p *rpcapi.GetTransactionCountParams) (r rpcapi.GetTransactionCountResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getTransactionCount")
}

func (s *Server) GetSignaturesForAddress(ctx context.Context, p *rpcapi.GetSignaturesForAddressParams) (r rpcapi.GetSignaturesForAddressResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getSignaturesForAddress")
}

func (s *Server) GetSignatureStatuses(ctx context.Context, p *rpcapi.GetSignatureStatusesParams) (r rpcapi.GetSignatureStatusesResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getSignatureStatuses")
}

func (s *Server) SendTransaction(ctx context.Context, p *rpcapi.SendTransactionParams) (r rpcapi.SendTransactionResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("sendTransaction")
}

func (s *Server) SimulateTransaction(ctx context.Context, p *rpcapi.SimulateTransactionParams) (r rpcapi.SimulateTransactionResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("simulateTransaction")
}
