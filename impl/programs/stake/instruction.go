package stake

import (
	"encoding/binary"
	"errors"

	"ledgerd/impl/core"
	"ledgerd/impl/core/bincode"
	"ledgerd/impl/programs/system"
)

// Kind is the bincode tag (u32 LE) of a stake instruction.
type Kind uint32

// The stake instructions, in the enum's order.
const (
	KindInitialize Kind = iota
	KindAuthorize
	KindDelegateStake
	KindSplit
	KindWithdraw
	KindDeactivate
	KindSetLockup
	KindMerge
	KindAuthorizeWithSeed
	KindInitializeChecked
	KindAuthorizeChecked
	KindAuthorizeCheckedWithSeed
	KindSetLockupChecked
	KindGetMinimumDelegation
	KindDeactivateDelinquent
	KindRedelegate
	KindMoveStake
	KindMoveLamports
	numKinds
)

var kindNames = [numKinds]string{
	"Initialize", "Authorize", "DelegateStake", "Split", "Withdraw", "Deactivate", "SetLockup",
	"Merge", "AuthorizeWithSeed", "InitializeChecked", "AuthorizeChecked",
	"AuthorizeCheckedWithSeed", "SetLockupChecked", "GetMinimumDelegation",
	"DeactivateDelinquent", "Redelegate", "MoveStake", "MoveLamports",
}

// String returns the reference's variant name.
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "Unknown"
}

// Instruction is a decoded stake instruction. Which fields are meaningful depends on Kind:
//
//	Initialize                      Authorized, Lockup
//	Authorize                       NewAuthority, Authority
//	AuthorizeChecked                Authority
//	AuthorizeWithSeed               NewAuthority, Authority, Seed, SeedOwner
//	AuthorizeCheckedWithSeed        Authority, Seed, SeedOwner
//	Split, Withdraw, MoveStake, MoveLamports   Lamports
//	SetLockup                       LockupArgs
//	SetLockupChecked                LockupArgs (UnixTimestamp, Epoch; the custodian is an account)
type Instruction struct {
	Kind         Kind
	Authorized   Authorized
	Lockup       Lockup
	NewAuthority core.Pubkey
	Authority    Authority
	Lamports     uint64
	LockupArgs   LockupArgs
	Seed         string
	SeedOwner    core.Pubkey
}

// MaxInstructionSize is the most bytes decoding may consume (limited_deserialize with
// PACKET_DATA_SIZE).
const MaxInstructionSize = core.PacketDataSize

// ErrInvalidInstruction is returned for data that is not a stake instruction; the program
// reports it as InvalidInstructionData.
var ErrInvalidInstruction = errors.New("invalid stake instruction")

// DecodeInstruction reads a stake instruction as the reference's limited_deserialize does:
// bincode, at most MaxInstructionSize bytes consumed, trailing bytes ignored.
func DecodeInstruction(data []byte) (Instruction, error) {
	r := bincode.NewLimitedReader(data, MaxInstructionSize)
	ix := Instruction{Kind: Kind(r.U32())}
	authority := func() Authority {
		a := Authority(r.U32())
		if a > AuthorityWithdrawer {
			r.Fail()
		}
		return a
	}
	switch ix.Kind {
	case KindInitialize:
		ix.Authorized = Authorized{Staker: r.Pubkey(), Withdrawer: r.Pubkey()}
		ix.Lockup = Lockup{UnixTimestamp: r.I64(), Epoch: r.U64(), Custodian: r.Pubkey()}
	case KindAuthorize:
		ix.NewAuthority = r.Pubkey()
		ix.Authority = authority()
	case KindSplit, KindWithdraw, KindMoveStake, KindMoveLamports:
		ix.Lamports = r.U64()
	case KindSetLockup:
		ix.LockupArgs = LockupArgs{UnixTimestamp: r.OptI64(), Epoch: r.OptU64(), Custodian: r.OptPubkey()}
	case KindAuthorizeWithSeed:
		ix.NewAuthority = r.Pubkey()
		ix.Authority = authority()
		ix.Seed = r.Str()
		ix.SeedOwner = r.Pubkey()
	case KindAuthorizeChecked:
		ix.Authority = authority()
	case KindAuthorizeCheckedWithSeed:
		ix.Authority = authority()
		ix.Seed = r.Str()
		ix.SeedOwner = r.Pubkey()
	case KindSetLockupChecked:
		ix.LockupArgs = LockupArgs{UnixTimestamp: r.OptI64(), Epoch: r.OptU64()}
	case KindDelegateStake, KindDeactivate, KindMerge, KindInitializeChecked,
		KindGetMinimumDelegation, KindDeactivateDelinquent, KindRedelegate:
	default:
		return Instruction{}, ErrInvalidInstruction
	}
	if r.Err() != nil {
		return Instruction{}, ErrInvalidInstruction
	}
	return ix, nil
}

// Encode returns the bincode encoding of ix.
func (ix Instruction) Encode() []byte {
	b := make([]byte, 0, 128)
	b = bincode.AppendU32(b, uint32(ix.Kind))
	switch ix.Kind {
	case KindInitialize:
		b = bincode.AppendPubkey(b, ix.Authorized.Staker)
		b = bincode.AppendPubkey(b, ix.Authorized.Withdrawer)
		b = bincode.AppendI64(b, ix.Lockup.UnixTimestamp)
		b = bincode.AppendU64(b, ix.Lockup.Epoch)
		b = bincode.AppendPubkey(b, ix.Lockup.Custodian)
	case KindAuthorize:
		b = bincode.AppendPubkey(b, ix.NewAuthority)
		b = bincode.AppendU32(b, uint32(ix.Authority))
	case KindSplit, KindWithdraw, KindMoveStake, KindMoveLamports:
		b = bincode.AppendU64(b, ix.Lamports)
	case KindSetLockup:
		b = bincode.AppendOptI64(b, ix.LockupArgs.UnixTimestamp)
		b = bincode.AppendOptU64(b, ix.LockupArgs.Epoch)
		b = bincode.AppendOptPubkey(b, ix.LockupArgs.Custodian)
	case KindAuthorizeWithSeed:
		b = bincode.AppendPubkey(b, ix.NewAuthority)
		b = bincode.AppendU32(b, uint32(ix.Authority))
		b = bincode.AppendStr(b, ix.Seed)
		b = bincode.AppendPubkey(b, ix.SeedOwner)
	case KindAuthorizeChecked:
		b = bincode.AppendU32(b, uint32(ix.Authority))
	case KindAuthorizeCheckedWithSeed:
		b = bincode.AppendU32(b, uint32(ix.Authority))
		b = bincode.AppendStr(b, ix.Seed)
		b = bincode.AppendPubkey(b, ix.SeedOwner)
	case KindSetLockupChecked:
		b = bincode.AppendOptI64(b, ix.LockupArgs.UnixTimestamp)
		b = bincode.AppendOptU64(b, ix.LockupArgs.Epoch)
	}
	return b
}

// ---------------------------------------------------------------------------------------------
// Builders, with the account lists of solana-stake-interface.

func newIx(ix Instruction, metas ...core.AccountMeta) core.Instruction {
	return core.Instruction{ProgramID: ProgramID, Accounts: metas, Data: ix.Encode()}
}

func withCustodian(metas []core.AccountMeta, custodian *core.Pubkey) []core.AccountMeta {
	if custodian != nil {
		metas = append(metas, core.ReadonlySigner(*custodian))
	}
	return metas
}

// Initialize initializes stakeAccount with authorized and lockup.
func Initialize(stakeAccount core.Pubkey, authorized Authorized, lockup Lockup) core.Instruction {
	return newIx(Instruction{Kind: KindInitialize, Authorized: authorized, Lockup: lockup},
		core.Writable(stakeAccount), core.Readonly(core.SysvarRentID))
}

// InitializeChecked initializes stakeAccount without lockup; the withdrawer signs.
func InitializeChecked(stakeAccount core.Pubkey, authorized Authorized) core.Instruction {
	return newIx(Instruction{Kind: KindInitializeChecked},
		core.Writable(stakeAccount), core.Readonly(core.SysvarRentID), core.Readonly(authorized.Staker),
		core.ReadonlySigner(authorized.Withdrawer))
}

// CreateAccount creates stakeAccount (a signer) with Size bytes funded by from, and
// initializes it.
func CreateAccount(from, stakeAccount core.Pubkey, authorized Authorized, lockup Lockup, lamports uint64) []core.Instruction {
	return []core.Instruction{
		system.CreateAccount(from, stakeAccount, lamports, Size, ProgramID),
		Initialize(stakeAccount, authorized, lockup),
	}
}

// CreateAccountWithSeed is CreateAccount at CreateWithSeed(base, seed, ProgramID); base signs.
func CreateAccountWithSeed(from, stakeAccount, base core.Pubkey, seed string, authorized Authorized, lockup Lockup, lamports uint64) []core.Instruction {
	return []core.Instruction{
		system.CreateAccountWithSeed(from, stakeAccount, base, seed, lamports, Size, ProgramID),
		Initialize(stakeAccount, authorized, lockup),
	}
}

// CreateAccountAndDelegate creates, initializes and delegates stakeAccount to vote; the staker
// signs too.
func CreateAccountAndDelegate(from, stakeAccount, vote core.Pubkey, authorized Authorized, lockup Lockup, lamports uint64) []core.Instruction {
	return append(CreateAccount(from, stakeAccount, authorized, lockup, lamports),
		DelegateStake(stakeAccount, authorized.Staker, vote))
}

// AuthorizeIx makes newAuthority the staker or withdrawer; the current authority (and, under a
// lockup, the custodian) signs.
func AuthorizeIx(stakeAccount, authority, newAuthority core.Pubkey, which Authority, custodian *core.Pubkey) core.Instruction {
	metas := []core.AccountMeta{core.Writable(stakeAccount), core.Readonly(core.SysvarClockID), core.ReadonlySigner(authority)}
	return newIx(Instruction{Kind: KindAuthorize, NewAuthority: newAuthority, Authority: which}, withCustodian(metas, custodian)...)
}

// AuthorizeChecked is AuthorizeIx with the new authority signing too.
func AuthorizeChecked(stakeAccount, authority, newAuthority core.Pubkey, which Authority, custodian *core.Pubkey) core.Instruction {
	metas := []core.AccountMeta{core.Writable(stakeAccount), core.Readonly(core.SysvarClockID), core.ReadonlySigner(authority),
		core.ReadonlySigner(newAuthority)}
	return newIx(Instruction{Kind: KindAuthorizeChecked, Authority: which}, withCustodian(metas, custodian)...)
}

// AuthorizeWithSeed changes an authority that is CreateWithSeed(base, seed, owner); base signs.
func AuthorizeWithSeed(stakeAccount, base core.Pubkey, seed string, owner, newAuthority core.Pubkey, which Authority, custodian *core.Pubkey) core.Instruction {
	metas := []core.AccountMeta{core.Writable(stakeAccount), core.ReadonlySigner(base), core.Readonly(core.SysvarClockID)}
	return newIx(Instruction{Kind: KindAuthorizeWithSeed, NewAuthority: newAuthority, Authority: which, Seed: seed, SeedOwner: owner},
		withCustodian(metas, custodian)...)
}

// AuthorizeCheckedWithSeed is AuthorizeWithSeed with the new authority signing too.
func AuthorizeCheckedWithSeed(stakeAccount, base core.Pubkey, seed string, owner, newAuthority core.Pubkey, which Authority, custodian *core.Pubkey) core.Instruction {
	metas := []core.AccountMeta{core.Writable(stakeAccount), core.ReadonlySigner(base), core.Readonly(core.SysvarClockID),
		core.ReadonlySigner(newAuthority)}
	return newIx(Instruction{Kind: KindAuthorizeCheckedWithSeed, Authority: which, Seed: seed, SeedOwner: owner},
		withCustodian(metas, custodian)...)
}

// DelegateStake delegates stakeAccount to vote; the staker signs.
func DelegateStake(stakeAccount, staker, vote core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindDelegateStake},
		core.Writable(stakeAccount), core.Readonly(vote), core.Readonly(core.SysvarClockID),
		core.Readonly(core.SysvarStakeHistoryID), core.Readonly(core.StakeConfigID), core.ReadonlySigner(staker))
}

// SplitIx moves lamports (and their share of the stake) into splitAccount, which must be an
// uninitialized Size-byte stake account; the staker signs.
func SplitIx(stakeAccount, staker core.Pubkey, lamports uint64, splitAccount core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindSplit, Lamports: lamports},
		core.Writable(stakeAccount), core.Writable(splitAccount), core.ReadonlySigner(staker))
}

// Split returns the instructions that allocate and assign splitAccount (a signer) and split
// into it, as the reference's split builder does.
func Split(stakeAccount, staker core.Pubkey, lamports uint64, splitAccount core.Pubkey) []core.Instruction {
	return []core.Instruction{
		system.Allocate(splitAccount, Size),
		system.Assign(splitAccount, ProgramID),
		SplitIx(stakeAccount, staker, lamports, splitAccount),
	}
}

// Withdraw moves lamports to to; the withdrawer (and, under a lockup, the custodian) signs.
func Withdraw(stakeAccount, withdrawer, to core.Pubkey, lamports uint64, custodian *core.Pubkey) core.Instruction {
	metas := []core.AccountMeta{core.Writable(stakeAccount), core.Writable(to), core.Readonly(core.SysvarClockID),
		core.Readonly(core.SysvarStakeHistoryID), core.ReadonlySigner(withdrawer)}
	return newIx(Instruction{Kind: KindWithdraw, Lamports: lamports}, withCustodian(metas, custodian)...)
}

// Deactivate deactivates stakeAccount; the staker signs.
func Deactivate(stakeAccount, staker core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindDeactivate},
		core.Writable(stakeAccount), core.Readonly(core.SysvarClockID), core.ReadonlySigner(staker))
}

// SetLockup changes the lockup; the custodian (in force) or withdrawer signs as authority.
func SetLockup(stakeAccount core.Pubkey, args LockupArgs, authority core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindSetLockup, LockupArgs: args}, core.Writable(stakeAccount), core.ReadonlySigner(authority))
}

// SetLockupChecked is SetLockup with a new custodian that signs.
func SetLockupChecked(stakeAccount core.Pubkey, args LockupArgs, authority core.Pubkey) core.Instruction {
	metas := []core.AccountMeta{core.Writable(stakeAccount), core.ReadonlySigner(authority)}
	metas = withCustodian(metas, args.Custodian)
	args.Custodian = nil
	return newIx(Instruction{Kind: KindSetLockupChecked, LockupArgs: args}, metas...)
}

// Merge drains source into destination; the staker signs.
func Merge(destination, source, staker core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindMerge},
		core.Writable(destination), core.Writable(source), core.Readonly(core.SysvarClockID),
		core.Readonly(core.SysvarStakeHistoryID), core.ReadonlySigner(staker))
}

// GetMinimumDelegation returns the minimum delegation as return data (u64 LE).
func GetMinimumDelegation() core.Instruction {
	return newIx(Instruction{Kind: KindGetMinimumDelegation})
}

// DecodeMinimumDelegation reads GetMinimumDelegation's return data.
func DecodeMinimumDelegation(data []byte) (uint64, bool) {
	if len(data) != 8 {
		return 0, false
	}
	return binary.LittleEndian.Uint64(data), true
}

// DeactivateDelinquent deactivates stake delegated to a vote account that has not voted for
// MinimumDelinquentEpochsForDeactivation epochs, given a reference vote account that has.
func DeactivateDelinquent(stakeAccount, delinquentVote, referenceVote core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindDeactivateDelinquent},
		core.Writable(stakeAccount), core.Readonly(delinquentVote), core.Readonly(referenceVote))
}

// MoveStake moves active stake between two accounts with the same authorities; the staker
// signs.
func MoveStake(source, destination, staker core.Pubkey, lamports uint64) core.Instruction {
	return newIx(Instruction{Kind: KindMoveStake, Lamports: lamports},
		core.Writable(source), core.Writable(destination), core.ReadonlySigner(staker))
}

// MoveLamports moves free lamports between two accounts with the same authorities; the staker
// signs.
func MoveLamports(source, destination, staker core.Pubkey, lamports uint64) core.Instruction {
	return newIx(Instruction{Kind: KindMoveLamports, Lamports: lamports},
		core.Writable(source), core.Writable(destination), core.ReadonlySigner(staker))
}
