package rpc

import (
	"context"

	"ledgerd/generated/rpcapi"
)

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
