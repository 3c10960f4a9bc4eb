package metrics

import "github.com/prometheus/client_golang/prometheus"

// UploaderState is what the Bigtable uploader (--bigtable-instance) reports when scraped: the root minus the
// newest slot it uploaded, whether its last try failed (it retries), and what it uploaded since the node started.
type UploaderState func() (lagSlots uint64, failing bool, slots, txs uint64)

// RegisterUploader adds the uploader's figures: ledgerd_bigtable_upload_lag_slots,
// ledgerd_bigtable_upload_failing, ledgerd_bigtable_uploaded_slots_total and
// ledgerd_bigtable_uploaded_transactions_total.
func (m *Metrics) RegisterUploader(state UploaderState) {
	m.reg.MustRegister(&uploaderCollector{state: state})
}

var (
	uploaderLagDesc = prometheus.NewDesc("ledgerd_bigtable_upload_lag_slots",
		"The root minus the newest slot uploaded to Bigtable (the root plus one before any is).", nil, nil)
	uploaderFailingDesc = prometheus.NewDesc("ledgerd_bigtable_upload_failing",
		"1 while uploads to Bigtable fail (the uploader retries with backoff; no slot is skipped), else 0.", nil, nil)
	uploaderSlotsDesc = prometheus.NewDesc("ledgerd_bigtable_uploaded_slots_total",
		"Blocks uploaded to Bigtable since the node started.", nil, nil)
	uploaderTxsDesc = prometheus.NewDesc("ledgerd_bigtable_uploaded_transactions_total",
		"Transactions uploaded to Bigtable since the node started.", nil, nil)
)

type uploaderCollector struct{ state UploaderState }

func (c *uploaderCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{uploaderLagDesc, uploaderFailingDesc, uploaderSlotsDesc, uploaderTxsDesc} {
		ch <- d
	}
}

func (c *uploaderCollector) Collect(ch chan<- prometheus.Metric) {
	lag, failing, slots, txs := c.state()
	ch <- prometheus.MustNewConstMetric(uploaderLagDesc, prometheus.GaugeValue, float64(lag))
	ch <- flag(uploaderFailingDesc, failing)
	ch <- prometheus.MustNewConstMetric(uploaderSlotsDesc, prometheus.CounterValue, float64(slots))
	ch <- prometheus.MustNewConstMetric(uploaderTxsDesc, prometheus.CounterValue, float64(txs))
}
