package rpc

import (
	"context"

	"ledgerd/generated/rpcapi"
)

func (s *Server) SendTransaction(ctx context.Context, p *rpcapi.SendTransactionParams) (r rpcapi.SendTransactionResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("sendTransaction")
}

func (s *Server) SimulateTransaction(ctx context.Context, p *rpcapi.SimulateTransactionParams) (r rpcapi.SimulateTransactionResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("simulateTransaction")
}

func (s *Server) RequestAirdrop(ctx context.Context, p *rpcapi.RequestAirdropParams) (r rpcapi.RequestAirdropResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("requestAirdrop")
}

func (s *Server) GetSignatureStatuses(ctx context.Context, p *rpcapi.GetSignatureStatusesParams) (r rpcapi.GetSignatureStatusesResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getSignatureStatuses")
}

func (s *Server) GetSignaturesForAddress(ctx context.Context, p *rpcapi.GetSignaturesForAddressParams) (r rpcapi.GetSignaturesForAddressResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getSignaturesForAddress")
}

func (s *Server) GetConfirmedSignaturesForAddress2(ctx context.Context, p *rpcapi.GetConfirmedSignaturesForAddress2Params) (r rpcapi.GetConfirmedSignaturesForAddress2Result, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getConfirmedSignaturesForAddress2")
}

func (s *Server) GetTransaction(ctx context.Context, p *rpcapi.GetTransactionParams) (r rpcapi.GetTransactionResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getTransaction")
}

func (s *Server) GetConfirmedTransaction(ctx context.Context, p *rpcapi.GetConfirmedTransactionParams) (r rpcapi.GetConfirmedTransactionResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getConfirmedTransaction")
}
