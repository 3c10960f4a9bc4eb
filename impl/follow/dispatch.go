package follow

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"ledgerd/generated/rpcapi"
)

// Caller is the node's method dispatcher (impl/jsonrpc's Dispatcher, rpcapi.Dispatcher).
type Caller interface {
	Call(ctx context.Context, method string, params json.RawMessage, ws bool) (any, error)
}

// forwarded are the methods a follower hands to its leader: they make transactions the leader's producer runs.
var forwarded = map[string]bool{rpcapi.MethodSendTransaction: true, rpcapi.MethodRequestAirdrop: true}

// local are the developer's and replication methods a follower answers itself: they change nothing.
var local = map[string]bool{rpcapi.MethodSurfnetGetSurfnetInfo: true, rpcapi.MethodLedgerdGetGenesis: true, rpcapi.MethodLedgerdGetBlockRecords: true}

// answerStopped are the methods a stopped follower still answers: what it is, and that it is unhealthy.
var answerStopped = map[string]bool{rpcapi.MethodGetHealth: true, rpcapi.MethodGetVersion: true, rpcapi.MethodGetIdentity: true, rpcapi.MethodGetGenesisHash: true}

// codedError is a JSON-RPC error of the follower's own (the transports read its code with errors.As).
type codedError struct {
	code int
	msg  string
}

func (e *codedError) Error() string  { return e.msg }
func (e *codedError) ErrorCode() int { return e.code }
func (e *codedError) ErrorData() any { return nil }

// Dispatcher wraps the node's dispatcher: it forwards transactions and airdrops to the leader, refuses the
// developer's methods that would change the chain, and, once the follower stopped for good, answers reads with
// why instead of a state that no longer follows the leader.
func (f *Follower) Dispatcher(inner Caller) Caller { return &dispatcher{f: f, inner: inner} }

type dispatcher struct {
	f     *Follower
	inner Caller
}

func (d *dispatcher) Call(ctx context.Context, method string, params json.RawMessage, ws bool) (any, error) {
	if err := d.f.Fatal(); err != nil && !answerStopped[method] {
		return nil, &codedError{code: -32603, msg: "Internal error: this node stopped following its leader (" +
			d.f.cfg.Leader + "): " + err.Error()}
	}
	switch {
	case forwarded[method] && !ws:
		return d.forward(ctx, method, params)
	case (strings.HasPrefix(method, "surfnet_") || strings.HasPrefix(method, "ledgerd_")) && !local[method]:
		return nil, &codedError{code: -32601, msg: fmt.Sprintf("Method not available on a follower: %s would change "+
			"the chain without a transaction of the leader's; send it to the leader (%s)", method, d.f.cfg.Leader)}
	}
	return d.inner.Call(ctx, method, params, ws)
}

// forward sends the call to the leader as it came and returns the leader's result, or its error (code, message and
// data kept).
func (d *dispatcher) forward(ctx context.Context, method string, params json.RawMessage) (any, error) {
	var result json.RawMessage
	var p any
	if len(params) > 0 {
		p = params
	}
	if err := d.f.client.Call(ctx, method, p, &result); err != nil {
		if _, coded := err.(interface{ ErrorCode() int }); coded {
			return nil, err
		}
		return nil, &codedError{code: -32603, msg: fmt.Sprintf("Internal error: the leader (%s) did not answer %s: %v",
			d.f.cfg.Leader, method, err)}
	}
	return result, nil
}
