package vote

import (
	"errors"

	"ledgerd/impl/core"
	"ledgerd/impl/core/bincode"
	"ledgerd/impl/programs/system"
)

// Kind is the bincode tag (u32 LE) of a vote instruction.
type Kind uint32

// The vote instructions, in the enum's order.
const (
	KindInitializeAccount Kind = iota
	KindAuthorize
	KindVote
	KindWithdraw
	KindUpdateValidatorIdentity
	KindUpdateCommission
	KindVoteSwitch
	KindAuthorizeChecked
	KindUpdateVoteState
	KindUpdateVoteStateSwitch
	KindAuthorizeWithSeed
	KindAuthorizeCheckedWithSeed
	KindCompactUpdateVoteState
	KindCompactUpdateVoteStateSwitch
	KindTowerSync
	KindTowerSyncSwitch
	numKinds
)

var kindNames = [numKinds]string{
	"InitializeAccount", "Authorize", "Vote", "Withdraw", "UpdateValidatorIdentity",
	"UpdateCommission", "VoteSwitch", "AuthorizeChecked", "UpdateVoteState",
	"UpdateVoteStateSwitch", "AuthorizeWithSeed", "AuthorizeCheckedWithSeed",
	"CompactUpdateVoteState", "CompactUpdateVoteStateSwitch", "TowerSync", "TowerSyncSwitch",
}

// String returns the reference's variant name.
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "Unknown"
}

// IsSimpleVote reports whether k is one of the vote instructions a validator sends (the
// reference's is_simple_vote: the votes, vote state updates and tower syncs).
func (k Kind) IsSimpleVote() bool {
	switch k {
	case KindVote, KindVoteSwitch, KindUpdateVoteState, KindUpdateVoteStateSwitch,
		KindCompactUpdateVoteState, KindCompactUpdateVoteStateSwitch, KindTowerSync, KindTowerSyncSwitch:
		return true
	}
	return false
}

// Authorize is which authority an Authorize instruction changes (VoteAuthorize).
type Authorize uint32

// The authorities.
const (
	AuthorizeVoter      Authorize = 0
	AuthorizeWithdrawer Authorize = 1
)

func (a Authorize) String() string {
	switch a {
	case AuthorizeVoter:
		return "Voter"
	case AuthorizeWithdrawer:
		return "Withdrawer"
	}
	return "Unknown"
}

// Vote is a legacy vote: slots (oldest first), the bank hash of the newest, and an optional
// timestamp.
type Vote struct {
	Slots     []uint64
	Hash      core.Hash
	Timestamp *int64
}

// VoteStateUpdate proposes a whole tower (UpdateVoteState and CompactUpdateVoteState).
type VoteStateUpdate struct {
	Lockouts  []Lockout
	Root      *uint64
	Hash      core.Hash
	Timestamp *int64
}

// TowerSync proposes a whole tower and names the block voted for.
type TowerSync struct {
	Lockouts  []Lockout
	Root      *uint64
	Hash      core.Hash
	Timestamp *int64
	BlockID   core.Hash
}

// LastVotedSlot returns the newest slot of the proposed tower.
func (t *TowerSync) LastVotedSlot() (uint64, bool) {
	if len(t.Lockouts) == 0 {
		return 0, false
	}
	return t.Lockouts[len(t.Lockouts)-1].Slot, true
}

// Instruction is a decoded vote instruction. Which fields are meaningful depends on Kind:
//
//	InitializeAccount                       Init
//	Authorize                               NewAuthority, Authorize
//	AuthorizeChecked                        Authorize
//	AuthorizeWithSeed                       Authorize, SeedOwner, Seed, NewAuthority
//	AuthorizeCheckedWithSeed                Authorize, SeedOwner, Seed
//	Vote, VoteSwitch                        Vote (and ProofHash)
//	UpdateVoteState(Switch), Compact...     Update (and ProofHash)
//	TowerSync, TowerSyncSwitch              TowerSync (and ProofHash)
//	Withdraw                                Lamports
//	UpdateCommission                        Commission
type Instruction struct {
	Kind         Kind
	Init         VoteInit
	NewAuthority core.Pubkey
	Authorize    Authorize
	SeedOwner    core.Pubkey // current_authority_derived_key_owner
	Seed         string      // current_authority_derived_key_seed
	Vote         Vote
	Update       VoteStateUpdate
	TowerSync    TowerSync
	ProofHash    core.Hash // the switching proof of the *Switch variants
	Lamports     uint64
	Commission   uint8
}

// MaxInstructionSize is the most bytes decoding may consume (limited_deserialize with
// PACKET_DATA_SIZE).
const MaxInstructionSize = core.PacketDataSize

// ErrInvalidInstruction is returned for data that is not a vote instruction; the program
// reports it as InvalidInstructionData.
var ErrInvalidInstruction = errors.New("invalid vote instruction")

// DecodeInstruction reads a vote instruction as the reference's limited_deserialize does:
// bincode, at most MaxInstructionSize bytes consumed, trailing bytes ignored.
func DecodeInstruction(data []byte) (Instruction, error) {
	r := bincode.NewLimitedReader(data, MaxInstructionSize)
	ix := Instruction{Kind: Kind(r.U32())}
	authorize := func() Authorize {
		a := Authorize(r.U32())
		if a > AuthorizeWithdrawer {
			r.Fail()
		}
		return a
	}
	switch ix.Kind {
	case KindInitializeAccount:
		ix.Init = VoteInit{NodePubkey: r.Pubkey(), AuthorizedVoter: r.Pubkey(), AuthorizedWithdrawer: r.Pubkey(), Commission: r.U8()}
	case KindAuthorize:
		ix.NewAuthority = r.Pubkey()
		ix.Authorize = authorize()
	case KindVote, KindVoteSwitch:
		ix.Vote = decodeVote(r)
		if ix.Kind == KindVoteSwitch {
			ix.ProofHash = r.Hash()
		}
	case KindWithdraw:
		ix.Lamports = r.U64()
	case KindUpdateValidatorIdentity:
	case KindUpdateCommission:
		ix.Commission = r.U8()
	case KindAuthorizeChecked:
		ix.Authorize = authorize()
	case KindUpdateVoteState, KindUpdateVoteStateSwitch:
		ix.Update = decodeVoteStateUpdate(r)
		if ix.Kind == KindUpdateVoteStateSwitch {
			ix.ProofHash = r.Hash()
		}
	case KindAuthorizeWithSeed:
		ix.Authorize = authorize()
		ix.SeedOwner = r.Pubkey()
		ix.Seed = r.Str()
		ix.NewAuthority = r.Pubkey()
	case KindAuthorizeCheckedWithSeed:
		ix.Authorize = authorize()
		ix.SeedOwner = r.Pubkey()
		ix.Seed = r.Str()
	case KindCompactUpdateVoteState, KindCompactUpdateVoteStateSwitch:
		lockouts, root, hash, ts := decodeCompact(r)
		ix.Update = VoteStateUpdate{Lockouts: lockouts, Root: root, Hash: hash, Timestamp: ts}
		if ix.Kind == KindCompactUpdateVoteStateSwitch {
			ix.ProofHash = r.Hash()
		}
	case KindTowerSync, KindTowerSyncSwitch:
		lockouts, root, hash, ts := decodeCompact(r)
		ix.TowerSync = TowerSync{Lockouts: lockouts, Root: root, Hash: hash, Timestamp: ts, BlockID: r.Hash()}
		if ix.Kind == KindTowerSyncSwitch {
			ix.ProofHash = r.Hash()
		}
	default:
		return Instruction{}, ErrInvalidInstruction
	}
	if r.Err() != nil {
		return Instruction{}, ErrInvalidInstruction
	}
	return ix, nil
}

func decodeVote(r *bincode.Reader) Vote {
	n := r.SeqLen(8)
	v := Vote{Slots: make([]uint64, n)}
	for i := range v.Slots {
		v.Slots[i] = r.U64()
	}
	v.Hash = r.Hash()
	v.Timestamp = r.OptI64()
	return v
}

func decodeVoteStateUpdate(r *bincode.Reader) VoteStateUpdate {
	n := r.SeqLen(12)
	u := VoteStateUpdate{Lockouts: make([]Lockout, n)}
	for i := range u.Lockouts {
		u.Lockouts[i] = Lockout{Slot: r.U64(), ConfirmationCount: r.U32()}
	}
	u.Root = r.OptU64()
	u.Hash = r.Hash()
	u.Timestamp = r.OptI64()
	return u
}

// decodeCompact reads the compact tower of CompactUpdateVoteState and TowerSync: the root
// (u64::MAX for none), short_vec of (varint offset from the previous slot, u8 confirmations),
// the hash and the timestamp.
func decodeCompact(r *bincode.Reader) ([]Lockout, *uint64, core.Hash, *int64) {
	rootSlot := r.U64()
	var root *uint64
	if rootSlot != ^uint64(0) {
		root = &rootSlot
	}
	n := r.ShortLen()
	if n > r.Len() { // each offset takes at least two bytes
		r.Fail()
		n = 0
	}
	lockouts := make([]Lockout, 0, n)
	var slot uint64
	if root != nil {
		slot = *root
	}
	for range n {
		off := r.VarU64()
		conf := r.U8()
		if r.Err() != nil {
			break
		}
		next := slot + off
		if next < slot {
			r.Fail()
			break
		}
		slot = next
		lockouts = append(lockouts, Lockout{Slot: slot, ConfirmationCount: uint32(conf)})
	}
	hash := r.Hash()
	ts := r.OptI64()
	return lockouts, root, hash, ts
}

// ErrInvalidCompactTower is returned when a tower cannot take the compact form: slots must
// not decrease (from the root, or 0) and confirmation counts must fit a byte.
var ErrInvalidCompactTower = errors.New("vote: lockouts cannot be encoded compactly")

// Encode returns the bincode encoding of ix. It fails only for a compact tower
// (CompactUpdateVoteState, TowerSync) whose lockouts cannot be written as offsets.
func (ix Instruction) Encode() ([]byte, error) {
	b := make([]byte, 0, 128)
	b = bincode.AppendU32(b, uint32(ix.Kind))
	switch ix.Kind {
	case KindInitializeAccount:
		b = bincode.AppendPubkey(b, ix.Init.NodePubkey)
		b = bincode.AppendPubkey(b, ix.Init.AuthorizedVoter)
		b = bincode.AppendPubkey(b, ix.Init.AuthorizedWithdrawer)
		b = append(b, ix.Init.Commission)
	case KindAuthorize:
		b = bincode.AppendPubkey(b, ix.NewAuthority)
		b = bincode.AppendU32(b, uint32(ix.Authorize))
	case KindVote, KindVoteSwitch:
		b = bincode.AppendU64(b, uint64(len(ix.Vote.Slots)))
		for _, s := range ix.Vote.Slots {
			b = bincode.AppendU64(b, s)
		}
		b = bincode.AppendHash(b, ix.Vote.Hash)
		b = bincode.AppendOptI64(b, ix.Vote.Timestamp)
		if ix.Kind == KindVoteSwitch {
			b = bincode.AppendHash(b, ix.ProofHash)
		}
	case KindWithdraw:
		b = bincode.AppendU64(b, ix.Lamports)
	case KindUpdateValidatorIdentity:
	case KindUpdateCommission:
		b = append(b, ix.Commission)
	case KindAuthorizeChecked:
		b = bincode.AppendU32(b, uint32(ix.Authorize))
	case KindUpdateVoteState, KindUpdateVoteStateSwitch:
		b = bincode.AppendU64(b, uint64(len(ix.Update.Lockouts)))
		for _, l := range ix.Update.Lockouts {
			b = bincode.AppendU64(b, l.Slot)
			b = bincode.AppendU32(b, l.ConfirmationCount)
		}
		b = bincode.AppendOptU64(b, ix.Update.Root)
		b = bincode.AppendHash(b, ix.Update.Hash)
		b = bincode.AppendOptI64(b, ix.Update.Timestamp)
		if ix.Kind == KindUpdateVoteStateSwitch {
			b = bincode.AppendHash(b, ix.ProofHash)
		}
	case KindAuthorizeWithSeed:
		b = bincode.AppendU32(b, uint32(ix.Authorize))
		b = bincode.AppendPubkey(b, ix.SeedOwner)
		b = bincode.AppendStr(b, ix.Seed)
		b = bincode.AppendPubkey(b, ix.NewAuthority)
	case KindAuthorizeCheckedWithSeed:
		b = bincode.AppendU32(b, uint32(ix.Authorize))
		b = bincode.AppendPubkey(b, ix.SeedOwner)
		b = bincode.AppendStr(b, ix.Seed)
	case KindCompactUpdateVoteState, KindCompactUpdateVoteStateSwitch:
		var err error
		if b, err = encodeCompact(b, ix.Update.Lockouts, ix.Update.Root, ix.Update.Hash, ix.Update.Timestamp); err != nil {
			return nil, err
		}
		if ix.Kind == KindCompactUpdateVoteStateSwitch {
			b = bincode.AppendHash(b, ix.ProofHash)
		}
	case KindTowerSync, KindTowerSyncSwitch:
		t := &ix.TowerSync
		var err error
		if b, err = encodeCompact(b, t.Lockouts, t.Root, t.Hash, t.Timestamp); err != nil {
			return nil, err
		}
		b = bincode.AppendHash(b, t.BlockID)
		if ix.Kind == KindTowerSyncSwitch {
			b = bincode.AppendHash(b, ix.ProofHash)
		}
	default:
		return nil, ErrInvalidInstruction
	}
	return b, nil
}

func encodeCompact(b []byte, lockouts []Lockout, root *uint64, hash core.Hash, ts *int64) ([]byte, error) {
	if len(lockouts) > 0xffff {
		return nil, ErrInvalidCompactTower
	}
	rootSlot, prev := ^uint64(0), uint64(0)
	if root != nil {
		rootSlot, prev = *root, *root
	}
	b = bincode.AppendU64(b, rootSlot)
	b = core.AppendShortU16(b, uint16(len(lockouts)))
	for _, l := range lockouts {
		if l.Slot < prev || l.ConfirmationCount > 0xff {
			return nil, ErrInvalidCompactTower
		}
		b = bincode.AppendVarU64(b, l.Slot-prev)
		b = append(b, uint8(l.ConfirmationCount))
		prev = l.Slot
	}
	b = bincode.AppendHash(b, hash)
	b = bincode.AppendOptI64(b, ts)
	return b, nil
}

// ---------------------------------------------------------------------------------------------
// Builders, with the account lists of solana-vote-interface.

func newIx(ix Instruction, metas ...core.AccountMeta) core.Instruction {
	data, err := ix.Encode()
	if err != nil {
		panic("vote: " + err.Error()) // only compact towers can fail; their builders check first
	}
	return core.Instruction{ProgramID: ProgramID, Accounts: metas, Data: data}
}

// InitializeAccount initializes votePubkey; the node identity signs.
func InitializeAccount(votePubkey core.Pubkey, init VoteInit) core.Instruction {
	return newIx(Instruction{Kind: KindInitializeAccount, Init: init},
		core.Writable(votePubkey), core.Readonly(core.SysvarRentID), core.Readonly(core.SysvarClockID),
		core.ReadonlySigner(init.NodePubkey))
}

// CreateAccount returns the instructions that create votePubkey (a signer) with Size bytes
// funded by from, and initialize it.
func CreateAccount(from, votePubkey core.Pubkey, init VoteInit, lamports uint64) []core.Instruction {
	return []core.Instruction{
		system.CreateAccount(from, votePubkey, lamports, Size, ProgramID),
		InitializeAccount(votePubkey, init),
	}
}

// AuthorizeIx makes newAuthority the voter (from the next leader schedule epoch) or withdrawer;
// the current authority signs.
func AuthorizeIx(votePubkey, authority, newAuthority core.Pubkey, which Authorize) core.Instruction {
	return newIx(Instruction{Kind: KindAuthorize, NewAuthority: newAuthority, Authorize: which},
		core.Writable(votePubkey), core.Readonly(core.SysvarClockID), core.ReadonlySigner(authority))
}

// AuthorizeChecked is AuthorizeIx with the new authority signing too.
func AuthorizeChecked(votePubkey, authority, newAuthority core.Pubkey, which Authorize) core.Instruction {
	return newIx(Instruction{Kind: KindAuthorizeChecked, Authorize: which},
		core.Writable(votePubkey), core.Readonly(core.SysvarClockID), core.ReadonlySigner(authority),
		core.ReadonlySigner(newAuthority))
}

// AuthorizeWithSeed changes an authority that is CreateWithSeed(base, seed, owner); base signs.
func AuthorizeWithSeed(votePubkey, base, owner core.Pubkey, seed string, newAuthority core.Pubkey, which Authorize) core.Instruction {
	return newIx(Instruction{Kind: KindAuthorizeWithSeed, Authorize: which, SeedOwner: owner, Seed: seed, NewAuthority: newAuthority},
		core.Writable(votePubkey), core.Readonly(core.SysvarClockID), core.ReadonlySigner(base))
}

// AuthorizeCheckedWithSeed is AuthorizeWithSeed with the new authority signing too.
func AuthorizeCheckedWithSeed(votePubkey, base, owner core.Pubkey, seed string, newAuthority core.Pubkey, which Authorize) core.Instruction {
	return newIx(Instruction{Kind: KindAuthorizeCheckedWithSeed, Authorize: which, SeedOwner: owner, Seed: seed},
		core.Writable(votePubkey), core.Readonly(core.SysvarClockID), core.ReadonlySigner(base),
		core.ReadonlySigner(newAuthority))
}

// UpdateValidatorIdentity sets the node identity; the new identity and the withdrawer sign.
func UpdateValidatorIdentity(votePubkey, withdrawer, node core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindUpdateValidatorIdentity},
		core.Writable(votePubkey), core.ReadonlySigner(node), core.ReadonlySigner(withdrawer))
}

// UpdateCommission sets the commission; the withdrawer signs.
func UpdateCommission(votePubkey, withdrawer core.Pubkey, commission uint8) core.Instruction {
	return newIx(Instruction{Kind: KindUpdateCommission, Commission: commission},
		core.Writable(votePubkey), core.ReadonlySigner(withdrawer))
}

// Withdraw moves lamports to to; the withdrawer signs.
func Withdraw(votePubkey, withdrawer core.Pubkey, lamports uint64, to core.Pubkey) core.Instruction {
	return newIx(Instruction{Kind: KindWithdraw, Lamports: lamports},
		core.Writable(votePubkey), core.Writable(to), core.ReadonlySigner(withdrawer))
}

// VoteIx is a legacy Vote; the voter signs.
func VoteIx(votePubkey, voter core.Pubkey, v Vote) core.Instruction {
	return newIx(Instruction{Kind: KindVote, Vote: v},
		core.Writable(votePubkey), core.Readonly(core.SysvarSlotHashesID), core.Readonly(core.SysvarClockID),
		core.ReadonlySigner(voter))
}

// VoteSwitch is VoteIx with a switching proof hash.
func VoteSwitch(votePubkey, voter core.Pubkey, v Vote, proof core.Hash) core.Instruction {
	return newIx(Instruction{Kind: KindVoteSwitch, Vote: v, ProofHash: proof},
		core.Writable(votePubkey), core.Readonly(core.SysvarSlotHashesID), core.Readonly(core.SysvarClockID),
		core.ReadonlySigner(voter))
}

// UpdateVoteState proposes a whole tower (non-compact encoding); the voter signs.
func UpdateVoteState(votePubkey, voter core.Pubkey, u VoteStateUpdate) core.Instruction {
	return newIx(Instruction{Kind: KindUpdateVoteState, Update: u}, core.Writable(votePubkey), core.ReadonlySigner(voter))
}

// CompactUpdateVoteState proposes a whole tower in the compact encoding; the voter signs.
func CompactUpdateVoteState(votePubkey, voter core.Pubkey, u VoteStateUpdate) (core.Instruction, error) {
	ix := Instruction{Kind: KindCompactUpdateVoteState, Update: u}
	data, err := ix.Encode()
	if err != nil {
		return core.Instruction{}, err
	}
	return core.Instruction{ProgramID: ProgramID, Accounts: []core.AccountMeta{core.Writable(votePubkey), core.ReadonlySigner(voter)}, Data: data}, nil
}

// TowerSyncIx syncs the on-chain tower with t; the voter signs. It is the vote a validator
// sends.
func TowerSyncIx(votePubkey, voter core.Pubkey, t TowerSync) (core.Instruction, error) {
	ix := Instruction{Kind: KindTowerSync, TowerSync: t}
	data, err := ix.Encode()
	if err != nil {
		return core.Instruction{}, err
	}
	return core.Instruction{ProgramID: ProgramID, Accounts: []core.AccountMeta{core.Writable(votePubkey), core.ReadonlySigner(voter)}, Data: data}, nil
}

// TowerSyncFrom returns the TowerSync that proposes tower (a local vote state the node pushes
// its votes onto with ProcessNextVoteSlot): its lockouts and root, for the block with bank
// hash and id blockID.
func TowerSyncFrom(tower *State, hash, blockID core.Hash, timestamp *int64) TowerSync {
	t := TowerSync{Lockouts: make([]Lockout, len(tower.Votes)), Hash: hash, Timestamp: timestamp, BlockID: blockID}
	for i, v := range tower.Votes {
		t.Lockouts[i] = v.Lockout
	}
	if tower.RootSlot != nil {
		r := *tower.RootSlot
		t.Root = &r
	}
	return t
}

// IsSimpleVoteTransaction reports whether tx is a simple vote transaction, the kind the
// reference counts apart (numNonVoteTransactions, vote-only block space): a legacy message
// with fewer than three signatures whose only instruction goes to the vote program.
func IsSimpleVoteTransaction(tx *core.Transaction) bool {
	m := &tx.Message
	if len(tx.Signatures) >= 3 || m.Version != core.VersionLegacy || len(m.Instructions) != 1 {
		return false
	}
	i := int(m.Instructions[0].ProgramIDIndex)
	return i < len(m.AccountKeys) && m.AccountKeys[i] == ProgramID
}
