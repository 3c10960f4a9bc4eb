package ledger

import (
	"sync"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sat"
	"ledgerd/impl/programs/stake"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/runtime"
)

// epochStakes are the vote accounts' stakes of a bank's epoch, as the reference's epoch stakes hold them for
// sol_get_epoch_stake: the stakes of epoch E are the snapshot the bank took at the start of epoch E-1 (the
// leader schedule epoch is one ahead), each delegation counting its effective stake at E-1 towards an
// initialized vote account; epochs 0 and 1 hold the genesis stakes. They are computed on first use, once per
// bank. Delegations made or ended during the epoch do not change the stake effective at E-1, so any bank of
// epoch E computes the same values.
type epochStakes struct {
	once  sync.Once
	total uint64
	votes map[core.Pubkey]uint64
}

// epochStake is the bank's Env.EpochStake.
func (b *Bank) epochStake(voteAccount *core.Pubkey) uint64 {
	es := &b.epochStakes
	es.once.Do(func() { es.total, es.votes = computeEpochStakes(b) })
	if voteAccount == nil {
		return es.total
	}
	return es.votes[*voteAccount]
}

func computeEpochStakes(b *Bank) (uint64, map[core.Pubkey]uint64) {
	at := b.Epoch
	if at > 0 {
		at--
	}
	history := b.StakeHistory()
	delegated := map[core.Pubkey]uint64{}
	_ = b.ProgramAccounts(core.StakeProgramID, func(_ core.Pubkey, a runtime.Account) bool {
		if st, err := stake.Decode(a.Data); err == nil {
			if d, ok := st.Delegation(); ok {
				delegated[d.VoterPubkey] = sat.Add(delegated[d.VoterPubkey], d.EffectiveStake(at, history, &newRateActivationEpoch))
			}
		}
		return true
	})
	var total uint64
	votes := map[core.Pubkey]uint64{}
	_ = b.ProgramAccounts(core.VoteProgramID, func(k core.Pubkey, a runtime.Account) bool {
		if vote.IsCorrectSizeAndInitialized(a.Data) {
			votes[k] = delegated[k]
			total = sat.Add(total, delegated[k])
		}
		return true
	})
	return total, votes
}
