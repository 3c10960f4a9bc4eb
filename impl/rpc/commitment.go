package rpc

import "ledgerd/generated/rpcapi"

// commitmentConfig reads a config that the reference types as a bare CommitmentConfig (the decoder has already
// refused one without its commitment) as the optional-commitment config the handlers share; nil stays nil.
func commitmentConfig(c *rpcapi.RequiredCommitmentConfig) *rpcapi.CommitmentConfig {
	if c == nil {
		return nil
	}
	commitment := c.Commitment
	return &rpcapi.CommitmentConfig{Commitment: &commitment}
}
