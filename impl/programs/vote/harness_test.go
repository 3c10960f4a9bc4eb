package vote_test

import (
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/runtime"
)

const (
	voteID      = "Vote111111111111111111111111111111111111111"
	invokeLine  = "Program " + voteID + " invoke [1]"
	successLine = "Program " + voteID + " success"
	failedLine  = "Program " + voteID + " failed: "
	success     = "<nil>"
	// voteRent is the rent-exempt minimum of a vote account: (128 + 3762) * 6960.
	voteRent = 27_074_400
)

var (
	blockhash = core.HashBytes([]byte("vote tests"))
	payer     = key(1)
	node      = key(2)
	voter     = key(3)
	withdrawr = key(4)
	voteAcct  = key(5)
	other     = key(6)
	base      = key(7)
)

func key(seed byte) core.Keypair { return core.KeypairFromSeed([32]byte{seed}) }

// slotHash is the bank hash the tests give slot s.
func slotHash(s uint64) core.Hash {
	return core.HashBytes([]byte("bank"), []byte{byte(s), byte(s >> 8)})
}

type harness struct {
	t    testing.TB
	env  *runtime.Env
	accs runtime.MapSource
}

func newHarness(t testing.TB, programs ...func(*runtime.Registry)) *harness {
	reg := runtime.NewRegistry()
	reg.Add(system.Module)
	if len(programs) == 0 {
		reg.Add(vote.Module)
	}
	for _, p := range programs {
		p(reg)
	}
	h := &harness{t: t, env: runtime.DefaultEnv(blockhash, reg), accs: runtime.MapSource{}}
	h.env.SysvarData = map[core.Pubkey][]byte{}
	for _, id := range []core.Pubkey{core.SystemProgramID, core.VoteProgramID} {
		h.accs[id] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("builtin")}
	}
	h.fund(payer.PublicKey(), 1e12)
	return h
}

func (h *harness) fund(k core.Pubkey, lamports uint64) {
	h.accs[k] = runtime.Account{Lamports: lamports, Owner: core.SystemProgramID}
}

// at moves the bank to slot in epoch (the leader schedule epoch is the next one) at unix time
// 1,700,000,000 + slot.
func (h *harness) at(slot, epoch uint64) {
	h.env.Clock = sysvar.Clock{Slot: slot, Epoch: epoch, LeaderScheduleEpoch: epoch + 1, UnixTimestamp: 1_700_000_000 + int64(slot)}
}

// hashes installs SlotHashes holding slots with slotHash values.
func (h *harness) hashes(slots ...uint64) {
	var sh sysvar.SlotHashes
	for _, s := range slots {
		sh.Add(s, slotHash(s))
	}
	h.env.SysvarData[core.SysvarSlotHashesID] = sh.AccountData()
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

func (h *harness) state(k core.Pubkey) *vote.State {
	h.t.Helper()
	s, err := vote.Decode(h.accs[k].Data)
	if err != nil {
		h.t.Fatalf("vote state of %s: %v", k, err)
	}
	return s
}

var defaultInit = vote.VoteInit{NodePubkey: node.PublicKey(), AuthorizedVoter: voter.PublicKey(), AuthorizedWithdrawer: withdrawr.PublicKey(), Commission: 10}

// create makes an initialized vote account at voteAcct holding lamports.
func (h *harness) create(lamports uint64) {
	h.t.Helper()
	res := h.exec(vote.CreateAccount(payer.PublicKey(), voteAcct.PublicKey(), defaultInit, lamports), voteAcct, node)
	if res.Err != nil {
		h.t.Fatalf("create vote account: %v %q", res.Err, res.Logs)
	}
}

// unsign drops the signer flag of k in ix.
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
