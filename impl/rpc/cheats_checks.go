package rpc

import (
	"context"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// ledgerd's relaxed checks: per-address impersonation, and signature verification or the blockhash check
// turned off. The ledger keeps the settings; sendTransaction and simulateTransaction ask it.

func (s *Server) LedgerdImpersonate(ctx context.Context, p *rpcapi.LedgerdImpersonateParams) (r rpcapi.LedgerdImpersonateResult, err error) {
	if err := s.cheat(rpcapi.MethodLedgerdImpersonate); err != nil {
		return r, err
	}
	key := p.Pubkey
	s.ledger.Impersonate(key)
	processed, _, _ := s.ledger.Slots()
	return nullResponse(processed), nil
}

func (s *Server) LedgerdStopImpersonating(ctx context.Context, p *rpcapi.LedgerdStopImpersonatingParams) (r rpcapi.LedgerdStopImpersonatingResult, err error) {
	if err := s.cheat(rpcapi.MethodLedgerdStopImpersonating); err != nil {
		return r, err
	}
	key := p.Pubkey
	return s.ledger.StopImpersonating(key), nil
}

func (s *Server) LedgerdSetSigVerify(ctx context.Context, p *rpcapi.LedgerdSetSigVerifyParams) (r rpcapi.LedgerdSetSigVerifyResult, err error) {
	if err := s.cheat(rpcapi.MethodLedgerdSetSigVerify); err != nil {
		return r, err
	}
	s.ledger.SetSigVerify(p.Enabled)
	return p.Enabled, nil
}

func (s *Server) LedgerdSetBlockhashCheck(ctx context.Context, p *rpcapi.LedgerdSetBlockhashCheckParams) (r rpcapi.LedgerdSetBlockhashCheckResult, err error) {
	if err := s.cheat(rpcapi.MethodLedgerdSetBlockhashCheck); err != nil {
		return r, err
	}
	s.ledger.SetBlockhashCheck(p.Enabled)
	return p.Enabled, nil
}

func (s *Server) SurfnetSetSupply(ctx context.Context, p *rpcapi.SurfnetSetSupplyParams) (r rpcapi.SurfnetSetSupplyResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetSetSupply); err != nil {
		return r, err
	}
	u := p.Update
	o := ledger.SupplyOverride{Total: u.Total, Circulating: u.Circulating, NonCirculating: u.NonCirculating}
	if u.NonCirculatingAccounts != nil {
		o.NonCirculatingAccounts = []core.Pubkey{}
		for _, a := range *u.NonCirculatingAccounts {
			k, err := core.ParsePubkey(a)
			if err != nil {
				return r, rpcapi.NewInvalidParamsError("Invalid non-circulating account: " + err.Error())
			}
			o.NonCirculatingAccounts = append(o.NonCirculatingAccounts, k)
		}
	}
	s.ledger.SetSupply(o)
	processed, _, _ := s.ledger.Slots()
	return nullResponse(processed), nil
}

// overrideSupply replaces the figures of a getSupply answer surfnet_setSupply set (the accounts only when the
// answer lists them).
func (s *Server) overrideSupply(v *rpcapi.Supply, listed bool) {
	o := s.ledger.Supply()
	if o.Total != nil {
		v.Total = *o.Total
	}
	if o.Circulating != nil {
		v.Circulating = *o.Circulating
	}
	if o.NonCirculating != nil {
		v.NonCirculating = *o.NonCirculating
	}
	if o.NonCirculatingAccounts != nil && listed {
		v.NonCirculatingAccounts = v.NonCirculatingAccounts[:0]
		for _, k := range o.NonCirculatingAccounts {
			v.NonCirculatingAccounts = append(v.NonCirculatingAccounts, k.String())
		}
	}
}
