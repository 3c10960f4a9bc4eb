package rpc

import (
	"context"

	"ledgerd/generated/rpcapi"
)


func (s *Server) GetClusterNodes(ctx context.Context) (r rpcapi.GetClusterNodesResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getClusterNodes")
}

func (s *Server) GetSnapshotSlot(ctx context.Context) (r rpcapi.GetSnapshotSlotResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getSnapshotSlot")
}

func (s *Server) GetHighestSnapshotSlot(ctx context.Context) (r rpcapi.GetHighestSnapshotSlotResult, err error) {
	return r, rpcapi.NewMethodNotAvailableError("getHighestSnapshotSlot")
}
