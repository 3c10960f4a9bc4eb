package metrics

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

func TestUploaderFigures(t *testing.T) {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.RegisterUploader(func() (uint64, bool, uint64, uint64) { return 7, true, 40, 123 })
	families, err := m.reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]float64{}
	for _, f := range families {
		for _, mt := range f.Metric {
			got[f.GetName()] = value(mt)
		}
	}
	want := map[string]float64{"ledgerd_bigtable_upload_lag_slots": 7, "ledgerd_bigtable_upload_failing": 1,
		"ledgerd_bigtable_uploaded_slots_total": 40, "ledgerd_bigtable_uploaded_transactions_total": 123}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
}

func value(m *dto.Metric) float64 {
	if m.Gauge != nil {
		return m.Gauge.GetValue()
	}
	return m.Counter.GetValue()
}
