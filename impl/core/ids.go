package core

// Well-known addresses. They are variables only because Go has no array constants; treat them
// as constants.
var (
	// Builtin and native programs.
	SystemProgramID               = MustParsePubkey("11111111111111111111111111111111")
	VoteProgramID                 = MustParsePubkey("Vote111111111111111111111111111111111111111")
	StakeProgramID                = MustParsePubkey("Stake11111111111111111111111111111111111111")
	StakeConfigID                 = MustParsePubkey("StakeConfig11111111111111111111111111111111")
	ConfigProgramID               = MustParsePubkey("Config1111111111111111111111111111111111111")
	ComputeBudgetProgramID        = MustParsePubkey("ComputeBudget111111111111111111111111111111")
	AddressLookupTableProgramID   = MustParsePubkey("AddressLookupTab1e1111111111111111111111111")
	BPFLoaderProgramID            = MustParsePubkey("BPFLoader2111111111111111111111111111111111") // BPF loader 2
	BPFLoaderUpgradeableProgramID = MustParsePubkey("BPFLoaderUpgradeab1e11111111111111111111111")
	BPFLoaderDeprecatedProgramID  = MustParsePubkey("BPFLoader1111111111111111111111111111111111")
	LoaderV4ProgramID             = MustParsePubkey("LoaderV411111111111111111111111111111111111")
	NativeLoaderProgramID         = MustParsePubkey("NativeLoader1111111111111111111111111111111")
	FeatureProgramID              = MustParsePubkey("Feature111111111111111111111111111111111111")
	Ed25519ProgramID              = MustParsePubkey("Ed25519SigVerify111111111111111111111111111")
	Secp256k1ProgramID            = MustParsePubkey("KeccakSecp256k11111111111111111111111111111")
	Secp256r1ProgramID            = MustParsePubkey("Secp256r1SigVerify1111111111111111111111111")
	ZkTokenProofProgramID         = MustParsePubkey("ZkTokenProof1111111111111111111111111111111")
	ZkElGamalProofProgramID       = MustParsePubkey("ZkE1Gama1Proof11111111111111111111111111111")

	// SPL programs.
	TokenProgramID           = MustParsePubkey("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
	Token2022ProgramID       = MustParsePubkey("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb")
	AssociatedTokenProgramID = MustParsePubkey("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")
	MemoV1ProgramID          = MustParsePubkey("Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo")
	MemoProgramID            = MustParsePubkey("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr") // Memo v3

	// Other accounts.
	IncineratorID    = MustParsePubkey("1nc1nerator11111111111111111111111111111111")
	NativeMintID     = MustParsePubkey("So11111111111111111111111111111111111111112")  // wrapped SOL (SPL Token)
	NativeMint2022ID = MustParsePubkey("9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP") // wrapped SOL (Token-2022)

	// Sysvars. SysvarOwnerID owns every sysvar account.
	SysvarOwnerID             = MustParsePubkey("Sysvar1111111111111111111111111111111111111")
	SysvarClockID             = MustParsePubkey("SysvarC1ock11111111111111111111111111111111")
	SysvarRentID              = MustParsePubkey("SysvarRent111111111111111111111111111111111")
	SysvarEpochScheduleID     = MustParsePubkey("SysvarEpochSchedu1e111111111111111111111111")
	SysvarFeesID              = MustParsePubkey("SysvarFees111111111111111111111111111111111")
	SysvarRecentBlockhashesID = MustParsePubkey("SysvarRecentB1ockHashes11111111111111111111")
	SysvarSlotHashesID        = MustParsePubkey("SysvarS1otHashes111111111111111111111111111")
	SysvarSlotHistoryID       = MustParsePubkey("SysvarS1otHistory11111111111111111111111111")
	SysvarStakeHistoryID      = MustParsePubkey("SysvarStakeHistory1111111111111111111111111")
	SysvarInstructionsID      = MustParsePubkey("Sysvar1nstructions1111111111111111111111111")
	SysvarLastRestartSlotID   = MustParsePubkey("SysvarLastRestartS1ot1111111111111111111111")
	SysvarEpochRewardsID      = MustParsePubkey("SysvarEpochRewards1111111111111111111111111")
	SysvarRewardsID           = MustParsePubkey("SysvarRewards111111111111111111111111111111")
)

// reservedAccountKeys is the reference's active ReservedAccountKeys set: accounts no
// transaction may write-lock. Secp256r1 is left out: it is reserved only once its feature is
// active.
var reservedAccountKeys = func() map[Pubkey]struct{} {
	keys := []Pubkey{
		AddressLookupTableProgramID, BPFLoaderProgramID, BPFLoaderDeprecatedProgramID,
		BPFLoaderUpgradeableProgramID, ComputeBudgetProgramID, ConfigProgramID, Ed25519ProgramID,
		FeatureProgramID, LoaderV4ProgramID, Secp256k1ProgramID, StakeConfigID, StakeProgramID,
		SystemProgramID, VoteProgramID, ZkElGamalProofProgramID, ZkTokenProofProgramID,
		SysvarClockID, SysvarEpochRewardsID, SysvarEpochScheduleID, SysvarFeesID,
		SysvarInstructionsID, SysvarLastRestartSlotID, SysvarRecentBlockhashesID, SysvarRentID,
		SysvarRewardsID, SysvarSlotHashesID, SysvarSlotHistoryID, SysvarStakeHistoryID,
		NativeLoaderProgramID, SysvarOwnerID,
	}
	m := make(map[Pubkey]struct{}, len(keys))
	for _, k := range keys {
		m[k] = struct{}{}
	}
	return m
}()

// IsReservedAccountKey reports whether k is reserved: a builtin program or sysvar that is
// never writable in a transaction, whatever the message header says.
func IsReservedAccountKey(k Pubkey) bool {
	_, ok := reservedAccountKeys[k]
	return ok
}

// ReservedAccountKeys returns the reserved keys (a fresh slice, in no particular order).
func ReservedAccountKeys() []Pubkey {
	out := make([]Pubkey, 0, len(reservedAccountKeys))
	for k := range reservedAccountKeys {
		out = append(out, k)
	}
	return out
}

// IsSysvarID reports whether k is one of the sysvar addresses.
func IsSysvarID(k Pubkey) bool {
	switch k {
	case SysvarClockID, SysvarRentID, SysvarEpochScheduleID, SysvarFeesID,
		SysvarRecentBlockhashesID, SysvarSlotHashesID, SysvarSlotHistoryID, SysvarStakeHistoryID,
		SysvarInstructionsID, SysvarLastRestartSlotID, SysvarEpochRewardsID, SysvarRewardsID:
		return true
	}
	return false
}
