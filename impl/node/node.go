// Package node wires a ledgerd node together: the ledger directory, the RPC handler, and the HTTP and WebSocket
// transports. cmd/ledgerd and the in-process tests both start nodes through it.
package node

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"

	"ledgerd/generated"
	"ledgerd/generated/docs"
	"ledgerd/generated/rpcapi"
	"ledgerd/impl/follow"
	"ledgerd/impl/health"
	"ledgerd/impl/jsonrpc"
	"ledgerd/impl/ledger"
	"ledgerd/impl/metrics"
	"ledgerd/impl/programs"
	"ledgerd/impl/pubsub"
	"ledgerd/impl/rpc"
	"ledgerd/impl/runtime"
	"ledgerd/impl/snapshot"
)

// Config is what a node is started with; the zero value of each field means the reference default.
type Config struct {
	LedgerDir    string // default ./test-ledger
	Reset        bool
	BindAddress  string // default 127.0.0.1
	RPCPort      int    // 0 (or -1) picks a free port; the binary's flag defaults to 8899
	WSPort       int    // 0 means RPCPort + 1, or a free port when RPCPort picks one; -1 picks a free port
	MaxBodyBytes int64  // default 51200
	Logger       *slog.Logger

	// RPCLimits bound the batch size, reply size and run time of one request; zero fields take the defaults.
	RPCLimits jsonrpc.Limits

	// Ledger settings (see ledger.Config); zero values take the defaults.
	SlotDuration      time.Duration
	FinalityDepth     uint64
	FinalityDepthZero bool
	AirdropCap        uint64
	// AirdropPerTimeCap and AirdropTimeSlice cap what one recipient may get from the faucet per slice (0: no cap).
	AirdropPerTimeCap uint64
	AirdropTimeSlice  time.Duration
	Genesis           ledger.GenesisOptions
	// Now is the ledger's clock (tests that need reproducible block times); default time.Now.
	Now func() time.Time
	// ExpectedGenesisHash refuses a ledger of another chain; VerifyLedger checks every table's checksums
	// before serving (see ledger.Config).
	ExpectedGenesisHash *[32]byte
	VerifyLedger        bool

	// Programs are the program modules the node runs (genesis creates their accounts on a new ledger); nil is
	// every module ledgerd ships (impl/programs). The loaders run deployed programs through the same list.
	Programs []runtime.Module

	// PubSub configures the subscriptions (limits, and which unstable ones are off).
	PubSub pubsub.Config

	// Snapshots configures the snapshots taken under <LedgerDir>/snapshots (LedgerDir is filled in);
	// NoSnapshots takes none. FromSnapshot starts the ledger directory as a copy of a snapshot, or of the newest
	// in a directory of snapshots (with Reset, replacing an existing ledger directory).
	Snapshots    snapshot.Config
	NoSnapshots  bool
	FromSnapshot string
	// Health names the known validators and the peers polled for their slots (Slot and Fault are filled in).
	Health health.Config
	// StoreFS is the ledger store's file system (tests: a full disk); nil is the operating system's.
	StoreFS vfs.FS

	// WarpSlot starts a new chain at this slot (see ledger.Config).
	WarpSlot uint64

	// BlockProduction is when slots end (clock, transaction or manual); EnableCheats serves the cheat methods
	// (surfnet_*, ledgerd_*) on any address, not only on loopback.
	BlockProduction ledger.BlockProduction
	EnableCheats    bool

	// GossipPort is the UDP port held as the gossip address getClusterNodes lists (0: any free port).
	GossipPort int
	// NoMetrics does not serve GET /metrics on the RPC port (served by default: see impl/metrics).
	NoMetrics bool

	// Fork makes the node a lazy fork of another cluster (--fork-url; fork.go).
	Fork *ForkOptions

	// Follow makes the node a read replica of a leader (--follow URL; follow.go).
	Follow   *FollowOptions
	follower *follow.Follower // made by Start from Follow

	// ValidatorLog also writes the log, from the ledger's opening on, to <LedgerDir>/validator.log, as the test
	// validator does (harnesses read its start-up lines there).
	ValidatorLog bool

	// History keeps rooted history in Bigtable and bounds the local ledger (bigtable.go).
	History HistoryOptions
}

// Defaults fills the zero fields with the reference node's defaults.
func (c *Config) Defaults() {
	if c.LedgerDir == "" {
		c.LedgerDir = "test-ledger"
	}
	if c.BindAddress == "" {
		c.BindAddress = "127.0.0.1"
	}
	if c.WSPort == 0 && c.RPCPort > 0 {
		c.WSPort = c.RPCPort + 1
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
}

// Node is a running node.
type Node struct {
	Genesis *ledger.Genesis
	Ledger  *ledger.Ledger
	PubSub  *pubsub.Hub
	HTTPURL string
	WSURL   string
	// Follower is the replay of a follower's leader (nil unless Config.Follow).
	Follower *follow.Follower

	cluster  *clusterParts
	log      *slog.Logger
	logFile  *os.File // validator.log; nil without Config.ValidatorLog
	httpSrv  *jsonrpc.Server
	wsSrv    *jsonrpc.Server
	wsHandle *jsonrpc.WSHandler
	done     chan error
	history  *history
}

// Start opens the ledger and starts serving.
func Start(cfg Config) (*Node, error) {
	cfg.Defaults()
	if err := prepareCluster(&cfg); err != nil {
		return nil, err
	}
	var err error
	if cfg.follower, err = prepareFollow(&cfg); err != nil {
		return nil, err
	}
	hist, err := openHistory(&cfg)
	if err != nil {
		return nil, err
	}
	histStarted := false
	defer func() {
		if !histStarted {
			hist.close()
		}
	}()
	modules := cfg.Programs
	if modules == nil {
		modules = programs.All()
	}
	l, err := ledger.Open(ledger.Config{Replica: cfg.follower != nil,
		Programs: runtime.NewRegistry(modules...),
		Dir:      cfg.LedgerDir, Reset: cfg.Reset, Genesis: cfg.Genesis, WarpSlot: cfg.WarpSlot, SlotDuration: cfg.SlotDuration,
		FinalityDepth: cfg.FinalityDepth, FinalityDepthZero: cfg.FinalityDepthZero, AirdropCap: cfg.AirdropCap,
		AirdropPerTimeCap: cfg.AirdropPerTimeCap, AirdropTimeSlice: cfg.AirdropTimeSlice,
		Logger: cfg.Logger, Now: cfg.Now, ExpectedGenesisHash: cfg.ExpectedGenesisHash, VerifyLedger: cfg.VerifyLedger,
		StoreFS: cfg.StoreFS, BlockProduction: cfg.BlockProduction, Fork: forkConfig(cfg.Fork),
		// The hub registers before the first slot, so subscribers never miss one and no event races the wiring.
		Paused: true,
	})
	if err != nil {
		return nil, fmt.Errorf("opening ledger %s: %w", cfg.LedgerDir, err)
	}
	var logFile *os.File
	if cfg.ValidatorLog {
		if logFile, err = openValidatorLog(cfg.LedgerDir, time.Now()); err != nil {
			l.Close()
			return nil, err
		}
		cfg.Logger = slog.New(slog.NewMultiHandler(cfg.Logger.Handler(), slog.NewTextHandler(logFile, nil)))
	}
	g := l.Genesis
	parts, err := startCluster(&cfg, l)
	if err != nil {
		l.Close()
		closeFile(logFile)
		return nil, err
	}
	identity := g.IdentityPubkey()
	if cfg.follower != nil {
		identity = cfg.follower.Identity()
	}
	handler := rpc.NewServer(rpc.Node{Identity: identity, GenesisHash: g.HashString(),
		Health: parts.monitor.Check, Ledger: l, Cluster: parts.info,
		Cheats: cfg.EnableCheats || rpc.IsLoopback(cfg.BindAddress)})
	if cfg.PubSub.Logger == nil {
		cfg.PubSub.Logger = cfg.Logger
	}
	hub := pubsub.New(l, cfg.PubSub)
	l.OnEvent(hub.OnEvent)
	var n *Node // its servers, which the metrics count the connections of, are made below
	var extra map[string]http.Handler
	var observer jsonrpc.Observer
	if !cfg.NoMetrics {
		m := metrics.New(metrics.Config{Ledger: l, PubSub: hub, Logger: cfg.Logger,
			Connections: func() map[string]int { return n.connections() }})
		l.OnEvent(m.OnEvent)
		if f := cfg.follower; f != nil {
			m.RegisterFollower(func() (uint64, bool, bool) { lag, ok := f.Lag(); return lag, ok, f.Fatal() != nil })
		}
		hist.register(m)
		extra = map[string]http.Handler{"/metrics": m.Handler()}
		observer = m
	}
	l.Start()
	handler.SetPubSub(hub)
	var d jsonrpc.Dispatcher = &rpcapi.Dispatcher{Handler: handler, Disabled: cfg.PubSub.DisabledMethods()}
	if cfg.follower != nil {
		d = cfg.follower.Dispatcher(d)
		cfg.follower.Run(l, cfg.Logger)
	}
	doc := generated.OpenRPC

	httpLn, err := listen(cfg.BindAddress, cfg.RPCPort)
	if err != nil {
		parts.close()
		l.Close()
		hub.Close()
		closeFile(logFile)
		return nil, err
	}
	wsLn, err := listen(cfg.BindAddress, cfg.WSPort)
	if err != nil {
		httpLn.Close()
		parts.close()
		l.Close()
		hub.Close()
		closeFile(logFile)
		return nil, err
	}
	n = &Node{Genesis: g, Ledger: l, PubSub: hub, cluster: parts, log: cfg.Logger, logFile: logFile, Follower: cfg.follower,
		done: make(chan error, 2)}
	parts.info.RPCAddr, parts.info.PubSubAddr = httpLn.Addr().String(), wsLn.Addr().String()
	n.HTTPURL = "http://" + httpLn.Addr().String()
	n.WSURL = "ws://" + wsLn.Addr().String()
	n.httpSrv = jsonrpc.NewServer(httpLn.Addr().String(), jsonrpc.NewHTTPHandler(d, jsonrpc.HTTPOptions{
		MaxBodyBytes: cfg.MaxBodyBytes, Limits: cfg.RPCLimits, Health: parts.monitor.Status, OpenRPC: doc, Docs: docs.HTML, Logger: cfg.Logger,
		Extra: extra, Observer: observer,
	}))
	n.wsHandle = jsonrpc.NewWSHandler(d, jsonrpc.WSOptions{Limits: cfg.RPCLimits, OpenRPC: doc, Logger: cfg.Logger,
		Observer: observer})
	n.wsSrv = jsonrpc.NewServer(wsLn.Addr().String(), n.wsHandle)
	// WebSocket connections live long; the HTTP read/write timeouts must not cut them.
	n.wsSrv.ReadTimeout, n.wsSrv.WriteTimeout = 0, 0
	if err := hist.start(l, &cfg); err != nil {
		n.Close(context.Background())
		return nil, err
	}
	n.history, histStarted = hist, true
	go func() { n.done <- serve(n.httpSrv.Server, httpLn) }()
	go func() { n.done <- serve(n.wsSrv.Server, wsLn) }()
	announce(cfg.Logger, identity, g.HashString(), parts.info)
	return n, nil
}

// connections counts the open client connections by transport, for the metrics.
func (n *Node) connections() map[string]int {
	if n == nil || n.httpSrv == nil || n.wsHandle == nil { // scraped before Start finished: cannot happen, as
		return nil // the metrics are served by the server Start makes last
	}
	return map[string]int{metrics.TransportHTTP: n.httpSrv.OpenConns(), metrics.TransportWebSocket: n.wsHandle.NumConns()}
}

func closeFile(f *os.File) {
	if f != nil {
		f.Close()
	}
}

func listen(addr string, port int) (net.Listener, error) {
	if port < 0 {
		port = 0
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(addr, strconv.Itoa(port)))
	if err != nil {
		return nil, fmt.Errorf("listening on %s:%d: %w", addr, port, err)
	}
	return ln, nil
}

func serve(s *http.Server, ln net.Listener) error {
	if err := s.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Done reports a server that stopped by itself (an error), so the binary can exit.
func (n *Node) Done() <-chan error { return n.done }

// Close stops serving: in-flight requests get up to the context's deadline to finish.
func (n *Node) Close(ctx context.Context) error {
	if ctx == nil {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
	}
	// Side by side, so each has the whole deadline.
	var err1, err2, err3 error
	var wg sync.WaitGroup
	wg.Go(func() { err1 = n.httpSrv.Shutdown(ctx) })
	wg.Go(func() { err2 = n.wsHandle.Shutdown(ctx) })
	wg.Go(func() { err3 = n.wsSrv.Shutdown(ctx) })
	wg.Wait()
	if n.Follower != nil {
		n.Follower.Close() // before the ledger: a replay runs on its producer
	}
	n.history.close() // before the ledger: the uploader and the pruning read it
	n.cluster.close() // before the ledger: a snapshot being written reads its store
	n.Ledger.Stop()   // no more events ...
	n.PubSub.Close()  // ... so the hub drains, reading the store, before it closes
	err4 := n.Ledger.Close()
	closeFile(n.logFile)
	return errors.Join(err1, err2, err3, err4)
}
