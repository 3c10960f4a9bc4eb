package stake

import (
	"math"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/runtime"
)

// RentExemptReserve returns the balance a Size-byte stake account needs under rent.
func RentExemptReserve(rent sysvar.Rent) uint64 { return rent.MinimumBalance(Size) }

// NewDelegatedAccount returns a stake account holding lamports, with authority as staker and
// withdrawer, delegated to votePubkey (whose state gives the credits observed) from
// activationEpoch: math.MaxUint64 makes it bootstrap stake, fully effective from genesis, as
// the reference's genesis creates the bootstrap validator's. lamports must exceed the
// rent-exempt reserve; the rest is delegated.
func NewDelegatedAccount(authority, votePubkey core.Pubkey, voteState *vote.State, rent sysvar.Rent, lamports, activationEpoch uint64) runtime.Account {
	reserve := RentExemptReserve(rent)
	s := State{
		Kind: StateStake,
		Meta: Meta{RentExemptReserve: reserve, Authorized: Authorized{Staker: authority, Withdrawer: authority}},
		Stake: Stake{
			Delegation:      NewDelegation(votePubkey, satSub(lamports, reserve), activationEpoch),
			CreditsObserved: voteState.Credits(),
		},
	}
	return runtime.Account{Lamports: lamports, Owner: ProgramID, RentEpoch: runtime.RentExemptRentEpoch, Data: s.AccountData()}
}

// NewBootstrapAccount is NewDelegatedAccount with bootstrap (always effective) stake.
func NewBootstrapAccount(authority, votePubkey core.Pubkey, voteState *vote.State, rent sysvar.Rent, lamports uint64) runtime.Account {
	return NewDelegatedAccount(authority, votePubkey, voteState, rent, lamports, math.MaxUint64)
}

// NewInitializedAccount returns an undelegated stake account (genesis lockup accounts).
func NewInitializedAccount(authorized Authorized, lockup Lockup, rent sysvar.Rent, lamports uint64) runtime.Account {
	s := State{Kind: StateInitialized, Meta: Meta{RentExemptReserve: RentExemptReserve(rent), Authorized: authorized, Lockup: lockup}}
	return runtime.Account{Lamports: lamports, Owner: ProgramID, RentEpoch: runtime.RentExemptRentEpoch, Data: s.AccountData()}
}
