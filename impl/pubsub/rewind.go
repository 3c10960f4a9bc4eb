package pubsub

// A revert or a reset (ledgerd_revert, surfnet_resetNetwork) takes the chain back to an older slot, and the
// chain goes on from there with slot numbers it used before. A subscription's floors (the slots each commitment
// level had reached when it was made) would then silence the notifications of the restored slots; they are
// lowered to the slot the chain went back to, and what the worker kept of the dropped slots is forgotten.

// rewound reports, for a new working slot, whether the chain went back: a new slot at or below the last one
// created.
func (w *worker) rewound(slot uint64) bool {
	back := w.created != 0 && slot <= w.created
	w.created = slot
	return back
}

// rewind lowers every subscription's floors to parent, the slot the chain went back to, and drops the records
// of the slots after it. It runs on the worker.
func (h *Hub) rewind(parent uint64) {
	w := &h.w
	for s := range w.records {
		if s > parent {
			delete(w.records, s)
		}
	}
	w.root = min(w.root, parent)
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, s := range h.byKey {
		for i := range s.holders {
			for c := range s.holders[i].floor {
				s.holders[i].floor[c] = min(s.holders[i].floor[c], parent)
			}
		}
	}
}
