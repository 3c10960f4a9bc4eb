package vote

import (
	"encoding/binary"
	"strconv"

	"ledgerd/impl/core"
	"ledgerd/impl/core/bincode"
	"ledgerd/impl/runtime"
)

// accountParser shows vote accounts under jsonParsed as the reference's parse_vote does:
// {"type": "vote", "info": UiVoteState}, credits as decimal strings, every other number as a
// number.
var accountParser = &runtime.AccountParser{Program: "vote", Parse: parseVoteAccount}

func parseVoteAccount(_ core.Pubkey, data []byte, _ runtime.AccountLookup) (any, error) {
	var s *State
	var err error
	if len(data) >= 4 && Version(binary.LittleEndian.Uint32(data)) == versionV4 {
		s, err = decodeV4(data)
	} else {
		s, err = Decode(data)
	}
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
	if s.Version == versionV4 {
		return out // V4 keeps no prior voters
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

// versionV4 is the VoteStateVersions tag of the SIMD-0185 layout, which ledgerd's vote program
// does not write but accounts loaded into a chain may hold; only the parser reads it.
const versionV4 Version = 3

// blsPubkeySize is the size of V4's optional compressed BLS public key.
const blsPubkeySize = 48

// decodeV4 reads a V4 vote state into the fields the parser shows: commission is the
// inflation rewards commission in basis points divided by 100, cast to a byte as the reference
// casts it; the collectors, block revenue commission, pending rewards and BLS key are read past.
func decodeV4(data []byte) (*State, error) {
	r := bincode.NewReader(data)
	r.U32()
	s := &State{Version: versionV4}
	s.NodePubkey = r.Pubkey()
	s.AuthorizedWithdrawer = r.Pubkey()
	r.Pubkey() // inflation rewards collector
	r.Pubkey() // block revenue collector
	bps := uint16(r.U8()) | uint16(r.U8())<<8
	s.Commission = uint8(bps / 100)
	r.Skip(2 + 8)   // block revenue commission, pending delegator rewards
	switch r.U8() { // Option<[u8; 48]>
	case 0:
	case 1:
		r.Skip(blsPubkeySize)
	default:
		r.Fail()
	}
	s.Votes = decodeLockouts(r, true)
	s.RootSlot = r.OptU64()
	for range r.SeqLen(40) {
		e := r.U64()
		s.insertVoter(e, r.Pubkey())
	}
	s.EpochCredits = decodeEpochCredits(r)
	s.LastTimestamp = BlockTimestamp{Slot: r.U64(), Timestamp: r.I64()}
	if r.Err() != nil {
		return nil, ErrInvalidAccountData
	}
	return s, nil
}
