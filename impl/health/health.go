// Package health judges the node's health against its known validators, as the reference's /health and
// getHealth do, and polls the peer nodes it is given (their JSON-RPC addresses) for their identity, version,
// genesis and slot. Those peers are also the other nodes getClusterNodes lists.
//
// The rules (the specification's, in the reference's terms):
//   - the node's own store failed (Fault: damaged, or a full disk): unknown, whatever the peers say, as the
//     reference answers unknown when its blockstore read fails;
//   - no known validator configured: ok;
//   - no slot of a known validator known (none of the peers answering with a known identity has been heard from
//     within StaleAfter): unknown;
//   - otherwise, with cluster the highest confirmed slot of the known validators and mine the node's own
//     confirmed slot: ok while mine >= cluster - SlotDistance, else behind by cluster - mine.
//
// The reference compares optimistically confirmed slots (its own against the newest one the cluster's votes
// reached), so both sides here are confirmed slots: a peer is asked getSlot with commitment confirmed.
package health

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/generated/rpcclient"
	"ledgerd/impl/core"
)

// Defaults. The slot distance is the reference's HEALTH_CHECK_SLOT_DISTANCE (DELINQUENT_VALIDATOR_SLOT_DISTANCE).
// A peer is polled every 2 s (5 slots of 400 ms, far inside the distance); what it said counts for 30 s, the age
// past which the reference's newest health check stops trusting the cluster's latest confirmed block.
const (
	DefaultSlotDistance = 128
	DefaultPollInterval = 2 * time.Second
	DefaultStaleAfter   = 30 * time.Second
)

// The statuses, as the /health body spells them.
const (
	OK      = "ok"
	Behind  = "behind"
	Unknown = "unknown"
)

// Config configures a Monitor. Zero fields take the defaults.
type Config struct {
	// KnownValidators are the identities (base58) whose slots the node is judged against.
	KnownValidators []string
	// Peers are the JSON-RPC URLs of other nodes (http://host:port), polled for their identity and slot.
	Peers []string
	// SlotDistance is how many slots the node may trail the highest known validator and still be ok.
	SlotDistance uint64
	// PollInterval is the time between two polls of a peer. A poll gives up after the same time, but never
	// sooner than a second.
	PollInterval time.Duration
	// StaleAfter is how long what a peer answered counts once it stops answering.
	StaleAfter time.Duration
	// Slot returns the node's own confirmed slot; required when KnownValidators is not empty.
	Slot func() uint64
	// Fault returns the node's storage fault, nil while its store is healthy (nil: never any).
	Fault func() error
	// HTTPClient makes the polls (default: a client with PollInterval as its timeout).
	HTTPClient *http.Client
	Logger     *slog.Logger

	now func() time.Time // tests
}

// Peer is what is known of a peer node.
type Peer struct {
	URL string
	// RPC is the peer's JSON-RPC address, "host:port", from its URL.
	RPC string
	// Identity is the peer's identity (base58); empty until it answered.
	Identity     string
	Version      *string
	FeatureSet   *uint32
	ShredVersion *uint16 // from its genesis hash
	// Slot is its confirmed slot, as of SlotAt (the last successful poll; zero: never).
	Slot   uint64
	SlotAt time.Time
}

// Monitor holds the known validators and the peers' last answers, and keeps polling the peers.
type Monitor struct {
	cfg   Config
	log   *slog.Logger
	known map[string]bool
	now   func() time.Time

	mu    sync.Mutex
	peers []Peer // in the order given, without duplicates

	stop chan struct{}
	wg   sync.WaitGroup
}

// New checks the configuration and starts polling the peers (a first poll at once).
func New(cfg Config) (*Monitor, error) {
	cfg.SlotDistance = cmp.Or(cfg.SlotDistance, DefaultSlotDistance)
	cfg.PollInterval = cmp.Or(cfg.PollInterval, DefaultPollInterval)
	cfg.StaleAfter = cmp.Or(cfg.StaleAfter, DefaultStaleAfter)
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: pollTimeout(cfg.PollInterval)}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.now == nil {
		cfg.now = time.Now
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if len(cfg.KnownValidators) > 0 && cfg.Slot == nil {
		return nil, errors.New("health: known validators without the node's slot")
	}
	m := &Monitor{cfg: cfg, log: cfg.Logger, known: map[string]bool{}, now: cfg.now, stop: make(chan struct{})}
	for _, k := range cfg.KnownValidators {
		m.known[k] = true
	}
	seen := map[string]bool{}
	for _, raw := range cfg.Peers {
		addr, _ := rpcAddr(raw)
		if !seen[raw] {
			seen[raw] = true
			m.peers = append(m.peers, Peer{URL: raw, RPC: addr})
		}
	}
	for i := range m.peers {
		m.wg.Add(1)
		go m.poll(i)
	}
	return m, nil
}

// Validate checks the known validators (base58 pubkeys) and the peer URLs.
func (c *Config) Validate() error {
	for _, k := range c.KnownValidators {
		if _, err := core.ParsePubkey(k); err != nil {
			return fmt.Errorf("known validator %q: %w", k, err)
		}
	}
	for _, raw := range c.Peers {
		if _, err := rpcAddr(raw); err != nil {
			return fmt.Errorf("peer %q: %w", raw, err)
		}
	}
	return nil
}

// rpcAddr checks a peer URL and returns its "host:port" (the scheme's port when it names none).
func rpcAddr(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return "", errors.New("want an http:// or https:// URL with a host")
	}
	if port := u.Port(); port != "" {
		return net.JoinHostPort(u.Hostname(), port), nil
	}
	if u.Scheme == "https" {
		return net.JoinHostPort(u.Hostname(), "443"), nil
	}
	return net.JoinHostPort(u.Hostname(), "80"), nil
}

func pollTimeout(interval time.Duration) time.Duration { return max(interval, time.Second) }

// Close stops polling.
func (m *Monitor) Close() {
	select {
	case <-m.stop:
	default:
		close(m.stop)
	}
	m.wg.Wait()
}

// Check returns the node's status (OK, Behind or Unknown) and, when Behind, by how many slots.
func (m *Monitor) Check() (status string, numSlotsBehind uint64) {
	if m.cfg.Fault != nil && m.cfg.Fault() != nil {
		return Unknown, 0
	}
	if len(m.known) == 0 {
		return OK, 0
	}
	cluster, ok := m.clusterSlot()
	if !ok {
		return Unknown, 0
	}
	mine := m.cfg.Slot()
	if cluster <= mine || cluster-mine <= m.cfg.SlotDistance {
		return OK, 0
	}
	return Behind, cluster - mine
}

// Status is Check without the distance: the /health body.
func (m *Monitor) Status() string {
	s, _ := m.Check()
	return s
}

// clusterSlot is the highest fresh slot of a known validator.
func (m *Monitor) clusterSlot() (slot uint64, ok bool) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range m.peers {
		if m.known[p.Identity] && m.fresh(&p, now) {
			slot, ok = max(slot, p.Slot), true
		}
	}
	return slot, ok
}

func (m *Monitor) fresh(p *Peer, now time.Time) bool {
	return !p.SlotAt.IsZero() && now.Sub(p.SlotAt) <= m.cfg.StaleAfter
}

// Peers returns the peers that answered within StaleAfter, in the order they were given.
func (m *Monitor) Peers() []Peer {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Peer, 0, len(m.peers))
	for _, p := range m.peers {
		if p.Identity != "" && m.fresh(&p, now) {
			out = append(out, p)
		}
	}
	return slices.Clip(out)
}

// poll asks peer i for its state every PollInterval until Close.
func (m *Monitor) poll(i int) {
	defer m.wg.Done()
	m.mu.Lock()
	u := m.peers[i].URL
	m.mu.Unlock()
	c := rpcclient.New(u)
	c.HTTP = m.cfg.HTTPClient
	t := time.NewTicker(m.cfg.PollInterval)
	defer t.Stop()
	for {
		m.pollOnce(i, c)
		select {
		case <-m.stop:
			return
		case <-t.C:
		}
	}
}

func (m *Monitor) pollOnce(i int, c *rpcclient.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), pollTimeout(m.cfg.PollInterval))
	defer cancel()
	go func() {
		select {
		case <-m.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	id, err := c.GetIdentity(ctx)
	if err != nil {
		m.log.Debug("health: peer did not answer getIdentity", "peer", c.URL, "err", err)
		return
	}
	confirmed := rpcapi.Commitment(rpcapi.CommitmentConfirmed)
	slot, err := c.GetSlot(ctx, &rpcapi.GetSlotParams{Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: &confirmed})})
	if err != nil {
		m.log.Debug("health: peer did not answer getSlot", "peer", c.URL, "err", err)
		return
	}
	at := m.now()

	m.mu.Lock()
	p := m.peers[i]
	m.mu.Unlock()
	if p.Identity != id.Identity { // a new node behind the address: forget what the old one said
		p = Peer{URL: p.URL, RPC: p.RPC, Identity: id.Identity}
	}
	p.Slot, p.SlotAt = slot, at
	if v, err := c.GetVersion(ctx); err == nil {
		version := cmp.Or(v.SolanaCore, v.NodeCore)
		p.Version, p.FeatureSet = &version, &v.FeatureSet
	}
	if p.ShredVersion == nil {
		if gh, err := c.GetGenesisHash(ctx); err == nil {
			if b, err := base58.Decode(gh); err == nil && len(b) == 32 {
				sv := ShredVersion([32]byte(b))
				p.ShredVersion = &sv
			}
		}
	}
	m.mu.Lock()
	m.peers[i] = p
	m.mu.Unlock()
}

// ShredVersion derives a chain's shred version from its genesis hash, as the reference does for a chain
// without hard forks: the hash's bytes folded into two by XOR, read big-endian, plus one (never zero).
func ShredVersion(genesisHash [32]byte) uint16 {
	var acc [2]byte
	for i, b := range genesisHash {
		acc[i%2] ^= b
	}
	v := uint16(acc[0])<<8 | uint16(acc[1])
	if v == 0xffff {
		return v
	}
	return v + 1
}
