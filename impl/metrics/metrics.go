// Package metrics exposes a node's operational figures in the Prometheus text format (GET /metrics): the calls
// the JSON-RPC transports answer, by method and code, with their latency; the chain's slots; the transactions
// executed; subscriptions and connections; the store's size and compaction state; the faucet's balance; and the
// storage fault. Calls arrive through the transports' Observer hook; everything else is read from the ledger,
// the subscription hub and the store when the endpoint is scraped, so nothing on a hot path pays for it.
//
// Label values are bounded: a method label is one of the schema's methods or "unknown" (a client's string
// never becomes a label), a code is the reply's JSON-RPC error code (0 for a result), drawn from the node's
// error catalogue.
package metrics

import (
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/ledger"
	"ledgerd/impl/pubsub"
)

// Unknown is the method label of a call whose method is not one the node serves, or could not be read.
const Unknown = "unknown"

// Transport label values.
const (
	TransportHTTP      = "http"
	TransportWebSocket = "websocket"
)

// Config is what the collectors read. Ledger is required; the rest may be nil.
type Config struct {
	Ledger *ledger.Ledger
	// PubSub is the subscription hub, for the open subscriptions by kind.
	PubSub *pubsub.Hub
	// Connections returns the open connections by kind (TransportHTTP, TransportWebSocket).
	Connections func() map[string]int
	// Logger receives errors met while scraping; nil means slog.Default().
	Logger *slog.Logger
}

// Metrics is a node's registry. It implements the transports' Observer (ObserveCall) and, through OnEvent,
// counts the transactions the ledger executes. Safe for concurrent use.
type Metrics struct {
	reg      *prometheus.Registry
	known    map[string]bool
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	txs      prometheus.Counter
	failed   prometheus.Counter
	log      *slog.Logger
}

// Latency buckets, in seconds: from 100 µs (a getSlot) by fours past 26 s, near the 30 s default call timeout
// (a call that times out lands in +Inf).
var latencyBuckets = prometheus.ExponentialBuckets(0.0001, 4, 10)

// New builds the registry. Register OnEvent with the ledger before it starts, so no transaction is missed.
func New(cfg Config) *Metrics {
	if cfg.Ledger == nil {
		panic("metrics: nil Ledger")
	}
	m := &Metrics{
		reg:   prometheus.NewRegistry(),
		known: make(map[string]bool, len(rpcapi.Methods)+1),
		log:   cfg.Logger,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "ledgerd_rpc_requests_total",
			Help: "JSON-RPC calls answered, by transport, method (\"unknown\" for a method the node does not serve) and the reply's error code (0: a result).",
		}, []string{"transport", "method", "code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "ledgerd_rpc_request_duration_seconds",
			Help:    "Run time of JSON-RPC calls, by transport and method.",
			Buckets: latencyBuckets,
		}, []string{"transport", "method"}),
		txs: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ledgerd_transactions_processed_total",
			Help: "Transactions executed into a block since the node started (votes included), failed ones too.",
		}),
		failed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "ledgerd_transactions_failed_total",
			Help: "Transactions executed into a block with an error (their fee charged) since the node started.",
		}),
	}
	if m.log == nil {
		m.log = slog.Default()
	}
	for name := range rpcapi.Methods {
		m.known[name] = true
	}
	m.known["rpc.discover"] = true // answered by the transport itself
	m.reg.MustRegister(m.requests, m.latency, m.txs, m.failed,
		&stateCollector{cfg: cfg, log: m.log},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// ObserveCall counts one call answered by a transport (jsonrpc.Observer).
func (m *Metrics) ObserveCall(method string, ws bool, code int, elapsed time.Duration) {
	if !m.known[method] {
		method = Unknown
	}
	transport := TransportHTTP
	if ws {
		transport = TransportWebSocket
	}
	m.requests.WithLabelValues(transport, method, codeLabel(code)).Inc()
	m.latency.WithLabelValues(transport, method).Observe(elapsed.Seconds())
}

// codeLabel spells a code, sparing an allocation for the common ones.
func codeLabel(code int) string {
	if code == 0 {
		return "0"
	}
	if s, ok := commonCodes.Load(code); ok {
		return s.(string)
	}
	s := strconv.Itoa(code)
	commonCodes.Store(code, s)
	return s
}

// commonCodes caches the codes' spellings; the codes are the node's error catalogue, a few dozen.
var commonCodes sync.Map

// OnEvent counts the transactions the ledger executes; register it with ledger.OnEvent. It only increments two
// counters, as the producer's listeners must be quick.
func (m *Metrics) OnEvent(ev ledger.Event) {
	if ev.Kind != ledger.TxProcessed || ev.Result == nil {
		return
	}
	m.txs.Inc()
	if ev.Result.Err != nil {
		m.failed.Inc()
	}
}

// Handler serves the registry in the Prometheus text format (or what the scraper negotiates).
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{
		ErrorLog: slog.NewLogLogger(m.log.Handler(), slog.LevelError),
		// A figure that cannot be read leaves the rest of the scrape standing.
		ErrorHandling: promhttp.ContinueOnError,
	})
}

// Registry is the registry itself (tests gather from it).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// stateCollector reads the node's state when scraped.
type stateCollector struct {
	cfg Config
	log *slog.Logger
}

var (
	descSlot = prometheus.NewDesc("ledgerd_slot",
		"The newest slot at each commitment (processed, confirmed, finalized), as getSlot answers.", []string{"commitment"}, nil)
	descRoot = prometheus.NewDesc("ledgerd_root_slot",
		"The ledger's root: the newest rooted (finalized) slot, as rootSubscribe reports it.", nil, nil)
	descSubscriptions = prometheus.NewDesc("ledgerd_subscriptions",
		"Open subscription ids, by subscribe method.", []string{"kind"}, nil)
	descConnections = prometheus.NewDesc("ledgerd_connections",
		"Open client connections, by kind (http, websocket).", []string{"kind"}, nil)
	descDisk = prometheus.NewDesc("ledgerd_store_disk_usage_bytes",
		"Disk space the ledger store uses (pebble's DiskSpaceUsage: tables, write-ahead logs, manifests).", nil, nil)
	descDebt = prometheus.NewDesc("ledgerd_store_compaction_debt_bytes",
		"Bytes pebble estimates it must compact to bring the store's levels to shape (compaction EstimatedDebt).", nil, nil)
	descReadAmp = prometheus.NewDesc("ledgerd_store_read_amplification",
		"The store's read amplification: the sublevels and levels a read may have to look into.", nil, nil)
	descFaucet = prometheus.NewDesc("ledgerd_faucet_balance_lamports",
		"Lamports of the faucet that requestAirdrop draws on, at the processed commitment.", nil, nil)
	descFault = prometheus.NewDesc("ledgerd_storage_fault",
		"1 while the ledger store is faulty (damaged, or its disk full: writes are refused and health fails), else 0.", nil, nil)
)

func (c *stateCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descSlot, descRoot, descSubscriptions, descConnections, descDisk, descDebt,
		descReadAmp, descFaucet, descFault} {
		ch <- d
	}
}

func (c *stateCollector) Collect(ch chan<- prometheus.Metric) {
	l := c.cfg.Ledger
	processed, confirmed, finalized := l.Slots()
	for _, s := range []struct {
		commitment string
		slot       uint64
	}{{"processed", processed}, {"confirmed", confirmed}, {"finalized", finalized}} {
		ch <- prometheus.MustNewConstMetric(descSlot, prometheus.GaugeValue, float64(s.slot), s.commitment)
	}
	ch <- prometheus.MustNewConstMetric(descRoot, prometheus.GaugeValue, float64(finalized))

	if c.cfg.PubSub != nil {
		for kind, n := range c.cfg.PubSub.SubscriptionsByKind() {
			ch <- prometheus.MustNewConstMetric(descSubscriptions, prometheus.GaugeValue, float64(n), kind)
		}
	}
	if c.cfg.Connections != nil {
		for kind, n := range c.cfg.Connections() {
			ch <- prometheus.MustNewConstMetric(descConnections, prometheus.GaugeValue, float64(n), kind)
		}
	}
	if pm := l.Store().Metrics(); pm != nil {
		ch <- prometheus.MustNewConstMetric(descDisk, prometheus.GaugeValue, float64(pm.DiskSpaceUsage()))
		ch <- prometheus.MustNewConstMetric(descDebt, prometheus.GaugeValue, float64(pm.Compact.EstimatedDebt))
		ch <- prometheus.MustNewConstMetric(descReadAmp, prometheus.GaugeValue, float64(pm.ReadAmp()))
	}
	// A failed read leaves the balance out of this scrape (never a false 0); the fault gauge tells why.
	if acct, found, err := l.Bank(ledger.Processed).Account(l.Genesis.Faucet.PublicKey()); err != nil {
		c.log.Warn("metrics: reading the faucet's balance", "err", err)
	} else {
		var lamports uint64
		if found {
			lamports = acct.Lamports
		}
		ch <- prometheus.MustNewConstMetric(descFaucet, prometheus.GaugeValue, float64(lamports))
	}
	ch <- flag(descFault, l.StorageFault() != nil)
}

// flag is a gauge of 1 while on holds, else 0.
func flag(desc *prometheus.Desc, on bool) prometheus.Metric {
	v := 0.0
	if on {
		v = 1
	}
	return prometheus.MustNewConstMetric(desc, prometheus.GaugeValue, v)
}
