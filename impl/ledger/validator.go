package ledger

import (
	"math"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/stake"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/runtime"
)

// The node is the validator of its own chain: it votes for every slot it produces (a TowerSync transaction in
// the next block, paid by its identity), and at each epoch boundary it records the epoch's stake history and
// pays the epoch's inflation to stake and vote accounts by their earned credits.

// metaStakeHistory holds the StakeHistory sysvar, written with the block that changed it.
const metaStakeHistory = "ledger.stake-history"

// newRateActivationEpoch: the reduced warmup/cooldown rate is active from genesis, as on current clusters.
var newRateActivationEpoch = stake.PerpetualNewRateActivationEpoch

// validatorAccounts are the vote account and bootstrap stake account of a new chain.
func validatorAccounts(g *Genesis, rent *sysvar.Rent) []GenesisAccount {
	id, votePK := g.Identity.PublicKey(), g.Vote.PublicKey()
	// As the reference's genesis, the vote account is its own voter and withdrawer; the node signs its votes with
	// the vote account's keypair.
	voteAcct := vote.NewAccount(vote.VoteInit{NodePubkey: id, AuthorizedVoter: votePK, AuthorizedWithdrawer: votePK,
		Commission: g.Config.VoteCommission}, 0, vote.RentExemptReserve(*rent))
	state, _ := vote.Decode(voteAcct.Data)
	// The bootstrap stake account is its own staker and withdrawer, as the reference's genesis makes it.
	stakeAcct := stake.NewBootstrapAccount(g.Stake.PublicKey(), votePK, state, *rent, g.Config.StakeLamports)
	out := []GenesisAccount{
		{Pubkey: votePK, Lamports: voteAcct.Lamports, Owner: voteAcct.Owner, RentEpoch: voteAcct.RentEpoch, Data: voteAcct.Data},
	}
	if g.Config.StakeLamports > 0 {
		out = append(out, GenesisAccount{Pubkey: g.Stake.PublicKey(), Lamports: stakeAcct.Lamports, Owner: stakeAcct.Owner,
			RentEpoch: stakeAcct.RentEpoch, Data: stakeAcct.Data})
	}
	return out
}

// VoteAccount is the validator's vote account.
func (l *Ledger) VoteAccount() core.Pubkey { return l.Genesis.Vote.PublicKey() }

// StakeAccount is the validator's bootstrap stake account.
func (l *Ledger) StakeAccount() core.Pubkey { return l.Genesis.Stake.PublicKey() }

// Inflation is the chain's inflation governor.
func (l *Ledger) Inflation() Inflation { return l.Genesis.Config.Inflation }

// StakeHistory is the StakeHistory sysvar of bank b.
func (b *Bank) StakeHistory() sysvar.StakeHistory {
	var h sysvar.StakeHistory
	if d, ok := b.Env.Sysvar(core.SysvarStakeHistoryID); ok {
		_ = h.Unmarshal(d)
	}
	return h
}

// loadTower reads the node's local tower from its vote account in bank b.
func (l *Ledger) loadTower(b *Bank) {
	if l.cfg.Replica { // a follower replays its leader's votes and casts none
		return
	}
	if a, ok := b.GetAccount(l.VoteAccount()); ok {
		if st, err := vote.Decode(a.Data); err == nil {
			l.tower = st
		}
	}
}

// castVote executes, in the working bank, the node's vote for the frozen bank voted (a TowerSync for its slot
// and hash). Only the producer calls it.
func (l *Ledger) castVote(voted *Bank) {
	if l.tower == nil {
		return
	}
	l.tower.ProcessNextVoteSlot(voted.Slot, voted.Epoch, voted.Slot)
	ts := voted.BlockTime
	// The voter is the vote account itself on chains made as the reference makes them, the identity on older
	// ledgers of this node.
	voter, signers := l.Genesis.Identity.PublicKey(), []core.Keypair{l.Genesis.Identity}
	if k, ok := l.tower.AuthorizedVoter(voted.Epoch); ok && k == l.VoteAccount() {
		voter, signers = k, append(signers, l.Genesis.Vote)
	}
	ix, err := vote.TowerSyncIx(l.VoteAccount(), voter, vote.TowerSyncFrom(l.tower, voted.Hash, voted.Hash, &ts))
	if err != nil {
		l.log.Warn("building the vote failed", "slot", voted.Slot, "err", err)
		return
	}
	tx, err := core.NewTransaction(l.Genesis.Identity.PublicKey(), []core.Instruction{ix}, voted.Hash, signers...)
	if err != nil {
		l.log.Warn("signing the vote failed", "slot", voted.Slot, "err", err)
		return
	}
	s := &submission{tx: tx, result: make(chan *Executed, 1)}
	l.execute(s)
	if r := <-s.result; r.err != nil {
		l.log.Debug("vote refused", "slot", voted.Slot, "err", r.err) // the store's fault is logged once
	} else if r.Result.Err != nil {
		l.log.Debug("vote failed", "slot", voted.Slot, "err", r.Result.Err)
	}
}

// beginEpoch runs at the first bank of a new epoch: it adds the finished epoch to the stake history and pays
// that epoch's inflation rewards into the bank, recording them as the block's Staking and Voting rewards.
func (l *Ledger) beginEpoch(b *Bank) {
	finished := b.Epoch - 1
	type delegated struct {
		key   core.Pubkey
		acct  runtime.Account
		state stake.State
	}
	var stakes []delegated
	var delegations []stake.Delegation
	_ = b.ProgramAccounts(core.StakeProgramID, func(k core.Pubkey, a runtime.Account) bool {
		st, err := stake.Decode(a.Data)
		if err != nil {
			return true
		}
		if d, ok := st.Delegation(); ok {
			stakes = append(stakes, delegated{k, a, st})
			delegations = append(delegations, d)
		}
		return true
	})
	history := b.StakeHistory()
	history.Add(finished, stake.HistoryEntry(finished, delegations, history, &newRateActivationEpoch))
	data := history.AccountData()
	l.baseEnv.SysvarData[core.SysvarStakeHistoryID] = data
	b.Env.SysvarData[core.SysvarStakeHistoryID] = data
	b.stakeHistory = data

	// Rewards: the epoch's share of the validator inflation, split by points (stake x credits earned).
	inflation := l.Inflation()
	firstSlot := l.schedule.GetFirstSlotInEpoch(b.Epoch)
	years := float64(l.schedule.GetSlotsInEpoch(finished)) / SlotsPerYear
	total := inflation.Validator(YearOf(firstSlot)) * float64(b.Capitalization()) * years
	if total <= 0 || len(stakes) == 0 {
		return
	}
	votes := map[core.Pubkey]*vote.State{}
	voteAccts := map[core.Pubkey]runtime.Account{}
	voteState := func(k core.Pubkey) *vote.State {
		if st, ok := votes[k]; ok {
			return st
		}
		a, ok := b.GetAccount(k)
		var st *vote.State
		if ok && a.Owner == core.VoteProgramID {
			st, _ = vote.Decode(a.Data)
		}
		votes[k], voteAccts[k] = st, a
		return st
	}
	var points sysvar.Uint128
	for _, s := range stakes {
		if vs := voteState(s.state.Stake.Delegation.VoterPubkey); vs != nil {
			points = addU128(points, stake.CalculatePoints(s.state, vs, history, &newRateActivationEpoch))
		}
	}
	if points == (sysvar.Uint128{}) {
		return
	}
	pv := stake.PointValue{Rewards: uint64(math.Min(total, math.MaxUint64/2)), Points: points}
	var writes []runtime.AccountWrite
	var paid uint64
	for _, s := range stakes {
		voter := s.state.Stake.Delegation.VoterPubkey
		vs := voteState(voter)
		if vs == nil {
			continue
		}
		r, ok := stake.RedeemRewards(finished, s.state, vs, pv, history, &newRateActivationEpoch)
		if !ok {
			continue
		}
		acct := s.acct
		acct.Lamports += r.Staker
		acct.Data = r.State.AccountData()
		writes = append(writes, runtime.AccountWrite{Pubkey: s.key, Account: acct})
		commission := vs.Commission
		if r.Staker > 0 {
			b.rewards = append(b.rewards, Reward{Pubkey: s.key, Lamports: int64(r.Staker), PostBalance: acct.Lamports,
				RewardType: "Staking", Commission: &commission})
		}
		if r.Voter > 0 {
			va := voteAccts[voter]
			va.Lamports += r.Voter
			voteAccts[voter] = va
			writes = append(writes, runtime.AccountWrite{Pubkey: voter, Account: va})
			b.rewards = append(b.rewards, Reward{Pubkey: voter, Lamports: int64(r.Voter), PostBalance: va.Lamports,
				RewardType: "Voting", Commission: &commission})
		}
		paid += r.Staker + r.Voter
	}
	b.apply(writes)
	b.mu.Lock()
	b.capital += paid
	b.mu.Unlock()
}

func addU128(a, b sysvar.Uint128) sysvar.Uint128 {
	lo := a.Lo + b.Lo
	hi := a.Hi + b.Hi
	if lo < a.Lo {
		hi++
	}
	return sysvar.Uint128{Lo: lo, Hi: hi}
}

// InflationRewards returns the rewards paid for epoch (in the first block of the next epoch) and that block's
// slot; found is false while that block is not at commitment c.
func (l *Ledger) InflationRewards(epoch uint64, c Commitment) ([]Reward, uint64, bool, error) {
	slot := l.schedule.GetFirstSlotInEpoch(epoch + 1)
	info, found, err := l.Block(slot, c)
	if err != nil || !found {
		return nil, slot, false, err
	}
	return info.Rewards, slot, true, nil
}
