package ledger

import "math"

// Inflation is the governor of the chain's inflation, with the reference's JSON keys.
type Inflation struct {
	Initial        float64 `json:"initial"`
	Terminal       float64 `json:"terminal"`
	Taper          float64 `json:"taper"`
	Foundation     float64 `json:"foundation"`
	FoundationTerm float64 `json:"foundationTerm"`
}

// DefaultInflation is the reference's Inflation::default().
func DefaultInflation() Inflation {
	return Inflation{Initial: 0.08, Terminal: 0.015, Taper: 0.15, Foundation: 0.05, FoundationTerm: 7}
}

// Total is the yearly inflation rate in year (a float: years since genesis).
func (i Inflation) Total(year float64) float64 {
	return math.Max(i.Terminal, i.Initial*math.Pow(1-i.Taper, year))
}

// FoundationRate is the part of Total that goes to the foundation in year.
func (i Inflation) FoundationRate(year float64) float64 {
	if year < i.FoundationTerm {
		return i.Total(year) * i.Foundation
	}
	return 0
}

// Validator is the part of Total paid to validators and their stakers in year.
func (i Inflation) Validator(year float64) float64 { return i.Total(year) - i.FoundationRate(year) }

// SlotsPerYear is how many slots the reference counts in a year: 365.242199 days of 160 ticks per second at
// 64 ticks per slot.
const SlotsPerYear = 365.242_199 * 24 * 60 * 60 * 160 / 64

// YearOf is the year of a slot, as inflation counts time.
func YearOf(slot uint64) float64 { return float64(slot) / SlotsPerYear }
