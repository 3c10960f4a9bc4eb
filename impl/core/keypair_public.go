package core

// PublicKeypair is a Keypair that names pk without holding its secret. A follower (ledgerd --follow) names its
// leader's identity, faucet, vote and stake keys this way: it replays what the leader signed and never signs with
// them. A signature made with it verifies against nothing.
func PublicKeypair(pk Pubkey) Keypair {
	var k Keypair
	copy(k.b[32:], pk[:])
	return k
}

// HasSecret reports whether k holds a secret key (false for a PublicKeypair).
func (k Keypair) HasSecret() bool { return [32]byte(k.b[:32]) != [32]byte{} }
