package vote

import (
	"encoding/binary"
	"strconv"

	"github.com/mr-tron/base58"

	"ledgerd/impl/core"
	"ledgerd/impl/core/bincode"
	"ledgerd/impl/runtime"
)

// accountParser shows vote accounts under jsonParsed as the reference's parse_vote does:
// {"type": "vote", "info": UiVoteState}, credits and pending rewards as decimal strings, every
// other number as a number.
var accountParser = &runtime.AccountParser{Program: "vote", Parse: parseVoteAccount}

// stateV4 is a vote state as the reference's parser sees every layout: read into SIMD-0185's V4
// fields, whatever version the account holds (VoteStateV4::deserialize).
type stateV4 struct {
	State
	InflationRewardsCollector     core.Pubkey
	BlockRevenueCollector         core.Pubkey
	InflationRewardsCommissionBps uint16
	BlockRevenueCommissionBps     uint16
	PendingDelegatorRewards       uint64
	BLSPubkeyCompressed           *[blsPubkeySize]byte
}

// parseVoteAccount shows every vote state in the V4 shape, as the reference's parser does since
// it reads all of them as V4: a 1.14.11 or V3 state gets the defaults SIMD-0185 gives an account
// converted to V4 (inflation rewards to the vote account itself at the commission in basis points,
// block revenue to the node at 100%, nothing pending, no BLS key), loses its prior voters, and its
// votes read with latency 0 where the layout has none. The 0.23.5 layout is not parsable there
// (VoteStateV4 refuses it), so such an account falls back to base64.
func parseVoteAccount(pubkey core.Pubkey, data []byte, _ runtime.AccountLookup) (any, error) {
	s, err := decodeAsV4(pubkey, data)
	if err != nil {
		return nil, err
	}
	votes := make([]any, len(s.Votes))
	for i, v := range s.Votes {
		votes[i] = map[string]any{"latency": v.Latency, "slot": v.Slot, "confirmationCount": v.ConfirmationCount}
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
	var root, bls any
	if s.RootSlot != nil {
		root = *s.RootSlot
	}
	if s.BLSPubkeyCompressed != nil {
		bls = base58.Encode(s.BLSPubkeyCompressed[:])
	}
	return map[string]any{"type": "vote", "info": map[string]any{
		"nodePubkey":           s.NodePubkey.String(),
		"authorizedWithdrawer": s.AuthorizedWithdrawer.String(),
		// The percentage older clients read: the basis points over 100, cast to a byte as the
		// reference casts it (a V4 account may hold more than 25,500).
		"commission":                    uint8(s.InflationRewardsCommissionBps / 100),
		"votes":                         votes,
		"rootSlot":                      root,
		"authorizedVoters":              voters,
		"priorVoters":                   []any{}, // V4 keeps none
		"epochCredits":                  credits,
		"lastTimestamp":                 map[string]any{"slot": s.LastTimestamp.Slot, "timestamp": s.LastTimestamp.Timestamp},
		"inflationRewardsCommissionBps": s.InflationRewardsCommissionBps,
		"inflationRewardsCollector":     s.InflationRewardsCollector.String(),
		"blockRevenueCollector":         s.BlockRevenueCollector.String(),
		"blockRevenueCommissionBps":     s.BlockRevenueCommissionBps,
		"pendingDelegatorRewards":       strconv.FormatUint(s.PendingDelegatorRewards, 10),
		"blsPubkeyCompressed":           bls,
	}}, nil
}

// decodeAsV4 reads data of the vote account at pubkey into the V4 fields.
func decodeAsV4(pubkey core.Pubkey, data []byte) (*stateV4, error) {
	if len(data) < 4 {
		return nil, ErrInvalidAccountData
	}
	switch Version(binary.LittleEndian.Uint32(data)) {
	case Version1_14_11, VersionCurrent:
		s, err := Decode(data)
		if err != nil {
			return nil, err
		}
		return &stateV4{State: *s,
			InflationRewardsCollector:     pubkey,
			BlockRevenueCollector:         s.NodePubkey,
			InflationRewardsCommissionBps: uint16(s.Commission) * 100,
			BlockRevenueCommissionBps:     maxCommissionBps,
		}, nil
	case versionV4:
		return decodeV4(data)
	}
	return nil, ErrInvalidAccountData // 0.23.5 and unknown tags
}

// versionV4 is the VoteStateVersions tag of the SIMD-0185 layout, which ledgerd's vote program
// does not write but accounts loaded into a chain may hold; only the parser reads it.
const versionV4 Version = 3

// blsPubkeySize is the size of V4's optional compressed BLS public key.
const blsPubkeySize = 48

// maxCommissionBps is 100% in basis points, the block revenue commission SIMD-0185 gives an
// account converted to V4.
const maxCommissionBps = 10_000

// decodeV4 reads a V4 vote state: after the node and withdrawer, the two collectors, the two
// commissions in basis points, the pending delegator rewards and the optional BLS key, then the
// V3 fields without the prior voters.
func decodeV4(data []byte) (*stateV4, error) {
	r := bincode.NewReader(data)
	r.U32()
	s := &stateV4{State: State{Version: versionV4}}
	s.NodePubkey = r.Pubkey()
	s.AuthorizedWithdrawer = r.Pubkey()
	s.InflationRewardsCollector = r.Pubkey()
	s.BlockRevenueCollector = r.Pubkey()
	s.InflationRewardsCommissionBps = uint16(r.U8()) | uint16(r.U8())<<8
	s.BlockRevenueCommissionBps = uint16(r.U8()) | uint16(r.U8())<<8
	s.PendingDelegatorRewards = r.U64()
	switch r.U8() { // Option<[u8; 48]>
	case 0:
	case 1:
		var k [blsPubkeySize]byte
		for i := range k {
			k[i] = r.U8()
		}
		s.BLSPubkeyCompressed = &k
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
