package ledger

import (
	"sync"
	"time"
)

// Performance samples, as the reference takes them: one every minute, the newest 720 kept.
const (
	PerfSamplePeriod = 60 * time.Second
	PerfSamplesLimit = 720
)

// PerfSample is the activity of one sample period.
type PerfSample struct {
	Slot                   uint64
	NumTransactions        uint64
	NumNonVoteTransactions uint64
	NumSlots               uint64
	SamplePeriodSecs       uint16
}

// perfSampler counts transactions and slots and closes a sample every PerfSamplePeriod.
type perfSampler struct {
	mu      sync.Mutex
	start   time.Time
	txs     uint64
	slots   uint64
	samples []PerfSample // newest last
}

func newPerfSampler() *perfSampler { return &perfSampler{} }

func (p *perfSampler) addTransactions(n uint64) {
	p.mu.Lock()
	p.txs += n
	p.mu.Unlock()
}

func (p *perfSampler) addSlot(slot uint64, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.start.IsZero() {
		p.start = now
	}
	p.slots++
	if now.Sub(p.start) < PerfSamplePeriod {
		return
	}
	p.samples = append(p.samples, PerfSample{Slot: slot, NumTransactions: p.txs, NumNonVoteTransactions: p.txs,
		NumSlots: p.slots, SamplePeriodSecs: uint16(PerfSamplePeriod / time.Second)})
	if len(p.samples) > PerfSamplesLimit {
		p.samples = p.samples[len(p.samples)-PerfSamplesLimit:]
	}
	p.start, p.txs, p.slots = now, 0, 0
}

// PerformanceSamples returns up to limit samples, newest first.
func (l *Ledger) PerformanceSamples(limit int) []PerfSample {
	p := l.perf
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]PerfSample, 0, min(limit, len(p.samples)))
	for i := len(p.samples) - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, p.samples[i])
	}
	return out
}
