package encoding

import (
	"errors"
	"strconv"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime/nonce"
)

func init() { Register(core.SystemProgramID, "nonce", parseNonce) }

// errUninitializedNonce: the reference refuses to call a system account uninitialized nonce,
// since any zeroed system account of the right size would look like one.
var errUninitializedNonce = errors.New("uninitialized nonce account")

// parseNonce shows a system-owned account that holds an initialized nonce (either version).
func parseNonce(_ core.Pubkey, data []byte, _ Lookup) (any, error) {
	v, err := nonce.Decode(data)
	if err != nil {
		return nil, err
	}
	if !v.Initialized {
		return nil, errUninitializedNonce
	}
	return typed("initialized", map[string]any{
		"authority":     v.Data.Authority.String(),
		"blockhash":     v.Data.DurableNonce.String(),
		"feeCalculator": feeCalculator(v.Data.LamportsPerSignature),
	}), nil
}

// feeCalculator is the reference's UiFeeCalculator: the amount as a decimal string.
func feeCalculator(lamportsPerSignature uint64) map[string]any {
	return map[string]any{"lamportsPerSignature": strconv.FormatUint(lamportsPerSignature, 10)}
}
