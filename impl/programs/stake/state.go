package stake

import (
	"errors"
	"math"

	"ledgerd/impl/core"
	"ledgerd/impl/core/bincode"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
)

// Size is the data length of a stake account (StakeStateV2::size_of).
const Size = 200

// StateKind is the StakeStateV2 variant (its u32 bincode tag).
type StateKind uint32

// The stake states.
const (
	StateUninitialized StateKind = iota
	StateInitialized
	StateStake
	StateRewardsPool
)

// String returns the name jsonParsed stake accounts use for the state ("delegated" for Stake).
func (k StateKind) String() string {
	switch k {
	case StateUninitialized:
		return "uninitialized"
	case StateInitialized:
		return "initialized"
	case StateStake:
		return "delegated"
	case StateRewardsPool:
		return "rewardsPool"
	}
	return "unknown"
}

// Authority is which authority an instruction names (StakeAuthorize).
type Authority uint32

// The authorities.
const (
	AuthorityStaker     Authority = 0
	AuthorityWithdrawer Authority = 1
)

func (a Authority) String() string {
	switch a {
	case AuthorityStaker:
		return "Staker"
	case AuthorityWithdrawer:
		return "Withdrawer"
	}
	return "Unknown"
}

// Authorized are the keys that manage (staker) and withdraw (withdrawer) the stake.
type Authorized struct {
	Staker     core.Pubkey
	Withdrawer core.Pubkey
}

// Lockup forbids withdrawals and withdrawer changes until both UnixTimestamp and Epoch have
// passed, unless the custodian signs.
type Lockup struct {
	UnixTimestamp int64
	Epoch         uint64
	Custodian     core.Pubkey
}

// Meta is what every initialized stake account has.
type Meta struct {
	RentExemptReserve uint64
	Authorized        Authorized
	Lockup            Lockup
}

// Delegation is stake delegated to a vote account.
type Delegation struct {
	VoterPubkey core.Pubkey
	// Stake is the delegated amount in lamports.
	Stake uint64
	// ActivationEpoch is the epoch the stake was delegated in (math.MaxUint64 for bootstrap
	// stake, fully active from genesis).
	ActivationEpoch uint64
	// DeactivationEpoch is the epoch it was deactivated in (math.MaxUint64 if not).
	DeactivationEpoch uint64
	// WarmupCooldownRate is the deprecated rate field, kept for the layout; new delegations
	// hold 0.25 as the reference writes.
	WarmupCooldownRate float64
}

// NewDelegation returns a delegation of stake lamports to voter, activating in epoch.
func NewDelegation(voter core.Pubkey, stake, activationEpoch uint64) Delegation {
	return Delegation{VoterPubkey: voter, Stake: stake, ActivationEpoch: activationEpoch,
		DeactivationEpoch: math.MaxUint64, WarmupCooldownRate: DefaultWarmupCooldownRate}
}

// IsBootstrap reports whether the stake was active from genesis.
func (d Delegation) IsBootstrap() bool { return d.ActivationEpoch == math.MaxUint64 }

// Stake is a delegation and the vote credits it has been paid up to.
type Stake struct {
	Delegation      Delegation
	CreditsObserved uint64
}

// Flags are the StakeFlags bits.
type Flags uint8

// FlagMustFullyActivateBeforeDeactivation was set by the (never enabled) Redelegate.
const FlagMustFullyActivateBeforeDeactivation Flags = 1

// State is a decoded stake account (StakeStateV2). Meta is meaningful for Initialized and
// Stake, Stake and Flags for Stake.
type State struct {
	Kind  StateKind
	Meta  Meta
	Stake Stake
	Flags Flags
}

// ErrInvalidAccountData is returned for data that is not a stake state.
var ErrInvalidAccountData = errors.New("stake: invalid account data")

// Decode reads a stake account's data (bincode StakeStateV2; trailing bytes ignored).
func Decode(data []byte) (State, error) {
	r := bincode.NewReader(data)
	s := State{Kind: StateKind(r.U32())}
	switch s.Kind {
	case StateUninitialized, StateRewardsPool:
	case StateInitialized:
		s.Meta = decodeMeta(r)
	case StateStake:
		s.Meta = decodeMeta(r)
		s.Stake.Delegation = Delegation{VoterPubkey: r.Pubkey(), Stake: r.U64(), ActivationEpoch: r.U64(),
			DeactivationEpoch: r.U64(), WarmupCooldownRate: r.F64()}
		s.Stake.CreditsObserved = r.U64()
		s.Flags = Flags(r.U8())
	default:
		return State{}, ErrInvalidAccountData
	}
	if r.Err() != nil {
		return State{}, ErrInvalidAccountData
	}
	return s, nil
}

func decodeMeta(r *bincode.Reader) Meta {
	return Meta{
		RentExemptReserve: r.U64(),
		Authorized:        Authorized{Staker: r.Pubkey(), Withdrawer: r.Pubkey()},
		Lockup:            Lockup{UnixTimestamp: r.I64(), Epoch: r.U64(), Custodian: r.Pubkey()},
	}
}

// Encode returns the bincode encoding (4 bytes for Uninitialized and RewardsPool, 124 for
// Initialized, 197 for Stake).
func (s State) Encode() []byte {
	b := make([]byte, 0, Size)
	b = bincode.AppendU32(b, uint32(s.Kind))
	if s.Kind == StateInitialized || s.Kind == StateStake {
		m := &s.Meta
		b = bincode.AppendU64(b, m.RentExemptReserve)
		b = bincode.AppendPubkey(b, m.Authorized.Staker)
		b = bincode.AppendPubkey(b, m.Authorized.Withdrawer)
		b = bincode.AppendI64(b, m.Lockup.UnixTimestamp)
		b = bincode.AppendU64(b, m.Lockup.Epoch)
		b = bincode.AppendPubkey(b, m.Lockup.Custodian)
	}
	if s.Kind == StateStake {
		d := &s.Stake.Delegation
		b = bincode.AppendPubkey(b, d.VoterPubkey)
		b = bincode.AppendU64(b, d.Stake)
		b = bincode.AppendU64(b, d.ActivationEpoch)
		b = bincode.AppendU64(b, d.DeactivationEpoch)
		b = bincode.AppendF64(b, d.WarmupCooldownRate)
		b = bincode.AppendU64(b, s.Stake.CreditsObserved)
		b = append(b, uint8(s.Flags))
	}
	return b
}

// AccountData returns the state encoded into a Size-byte account.
func (s State) AccountData() []byte {
	d := make([]byte, Size)
	copy(d, s.Encode())
	return d
}

// Delegation returns the delegation of a delegated account.
func (s State) Delegation() (Delegation, bool) {
	return s.Stake.Delegation, s.Kind == StateStake
}

// IsInForce reports whether the lockup still holds at clock; a signing custodian lifts it.
func (l Lockup) IsInForce(clock sysvar.Clock, custodian *core.Pubkey) bool {
	if custodian != nil && *custodian == l.Custodian {
		return false
	}
	return l.UnixTimestamp > clock.UnixTimestamp || l.Epoch > clock.Epoch
}

// signers reports whether a key signed the instruction.
type signers func(core.Pubkey) bool

// check requires the authority of kind to have signed.
func (a Authorized) check(signed signers, which Authority) error {
	k := a.Staker
	if which == AuthorityWithdrawer {
		k = a.Withdrawer
	}
	if !signed(k) {
		return runtime.ErrMissingRequiredSignature
	}
	return nil
}

// authorize changes an authority: the staker (or the withdrawer) may change the staker; the
// withdrawer may change the withdrawer, and while a lockup is in force only with the
// custodian's signature.
func (a *Authorized) authorize(signed signers, newAuthority core.Pubkey, which Authority, lockup *Lockup, clock sysvar.Clock, custodian *core.Pubkey) error {
	switch which {
	case AuthorityStaker:
		if !signed(a.Staker) && !signed(a.Withdrawer) {
			return runtime.ErrMissingRequiredSignature
		}
		a.Staker = newAuthority
	case AuthorityWithdrawer:
		if lockup != nil && lockup.IsInForce(clock, nil) {
			if custodian == nil {
				return CustodianMissing
			}
			if !signed(*custodian) {
				return CustodianSignatureMissing
			}
			if lockup.IsInForce(clock, custodian) {
				return LockupInForce
			}
		}
		if err := a.check(signed, which); err != nil {
			return err
		}
		a.Withdrawer = newAuthority
	}
	return nil
}

// LockupArgs are the lockup fields SetLockup changes (nil leaves a field as is).
type LockupArgs struct {
	UnixTimestamp *int64
	Epoch         *uint64
	Custodian     *core.Pubkey
}

// setLockup changes the lockup: the custodian signs while it is in force, the withdrawer
// otherwise.
func (m *Meta) setLockup(args LockupArgs, signed signers, clock sysvar.Clock) error {
	if m.Lockup.IsInForce(clock, nil) {
		if !signed(m.Lockup.Custodian) {
			return runtime.ErrMissingRequiredSignature
		}
	} else if !signed(m.Authorized.Withdrawer) {
		return runtime.ErrMissingRequiredSignature
	}
	if args.UnixTimestamp != nil {
		m.Lockup.UnixTimestamp = *args.UnixTimestamp
	}
	if args.Epoch != nil {
		m.Lockup.Epoch = *args.Epoch
	}
	if args.Custodian != nil {
		m.Lockup.Custodian = *args.Custodian
	}
	return nil
}

// split takes splitAmount off into a new stake (same delegation), lowering this one's by
// remainingDelta.
func (s *Stake) split(remainingDelta, splitAmount uint64) (Stake, error) {
	if remainingDelta > s.Delegation.Stake {
		return Stake{}, InsufficientStake
	}
	s.Delegation.Stake -= remainingDelta
	n := *s
	n.Delegation.Stake = splitAmount
	return n, nil
}

// deactivate marks the stake deactivated in epoch.
func (s *Stake) deactivate(epoch uint64) error {
	if s.Delegation.DeactivationEpoch != math.MaxUint64 {
		return AlreadyDeactivated
	}
	s.Delegation.DeactivationEpoch = epoch
	return nil
}
