package rpc

import (
	"ledgerd/generated/rpcapi"
	"ledgerd/impl/ledger"
)

// archivedBlock is a rooted block below the first local one, read from the ledger's archive (Bigtable): -32009
// when the archive has no block for the slot, as the reference answers from its long-term storage; a failure of
// the archive is -32603 with the cause.
func (s *Server) archivedBlock(slot uint64) (*ledger.BlockInfo, error) {
	info, found, err := s.ledger.ArchivedBlock(slot)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, rpcapi.NewLongTermStorageSlotSkippedError(slot)
	}
	return info, nil
}
