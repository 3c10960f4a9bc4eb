package vote

import (
	"errors"

	"ledgerd/impl/core"
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
	r := &reader{b: data, limit: MaxInstructionSize}
	ix := Instruction{Kind: Kind(r.u32())}
	authorize := func() Authorize {
		a := Authorize(r.u32())
		if a > AuthorizeWithdrawer {
			r.bad = true
		}
		return a
	}
	switch ix.Kind {
	case KindInitializeAccount:
		ix.Init = VoteInit{NodePubkey: r.pubkey(), AuthorizedVoter: r.pubkey(), AuthorizedWithdrawer: r.pubkey(), Commission: r.u8()}
	case KindAuthorize:
		ix.NewAuthority = r.pubkey()
		ix.Authorize = authorize()
	case KindVote, KindVoteSwitch:
		ix.Vote = decodeVote(r)
		if ix.Kind == KindVoteSwitch {
			ix.ProofHash = r.hash()
		}
	case KindWithdraw:
		ix.Lamports = r.u64()
	case KindUpdateValidatorIdentity:
	case KindUpdateCommission:
		ix.Commission = r.u8()
	case KindAuthorizeChecked:
		ix.Authorize = authorize()
	case KindUpdateVoteState, KindUpdateVoteStateSwitch:
		ix.Update = decodeVoteStateUpdate(r)
		if ix.Kind == KindUpdateVoteStateSwitch {
			ix.ProofHash = r.hash()
		}
	case KindAuthorizeWithSeed:
		ix.Authorize = authorize()
		ix.SeedOwner = r.pubkey()
		ix.Seed = r.str()
		ix.NewAuthority = r.pubkey()
	case KindAuthorizeCheckedWithSeed:
		ix.Authorize = authorize()
		ix.SeedOwner = r.pubkey()
		ix.Seed = r.str()
	case KindCompactUpdateVoteState, KindCompactUpdateVoteStateSwitch:
		lockouts, root, hash, ts := decodeCompact(r)
		ix.Update = VoteStateUpdate{Lockouts: lockouts, Root: root, Hash: hash, Timestamp: ts}
		if ix.Kind == KindCompactUpdateVoteStateSwitch {
			ix.ProofHash = r.hash()
		}
	case KindTowerSync, KindTowerSyncSwitch:
		lockouts, root, hash, ts := decodeCompact(r)
		ix.TowerSync = TowerSync{Lockouts: lockouts, Root: root, Hash: hash, Timestamp: ts, BlockID: r.hash()}
		if ix.Kind == KindTowerSyncSwitch {
			ix.ProofHash = r.hash()
		}
	default:
		return Instruction{}, ErrInvalidInstruction
	}
	if r.bad {
		return Instruction{}, ErrInvalidInstruction
	}
	return ix, nil
}

func decodeVote(r *reader) Vote {
	n := r.seqLen(8)
	v := Vote{Slots: make([]uint64, n)}
	for i := range v.Slots {
		v.Slots[i] = r.u64()
	}
	v.Hash = r.hash()
	v.Timestamp = r.optI64()
	return v
}

func decodeVoteStateUpdate(r *reader) VoteStateUpdate {
	n := r.seqLen(12)
	u := VoteStateUpdate{Lockouts: make([]Lockout, n)}
	for i := range u.Lockouts {
		u.Lockouts[i] = Lockout{Slot: r.u64(), ConfirmationCount: r.u32()}
	}
	u.Root = r.optU64()
	u.Hash = r.hash()
	u.Timestamp = r.optI64()
	return u
}

// decodeCompact reads the compact tower of CompactUpdateVoteState and TowerSync: the root
// (u64::MAX for none), short_vec of (varint offset from the previous slot, u8 confirmations),
// the hash and the timestamp.
func decodeCompact(r *reader) ([]Lockout, *uint64, core.Hash, *int64) {
	rootSlot := r.u64()
	var root *uint64
	if rootSlot != ^uint64(0) {
		root = &rootSlot
	}
	n := r.shortLen()
	if n > len(r.b)-r.off { // each offset takes at least two bytes
		r.bad = true
		n = 0
	}
	lockouts := make([]Lockout, 0, n)
	var slot uint64
	if root != nil {
		slot = *root
	}
	for range n {
		off := r.varU64()
		conf := r.u8()
		if r.bad {
			break
		}
		next := slot + off
		if next < slot {
			r.bad = true
			break
		}
		slot = next
		lockouts = append(lockouts, Lockout{Slot: slot, ConfirmationCount: uint32(conf)})
	}
	hash := r.hash()
	ts := r.optI64()
	return lockouts, root, hash, ts
}

// ErrInvalidCompactTower is returned when a tower cannot take the compact form: slots must
// not decrease (from the root, or 0) and confirmation counts must fit a byte.
var ErrInvalidCompactTower = errors.New("vote: lockouts cannot be encoded compactly")

// Encode returns the bincode encoding of ix. It fails only for a compact tower
// (CompactUpdateVoteState, TowerSync) whose lockouts cannot be written as offsets.
func (ix Instruction) Encode() ([]byte, error) {
	w := &writer{b: make([]byte, 0, 128)}
	w.u32(uint32(ix.Kind))
	switch ix.Kind {
	case KindInitializeAccount:
		w.pubkey(ix.Init.NodePubkey)
		w.pubkey(ix.Init.AuthorizedVoter)
		w.pubkey(ix.Init.AuthorizedWithdrawer)
		w.u8(ix.Init.Commission)
	case KindAuthorize:
		w.pubkey(ix.NewAuthority)
		w.u32(uint32(ix.Authorize))
	case KindVote, KindVoteSwitch:
		w.u64(uint64(len(ix.Vote.Slots)))
		for _, s := range ix.Vote.Slots {
			w.u64(s)
		}
		w.hash(ix.Vote.Hash)
		w.optI64(ix.Vote.Timestamp)
		if ix.Kind == KindVoteSwitch {
			w.hash(ix.ProofHash)
		}
	case KindWithdraw:
		w.u64(ix.Lamports)
	case KindUpdateValidatorIdentity:
	case KindUpdateCommission:
		w.u8(ix.Commission)
	case KindAuthorizeChecked:
		w.u32(uint32(ix.Authorize))
	case KindUpdateVoteState, KindUpdateVoteStateSwitch:
		w.u64(uint64(len(ix.Update.Lockouts)))
		for _, l := range ix.Update.Lockouts {
			w.u64(l.Slot)
			w.u32(l.ConfirmationCount)
		}
		w.optU64(ix.Update.Root)
		w.hash(ix.Update.Hash)
		w.optI64(ix.Update.Timestamp)
		if ix.Kind == KindUpdateVoteStateSwitch {
			w.hash(ix.ProofHash)
		}
	case KindAuthorizeWithSeed:
		w.u32(uint32(ix.Authorize))
		w.pubkey(ix.SeedOwner)
		w.str(ix.Seed)
		w.pubkey(ix.NewAuthority)
	case KindAuthorizeCheckedWithSeed:
		w.u32(uint32(ix.Authorize))
		w.pubkey(ix.SeedOwner)
		w.str(ix.Seed)
	case KindCompactUpdateVoteState, KindCompactUpdateVoteStateSwitch:
		if err := encodeCompact(w, ix.Update.Lockouts, ix.Update.Root, ix.Update.Hash, ix.Update.Timestamp); err != nil {
			return nil, err
		}
		if ix.Kind == KindCompactUpdateVoteStateSwitch {
			w.hash(ix.ProofHash)
		}
	case KindTowerSync, KindTowerSyncSwitch:
		t := &ix.TowerSync
		if err := encodeCompact(w, t.Lockouts, t.Root, t.Hash, t.Timestamp); err != nil {
			return nil, err
		}
		w.hash(t.BlockID)
		if ix.Kind == KindTowerSyncSwitch {
			w.hash(ix.ProofHash)
		}
	default:
		return nil, ErrInvalidInstruction
	}
	return w.b, nil
}

func encodeCompact(w *writer, lockouts []Lockout, root *uint64, hash core.Hash, ts *int64) error {
	if len(lockouts) > 0xffff {
		return ErrInvalidCompactTower
	}
	rootSlot, prev := ^uint64(0), uint64(0)
	if root != nil {
		rootSlot, prev = *root, *root
	}
	w.u64(rootSlot)
	w.b = core.AppendShortU16(w.b, uint16(len(lockouts)))
	for _, l := range lockouts {
		if l.Slot < prev || l.ConfirmationCount > 0xff {
			return ErrInvalidCompactTower
		}
		w.varU64(l.Slot - prev)
		w.u8(uint8(l.ConfirmationCount))
		prev = l.Slot
	}
	w.hash(hash)
	w.optI64(ts)
	return nil
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
