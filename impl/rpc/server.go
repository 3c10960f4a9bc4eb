// Package rpc implements the generated rpcapi.Handler over the node: each method turns its typed params into a
// query of the node's state and returns the typed result. It stays thin; the ledger logic lives below it.
package rpc

import (
	"context"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/ledger"
	"ledgerd/impl/pubsub"
)

// Version is the node-core version ledgerd reports. It names the reference release whose behaviour ledgerd
// matches (docs/reference-behaviour.md §0: Agave 4.3, the line LiteSVM 1.5.0 embeds and the test validator kit's
// tests run against), because clients gate features on it.
const Version = "4.3.0"

// FeatureSet identifies the set of runtime features ledgerd implements (first 4 bytes of their hash, as the
// reference reports it); clients read it as a plain number, so it stays below 2^32.
const FeatureSet uint32 = 3271415109

// Node is what the handler needs from the running node.
type Node struct {
	Identity    string // base58 identity pubkey
	GenesisHash string // base58 genesis hash
	// Health returns "ok", "behind" (with how many slots) or "unknown"; nil is always ok.
	Health func() (status string, numSlotsBehind uint64)
	Ledger *ledger.Ledger
	// Cluster serves getClusterNodes and the snapshot methods (cluster.go); nil: this node alone, no snapshot.
	Cluster *Cluster
	// Cheats serves the developer's methods (cheats.go); without it they answer -32601.
	Cheats bool
}

// Server implements rpcapi.Handler.
type Server struct {
	node   Node
	ledger *ledger.Ledger
	hub    *pubsub.Hub // subscriptions; nil answers -32601

	profiles profileStore // the transaction profiles surfnet_profileTransaction keeps (cheats_profile.go)
}

var _ rpcapi.Handler = (*Server)(nil)

// NewServer returns the handler for node.
func NewServer(node Node) *Server { return &Server{node: node, ledger: node.Ledger} }

func (s *Server) GetVersion(ctx context.Context) (rpcapi.GetVersionResult, error) {
	return rpcapi.Version{SolanaCore: Version, NodeCore: Version, FeatureSet: FeatureSet}, nil
}

func (s *Server) GetIdentity(ctx context.Context) (rpcapi.GetIdentityResult, error) {
	return rpcapi.GetIdentityResult{Identity: s.node.Identity}, nil
}

func (s *Server) GetGenesisHash(ctx context.Context) (rpcapi.GetGenesisHashResult, error) {
	return s.node.GenesisHash, nil
}

// GetHealth answers "ok", or -32005 as the reference does when the node is behind or its state is unknown.
func (s *Server) GetHealth(ctx context.Context) (rpcapi.GetHealthResult, error) {
	if err := s.healthError(); err != nil {
		return "", err
	}
	return "ok", nil
}
