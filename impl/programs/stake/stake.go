// Package stake is the native stake program (Stake11111111111111111111111111111111111111) and
// the stake account state. It follows the reference's stake_instruction and stake_state as
// Agave 2.1 ships them as a builtin, with mainnet's features: the same bincode instructions
// and 200-byte StakeStateV2 layout, checks in the same order, StakeError codes and log lines,
// 750 compute units per instruction, warmup and cooldown at the 9% rate through the
// StakeHistory sysvar (with the reference's f64 arithmetic), a minimum delegation of 1
// lamport, MoveStake and MoveLamports, and no Redelegate.
//
// The bank must provide the StakeHistory sysvar in Env.SysvarData (and EpochRewards, when a
// partitioned reward distribution is under way: stake instructions then fail with
// EpochRewardsActive). Activation helpers and reward arithmetic for the bank live here too.
package stake

import (
	"encoding/binary"
	"errors"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/runtime"
)

// ProgramID is the stake program's address.
var ProgramID = core.StakeProgramID

// DefaultComputeUnits is what every stake instruction costs.
const DefaultComputeUnits = 750

// MinimumDelinquentEpochsForDeactivation is how many epochs a vote account must have stopped
// voting for before DeactivateDelinquent may deactivate its stake.
const MinimumDelinquentEpochsForDeactivation = 5

// LamportsPerSOL is 10^9.
const LamportsPerSOL = 1_000_000_000

// MinimumDelegation returns the smallest delegation: 1 lamport, or 1 SOL once feature
// stake_raise_minimum_delegation_to_1_sol is active (it is not on mainnet).
func MinimumDelegation(raisedTo1SOL bool) uint64 {
	if raisedTo1SOL {
		return LamportsPerSOL
	}
	return 1
}

// Program is the stake program.
type Program struct {
	// RaiseMinimumDelegationTo1SOL turns on feature stake_raise_minimum_delegation_to_1_sol.
	RaiseMinimumDelegationTo1SOL bool
}

// Module is the stake program as the node assembles it. It has no jsonParsed parsers yet (the
// reference shows stake accounts and instructions parsed).
var Module = runtime.Module{
	ID:           ProgramID,
	Name:         "stake",
	Kind:         runtime.Builtin,
	Program:      Program{},
	Genesis:      runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "stake_program"},
	ParseAccount: accountParser,
}

// newRateEpoch is the new warmup/cooldown rate epoch the program computes with.
var newRateEpoch = func() *uint64 { e := PerpetualNewRateActivationEpoch; return &e }()

// Execute implements runtime.Program.
func (p Program) Execute(ctx *runtime.InvokeContext) error {
	err := p.execute(ctx)
	var se StakeError
	if errors.As(err, &se) {
		return se.Instruction()
	}
	return err
}

func stakeAccount(ctx *runtime.InvokeContext) (runtime.BorrowedAccount, error) {
	me, err := ctx.Account(0)
	if err != nil {
		return me, err
	}
	if me.Owner() != ProgramID {
		return me, runtime.ErrInvalidAccountOwner
	}
	return me, nil
}

// optionalPubkey returns the key of instruction account i when there is one, requiring it to
// sign when mustSign.
func optionalPubkey(ctx *runtime.InvokeContext, i int, mustSign bool) (*core.Pubkey, error) {
	if i >= ctx.NumAccounts() {
		return nil, nil
	}
	if signer, _ := ctx.IsSigner(i); mustSign && !signer {
		return nil, runtime.ErrMissingRequiredSignature
	}
	k, _ := ctx.Key(i)
	return &k, nil
}

// loadStakeHistory reads the StakeHistory sysvar from the bank's sysvar cache.
func loadStakeHistory(ctx *runtime.InvokeContext) (sysvar.StakeHistory, error) {
	data, err := ctx.Sysvar(core.SysvarStakeHistoryID)
	if err != nil {
		return nil, err
	}
	var h sysvar.StakeHistory
	if err := h.Unmarshal(data); err != nil {
		return nil, runtime.ErrUnsupportedSysvar
	}
	return h, nil
}

// stakeHistoryAt checks that instruction account i is the StakeHistory sysvar and reads it.
func stakeHistoryAt(ctx *runtime.InvokeContext, i int) (sysvar.StakeHistory, error) {
	if err := ctx.CheckSysvarAccount(i, core.SysvarStakeHistoryID); err != nil {
		return nil, err
	}
	return loadStakeHistory(ctx)
}

// epochRewardsActive reports whether a partitioned reward distribution is under way.
func epochRewardsActive(ctx *runtime.InvokeContext) bool {
	data, err := ctx.Sysvar(core.SysvarEpochRewardsID)
	if err != nil {
		return false
	}
	var er sysvar.EpochRewards
	return er.Unmarshal(data) == nil && er.Active
}

func (p Program) execute(ctx *runtime.InvokeContext) error {
	if err := ctx.Consume(DefaultComputeUnits); err != nil {
		return err
	}
	rewardsActive := epochRewardsActive(ctx)
	ix, err := DecodeInstruction(ctx.Data())
	if err != nil {
		return runtime.ErrInvalidInstructionData
	}
	if rewardsActive && ix.Kind != KindGetMinimumDelegation {
		return EpochRewardsActive
	}
	signed := signers(ctx.IsSignerKey)
	minimum := MinimumDelegation(p.RaiseMinimumDelegationTo1SOL)

	switch ix.Kind {
	case KindInitialize:
		me, err := stakeAccount(ctx)
		if err != nil {
			return err
		}
		if err := ctx.CheckSysvarAccount(1, core.SysvarRentID); err != nil {
			return err
		}
		return initialize(me, ix.Authorized, ix.Lockup, ctx.Rent())

	case KindAuthorize:
		me, err := stakeAccount(ctx)
		if err != nil {
			return err
		}
		if err := ctx.CheckSysvarAccount(1, core.SysvarClockID); err != nil {
			return err
		}
		if err := ctx.CheckNumAccounts(3); err != nil {
			return err
		}
		custodian, _ := optionalPubkey(ctx, 3, false)
		return authorize(me, signed, ix.NewAuthority, ix.Authority, ctx.Clock(), custodian)

	case KindAuthorizeWithSeed, KindAuthorizeCheckedWithSeed:
		me, err := stakeAccount(ctx)
		if err != nil {
			return err
		}
		if err := ctx.CheckNumAccounts(2); err != nil {
			return err
		}
		if err := ctx.CheckSysvarAccount(2, core.SysvarClockID); err != nil {
			return err
		}
		newAuthority, custodianIndex := ix.NewAuthority, 3
		if ix.Kind == KindAuthorizeCheckedWithSeed {
			if err := ctx.CheckNumAccounts(4); err != nil {
				return err
			}
			newAuthority, _ = ctx.Key(3)
			if signer, _ := ctx.IsSigner(3); !signer {
				return runtime.ErrMissingRequiredSignature
			}
			custodianIndex = 4
		}
		custodian, _ := optionalPubkey(ctx, custodianIndex, false)
		return authorizeWithSeed(ctx, me, ix.Seed, ix.SeedOwner, newAuthority, ix.Authority, ctx.Clock(), custodian)

	case KindAuthorizeChecked:
		me, err := stakeAccount(ctx)
		if err != nil {
			return err
		}
		if err := ctx.CheckSysvarAccount(1, core.SysvarClockID); err != nil {
			return err
		}
		if err := ctx.CheckNumAccounts(4); err != nil {
			return err
		}
		newAuthority, _ := ctx.Key(3)
		if signer, _ := ctx.IsSigner(3); !signer {
			return runtime.ErrMissingRequiredSignature
		}
		custodian, _ := optionalPubkey(ctx, 4, false)
		return authorize(me, signed, newAuthority, ix.Authority, ctx.Clock(), custodian)

	case KindDelegateStake:
		if _, err := stakeAccount(ctx); err != nil {
			return err
		}
		if err := ctx.CheckNumAccounts(2); err != nil {
			return err
		}
		if err := ctx.CheckSysvarAccount(2, core.SysvarClockID); err != nil {
			return err
		}
		history, err := stakeHistoryAt(ctx, 3)
		if err != nil {
			return err
		}
		if err := ctx.CheckNumAccounts(5); err != nil {
			return err
		}
		return delegate(ctx, signed, ctx.Clock(), history, minimum)

	case KindSplit:
		if _, err := stakeAccount(ctx); err != nil {
			return err
		}
		if err := ctx.CheckNumAccounts(2); err != nil {
			return err
		}
		return split(ctx, ix.Lamports, signed, minimum)

	case KindMerge:
		if _, err := stakeAccount(ctx); err != nil {
			return err
		}
		if err := ctx.CheckNumAccounts(2); err != nil {
			return err
		}
		if err := ctx.CheckSysvarAccount(2, core.SysvarClockID); err != nil {
			return err
		}
		history, err := stakeHistoryAt(ctx, 3)
		if err != nil {
			return err
		}
		return merge(ctx, ctx.Clock(), history, signed)

	case KindWithdraw:
		if _, err := stakeAccount(ctx); err != nil {
			return err
		}
		if err := ctx.CheckNumAccounts(2); err != nil {
			return err
		}
		if err := ctx.CheckSysvarAccount(2, core.SysvarClockID); err != nil {
			return err
		}
		history, err := stakeHistoryAt(ctx, 3)
		if err != nil {
			return err
		}
		if err := ctx.CheckNumAccounts(5); err != nil {
			return err
		}
		return withdraw(ctx, ix.Lamports, ctx.Clock(), history)

	case KindDeactivate:
		me, err := stakeAccount(ctx)
		if err != nil {
			return err
		}
		if err := ctx.CheckSysvarAccount(1, core.SysvarClockID); err != nil {
			return err
		}
		return deactivate(me, ctx.Clock(), signed)

	case KindSetLockup:
		me, err := stakeAccount(ctx)
		if err != nil {
			return err
		}
		return setLockup(me, ix.LockupArgs, signed, ctx.Clock())

	case KindSetLockupChecked:
		me, err := stakeAccount(ctx)
		if err != nil {
			return err
		}
		custodian, err := optionalPubkey(ctx, 2, true)
		if err != nil {
			return err
		}
		args := ix.LockupArgs
		args.Custodian = custodian
		return setLockup(me, args, signed, ctx.Clock())

	case KindInitializeChecked:
		me, err := stakeAccount(ctx)
		if err != nil {
			return err
		}
		if err := ctx.CheckNumAccounts(4); err != nil {
			return err
		}
		staker, _ := ctx.Key(2)
		withdrawer, _ := ctx.Key(3)
		if signer, _ := ctx.IsSigner(3); !signer {
			return runtime.ErrMissingRequiredSignature
		}
		if err := ctx.CheckSysvarAccount(1, core.SysvarRentID); err != nil {
			return err
		}
		return initialize(me, Authorized{Staker: staker, Withdrawer: withdrawer}, Lockup{}, ctx.Rent())

	case KindGetMinimumDelegation:
		return ctx.SetReturnData(binary.LittleEndian.AppendUint64(nil, minimum))

	case KindDeactivateDelinquent:
		me, err := stakeAccount(ctx)
		if err != nil {
			return err
		}
		if err := ctx.CheckNumAccounts(3); err != nil {
			return err
		}
		return deactivateDelinquent(ctx, me, ctx.Clock().Epoch)

	case KindRedelegate:
		if _, err := stakeAccount(ctx); err != nil {
			return err
		}
		return runtime.ErrInvalidInstructionData

	case KindMoveStake, KindMoveLamports:
		if err := ctx.CheckNumAccounts(3); err != nil {
			return err
		}
		if ix.Kind == KindMoveStake {
			return moveStake(ctx, ix.Lamports, minimum)
		}
		return moveLamports(ctx, ix.Lamports)
	}
	return runtime.ErrInvalidInstructionData
}

// getState decodes a stake account (InvalidAccountData when it is not a stake state).
func getState(acct runtime.BorrowedAccount) (State, error) {
	s, err := Decode(acct.Data())
	if err != nil {
		return State{}, runtime.ErrInvalidAccountData
	}
	return s, nil
}

// setState writes s over the start of the account data, leaving the rest as it was
// (bincode::serialize_into), as BorrowedAccount::set_state does.
func setState(acct runtime.BorrowedAccount, s State) error {
	data, err := acct.DataMut()
	if err != nil {
		return err
	}
	enc := s.Encode()
	if len(enc) > len(data) {
		return runtime.ErrAccountDataTooSmall
	}
	copy(data, enc)
	return nil
}

func initialize(acct runtime.BorrowedAccount, authorized Authorized, lockup Lockup, rent sysvar.Rent) error {
	if len(acct.Data()) != Size {
		return runtime.ErrInvalidAccountData
	}
	s, err := getState(acct)
	if err != nil {
		return err
	}
	if s.Kind != StateUninitialized {
		return runtime.ErrInvalidAccountData
	}
	reserve := rent.MinimumBalance(uint64(len(acct.Data())))
	if acct.Lamports() < reserve {
		return runtime.ErrInsufficientFunds
	}
	return setState(acct, State{Kind: StateInitialized, Meta: Meta{RentExemptReserve: reserve, Authorized: authorized, Lockup: lockup}})
}

func authorize(acct runtime.BorrowedAccount, signed signers, newAuthority core.Pubkey, which Authority, clock sysvar.Clock, custodian *core.Pubkey) error {
	s, err := getState(acct)
	if err != nil {
		return err
	}
	if s.Kind != StateStake && s.Kind != StateInitialized {
		return runtime.ErrInvalidAccountData
	}
	if err := s.Meta.Authorized.authorize(signed, newAuthority, which, &s.Meta.Lockup, clock, custodian); err != nil {
		return err
	}
	return setState(acct, s)
}

// createWithSeed derives an authority address; errors map as the reference's (admittedly
// wrong) PubkeyError-as-u64 conversion does: Custom(0) for a long seed, Custom(1) for invalid
// seeds, Custom(2) for an illegal owner.
func createWithSeed(base core.Pubkey, seed string, owner core.Pubkey) (core.Pubkey, error) {
	k, err := core.CreateWithSeed(base, seed, owner)
	switch {
	case err == nil:
		return k, nil
	case errors.Is(err, core.ErrMaxSeedLengthExceeded):
		return k, runtime.CustomError(0)
	case errors.Is(err, core.ErrIllegalOwner):
		return k, runtime.CustomError(2)
	}
	return k, runtime.CustomError(1)
}

// authorizeWithSeed authorizes with the derived address of the base (instruction account 1)
// as the only signer, when the base signs.
func authorizeWithSeed(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, seed string, owner, newAuthority core.Pubkey, which Authority, clock sysvar.Clock, custodian *core.Pubkey) error {
	var derived *core.Pubkey
	if signer, _ := ctx.IsSigner(1); signer {
		base, _ := ctx.Key(1)
		k, err := createWithSeed(base, seed, owner)
		if err != nil {
			return err
		}
		derived = &k
	}
	return authorize(acct, func(k core.Pubkey) bool { return derived != nil && *derived == k }, newAuthority, which, clock, custodian)
}

func delegate(ctx *runtime.InvokeContext, signed signers, clock sysvar.Clock, history sysvar.StakeHistory, minimum uint64) error {
	voteAcct, err := ctx.Account(1)
	if err != nil {
		return err
	}
	if voteAcct.Owner() != vote.ProgramID {
		return runtime.ErrIncorrectProgramID
	}
	votePubkey := voteAcct.Key()
	voteState, voteErr := vote.Decode(voteAcct.Data())
	acct, err := ctx.Account(0)
	if err != nil {
		return err
	}
	s, err := getState(acct)
	if err != nil {
		return err
	}
	if s.Kind != StateInitialized && s.Kind != StateStake {
		return runtime.ErrInvalidAccountData
	}
	if err := s.Meta.Authorized.check(signed, AuthorityStaker); err != nil {
		return err
	}
	amount := satSub(acct.Lamports(), s.Meta.RentExemptReserve)
	if amount < minimum {
		return InsufficientDelegation
	}
	if voteErr != nil {
		return runtime.ErrInvalidAccountData
	}
	if s.Kind == StateInitialized {
		s = State{Kind: StateStake, Meta: s.Meta, Stake: Stake{
			Delegation:      NewDelegation(votePubkey, amount, clock.Epoch),
			CreditsObserved: voteState.Credits(),
		}}
		return setState(acct, s)
	}
	if err := redelegate(&s.Stake, amount, votePubkey, voteState, clock, history); err != nil {
		return err
	}
	return setState(acct, s)
}

// redelegate delegates an already delegated stake again: allowed once it is fully inactive
// (or never became effective); a stake deactivated this epoch and delegated back to the same
// vote account is simply reactivated.
func redelegate(st *Stake, amount uint64, votePubkey core.Pubkey, voteState *vote.State, clock sysvar.Clock, history sysvar.StakeHistory) error {
	if st.Delegation.EffectiveStake(clock.Epoch, history, newRateEpoch) != 0 {
		if st.Delegation.VoterPubkey == votePubkey && clock.Epoch == st.Delegation.DeactivationEpoch {
			st.Delegation.DeactivationEpoch = ^uint64(0)
			return nil
		}
		return TooSoonToRedelegate
	}
	st.Delegation.Stake = amount
	st.Delegation.ActivationEpoch = clock.Epoch
	st.Delegation.DeactivationEpoch = ^uint64(0)
	st.Delegation.VoterPubkey = votePubkey
	st.CreditsObserved = voteState.Credits()
	return nil
}

func deactivate(acct runtime.BorrowedAccount, clock sysvar.Clock, signed signers) error {
	s, err := getState(acct)
	if err != nil {
		return err
	}
	if s.Kind != StateStake {
		return runtime.ErrInvalidAccountData
	}
	if err := s.Meta.Authorized.check(signed, AuthorityStaker); err != nil {
		return err
	}
	if err := s.Stake.deactivate(clock.Epoch); err != nil {
		return err
	}
	return setState(acct, s)
}

func setLockup(acct runtime.BorrowedAccount, args LockupArgs, signed signers, clock sysvar.Clock) error {
	s, err := getState(acct)
	if err != nil {
		return err
	}
	if s.Kind != StateStake && s.Kind != StateInitialized {
		return runtime.ErrInvalidAccountData
	}
	if err := s.Meta.setLockup(args, signed, clock); err != nil {
		return err
	}
	return setState(acct, s)
}

// splitInfo is what validateSplitAmount works out.
type splitInfo struct {
	sourceRemainingBalance uint64
	destinationReserve     uint64
}

// validateSplitAmount checks that source and destination both keep their minimum balance (the
// rent-exempt reserve plus additional), or that the source is emptied, and that an active
// source splits into a prefunded destination unless it moves everything.
func validateSplitAmount(ctx *runtime.InvokeContext, source, destination runtime.BorrowedAccount, lamports uint64, meta Meta, additional uint64, sourceIsActive bool) (splitInfo, error) {
	sourceLamports := source.Lamports()
	destinationLamports := destination.Lamports()
	if lamports == 0 || lamports > sourceLamports {
		return splitInfo{}, runtime.ErrInsufficientFunds
	}
	remaining := sourceLamports - lamports
	if remaining != 0 && remaining < satAdd(meta.RentExemptReserve, additional) {
		return splitInfo{}, runtime.ErrInsufficientFunds
	}
	reserve := ctx.Rent().MinimumBalance(uint64(len(destination.Data())))
	if sourceIsActive && remaining != 0 && destinationLamports < reserve {
		return splitInfo{}, runtime.ErrInsufficientFunds
	}
	if lamports < satSub(satAdd(reserve, additional), destinationLamports) {
		return splitInfo{}, runtime.ErrInsufficientFunds
	}
	return splitInfo{sourceRemainingBalance: remaining, destinationReserve: reserve}, nil
}

func split(ctx *runtime.InvokeContext, lamports uint64, signed signers, minimum uint64) error {
	dst, err := ctx.Account(1)
	if err != nil {
		return err
	}
	if dst.Owner() != ProgramID {
		return runtime.ErrIncorrectProgramID
	}
	if len(dst.Data()) != Size {
		return runtime.ErrInvalidAccountData
	}
	if ds, err := getState(dst); err != nil || ds.Kind != StateUninitialized {
		return runtime.ErrInvalidAccountData
	}
	dstBalance := dst.Lamports()
	src, err := ctx.Account(0)
	if err != nil {
		return err
	}
	if lamports > src.Lamports() {
		return runtime.ErrInsufficientFunds
	}
	s, err := getState(src)
	if err != nil {
		return err
	}
	switch s.Kind {
	case StateStake:
		if err := s.Meta.Authorized.check(signed, AuthorityStaker); err != nil {
			return err
		}
		history, err := loadStakeHistory(ctx)
		if err != nil {
			return err
		}
		isActive := s.Stake.Delegation.ActivationStatus(ctx.Clock().Epoch, history, newRateEpoch).Effective > 0
		info, err := validateSplitAmount(ctx, src, dst, lamports, s.Meta, minimum, isActive)
		if err != nil {
			return err
		}
		var remainingDelta, splitAmount uint64
		if info.sourceRemainingBalance == 0 {
			// Splitting everything: the new stake is the whole stake, whatever the destination
			// held, so prefunding cannot activate stake out of thin air.
			remainingDelta = satSub(lamports, s.Meta.RentExemptReserve)
			splitAmount = remainingDelta
		} else {
			if satSub(s.Stake.Delegation.Stake, lamports) < minimum {
				return InsufficientDelegation
			}
			remainingDelta = lamports
			splitAmount = satSub(lamports, satSub(info.destinationReserve, dstBalance))
		}
		if splitAmount < minimum {
			return InsufficientDelegation
		}
		splitStake, err := s.Stake.split(remainingDelta, splitAmount)
		if err != nil {
			return err
		}
		splitMeta := s.Meta
		splitMeta.RentExemptReserve = info.destinationReserve
		if err := setState(src, s); err != nil {
			return err
		}
		if err := setState(dst, State{Kind: StateStake, Meta: splitMeta, Stake: splitStake, Flags: s.Flags}); err != nil {
			return err
		}
	case StateInitialized:
		if err := s.Meta.Authorized.check(signed, AuthorityStaker); err != nil {
			return err
		}
		info, err := validateSplitAmount(ctx, src, dst, lamports, s.Meta, 0, false)
		if err != nil {
			return err
		}
		splitMeta := s.Meta
		splitMeta.RentExemptReserve = info.destinationReserve
		if err := setState(dst, State{Kind: StateInitialized, Meta: splitMeta}); err != nil {
			return err
		}
	case StateUninitialized:
		if !signed(src.Key()) {
			return runtime.ErrMissingRequiredSignature
		}
	default:
		return runtime.ErrInvalidAccountData
	}
	if lamports == src.Lamports() {
		if err := setState(src, State{Kind: StateUninitialized}); err != nil {
			return err
		}
	}
	if err := dst.CheckedAddLamports(lamports); err != nil {
		return err
	}
	return src.CheckedSubLamports(lamports)
}

func withdraw(ctx *runtime.InvokeContext, lamports uint64, clock sysvar.Clock, history sysvar.StakeHistory) error {
	authority, err := ctx.Key(4)
	if err != nil {
		return err
	}
	if signer, _ := ctx.IsSigner(4); !signer {
		return runtime.ErrMissingRequiredSignature
	}
	signed := func(k core.Pubkey) bool { return k == authority }
	acct, err := ctx.Account(0)
	if err != nil {
		return err
	}
	s, err := getState(acct)
	if err != nil {
		return err
	}
	var (
		lockup   Lockup
		reserve  uint64
		isStaked bool
	)
	switch s.Kind {
	case StateStake:
		if err := s.Meta.Authorized.check(signed, AuthorityWithdrawer); err != nil {
			return err
		}
		d := s.Stake.Delegation
		// Until deactivated, all of the stake counts: warmup may still make it effective.
		staked := d.Stake
		if clock.Epoch >= d.DeactivationEpoch {
			staked = d.EffectiveStake(clock.Epoch, history, newRateEpoch)
		}
		if staked > ^uint64(0)-s.Meta.RentExemptReserve {
			return runtime.ErrInsufficientFunds
		}
		lockup, reserve, isStaked = s.Meta.Lockup, staked+s.Meta.RentExemptReserve, staked != 0
	case StateInitialized:
		if err := s.Meta.Authorized.check(signed, AuthorityWithdrawer); err != nil {
			return err
		}
		lockup, reserve = s.Meta.Lockup, s.Meta.RentExemptReserve
	case StateUninitialized:
		if !signed(acct.Key()) {
			return runtime.ErrMissingRequiredSignature
		}
	default:
		return runtime.ErrInvalidAccountData
	}
	var custodian *core.Pubkey
	if ctx.NumAccounts() >= 6 {
		if signer, _ := ctx.IsSigner(5); signer {
			k, _ := ctx.Key(5)
			custodian = &k
		}
	}
	if lockup.IsInForce(clock, custodian) {
		return LockupInForce
	}
	if lamports == acct.Lamports() {
		if isStaked {
			return runtime.ErrInsufficientFunds
		}
		if err := setState(acct, State{Kind: StateUninitialized}); err != nil {
			return err
		}
	} else if lamports > ^uint64(0)-reserve || lamports+reserve > acct.Lamports() {
		return runtime.ErrInsufficientFunds
	}
	if err := acct.CheckedSubLamports(lamports); err != nil {
		return err
	}
	to, err := ctx.Account(1)
	if err != nil {
		return err
	}
	return to.CheckedAddLamports(lamports)
}

// AcceptableReferenceEpochCredits reports whether a vote account voted in each of the last
// MinimumDelinquentEpochsForDeactivation epochs up to current.
func AcceptableReferenceEpochCredits(credits []vote.EpochCredits, current uint64) bool {
	if len(credits) < MinimumDelinquentEpochsForDeactivation {
		return false
	}
	epoch := current
	for i := len(credits) - 1; i >= len(credits)-MinimumDelinquentEpochsForDeactivation; i-- {
		if credits[i].Epoch != epoch {
			return false
		}
		epoch = satSub(epoch, 1)
	}
	return true
}

// EligibleForDeactivateDelinquent reports whether a vote account has not voted for
// MinimumDelinquentEpochsForDeactivation epochs (or never did).
func EligibleForDeactivateDelinquent(credits []vote.EpochCredits, current uint64) bool {
	if len(credits) == 0 {
		return true
	}
	if current < MinimumDelinquentEpochsForDeactivation {
		return false
	}
	return credits[len(credits)-1].Epoch <= current-MinimumDelinquentEpochsForDeactivation
}

func deactivateDelinquent(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, epoch uint64) error {
	delinquentKey, err := ctx.Key(1)
	if err != nil {
		return err
	}
	loadVote := func(i int) (*vote.State, error) {
		a, err := ctx.Account(i)
		if err != nil {
			return nil, err
		}
		if a.Owner() != vote.ProgramID {
			return nil, runtime.ErrIncorrectProgramID
		}
		s, err := vote.Decode(a.Data())
		if err != nil {
			return nil, runtime.ErrInvalidAccountData
		}
		return s, nil
	}
	delinquent, err := loadVote(1)
	if err != nil {
		return err
	}
	reference, err := loadVote(2)
	if err != nil {
		return err
	}
	if !AcceptableReferenceEpochCredits(reference.EpochCredits, epoch) {
		return InsufficientReferenceVotes
	}
	s, err := getState(acct)
	if err != nil {
		return err
	}
	if s.Kind != StateStake {
		return runtime.ErrInvalidAccountData
	}
	if s.Stake.Delegation.VoterPubkey != delinquentKey {
		return VoteAddressMismatch
	}
	if !EligibleForDeactivateDelinquent(delinquent.EpochCredits, epoch) {
		return MinimumDelinquentEpochsForDeactivationNotMet
	}
	if err := s.Stake.deactivate(epoch); err != nil {
		return err
	}
	return setState(acct, s)
}
