package rpc

import (
	"ledgerd/impl/core"
	"ledgerd/impl/pubsub"
)

// SetPubSub hands the server the hub its subscription methods delegate to. Without one they answer -32601.
// Call it before serving.
func (s *Server) SetPubSub(h *pubsub.Hub) {
	s.hub = h
}

func (s *Server) pubsubHub() *pubsub.Hub { return s.hub }

// signatureReceived tells the subscriptions with enableReceivedNotification that sendTransaction accepted the
// transaction with signature sig. sendTransaction calls it before handing the transaction to the ledger, so
// "receivedSignature" always precedes the processed notification.
func (s *Server) signatureReceived(sig core.Signature) {
	if h := s.pubsubHub(); h != nil {
		h.SignatureReceived(sig)
	}
}
