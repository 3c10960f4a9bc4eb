package rpc

import "ledgerd/generated/rpcapi"

// commitmentConfig reads a config that the reference types as a bare CommitmentConfig (the decoder has already
// refused one without its commitment) as the optional-commitment config the handlers share; none is nil.
func commitmentConfig(o rpcapi.Opt[rpcapi.RequiredCommitmentConfig]) *rpcapi.CommitmentConfig {
	c, ok := o.Get()
	if !ok {
		return nil
	}
	commitment := c.Commitment
	return &rpcapi.CommitmentConfig{Commitment: &commitment}
}
