package vote_test

import (
	"reflect"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
)

func TestCreateAndInitialize(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.at(5, 2)
	res := h.exec(vote.CreateAccount(payer.PublicKey(), voteAcct.PublicKey(), defaultInit, voteRent), voteAcct, node)
	runtimetest.WantErr(t, res, success)
	if res.ComputeUnitsConsumed != system.DefaultComputeUnits+vote.DefaultComputeUnits {
		t.Fatalf("compute units %d", res.ComputeUnitsConsumed)
	}
	runtimetest.WantLogs(t, res, "Program 11111111111111111111111111111111 invoke [1]", "Program 11111111111111111111111111111111 success",
		invokeLine, successLine)
	a := h.accs[voteAcct.PublicKey()]
	if a.Owner != vote.ProgramID || len(a.Data) != vote.Size || a.Lamports != voteRent {
		t.Fatalf("account %d lamports, %d bytes, owner %s", a.Lamports, len(a.Data), a.Owner)
	}
	want := vote.NewState(defaultInit, 2)
	if got := h.state(voteAcct.PublicKey()); !reflect.DeepEqual(got, want) {
		t.Fatalf("state %+v", got)
	}
}

// instructionTest runs ix against a harness set up by setup and expects want.
type instructionTest struct {
	name    string
	setup   func(h *harness)
	ix      func() core.Instruction
	signers []core.Keypair
	want    string
	check   func(t *testing.T, h *harness)
}

func runInstructionTests(t *testing.T, tests []instructionTest, programs ...func(*runtime.Registry)) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, programs...)
			h.at(100, 1)
			if tc.setup != nil {
				tc.setup(h)
			}
			res := h.exec([]core.Instruction{tc.ix()}, tc.signers...)
			runtimetest.WantErr(t, res, tc.want)
			if res.Err != nil {
				last := res.Logs[len(res.Logs)-1]
				if !strings.HasPrefix(last, failedLine) {
					t.Fatalf("last log %q", last)
				}
			} else if res.Logs[len(res.Logs)-1] != successLine {
				t.Fatalf("logs %q", res.Logs)
			}
			if tc.check != nil {
				tc.check(t, h)
			}
		})
	}
}

// installed puts an initialized vote account (epoch 0) at voteAcct.
func installed(lamports uint64) func(h *harness) {
	return func(h *harness) { h.accs[voteAcct.PublicKey()] = vote.NewAccount(defaultInit, 0, lamports) }
}

func withState(lamports uint64, edit func(s *vote.State)) func(h *harness) {
	return func(h *harness) {
		s := vote.NewState(defaultInit, 0)
		edit(s)
		h.accs[voteAcct.PublicKey()] = runtime.Account{Lamports: lamports, Owner: vote.ProgramID, Data: s.AccountData()}
	}
}

func TestInitializeAccount(t *testing.T) {
	t.Parallel()
	vk := voteAcct.PublicKey()
	blank := func(size int, lamports uint64) func(h *harness) {
		return func(h *harness) {
			h.accs[vk] = runtime.Account{Lamports: lamports, Owner: vote.ProgramID, Data: make([]byte, size)}
		}
	}
	init := func() core.Instruction { return vote.InitializeAccount(vk, defaultInit) }
	runInstructionTests(t, []instructionTest{
		{name: "success", setup: blank(vote.Size, voteRent), ix: init, signers: []core.Keypair{node}, want: success,
			check: func(t *testing.T, h *harness) {
				if s := h.state(vk); s.NodePubkey != node.PublicKey() || s.AuthorizedVoters[0] != (vote.AuthorizedVoter{Epoch: 1, Pubkey: voter.PublicKey()}) {
					t.Fatalf("state %+v", s)
				}
			}},
		{name: "already initialized", setup: installed(voteRent), ix: init, signers: []core.Keypair{node},
			want: `{"InstructionError":[0,"AccountAlreadyInitialized"]}`},
		{name: "wrong size", setup: blank(vote.Size-1, voteRent), ix: init, signers: []core.Keypair{node},
			want: `{"InstructionError":[0,"InvalidAccountData"]}`},
		{name: "not rent exempt", setup: blank(vote.Size, voteRent-1), ix: init, signers: []core.Keypair{node},
			want: `{"InstructionError":[0,"InsufficientFunds"]}`},
		{name: "node unsigned", setup: blank(vote.Size, voteRent), ix: func() core.Instruction { return unsign(init(), node.PublicKey()) },
			want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "not a vote account", setup: func(h *harness) { h.fund(vk, voteRent) }, ix: init, signers: []core.Keypair{node},
			want: `{"InstructionError":[0,"InvalidAccountOwner"]}`},
		{name: "wrong rent sysvar", setup: blank(vote.Size, voteRent), ix: func() core.Instruction {
			ix := init()
			ix.Accounts[1].Pubkey = core.SysvarClockID
			return ix
		}, signers: []core.Keypair{node}, want: `{"InstructionError":[0,"InvalidArgument"]}`},
		{name: "bad data", setup: blank(vote.Size, voteRent), ix: func() core.Instruction {
			ix := init()
			ix.Data = ix.Data[:10]
			return ix
		}, signers: []core.Keypair{node}, want: `{"InstructionError":[0,"InvalidInstructionData"]}`},
		{name: "no accounts", ix: func() core.Instruction {
			return core.Instruction{ProgramID: vote.ProgramID, Data: init().Data}
		}, want: `{"InstructionError":[0,"MissingAccount"]}`},
	})
}

func TestAuthorize(t *testing.T) {
	t.Parallel()
	vk := voteAcct.PublicKey()
	newVoter := other.PublicKey()
	derived, err := core.CreateWithSeed(base.PublicKey(), "seed", core.SystemProgramID)
	if err != nil {
		t.Fatal(err)
	}
	voterAt := func(epoch uint64, want core.Pubkey) func(t *testing.T, h *harness) {
		return func(t *testing.T, h *harness) {
			if got, _ := h.state(vk).AuthorizedVoter(epoch); got != want {
				t.Fatalf("voter at %d: %s, want %s", epoch, got, want)
			}
		}
	}
	runInstructionTests(t, []instructionTest{
		{name: "voter by withdrawer", setup: installed(voteRent),
			ix: func() core.Instruction {
				return vote.AuthorizeIx(vk, withdrawr.PublicKey(), newVoter, vote.AuthorizeVoter)
			},
			signers: []core.Keypair{withdrawr}, want: success, check: func(t *testing.T, h *harness) {
				voterAt(2, voter.PublicKey())(t, h) // effective from the epoch after the leader schedule epoch
				voterAt(3, newVoter)(t, h)
				if p, ok := h.state(vk).PriorVoters.Last(); !ok || p != (vote.PriorVoter{Pubkey: voter.PublicKey(), EpochStart: 0, EpochEnd: 3}) {
					t.Fatalf("prior voter %+v", p)
				}
			}},
		{name: "voter by voter", setup: installed(voteRent),
			ix:      func() core.Instruction { return vote.AuthorizeIx(vk, voter.PublicKey(), newVoter, vote.AuthorizeVoter) },
			signers: []core.Keypair{voter}, want: success, check: voterAt(3, newVoter)},
		{name: "voter by stranger", setup: installed(voteRent),
			ix:      func() core.Instruction { return vote.AuthorizeIx(vk, other.PublicKey(), newVoter, vote.AuthorizeVoter) },
			signers: []core.Keypair{other}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "voter twice for the same epoch", setup: withState(voteRent, func(s *vote.State) {
			s.AuthorizedVoters = append(s.AuthorizedVoters, vote.AuthorizedVoter{Epoch: 3, Pubkey: newVoter})
		}), ix: func() core.Instruction {
			return vote.AuthorizeIx(vk, withdrawr.PublicKey(), base.PublicKey(), vote.AuthorizeVoter)
		},
			signers: []core.Keypair{withdrawr}, want: `{"InstructionError":[0,{"Custom":5}]}`},
		{name: "withdrawer", setup: installed(voteRent),
			ix: func() core.Instruction {
				return vote.AuthorizeIx(vk, withdrawr.PublicKey(), other.PublicKey(), vote.AuthorizeWithdrawer)
			},
			signers: []core.Keypair{withdrawr}, want: success, check: func(t *testing.T, h *harness) {
				if h.state(vk).AuthorizedWithdrawer != other.PublicKey() {
					t.Fatal("withdrawer not changed")
				}
			}},
		{name: "withdrawer by voter", setup: installed(voteRent),
			ix: func() core.Instruction {
				return vote.AuthorizeIx(vk, voter.PublicKey(), other.PublicKey(), vote.AuthorizeWithdrawer)
			},
			signers: []core.Keypair{voter}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "checked", setup: installed(voteRent),
			ix: func() core.Instruction {
				return vote.AuthorizeChecked(vk, withdrawr.PublicKey(), other.PublicKey(), vote.AuthorizeWithdrawer)
			},
			signers: []core.Keypair{withdrawr, other}, want: success},
		{name: "checked, new authority unsigned", setup: installed(voteRent), ix: func() core.Instruction {
			return unsign(vote.AuthorizeChecked(vk, withdrawr.PublicKey(), other.PublicKey(), vote.AuthorizeWithdrawer), other.PublicKey())
		}, signers: []core.Keypair{withdrawr}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "with seed", setup: withState(voteRent, func(s *vote.State) { s.AuthorizedWithdrawer = derived }),
			ix: func() core.Instruction {
				return vote.AuthorizeWithSeed(vk, base.PublicKey(), core.SystemProgramID, "seed", other.PublicKey(), vote.AuthorizeWithdrawer)
			}, signers: []core.Keypair{base}, want: success},
		{name: "with seed, wrong seed", setup: withState(voteRent, func(s *vote.State) { s.AuthorizedWithdrawer = derived }),
			ix: func() core.Instruction {
				return vote.AuthorizeWithSeed(vk, base.PublicKey(), core.SystemProgramID, "other", other.PublicKey(), vote.AuthorizeWithdrawer)
			}, signers: []core.Keypair{base}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "with seed, long seed", setup: installed(voteRent), ix: func() core.Instruction {
			return vote.AuthorizeWithSeed(vk, base.PublicKey(), core.SystemProgramID, strings.Repeat("s", 33), other.PublicKey(), vote.AuthorizeWithdrawer)
		}, signers: []core.Keypair{base}, want: `{"InstructionError":[0,{"Custom":0}]}`},
		{name: "checked with seed", setup: withState(voteRent, func(s *vote.State) { s.AuthorizedWithdrawer = derived }),
			ix: func() core.Instruction {
				return vote.AuthorizeCheckedWithSeed(vk, base.PublicKey(), core.SystemProgramID, "seed", other.PublicKey(), vote.AuthorizeVoter)
			}, signers: []core.Keypair{base, other}, want: success, check: voterAt(3, other.PublicKey())},
		{name: "uninitialized", setup: func(h *harness) {
			h.accs[vk] = runtime.Account{Lamports: voteRent, Owner: vote.ProgramID, Data: make([]byte, vote.Size)}
		}, ix: func() core.Instruction {
			return vote.AuthorizeIx(vk, withdrawr.PublicKey(), other.PublicKey(), vote.AuthorizeWithdrawer)
		},
			signers: []core.Keypair{withdrawr}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
	})
}

func TestUpdateValidatorIdentityAndCommission(t *testing.T) {
	t.Parallel()
	vk := voteAcct.PublicKey()
	commissionIs := func(want uint8) func(t *testing.T, h *harness) {
		return func(t *testing.T, h *harness) {
			if got := h.state(vk).Commission; got != want {
				t.Fatalf("commission %d, want %d", got, want)
			}
		}
	}
	// The default epoch schedule has 432,000-slot epochs after 524,256 warmup slots.
	lateInEpoch := func(h *harness) {
		installed(voteRent)(h)
		h.at(524_256+300_000, 15)
	}
	runInstructionTests(t, []instructionTest{
		{name: "identity", setup: installed(voteRent),
			ix: func() core.Instruction {
				return vote.UpdateValidatorIdentity(vk, withdrawr.PublicKey(), other.PublicKey())
			},
			signers: []core.Keypair{withdrawr, other}, want: success, check: func(t *testing.T, h *harness) {
				if h.state(vk).NodePubkey != other.PublicKey() {
					t.Fatal("identity not changed")
				}
			}},
		{name: "identity, new node unsigned", setup: installed(voteRent), ix: func() core.Instruction {
			return unsign(vote.UpdateValidatorIdentity(vk, withdrawr.PublicKey(), other.PublicKey()), other.PublicKey())
		}, signers: []core.Keypair{withdrawr}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "identity, withdrawer unsigned", setup: installed(voteRent), ix: func() core.Instruction {
			return unsign(vote.UpdateValidatorIdentity(vk, withdrawr.PublicKey(), other.PublicKey()), withdrawr.PublicKey())
		}, signers: []core.Keypair{other}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "commission", setup: installed(voteRent), ix: func() core.Instruction { return vote.UpdateCommission(vk, withdrawr.PublicKey(), 50) },
			signers: []core.Keypair{withdrawr}, want: success, check: commissionIs(50)},
		{name: "commission unsigned", setup: installed(voteRent), ix: func() core.Instruction { return vote.UpdateCommission(vk, other.PublicKey(), 50) },
			signers: []core.Keypair{other}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "commission increase late in the epoch", setup: lateInEpoch,
			ix:      func() core.Instruction { return vote.UpdateCommission(vk, withdrawr.PublicKey(), 50) },
			signers: []core.Keypair{withdrawr}, want: `{"InstructionError":[0,{"Custom":19}]}`},
		{name: "commission decrease late in the epoch", setup: lateInEpoch,
			ix:      func() core.Instruction { return vote.UpdateCommission(vk, withdrawr.PublicKey(), 5) },
			signers: []core.Keypair{withdrawr}, want: success, check: commissionIs(5)},
	})
}

func TestWithdraw(t *testing.T) {
	t.Parallel()
	vk := voteAcct.PublicKey()
	to := other.PublicKey()
	credited := func(epoch uint64) func(h *harness) {
		return withState(voteRent+1000, func(s *vote.State) { s.EpochCredits = []vote.EpochCredits{{Epoch: epoch, Credits: 5}} })
	}
	runInstructionTests(t, []instructionTest{
		{name: "partial", setup: func(h *harness) { installed(voteRent + 1000)(h); h.fund(to, 1e9) },
			ix:      func() core.Instruction { return vote.Withdraw(vk, withdrawr.PublicKey(), 1000, to) },
			signers: []core.Keypair{withdrawr}, want: success, check: func(t *testing.T, h *harness) {
				if h.accs[vk].Lamports != voteRent || h.accs[to].Lamports != 1e9+1000 {
					t.Fatalf("balances %d %d", h.accs[vk].Lamports, h.accs[to].Lamports)
				}
			}},
		{name: "into the rent reserve", setup: installed(voteRent + 1000), ix: func() core.Instruction { return vote.Withdraw(vk, withdrawr.PublicKey(), 1001, to) },
			signers: []core.Keypair{withdrawr}, want: `{"InstructionError":[0,"InsufficientFunds"]}`},
		{name: "more than the balance", setup: installed(voteRent), ix: func() core.Instruction { return vote.Withdraw(vk, withdrawr.PublicKey(), voteRent+1, to) },
			signers: []core.Keypair{withdrawr}, want: `{"InstructionError":[0,"InsufficientFunds"]}`},
		{name: "by the voter", setup: installed(voteRent + 1000), ix: func() core.Instruction { return vote.Withdraw(vk, voter.PublicKey(), 1, to) },
			signers: []core.Keypair{voter}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "close", setup: installed(voteRent), ix: func() core.Instruction { return vote.Withdraw(vk, withdrawr.PublicKey(), voteRent, to) },
			signers: []core.Keypair{withdrawr}, want: success, check: func(t *testing.T, h *harness) {
				if _, ok := h.accs[vk]; ok || h.accs[to].Lamports != voteRent {
					t.Fatal("account not closed")
				}
			}},
		{name: "close, credits last epoch", setup: credited(0), ix: func() core.Instruction { return vote.Withdraw(vk, withdrawr.PublicKey(), voteRent+1000, to) },
			signers: []core.Keypair{withdrawr}, want: `{"InstructionError":[0,{"Custom":18}]}`},
		{name: "close, credits two epochs ago", setup: func(h *harness) { credited(0)(h); h.at(1000, 2) },
			ix:      func() core.Instruction { return vote.Withdraw(vk, withdrawr.PublicKey(), voteRent+1000, to) },
			signers: []core.Keypair{withdrawr}, want: success},
		{name: "one account", setup: installed(voteRent), ix: func() core.Instruction {
			ix := vote.Withdraw(vk, withdrawr.PublicKey(), 1, to)
			ix.Accounts = ix.Accounts[:1]
			return ix
		}, want: `{"InstructionError":[0,"MissingAccount"]}`},
	})
}

// The closed account's data: the default state over the old bytes, as the reference leaves
// it within the transaction (the account then disappears with its balance).
func TestWithdrawDeinitializes(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.at(100, 1)
	installed(voteRent)(h)
	res := h.exec([]core.Instruction{vote.Withdraw(voteAcct.PublicKey(), withdrawr.PublicKey(), voteRent, other.PublicKey()),
		system.Transfer(payer.PublicKey(), voteAcct.PublicKey(), voteRent)}, withdrawr)
	runtimetest.WantErr(t, res, success)
	a := h.accs[voteAcct.PublicKey()]
	if a.Owner != vote.ProgramID || len(a.Data) != vote.Size {
		t.Fatalf("account %+v", a)
	}
	if s := h.state(voteAcct.PublicKey()); !s.IsUninitialized() || s.Version != vote.VersionCurrent {
		t.Fatalf("state %+v", s)
	}
}
