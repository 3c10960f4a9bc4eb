package token

import (
	"math"
	"strconv"
	"strings"

	"ledgerd/impl/runtime"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
)

// UiTokenAmount is a token amount as every token view shows it (jsonParsed token accounts, parsed token
// instructions, getTokenAccountBalance, getTokenSupply, token balances): the raw amount as a decimal string,
// the mint's decimals, the amount as a float and as a decimal string with the decimals applied. Its fields are
// in the sorted order the reference's parsed values have, and UiAmount is written as serde_json writes an f64
// (null when absent or not finite).
type UiTokenAmount struct {
	Amount         string        `json:"amount"`
	Decimals       uint8         `json:"decimals"`
	UiAmount       *rpcapi.Float `json:"uiAmount"`
	UiAmountString string        `json:"uiAmountString"`
}

// RPC is the amount as the generated result types carry it.
func (u UiTokenAmount) RPC() rpcapi.UiTokenAmount {
	return rpcapi.UiTokenAmount{Amount: u.Amount, Decimals: u.Decimals, UiAmount: u.UiAmount, UiAmountString: u.UiAmountString}
}

// TokenAmount is the reference's token_amount_to_ui_amount without mint extensions: what parsed instructions
// and transaction token balances show (they never apply interest or scaling). uiAmount is absent when
// 10^decimals does not fit a u64 (decimals above 19).
func TokenAmount(amount uint64, decimals uint8) UiTokenAmount {
	u := UiTokenAmount{Amount: strconv.FormatUint(amount, 10), Decimals: decimals,
		UiAmountString: AmountToUIAmountStringTrimmed(amount, decimals)}
	if decimals <= 19 {
		f := rpcapi.Float(float64(amount) / float64(pow10u64(decimals)))
		u.UiAmount = &f
	}
	return u
}

func pow10u64(n uint8) uint64 {
	p := uint64(1)
	for range n {
		p *= 10
	}
	return p
}

func trimUiAmount(s string, decimals uint8) string {
	if decimals == 0 {
		return s
	}
	return strings.TrimRight(strings.TrimRight(s, "0"), ".")
}

// MintAmounts turns raw amounts of one mint into UI amounts: its decimals, and the interest-bearing or
// scaled-UI-amount configuration with the clock's timestamp when the mint has one (the reference's
// SplTokenAdditionalDataV2).
type MintAmounts struct {
	Decimals      uint8
	interest      *InterestBearingConfig
	scaled        *scaledUiAmountConfig
	unixTimestamp int64
}

// UiAmount is the reference's token_amount_to_ui_amount_v3: interest first, then scaling, then the plain
// decimal form. When the interest computation overflows, uiAmountString is empty and uiAmount absent.
func (m MintAmounts) UiAmount(amount uint64) UiTokenAmount {
	var (
		s  string
		ok bool
	)
	switch {
	case m.interest != nil:
		s, ok = m.interest.AmountToUIAmount(amount, m.Decimals, m.unixTimestamp)
	case m.scaled != nil:
		s, ok = m.scaled.amountToUiAmount(amount, m.Decimals, m.unixTimestamp), true
	default:
		return TokenAmount(amount, m.Decimals)
	}
	u := UiTokenAmount{Amount: strconv.FormatUint(amount, 10), Decimals: m.Decimals, UiAmountString: s}
	if ok {
		if f, err := parseRustF64View(s); err == nil {
			v := rpcapi.Float(f)
			u.UiAmount = &v
		}
	}
	return u
}

// NativeMintAmounts is what the reference assumes for wrapped SOL without reading its mint: 9 decimals.
func NativeMintAmounts() MintAmounts { return MintAmounts{Decimals: 9} }

// clockTimestamp reads the Clock sysvar's unix timestamp through lookup (0 when it cannot be read).
func clockTimestamp(lookup runtime.AccountLookup) int64 {
	a, ok := lookup(core.SysvarClockID)
	if !ok {
		return 0
	}
	var c sysvar.Clock
	if c.Unmarshal(a.Data) != nil {
		return 0
	}
	return c.UnixTimestamp
}

// parseRustF64View reads a float as Rust's f64::from_str does for the strings formatting produces ("inf",
// "NaN", plain decimals).
func parseRustF64View(s string) (float64, error) {
	switch s {
	case "inf", "+inf", "infinity":
		return math.Inf(1), nil
	case "-inf", "-infinity":
		return math.Inf(-1), nil
	case "NaN":
		return math.NaN(), nil
	}
	return strconv.ParseFloat(s, 64)
}

// formatRustFixed is Rust's format!("{:.*}", decimals, f): the exact decimal value rounded to decimals digits
// (ties to even), "inf", "-inf" and "NaN" for the non-finite values.
func formatRustFixed(f float64, decimals uint8) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'f', int(decimals), 64)
}

// RustF64Display is Rust's Display of an f64 (f64::to_string): the shortest digits that read back, always as
// a plain decimal without exponent ("2", "0.5", "0.0000001", "1e21" as "1000000000000000000000").
func RustF64Display(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	sign := ""
	if math.Signbit(f) {
		sign, f = "-", -f
	}
	if f == 0 {
		return sign + "0"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±x
	mant, expPart, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expPart)
	point := exp + 1 // digits before the decimal point
	switch {
	case point <= 0:
		return sign + "0." + strings.Repeat("0", -point) + digits
	case point >= len(digits):
		return sign + digits + strings.Repeat("0", point-len(digits))
	default:
		return sign + digits[:point] + "." + digits[point:]
	}
}

// numPow is num_traits::pow for f64, with its own order of multiplications.
func numPow(base float64, exp int) float64 {
	if exp == 0 {
		return 1
	}
	for exp&1 == 0 {
		base *= base
		exp >>= 1
	}
	if exp == 1 {
		return base
	}
	acc := base
	for exp > 1 {
		exp >>= 1
		base *= base
		if exp&1 == 1 {
			acc *= base
		}
	}
	return acc
}

// scaledUiAmountConfig is Token-2022's ScaledUiAmountConfig extension (56 bytes).
type scaledUiAmountConfig struct {
	authority                       *core.Pubkey
	multiplier                      float64
	newMultiplierEffectiveTimestamp int64
	newMultiplier                   float64
}

func (c *scaledUiAmountConfig) amountToUiAmount(amount uint64, decimals uint8, unixTimestamp int64) string {
	m := c.multiplier
	if unixTimestamp >= c.newMultiplierEffectiveTimestamp {
		m = c.newMultiplier
	}
	truncated := math.Trunc(float64(amount)*m) / numPow(10, int(decimals))
	return trimUiAmount(formatRustFixed(truncated, decimals), decimals)
}
