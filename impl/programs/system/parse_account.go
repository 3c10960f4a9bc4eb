package system

import (
	"errors"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/internal/jsonparsed"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/nonce"
)

// errUninitializedNonce: the reference refuses to call a system account uninitialized nonce,
// since any zeroed system account of the right size would look like one.
var errUninitializedNonce = errors.New("uninitialized nonce account")

// parseNonce shows a system-owned account that holds an initialized nonce (either version).
func parseNonce(_ core.Pubkey, data []byte, _ runtime.AccountLookup) (any, error) {
	v, err := nonce.Decode(data)
	if err != nil {
		return nil, err
	}
	if !v.Initialized {
		return nil, errUninitializedNonce
	}
	return jsonparsed.Typed("initialized", map[string]any{
		"authority":     v.Data.Authority.String(),
		"blockhash":     v.Data.DurableNonce.String(),
		"feeCalculator": jsonparsed.FeeCalculator(v.Data.LamportsPerSignature),
	}), nil
}
