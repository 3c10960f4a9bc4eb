package health

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"ledgerd/generated/rpcapi"
)

// fakePeer is a JSON-RPC endpoint answering what the monitor asks: getIdentity, getSlot, getVersion and
// getGenesisHash. While down it answers HTTP 503.
type fakePeer struct {
	*httptest.Server

	mu          sync.Mutex
	identity    string
	slot        uint64
	down        bool
	commitments []string
}

func newFakePeer(t *testing.T, identity string, slot uint64) *fakePeer {
	t.Helper()
	p := &fakePeer{identity: identity, slot: slot}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

func (p *fakePeer) set(identity string, slot uint64, down bool) {
	p.mu.Lock()
	p.identity, p.slot, p.down = identity, slot, down
	p.mu.Unlock()
}

func (p *fakePeer) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID     json.RawMessage   `json:"id"`
		Method string            `json:"method"`
		Params []json.RawMessage `json:"params"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	var result string
	switch req.Method {
	case rpcapi.MethodGetIdentity:
		result = fmt.Sprintf(`{"identity":%q}`, p.identity)
	case rpcapi.MethodGetSlot:
		var cfg struct{ Commitment string }
		if len(req.Params) > 0 {
			json.Unmarshal(req.Params[0], &cfg)
		}
		p.commitments = append(p.commitments, cfg.Commitment)
		result = fmt.Sprint(p.slot)
	case rpcapi.MethodGetVersion:
		// The reference answers without node-core.
		result = `{"solana-core":"2.2.1","feature-set":123456789}`
	case rpcapi.MethodGetGenesisHash:
		result = `"11111111111111111111111111111111"` // 32 zero bytes
	default:
		fmt.Fprintf(w, `{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"},"id":%s}`, req.ID)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"jsonrpc":"2.0","result":%s,"id":%s}`, result, req.ID)
}
