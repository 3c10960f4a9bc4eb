package rpc

import (
	"context"

	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/health"
)

// ClientID is the validator client getClusterNodes names for this node: the test validator's, since ledgerd
// answers as that client does (it reports the reference's version and feature set too).
const ClientID = "Agave"

// Cluster is what the node knows beyond its ledger: its own addresses, the peers it polls and its snapshots.
type Cluster struct {
	// RPCAddr and PubSubAddr are this node's JSON-RPC HTTP and WebSocket addresses ("ip:port"), set before the
	// node serves.
	RPCAddr, PubSubAddr string
	// The addresses the node holds for the validator services the test validator advertises (gossip, shreds,
	// QUIC transactions and forwards, votes, repair); "" leaves one out (null).
	Gossip, TVU, TPUQuic, TPUForwardsQuic, TPUVote, ServeRepair string
	// Peers returns the peer nodes heard from recently (nil: none).
	Peers func() []health.Peer
	// Snapshots returns the newest full snapshot's slot and the newest incremental one's based on it; ok is
	// false while there is none (nil: never any).
	Snapshots func() (full uint64, incremental *uint64, ok bool)
}

// healthError is nil when the node is healthy, else the -32005 error the reference answers getHealth (and a
// preflighted sendTransaction) with: "Node is behind by N slots" when the gap is known, "Node is unhealthy"
// otherwise.
func (s *Server) healthError() error {
	if s.node.Health == nil {
		return nil
	}
	switch status, behind := s.node.Health(); status {
	case health.OK:
		return nil
	case health.Behind:
		return rpcapi.NewNodeBehindError(behind)
	default:
		return rpcapi.NewNodeUnhealthyError()
	}
}

// GetClusterNodes lists this node, then each peer that answered recently with an identity of its own. ledgerd
// runs no gossip, TPU, TVU or repair service, so those addresses are null; a peer's RPC address is the one it
// was configured with, and its version, feature set and shred version are what it answered.
func (s *Server) GetClusterNodes(ctx context.Context) (rpcapi.GetClusterNodesResult, error) {
	c := s.node.Cluster
	if c == nil {
		c = &Cluster{}
	}
	version, featureSet, client := Version, FeatureSet, ClientID
	self := rpcapi.ClusterNode{Pubkey: s.node.Identity, Version: &version, FeatureSet: &featureSet, ClientId: &client,
		Rpc: addr(c.RPCAddr), Pubsub: addr(c.PubSubAddr), Gossip: addr(c.Gossip), Tvu: addr(c.TVU),
		TpuQuic: addr(c.TPUQuic), TpuForwardsQuic: addr(c.TPUForwardsQuic), TpuVote: addr(c.TPUVote),
		ServeRepair: addr(c.ServeRepair)}
	// tpu and tpuForwards stay null: like the test validator, the node takes no transactions over UDP.
	if h, err := base58.Decode(s.node.GenesisHash); err == nil && len(h) == 32 {
		sv := health.ShredVersion([32]byte(h))
		self.ShredVersion = &sv
	}
	nodes := rpcapi.GetClusterNodesResult{self}
	if c.Peers == nil {
		return nodes, nil
	}
	seen := map[string]bool{s.node.Identity: true}
	for _, p := range c.Peers() {
		if seen[p.Identity] {
			continue
		}
		seen[p.Identity] = true
		rpc := p.RPC
		nodes = append(nodes, rpcapi.ClusterNode{Pubkey: p.Identity, Rpc: &rpc, Version: p.Version,
			FeatureSet: p.FeatureSet, ShredVersion: p.ShredVersion})
	}
	return nodes, nil
}

// addr is an address for a ClusterNode field: null when the node has none.
func addr(a string) *string {
	if a == "" {
		return nil
	}
	return &a
}

// GetSnapshotSlot is the deprecated form of getHighestSnapshotSlot: the full snapshot's slot only.
func (s *Server) GetSnapshotSlot(ctx context.Context) (rpcapi.GetSnapshotSlotResult, error) {
	full, _, err := s.snapshotSlots()
	return full, err
}

// GetHighestSnapshotSlot reports the newest full snapshot and the newest incremental one based on it.
func (s *Server) GetHighestSnapshotSlot(ctx context.Context) (rpcapi.GetHighestSnapshotSlotResult, error) {
	full, incremental, err := s.snapshotSlots()
	if err != nil {
		return rpcapi.GetHighestSnapshotSlotResult{}, err
	}
	return rpcapi.SnapshotSlotInfo{Full: full, Incremental: incremental}, nil
}

func (s *Server) snapshotSlots() (full uint64, incremental *uint64, err error) {
	if c := s.node.Cluster; c != nil && c.Snapshots != nil {
		if full, incremental, ok := c.Snapshots(); ok {
			return full, incremental, nil
		}
	}
	return 0, nil, rpcapi.NewNoSnapshotError()
}
