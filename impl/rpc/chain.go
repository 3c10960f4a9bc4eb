package rpc

import (
	"context"
	"fmt"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/alt"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/nonce"
)

// Limits of the chain methods, as the reference has them (docs/reference-behaviour.md §2.3).
const (
	performanceSamplesLimit = ledger.PerfSamplesLimit
)

// contextBank is bankAt for an optional ContextConfig.
func (s *Server) contextBank(o rpcapi.Opt[rpcapi.ContextConfig]) (*ledger.Bank, error) {
	cfg := o.OrZero()
	return s.bankAt(cfg.Commitment, cfg.MinContextSlot)
}

// commitmentBank is the bank of an optional CommitmentConfig (methods without minContextSlot).
func (s *Server) commitmentBank(cfg *rpcapi.CommitmentConfig) *ledger.Bank {
	if cfg == nil {
		return s.ledger.Bank(ledger.Finalized)
	}
	return s.ledger.Bank(commitmentOf(cfg.Commitment))
}

func (s *Server) GetBlockHeight(ctx context.Context, p *rpcapi.GetBlockHeightParams) (r rpcapi.GetBlockHeightResult, err error) {
	bank, err := s.contextBank(p.Config)
	if err != nil {
		return r, err
	}
	return bank.BlockHeight, nil
}

func (s *Server) GetSlot(ctx context.Context, p *rpcapi.GetSlotParams) (r rpcapi.GetSlotResult, err error) {
	bank, err := s.contextBank(p.Config)
	if err != nil {
		return r, err
	}
	return bank.Slot, nil
}

// GetMaxRetransmitSlot is the processed slot: this node makes every slot itself, so the newest slot the
// reference's retransmit stage would have seen is its own working slot.
func (s *Server) GetMaxRetransmitSlot(ctx context.Context) (r rpcapi.GetMaxRetransmitSlotResult, err error) {
	processed, _, _ := s.ledger.Slots()
	return processed, nil
}

// GetMaxShredInsertSlot is the processed slot, for the same reason as GetMaxRetransmitSlot.
func (s *Server) GetMaxShredInsertSlot(ctx context.Context) (r rpcapi.GetMaxShredInsertSlotResult, err error) {
	processed, _, _ := s.ledger.Slots()
	return processed, nil
}

func (s *Server) GetEpochInfo(ctx context.Context, p *rpcapi.GetEpochInfoParams) (r rpcapi.GetEpochInfoResult, err error) {
	bank, err := s.contextBank(p.Config)
	if err != nil {
		return r, err
	}
	schedule := bank.Env.EpochSchedule
	epoch, index := schedule.GetEpochAndSlotIndex(bank.Slot)
	count := bank.TransactionCount()
	return rpcapi.EpochInfo{
		AbsoluteSlot:     bank.Slot,
		BlockHeight:      bank.BlockHeight,
		Epoch:            epoch,
		SlotIndex:        index,
		SlotsInEpoch:     schedule.GetSlotsInEpoch(epoch),
		TransactionCount: &count,
	}, nil
}

func (s *Server) GetEpochSchedule(ctx context.Context) (r rpcapi.GetEpochScheduleResult, err error) {
	e := s.ledger.EpochSchedule()
	return rpcapi.EpochSchedule{
		SlotsPerEpoch:            e.SlotsPerEpoch,
		LeaderScheduleSlotOffset: e.LeaderScheduleSlotOffset,
		Warmup:                   e.Warmup,
		FirstNormalEpoch:         e.FirstNormalEpoch,
		FirstNormalSlot:          e.FirstNormalSlot,
	}, nil
}

func (s *Server) GetTransactionCount(ctx context.Context, p *rpcapi.GetTransactionCountParams) (r rpcapi.GetTransactionCountResult, err error) {
	bank, err := s.contextBank(p.Config)
	if err != nil {
		return r, err
	}
	return bank.TransactionCount(), nil
}

func (s *Server) GetLatestBlockhash(ctx context.Context, p *rpcapi.GetLatestBlockhashParams) (r rpcapi.GetLatestBlockhashResult, err error) {
	bank, err := s.contextBank(p.Config)
	if err != nil {
		return r, err
	}
	h := bank.LastBlockhash()
	return rpcapi.GetLatestBlockhashResult{Context: rpcContext(bank.Slot), Value: rpcapi.RpcBlockhash{
		Blockhash:            h.String(),
		LastValidBlockHeight: lastValidBlockHeight(bank, h),
	}}, nil
}

// lastValidBlockHeight is the last valid block height of the bank's own blockhash. The bank's queue always
// holds it (the reference asserts so); should it not, the hash is taken as new.
func lastValidBlockHeight(bank *ledger.Bank, h core.Hash) uint64 {
	if height, ok := bank.LastValidBlockHeight(h); ok {
		return height
	}
	return bank.BlockHeight + ledger.MaxProcessingAge
}

func (s *Server) IsBlockhashValid(ctx context.Context, p *rpcapi.IsBlockhashValidParams) (r rpcapi.IsBlockhashValidResult, err error) {
	h, err := parseBlockhash(p.Blockhash)
	if err != nil {
		return r, err
	}
	bank, err := s.contextBank(p.Config)
	if err != nil {
		return r, err
	}
	_, valid := bank.BlockhashValid(h)
	return rpcapi.IsBlockhashValidResult{Context: rpcContext(bank.Slot), Value: valid}, nil
}

// parseBlockhash decodes a blockhash parameter; the reference reports its parse error with no prefix.
func parseBlockhash(s string) (core.Hash, error) {
	h, err := core.ParseHash(s)
	if err != nil {
		return h, rpcapi.NewInvalidParamsError(err.Error())
	}
	return h, nil
}

// GetFeeForMessage charges the message as the runtime would in the bank: lamports per signature for each
// signature (precompile ones included) plus the prioritization fee of its compute budget. The value is null
// when the message's blockhash is neither valid in the bank nor the value of a durable nonce it advances.
func (s *Server) GetFeeForMessage(ctx context.Context, p *rpcapi.GetFeeForMessageParams) (r rpcapi.GetFeeForMessageResult, err error) {
	enc := "base64" // whatever the client sends, as the reference does
	raw, err := decodeWire(p.Message, &enc, core.VersionedMessageTypeName)
	if err != nil {
		return r, err
	}
	m, err := core.DecodeMessage(raw)
	if err != nil {
		return r, rpcapi.NewInvalidParamsError(fmt.Sprintf("failed to deserialize %s: %v", core.VersionedMessageTypeName, err))
	}
	bank, err := s.contextBank(p.Config)
	if err != nil {
		return r, err
	}
	if err := m.Sanitize(); err != nil {
		return r, rpcapi.NewInvalidParamsError("invalid transaction message: " + err.Error())
	}
	loaded, terr := bank.LoadAddresses(m)
	if terr != nil {
		return r, rpcapi.NewInvalidParamsError("invalid transaction message: " + alt.AddressLoaderErrorText(terr))
	}
	r.Context = rpcContext(bank.Slot)
	lamportsPerSignature, ok := bank.LamportsPerSignatureFor(m.RecentBlockhash)
	if !ok {
		if lamportsPerSignature, ok = durableNonceRate(bank, m, loaded); !ok {
			return r, nil
		}
	}
	// A message whose compute budget instructions are invalid is charged the default budget (no priority fee),
	// as the reference's fee calculation does.
	budget, terr := runtime.ComputeBudgetFromMessage(m)
	if terr != nil {
		budget = runtime.ComputeBudget{}
	}
	fee := runtime.CalculateFee(&core.Transaction{Message: *m}, budget, bank.Env.LamportsPerSignature).Total()
	if lamportsPerSignature == 0 {
		fee = 0
	}
	r.Value = &fee
	return r, nil
}

// durableNonceRate returns the fee rate recorded in the durable nonce that m's first instruction advances, when
// m's blockhash is that nonce's value and an instruction signer is its authority (the reference's
// load_message_nonce_account).
func durableNonceRate(bank *ledger.Bank, m *core.Message, loaded *core.LoadedAddresses) (uint64, bool) {
	if !m.UsesDurableNonce() || len(m.Instructions[0].Accounts) == 0 {
		return 0, false
	}
	ix := &m.Instructions[0]
	keys := m.FullAccountKeys(loaded)
	idx := int(ix.Accounts[0])
	if idx >= len(keys) || !m.IsWritableLoaded(idx, loaded) {
		return 0, false
	}
	acct, ok := bank.GetAccount(keys[idx])
	if !ok {
		return 0, false
	}
	data, ok := nonce.Verify(acct.Owner, acct.Data, m.RecentBlockhash)
	if !ok {
		return 0, false
	}
	for _, a := range ix.Accounts {
		if m.IsSigner(int(a)) && keys[a] == data.Authority {
			return data.LamportsPerSignature, true
		}
	}
	return 0, false
}

func (s *Server) GetRecentPrioritizationFees(ctx context.Context, p *rpcapi.GetRecentPrioritizationFeesParams) (r rpcapi.GetRecentPrioritizationFeesResult, err error) {
	fees := s.ledger.RecentPrioritizationFees(p.Addresses.OrZero())
	out := make([]rpcapi.RpcPrioritizationFee, len(fees))
	for i, f := range fees {
		out[i] = rpcapi.RpcPrioritizationFee{Slot: f.Slot, PrioritizationFee: f.Fee}
	}
	return out, nil
}

func (s *Server) GetRecentPerformanceSamples(ctx context.Context, p *rpcapi.GetRecentPerformanceSamplesParams) (r rpcapi.GetRecentPerformanceSamplesResult, err error) {
	limit := p.Limit.Or(uint64(performanceSamplesLimit))
	if limit > performanceSamplesLimit {
		return r, rpcapi.NewInvalidParamsError(fmt.Sprintf("Invalid limit; max %d", performanceSamplesLimit))
	}
	samples := s.ledger.PerformanceSamples(int(limit))
	out := make([]rpcapi.PerfSample, len(samples))
	for i, smp := range samples {
		nonVote := smp.NumNonVoteTransactions
		out[i] = rpcapi.PerfSample{
			Slot:                   smp.Slot,
			NumTransactions:        smp.NumTransactions,
			NumNonVoteTransactions: &nonVote,
			NumSlots:               smp.NumSlots,
			SamplePeriodSecs:       smp.SamplePeriodSecs,
		}
	}
	return out, nil
}

// GetFeeCalculatorForBlockhash (deprecated) answers null for a blockhash that is no longer valid in the bank.
func (s *Server) GetFeeCalculatorForBlockhash(ctx context.Context, p *rpcapi.GetFeeCalculatorForBlockhashParams) (r rpcapi.GetFeeCalculatorForBlockhashResult, err error) {
	h := p.Blockhash
	bank, err := s.contextBank(p.Config)
	if err != nil {
		return r, err
	}
	r.Context = rpcContext(bank.Slot)
	if lamportsPerSignature, ok := bank.LamportsPerSignatureFor(h); ok {
		r.Value = &rpcapi.GetFeeCalculatorForBlockhashValue{FeeCalculator: rpcapi.FeeCalculator{LamportsPerSignature: lamportsPerSignature}}
	}
	return r, nil
}

// GetFeeRateGovernor (deprecated) reports the governor of the root bank. Its bounds are the derived ones every
// bank after genesis carries (half and ten times the target), which the genesis governor leaves at zero.
func (s *Server) GetFeeRateGovernor(ctx context.Context) (r rpcapi.GetFeeRateGovernorResult, err error) {
	bank := s.ledger.Bank(ledger.Finalized)
	g := s.ledger.FeeRateGovernor()
	return rpcapi.GetFeeRateGovernorResult{Context: rpcContext(bank.Slot), Value: rpcapi.GetFeeRateGovernorValue{
		FeeRateGovernor: rpcapi.FeeRateGovernor{
			BurnPercent:                g.BurnPercent,
			MaxLamportsPerSignature:    g.MaxLamportsPerSignature,
			MinLamportsPerSignature:    g.MinLamportsPerSignature,
			TargetLamportsPerSignature: g.TargetLamportsPerSignature,
			TargetSignaturesPerSlot:    g.TargetSignaturesPerSlot,
		},
	}}, nil
}

// GetFees (deprecated) reports the bank's blockhash with its fee rate and validity. lastValidSlot is computed as
// the reference does, from the slot and the whole queue's age limit (300), which is why it is "inaccurate".
func (s *Server) GetFees(ctx context.Context, p *rpcapi.GetFeesParams) (r rpcapi.GetFeesResult, err error) {
	bank := s.commitmentBank(commitmentConfig(p.Config))
	h := bank.LastBlockhash()
	lastHeight := lastValidBlockHeight(bank, h)
	age := bank.BlockHeight + ledger.MaxProcessingAge - lastHeight
	return rpcapi.GetFeesResult{Context: rpcContext(bank.Slot), Value: rpcapi.GetFeesValue{
		Blockhash:            h.String(),
		FeeCalculator:        rpcapi.FeeCalculator{LamportsPerSignature: blockhashRate(bank, h)},
		LastValidSlot:        bank.Slot + ledger.MaxRecentBlockhashes - age,
		LastValidBlockHeight: lastHeight,
	}}, nil
}

// GetRecentBlockhash (deprecated) reports the bank's blockhash with its fee rate.
func (s *Server) GetRecentBlockhash(ctx context.Context, p *rpcapi.GetRecentBlockhashParams) (r rpcapi.GetRecentBlockhashResult, err error) {
	bank := s.commitmentBank(commitmentConfig(p.Config))
	h := bank.LastBlockhash()
	return rpcapi.GetRecentBlockhashResult{Context: rpcContext(bank.Slot), Value: rpcapi.GetRecentBlockhashValue{
		Blockhash:     h.String(),
		FeeCalculator: rpcapi.FeeCalculator{LamportsPerSignature: blockhashRate(bank, h)},
	}}, nil
}

// blockhashRate is the fee rate recorded with the bank's own blockhash (the bank's rate should it be missing).
func blockhashRate(bank *ledger.Bank, h core.Hash) uint64 {
	if lamportsPerSignature, ok := bank.LamportsPerSignatureFor(h); ok {
		return lamportsPerSignature
	}
	return bank.Env.LamportsPerSignature
}

// MinimumLedgerSlot is the oldest slot the ledger holds, which is its first block: every slot has a block.
func (s *Server) MinimumLedgerSlot(ctx context.Context) (r rpcapi.MinimumLedgerSlotResult, err error) {
	return s.ledger.FirstAvailableBlock(), nil
}

func (s *Server) GetFirstAvailableBlock(ctx context.Context) (r rpcapi.GetFirstAvailableBlockResult, err error) {
	return s.ledger.FirstAvailableBlockWithArchive(), nil
}
