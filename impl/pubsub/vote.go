package pubsub

import (
	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/vote"
)

// notifyVote sends voteNotification for a successful simple vote transaction (the node's own TowerSync, or any
// vote a client sends): the vote account, the slots of its tower, the voted bank hash and timestamp, and the
// signature, as the reference relays votes it sees in gossip.
func (h *Hub) notifyVote(seq uint64, ev ledger.Event) {
	if ev.Result.Err != nil || !isSimpleVote(ev.Tx) {
		return
	}
	h.mu.RLock()
	var ds []delivery
	for _, s := range h.votes {
		if to := s.targets(seq, ledger.Processed, anySlot); len(to) > 0 {
			ds = append(ds, delivery{s: s, to: to})
		}
	}
	h.mu.RUnlock()
	if len(ds) == 0 {
		return
	}
	m := &ev.Tx.Message
	ixn := m.Instructions[0]
	ix, err := vote.DecodeInstruction(ixn.Data)
	if err != nil || len(ixn.Accounts) == 0 || int(ixn.Accounts[0]) >= len(m.AccountKeys) {
		return
	}
	out := rpcapi.RpcVote{VotePubkey: m.AccountKeys[ixn.Accounts[0]].String(), Signature: ev.Tx.Signature().String(), Slots: []uint64{}}
	var hash core.Hash
	switch ix.Kind {
	case vote.KindTowerSync:
		for _, l := range ix.TowerSync.Lockouts {
			out.Slots = append(out.Slots, l.Slot)
		}
		hash, out.Timestamp = ix.TowerSync.Hash, ix.TowerSync.Timestamp
	default:
		return // the legacy vote instructions are not relayed
	}
	out.Hash = hash.String()
	h.sendAll(ds, out)
}
