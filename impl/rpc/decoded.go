package rpc

import (
	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
)

// The helpers below take the keys and signatures inside config objects from their generated accessors
// (cfg.XBytes()), which hand back
// the bytes Validate decoded, so each value is decoded from base 58 once per call. The accessors return
// Validate's own -32602 error when it has not run, and the length checks below only guard a mistake in that
// pairing.

// decodedPubkey is one key param.
func decodedPubkey(b []byte, err error) (core.Pubkey, error) {
	if err != nil {
		return core.Pubkey{}, err
	}
	return core.PubkeyFromBytes(b)
}

// decodedOptionalPubkey is an optional key param: nil when it is absent.
func decodedOptionalPubkey(b []byte, err error) (*core.Pubkey, error) {
	if err != nil || b == nil {
		return nil, err
	}
	k, err := core.PubkeyFromBytes(b)
	return &k, err
}

// decodedPubkeys is a list of key params.
func decodedPubkeys(list [][]byte, err error) ([]core.Pubkey, error) {
	if err != nil {
		return nil, err
	}
	keys := make([]core.Pubkey, len(list))
	for i, b := range list {
		if keys[i], err = core.PubkeyFromBytes(b); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// decodedSignature is one signature param.
func decodedSignature(b []byte, err error) (core.Signature, error) {
	var sig core.Signature
	if err != nil {
		return sig, err
	}
	if len(b) != len(sig) {
		return sig, rpcapi.NewInvalidParamsError("Invalid param: WrongSize")
	}
	copy(sig[:], b)
	return sig, nil
}

// decodedOptionalSignature is an optional signature param: nil when it is absent.
func decodedOptionalSignature(b []byte, err error) (*core.Signature, error) {
	if err != nil || b == nil {
		return nil, err
	}
	sig, err := decodedSignature(b, nil)
	return &sig, err
}
