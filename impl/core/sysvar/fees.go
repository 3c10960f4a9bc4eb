package sysvar

// Fee constants.
const (
	// DefaultLamportsPerSignature is the fee per signature the cluster charges.
	DefaultLamportsPerSignature uint64 = 5000
	// DefaultTargetLamportsPerSignature centres the governor's range (50% to 1000% of it).
	DefaultTargetLamportsPerSignature uint64 = 10_000
	// DefaultMsPerSlot is the target slot duration.
	DefaultMsPerSlot uint64 = 400
	// DefaultTargetSignaturesPerSlot: 50 signatures per millisecond of slot.
	DefaultTargetSignaturesPerSlot uint64 = 50 * DefaultMsPerSlot
	// DefaultFeeBurnPercent: share of fees that is burned.
	DefaultFeeBurnPercent uint8 = 50
)

// FeeRateGovernor adjusts lamports per signature to the cluster's signature load. Its bincode
// form (in the genesis config) leaves out LamportsPerSignature.
type FeeRateGovernor struct {
	LamportsPerSignature       uint64
	TargetLamportsPerSignature uint64
	TargetSignaturesPerSlot    uint64
	MinLamportsPerSignature    uint64
	MaxLamportsPerSignature    uint64
	BurnPercent                uint8
}

// DefaultFeeRateGovernor returns the reference's default (target 10000 lamports, 20000
// signatures per slot, 50% burn; min and max not yet derived).
func DefaultFeeRateGovernor() FeeRateGovernor {
	return FeeRateGovernor{
		TargetLamportsPerSignature: DefaultTargetLamportsPerSignature,
		TargetSignaturesPerSlot:    DefaultTargetSignaturesPerSlot,
		BurnPercent:                DefaultFeeBurnPercent,
	}
}

// NewFeeRateGovernor is the reference's FeeRateGovernor::new: a governor at the target rate,
// derived once with no load.
func NewFeeRateGovernor(targetLamportsPerSignature, targetSignaturesPerSlot uint64) FeeRateGovernor {
	base := DefaultFeeRateGovernor()
	base.TargetLamportsPerSignature = targetLamportsPerSignature
	base.LamportsPerSignature = targetLamportsPerSignature
	base.TargetSignaturesPerSlot = targetSignaturesPerSlot
	return NewDerivedFeeRateGovernor(base, 0)
}

// NewDerivedFeeRateGovernor is the reference's new_derived: the governor of the next bank given
// the parent's governor and signature count. The rate moves 5% of the target per step toward
// what the load calls for, within [max(1, target/2), target*10]. A bank derived from the
// default genesis governor with no load charges 5000 lamports per signature.
func NewDerivedFeeRateGovernor(base FeeRateGovernor, latestSignaturesPerSlot uint64) FeeRateGovernor {
	me := base
	if me.TargetSignaturesPerSlot == 0 {
		me.LamportsPerSignature = base.TargetLamportsPerSignature
		me.MinLamportsPerSignature = me.TargetLamportsPerSignature
		me.MaxLamportsPerSignature = me.TargetLamportsPerSignature
		return me
	}
	me.MinLamportsPerSignature = max(1, me.TargetLamportsPerSignature/2)
	me.MaxLamportsPerSignature = me.TargetLamportsPerSignature * 10
	desired := min(me.MaxLamportsPerSignature,
		max(me.MinLamportsPerSignature,
			me.TargetLamportsPerSignature*min(latestSignaturesPerSlot, uint64(^uint32(0)))/me.TargetSignaturesPerSlot))
	gap := int64(desired) - int64(base.LamportsPerSignature)
	if gap == 0 {
		me.LamportsPerSignature = desired
		return me
	}
	step := int64(max(1, me.TargetLamportsPerSignature/20))
	if gap < 0 {
		step = -step
	}
	me.LamportsPerSignature = min(me.MaxLamportsPerSignature,
		max(me.MinLamportsPerSignature, uint64(int64(base.LamportsPerSignature)+step)))
	return me
}

// Burn splits fees into (kept, burned).
func (g FeeRateGovernor) Burn(fees uint64) (kept, burned uint64) {
	burned = fees * uint64(g.BurnPercent) / 100
	return fees - burned, burned
}

// FeeCalculator returns the calculator for the current rate.
func (g FeeRateGovernor) FeeCalculator() FeeCalculator {
	return FeeCalculator{LamportsPerSignature: g.LamportsPerSignature}
}

// Marshal returns the bincode encoding of the serialized fields (LamportsPerSignature is
// skipped, as in the reference): 4 u64 and a u8.
func (g *FeeRateGovernor) Marshal() []byte {
	b := make([]byte, 0, 33)
	b = appendU64(b, g.TargetLamportsPerSignature)
	b = appendU64(b, g.TargetSignaturesPerSlot)
	b = appendU64(b, g.MinLamportsPerSignature)
	b = appendU64(b, g.MaxLamportsPerSignature)
	return append(b, g.BurnPercent)
}

// Unmarshal reads the serialized fields; LamportsPerSignature becomes 0.
func (g *FeeRateGovernor) Unmarshal(data []byte) error {
	r := reader{b: data}
	v := FeeRateGovernor{
		TargetLamportsPerSignature: r.u64(),
		TargetSignaturesPerSlot:    r.u64(),
		MinLamportsPerSignature:    r.u64(),
		MaxLamportsPerSignature:    r.u64(),
		BurnPercent:                r.u8(),
	}
	if r.err != nil {
		return r.err
	}
	*g = v
	return nil
}
