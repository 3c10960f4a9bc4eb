package vote

import (
	"encoding/binary"
	"strconv"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// accountParser shows vote accounts under jsonParsed as the reference's parse_vote does:
// {"type": "vote", "info": UiVoteState}, credits as decimal strings, every other number as a
// number.
var accountParser = &runtime.AccountParser{Program: "vote", Parse: parseVoteAccount}

func parseVoteAccount(_ core.Pubkey, data []byte, _ runtime.AccountLookup) (any, error) {
	s, err := Decode(data)
	if err != nil {
		return nil, err
	}
	votes := make([]any, len(s.Votes))
	for i, v := range s.Votes {
		votes[i] = map[string]any{"slot": v.Slot, "confirmationCount": v.ConfirmationCount}
	}
	voters := make([]any, len(s.AuthorizedVoters))
	for i, v := range s.AuthorizedVoters {
		voters[i] = map[string]any{"epoch": v.Epoch, "authorizedVoter": v.Pubkey.String()}
	}
	credits := make([]any, len(s.EpochCredits))
	for i, c := range s.EpochCredits {
		credits[i] = map[string]any{"epoch": c.Epoch, "credits": strconv.FormatUint(c.Credits, 10),
			"previousCredits": strconv.FormatUint(c.PrevCredits, 10)}
	}
	var root any
	if s.RootSlot != nil {
		root = *s.RootSlot
	}
	return map[string]any{"type": "vote", "info": map[string]any{
		"nodePubkey":           s.NodePubkey.String(),
		"authorizedWithdrawer": s.AuthorizedWithdrawer.String(),
		"commission":           s.Commission,
		"votes":                votes,
		"rootSlot":             root,
		"authorizedVoters":     voters,
		"priorVoters":          priorVoters(s, data),
		"epochCredits":         credits,
		"lastTimestamp":        map[string]any{"slot": s.LastTimestamp.Slot, "timestamp": s.LastTimestamp.Timestamp},
	}}, nil
}

// priorVoters lists the prior voters buffer in storage order (not the order they were
// replaced in), skipping unused entries, whose key is all zeros, as the reference does.
func priorVoters(s *State, data []byte) []any {
	out := []any{}
	add := func(k core.Pubkey, start, end uint64) {
		if k != (core.Pubkey{}) {
			out = append(out, map[string]any{"authorizedPubkey": k.String(),
				"epochOfLastAuthorizedSwitch": start, "targetEpoch": end})
		}
	}
	if s.Version != Version0_23_5 {
		for _, p := range s.PriorVoters.Buf {
			add(p.Pubkey, p.EpochStart, p.EpochEnd)
		}
		return out
	}
	// The 0.23.5 layout keeps (key, start, end, slot) entries after the tag, the node key, the
	// voter and its epoch; Decode does not carry them over, so they are read here (Decode
	// succeeded, so the data holds them).
	const at, entry = 4 + 32 + 32 + 8, 32 + 8 + 8 + 8
	for i := range MaxPriorVoters {
		b := data[at+i*entry:]
		add(core.Pubkey(b[:32]), binary.LittleEndian.Uint64(b[32:]), binary.LittleEndian.Uint64(b[40:]))
	}
	return out
}
