package rpc

import (
	"context"
	"fmt"
	"math"
	"slices"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/stake"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/runtime"
)

// Votes, stake, inflation and leaders. The node is the only block producer of its chain, so it leads every slot;
// stake and votes are read from the accounts of the bank at the commitment, as the reference's stakes cache holds
// them.

// Limits and defaults of these methods, as the reference has them (docs/reference-behaviour.md §2.3, §2.4).
const (
	maxSlotLeaders                  = 5000 // MAX_GET_SLOT_LEADERS
	delinquentValidatorSlotDistance = 128  // DELINQUENT_VALIDATOR_SLOT_DISTANCE
	maxEpochCreditsHistory          = 5    // MAX_RPC_VOTE_ACCOUNT_INFO_EPOCH_CREDITS_HISTORY
	// blockCommitmentLen is MAX_LOCKOUT_HISTORY + 1: one entry per confirmation count, then the rooted stake.
	blockCommitmentLen = vote.MaxLockoutHistory + 1
)

// newRateActivationEpoch is the epoch the reduced warmup/cooldown rate applies from: genesis, as in the ledger.
var newRateActivationEpoch = stake.PerpetualNewRateActivationEpoch

// leader is the identity that leads every slot of this chain.
func (s *Server) leader() core.Pubkey { return s.ledger.Genesis.Identity.PublicKey() }

// leaderScheduleKnown reports whether the node has a leader schedule for epoch. The reference computes schedules
// up to the leader-schedule epoch of its root bank (the epoch after the root's, while within the slot offset);
// later epochs are unknown.
func (s *Server) leaderScheduleKnown(epoch uint64) bool {
	_, _, root := s.ledger.Slots()
	schedule := s.ledger.EpochSchedule()
	return epoch <= schedule.GetLeaderScheduleEpoch(root)
}

func (s *Server) GetInflationGovernor(ctx context.Context, p *rpcapi.GetInflationGovernorParams) (r rpcapi.GetInflationGovernorResult, err error) {
	// The governor comes from genesis: every bank has the same one, whatever the commitment.
	i := s.ledger.Inflation()
	return rpcapi.InflationGovernor{Initial: rpcapi.Float(i.Initial), Terminal: rpcapi.Float(i.Terminal),
		Taper: rpcapi.Float(i.Taper), Foundation: rpcapi.Float(i.Foundation), FoundationTerm: rpcapi.Float(i.FoundationTerm)}, nil
}

// GetInflationRate gives the rates of the finalized bank's epoch. The reference counts the year from the first
// slot of the epoch (inflation starts at genesis here), as the rewards paid at the epoch's start do.
func (s *Server) GetInflationRate(ctx context.Context) (r rpcapi.GetInflationRateResult, err error) {
	bank := s.ledger.Bank(ledger.Finalized)
	schedule := s.ledger.EpochSchedule()
	year := ledger.YearOf(schedule.GetFirstSlotInEpoch(bank.Epoch))
	i := s.ledger.Inflation()
	return rpcapi.InflationRate{Total: rpcapi.Float(i.Total(year)), Validator: rpcapi.Float(i.Validator(year)),
		Foundation: rpcapi.Float(i.FoundationRate(year)), Epoch: bank.Epoch}, nil
}

// GetInflationReward reads the rewards of an epoch from the first block of the next one, in the reference's
// order of checks: the default epoch (the previous one) needs the bank at the commitment; then -32001 when that
// block is below the first block held, -32602 for processed, -32004 while no block of the next epoch is at the
// commitment, -32016, and -32018 when the block found does not start the epoch. Rewards are not partitioned here:
// the boundary block holds them all.
func (s *Server) GetInflationReward(ctx context.Context, p *rpcapi.GetInflationRewardParams) (r rpcapi.GetInflationRewardResult, err error) {
	addrs := p.Addresses
	cfg := p.Config.OrZero()
	schedule := s.ledger.EpochSchedule()
	var epoch uint64
	if cfg.Epoch != nil {
		epoch = *cfg.Epoch
	} else {
		bank, err := s.bankAt(cfg.Commitment, cfg.MinContextSlot)
		if err != nil {
			return r, err
		}
		epoch = max(schedule.GetEpoch(bank.Slot), 1) - 1
	}
	next := epoch
	if next < math.MaxUint64 {
		next++
	}
	firstSlot := schedule.GetFirstSlotInEpoch(next)
	if first := s.ledger.FirstAvailableBlock(); firstSlot < first && !s.ledger.HasArchive() {
		return r, rpcapi.NewBlockCleanedUpError(firstSlot, first)
	}
	ctxCfg := &rpcapi.ContextConfig{Commitment: cfg.Commitment, MinContextSlot: cfg.MinContextSlot}
	slots, err := s.blocksWithLimit(firstSlot, 1, ctxCfg)
	if err != nil {
		return r, err
	}
	if len(slots) == 0 {
		return r, rpcapi.NewBlockNotAvailableError(firstSlot)
	}
	boundary := slots[0]
	level, _ := historyCommitment(cfg.Commitment)
	info, found, err := s.ledger.Block(boundary, level)
	if boundary < s.ledger.FirstAvailableBlock() && s.ledger.HasArchive() {
		if info, err = s.archivedBlock(boundary); err != nil {
			return r, err
		}
		found = true
	}
	if err != nil || !found {
		return r, rpcapi.NewBlockNotAvailableError(boundary)
	}
	if info.ParentSlot >= firstSlot {
		return r, rpcapi.NewSlotNotEpochBoundaryError(boundary)
	}
	paid := map[core.Pubkey]ledger.Reward{}
	for _, rw := range info.Rewards {
		if rw.RewardType == "Staking" || rw.RewardType == "Voting" {
			paid[rw.Pubkey] = rw
		}
	}
	r = make(rpcapi.GetInflationRewardResult, len(addrs))
	for i, k := range addrs {
		rw, ok := paid[k]
		if !ok {
			continue
		}
		amount := uint64(rw.Lamports)
		if rw.Lamports < 0 {
			amount = uint64(-rw.Lamports)
		}
		r[i] = &rpcapi.InflationReward{Epoch: epoch, EffectiveSlot: boundary, Amount: amount, PostBalance: rw.PostBalance,
			Commission: rw.Commission}
	}
	return r, nil
}

// GetStakeActivation reports a stake account's activation in the bank's epoch. Like the reference since 1.17, it
// answers only for the current epoch: the account's delegation is today's, so older epochs cannot be told.
func (s *Server) GetStakeActivation(ctx context.Context, p *rpcapi.GetStakeActivationParams) (r rpcapi.GetStakeActivationResult, err error) {
	pk := p.Pubkey
	cfg := p.Config.OrZero()
	bank, err := s.bankAt(cfg.Commitment, cfg.MinContextSlot)
	if err != nil {
		return r, err
	}
	if cfg.Epoch != nil && *cfg.Epoch != bank.Epoch {
		return r, rpcapi.NewInvalidParamsError(fmt.Sprintf("Invalid param: epoch %d. Only the current epoch (%d) is supported",
			*cfg.Epoch, bank.Epoch))
	}
	acct, ok, err := bank.Account(pk)
	if err != nil {
		return r, err
	}
	if !ok {
		return r, rpcapi.NewInvalidParamsError("Invalid param: account not found")
	}
	st, err := stake.Decode(acct.Data)
	if err != nil {
		return r, rpcapi.NewInvalidParamsError("Invalid param: not a stake account")
	}
	if st.Kind != stake.StateInitialized && st.Kind != stake.StateStake {
		return r, rpcapi.NewInvalidParamsError("Invalid param: stake account not initialized")
	}
	state, active, inactive, err := stake.Activation(st, acct.Lamports, bank.Epoch, bank.StakeHistory(), &newRateActivationEpoch)
	if err != nil {
		return r, err
	}
	return rpcapi.StakeActivation{State: string(state), Active: active, Inactive: inactive}, nil
}

// GetStakeMinimumDelegation is the stake program's minimum: the raised (1 SOL) minimum is not active on this chain.
func (s *Server) GetStakeMinimumDelegation(ctx context.Context, p *rpcapi.GetStakeMinimumDelegationParams) (r rpcapi.GetStakeMinimumDelegationResult, err error) {
	bank, err := s.contextBank(p.Config)
	if err != nil {
		return r, err
	}
	return rpcapi.RpcResponseU64{Context: rpcContext(bank.Slot), Value: stake.MinimumDelegation(false)}, nil
}

// stakedVote is a vote account of a bank with the stake delegated to it that is effective in the bank's epoch.
type stakedVote struct {
	pubkey core.Pubkey
	state  *vote.State
	stake  uint64
}

// voteAccounts returns the bank's initialized vote accounts and their active stake, ordered by address. It is the
// reference's stakes cache: a vote account counts once its data is initialized, and each delegation adds its
// effective stake at the bank's epoch (through the bank's StakeHistory) to the vote account it names.
func voteAccounts(bank *ledger.Bank) ([]stakedVote, error) {
	history := bank.StakeHistory()
	delegated := map[core.Pubkey]uint64{}
	err := bank.ProgramAccounts(core.StakeProgramID, func(_ core.Pubkey, a runtime.Account) bool {
		if st, err := stake.Decode(a.Data); err == nil {
			if d, ok := st.Delegation(); ok {
				prev := delegated[d.VoterPubkey]
				sum := prev + d.EffectiveStake(bank.Epoch, history, &newRateActivationEpoch)
				if sum < prev {
					sum = math.MaxUint64
				}
				delegated[d.VoterPubkey] = sum
			}
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	var out []stakedVote
	err = bank.ProgramAccounts(core.VoteProgramID, func(k core.Pubkey, a runtime.Account) bool {
		if !vote.IsCorrectSizeAndInitialized(a.Data) {
			return true
		}
		if st, err := vote.Decode(a.Data); err == nil && !st.IsUninitialized() {
			out = append(out, stakedVote{pubkey: k, state: st, stake: delegated[k]})
		}
		return true
	})
	slices.SortFunc(out, func(a, b stakedVote) int { return a.pubkey.Compare(b.pubkey) })
	return out, err
}

// GetVoteAccounts splits the bank's vote accounts into current and delinquent by the slot of their last vote.
// A delinquent account without active stake is left out unless keepUnstakedDelinquents is set.
func (s *Server) GetVoteAccounts(ctx context.Context, p *rpcapi.GetVoteAccountsParams) (r rpcapi.GetVoteAccountsResult, err error) {
	cfg := p.Config.OrZero()
	only, err := decodedOptionalPubkey(cfg.VotePubkeyBytes())
	if err != nil {
		return r, err
	}
	bank := s.ledger.Bank(commitmentOf(cfg.Commitment))
	accounts, err := voteAccounts(bank)
	if err != nil {
		return r, err
	}
	distance := uint64(delinquentValidatorSlotDistance)
	if cfg.DelinquentSlotDistance != nil {
		distance = *cfg.DelinquentSlotDistance
	}
	keepUnstaked := cfg.KeepUnstakedDelinquents != nil && *cfg.KeepUnstakedDelinquents
	r = rpcapi.VoteAccountStatus{Current: []rpcapi.VoteAccountInfo{}, Delinquent: []rpcapi.VoteAccountInfo{}}
	for _, va := range accounts {
		if only != nil && va.pubkey != *only {
			continue
		}
		info := voteAccountInfo(va)
		info.EpochVoteAccount = s.inEpochVoteAccounts(bank.Epoch, va)
		// As the reference: within the distance of the bank's slot, or, while the chain is younger than the
		// distance, having voted at all.
		current := info.LastVote > 0
		if bank.Slot >= distance {
			current = info.LastVote > bank.Slot-distance
		}
		switch {
		case current:
			r.Current = append(r.Current, info)
		case keepUnstaked || info.ActivatedStake > 0:
			r.Delinquent = append(r.Delinquent, info)
		}
	}
	return r, nil
}

// inEpochVoteAccounts is getVoteAccounts' epochVoteAccount: whether the vote account is among the vote accounts of
// the epoch's stakes, those the epoch's leader schedule was computed from, staked or not. The reference takes the
// stakes of epochs 0 and 1 from genesis (both schedules are computed there), so for them these are the genesis
// vote accounts. Later epochs take them from the start of the previous epoch, which this node does not keep: there
// an account counts when it is a genesis one or holds stake effective in the epoch (an unstaked account created
// before that epoch's start is the case told apart wrongly).
func (s *Server) inEpochVoteAccounts(epoch uint64, va stakedVote) bool {
	if va.pubkey == s.ledger.VoteAccount() {
		return true
	}
	for _, a := range s.ledger.Genesis.Config.Accounts {
		if a.Pubkey == va.pubkey && a.Owner == core.VoteProgramID && vote.IsCorrectSizeAndInitialized(a.Data) {
			return true
		}
	}
	return epoch > 1 && va.stake > 0
}

// voteAccountInfo is one entry of getVoteAccounts, epochVoteAccount set from the stake alone (GetVoteAccounts
// sets it as the reference does). Since 4.1 the reference adds the commission in basis points next to the
// percentage; for a vote account of the current layout it is the percentage × 100.
func voteAccountInfo(va stakedVote) rpcapi.VoteAccountInfo {
	st := va.state
	lastVote, _ := st.LastVotedSlot()
	var root uint64
	if st.RootSlot != nil {
		root = *st.RootSlot
	}
	history := st.EpochCredits[max(len(st.EpochCredits), maxEpochCreditsHistory)-maxEpochCreditsHistory:]
	credits := make([][3]uint64, len(history))
	for i, c := range history {
		credits[i] = [3]uint64{c.Epoch, c.Credits, c.PrevCredits}
	}
	return rpcapi.VoteAccountInfo{
		VotePubkey:                    va.pubkey.String(),
		NodePubkey:                    st.NodePubkey.String(),
		ActivatedStake:                va.stake,
		EpochVoteAccount:              va.stake > 0,
		Commission:                    st.Commission,
		InflationRewardsCommissionBps: uint16(st.Commission) * 100,
		LastVote:                      lastVote,
		RootSlot:                      root,
		EpochCredits:                  credits,
	}
}

func (s *Server) GetSlotLeader(ctx context.Context, p *rpcapi.GetSlotLeaderParams) (r rpcapi.GetSlotLeaderResult, err error) {
	if _, err := s.contextBank(p.Config); err != nil {
		return r, err
	}
	return s.leader().String(), nil
}

// GetSlotLeaders lists the leader of each slot from startSlot on. Like the reference it walks the epochs of the
// range and fails at the first one without a leader schedule.
func (s *Server) GetSlotLeaders(ctx context.Context, p *rpcapi.GetSlotLeadersParams) (r rpcapi.GetSlotLeadersResult, err error) {
	if p.Limit > maxSlotLeaders {
		return r, rpcapi.NewInvalidParamsError(fmt.Sprintf("Invalid limit; max %d", maxSlotLeaders))
	}
	if p.Limit == 0 {
		return []rpcapi.Pubkey{}, nil
	}
	schedule := s.ledger.EpochSchedule()
	last := p.StartSlot + (p.Limit - 1)
	if last < p.StartSlot {
		last = math.MaxUint64
	}
	for epoch := schedule.GetEpoch(p.StartSlot); epoch <= schedule.GetEpoch(last); epoch++ {
		if !s.leaderScheduleKnown(epoch) {
			return r, rpcapi.NewInvalidParamsError(fmt.Sprintf("Invalid slot range: leader schedule for epoch %d is unavailable", epoch))
		}
	}
	leader := s.leader().String()
	r = make([]rpcapi.Pubkey, p.Limit)
	for i := range r {
		r[i] = leader
	}
	return r, nil
}

// GetLeaderSchedule maps each leader of the epoch holding slot (by default the bank's) to its slot indexes in the
// epoch; null for an epoch without a schedule, an empty map when the identity filter matches no leader.
func (s *Server) GetLeaderSchedule(ctx context.Context, p *rpcapi.GetLeaderScheduleParams) (r rpcapi.GetLeaderScheduleResult, err error) {
	cfg := p.Config.OrZero()
	only, err := decodedOptionalPubkey(cfg.IdentityBytes())
	if err != nil {
		return r, err
	}
	slot := p.Slot.Or(s.ledger.Bank(commitmentOf(cfg.Commitment)).Slot)
	schedule := s.ledger.EpochSchedule()
	epoch := schedule.GetEpoch(slot)
	if !s.leaderScheduleKnown(epoch) {
		return nil, nil
	}
	r = rpcapi.GetLeaderScheduleResult{}
	if leader := s.leader(); only == nil || *only == leader {
		indexes := make([]uint64, schedule.GetSlotsInEpoch(epoch))
		for i := range indexes {
			indexes[i] = uint64(i)
		}
		r[leader.String()] = indexes
	}
	return r, nil
}

// GetBlockCommitment aggregates, as the reference's commitment service does over the status-cache ancestors of
// the newest bank, the stake of each staked vote account's tower on slot: the stake of a tower whose root covers
// the slot goes to the last entry (rooted), otherwise to entry c-1 where c is the confirmation count of the oldest
// vote at or above the slot. commitment is null when no stake voted on the slot (newer than every vote) or the
// slot is older than the rooted slots the status cache keeps. totalStake is the epoch's active stake.
func (s *Server) GetBlockCommitment(ctx context.Context, p *rpcapi.GetBlockCommitmentParams) (r rpcapi.GetBlockCommitmentResult, err error) {
	bank := s.ledger.Bank(ledger.Processed)
	accounts, err := voteAccounts(bank)
	if err != nil {
		return r, err
	}
	_, _, root := s.ledger.Slots()
	lowest := uint64(0)
	if root > ledger.MaxRecentBlockhashes {
		lowest = root - ledger.MaxRecentBlockhashes
	}
	slot := p.Slot
	known := slot >= lowest && slot <= bank.Slot
	var commitment []uint64
	for _, va := range accounts {
		r.TotalStake += va.stake
		if va.stake == 0 || !known {
			continue
		}
		index, ok := commitmentIndex(va.state, slot)
		if !ok {
			continue
		}
		if commitment == nil {
			commitment = make([]uint64, blockCommitmentLen)
		}
		commitment[index] += va.stake
	}
	r.Commitment = commitment
	return r, nil
}

// commitmentIndex is where a tower puts its stake for slot: the rooted entry, or the confirmation count of the
// oldest vote at or above slot, less one.
func commitmentIndex(st *vote.State, slot uint64) (int, bool) {
	if st.RootSlot != nil && slot <= *st.RootSlot {
		return vote.MaxLockoutHistory, true
	}
	for _, v := range st.Votes {
		if v.Slot >= slot {
			if v.ConfirmationCount == 0 || v.ConfirmationCount > vote.MaxLockoutHistory {
				return 0, false
			}
			return int(v.ConfirmationCount) - 1, true
		}
	}
	return 0, false
}

// GetBlockProduction counts, over a slot range, the slots each leader was scheduled for and the blocks the bank's
// SlotHistory holds for them. The range must lie within the slot history: from its oldest slot to the bank's.
func (s *Server) GetBlockProduction(ctx context.Context, p *rpcapi.GetBlockProductionParams) (r rpcapi.GetBlockProductionResult, err error) {
	cfg := p.Config.OrZero()
	only, err := decodedOptionalPubkey(cfg.IdentityBytes())
	if err != nil {
		return r, err
	}
	bank := s.ledger.Bank(commitmentOf(cfg.Commitment))
	schedule := s.ledger.EpochSchedule()
	first, last := schedule.GetFirstSlotInEpoch(bank.Epoch), bank.Slot
	if cfg.Range != nil {
		first = cfg.Range.FirstSlot
		if cfg.Range.LastSlot != nil {
			last = *cfg.Range.LastSlot
		}
		if last < first {
			return r, rpcapi.NewInvalidParamsError(fmt.Sprintf("lastSlot, %d, cannot be less than firstSlot, %d", last, first))
		}
	}
	data, ok := bank.Env.Sysvar(core.SysvarSlotHistoryID)
	var history sysvar.SlotHistory
	if !ok || history.Unmarshal(data) != nil || history.NextSlot == 0 {
		return r, rpcapi.NewNoSlotHistoryError()
	}
	oldest := uint64(0)
	if history.NextSlot > sysvar.SlotHistoryMaxEntries {
		oldest = history.NextSlot - sysvar.SlotHistoryMaxEntries
	}
	newest := history.NextSlot - 1
	if first < oldest {
		return r, rpcapi.NewInvalidParamsError(fmt.Sprintf("firstSlot, %d, is too small; min %d", first, oldest))
	}
	if last > newest {
		return r, rpcapi.NewInvalidParamsError(fmt.Sprintf("lastSlot, %d, is too large; max %d", last, newest))
	}
	byIdentity := map[string][2]uint64{}
	if leader := s.leader(); only == nil || *only == leader {
		var produced uint64
		for slot := first; slot <= last; slot++ {
			if history.Check(slot) == sysvar.SlotFound {
				produced++
			}
		}
		byIdentity[leader.String()] = [2]uint64{last - first + 1, produced}
	}
	return rpcapi.GetBlockProductionResult{Context: rpcContext(bank.Slot), Value: rpcapi.BlockProduction{
		ByIdentity: byIdentity,
		Range:      rpcapi.BlockProductionRange{FirstSlot: first, LastSlot: last},
	}}, nil
}
