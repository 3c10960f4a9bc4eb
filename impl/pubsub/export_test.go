package pubsub

// SetTestHookSubscribed runs f after each subscription is registered and before its reply is written, until the
// returned function restores the default. Tests use it to make the worker notify inside that window.
func SetTestHookSubscribed(f func(h *Hub)) (restore func()) {
	testHookSubscribed = f
	return func() { testHookSubscribed = nil }
}

// Seqs returns the sequence number of the last queued item and of the last one the worker finished.
func (h *Hub) Seqs() (queued, processed uint64) { return h.seq.Load(), h.processed.Load() }
