package rpc

import (
	"bytes"
	"context"
	"maps"
	"slices"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// SurfnetOfflineAccount keeps an account, and with includeOwnedAccounts the accounts it owns, from being fetched
// from the cluster a lazy fork reads (surfpool's surfnet_offlineAccount); held accounts stay.
func (s *Server) SurfnetOfflineAccount(ctx context.Context, p *rpcapi.SurfnetOfflineAccountParams) (r rpcapi.SurfnetOfflineAccountResult, err error) {
	if err := s.cheat(rpcapi.MethodSurfnetOfflineAccount); err != nil {
		return r, err
	}
	key := p.Pubkey
	owned := p.Config.OrZero().IncludeOwnedAccounts
	withOwned := owned != nil && *owned
	s.ledger.OfflineAccount(key, withOwned)
	processed, _, _ := s.ledger.Slots()
	return nullResponse(processed), nil
}

// sortedWrites are the writes of accounts, in address order.
func sortedWrites(accounts map[core.Pubkey]runtime.Account) []runtime.AccountWrite {
	var out []runtime.AccountWrite
	for _, k := range slices.SortedFunc(maps.Keys(accounts), func(a, b core.Pubkey) int { return bytes.Compare(a[:], b[:]) }) {
		out = append(out, runtime.AccountWrite{Pubkey: k, Account: accounts[k]})
	}
	return out
}
