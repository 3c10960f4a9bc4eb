package stake

import "ledgerd/impl/runtime"

// StakeError is the stake program's custom error (InstructionError::Custom(code)).
type StakeError uint32

// The StakeError codes, in the reference's order.
const (
	NoCreditsToRedeem StakeError = iota
	LockupInForce
	AlreadyDeactivated
	TooSoonToRedelegate
	InsufficientStake
	MergeTransientStake
	MergeMismatch
	CustodianMissing
	CustodianSignatureMissing
	InsufficientReferenceVotes
	VoteAddressMismatch
	MinimumDelinquentEpochsForDeactivationNotMet
	InsufficientDelegation
	RedelegateTransientOrInactiveStake
	RedelegateToSameVoteAccount
	RedelegatedStakeMustFullyActivateBeforeDeactivationIsPermitted
	EpochRewardsActive
	numStakeErrors
)

var stakeErrorInfo = [numStakeErrors]struct{ name, text string }{
	{"NoCreditsToRedeem", "not enough credits to redeem"},
	{"LockupInForce", "lockup has not yet expired"},
	{"AlreadyDeactivated", "stake already deactivated"},
	{"TooSoonToRedelegate", "one re-delegation permitted per epoch"},
	{"InsufficientStake", "split amount is more than is staked"},
	{"MergeTransientStake", "stake account with transient stake cannot be merged"},
	{"MergeMismatch", "stake account merge failed due to different authority, lockups or state"},
	{"CustodianMissing", "custodian address not present"},
	{"CustodianSignatureMissing", "custodian signature not present"},
	{"InsufficientReferenceVotes", "insufficient voting activity in the reference vote account"},
	{"VoteAddressMismatch", "stake account is not delegated to the provided vote account"},
	{"MinimumDelinquentEpochsForDeactivationNotMet", "stake account has not been delinquent for the minimum epochs required for deactivation"},
	{"InsufficientDelegation", "delegation amount is less than the minimum"},
	{"RedelegateTransientOrInactiveStake", "stake account with transient or inactive stake cannot be redelegated"},
	{"RedelegateToSameVoteAccount", "stake redelegation to the same vote account is not permitted"},
	{"RedelegatedStakeMustFullyActivateBeforeDeactivationIsPermitted", "redelegated stake must be fully activated before deactivation"},
	{"EpochRewardsActive", "stake action is not permitted while the epoch rewards period is active"},
}

// Name returns the variant name ("LockupInForce").
func (e StakeError) Name() string {
	if e < numStakeErrors {
		return stakeErrorInfo[e].name
	}
	return "Unknown"
}

// Error returns the reference's Display text.
func (e StakeError) Error() string {
	if e < numStakeErrors {
		return stakeErrorInfo[e].text
	}
	return "unknown stake error"
}

// Instruction returns the InstructionError the program fails with.
func (e StakeError) Instruction() runtime.InstructionError { return runtime.CustomError(uint32(e)) }
