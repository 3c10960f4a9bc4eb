package ledger

import (
	"slices"
	"sync"

	"ledgerd/impl/core"
)

// SupplyOverride holds what surfnet_setSupply asked getSupply to answer instead of the chain's figures; a nil
// field is computed from the chain. It changes no account and no capitalization.
type SupplyOverride struct {
	Total, Circulating, NonCirculating *uint64
	NonCirculatingAccounts             []core.Pubkey // nil: the chain's list
}

type supplyState struct {
	mu sync.Mutex
	o  SupplyOverride
}

func (l *Ledger) supply() *supplyState { return &l.supplyOverride }

// SetSupply merges u into the override: each field u gives replaces the previous one.
func (l *Ledger) SetSupply(u SupplyOverride) {
	s := l.supply()
	s.mu.Lock()
	defer s.mu.Unlock()
	if u.Total != nil {
		s.o.Total = u.Total
	}
	if u.Circulating != nil {
		s.o.Circulating = u.Circulating
	}
	if u.NonCirculating != nil {
		s.o.NonCirculating = u.NonCirculating
	}
	if u.NonCirculatingAccounts != nil {
		s.o.NonCirculatingAccounts = slices.Clone(u.NonCirculatingAccounts)
	}
}

// Supply returns the override in force.
func (l *Ledger) Supply() SupplyOverride {
	s := l.supply()
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.o
	o.NonCirculatingAccounts = slices.Clone(o.NonCirculatingAccounts)
	return o
}
