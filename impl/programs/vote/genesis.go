package vote

import (
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
)

// RentExemptReserve returns the balance a Size-byte vote account needs under rent.
func RentExemptReserve(rent sysvar.Rent) uint64 { return rent.MinimumBalance(Size) }

// NewAccount returns a vote account initialized with init from epoch, as genesis creates the
// bootstrap validator's: lamports should be at least RentExemptReserve.
func NewAccount(init VoteInit, epoch, lamports uint64) runtime.Account {
	return runtime.Account{
		Lamports:  lamports,
		Owner:     ProgramID,
		RentEpoch: runtime.RentExemptRentEpoch,
		Data:      NewState(init, epoch).AccountData(),
	}
}
