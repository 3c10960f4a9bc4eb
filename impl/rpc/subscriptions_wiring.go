package rpc

import (
	"sync"

	"ledgerd/impl/core"
	"ledgerd/impl/pubsub"
)

// hubs holds each Server's subscription hub. It lives beside Server rather than in it only because server.go
// was being edited concurrently; it belongs in a Server field.
var hubs sync.Map // *Server -> *pubsub.Hub

// SetPubSub hands the server the hub its subscription methods delegate to. Without one they answer -32601.
// Call it before serving.
func (s *Server) SetPubSub(h *pubsub.Hub) {
	hubs.Store(s, h)
	// Block notifications encode transactions exactly as getBlock does.
	h.SetTxWithMeta(txRecordWithMeta)
}

func (s *Server) pubsubHub() *pubsub.Hub {
	h, _ := hubs.Load(s)
	hub, _ := h.(*pubsub.Hub)
	return hub
}

// signatureReceived tells the subscriptions with enableReceivedNotification that sendTransaction accepted the
// transaction with signature sig. sendTransaction calls it before handing the transaction to the ledger, so
// "receivedSignature" always precedes the processed notification.
func (s *Server) signatureReceived(sig core.Signature) {
	if h := s.pubsubHub(); h != nil {
		h.SignatureReceived(sig)
	}
}
