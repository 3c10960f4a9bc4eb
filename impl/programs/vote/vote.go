// Package vote is the native vote program (Vote111111111111111111111111111111111111111) and
// the vote account state. It follows the reference's vote_processor and vote_state (Agave 2.1
// with mainnet's features: timely vote credits, TowerSync, commission updates only in the first
// half of an epoch): the same bincode instructions and VoteStateVersions layout (3762-byte
// accounts holding the current version), checks in the same order, VoteError codes, and 2100
// compute units per instruction.
//
// A validator votes with TowerSync, proposing its whole tower; the legacy Vote, UpdateVoteState
// and CompactUpdateVoteState instructions are accepted too (their deprecation, SIMD-0138, is
// not active on mainnet) unless Program.DeprecateLegacyVoteInstructions is set. Votes are
// checked against the SlotHashes sysvar, which the bank must provide in Env.SysvarData.
package vote

import (
	"errors"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
)

// ProgramID is the vote program's address.
var ProgramID = core.VoteProgramID

// DefaultComputeUnits is what every vote instruction costs.
const DefaultComputeUnits = 2100

// Program is the vote program.
type Program struct {
	// DeprecateLegacyVoteInstructions rejects Vote, VoteSwitch, UpdateVoteState(Switch) and
	// CompactUpdateVoteState(Switch) with InvalidInstructionData (feature
	// deprecate_legacy_vote_ixs), leaving TowerSync.
	DeprecateLegacyVoteInstructions bool
}

// Module is the vote program as the node assembles it. It has no jsonParsed parsers yet (the
// reference shows vote accounts and instructions parsed).
var Module = runtime.Module{
	ID:           ProgramID,
	Name:         "vote",
	Kind:         runtime.Builtin,
	Program:      Program{},
	Genesis:      runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "vote_program"},
	ParseAccount: accountParser,
}

// asInstructionError maps a vote rule's error to the instruction error the program returns.
func asInstructionError(err error) error {
	var ve VoteError
	if errors.As(err, &ve) {
		return ve.Instruction()
	}
	return err
}

// Execute implements runtime.Program.
func (p Program) Execute(ctx *runtime.InvokeContext) error {
	return asInstructionError(p.execute(ctx))
}

func (p Program) execute(ctx *runtime.InvokeContext) error {
	if err := ctx.Consume(DefaultComputeUnits); err != nil {
		return err
	}
	me, err := ctx.Account(0)
	if err != nil {
		return err
	}
	if me.Owner() != ProgramID {
		return runtime.ErrInvalidAccountOwner
	}
	ix, err := DecodeInstruction(ctx.Data())
	if err != nil {
		return runtime.ErrInvalidInstructionData
	}
	switch ix.Kind {
	case KindInitializeAccount:
		if err := ctx.CheckSysvarAccount(1, core.SysvarRentID); err != nil {
			return err
		}
		if !ctx.Rent().IsExempt(me.Lamports(), uint64(len(me.Data()))) {
			return runtime.ErrInsufficientFunds
		}
		if err := ctx.CheckSysvarAccount(2, core.SysvarClockID); err != nil {
			return err
		}
		return initializeAccount(ctx, me, ix.Init)

	case KindAuthorize, KindAuthorizeChecked:
		newAuthority := ix.NewAuthority
		if ix.Kind == KindAuthorizeChecked {
			if err := ctx.CheckNumAccounts(4); err != nil {
				return err
			}
			newAuthority, _ = ctx.Key(3)
			if signer, _ := ctx.IsSigner(3); !signer {
				return runtime.ErrMissingRequiredSignature
			}
		}
		if err := ctx.CheckSysvarAccount(1, core.SysvarClockID); err != nil {
			return err
		}
		return authorize(ctx, me, newAuthority, ix.Authorize, ctx.IsSignerKey)

	case KindAuthorizeWithSeed, KindAuthorizeCheckedWithSeed:
		n := 3
		if ix.Kind == KindAuthorizeCheckedWithSeed {
			n = 4
		}
		if err := ctx.CheckNumAccounts(n); err != nil {
			return err
		}
		newAuthority := ix.NewAuthority
		if ix.Kind == KindAuthorizeCheckedWithSeed {
			newAuthority, _ = ctx.Key(3)
			if signer, _ := ctx.IsSigner(3); !signer {
				return runtime.ErrMissingRequiredSignature
			}
		}
		if err := ctx.CheckSysvarAccount(1, core.SysvarClockID); err != nil {
			return err
		}
		var derived *core.Pubkey
		if signer, _ := ctx.IsSigner(2); signer {
			base, _ := ctx.Key(2)
			k, err := createWithSeed(base, ix.Seed, ix.SeedOwner)
			if err != nil {
				return err
			}
			derived = &k
		}
		return authorize(ctx, me, newAuthority, ix.Authorize, func(k core.Pubkey) bool { return derived != nil && *derived == k })

	case KindUpdateValidatorIdentity:
		if err := ctx.CheckNumAccounts(2); err != nil {
			return err
		}
		node, _ := ctx.Key(1)
		return updateValidatorIdentity(ctx, me, node)

	case KindUpdateCommission:
		return updateCommission(ctx, me, ix.Commission)

	case KindVote, KindVoteSwitch:
		if p.DeprecateLegacyVoteInstructions {
			return runtime.ErrInvalidInstructionData
		}
		if err := ctx.CheckSysvarAccount(1, core.SysvarSlotHashesID); err != nil {
			return err
		}
		slotHashes, err := loadSlotHashes(ctx)
		if err != nil {
			return err
		}
		if err := ctx.CheckSysvarAccount(2, core.SysvarClockID); err != nil {
			return err
		}
		return processVoteWithAccount(ctx, me, slotHashes, &ix.Vote)

	case KindUpdateVoteState, KindUpdateVoteStateSwitch, KindCompactUpdateVoteState, KindCompactUpdateVoteStateSwitch:
		if p.DeprecateLegacyVoteInstructions {
			return runtime.ErrInvalidInstructionData
		}
		u := &ix.Update
		return processTower(ctx, me, u.Lockouts, u.Root, u.Hash, u.Timestamp)

	case KindTowerSync, KindTowerSyncSwitch:
		t := &ix.TowerSync
		return processTower(ctx, me, t.Lockouts, t.Root, t.Hash, t.Timestamp)

	case KindWithdraw:
		if err := ctx.CheckNumAccounts(2); err != nil {
			return err
		}
		return withdraw(ctx, me, ix.Lamports)
	}
	return runtime.ErrInvalidInstructionData
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

// loadSlotHashes reads the SlotHashes sysvar from the bank's sysvar cache.
func loadSlotHashes(ctx *runtime.InvokeContext) (sysvar.SlotHashes, error) {
	data, err := ctx.Sysvar(core.SysvarSlotHashesID)
	if err != nil {
		return nil, err
	}
	var sh sysvar.SlotHashes
	if err := sh.Unmarshal(data); err != nil {
		return nil, runtime.ErrUnsupportedSysvar
	}
	return sh, nil
}

// getState decodes the vote account (InvalidAccountData when it is not a vote state).
func getState(acct runtime.BorrowedAccount) (*State, error) {
	s, err := Decode(acct.Data())
	if err != nil {
		return nil, runtime.ErrInvalidAccountData
	}
	return s, nil
}

// setState writes an encoded state over the start of the account data, leaving the rest as it
// was (bincode::serialize_into), as BorrowedAccount::set_state does.
func setState(acct runtime.BorrowedAccount, enc []byte) error {
	data, err := acct.DataMut()
	if err != nil {
		return err
	}
	if len(enc) > len(data) {
		return runtime.ErrAccountDataTooSmall
	}
	copy(data, enc)
	return nil
}

// setVoteAccountState stores s as the current version, growing a short (1.14.11-sized) account
// when it can stay rent exempt, and otherwise storing the 1.14.11 version.
func setVoteAccountState(acct runtime.BorrowedAccount, s *State) error {
	if len(acct.Data()) < Size && (!acct.IsRentExemptAtDataLength(Size) || acct.SetDataLength(Size) != nil) {
		return setState(acct, s.EncodeVersion(Version1_14_11))
	}
	return setState(acct, s.Encode())
}

func initializeAccount(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, init VoteInit) error {
	if len(acct.Data()) != Size {
		return runtime.ErrInvalidAccountData
	}
	s, err := getState(acct)
	if err != nil {
		return err
	}
	if !s.IsUninitialized() {
		return runtime.ErrAccountAlreadyInitialized
	}
	if !ctx.IsSignerKey(init.NodePubkey) {
		return runtime.ErrMissingRequiredSignature
	}
	return setVoteAccountState(acct, NewState(init, ctx.Clock().Epoch))
}

// authorize changes the voter (from the epoch after the leader schedule epoch; the withdrawer or
// the current voter signs) or the withdrawer (the withdrawer signs). signed reports whether a
// key signed (for the seeded variants, whether it is the derived authority).
func authorize(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, newAuthority core.Pubkey, which Authorize, signed func(core.Pubkey) bool) error {
	s, err := getState(acct)
	if err != nil {
		return err
	}
	clock := ctx.Clock()
	switch which {
	case AuthorizeVoter:
		withdrawerSigned := signed(s.AuthorizedWithdrawer)
		if clock.LeaderScheduleEpoch == ^uint64(0) {
			return runtime.ErrInvalidAccountData
		}
		err := s.setNewAuthorizedVoter(newAuthority, clock.Epoch, clock.LeaderScheduleEpoch+1, func(voter core.Pubkey) error {
			if withdrawerSigned || signed(voter) {
				return nil
			}
			return runtime.ErrMissingRequiredSignature
		})
		if err != nil {
			return err
		}
	case AuthorizeWithdrawer:
		if !signed(s.AuthorizedWithdrawer) {
			return runtime.ErrMissingRequiredSignature
		}
		s.AuthorizedWithdrawer = newAuthority
	}
	return setVoteAccountState(acct, s)
}

func updateValidatorIdentity(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, node core.Pubkey) error {
	s, err := getState(acct)
	if err != nil {
		return err
	}
	if !ctx.IsSignerKey(s.AuthorizedWithdrawer) || !ctx.IsSignerKey(node) {
		return runtime.ErrMissingRequiredSignature
	}
	s.NodePubkey = node
	return setVoteAccountState(acct, s)
}

// IsCommissionUpdateAllowed reports whether a commission increase may happen at slot: during
// warmup epochs always, then only in the first half of an epoch.
func IsCommissionUpdateAllowed(slot uint64, schedule sysvar.EpochSchedule) bool {
	if schedule.SlotsPerEpoch == 0 {
		return true
	}
	var since uint64
	if slot > schedule.FirstNormalSlot {
		since = slot - schedule.FirstNormalSlot
	}
	relative := since % schedule.SlotsPerEpoch
	return satMul(relative, 2) <= schedule.SlotsPerEpoch
}

func satMul(a, b uint64) uint64 {
	if a != 0 && b > ^uint64(0)/a {
		return ^uint64(0)
	}
	return a * b
}

func updateCommission(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, commission uint8) error {
	s, decodeErr := getState(acct)
	// Decreases are allowed at any time; increases (or an undecodable state) only early in
	// the epoch.
	enforce := decodeErr != nil || commission > s.Commission
	if enforce && !IsCommissionUpdateAllowed(ctx.Clock().Slot, ctx.EpochSchedule()) {
		return CommissionUpdateTooLate
	}
	if decodeErr != nil {
		return decodeErr
	}
	if !ctx.IsSignerKey(s.AuthorizedWithdrawer) {
		return runtime.ErrMissingRequiredSignature
	}
	s.Commission = commission
	return setVoteAccountState(acct, s)
}

// verifyAndGetVoteState decodes an initialized vote state and checks that the voter of the
// current epoch signed.
func verifyAndGetVoteState(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount) (*State, error) {
	s, err := getState(acct)
	if err != nil {
		return nil, err
	}
	if s.IsUninitialized() {
		return nil, runtime.ErrUninitializedAccount
	}
	voter, err := s.GetAndUpdateAuthorizedVoter(ctx.Clock().Epoch)
	if err != nil {
		return nil, err
	}
	if !ctx.IsSignerKey(voter) {
		return nil, runtime.ErrMissingRequiredSignature
	}
	return s, nil
}

func processVoteWithAccount(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, slotHashes sysvar.SlotHashes, v *Vote) error {
	s, err := verifyAndGetVoteState(ctx, acct)
	if err != nil {
		return err
	}
	clock := ctx.Clock()
	if err := processVote(s, v, slotHashes, clock.Epoch, clock.Slot); err != nil {
		return err
	}
	if v.Timestamp != nil {
		newest := v.Slots[0]
		for _, slot := range v.Slots {
			newest = max(newest, slot)
		}
		if err := s.ProcessTimestamp(newest, *v.Timestamp); err != nil {
			return err
		}
	}
	return setVoteAccountState(acct, s)
}

func processTower(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, lockouts []Lockout, root *uint64, hash core.Hash, timestamp *int64) error {
	slotHashes, err := loadSlotHashes(ctx)
	if err != nil {
		return err
	}
	s, err := verifyAndGetVoteState(ctx, acct)
	if err != nil {
		return err
	}
	clock := ctx.Clock()
	if err := processProposedTower(s, lockouts, root, hash, timestamp, slotHashes, clock.Epoch, clock.Slot); err != nil {
		return err
	}
	return setVoteAccountState(acct, s)
}

func withdraw(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, lamports uint64) error {
	s, err := getState(acct)
	if err != nil {
		return err
	}
	if !ctx.IsSignerKey(s.AuthorizedWithdrawer) {
		return runtime.ErrMissingRequiredSignature
	}
	if lamports > acct.Lamports() {
		return runtime.ErrInsufficientFunds
	}
	remaining := acct.Lamports() - lamports
	if remaining == 0 {
		// An account that earned credits this epoch or the last one may not close.
		if n := len(s.EpochCredits); n > 0 {
			last := s.EpochCredits[n-1].Epoch
			if epoch := ctx.Clock().Epoch; epoch < last || epoch-last < 2 {
				return ActiveVoteAccountClose
			}
		}
		if err := setVoteAccountState(acct, defaultState()); err != nil {
			return err
		}
	} else if remaining < ctx.Rent().MinimumBalance(uint64(len(acct.Data()))) {
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
