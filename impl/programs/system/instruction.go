package system

import (
	"encoding/binary"
	"errors"
	"unicode/utf8"

	"ledgerd/impl/core"
)

// Kind is the bincode tag (u32 LE) of a system instruction.
type Kind uint32

// The system instructions, in the enum's order.
const (
	KindCreateAccount Kind = iota
	KindAssign
	KindTransfer
	KindCreateAccountWithSeed
	KindAdvanceNonceAccount
	KindWithdrawNonceAccount
	KindInitializeNonceAccount
	KindAuthorizeNonceAccount
	KindAllocate
	KindAllocateWithSeed
	KindAssignWithSeed
	KindTransferWithSeed
	KindUpgradeNonceAccount
	KindCreateAccountAllowPrefund
	numKinds
)

var kindNames = [numKinds]string{
	"CreateAccount", "Assign", "Transfer", "CreateAccountWithSeed", "AdvanceNonceAccount",
	"WithdrawNonceAccount", "InitializeNonceAccount", "AuthorizeNonceAccount", "Allocate",
	"AllocateWithSeed", "AssignWithSeed", "TransferWithSeed", "UpgradeNonceAccount",
	"CreateAccountAllowPrefund",
}

// String returns the reference's variant name.
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "Unknown"
}

// Instruction is a decoded system instruction. Which fields are meaningful depends on Kind:
//
//	CreateAccount, CreateAccountAllowPrefund  Lamports, Space, Owner
//	Assign                                    Owner
//	Transfer, WithdrawNonceAccount            Lamports
//	CreateAccountWithSeed                     Base, Seed, Lamports, Space, Owner
//	InitializeNonceAccount, AuthorizeNonceAccount  Authority
//	Allocate                                  Space
//	AllocateWithSeed                          Base, Seed, Space, Owner
//	AssignWithSeed                            Base, Seed, Owner
//	TransferWithSeed                          Lamports, Seed (from_seed), Owner (from_owner)
type Instruction struct {
	Kind      Kind
	Lamports  uint64
	Space     uint64
	Owner     core.Pubkey
	Base      core.Pubkey
	Seed      string
	Authority core.Pubkey
}

// MaxInstructionSize is the most bytes decoding may consume (the reference's
// limited_deserialize with PACKET_DATA_SIZE).
const MaxInstructionSize = core.PacketDataSize

// ErrInvalidInstruction is returned for data that is not a system instruction; the program
// reports it as InvalidInstructionData.
var ErrInvalidInstruction = errors.New("invalid system instruction")

// decoder reads bincode (fixed-width little-endian integers, u64-prefixed strings) with the
// reference's byte limit.
type decoder struct {
	data []byte
	read int
	err  bool
}

func (d *decoder) take(n uint64) []byte {
	if d.err || n > uint64(len(d.data)) || uint64(d.read)+n > MaxInstructionSize {
		d.err = true
		return nil
	}
	b := d.data[:n]
	d.data = d.data[n:]
	d.read += int(n)
	return b
}

func (d *decoder) u32() uint32 {
	if b := d.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if b := d.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (d *decoder) pubkey() (k core.Pubkey) {
	if b := d.take(32); b != nil {
		copy(k[:], b)
	}
	return k
}

func (d *decoder) str() string {
	n := d.u64()
	b := d.take(n)
	if d.err || !utf8.Valid(b) {
		d.err = true
		return ""
	}
	return string(b)
}

// Decode reads a system instruction as the reference's limited_deserialize does: bincode, at
// most MaxInstructionSize bytes consumed, trailing bytes ignored, seeds valid UTF-8.
func Decode(data []byte) (Instruction, error) {
	d := &decoder{data: data}
	ix := Instruction{Kind: Kind(d.u32())}
	switch ix.Kind {
	case KindCreateAccount, KindCreateAccountAllowPrefund:
		ix.Lamports, ix.Space, ix.Owner = d.u64(), d.u64(), d.pubkey()
	case KindAssign:
		ix.Owner = d.pubkey()
	case KindTransfer, KindWithdrawNonceAccount:
		ix.Lamports = d.u64()
	case KindCreateAccountWithSeed:
		ix.Base, ix.Seed, ix.Lamports, ix.Space, ix.Owner = d.pubkey(), d.str(), d.u64(), d.u64(), d.pubkey()
	case KindAdvanceNonceAccount, KindUpgradeNonceAccount:
	case KindInitializeNonceAccount, KindAuthorizeNonceAccount:
		ix.Authority = d.pubkey()
	case KindAllocate:
		ix.Space = d.u64()
	case KindAllocateWithSeed:
		ix.Base, ix.Seed, ix.Space, ix.Owner = d.pubkey(), d.str(), d.u64(), d.pubkey()
	case KindAssignWithSeed:
		ix.Base, ix.Seed, ix.Owner = d.pubkey(), d.str(), d.pubkey()
	case KindTransferWithSeed:
		ix.Lamports, ix.Seed, ix.Owner = d.u64(), d.str(), d.pubkey()
	default:
		return Instruction{}, ErrInvalidInstruction
	}
	if d.err {
		return Instruction{}, ErrInvalidInstruction
	}
	return ix, nil
}

// Encode returns the bincode encoding of ix.
func (ix Instruction) Encode() []byte {
	b := binary.LittleEndian.AppendUint32(make([]byte, 0, 64), uint32(ix.Kind))
	u64 := func(v uint64) { b = binary.LittleEndian.AppendUint64(b, v) }
	key := func(k core.Pubkey) { b = append(b, k[:]...) }
	str := func(s string) { u64(uint64(len(s))); b = append(b, s...) }
	switch ix.Kind {
	case KindCreateAccount, KindCreateAccountAllowPrefund:
		u64(ix.Lamports)
		u64(ix.Space)
		key(ix.Owner)
	case KindAssign:
		key(ix.Owner)
	case KindTransfer, KindWithdrawNonceAccount:
		u64(ix.Lamports)
	case KindCreateAccountWithSeed:
		key(ix.Base)
		str(ix.Seed)
		u64(ix.Lamports)
		u64(ix.Space)
		key(ix.Owner)
	case KindInitializeNonceAccount, KindAuthorizeNonceAccount:
		key(ix.Authority)
	case KindAllocate:
		u64(ix.Space)
	case KindAllocateWithSeed:
		key(ix.Base)
		str(ix.Seed)
		u64(ix.Space)
		key(ix.Owner)
	case KindAssignWithSeed:
		key(ix.Base)
		str(ix.Seed)
		key(ix.Owner)
	case KindTransferWithSeed:
		u64(ix.Lamports)
		str(ix.Seed)
		key(ix.Owner)
	}
	return b
}

func newIx(data Instruction, metas ...core.AccountMeta) core.Instruction {
	return core.Instruction{ProgramID: core.SystemProgramID, Accounts: metas, Data: data.Encode()}
}

// CreateAccount creates to (a signer) with space bytes owned by owner, funded by from.
func CreateAccount(from, to core.Pubkey, lamports, space uint64, owner core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindCreateAccount, Lamports: lamports, Space: space, Owner: owner},
		core.WritableSigner(from), core.WritableSigner(to))
}

// CreateAccountWithSeed creates to = CreateWithSeed(base, seed, owner), funded by from; base
// signs.
func CreateAccountWithSeed(from, to, base core.Pubkey, seed string, lamports, space uint64, owner core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindCreateAccountWithSeed, Base: base, Seed: seed, Lamports: lamports, Space: space, Owner: owner},
		core.WritableSigner(from), core.Writable(to), core.ReadonlySigner(base))
}

// Assign assigns account (a signer) to owner.
func Assign(account, owner core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindAssign, Owner: owner}, core.WritableSigner(account))
}

// AssignWithSeed assigns the derived address to owner; base signs.
func AssignWithSeed(address, base core.Pubkey, seed string, owner core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindAssignWithSeed, Base: base, Seed: seed, Owner: owner},
		core.Writable(address), core.ReadonlySigner(base))
}

// Transfer moves lamports from from (a signer) to to.
func Transfer(from, to core.Pubkey, lamports uint64) core.Instruction {
	return newIx(Instruction{Kind: KindTransfer, Lamports: lamports}, core.WritableSigner(from), core.Writable(to))
}

// TransferWithSeed moves lamports from the derived address from = CreateWithSeed(fromBase,
// fromSeed, fromOwner); fromBase signs.
func TransferWithSeed(from, fromBase core.Pubkey, fromSeed string, fromOwner, to core.Pubkey, lamports uint64) core.Instruction {
	return newIx(Instruction{Kind: KindTransferWithSeed, Lamports: lamports, Seed: fromSeed, Owner: fromOwner},
		core.Writable(from), core.ReadonlySigner(fromBase), core.Writable(to))
}

// Allocate gives account (a signer) space bytes of data.
func Allocate(account core.Pubkey, space uint64) core.Instruction {
	return newIx(Instruction{Kind: KindAllocate, Space: space}, core.WritableSigner(account))
}

// AllocateWithSeed allocates and assigns the derived address; base signs.
func AllocateWithSeed(address, base core.Pubkey, seed string, space uint64, owner core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindAllocateWithSeed, Base: base, Seed: seed, Space: space, Owner: owner},
		core.Writable(address), core.ReadonlySigner(base))
}

// AdvanceNonceAccount advances nonceAccount's durable nonce; authority signs. As the first
// instruction of a transaction it makes the transaction durable.
func AdvanceNonceAccount(nonceAccount, authority core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindAdvanceNonceAccount},
		core.Writable(nonceAccount), core.Readonly(core.SysvarRecentBlockhashesID), core.ReadonlySigner(authority))
}

// WithdrawNonceAccount moves lamports from nonceAccount to to; authority signs.
func WithdrawNonceAccount(nonceAccount, authority, to core.Pubkey, lamports uint64) core.Instruction {
	return newIx(Instruction{Kind: KindWithdrawNonceAccount, Lamports: lamports},
		core.Writable(nonceAccount), core.Writable(to), core.Readonly(core.SysvarRecentBlockhashesID),
		core.Readonly(core.SysvarRentID), core.ReadonlySigner(authority))
}

// InitializeNonceAccount initializes nonceAccount with authority.
func InitializeNonceAccount(nonceAccount, authority core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindInitializeNonceAccount, Authority: authority},
		core.Writable(nonceAccount), core.Readonly(core.SysvarRecentBlockhashesID), core.Readonly(core.SysvarRentID))
}

// AuthorizeNonceAccount hands nonceAccount to newAuthority; authority signs.
func AuthorizeNonceAccount(nonceAccount, authority, newAuthority core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindAuthorizeNonceAccount, Authority: newAuthority},
		core.Writable(nonceAccount), core.ReadonlySigner(authority))
}

// UpgradeNonceAccount moves a legacy nonce account to the current version.
func UpgradeNonceAccount(nonceAccount core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindUpgradeNonceAccount}, core.Writable(nonceAccount))
}

// CreateNonceAccount returns the two instructions that create and initialize a nonce account
// (nonceAccount signs the first).
func CreateNonceAccount(from, nonceAccount, authority core.Pubkey, lamports uint64) []core.Instruction {
	return []core.Instruction{
		CreateAccount(from, nonceAccount, lamports, NonceAccountSize, core.SystemProgramID),
		InitializeNonceAccount(nonceAccount, authority),
	}
}

// CreateAccountAllowPrefund creates to (a signer) even if it already holds lamports; when
// lamports > 0 they come from from (a signer). Feature-gated.
func CreateAccountAllowPrefund(to, from core.Pubkey, lamports, space uint64, owner core.Pubkey) core.Instruction {
	metas := []core.AccountMeta{core.WritableSigner(to)}
	if lamports > 0 {
		metas = append(metas, core.WritableSigner(from))
	}
	return newIx(Instruction{Kind: KindCreateAccountAllowPrefund, Lamports: lamports, Space: space, Owner: owner}, metas...)
}
