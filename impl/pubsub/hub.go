// Package pubsub owns the node's subscriptions: the registry (ids from one node-wide counter, shared by identical
// subscriptions across connections, each connection holding its own reference), the limits, and the fan-out of
// ledger events into notifications at each subscription's commitment.
//
// As in the reference, account and program subscriptions hear of a slot once, when the bank at their
// commitment holds it: processed ones when the slot freezes, confirmed and finalized ones when it reaches that
// level, each with the account's state in that bank. Signature and logs subscriptions at processed hear of each
// transaction as it executes.
//
// The ledger calls OnEvent on its producer goroutine. OnEvent never blocks: it appends the event to a queue that
// one worker goroutine drains, in order, so notifications go out in slot order. The queue is bounded where it
// can grow with load (transactions): past the bound, the rest of the slot's transactions are not queued and the
// worker coalesces them into the slot's frozen event, reading the final state from the frozen bank and the
// stored block instead. Slot events are never dropped; they come at the slot rate.
//
// The worker never waits on a client: Conn.Notify queues the frame on the connection or drops the connection
// when its queue is full (a client that cannot keep up is disconnected), and closing a connection frees all of
// its subscriptions.
//
// No notification goes out before the reply that carries its subscription id: a connection that can report
// when a call's reply is queued (ReplyNotifier, as jsonrpc's WebSocket connections do) holds its notifications
// from the moment a subscription is registered until the reply of that call has been queued, then sends them
// in order, as go-ethereum's notifier does.
package pubsub

import (
	"encoding/json"
	"log/slog"
	"sync"
	"sync/atomic"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
)

// Conn is the connection a subscription was made on (jsonrpc.Conn satisfies it).
type Conn interface {
	// Notify queues a notification frame; it never blocks (the transport drops a connection that cannot keep up).
	Notify(method string, params any) error
	// OnClose registers f to run once when the connection ends.
	OnClose(f func())
}

// ReplyNotifier is a Conn that can tell when the reply of the call in progress has been queued.
type ReplyNotifier interface {
	// AfterReply registers f to run once the reply of the call in progress has been queued ahead of any frame
	// queued later, or the connection has ended.
	AfterReply(f func())
}

// Limits and queue sizes.
const (
	// DefaultMaxPerConnection bounds the subscriptions one connection may hold.
	DefaultMaxPerConnection = 20_000
	// DefaultMaxTotal is the reference's MAX_ACTIVE_SUBSCRIPTIONS, counted per subscriber as it does.
	DefaultMaxTotal = 1_000_000
	// DefaultMaxQueuedTransactions bounds the transaction events waiting for the worker.
	DefaultMaxQueuedTransactions = 1 << 16
	// maxHeld bounds the notifications a connection holds while a subscribe reply is on its way; the reply
	// waits only for the client to read, so a client that holds it this long is one the transport drops.
	maxHeld = 4096
)

// Config tunes a Hub. Zero fields take the defaults.
type Config struct {
	MaxPerConnection      int
	MaxTotal              int
	MaxQueuedTransactions int
	// The unstable subscriptions are served unless disabled; a disabled method answers -32601, as the
	// reference does without its enable flags. DisabledMethods lists them for the dispatcher.
	DisableBlock        bool
	DisableSlotsUpdates bool
	DisableVote         bool
	Logger              *slog.Logger
}

// DisabledMethods returns the subscribe and unsubscribe methods the config turns off, for
// rpcapi.Dispatcher.Disabled.
func (c Config) DisabledMethods() map[string]bool {
	out := map[string]bool{}
	for _, off := range []struct {
		disabled bool
		names    [2]string
	}{
		{c.DisableBlock, [2]string{rpcapi.MethodBlockSubscribe, rpcapi.MethodBlockUnsubscribe}},
		{c.DisableSlotsUpdates, [2]string{rpcapi.MethodSlotsUpdatesSubscribe, rpcapi.MethodSlotsUpdatesUnsubscribe}},
		{c.DisableVote, [2]string{rpcapi.MethodVoteSubscribe, rpcapi.MethodVoteUnsubscribe}},
	} {
		if off.disabled {
			out[off.names[0]], out[off.names[1]] = true, true
		}
	}
	return out
}

// Hub is the subscription registry and its notification worker. Create it with New, register OnEvent with the
// ledger, and Close it after the ledger.
type Hub struct {
	l   *ledger.Ledger
	cfg Config
	log *slog.Logger

	// seq numbers the queued items; a subscription is told only about items queued after it was made.
	seq       atomic.Uint64
	processed atomic.Uint64 // the seq of the last item the worker finished
	// subscribedAt is the queue position of the newest subscription (its holder's since): the worker looks for
	// subscriptions made inside a slot only when one was.
	subscribedAt atomic.Uint64
	q            queue
	coalesced    atomic.Uint64

	mu     sync.RWMutex // guards the registry below; the worker reads it, calls write it
	nextID uint64
	byKey  map[string]*sub
	byID   map[uint64]*sub
	conns  map[Conn]*connState
	refs   int // references held by connections (the reference's subscription count)

	accounts     [3]map[core.Pubkey]subList // by commitment, then address
	programs     [3]map[core.Pubkey]subList // by commitment, then owner
	signatures   map[core.Signature]subList
	logsAll      [3]subList // "all" and "allWithVotes"
	logsMentions [3]map[core.Pubkey]subList
	blocks       [3]subList
	slots        subList
	slotsUpdates subList
	roots        subList
	votes        subList

	stop    chan struct{}
	stopped chan struct{}
	once    sync.Once

	w worker // owned by the worker goroutine
	// blockTxs reads a block's transactions from the store (the ledger's; tests count the reads).
	blockTxs func(*ledger.BlockInfo) ([]*ledger.TxRecord, error)
}

// New returns a hub over l and starts its worker.
func New(l *ledger.Ledger, cfg Config) *Hub {
	if cfg.MaxPerConnection <= 0 {
		cfg.MaxPerConnection = DefaultMaxPerConnection
	}
	if cfg.MaxTotal <= 0 {
		cfg.MaxTotal = DefaultMaxTotal
	}
	if cfg.MaxQueuedTransactions <= 0 {
		cfg.MaxQueuedTransactions = DefaultMaxQueuedTransactions
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	h := &Hub{
		l: l, cfg: cfg, log: cfg.Logger,
		byKey:      map[string]*sub{},
		byID:       map[uint64]*sub{},
		conns:      map[Conn]*connState{},
		signatures: map[core.Signature]subList{},
		stop:       make(chan struct{}),
		stopped:    make(chan struct{}),
		blockTxs:   l.BlockTransactions,
	}
	for c := range 3 {
		h.accounts[c] = map[core.Pubkey]subList{}
		h.programs[c] = map[core.Pubkey]subList{}
		h.logsMentions[c] = map[core.Pubkey]subList{}
	}
	h.q.init(cfg.MaxQueuedTransactions)
	h.w.init(l)
	go h.run()
	return h
}

// Close stops the worker. Call it after the ledger has stopped emitting events.
func (h *Hub) Close() {
	h.once.Do(func() {
		close(h.stop)
		<-h.stopped
	})
}

// Stats counts what the registry holds.
type Stats struct {
	Subscriptions int // distinct subscription ids
	References    int // ids held by connections (an id shared by n connections counts n)
	Connections   int // connections holding at least one subscription or having held one
	// CoalescedSlots counts the slots whose transaction events overflowed the queue and were caught up from
	// the frozen slot instead.
	CoalescedSlots uint64
}

// Stats returns the registry's counts.
func (h *Hub) Stats() Stats {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return Stats{Subscriptions: len(h.byID), References: h.refs, Connections: len(h.conns),
		CoalescedSlots: h.coalesced.Load()}
}

// kind is a subscription method.
type kind uint8

const (
	kindAccount kind = iota
	kindProgram
	kindLogs
	kindSignature
	kindSlot
	kindSlotsUpdates
	kindRoot
	kindBlock
	kindVote
)

var subscribeMethods = [...]string{rpcapi.MethodAccountSubscribe, rpcapi.MethodProgramSubscribe,
	rpcapi.MethodLogsSubscribe, rpcapi.MethodSignatureSubscribe, rpcapi.MethodSlotSubscribe,
	rpcapi.MethodSlotsUpdatesSubscribe, rpcapi.MethodRootSubscribe, rpcapi.MethodBlockSubscribe, rpcapi.MethodVoteSubscribe}

var notificationMethods = [...]string{rpcapi.MethodAccountNotification, rpcapi.MethodProgramNotification,
	rpcapi.MethodLogsNotification, rpcapi.MethodSignatureNotification, rpcapi.MethodSlotNotification,
	rpcapi.MethodSlotsUpdatesNotification, rpcapi.MethodRootNotification, rpcapi.MethodBlockNotification,
	rpcapi.MethodVoteNotification}

// logsMode is the filter of a logs subscription.
type logsMode uint8

const (
	logsAll logsMode = iota // every transaction but simple votes
	logsAllWithVotes
	logsMentions
)

// sub is one subscription id. Its parameters never change after it is registered; holders changes under h.mu.
type sub struct {
	id         uint64
	key        string // method and canonical params: identical subscriptions share the id
	kind       kind
	commitment ledger.Commitment

	pubkey   core.Pubkey // account, program, logs mentions, block mentions
	sig      core.Signature
	encoding rpcapi.AccountEncoding // account data encoding (account, program)
	slice    *rpcapi.DataSlice
	match    func(data []byte) bool // program filters; nil keeps every account
	logs     logsMode
	received bool // signature: also notify reception
	block    *blockOptions

	holders []holder
}

// holder is one connection's reference to a subscription; since is the queue position when it was taken, and
// floor the ledger's processed, confirmed and finalized slots just before. The ledger publishes a slot's new
// level before it emits the event, so an event queued after the subscription may concern a slot that had
// already reached the subscription's commitment when it was made; floor leaves those out, as the reference
// does for a slot that reached the commitment before the subscription.
type holder struct {
	cs    *connState
	since uint64
	floor [3]uint64
}

// anySlot passes every floor: for notifications that are not of a slot reaching a commitment.
const anySlot = ^uint64(0)

type connState struct {
	conn Conn
	subs map[uint64]*sub

	gate    sync.Mutex // guards the fields below; taken after h.mu, never before it
	pending int        // subscribe replies not yet queued: notifications wait in held
	held    []heldNote
	dropped int // notifications dropped past maxHeld
}

type heldNote struct {
	method string
	params []byte
}

// notify sends a notification frame to the connection, or holds it while a subscribe reply is pending.
func (cs *connState) notify(method string, params []byte) {
	cs.gate.Lock()
	defer cs.gate.Unlock()
	if cs.pending == 0 {
		_ = cs.conn.Notify(method, json.RawMessage(params))
		return
	}
	if len(cs.held) < maxHeld {
		cs.held = append(cs.held, heldNote{method: method, params: params})
	} else {
		cs.dropped++
	}
}

// replied is called once the reply of a subscribe call has been queued: with no other reply pending, the held
// notifications go out, in order.
func (cs *connState) replied(log *slog.Logger) {
	cs.gate.Lock()
	defer cs.gate.Unlock()
	if cs.pending--; cs.pending > 0 {
		return
	}
	for _, n := range cs.held {
		_ = cs.conn.Notify(n.method, json.RawMessage(n.params))
	}
	clear(cs.held)
	cs.held = cs.held[:0]
	if cs.dropped > 0 {
		log.Warn("pubsub: dropped notifications held behind a subscribe reply the client did not read",
			"dropped", cs.dropped)
		cs.dropped = 0
	}
}

// subList is an index entry. It is copied on removal, so a worker holding an old slice never sees it change.
type subList []*sub

func (l subList) without(s *sub) subList {
	out := make(subList, 0, len(l))
	for _, x := range l {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

func addTo[K comparable](m map[K]subList, k K, s *sub) { m[k] = append(m[k], s) }

func removeFrom[K comparable](m map[K]subList, k K, s *sub) {
	if l := m[k].without(s); len(l) > 0 {
		m[k] = l
	} else {
		delete(m, k)
	}
}

// add registers s for conn (or gives conn a reference to the identical subscription already registered) and
// returns its id. Caller must not hold h.mu.
func (h *Hub) add(c Conn, s *sub) (uint64, error) {
	var floor [3]uint64
	floor[ledger.Processed], floor[ledger.Confirmed], floor[ledger.Finalized] = h.l.Slots()
	h.mu.Lock()
	cs := h.conns[c]
	created := cs == nil
	if created {
		cs = &connState{conn: c, subs: map[uint64]*sub{}}
		h.conns[c] = cs
	}
	existing := h.byKey[s.key]
	if existing != nil {
		s = existing
		if cs.subs[s.id] == s {
			// The reference replaces the connection's token for the id: still one reference.
			h.mu.Unlock()
			return s.id, nil
		}
	}
	if len(cs.subs) >= h.cfg.MaxPerConnection || h.refs >= h.cfg.MaxTotal {
		if created {
			delete(h.conns, c)
		}
		h.mu.Unlock()
		return 0, rpcapi.NewSubscriptionLimitReachedError()
	}
	if existing == nil {
		s.id = h.nextID
		h.nextID++
		h.byKey[s.key] = s
		h.byID[s.id] = s
		h.index(s, true)
	}
	rn, holds := c.(ReplyNotifier)
	if holds {
		// Before the holder is visible to the worker, so that not even the first notification can pass.
		cs.gate.Lock()
		cs.pending++
		cs.gate.Unlock()
	}
	since := h.seq.Load()
	s.holders = append(s.holders, holder{cs: cs, since: since, floor: floor})
	h.subscribedAt.Store(max(h.subscribedAt.Load(), since)) // under h.mu: no other add races the store
	cs.subs[s.id] = s
	h.refs++
	h.mu.Unlock()
	if created {
		// Outside the lock: OnClose runs f at once when the connection has already ended.
		c.OnClose(func() { h.dropConn(c) })
	}
	if testHookSubscribed != nil {
		testHookSubscribed(h)
	}
	if holds {
		rn.AfterReply(func() { cs.replied(h.log) })
	}
	return s.id, nil
}

// testHookSubscribed, when set by a test, runs after a subscription is registered and before its reply is
// written.
var testHookSubscribed func(*Hub)

// Unsubscribe releases conn's reference to id. As in the reference, the id only has to be held by conn: any
// unsubscribe method releases any kind of subscription. An unknown or foreign id is -32602.
func (h *Hub) Unsubscribe(c Conn, id uint64) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	cs := h.conns[c]
	if cs == nil || cs.subs[id] == nil {
		return rpcapi.NewInvalidSubscriptionIdError()
	}
	h.release(cs, cs.subs[id])
	return nil
}

// dropConn frees every subscription of a closed connection.
func (h *Hub) dropConn(c Conn) {
	h.mu.Lock()
	defer h.mu.Unlock()
	cs := h.conns[c]
	if cs == nil {
		return
	}
	for _, s := range cs.subs {
		h.release(cs, s)
	}
	delete(h.conns, c)
}

// release drops cs's reference to s, and s itself with its last reference. Caller holds h.mu.
func (h *Hub) release(cs *connState, s *sub) {
	if cs.subs[s.id] != s {
		return
	}
	delete(cs.subs, s.id)
	h.refs--
	holders := make([]holder, 0, len(s.holders))
	for _, hd := range s.holders {
		if hd.cs != cs {
			holders = append(holders, hd)
		}
	}
	s.holders = holders
	if len(holders) == 0 {
		delete(h.byKey, s.key)
		delete(h.byID, s.id)
		h.index(s, false)
	}
}

// index adds s to (or removes it from) the index its events are matched with. Caller holds h.mu.
func (h *Hub) index(s *sub, add bool) {
	list := func(l *subList) {
		if add {
			*l = append(*l, s)
		} else {
			*l = l.without(s)
		}
	}
	keyed := func(m map[core.Pubkey]subList, k core.Pubkey) {
		if add {
			addTo(m, k, s)
		} else {
			removeFrom(m, k, s)
		}
	}
	switch s.kind {
	case kindAccount:
		keyed(h.accounts[s.commitment], s.pubkey)
	case kindProgram:
		keyed(h.programs[s.commitment], s.pubkey)
	case kindSignature:
		if add {
			addTo(h.signatures, s.sig, s)
		} else {
			removeFrom(h.signatures, s.sig, s)
		}
	case kindLogs:
		if s.logs == logsMentions {
			keyed(h.logsMentions[s.commitment], s.pubkey)
		} else {
			list(&h.logsAll[s.commitment])
		}
	case kindBlock:
		list(&h.blocks[s.commitment])
	case kindSlot:
		list(&h.slots)
	case kindSlotsUpdates:
		list(&h.slotsUpdates)
	case kindRoot:
		list(&h.roots)
	case kindVote:
		list(&h.votes)
	}
}

// targets returns the connections of s that subscribed before queue item seq, of slot reaching commitment c,
// and before slot reached c. Caller holds h.mu (read).
func (s *sub) targets(seq uint64, c ledger.Commitment, slot uint64) []*connState {
	return s.targetsFrom(0, seq, c, slot)
}

// targetsFrom is targets restricted to the connections that subscribed at or after queue item from: those
// that an earlier item (from) did not reach. Caller holds h.mu (read).
func (s *sub) targetsFrom(from, seq uint64, c ledger.Commitment, slot uint64) []*connState {
	var out []*connState
	for _, hd := range s.holders {
		// The processed floor is the working slot, which has not frozen yet: it is still to come.
		if hd.since >= from && hd.since < seq && (slot > hd.floor[c] || c == ledger.Processed && slot == hd.floor[c]) {
			out = append(out, hd.cs)
		}
	}
	return out
}
