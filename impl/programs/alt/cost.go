package alt

import (
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Compute units. The on-chain build is charged for the sBPF instructions it executes, so what an
// instruction costs depends on its path through the program and on its inputs. The figures
// below reproduce that: each is what the build spends between two points of a path, measured
// with LiteSVM (testdata/litesvm_corpus.json holds the measurements, TestLiteSVMParity checks
// the model against every one). Costs the program's runtime charges itself (an invocation's
// 1,000 units, the system program's 150) are charged by ledgerd's runtime as usual.

// Deserializing the program's input: every instruction account, a repeated one less.
const (
	accountCost          = 162 // less one for each of signer, writable, executable
	duplicateAccountCost = 86
)

func entrypointCost(ctx *runtime.InvokeContext) uint64 {
	var units uint64
	for i := range ctx.NumAccounts() {
		a, _ := ctx.Account(i)
		dup := false
		for j := range i {
			if b, _ := ctx.Account(j); b.IndexInTransaction() == a.IndexInTransaction() {
				dup = true
				break
			}
		}
		if dup {
			units += duplicateAccountCost
			continue
		}
		units += accountCost
		for _, flag := range [...]bool{a.IsSigner(), a.IsWritable(), a.Executable()} {
			if flag {
				units--
			}
		}
	}
	return units
}

// instructionDataCost is what failing to decode the instruction data costs, including the
// error's log line. read is how many addresses of a short ExtendLookupTable vector were read.
func instructionDataCost(f dataFailure, read int) uint64 {
	switch f {
	case dataBadTag:
		return 1194 // bincode formats an error for an unknown variant
	case dataShortCreate:
		return 293
	case dataMissingLength:
		return 292
	case dataTooManyAddresses:
		return 248
	case dataShortAddresses:
		return 351 + extendAddressCost*uint64(read)
	}
	return 282
}

// tableDataCost is what failing to decode a table costs past the point where it is read.
var tableDataCost = [...]uint64{
	decodeShort:         0,
	decodeUninitialized: 34,
	decodeBadTag:        910,
	decodeBadOption:     8,
	decodeMisaligned:    120,
}

// pathCosts are the costs of the points where FreezeLookupTable, ExtendLookupTable,
// DeactivateLookupTable and CloseLookupTable stop, each counted from the end of the entrypoint:
// instruction decoding (less ExtendLookupTable's addresses, extendAddressCost each), the
// "Instruction:" log line and the failure's log lines included. ExtendLookupTable's written is
// the cost up to its rent check; the extend* constants continue from there.
type pathCosts struct {
	noTable, wrongOwner, noAuthority, notSigner uint64
	recipient                                   bool // the instruction takes a recipient account
	noRecipient, recipientIsTable               uint64
	decoded                                     uint64 // a table that does not decode
	frozen, wrongAuthority                      uint64
	deactivated, active                         uint64
	empty, full, noAddresses, overCapacity      uint64
	readonly, written                           uint64
	done                                        uint64
}

var freezeCosts = pathCosts{
	noTable: 315, wrongOwner: 465, noAuthority: 375, notSigner: 478, decoded: 474,
	frozen: 879, wrongAuthority: 1013, deactivated: 1021, empty: 1027, done: 1196,
}

var deactivateCosts = pathCosts{
	noTable: 315, wrongOwner: 464, noAuthority: 375, notSigner: 478, decoded: 472,
	frozen: 874, wrongAuthority: 1008, deactivated: 1017, done: 2830,
}

var extendCosts = pathCosts{
	noTable: 377, wrongOwner: 528, noAuthority: 438, notSigner: 541, decoded: 537,
	frozen: 944, wrongAuthority: 1077, deactivated: 1087, full: 1091, noAddresses: 1067, overCapacity: 1727,
	readonly: 1562, written: 3393,
}

var closeCosts = pathCosts{
	noTable: 315, wrongOwner: 465, noAuthority: 375, notSigner: 479, recipient: true, noRecipient: 382,
	recipientIsTable: 500, decoded: 485, frozen: 884, wrongAuthority: 1017, active: 1316,
}

// ExtendLookupTable.
const (
	extendAddressCost        = 294 // decoding each new address
	extendNewSlotCost        = 2   // recording the first extension of a slot
	extendNoPayerCost        = 136
	extendPayerNotSignerCost = 241
	extendNoSystemCost       = 142
	extendTransferCost       = 520
	extendAfterTransferCost  = 142
)

// extendCopyCost is copying the new addresses into the table: short copies are a loop, longer
// ones a memcpy whose cost the constants already hold.
func extendCopyCost(n int) uint64 {
	if n < 4 {
		return 36*uint64(n) - 8
	}
	return 0
}

// cpiDataCost is what an invocation charges to translate an account: a unit per 250 bytes.
func cpiDataCost(a runtime.BorrowedAccount) uint64 { return uint64(len(a.Data())) / 250 }

// unknownProgramCost is the extra of an invocation whose program is not an instruction account.
const unknownProgramCost = 20

// CloseLookupTable, counted as pathCosts are; the search of SlotHashes is charged by halving.
const (
	closeDeactivatingNowCost   = 1838
	closeSearchLeftCost        = 17
	closeSearchRightCost       = 20
	closeDeactivatingCost      = 2215
	closeOverflowCost          = 1598
	closeRecipientReadonlyCost = 1850
	closeTableReadonlyCost     = 1830
	closeDoneCost              = 1571
)

// CreateLookupTable, by the number of accounts when there are too few.
var createFewAccountsCost = [3]uint64{320, 363, 369}

// CreateLookupTable, counted as pathCosts are up to createRentCost (the search of SlotHashes is
// charged by halving); the constants after it continue from there.
const (
	createPayerNotSignerCost = 475
	createSearchLeftCost     = 18
	createSearchRightCost    = 21
	createNotRecentCost      = 1205
	createBadSeedsCost       = 2577
	createWrongAddressCost   = 14161 // for a typical derived address, see base58Cost
	createExistsCost         = 2244
	createRentCost           = 2789 // the checks, Rent and the shortfall
	createTransferCost       = 458
	createAfterTransferCost  = 277
	createAllocateCost       = 258
	createAssignCost         = 258
	createDoneCost           = 2297
)

// formatCost is formatting v in decimal for a log line, by its number of digits.
func formatCost(v uint64) uint64 {
	digits := 1
	for ; v >= 10; v /= 10 {
		digits++
	}
	return formatDigitsCost[digits]
}

var formatDigitsCost = [21]uint64{0, 0, 12, 32, 44, 62, 74, 94, 52, 68, 80, 100, 112, 128, 140, 160, 117, 133, 145, 165, 177}

// base58Cost is formatting k in base 58 for a log line, relative to a typical key (the program's
// encoder is quadratic: it runs its inner loop over the digits so far for every byte).
func base58Cost(k core.Pubkey) int64 {
	var digits [64]byte
	n, inner, zeros := 0, 0, 0
	for _, b := range k {
		carry := int(b)
		for i := range n {
			inner++
			carry += int(digits[i]) << 8
			digits[i] = byte(carry % 58)
			carry /= 58
		}
		for ; carry > 0; carry /= 58 {
			digits[n] = byte(carry % 58)
			n++
		}
	}
	for _, b := range k {
		if b != 0 {
			break
		}
		zeros++
	}
	return 13*int64(inner-691) + 51*int64(n-44) + 52*int64(zeros)
}
