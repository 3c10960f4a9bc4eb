package rpc

import (
	"context"
	"strings"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/jsonrpc"
	"ledgerd/impl/pubsub"
)

// The subscription methods delegate to impl/pubsub with the WebSocket connection the call arrived on. The
// dispatcher serves them only over WebSocket, and answers -32601 for the unstable ones when they are disabled.

// subscriber returns the hub and the connection of a subscription call.
func (s *Server) subscriber(ctx context.Context) (*pubsub.Hub, jsonrpc.Conn, error) {
	h := s.pubsubHub()
	conn, ok := jsonrpc.ConnFromContext(ctx)
	if h == nil || !ok {
		return nil, nil, rpcapi.NewMethodNotFoundError()
	}
	return h, conn, nil
}

func (s *Server) unsubscribe(ctx context.Context, id uint64) (bool, error) {
	h, conn, err := s.subscriber(ctx)
	if err != nil {
		return false, err
	}
	if err := h.Unsubscribe(conn, id); err != nil {
		return false, err
	}
	return true, nil
}

func (s *Server) AccountSubscribe(ctx context.Context, p *rpcapi.AccountSubscribeParams) (rpcapi.AccountSubscribeResult, error) {
	h, conn, err := s.subscriber(ctx)
	if err != nil {
		return 0, err
	}
	return h.Account(conn, p)
}

func (s *Server) AccountUnsubscribe(ctx context.Context, p *rpcapi.AccountUnsubscribeParams) (rpcapi.AccountUnsubscribeResult, error) {
	return s.unsubscribe(ctx, p.Subscription)
}

func (s *Server) LogsSubscribe(ctx context.Context, p *rpcapi.LogsSubscribeParams) (rpcapi.LogsSubscribeResult, error) {
	h, conn, err := s.subscriber(ctx)
	if err != nil {
		return 0, err
	}
	return h.Logs(conn, p)
}

func (s *Server) LogsUnsubscribe(ctx context.Context, p *rpcapi.LogsUnsubscribeParams) (rpcapi.LogsUnsubscribeResult, error) {
	return s.unsubscribe(ctx, p.Subscription)
}

// ProgramSubscribe checks and compiles the filters as getProgramAccounts does; over PubSub the reference's
// message carries an "Invalid params: " prefix (jsonrpc-core's Display of the inner error).
func (s *Server) ProgramSubscribe(ctx context.Context, p *rpcapi.ProgramSubscribeParams) (rpcapi.ProgramSubscribeResult, error) {
	h, conn, err := s.subscriber(ctx)
	if err != nil {
		return 0, err
	}
	var filters []rpcapi.ProgramAccountsFilter
	if f := p.Config.OrZero().Filters; f != nil {
		filters = *f
	}
	var match func([]byte) bool
	if len(filters) > 0 {
		if match, err = compileFilters(filters); err != nil {
			if e, ok := rpcapi.AsError(err); ok && e.Code == -32602 && !strings.HasPrefix(e.Message, "Invalid params: ") {
				return 0, rpcapi.NewInvalidParamsError("Invalid params: " + e.Message)
			}
			return 0, err
		}
	}
	return h.Program(conn, p, match)
}

func (s *Server) ProgramUnsubscribe(ctx context.Context, p *rpcapi.ProgramUnsubscribeParams) (rpcapi.ProgramUnsubscribeResult, error) {
	return s.unsubscribe(ctx, p.Subscription)
}

func (s *Server) SignatureSubscribe(ctx context.Context, p *rpcapi.SignatureSubscribeParams) (rpcapi.SignatureSubscribeResult, error) {
	h, conn, err := s.subscriber(ctx)
	if err != nil {
		return 0, err
	}
	return h.Signature(conn, p)
}

func (s *Server) SignatureUnsubscribe(ctx context.Context, p *rpcapi.SignatureUnsubscribeParams) (rpcapi.SignatureUnsubscribeResult, error) {
	return s.unsubscribe(ctx, p.Subscription)
}

func (s *Server) SlotSubscribe(ctx context.Context) (rpcapi.SlotSubscribeResult, error) {
	h, conn, err := s.subscriber(ctx)
	if err != nil {
		return 0, err
	}
	return h.Slot(conn)
}

func (s *Server) SlotUnsubscribe(ctx context.Context, p *rpcapi.SlotUnsubscribeParams) (rpcapi.SlotUnsubscribeResult, error) {
	return s.unsubscribe(ctx, p.Subscription)
}

func (s *Server) BlockSubscribe(ctx context.Context, p *rpcapi.BlockSubscribeParams) (rpcapi.BlockSubscribeResult, error) {
	h, conn, err := s.subscriber(ctx)
	if err != nil {
		return 0, err
	}
	return h.Block(conn, p)
}

func (s *Server) BlockUnsubscribe(ctx context.Context, p *rpcapi.BlockUnsubscribeParams) (rpcapi.BlockUnsubscribeResult, error) {
	return s.unsubscribe(ctx, p.Subscription)
}

func (s *Server) SlotsUpdatesSubscribe(ctx context.Context) (rpcapi.SlotsUpdatesSubscribeResult, error) {
	h, conn, err := s.subscriber(ctx)
	if err != nil {
		return 0, err
	}
	return h.SlotsUpdates(conn)
}

func (s *Server) SlotsUpdatesUnsubscribe(ctx context.Context, p *rpcapi.SlotsUpdatesUnsubscribeParams) (rpcapi.SlotsUpdatesUnsubscribeResult, error) {
	return s.unsubscribe(ctx, p.Subscription)
}

// VoteSubscribe hears of every simple vote transaction that executes: the node's own, one per slot, and any a
// client sends.
func (s *Server) VoteSubscribe(ctx context.Context) (rpcapi.VoteSubscribeResult, error) {
	h, conn, err := s.subscriber(ctx)
	if err != nil {
		return 0, err
	}
	return h.Vote(conn)
}

func (s *Server) VoteUnsubscribe(ctx context.Context, p *rpcapi.VoteUnsubscribeParams) (rpcapi.VoteUnsubscribeResult, error) {
	return s.unsubscribe(ctx, p.Subscription)
}

func (s *Server) RootSubscribe(ctx context.Context) (rpcapi.RootSubscribeResult, error) {
	h, conn, err := s.subscriber(ctx)
	if err != nil {
		return 0, err
	}
	return h.Root(conn)
}

func (s *Server) RootUnsubscribe(ctx context.Context, p *rpcapi.RootUnsubscribeParams) (rpcapi.RootUnsubscribeResult, error) {
	return s.unsubscribe(ctx, p.Subscription)
}
