package stake_test

import (
	"slices"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/stake"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
)

const (
	stakeID     = "Stake11111111111111111111111111111111111111"
	invokeLine  = "Program " + stakeID + " invoke [1]"
	successLine = "Program " + stakeID + " success"
	failedLine  = "Program " + stakeID + " failed: "
	success     = "<nil>"
	// reserve is the rent-exempt minimum of a stake account: (128 + 200) * 6960.
	reserve  = 2_282_880
	voteRent = 27_074_400
	sol      = 1_000_000_000
)

var (
	blockhash  = core.HashBytes([]byte("stake tests"))
	payer      = key(1)
	staker     = key(2)
	withdrawer = key(3)
	custodian  = key(4)
	stakeAcct  = key(5)
	stake2     = key(6)
	voteA      = key(7)
	voteB      = key(8)
	other      = key(9)
	base       = key(10)
)

func key(seed byte) core.Keypair { return core.KeypairFromSeed([32]byte{seed}) }

var auth = stake.Authorized{Staker: staker.PublicKey(), Withdrawer: withdrawer.PublicKey()}

type harness struct {
	t       testing.TB
	env     *runtime.Env
	accs    runtime.MapSource
	history sysvar.StakeHistory
}

func newHarness(t testing.TB, programs ...func(*runtime.Registry)) *harness {
	reg := runtime.NewRegistry()
	reg.Add(system.Module)
	reg.Add(vote.Module)
	if len(programs) == 0 {
		reg.Add(stake.Module)
	}
	for _, p := range programs {
		p(reg)
	}
	h := &harness{t: t, env: runtime.DefaultEnv(blockhash, reg), accs: runtime.MapSource{}}
	h.env.SysvarData = map[core.Pubkey][]byte{}
	h.setHistory(nil)
	for _, id := range []core.Pubkey{core.SystemProgramID, core.VoteProgramID, core.StakeProgramID} {
		h.accs[id] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("builtin")}
	}
	h.fund(payer.PublicKey(), 1e15)
	h.at(10)
	// Two vote accounts; A has voted for years.
	va := vote.NewState(vote.VoteInit{NodePubkey: other.PublicKey(), AuthorizedVoter: other.PublicKey(), AuthorizedWithdrawer: other.PublicKey()}, 0)
	va.EpochCredits = []vote.EpochCredits{{Epoch: 9, Credits: 1000, PrevCredits: 500}}
	h.accs[voteA.PublicKey()] = runtime.Account{Lamports: voteRent, Owner: vote.ProgramID, Data: va.AccountData()}
	h.accs[voteB.PublicKey()] = vote.NewAccount(vote.VoteInit{NodePubkey: other.PublicKey(), AuthorizedVoter: other.PublicKey(), AuthorizedWithdrawer: other.PublicKey()}, 0, voteRent)
	return h
}

func (h *harness) fund(k core.Pubkey, lamports uint64) {
	h.accs[k] = runtime.Account{Lamports: lamports, Owner: core.SystemProgramID}
}

// at moves the bank to the first slot of epoch (32-slot epochs), at unix time 1,000 × epoch.
func (h *harness) at(epoch uint64) {
	h.env.Clock = sysvar.Clock{Slot: epoch * 32, Epoch: epoch, LeaderScheduleEpoch: epoch + 1, UnixTimestamp: 1000 * int64(epoch)}
}

func (h *harness) setHistory(history sysvar.StakeHistory) {
	h.history = history
	h.env.SysvarData[core.SysvarStakeHistoryID] = history.AccountData()
}

// put stores a stake account in state s with lamports.
func (h *harness) put(k core.Pubkey, s stake.State, lamports uint64) {
	h.accs[k] = runtime.Account{Lamports: lamports, Owner: stake.ProgramID, Data: s.AccountData()}
}

func (h *harness) state(k core.Pubkey) stake.State {
	h.t.Helper()
	s, err := stake.Decode(h.accs[k].Data)
	if err != nil {
		h.t.Fatalf("stake state of %s: %v", k, err)
	}
	return s
}

// exec signs ixs with signers (payer first) and executes them, committing the result.
func (h *harness) exec(ixs []core.Instruction, signers ...core.Keypair) *runtime.Result {
	h.t.Helper()
	signers = append([]core.Keypair{payer}, signers...)
	tx, err := core.NewTransaction(payer.PublicKey(), ixs, blockhash, signers...)
	if err != nil {
		h.t.Fatalf("NewTransaction: %v", err)
	}
	if !tx.VerifySignatures() {
		h.t.Fatal("signatures do not verify")
	}
	res := runtime.Execute(h.env, h.accs, tx, runtime.Options{})
	h.accs.Apply(res.Writes)
	return res
}

func initialized(lockup stake.Lockup) stake.State {
	return stake.State{Kind: stake.StateInitialized, Meta: stake.Meta{RentExemptReserve: reserve, Authorized: auth, Lockup: lockup}}
}

// delegated is a stake of amount delegated to voteA in activation (deactivated in
// deactivation, MaxUint64 for never).
func delegated(amount, activation, deactivation uint64) stake.State {
	s := initialized(stake.Lockup{})
	s.Kind = stake.StateStake
	s.Stake = stake.Stake{Delegation: stake.NewDelegation(voteA.PublicKey(), amount, activation), CreditsObserved: 1000}
	s.Stake.Delegation.DeactivationEpoch = deactivation
	return s
}

const never = ^uint64(0)

type instructionTest struct {
	name    string
	setup   func(h *harness)
	ixs     func() []core.Instruction
	signers []core.Keypair
	want    string
	logs    []string // expected lines between invoke and success/failed (nil: not checked)
	check   func(t *testing.T, h *harness)
}

func one(f func() core.Instruction) func() []core.Instruction {
	return func() []core.Instruction { return []core.Instruction{f()} }
}

func runInstructionTests(t *testing.T, tests []instructionTest, programs ...func(*runtime.Registry)) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, programs...)
			if tc.setup != nil {
				tc.setup(h)
			}
			res := h.exec(tc.ixs(), tc.signers...)
			runtimetest.WantErr(t, res, tc.want)
			if tc.logs != nil {
				start := slices.Index(res.Logs, invokeLine)
				end := len(res.Logs) - 1
				if start < 0 || (res.Err == nil && res.Logs[end] != successLine) || (res.Err != nil && !strings.HasPrefix(res.Logs[end], failedLine)) {
					t.Fatalf("logs %q", res.Logs)
				}
				if got := res.Logs[start+1 : end]; !slices.Equal(got, tc.logs) {
					t.Fatalf("logs\n got %q\nwant %q", got, tc.logs)
				}
			}
			if tc.check != nil {
				tc.check(t, h)
			}
		})
	}
}

func unsign(ix core.Instruction, k core.Pubkey) core.Instruction {
	ix.Accounts = slices.Clone(ix.Accounts)
	for i := range ix.Accounts {
		if ix.Accounts[i].Pubkey == k {
			ix.Accounts[i].IsSigner = false
		}
	}
	return ix
}

func ptr[T any](v T) *T { return &v }
