package rpc

import (
	"context"

	"ledgerd/generated/rpcapi"
)

// SurfnetOfflineAccount keeps an account, and with includeOwnedAccounts the accounts it owns, from being fetched
// from the cluster a lazy fork reads (surfpool's surfnet_offlineAccount); held accounts stay.
func (s *Server) SurfnetOfflineAccount(ctx context.Context, p *rpcapi.SurfnetOfflineAccountParams) (r rpcapi.SurfnetOfflineAccountResult, err error) {
	if err := s.cheat("surfnet_offlineAccount"); err != nil {
		return r, err
	}
	key, err := parsePubkeyParam(p.PubkeyBytes())
	if err != nil {
		return r, err
	}
	withOwned := p.Config != nil && p.Config.IncludeOwnedAccounts != nil && *p.Config.IncludeOwnedAccounts
	s.ledger.OfflineAccount(key, withOwned)
	processed, _, _ := s.ledger.Slots()
	return nullResponse(processed), nil
}
