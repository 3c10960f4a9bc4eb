package rpc

import "ledgerd/impl/core"

// decodedPubkey takes a key param from its generated accessor (p.XBytes()), which hands back the bytes Validate
// decoded, so a key is decoded from base 58 once per call.
func decodedPubkey(b []byte, err error) (core.Pubkey, error) {
	if err != nil {
		return core.Pubkey{}, err
	}
	return core.PubkeyFromBytes(b)
}
