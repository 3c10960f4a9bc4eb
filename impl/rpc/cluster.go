package rpc

import (
	"context"

	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/health"
)

// Cluster is what the node knows beyond its ledger: its own addresses, the peers it polls and its snapshots.
type Cluster struct {
	// RPCAddr and PubSubAddr are this node's JSON-RPC HTTP and WebSocket addresses ("ip:port"), set before the
	// node serves.
	RPCAddr, PubSubAddr string
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
	version, featureSet := Version, FeatureSet
	self := rpcapi.ClusterNode{Pubkey: s.node.Identity, Version: &version, FeatureSet: &featureSet}
	if c.RPCAddr != "" {
		self.Rpc = &c.RPCAddr
	}
	if c.PubSubAddr != "" {
		self.Pubsub = &c.PubSubAddr
	}
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
