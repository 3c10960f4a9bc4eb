package pubsub

// SubscribeMethods lists the subscribe methods, the kinds SubscriptionsByKind counts.
func SubscribeMethods() []string { return append([]string(nil), subscribeMethods[:]...) }

// SubscriptionsByKind returns the number of distinct subscription ids of each subscribe method (the node's
// /metrics); every method is present, zero when none is open.
func (h *Hub) SubscriptionsByKind() map[string]int {
	out := make(map[string]int, len(subscribeMethods))
	for _, m := range subscribeMethods {
		out[m] = 0
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	for _, s := range h.byID {
		out[subscribeMethods[s.kind]]++
	}
	return out
}
