package vote

import "ledgerd/impl/runtime"

// VoteError is the vote program's custom error (InstructionError::Custom(code)).
type VoteError uint32

// The VoteError codes, in the reference's order.
const (
	VoteTooOld VoteError = iota
	SlotsMismatch
	SlotHashMismatch
	EmptySlots
	TimestampTooOld
	TooSoonToReauthorize
	LockoutConflict
	NewVoteStateLockoutMismatch
	SlotsNotOrdered
	ConfirmationsNotOrdered
	ZeroConfirmations
	ConfirmationTooLarge
	RootRollBack
	ConfirmationRollBack
	SlotSmallerThanRoot
	TooManyVotes
	VotesTooOldAllFiltered
	RootOnDifferentFork
	ActiveVoteAccountClose
	CommissionUpdateTooLate
	AssertionFailed
	numVoteErrors
)

var voteErrorInfo = [numVoteErrors]struct{ name, text string }{
	{"VoteTooOld", "vote already recorded or not in slot hashes history"},
	{"SlotsMismatch", "vote slots do not match bank history"},
	{"SlotHashMismatch", "vote hash does not match bank hash"},
	{"EmptySlots", "vote has no slots, invalid"},
	{"TimestampTooOld", "vote timestamp not recent"},
	{"TooSoonToReauthorize", "authorized voter has already been changed this epoch"},
	{"LockoutConflict", "Old state had vote which should not have been popped off by vote in new state"},
	{"NewVoteStateLockoutMismatch", "Proposed state had earlier slot which should have been popped off by later vote"},
	{"SlotsNotOrdered", "Vote slots are not ordered"},
	{"ConfirmationsNotOrdered", "Confirmations are not ordered"},
	{"ZeroConfirmations", "Zero confirmations"},
	{"ConfirmationTooLarge", "Confirmation exceeds limit"},
	{"RootRollBack", "Root rolled back"},
	{"ConfirmationRollBack", "Confirmations for same vote were smaller in new proposed state"},
	{"SlotSmallerThanRoot", "New state contained a vote slot smaller than the root"},
	{"TooManyVotes", "New state contained too many votes"},
	{"VotesTooOldAllFiltered", "every slot in the vote was older than the SlotHashes history"},
	{"RootOnDifferentFork", "Proposed root is not in slot hashes"},
	{"ActiveVoteAccountClose", "Cannot close vote account unless it stopped voting at least one full epoch ago"},
	{"CommissionUpdateTooLate", "Cannot update commission at this point in the epoch"},
	{"AssertionFailed", "Assertion failed"},
}

// Name returns the variant name ("VoteTooOld").
func (e VoteError) Name() string {
	if e < numVoteErrors {
		return voteErrorInfo[e].name
	}
	return "Unknown"
}

// Error returns the reference's Display text.
func (e VoteError) Error() string {
	if e < numVoteErrors {
		return voteErrorInfo[e].text
	}
	return "unknown vote error"
}

// Instruction returns the InstructionError the program fails with.
func (e VoteError) Instruction() runtime.InstructionError { return runtime.CustomError(uint32(e)) }
