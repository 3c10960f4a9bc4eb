// Package sysvar is the module of the sysvar owner (Sysvar1111…), which owns every sysvar
// account but is no program: it only shows those accounts under jsonParsed, picking the layout
// by the account's address (core/sysvar holds the layouts themselves).
package sysvar

import (
	"errors"
	"math/big"
	"strconv"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/internal/jsonparsed"
	"ledgerd/impl/runtime"
)

// Module is the sysvar owner as the node assembles it.
var Module = runtime.Module{
	ID:           core.SysvarOwnerID,
	Name:         "sysvar",
	Kind:         runtime.AccountOwner,
	ParseAccount: &runtime.AccountParser{Program: "sysvar", Parse: parseSysvar},
}

// errUnknownSysvar: every sysvar shares one owner, so the address picks the layout, and
// addresses without a shown layout (Instructions, or any other account the owner holds) are
// not parsable.
var errUnknownSysvar = errors.New("unknown sysvar")

// errShortSlotHistory: a SlotHistory whose bit vector is shorter than SlotHistoryMaxEntries
// cannot be shown (the reference would index past its end).
var errShortSlotHistory = errors.New("slot history shorter than its window")

// sysvarParsers maps each sysvar address to the parser of its layout. The "type" names and
// field names are the reference's (camelCase of its Rust names).
var sysvarParsers = map[core.Pubkey]func([]byte) (any, error){
	sysvar.ClockID:             parseClock,
	sysvar.RentID:              parseRent,
	sysvar.EpochScheduleID:     parseEpochSchedule,
	sysvar.FeesID:              parseFees,
	sysvar.RecentBlockhashesID: parseRecentBlockhashes,
	sysvar.SlotHashesID:        parseSlotHashes,
	sysvar.StakeHistoryID:      parseStakeHistory,
	sysvar.SlotHistoryID:       parseSlotHistory,
	sysvar.EpochRewardsID:      parseEpochRewards,
	sysvar.LastRestartSlotID:   parseLastRestartSlot,
	sysvar.RewardsID:           parseRewards,
}

func parseSysvar(pubkey core.Pubkey, data []byte, _ runtime.AccountLookup) (any, error) {
	parse, ok := sysvarParsers[pubkey]
	if !ok {
		return nil, errUnknownSysvar
	}
	return parse(data)
}

func parseClock(data []byte) (any, error) {
	var c sysvar.Clock
	if err := c.Unmarshal(data); err != nil {
		return nil, err
	}
	return jsonparsed.Typed("clock", map[string]any{
		"slot":                c.Slot,
		"epoch":               c.Epoch,
		"epochStartTimestamp": c.EpochStartTimestamp,
		"leaderScheduleEpoch": c.LeaderScheduleEpoch,
		"unixTimestamp":       c.UnixTimestamp,
	}), nil
}

func parseRent(data []byte) (any, error) {
	var r sysvar.Rent
	if err := r.Unmarshal(data); err != nil {
		return nil, err
	}
	// Since 4.1 the reference reads the sysvar as SIMD-0194's Rent, whose only field is lamports per byte (the
	// threshold and burn percent are unused padding), and shows just that.
	return jsonparsed.Typed("rent", map[string]any{
		"lamportsPerByte": strconv.FormatUint(r.LamportsPerByteYear, 10),
	}), nil
}

func parseEpochSchedule(data []byte) (any, error) {
	var s sysvar.EpochSchedule
	if err := s.Unmarshal(data); err != nil {
		return nil, err
	}
	return jsonparsed.Typed("epochSchedule", map[string]any{
		"slotsPerEpoch":            s.SlotsPerEpoch,
		"leaderScheduleSlotOffset": s.LeaderScheduleSlotOffset,
		"warmup":                   s.Warmup,
		"firstNormalEpoch":         s.FirstNormalEpoch,
		"firstNormalSlot":          s.FirstNormalSlot,
	}), nil
}

func parseFees(data []byte) (any, error) {
	var f sysvar.Fees
	if err := f.Unmarshal(data); err != nil {
		return nil, err
	}
	return jsonparsed.Typed("fees", map[string]any{
		"feeCalculator": jsonparsed.FeeCalculator(f.FeeCalculator.LamportsPerSignature),
	}), nil
}

func parseRecentBlockhashes(data []byte) (any, error) {
	var rb sysvar.RecentBlockhashes
	if err := rb.Unmarshal(data); err != nil {
		return nil, err
	}
	entries := make([]any, len(rb))
	for i, e := range rb {
		entries[i] = map[string]any{
			"blockhash":     e.Blockhash.String(),
			"feeCalculator": jsonparsed.FeeCalculator(e.FeeCalculator.LamportsPerSignature),
		}
	}
	return jsonparsed.Typed("recentBlockhashes", entries), nil
}

func parseSlotHashes(data []byte) (any, error) {
	var sh sysvar.SlotHashes
	if err := sh.Unmarshal(data); err != nil {
		return nil, err
	}
	entries := make([]any, len(sh))
	for i, e := range sh {
		entries[i] = map[string]any{"slot": e.Slot, "hash": e.Hash.String()}
	}
	return jsonparsed.Typed("slotHashes", entries), nil
}

func parseStakeHistory(data []byte) (any, error) {
	var h sysvar.StakeHistory
	if err := h.Unmarshal(data); err != nil {
		return nil, err
	}
	entries := make([]any, len(h))
	for i, e := range h {
		entries[i] = map[string]any{
			"epoch": e.Epoch,
			"stakeHistory": map[string]any{
				"effective":    e.Entry.Effective,
				"activating":   e.Entry.Activating,
				"deactivating": e.Entry.Deactivating,
			},
		}
	}
	return jsonparsed.Typed("stakeHistory", entries), nil
}

// parseSlotHistory shows the bit vector as a string of SlotHistoryMaxEntries '0'/'1'
// characters, bit i (slot i modulo the window) at position i.
func parseSlotHistory(data []byte) (any, error) {
	var h sysvar.SlotHistory
	if err := h.Unmarshal(data); err != nil {
		return nil, err
	}
	const n = sysvar.SlotHistoryMaxEntries
	if h.BitLen < n || uint64(len(h.Bits)) < n/64 {
		return nil, errShortSlotHistory
	}
	bits := make([]byte, n)
	for i := range bits {
		bits[i] = '0' + byte(h.Bits[i/64]>>(i%64)&1)
	}
	return jsonparsed.Typed("slotHistory", map[string]any{
		"nextSlot": h.NextSlot,
		"bits":     string(bits),
	}), nil
}

func parseEpochRewards(data []byte) (any, error) {
	var e sysvar.EpochRewards
	if err := e.Unmarshal(data); err != nil {
		return nil, err
	}
	totalPoints := new(big.Int).SetUint64(e.TotalPoints.Hi)
	totalPoints.Lsh(totalPoints, 64).Or(totalPoints, new(big.Int).SetUint64(e.TotalPoints.Lo))
	return jsonparsed.Typed("epochRewards", map[string]any{
		"distributionStartingBlockHeight": e.DistributionStartingBlockHeight,
		"numPartitions":                   e.NumPartitions,
		"parentBlockhash":                 e.ParentBlockhash.String(),
		"totalPoints":                     totalPoints.String(),
		"totalRewards":                    strconv.FormatUint(e.TotalRewards, 10),
		"distributedRewards":              strconv.FormatUint(e.DistributedRewards, 10),
		"active":                          e.Active,
	}), nil
}

func parseLastRestartSlot(data []byte) (any, error) {
	var l sysvar.LastRestartSlot
	if err := l.Unmarshal(data); err != nil {
		return nil, err
	}
	return jsonparsed.Typed("lastRestartSlot", map[string]any{"lastRestartSlot": l.LastRestartSlot}), nil
}

// parseRewards: the deprecated Rewards sysvar, which the reference still shows.
func parseRewards(data []byte) (any, error) {
	var r sysvar.Rewards
	if err := r.Unmarshal(data); err != nil {
		return nil, err
	}
	return jsonparsed.Typed("rewards", map[string]any{"validatorPointValue": rpcapi.Float(r.ValidatorPointValue)}), nil
}
