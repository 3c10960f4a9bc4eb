package stake

import (
	"math/big"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
)

// mergeable is the reference's MergeKind: a stake account that is not in a transient state.
type mergeable struct {
	kind     mergeKind
	meta     Meta
	stake    Stake  // activationEpoch, fullyActive
	lamports uint64 // inactive
	flags    Flags  // inactive, activationEpoch
}

type mergeKind uint8

const (
	mergeInactive        mergeKind = iota // no stake effective, activating or deactivating
	mergeActivationEpoch                  // delegated this epoch: all of it activating
	mergeFullyActive                      // all of it effective
)

// activeStake returns the stake of a delegated kind.
func (m *mergeable) activeStake() (*Stake, bool) {
	return &m.stake, m.kind != mergeInactive
}

// getIfMergeable classifies a stake account; activating or deactivating stake with some
// effective stake is transient and cannot be merged.
func getIfMergeable(ctx *runtime.InvokeContext, s State, lamports uint64, clock sysvar.Clock, history sysvar.StakeHistory) (mergeable, error) {
	switch s.Kind {
	case StateStake:
		st := s.Stake.Delegation.ActivationStatus(clock.Epoch, history, newRateEpoch)
		switch {
		case st.Effective == 0 && st.Activating == 0 && st.Deactivating == 0:
			return mergeable{kind: mergeInactive, meta: s.Meta, lamports: lamports, flags: s.Flags}, nil
		case st.Effective == 0:
			return mergeable{kind: mergeActivationEpoch, meta: s.Meta, stake: s.Stake, flags: s.Flags}, nil
		case st.Activating == 0 && st.Deactivating == 0:
			return mergeable{kind: mergeFullyActive, meta: s.Meta, stake: s.Stake}, nil
		}
		ctx.Log(MergeTransientStake.Error())
		return mergeable{}, MergeTransientStake
	case StateInitialized:
		return mergeable{kind: mergeInactive, meta: s.Meta, lamports: lamports}, nil
	}
	return mergeable{}, runtime.ErrInvalidAccountData
}

// metasCanMerge requires the same authorities, and the same lockup unless both have expired.
func metasCanMerge(ctx *runtime.InvokeContext, dst, src Meta, clock sysvar.Clock) error {
	lockupsOK := dst.Lockup == src.Lockup ||
		(!dst.Lockup.IsInForce(clock, nil) && !src.Lockup.IsInForce(clock, nil))
	// The rent-exempt reserves may differ: the source account is closed.
	if dst.Authorized == src.Authorized && lockupsOK {
		return nil
	}
	ctx.Log("Unable to merge due to metadata mismatch")
	return MergeMismatch
}

func activeDelegationsCanMerge(ctx *runtime.InvokeContext, dst, src Delegation) error {
	if dst.VoterPubkey != src.VoterPubkey {
		ctx.Log("Unable to merge due to voter mismatch")
		return MergeMismatch
	}
	if dst.DeactivationEpoch == ^uint64(0) && src.DeactivationEpoch == ^uint64(0) {
		return nil
	}
	ctx.Log("Unable to merge due to stake deactivation")
	return MergeMismatch
}

// merge returns the destination's state after absorbing src (nil when it does not change).
func (m mergeable) merge(ctx *runtime.InvokeContext, src mergeable, clock sysvar.Clock) (*State, error) {
	if err := metasCanMerge(ctx, m.meta, src.meta, clock); err != nil {
		return nil, err
	}
	if a, ok := m.activeStake(); ok {
		if b, ok := src.activeStake(); ok {
			if err := activeDelegationsCanMerge(ctx, a.Delegation, b.Delegation); err != nil {
				return nil, err
			}
		}
	}
	switch {
	case m.kind == mergeInactive && (src.kind == mergeInactive || src.kind == mergeActivationEpoch):
		return nil, nil
	case m.kind == mergeActivationEpoch && src.kind == mergeInactive:
		st := m.stake
		if st.Delegation.Stake > ^uint64(0)-src.lamports {
			return nil, runtime.ErrInsufficientFunds
		}
		st.Delegation.Stake += src.lamports
		return &State{Kind: StateStake, Meta: m.meta, Stake: st, Flags: m.flags | src.flags}, nil
	case m.kind == mergeActivationEpoch && src.kind == mergeActivationEpoch:
		if src.stake.Delegation.Stake > ^uint64(0)-src.meta.RentExemptReserve {
			return nil, runtime.ErrInsufficientFunds
		}
		st := m.stake
		absorbed := src.meta.RentExemptReserve + src.stake.Delegation.Stake
		if err := mergeDelegationStakeAndCreditsObserved(&st, absorbed, src.stake.CreditsObserved); err != nil {
			return nil, err
		}
		return &State{Kind: StateStake, Meta: m.meta, Stake: st, Flags: m.flags | src.flags}, nil
	case m.kind == mergeFullyActive && src.kind == mergeFullyActive:
		// The source's rent-exempt reserve is not staked (that would activate it instantly);
		// it moves over as withdrawable lamports.
		st := m.stake
		if err := mergeDelegationStakeAndCreditsObserved(&st, src.stake.Delegation.Stake, src.stake.CreditsObserved); err != nil {
			return nil, err
		}
		return &State{Kind: StateStake, Meta: m.meta, Stake: st}, nil
	}
	return nil, MergeMismatch
}

// mergeDelegationStakeAndCreditsObserved adds absorbed lamports to st, with the credits
// observed becoming the stake-weighted average of both (rounded up).
func mergeDelegationStakeAndCreditsObserved(st *Stake, absorbed, absorbedCredits uint64) error {
	credits, ok := stakeWeightedCreditsObserved(st, absorbed, absorbedCredits)
	if !ok {
		return runtime.ErrArithmeticOverflow
	}
	st.CreditsObserved = credits
	if st.Delegation.Stake > ^uint64(0)-absorbed {
		return runtime.ErrInsufficientFunds
	}
	st.Delegation.Stake += absorbed
	return nil
}

func stakeWeightedCreditsObserved(st *Stake, absorbed, absorbedCredits uint64) (uint64, bool) {
	if st.CreditsObserved == absorbedCredits {
		return st.CreditsObserved, true
	}
	if st.Delegation.Stake > ^uint64(0)-absorbed {
		return 0, false
	}
	total := new(big.Int).SetUint64(st.Delegation.Stake + absorbed)
	sum := new(big.Int).Mul(new(big.Int).SetUint64(st.CreditsObserved), new(big.Int).SetUint64(st.Delegation.Stake))
	sum.Add(sum, new(big.Int).Mul(new(big.Int).SetUint64(absorbedCredits), new(big.Int).SetUint64(absorbed)))
	sum.Add(sum, total)
	if sum.BitLen() > 128 || total.Sign() == 0 { // u128 overflow, as checked_add reports it
		return 0, false
	}
	sum.Sub(sum, big.NewInt(1))
	sum.Quo(sum, total)
	if !sum.IsUint64() {
		return 0, false
	}
	return sum.Uint64(), true
}

func merge(ctx *runtime.InvokeContext, clock sysvar.Clock, history sysvar.StakeHistory, signed signers) error {
	src, err := ctx.Account(1)
	if err != nil {
		return err
	}
	if src.Owner() != ProgramID {
		return runtime.ErrIncorrectProgramID
	}
	dst, err := ctx.Account(0)
	if err != nil {
		return err
	}
	if dst.IndexInTransaction() == src.IndexInTransaction() {
		return runtime.ErrInvalidArgument
	}
	ctx.Log("Checking if destination stake is mergeable")
	dstState, err := getState(dst)
	if err != nil {
		return err
	}
	dstKind, err := getIfMergeable(ctx, dstState, dst.Lamports(), clock, history)
	if err != nil {
		return err
	}
	if err := dstKind.meta.Authorized.check(signed, AuthorityStaker); err != nil {
		return err
	}
	ctx.Log("Checking if source stake is mergeable")
	srcState, err := getState(src)
	if err != nil {
		return err
	}
	srcKind, err := getIfMergeable(ctx, srcState, src.Lamports(), clock, history)
	if err != nil {
		return err
	}
	ctx.Log("Merging stake accounts")
	merged, err := dstKind.merge(ctx, srcKind, clock)
	if err != nil {
		return err
	}
	if merged != nil {
		if err := setState(dst, *merged); err != nil {
			return err
		}
	}
	if err := setState(src, State{Kind: StateUninitialized}); err != nil {
		return err
	}
	lamports := src.Lamports()
	if err := src.CheckedSubLamports(lamports); err != nil {
		return err
	}
	return dst.CheckedAddLamports(lamports)
}

// moveChecks are the checks MoveStake and MoveLamports share: the staker (account 2) signs,
// both accounts are distinct writable stake accounts, something moves, both are mergeable and
// their metas match. It returns both classifications.
func moveChecks(ctx *runtime.InvokeContext, src, dst runtime.BorrowedAccount, lamports uint64) (mergeable, mergeable, error) {
	authority, err := ctx.Key(2)
	if err != nil {
		return mergeable{}, mergeable{}, err
	}
	if signer, _ := ctx.IsSigner(2); !signer {
		return mergeable{}, mergeable{}, runtime.ErrMissingRequiredSignature
	}
	if src.Owner() != ProgramID || dst.Owner() != ProgramID {
		return mergeable{}, mergeable{}, runtime.ErrIncorrectProgramID
	}
	if src.Key() == dst.Key() || !src.IsWritable() || !dst.IsWritable() {
		return mergeable{}, mergeable{}, runtime.ErrInvalidInstructionData
	}
	if lamports == 0 {
		return mergeable{}, mergeable{}, runtime.ErrInvalidArgument
	}
	clock := ctx.Clock()
	history, err := loadStakeHistory(ctx)
	if err != nil {
		return mergeable{}, mergeable{}, err
	}
	srcState, err := getState(src)
	if err != nil {
		return mergeable{}, mergeable{}, err
	}
	srcKind, err := getIfMergeable(ctx, srcState, src.Lamports(), clock, history)
	if err != nil {
		return mergeable{}, mergeable{}, err
	}
	if err := srcKind.meta.Authorized.check(func(k core.Pubkey) bool { return k == authority }, AuthorityStaker); err != nil {
		return mergeable{}, mergeable{}, err
	}
	dstState, err := getState(dst)
	if err != nil {
		return mergeable{}, mergeable{}, err
	}
	dstKind, err := getIfMergeable(ctx, dstState, dst.Lamports(), clock, history)
	if err != nil {
		return mergeable{}, mergeable{}, err
	}
	if err := metasCanMerge(ctx, srcKind.meta, dstKind.meta, clock); err != nil {
		return mergeable{}, mergeable{}, err
	}
	return srcKind, dstKind, nil
}

func moveStake(ctx *runtime.InvokeContext, lamports, minimum uint64) error {
	src, err := ctx.Account(0)
	if err != nil {
		return err
	}
	dst, err := ctx.Account(1)
	if err != nil {
		return err
	}
	srcKind, dstKind, err := moveChecks(ctx, src, dst, lamports)
	if err != nil {
		return err
	}
	if len(src.Data()) != Size || len(dst.Data()) != Size {
		return runtime.ErrInvalidAccountData
	}
	if srcKind.kind != mergeFullyActive {
		return runtime.ErrInvalidAccountData
	}
	srcStake := srcKind.stake
	if lamports > srcStake.Delegation.Stake {
		return runtime.ErrInvalidArgument
	}
	srcFinal := srcStake.Delegation.Stake - lamports
	if srcFinal != 0 && srcFinal < minimum {
		return runtime.ErrInvalidArgument
	}
	var dstMeta Meta
	switch dstKind.kind {
	case mergeFullyActive:
		dstStake := dstKind.stake
		if srcStake.Delegation.VoterPubkey != dstStake.Delegation.VoterPubkey {
			return VoteAddressMismatch
		}
		if dstStake.Delegation.Stake > ^uint64(0)-lamports {
			return runtime.ErrArithmeticOverflow
		}
		if dstStake.Delegation.Stake+lamports < minimum {
			return runtime.ErrInvalidArgument
		}
		if err := mergeDelegationStakeAndCreditsObserved(&dstStake, lamports, srcStake.CreditsObserved); err != nil {
			return err
		}
		dstMeta = dstKind.meta
		if err := setState(dst, State{Kind: StateStake, Meta: dstMeta, Stake: dstStake}); err != nil {
			return err
		}
	case mergeInactive:
		if lamports < minimum {
			return runtime.ErrInvalidArgument
		}
		dstStake := srcStake
		dstStake.Delegation.Stake = lamports
		dstMeta = dstKind.meta
		if err := setState(dst, State{Kind: StateStake, Meta: dstMeta, Stake: dstStake}); err != nil {
			return err
		}
	default:
		return runtime.ErrInvalidAccountData
	}
	if srcFinal == 0 {
		err = setState(src, State{Kind: StateInitialized, Meta: srcKind.meta})
	} else {
		srcStake.Delegation.Stake = srcFinal
		err = setState(src, State{Kind: StateStake, Meta: srcKind.meta, Stake: srcStake})
	}
	if err != nil {
		return err
	}
	if err := src.CheckedSubLamports(lamports); err != nil {
		return err
	}
	if err := dst.CheckedAddLamports(lamports); err != nil {
		return err
	}
	if src.Lamports() < srcKind.meta.RentExemptReserve || dst.Lamports() < dstMeta.RentExemptReserve {
		ctx.Log("Delegation calculations violated lamport balance assumptions")
		return runtime.ErrInvalidArgument
	}
	return nil
}

func moveLamports(ctx *runtime.InvokeContext, lamports uint64) error {
	src, err := ctx.Account(0)
	if err != nil {
		return err
	}
	dst, err := ctx.Account(1)
	if err != nil {
		return err
	}
	srcKind, _, err := moveChecks(ctx, src, dst, lamports)
	if err != nil {
		return err
	}
	var free uint64
	switch srcKind.kind {
	case mergeFullyActive:
		free = satSub(satSub(src.Lamports(), srcKind.stake.Delegation.Stake), srcKind.meta.RentExemptReserve)
	case mergeInactive:
		free = satSub(srcKind.lamports, srcKind.meta.RentExemptReserve)
	default:
		return runtime.ErrInvalidAccountData
	}
	if lamports > free {
		return runtime.ErrInvalidArgument
	}
	if err := src.CheckedSubLamports(lamports); err != nil {
		return err
	}
	return dst.CheckedAddLamports(lamports)
}
