package stake

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// accountParser shows stake accounts under jsonParsed as the reference's parse_stake does:
// {"type": "uninitialized" | "initialized" | "delegated" | "rewardsPool", "info": ...}, the
// amounts and delegation epochs as decimal strings.
var accountParser = &runtime.AccountParser{Program: "stake", Parse: parseStakeAccount}

func parseStakeAccount(_ core.Pubkey, data []byte, _ runtime.AccountLookup) (any, error) {
	s, err := Decode(data)
	if err != nil {
		return nil, err
	}
	switch s.Kind {
	case StateInitialized:
		return map[string]any{"type": s.Kind.String(), "info": map[string]any{"meta": uiMeta(&s.Meta), "stake": nil}}, nil
	case StateStake:
		d := &s.Stake.Delegation
		return map[string]any{"type": s.Kind.String(), "info": map[string]any{
			"meta": uiMeta(&s.Meta),
			"stake": map[string]any{
				"creditsObserved": s.Stake.CreditsObserved,
				"delegation": map[string]any{
					"voter":             d.VoterPubkey.String(),
					"stake":             strconv.FormatUint(d.Stake, 10),
					"activationEpoch":   strconv.FormatUint(d.ActivationEpoch, 10),
					"deactivationEpoch": strconv.FormatUint(d.DeactivationEpoch, 10),
					// Since 4.1 the reference leaves the (deprecated) warmupCooldownRate out.
				},
			},
		}}, nil
	}
	// Uninitialized and RewardsPool are unit variants: a type and no info at all.
	return map[string]any{"type": s.Kind.String()}, nil
}

func uiMeta(m *Meta) map[string]any {
	return map[string]any{
		"rentExemptReserve": strconv.FormatUint(m.RentExemptReserve, 10),
		"authorized":        map[string]any{"staker": m.Authorized.Staker.String(), "withdrawer": m.Authorized.Withdrawer.String()},
		"lockup": map[string]any{"unixTimestamp": m.Lockup.UnixTimestamp, "epoch": m.Lockup.Epoch,
			"custodian": m.Lockup.Custodian.String()},
	}
}

// jsonFloat writes an f64 as serde_json does (with ryu): the shortest digits that read back
// to the same value, "1.0" rather than "1" for whole numbers, an exponent only outside
// 1e-5..1e16, and null for NaN and the infinities.
func jsonFloat(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	sign := ""
	if math.Signbit(f) {
		sign, f = "-", -f
	}
	if f == 0 {
		return json.Number(sign + "0.0")
	}
	// digits × 10^(point-len(digits)): the shortest digits and where the decimal point goes.
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±x
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	point := x + 1
	n := len(digits)
	var s string
	switch {
	case n <= point && point <= 16:
		s = digits + strings.Repeat("0", point-n) + ".0"
	case 0 < point && point <= 16:
		s = digits[:point] + "." + digits[point:]
	case -5 < point && point <= 0:
		s = "0." + strings.Repeat("0", -point) + digits
	case n == 1:
		s = digits + "e" + strconv.Itoa(point-1)
	default:
		s = digits[:1] + "." + digits[1:] + "e" + strconv.Itoa(point-1)
	}
	return json.Number(sign + s)
}
