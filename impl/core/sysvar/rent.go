package sysvar

import "math"

// Rent defaults.
const (
	// DefaultLamportsPerByteYear: 10^9 lamports per SOL, $1 per SOL, $0.01 per megabyte-day.
	DefaultLamportsPerByteYear uint64 = 1_000_000_000 / 100 * 365 / (1024 * 1024) // 3480
	// DefaultExemptionThreshold: years of rent a balance must cover to be exempt.
	DefaultExemptionThreshold = 2.0
	// DefaultRentBurnPercent: share of collected rent that is burned.
	DefaultRentBurnPercent uint8 = 50
	// AccountStorageOverhead: bytes charged for an account besides its data.
	AccountStorageOverhead uint64 = 128
)

// Rent is the Rent sysvar.
type Rent struct {
	LamportsPerByteYear uint64
	ExemptionThreshold  float64
	BurnPercent         uint8
}

// DefaultRent returns the reference's default rent (3480 lamports/byte-year, 2 years, 50%).
func DefaultRent() Rent {
	return Rent{LamportsPerByteYear: DefaultLamportsPerByteYear, ExemptionThreshold: DefaultExemptionThreshold, BurnPercent: DefaultRentBurnPercent}
}

// MinimumBalance returns the balance an account with dataLen bytes needs to be rent exempt,
// computed as the reference does: ((128 + dataLen) * lamportsPerByteYear) as f64 * threshold,
// truncated (saturating) to u64. With the defaults that is (128 + dataLen) * 6960.
func (r Rent) MinimumBalance(dataLen uint64) uint64 {
	lamports := (AccountStorageOverhead + dataLen) * r.LamportsPerByteYear // wraps like Rust release builds
	return f64ToU64(float64(lamports) * r.ExemptionThreshold)
}

// IsExempt reports whether balance makes an account with dataLen bytes rent exempt.
func (r Rent) IsExempt(balance, dataLen uint64) bool { return balance >= r.MinimumBalance(dataLen) }

// DueAmount returns the rent owed for years of an account with dataLen bytes.
func (r Rent) DueAmount(dataLen uint64, years float64) uint64 {
	perYear := r.LamportsPerByteYear * (dataLen + AccountStorageOverhead)
	return f64ToU64(float64(perYear) * years)
}

// CalculateBurn splits collected rent into (burned, to validators).
func (r Rent) CalculateBurn(collected uint64) (burned, rest uint64) {
	burned = collected * uint64(r.BurnPercent) / 100
	return burned, collected - burned
}

// Marshal returns the 17-byte encoding.
func (r *Rent) Marshal() []byte {
	b := make([]byte, 0, RentSize)
	b = appendU64(b, r.LamportsPerByteYear)
	b = appendU64(b, f64bits(r.ExemptionThreshold))
	return append(b, r.BurnPercent)
}

// Unmarshal reads Rent from the start of data.
func (r *Rent) Unmarshal(data []byte) error {
	rd := reader{b: data}
	v := Rent{LamportsPerByteYear: rd.u64(), ExemptionThreshold: rd.f64(), BurnPercent: rd.u8()}
	if rd.err != nil {
		return rd.err
	}
	*r = v
	return nil
}

func f64bits(f float64) uint64 { return math.Float64bits(f) }
