package token

import (
	"encoding/json"
	"math"
	"testing"
)

// The UI amounts of interest-bearing and scaled mints, checked on the internals of the token
// module's jsonParsed view (moved here from impl/encoding with the view).

// intSecondsPerYear is the year of the interest-bearing extension (365.24 days).
const intSecondsPerYear = 6 * 6 * 24 * 36524

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	return string(b)
}

func TestInterestAndScaledAmounts(t *testing.T) {
	t.Parallel()
	const one = 1_000_000_000_000_000_000
	five := &InterestBearingConfig{PreUpdateAverageRate: 500, LastUpdateTimestamp: intSecondsPerYear, CurrentRate: 500}
	negative := &InterestBearingConfig{PreUpdateAverageRate: -500, LastUpdateTimestamp: intSecondsPerYear, CurrentRate: -500}
	netOut := &InterestBearingConfig{PreUpdateAverageRate: -500, LastUpdateTimestamp: intSecondsPerYear, CurrentRate: 500}
	zero := &InterestBearingConfig{LastUpdateTimestamp: intSecondsPerYear}
	huge := &InterestBearingConfig{PreUpdateAverageRate: 32767, CurrentRate: 32767}
	tests := []struct {
		c        *InterestBearingConfig
		amount   uint64
		decimals uint8
		ts       int64
		want     string
	}{
		{five, one, 18, intSecondsPerYear, "1.051271096376024117"},
		{five, one, 19, intSecondsPerYear, "0.1051271096376024117"},
		{five, one, 28, intSecondsPerYear, "0.0000000001051271096376024175"},
		{five, 10_000_000_000, 10, intSecondsPerYear, "1.0512710964"},
		{negative, one, 18, intSecondsPerYear, "0.951229424500713905"},
		{netOut, 1, 0, 2 * intSecondsPerYear, "1"},
		{five, math.MaxUint64, 0, 2 * intSecondsPerYear, "20386805083448098816"},
		{zero, 23, 2, intSecondsPerYear, "0.23"},
		{zero, 110, 2, intSecondsPerYear, "1.1"},
		{zero, 4200, 2, intSecondsPerYear, "42"},
		{zero, 0, 2, intSecondsPerYear, "0"},
		{huge, math.MaxUint64, 0, intSecondsPerYear * 1000, "inf"},
	}
	for _, tt := range tests {
		if got, ok := tt.c.AmountToUIAmount(tt.amount, tt.decimals, tt.ts); !ok || got != tt.want {
			t.Errorf("interest %+v (%d, %d, %d) = %q, %v, want %q", *tt.c, tt.amount, tt.decimals, tt.ts, got, ok, tt.want)
		}
	}
	overflow := &InterestBearingConfig{InitializationTimestamp: math.MinInt64, LastUpdateTimestamp: 1}
	if got, ok := overflow.AmountToUIAmount(1, 0, 0); ok {
		t.Errorf("overflowing timespan gave %q", got)
	}
	m := MintAmounts{Decimals: 0, interest: overflow}
	if got := mustJSON(t, m.UiAmount(5)); got != `{"amount":"5","decimals":0,"uiAmount":null,"uiAmountString":""}` {
		t.Errorf("overflowing interest amount = %s", got)
	}
	m = MintAmounts{Decimals: 0, interest: huge, unixTimestamp: intSecondsPerYear * 1000}
	if got := mustJSON(t, m.UiAmount(math.MaxUint64)); got != `{"amount":"18446744073709551615","decimals":0,"uiAmount":null,"uiAmountString":"inf"}` {
		t.Errorf("infinite interest amount = %s", got)
	}

	scaled := []struct {
		c        scaledUiAmountConfig
		amount   uint64
		decimals uint8
		ts       int64
		want     string
	}{
		{scaledUiAmountConfig{multiplier: 5, newMultiplierEffectiveTimestamp: 1}, 1, 0, 0, "5"},
		{scaledUiAmountConfig{multiplier: 5, newMultiplierEffectiveTimestamp: 1}, 1, 1, 0, "0.5"},
		{scaledUiAmountConfig{multiplier: 5, newMultiplierEffectiveTimestamp: 1}, 1, 10, 0, "0.0000000005"},
		{scaledUiAmountConfig{multiplier: 5, newMultiplierEffectiveTimestamp: 1}, 10_000_000_000, 10, 0, "5"},
		{scaledUiAmountConfig{multiplier: math.MaxFloat64, newMultiplierEffectiveTimestamp: 1}, math.MaxUint64, 0, 0, "inf"},
		{scaledUiAmountConfig{multiplier: 0.99, newMultiplierEffectiveTimestamp: 1}, 101, 2, 0, "0.99"},
		{scaledUiAmountConfig{multiplier: 1, newMultiplierEffectiveTimestamp: 1}, 110, 2, 0, "1.1"},
		{scaledUiAmountConfig{multiplier: 5, newMultiplier: 10, newMultiplierEffectiveTimestamp: 1}, 1, 0, 1, "10"},
		{scaledUiAmountConfig{newMultiplier: 2}, one, 18, 0, "2"},
	}
	for _, tt := range scaled {
		if got := tt.c.amountToUiAmount(tt.amount, tt.decimals, tt.ts); got != tt.want {
			t.Errorf("scaled %+v (%d, %d, %d) = %q, want %q", tt.c, tt.amount, tt.decimals, tt.ts, got, tt.want)
		}
	}
}
