package ledger

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/runtime"
	"ledgerd/impl/store"
)

// Config is how a ledger runs. Zero fields take the defaults.
type Config struct {
	Dir   string
	Reset bool
	// Genesis applies only when a new chain is created.
	Genesis GenesisOptions
	// WarpSlot starts a new chain at this slot (the test validator's --warp-slot): its first block is at WarpSlot,
	// following the genesis hash, and production goes on from there.
	WarpSlot uint64
	// SlotDuration is the time between slots (default 400 ms).
	SlotDuration time.Duration
	// FinalityDepth is how many slots a rooted slot trails the confirmed one (default 32; 0 is allowed only
	// through FinalityDepthZero, since the zero value means the default).
	FinalityDepth     uint64
	FinalityDepthZero bool
	// AirdropCap is the most lamports one requestAirdrop may ask for (default DefaultAirdropCap).
	AirdropCap uint64
	// AirdropPerTimeCap is the most lamports one recipient may receive from the faucet in one AirdropTimeSlice
	// (default 0: no cap, as the reference's test faucet); AirdropTimeSlice defaults to DefaultFaucetTimeSlice.
	AirdropPerTimeCap uint64
	AirdropTimeSlice  time.Duration
	// Programs are the program modules the ledger runs: the runtime's registry and, on a new chain, the
	// program accounts at genesis (default: DefaultPrograms(); impl/node hands in the list it assembles).
	Programs *runtime.Registry
	// StoreInMemory keeps the database in memory (tests).
	StoreInMemory bool
	// StoreFS is the store's file system (tests: a full or failing disk); nil is the operating system's.
	StoreFS vfs.FS
	Logger  *slog.Logger
	// Now is the clock block times are read from (tests); default time.Now. Slots are paced by the real clock.
	Now func() time.Time
	// Paused opens the ledger without producing: Start begins, once the event listeners are registered.
	Paused bool
	// ExpectedGenesisHash, when set, refuses a ledger of another genesis (--expected-genesis-hash).
	ExpectedGenesisHash *[32]byte
	// VerifyLedger reads the whole store before serving, checking every table's checksums (--verify-ledger).
	VerifyLedger bool
	// BlockProduction is when slots end (modes.go); the zero value is on the clock.
	BlockProduction BlockProduction
	// Replica opens a follower's ledger (replica.go): its slots are only the leader's blocks, replayed through
	// ReplayBlock; it produces, votes, executes and changes nothing of its own.
	Replica bool
	// Fork, when set, makes the ledger a lazy fork of another cluster (fork.go).
	Fork *ForkConfig
}

// Defaults.
const (
	DefaultSlotDuration  = 400 * time.Millisecond
	DefaultFinalityDepth = 32
	DefaultAirdropCap    = 10_000 * LamportsPerSOL
	// pruneLag keeps account versions this many slots below the root, so that a reader holding the finalized
	// bank of a moment ago never sees a version pruned under it.
	pruneLag = 64
	// slotHashesKept is how many recent blocks a restart at least replays: enough to rebuild SlotHashes (and,
	// with the finality depth, the blockhash queue and status cache).
	slotHashesKept = sysvar.SlotHashesMaxEntries
)

// Meta keys of the ledger in the store.
const (
	metaTip = "ledger.tip" // u64: the newest frozen (and persisted) slot
)

// Commitment is a level of a view.
type Commitment uint8

const (
	Processed Commitment = iota
	Confirmed
	Finalized
)

func (c Commitment) String() string {
	return [...]string{"processed", "confirmed", "finalized"}[c]
}

// ParseCommitment reads the commitment names of the specification. The names the reference retired (recent,
// single, singleGossip, root, max) are not among them: its CommitmentLevel no longer has them, so it refuses them.
func ParseCommitment(s string) (Commitment, bool) {
	switch s {
	case "processed":
		return Processed, true
	case "confirmed":
		return Confirmed, true
	case "finalized":
		return Finalized, true
	}
	return 0, false
}

// DefaultPrograms returns the registry of the shipped program modules (impl/programs), for callers that hand
// the ledger none.
func DefaultPrograms() *runtime.Registry {
	return programs.Registry()
}

// Ledger is an open chain: the store, the banks, and the block producer that owns the only writable bank.
type Ledger struct {
	Genesis *Genesis

	cfg      Config
	log      *slog.Logger
	st       *store.Store
	fault    *faultState
	baseEnv  *runtime.Env
	schedule sysvar.EpochSchedule
	depth    uint64

	mu        sync.RWMutex // guards the bank pointers and slots below
	working   *Bank
	banks     map[uint64]*Bank // frozen banks from the root up
	confirmed uint64
	root      uint64
	firstSlot uint64 // the oldest block held
	// recentFees are the prioritization fees of the last maxRecentFees frozen slots, oldest first.
	recentFees []*feeSummary

	statusMu sync.RWMutex
	status   *statusCache

	// Owned by the producer goroutine (and Open before it starts).
	pending     *frozenSlot // a frozen bank the store has not taken yet (a full disk)
	queue       *blockhashQueue
	slotHashes  sysvar.SlotHashes
	slotHistory *sysvar.SlotHistory
	nextTick    time.Time

	submit    chan *submission
	stop      chan struct{}
	stopped   chan struct{}
	startOnce sync.Once
	stopOnce  sync.Once
	closeOnce sync.Once

	perf *perfSampler

	airdropMu sync.Mutex
	faucet    faucetLimiter

	checks         relaxedChecks // the developer's relaxed signature and blockhash checks
	supplyOverride supplyState   // what surfnet_setSupply set getSupply to answer

	eventMu   sync.RWMutex
	listeners []func(Event)

	// tower is the node's local vote state (owned by the producer).
	tower *vote.State

	recorder *slotRecorder // nil with StoreInMemory
	replica  replicaState  // a follower's replay (replica.go)

	dev devState // block production controls, time travel and snapshots (modes.go, revert.go)

	fork *fork // nil unless the ledger forks another cluster (fork.go)
}

// Open opens (or creates) the chain in cfg.Dir and starts producing slots (unless cfg.Paused).
func Open(cfg Config) (*Ledger, error) {
	if cfg.SlotDuration <= 0 {
		cfg.SlotDuration = DefaultSlotDuration
	}
	if cfg.FinalityDepth == 0 && !cfg.FinalityDepthZero {
		cfg.FinalityDepth = DefaultFinalityDepth
	}
	cfg.AirdropCap = cmp.Or(cfg.AirdropCap, DefaultAirdropCap)
	if cfg.Programs == nil {
		cfg.Programs = DefaultPrograms()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if err := checkExpectedGenesis(&cfg, nil); err != nil {
		return nil, err
	}
	openGenesis := OpenGenesis
	if cfg.Replica {
		openGenesis, cfg.BlockProduction = openReplicaGenesis, ProduceOnRequest
	}
	g, err := openGenesis(cfg.Dir, cfg.Reset, cfg.Genesis)
	if err != nil {
		return nil, err
	}
	if err := checkExpectedGenesis(&cfg, g); err != nil {
		return nil, err
	}
	cfg.Programs = withoutReplacedPrograms(cfg.Programs, g.Config.Accounts)
	var rec *slotRecord
	if !cfg.StoreInMemory {
		if rec, err = readSlotRecord(cfg.Dir); err != nil {
			return nil, err
		}
		if rec != nil && rec.Genesis != core.Hash(g.Hash) {
			return nil, genesisDamaged(cfg.Dir, fmt.Sprintf("%s hashes to %s, but the chain's genesis hash is %s "+
				"(recorded in %s)", GenesisFile, g.HashString(), rec.Genesis, filepath.Join(cfg.Dir, SlotRecordFile)))
		}
	}
	schedule, err := sysvar.NewEpochSchedule(g.Config.SlotsPerEpoch, g.Config.SlotsPerEpoch, g.Config.Warmup)
	if err != nil {
		return nil, err
	}
	// Small memtables keep the write-ahead logs (recycled, one memtable each) and so an idle node's disk small.
	fault := &faultState{log: cfg.Logger}
	st, err := store.Open(filepath.Join(cfg.Dir, "accounts"), store.Options{InMemory: cfg.StoreInMemory,
		MemTableSize: 2 << 20, OnError: fault.onBackground, FS: cfg.StoreFS})
	if err != nil {
		if store.IsCorruption(err) {
			return nil, storeDamaged(cfg.Dir, "its store does not open", err)
		}
		return nil, storeUnopened(cfg.Dir, err)
	}
	l := &Ledger{
		Genesis:     g,
		cfg:         cfg,
		log:         cfg.Logger,
		st:          st,
		fault:       fault,
		schedule:    schedule,
		depth:       cfg.FinalityDepth,
		banks:       make(map[uint64]*Bank),
		status:      newStatusCache(),
		queue:       newBlockhashQueue(),
		slotHistory: sysvar.NewSlotHistory(),
		submit:      make(chan *submission, 1024),
		stop:        make(chan struct{}),
		stopped:     make(chan struct{}),
		perf:        newPerfSampler(),
		dev:         newDevState(),
	}
	if cfg.Fork != nil {
		if cfg.Fork.Source == nil {
			st.Close()
			return nil, errNoForkSource
		}
		l.fork = newFork(l, cfg.Fork)
	}
	l.baseEnv = runtime.DefaultEnv(core.Hash{}, cfg.Programs)
	l.baseEnv.EpochSchedule = schedule
	l.baseEnv.Rent = g.Config.SysvarRent()
	last := sysvar.LastRestartSlot{}
	rewards := sysvar.EpochRewards{}
	l.baseEnv.SysvarData = map[core.Pubkey][]byte{
		core.SysvarStakeHistoryID:    sysvar.StakeHistory{}.AccountData(),
		core.SysvarEpochRewardsID:    rewards.Marshal(),
		core.SysvarLastRestartSlotID: last.Marshal(),
	}

	if h, found, err := st.GetMeta(metaStakeHistory); err == nil && found {
		l.baseEnv.SysvarData[core.SysvarStakeHistoryID] = h
	}
	if err := l.startChain(rec); err != nil {
		st.Close()
		return nil, err
	}
	if !cfg.StoreInMemory {
		l.recorder = newSlotRecorder(cfg.Dir, l.log)
		l.OnEvent(l.recordSlot)
	}
	if !cfg.Paused {
		l.Start()
	}
	return l, nil
}

// startChain checks the store (see integrity.go) and then resumes its chain, or creates one in an empty store.
func (l *Ledger) startChain(rec *slotRecord) error {
	if l.cfg.VerifyLedger {
		start := time.Now()
		stats, err := l.st.Verify()
		if err != nil {
			return storeDamaged(l.cfg.Dir, "--verify-ledger found a damaged table", err)
		}
		l.log.Info("ledger verified", "entries", stats.Points, "took", time.Since(start).Round(time.Millisecond))
	}
	tip, found, err := l.st.GetMetaU64(metaTip)
	if err != nil {
		return storeDamaged(l.cfg.Dir, "reading its newest slot", err)
	}
	if err := l.checkSlotRecord(rec, tip, found); err != nil {
		return err
	}
	if !found {
		if first, any, err := l.st.FirstBlock(); err != nil || any {
			return storeDamaged(l.cfg.Dir, fmt.Sprintf("its store holds blocks (from slot %d) but no newest slot", first), err)
		}
		return l.createGenesis()
	}
	if err := l.checkGenesisHash(); err != nil {
		return err
	}
	return l.restore(tip)
}

// createGenesis writes slot 0 (or the warp slot): the genesis accounts and the genesis block, which is rooted at
// once.
func (l *Ledger) createGenesis() error {
	g := l.Genesis
	b := l.st.NewBatch()
	var capital uint64
	for _, a := range genesisAccounts(g, &l.baseEnv.Rent, l.cfg.Programs.Modules()) {
		b.PutAccount(store.Pubkey(a.Pubkey), 0, store.Account{Lamports: a.Lamports, Owner: a.Owner, Executable: a.Executable,
			RentEpoch: a.RentEpoch, Data: a.Data})
		indexTokenAccount(b, a.Pubkey, &runtime.Account{Lamports: a.Lamports, Owner: a.Owner, Data: a.Data})
		capital += a.Lamports
	}
	warp := l.cfg.WarpSlot
	info := &BlockInfo{
		Slot:                warp,
		Blockhash:           blockhash(core.Hash(g.Hash), warp, nil),
		PreviousBlockhash:   core.Hash(g.Hash),
		BlockTime:           g.Config.CreationTime,
		EpochStartTimestamp: g.Config.CreationTime,
		Capitalization:      capital,
	}
	b.PutBlock(warp, encodeBlock(info))
	b.SetMeta(metaGenesisHash, g.Hash[:])
	b.SetMetaU64(metaTip, warp)
	if err := b.Commit(true); err != nil {
		return err
	}
	if !l.cfg.StoreInMemory {
		if err := writeSlotRecord(l.cfg.Dir, &slotRecord{Slot: warp, Hash: info.Blockhash, Genesis: core.Hash(g.Hash)}); err != nil {
			return err
		}
	}
	l.replay([]*BlockInfo{info}, warp, false)
	return nil
}

// genesisAccounts lists the accounts of a new chain in the reference's order of precedence: the accounts of the
// program modules, then the configured ones (--account, --bpf-program), which replace them, then the node's own
// (faucet, identity, vote and stake accounts, SPL Token's wrapped-SOL mint, the stake config), which the reference
// writes over any configured account at the same address.
func genesisAccounts(g *Genesis, rent *sysvar.Rent, modules []runtime.Module) []GenesisAccount {
	byKey := map[core.Pubkey]GenesisAccount{}
	var order []core.Pubkey
	add := func(a GenesisAccount) {
		if _, ok := byKey[a.Pubkey]; !ok {
			order = append(order, a.Pubkey)
		}
		byKey[a.Pubkey] = a
	}
	for _, a := range programAccounts(modules, rent) {
		add(a)
	}
	for _, a := range g.Config.Accounts {
		add(a)
	}
	add(GenesisAccount{Pubkey: g.Faucet.PublicKey(), Lamports: g.Config.FaucetLamports, Owner: core.SystemProgramID,
		RentEpoch: runtime.RentExemptRentEpoch})
	add(GenesisAccount{Pubkey: g.Identity.PublicKey(), Lamports: IdentityLamports, Owner: core.SystemProgramID,
		RentEpoch: runtime.RentExemptRentEpoch})
	for _, a := range validatorAccounts(g, rent) {
		add(a)
	}
	add(GenesisAccount{Pubkey: core.NativeMintID, Lamports: NativeMintLamports, Owner: core.TokenProgramID,
		RentEpoch: NativeMintRentEpoch, Data: token.NativeMintData()})
	add(stakeConfigAccount(rent))
	out := make([]GenesisAccount, len(order))
	for i, k := range order {
		out[i] = byKey[k]
	}
	return out
}

// programAccounts are the program accounts of the modules, laid out as the reference lays out a program of the
// module's loader. Builtins are accounts of the native loader whose data is the program's name. Programs deployed on
// chain in the reference and run natively here are executable accounts of the loader that owns them on mainnet,
// their data a marker naming the build, not an ELF; under the upgradeable loader, a program account points at its
// program-data account.
func programAccounts(modules []runtime.Module, rent *sysvar.Rent) []GenesisAccount {
	var out []GenesisAccount
	for _, m := range modules {
		switch d := m.Genesis; d.Loader {
		case core.Pubkey{}: // no program account (the sysvar owner)
		case core.NativeLoaderProgramID:
			out = append(out, GenesisAccount{Pubkey: m.ID, Lamports: 1, Owner: d.Loader, Executable: true,
				RentEpoch: runtime.RentExemptRentEpoch, Data: []byte(d.Data)})
		case core.BPFLoaderUpgradeableProgramID:
			out = append(out, upgradeableProgram(m.ID, rent)...)
		default:
			out = append(out, GenesisAccount{Pubkey: m.ID, Lamports: rent.MinimumBalance(uint64(len(d.Data))), Owner: d.Loader,
				Executable: true, RentEpoch: runtime.RentExemptRentEpoch, Data: []byte(d.Data)})
		}
	}
	return out
}

// Upgradeable loader state tags.
const (
	upgradeableProgramTag     = 2
	upgradeableProgramDataTag = 3
)

// upgradeableProgram returns the program account and program-data account of a program of the upgradeable
// loader, deployed at slot 0 with the zero address as upgrade authority, as the reference's program binaries lay
// out the programs its genesis deploys (no one can sign for that address).
func upgradeableProgram(id core.Pubkey, rent *sysvar.Rent) []GenesisAccount {
	dataAddr, _, err := core.FindProgramAddress([][]byte{id[:]}, core.BPFLoaderUpgradeableProgramID)
	if err != nil {
		panic("ledger: program data address of " + id.String() + ": " + err.Error())
	}
	program := binary.LittleEndian.AppendUint32(nil, upgradeableProgramTag)
	program = append(program, dataAddr[:]...)
	programData := binary.LittleEndian.AppendUint32(nil, upgradeableProgramDataTag)
	programData = binary.LittleEndian.AppendUint64(programData, 0) // deployment slot
	programData = append(programData, 1)                           // Some(upgrade authority)
	programData = append(programData, make([]byte, 32)...)         // the zero address
	return []GenesisAccount{
		{Pubkey: id, Lamports: rent.MinimumBalance(uint64(len(program))), Owner: core.BPFLoaderUpgradeableProgramID,
			Executable: true, RentEpoch: runtime.RentExemptRentEpoch, Data: program},
		{Pubkey: dataAddr, Lamports: rent.MinimumBalance(uint64(len(programData))), Owner: core.BPFLoaderUpgradeableProgramID,
			RentEpoch: runtime.RentExemptRentEpoch, Data: programData},
	}
}

// restore rebuilds the in-memory state of a chain whose newest persisted slot is tip: the blockhash queue,
// the slot hashes and history, the status cache and the recent banks, all from the stored blocks.
func (l *Ledger) restore(tip uint64) error {
	keep := uint64(max(slotHashesKept, MaxRecentBlockhashes+int(l.depth)+1))
	from := uint64(0)
	if tip > keep {
		from = tip - keep
	}
	slots, err := l.st.BlocksInRange(from, tip, 0)
	if err != nil {
		return err
	}
	infos := make([]*BlockInfo, 0, len(slots))
	for _, s := range slots {
		raw, found, err := l.st.GetBlock(s)
		if err != nil {
			return err
		}
		if !found {
			continue
		}
		info, err := decodeBlock(raw)
		if err != nil {
			return storeDamaged(l.cfg.Dir, fmt.Sprintf("the block of slot %d does not decode", s), err)
		}
		infos = append(infos, info)
	}
	if len(infos) == 0 || infos[len(infos)-1].Slot != tip {
		return storeDamaged(l.cfg.Dir, fmt.Sprintf("the block of slot %d (the newest) is missing", tip), nil)
	}
	if err := l.verifyChain(infos); err != nil {
		return err
	}
	// Every slot up to the tip was produced (the producer skips none), so the slot history is full up to the
	// replayed blocks, which add themselves.
	start := infos[0].Slot
	if start > sysvar.SlotHistoryMaxEntries {
		l.slotHistory.Add(start - sysvar.SlotHistoryMaxEntries)
	}
	for s := l.slotHistory.NextSlot; s < start; s++ {
		l.slotHistory.Add(s)
	}
	l.replay(infos, tip, true)
	return nil
}

// replay registers frozen blocks (oldest first) into the in-memory state, makes the banks of the last
// depth+1 of them, and opens the working bank after the last.
func (l *Ledger) replay(infos []*BlockInfo, tip uint64, restored bool) {
	first, _, _ := l.st.FirstBlock()
	l.firstSlot = first
	root := uint64(0)
	if tip > l.depth {
		root = tip - l.depth
	}
	// A chain started at a warp slot has no block before it to root.
	root = max(root, first)
	for _, info := range infos {
		if info.Slot > 0 {
			l.slotHistory.Add(info.Slot)
		}
		var before *hashSnapshot
		if info.Slot >= root {
			before = l.queue.snapshot()
		}
		l.queue.register(info.Blockhash, info.BlockHeight, runtime.DefaultLamportsPerSignature, restored)
		if info.Slot >= root {
			l.banks[info.Slot] = l.bankFromInfo(info, before, l.queue.snapshot())
		}
		l.slotHashes.Add(info.Slot, info.Blockhash)
		if info.Slot+statusCacheRootedSlots+l.depth >= tip {
			for i, sig := range info.Signatures {
				st := txStatus{slot: info.Slot}
				if info.Failed[i] {
					st.err = errRestoredFailure
				}
				l.status.bySig[sig] = st
				l.status.bySlot[info.Slot] = append(l.status.bySlot[info.Slot], sig)
			}
		}
	}
	l.status.oldest = infos[0].Slot
	l.confirmed, l.root = tip, root
	tipBank := l.banks[tip]
	l.nextTick = time.Now().Add(l.cfg.SlotDuration)
	l.working = l.newBank(tipBank, l.queue.snapshot())
	if l.working.Epoch != tipBank.Epoch {
		l.beginEpoch(l.working)
	}
	l.loadTower(tipBank)
	l.castVote(tipBank)
}

// errRestoredFailure stands for the error of a failed transaction of a restored slot: the status cache holds
// only that it failed, and readers fetch the error itself from the stored transaction.
var errRestoredFailure = runtime.NewTransactionError(0)

// bankFromInfo makes the frozen bank of a stored block. before is the blockhash queue the block was produced
// with (its transactions' view), after the queue with the block's own hash; the producer's slot hashes and
// slot history must be those of the block's creation.
func (l *Ledger) bankFromInfo(info *BlockInfo, before, after *hashSnapshot) *Bank {
	b := &Bank{
		Slot: info.Slot, ParentSlot: info.ParentSlot, BlockHeight: info.BlockHeight,
		ParentHash: info.PreviousBlockhash, Hash: info.Blockhash, BlockTime: info.BlockTime,
		Epoch: l.schedule.GetEpoch(info.Slot), hashes: after, st: l.st, fault: l.fault, fork: l.fork, frozen: true,
		txCount: info.TransactionCount, capital: info.Capitalization, blockMin: feeUnset,
	}
	b.Env = buildEnv(l.baseEnv, l.clock(info.Slot, info.BlockTime, info.EpochStartTimestamp), info.PreviousBlockhash, before,
		l.slotHashes, l.slotHistory.Marshal())
	b.Env.EpochStake = b.epochStake
	b.frozenEnv = completedEnv(b.Env, info.Blockhash, after)
	return b
}

func (l *Ledger) clock(slot uint64, unix, epochStart int64) sysvar.Clock {
	return sysvar.Clock{
		Slot:                slot,
		EpochStartTimestamp: epochStart,
		Epoch:               l.schedule.GetEpoch(slot),
		LeaderScheduleEpoch: l.schedule.GetLeaderScheduleEpoch(slot),
		UnixTimestamp:       unix,
	}
}

// newBank opens the working bank after parent, with the blockhash queue hs (which holds the parent's hash).
// Only the producer (or Open) calls it.
func (l *Ledger) newBank(parent *Bank, hs *hashSnapshot) *Bank {
	slot := parent.Slot + 1
	now := l.blockTime()
	if now < parent.BlockTime {
		now = parent.BlockTime // block times never go backwards
	}
	epochStart := parent.Env.Clock.EpochStartTimestamp
	if l.schedule.GetEpoch(slot) != parent.Epoch {
		epochStart = now
	}
	l.slotHistory.Add(slot)
	b := &Bank{
		Slot: slot, ParentSlot: parent.Slot, BlockHeight: parent.BlockHeight + 1, ParentHash: parent.Hash,
		BlockTime: now, Epoch: l.schedule.GetEpoch(slot), hashes: hs, st: l.st, fault: l.fault, fork: l.fork,
		overlay: make(map[core.Pubkey]runtime.Account), txCount: parent.txCount, capital: parent.capital,
		minFee: make(map[core.Pubkey]uint64), blockMin: feeUnset,
	}
	b.Env = buildEnv(l.baseEnv, l.clock(slot, now, epochStart), parent.Hash, hs, l.slotHashes, l.slotHistory.Marshal())
	b.Env.EpochStake = b.epochStake
	return b
}

// Stop stops the producer, persisting the working bank's transactions as a last block; reads keep working
// until Close. Event listeners see no event after Stop returns.
func (l *Ledger) Stop() {
	l.stopOnce.Do(func() {
		close(l.stop)
		l.startOnce.Do(func() { close(l.stopped) }) // never started: no producer to wait for
		<-l.stopped
	})
}

// Close stops the producer and closes the store.
func (l *Ledger) Close() error {
	var err error
	l.closeOnce.Do(func() {
		l.Stop()
		if l.recorder != nil {
			l.recorder.close()
		}
		err = l.st.Close()
	})
	return err
}

// Bank returns the bank of a commitment level.
func (l *Ledger) Bank(c Commitment) *Bank {
	l.mu.RLock()
	defer l.mu.RUnlock()
	switch c {
	case Processed:
		return l.working
	case Confirmed:
		return l.banks[l.confirmed]
	default:
		return l.banks[l.root]
	}
}

// Slots returns the processed, confirmed and finalized slots.
func (l *Ledger) Slots() (processed, confirmed, finalized uint64) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.working.Slot, l.confirmed, l.root
}

// EpochSchedule is the chain's epoch schedule.
func (l *Ledger) EpochSchedule() sysvar.EpochSchedule { return l.schedule }

// Rent is the chain's rent.
func (l *Ledger) Rent() sysvar.Rent { return l.baseEnv.Rent }

// FeeRateGovernor is the chain's fee rate governor, with the bounds the reference derives from its target.
func (l *Ledger) FeeRateGovernor() sysvar.FeeRateGovernor {
	return sysvar.NewDerivedFeeRateGovernor(sysvar.DefaultFeeRateGovernor(), 0)
}

// FinalityDepth is how many slots finalized trails confirmed.
func (l *Ledger) FinalityDepth() uint64 { return l.depth }

// Store gives read access to the history (blocks, transactions, signature lists).
func (l *Ledger) Store() *store.Store { return l.st }

// errClosed is returned for work submitted to a closed ledger.
var errClosed = errors.New("ledger: closed")

// ctxDone reports a cancelled context as an error.
func ctxDone(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
		return nil
	}
}
