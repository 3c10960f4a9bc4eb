package rpc

import (
	"context"

	"ledgerd/generated/rpcapi"
)

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
