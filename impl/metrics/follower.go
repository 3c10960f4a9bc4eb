package metrics

import "github.com/prometheus/client_golang/prometheus"

// FollowerState is what a follower (ledgerd --follow) reports when scraped: the leader's confirmed slot, as last
// heard, minus its own (ok false before the leader answered), and whether it stopped for good.
type FollowerState func() (lagSlots uint64, ok bool, stopped bool)

// RegisterFollower adds the follower's gauges: ledgerd_follower_lag_slots and ledgerd_follower_stopped.
func (m *Metrics) RegisterFollower(state FollowerState) {
	m.reg.MustRegister(&followerCollector{state: state})
}

var (
	followerLagDesc = prometheus.NewDesc("ledgerd_follower_lag_slots",
		"The leader's confirmed slot, as last heard, minus this follower's confirmed slot.", nil, nil)
	followerStoppedDesc = prometheus.NewDesc("ledgerd_follower_stopped",
		"1 once the follower stopped following its leader for good (a divergence, cheat writes, a leader without its blocks).", nil, nil)
)

type followerCollector struct{ state FollowerState }

func (c *followerCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- followerLagDesc
	ch <- followerStoppedDesc
}

func (c *followerCollector) Collect(ch chan<- prometheus.Metric) {
	lag, ok, stopped := c.state()
	if ok {
		ch <- prometheus.MustNewConstMetric(followerLagDesc, prometheus.GaugeValue, float64(lag))
	}
	ch <- flag(followerStoppedDesc, stopped)
}
