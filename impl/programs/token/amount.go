package token

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// AmountToUIAmountString formats a raw amount with decimals places, untrimmed ("1.500" for
// 1500 with 3 decimals; "0.05" for 5 with 2), as spl-token's amount_to_ui_amount_string.
func AmountToUIAmountString(amount uint64, decimals uint8) string {
	s := strconv.FormatUint(amount, 10)
	if decimals == 0 {
		return s
	}
	d := int(decimals)
	if len(s) < d+1 {
		s = strings.Repeat("0", d+1-len(s)) + s
	}
	return s[:len(s)-d] + "." + s[len(s)-d:]
}

// AmountToUIAmountStringTrimmed is AmountToUIAmountString without trailing zeros or a
// trailing decimal point ("1.5"), the string AmountToUiAmount returns.
func AmountToUIAmountStringTrimmed(amount uint64, decimals uint8) string {
	return trimUiAmount(AmountToUIAmountString(amount, decimals), decimals)
}

// AmountToUIAmount is the raw amount divided by 10^decimals as a float (the RPC's uiAmount).
func AmountToUIAmount(amount uint64, decimals uint8) float64 {
	return float64(amount) / powi10(decimals)
}

// errUIAmount is the InvalidArgument the conversions fail with.
var errUIAmount = errInvalidArgument

// UIAmountToAmount parses a UI amount with at most decimals fractional digits (trailing
// zeros aside) into a raw amount, as spl-token's try_ui_amount_into_amount (InvalidArgument
// otherwise).
func UIAmountToAmount(ui string, decimals uint8) (uint64, error) {
	whole, frac, hasDot := strings.Cut(ui, ".")
	if hasDot && strings.Contains(frac, ".") {
		return 0, errUIAmount
	}
	frac = strings.TrimRight(frac, "0")
	if (whole == "" && frac == "") || len(frac) > int(decimals) {
		return 0, errUIAmount
	}
	digits := whole + frac + strings.Repeat("0", int(decimals)-len(frac))
	return parseRustU64(digits)
}

// parseRustU64 is Rust's u64::from_str: an optional '+' and decimal digits.
func parseRustU64(s string) (uint64, error) {
	s = strings.TrimPrefix(s, "+")
	if s == "" || s[0] == '+' || s[0] == '-' {
		return 0, errUIAmount
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, errUIAmount
	}
	return v, nil
}

// parseRustF64 is Rust's f64::from_str: decimal or exponent notation, inf, infinity and nan
// (any case), with an optional sign; out-of-range values become infinities or zero.
func parseRustF64(s string) (float64, error) {
	body := strings.TrimLeft(s, "+-")
	if len(s)-len(body) > 1 || body == "" {
		return 0, errUIAmount
	}
	for _, c := range body {
		if c == '_' || c == 'x' || c == 'X' || c == 'p' || c == 'P' {
			return 0, errUIAmount
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, errUIAmount
	}
	return f, nil
}

// powi10 is 10^d computed as LLVM's powi does (square-and-multiply), which the on-chain
// program uses for 10_f64.powi(decimals).
func powi10(d uint8) float64 {
	a, r := 10.0, 1.0
	for b := int(d); ; {
		if b&1 != 0 {
			r *= a
		}
		b /= 2
		if b == 0 {
			break
		}
		a *= a
	}
	return r
}

const (
	secondsPerYear      = 60 * 60 * 24 * 365.24
	oneInBasisPointsF64 = 10_000.0
)

func interestExp(rate int16, timespan int64) float64 {
	// (rate as i128 * timespan as i128) as f64: the exact product, rounded once.
	n := new(big.Int).Mul(big.NewInt(int64(rate)), big.NewInt(timespan))
	f, _ := new(big.Float).SetInt(n).Float64()
	return math.Exp(f / secondsPerYear / oneInBasisPointsF64)
}

// totalScale is the interest-bearing mint's pre-update and post-update growth divided by
// 10^decimals; ok is false where the reference's checked arithmetic fails.
func (c *InterestBearingConfig) totalScale(decimals uint8, unixTimestamp int64) (float64, bool) {
	pre, ok := subI64(c.LastUpdateTimestamp, c.InitializationTimestamp)
	if !ok {
		return 0, false
	}
	post, ok := subI64(unixTimestamp, c.LastUpdateTimestamp)
	if !ok {
		return 0, false
	}
	return interestExp(c.PreUpdateAverageRate, pre) * interestExp(c.CurrentRate, post) / powi10(decimals), true
}

// AmountToUIAmount converts a raw amount into its UI string with the interest accrued up to
// unixTimestamp (the reference's InterestBearingConfig::amount_to_ui_amount).
func (c *InterestBearingConfig) AmountToUIAmount(amount uint64, decimals uint8, unixTimestamp int64) (string, bool) {
	scale, ok := c.totalScale(decimals, unixTimestamp)
	if !ok {
		return "", false
	}
	return trimUiAmount(formatRustFixed(float64(amount)*scale, decimals), decimals), true
}

// UIAmountToAmount converts a UI amount with interest back into a raw amount.
func (c *InterestBearingConfig) UIAmountToAmount(ui string, decimals uint8, unixTimestamp int64) (uint64, error) {
	scaled, err := parseRustF64(ui)
	if err != nil {
		return 0, err
	}
	scale, ok := c.totalScale(decimals, unixTimestamp)
	if !ok {
		return 0, errUIAmount
	}
	amount := scaled / scale
	if amount > math.MaxUint64 || amount < 0 || math.IsNaN(amount) {
		return 0, errUIAmount
	}
	r := math.Round(amount)
	if r >= 1<<64 {
		return math.MaxUint64, nil
	}
	return uint64(r), nil
}

// timeWeightedAverageRate is the average of the previous average rate and the current rate
// weighted by their timespans (in i128, as the reference), for UpdateRate; ok is false when
// it does not fit an i16.
func (c *InterestBearingConfig) timeWeightedAverageRate(now int64) (int16, bool) {
	init, last := big.NewInt(c.InitializationTimestamp), big.NewInt(c.LastUpdateTimestamp)
	t1 := new(big.Int).Sub(last, init)
	t2 := new(big.Int).Sub(big.NewInt(now), last)
	total := new(big.Int).Add(t1, t2)
	if total.Sign() == 0 {
		return c.CurrentRate, true
	}
	sum := new(big.Int).Mul(big.NewInt(int64(c.PreUpdateAverageRate)), t1)
	sum.Add(sum, new(big.Int).Mul(big.NewInt(int64(c.CurrentRate)), t2))
	avg := sum.Quo(sum, total)
	if !avg.IsInt64() || avg.Int64() < math.MinInt16 || avg.Int64() > math.MaxInt16 {
		return 0, false
	}
	return int16(avg.Int64()), true
}

func subI64(a, b int64) (int64, bool) {
	d := a - b
	if (b > 0 && d > a) || (b < 0 && d < a) {
		return 0, false
	}
	return d, true
}
