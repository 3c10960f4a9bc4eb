package ata

// Compute units. The program's own cost is linear in a few things the sBPF build does, so
// ledgerd reproduces it segment by segment: the figures below were fitted to the on-chain
// build LiteSVM 1.5.0 runs (its own consumption: what the "consumed" line says minus what the
// invoked programs consumed), and reproduce it exactly on the success paths of both token
// programs and within a few hundred units on the failure paths.
//
// Each address derivation is Pubkey::find_program_address, whose syscall charges 1,500 units
// per bump tried (255 first, then down), so the cost depends on the addresses involved. A
// cross-program invocation charges 1,000 units before the callee runs; the segments that end
// in one include it. Token-2022's instruction builders check the program id in the other order,
// which makes its segments a little cheaper.
const (
	// unitsPerBump is what find_program_address charges per bump seed tried.
	unitsPerBump = 1500

	// unitsUnknownVariant and unitsTrailingData end a failed decoding.
	unitsUnknownVariant = 1842
	unitsTrailingData   = 1448
	// unitsStart covers the entrypoint, the decoding, the instruction's log line and reading
	// the accounts (where a missing one fails).
	unitsStart = 1606
	// unitsEmptyData is what empty data (the original Create) saves: no borsh decoding.
	unitsEmptyData = 30
	// unitsDerive is one derivation's work besides the bumps, with the address comparison;
	// RecoverNested's are a little cheaper.
	unitsDerive       = 352
	unitsDeriveNested = 322
	// unitsSeedsMismatch is the log line of a derivation that does not match.
	unitsSeedsMismatch = 130

	// Create and CreateIdempotent.
	unitsIllegalOwner           = 100 // the account is not the system program's
	unitsIdempotentExisting     = 979 // unpacking the existing account and comparing it
	unitsIdempotentExisting2022 = 998
	unitsIdempotentNotAccount   = 150 // owned by the token program but no token account
	unitsInvalidOwnerLog        = 557 // formatting and logging InvalidOwner
	unitsInvalidMint            = 20
	unitsGetAccountLen          = 2400 // Rent::get, GetAccountDataSize and its return data
	unitsGetAccountLen2022      = 2311
	unitsCreateAccount          = 2300 // the system program's CreateAccount
	unitsAllocateAssign         = 3485 // Allocate and Assign of a prefunded account
	unitsTopUp                  = 1604 // the Transfer that tops a prefunded account up
	unitsImmutableOwner         = 2200 // the log line and InitializeImmutableOwner
	unitsImmutableOwner2022     = 2111
	unitsInitializeAccount      = 2453 // InitializeAccount3
	unitsInitializeAccount2022  = 2365

	// RecoverNested.
	unitsCheckOwnerMint  = 290  // the owner mint's program (after the wallet's signature)
	unitsUnpackAccount   = 800  // a token account's program, layout and owner
	unitsUnpackMint      = 800  // the nested mint's program and layout
	unitsCheckFailedLog  = 100  // a failed check's log line
	unitsTransfer        = 3820 // TransferChecked of everything
	unitsTransfer2022    = 3749
	unitsCloseNested     = 3177 // CloseAccount of the nested account
	unitsCloseNested2022 = 3106
)

// units picks a segment's cost for the token program in use.
func units(is2022 bool, classic, token2022 uint64) uint64 {
	if is2022 {
		return token2022
	}
	return classic
}
