package rpc

import (
	"context"

	"ledgerd/generated/rpcapi"
)

// ledgerd's relaxed checks: per-address impersonation, and signature verification or the blockhash check
// turned off. The ledger keeps the settings; sendTransaction and simulateTransaction ask it.

func (s *Server) LedgerdImpersonate(ctx context.Context, p *rpcapi.LedgerdImpersonateParams) (r rpcapi.LedgerdImpersonateResult, err error) {
	if err := s.cheat("ledgerd_impersonate"); err != nil {
		return r, err
	}
	key, err := parsePubkeyParam(p.PubkeyBytes())
	if err != nil {
		return r, err
	}
	s.ledger.Impersonate(key)
	processed, _, _ := s.ledger.Slots()
	return nullResponse(processed), nil
}

func (s *Server) LedgerdStopImpersonating(ctx context.Context, p *rpcapi.LedgerdStopImpersonatingParams) (r rpcapi.LedgerdStopImpersonatingResult, err error) {
	if err := s.cheat("ledgerd_stopImpersonating"); err != nil {
		return r, err
	}
	key, err := parsePubkeyParam(p.PubkeyBytes())
	if err != nil {
		return r, err
	}
	return s.ledger.StopImpersonating(key), nil
}

func (s *Server) LedgerdSetSigVerify(ctx context.Context, p *rpcapi.LedgerdSetSigVerifyParams) (r rpcapi.LedgerdSetSigVerifyResult, err error) {
	if err := s.cheat("ledgerd_setSigVerify"); err != nil {
		return r, err
	}
	s.ledger.SetSigVerify(p.Enabled)
	return p.Enabled, nil
}

func (s *Server) LedgerdSetBlockhashCheck(ctx context.Context, p *rpcapi.LedgerdSetBlockhashCheckParams) (r rpcapi.LedgerdSetBlockhashCheckResult, err error) {
	if err := s.cheat("ledgerd_setBlockhashCheck"); err != nil {
		return r, err
	}
	s.ledger.SetBlockhashCheck(p.Enabled)
	return p.Enabled, nil
}
