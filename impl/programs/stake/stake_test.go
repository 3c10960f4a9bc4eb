package stake_test

import (
	"encoding/binary"
	"reflect"
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

func TestCreateAndInitialize(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	sk := stakeAcct.PublicKey()
	lockup := stake.Lockup{UnixTimestamp: 5, Epoch: 6, Custodian: custodian.PublicKey()}
	res := h.exec(stake.CreateAccount(payer.PublicKey(), sk, auth, lockup, 10*sol), stakeAcct)
	runtimetest.WantErr(t, res, success)
	if res.ComputeUnitsConsumed != system.DefaultComputeUnits+stake.DefaultComputeUnits {
		t.Fatalf("compute units %d", res.ComputeUnitsConsumed)
	}
	a := h.accs[sk]
	if a.Owner != stake.ProgramID || len(a.Data) != stake.Size || a.Lamports != 10*sol {
		t.Fatalf("account %+v", a)
	}
	want := stake.State{Kind: stake.StateInitialized, Meta: stake.Meta{RentExemptReserve: reserve, Authorized: auth, Lockup: lockup}}
	if got := h.state(sk); got != want {
		t.Fatalf("state %+v", got)
	}
}

func TestInitialize(t *testing.T) {
	t.Parallel()
	sk := stakeAcct.PublicKey()
	blank := func(size int, lamports uint64) func(h *harness) {
		return func(h *harness) {
			h.accs[sk] = runtime.Account{Lamports: lamports, Owner: stake.ProgramID, Data: make([]byte, size)}
		}
	}
	runInstructionTests(t, []instructionTest{
		{name: "initialize", setup: blank(stake.Size, reserve), ixs: one(func() core.Instruction { return stake.Initialize(sk, auth, stake.Lockup{}) }),
			want: success, logs: []string{}},
		{name: "not rent exempt", setup: blank(stake.Size, reserve-1), ixs: one(func() core.Instruction { return stake.Initialize(sk, auth, stake.Lockup{}) }),
			want: `{"InstructionError":[0,"InsufficientFunds"]}`, logs: []string{}},
		{name: "already initialized", setup: func(h *harness) { h.put(sk, initialized(stake.Lockup{}), reserve) },
			ixs:  one(func() core.Instruction { return stake.Initialize(sk, auth, stake.Lockup{}) }),
			want: `{"InstructionError":[0,"InvalidAccountData"]}`},
		{name: "wrong size", setup: blank(stake.Size+1, sol), ixs: one(func() core.Instruction { return stake.Initialize(sk, auth, stake.Lockup{}) }),
			want: `{"InstructionError":[0,"InvalidAccountData"]}`},
		{name: "not a stake account", setup: func(h *harness) { h.fund(sk, sol) }, ixs: one(func() core.Instruction { return stake.Initialize(sk, auth, stake.Lockup{}) }),
			want: `{"InstructionError":[0,"InvalidAccountOwner"]}`},
		{name: "wrong rent sysvar", setup: blank(stake.Size, sol), ixs: one(func() core.Instruction {
			ix := stake.Initialize(sk, auth, stake.Lockup{})
			ix.Accounts[1].Pubkey = core.SysvarClockID
			return ix
		}), want: `{"InstructionError":[0,"InvalidArgument"]}`},
		{name: "checked", setup: blank(stake.Size, sol), ixs: one(func() core.Instruction { return stake.InitializeChecked(sk, auth) }),
			signers: []core.Keypair{withdrawer}, want: success, check: func(t *testing.T, h *harness) {
				if got := h.state(sk); got != initialized(stake.Lockup{}) {
					t.Fatalf("state %+v", got)
				}
			}},
		{name: "checked, withdrawer unsigned", setup: blank(stake.Size, sol), ixs: one(func() core.Instruction {
			return unsign(stake.InitializeChecked(sk, auth), withdrawer.PublicKey())
		}), want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "bad data", setup: blank(stake.Size, sol), ixs: one(func() core.Instruction {
			ix := stake.Initialize(sk, auth, stake.Lockup{})
			ix.Data = ix.Data[:50]
			return ix
		}), want: `{"InstructionError":[0,"InvalidInstructionData"]}`},
	})
}

func TestAuthorize(t *testing.T) {
	t.Parallel()
	sk := stakeAcct.PublicKey()
	newKey := other.PublicKey()
	lockup := stake.Lockup{UnixTimestamp: 1_000_000, Epoch: 100, Custodian: custodian.PublicKey()}
	derived, err := core.CreateWithSeed(base.PublicKey(), "seed", stake.ProgramID)
	if err != nil {
		t.Fatal(err)
	}
	put := func(s stake.State) func(h *harness) { return func(h *harness) { h.put(sk, s, sol) } }
	authorizedIs := func(want stake.Authorized) func(t *testing.T, h *harness) {
		return func(t *testing.T, h *harness) {
			if got := h.state(sk).Meta.Authorized; got != want {
				t.Fatalf("authorized %+v, want %+v", got, want)
			}
		}
	}
	seeded := initialized(stake.Lockup{})
	seeded.Meta.Authorized.Staker = derived
	runInstructionTests(t, []instructionTest{
		{name: "staker by staker", setup: put(initialized(stake.Lockup{})),
			ixs: one(func() core.Instruction {
				return stake.AuthorizeIx(sk, staker.PublicKey(), newKey, stake.AuthorityStaker, nil)
			}),
			signers: []core.Keypair{staker}, want: success, check: authorizedIs(stake.Authorized{Staker: newKey, Withdrawer: withdrawer.PublicKey()})},
		{name: "staker by withdrawer", setup: put(delegated(sol/2, 1, never)),
			ixs: one(func() core.Instruction {
				return stake.AuthorizeIx(sk, withdrawer.PublicKey(), newKey, stake.AuthorityStaker, nil)
			}),
			signers: []core.Keypair{withdrawer}, want: success},
		{name: "staker by stranger", setup: put(initialized(stake.Lockup{})),
			ixs: one(func() core.Instruction {
				return stake.AuthorizeIx(sk, other.PublicKey(), newKey, stake.AuthorityStaker, nil)
			}),
			signers: []core.Keypair{other}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "withdrawer by staker", setup: put(initialized(stake.Lockup{})),
			ixs: one(func() core.Instruction {
				return stake.AuthorizeIx(sk, staker.PublicKey(), newKey, stake.AuthorityWithdrawer, nil)
			}),
			signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "withdrawer under lockup without custodian", setup: put(initialized(lockup)),
			ixs: one(func() core.Instruction {
				return stake.AuthorizeIx(sk, withdrawer.PublicKey(), newKey, stake.AuthorityWithdrawer, nil)
			}),
			signers: []core.Keypair{withdrawer}, want: `{"InstructionError":[0,{"Custom":7}]}`},
		{name: "withdrawer under lockup, custodian unsigned", setup: put(initialized(lockup)), ixs: one(func() core.Instruction {
			return unsign(stake.AuthorizeIx(sk, withdrawer.PublicKey(), newKey, stake.AuthorityWithdrawer, ptr(custodian.PublicKey())), custodian.PublicKey())
		}), signers: []core.Keypair{withdrawer}, want: `{"InstructionError":[0,{"Custom":8}]}`},
		{name: "withdrawer under lockup, wrong custodian", setup: put(initialized(lockup)), ixs: one(func() core.Instruction {
			return stake.AuthorizeIx(sk, withdrawer.PublicKey(), newKey, stake.AuthorityWithdrawer, ptr(other.PublicKey()))
		}), signers: []core.Keypair{withdrawer, other}, want: `{"InstructionError":[0,{"Custom":1}]}`},
		{name: "withdrawer under lockup with custodian", setup: put(initialized(lockup)), ixs: one(func() core.Instruction {
			return stake.AuthorizeIx(sk, withdrawer.PublicKey(), newKey, stake.AuthorityWithdrawer, ptr(custodian.PublicKey()))
		}), signers: []core.Keypair{withdrawer, custodian}, want: success, check: authorizedIs(stake.Authorized{Staker: staker.PublicKey(), Withdrawer: newKey})},
		{name: "uninitialized", setup: put(stake.State{}),
			ixs: one(func() core.Instruction {
				return stake.AuthorizeIx(sk, staker.PublicKey(), newKey, stake.AuthorityStaker, nil)
			}),
			signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"InvalidAccountData"]}`},
		{name: "checked", setup: put(initialized(stake.Lockup{})),
			ixs: one(func() core.Instruction {
				return stake.AuthorizeChecked(sk, withdrawer.PublicKey(), newKey, stake.AuthorityWithdrawer, nil)
			}),
			signers: []core.Keypair{withdrawer, other}, want: success},
		{name: "checked, new authority unsigned", setup: put(initialized(stake.Lockup{})), ixs: one(func() core.Instruction {
			return unsign(stake.AuthorizeChecked(sk, withdrawer.PublicKey(), newKey, stake.AuthorityWithdrawer, nil), newKey)
		}), signers: []core.Keypair{withdrawer}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "with seed", setup: put(seeded), ixs: one(func() core.Instruction {
			return stake.AuthorizeWithSeed(sk, base.PublicKey(), "seed", stake.ProgramID, newKey, stake.AuthorityStaker, nil)
		}), signers: []core.Keypair{base}, want: success, check: authorizedIs(stake.Authorized{Staker: newKey, Withdrawer: withdrawer.PublicKey()})},
		{name: "with seed, wrong seed", setup: put(seeded), ixs: one(func() core.Instruction {
			return stake.AuthorizeWithSeed(sk, base.PublicKey(), "nope", stake.ProgramID, newKey, stake.AuthorityStaker, nil)
		}), signers: []core.Keypair{base}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "with seed, long seed", setup: put(seeded), ixs: one(func() core.Instruction {
			return stake.AuthorizeWithSeed(sk, base.PublicKey(), strings.Repeat("x", 40), stake.ProgramID, newKey, stake.AuthorityStaker, nil)
		}), signers: []core.Keypair{base}, want: `{"InstructionError":[0,{"Custom":0}]}`},
		{name: "checked with seed", setup: put(seeded), ixs: one(func() core.Instruction {
			return stake.AuthorizeCheckedWithSeed(sk, base.PublicKey(), "seed", stake.ProgramID, newKey, stake.AuthorityStaker, nil)
		}), signers: []core.Keypair{base, other}, want: success},
	})
}

func TestDelegate(t *testing.T) {
	t.Parallel()
	sk := stakeAcct.PublicKey()
	delegate := func() core.Instruction { return stake.DelegateStake(sk, staker.PublicKey(), voteA.PublicKey()) }
	put := func(s stake.State, lamports uint64) func(h *harness) {
		return func(h *harness) { h.put(sk, s, lamports) }
	}
	runInstructionTests(t, []instructionTest{
		{name: "delegate", setup: put(initialized(stake.Lockup{}), reserve+sol), ixs: one(delegate), signers: []core.Keypair{staker}, want: success,
			check: func(t *testing.T, h *harness) {
				want := delegated(sol, 10, never)
				if got := h.state(sk); got != want {
					t.Fatalf("state\n got %+v\nwant %+v", got, want)
				}
				// The deprecated rate field holds 0.25, as the reference writes it.
				if rate := binary.LittleEndian.Uint64(h.accs[sk].Data[124+56:]); rate != 0x3fd0000000000000 {
					t.Fatalf("warmup rate bits %x", rate)
				}
			}},
		{name: "staker unsigned", setup: put(initialized(stake.Lockup{}), reserve+sol), ixs: one(func() core.Instruction { return unsign(delegate(), staker.PublicKey()) }),
			want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "nothing to delegate", setup: put(initialized(stake.Lockup{}), reserve), ixs: one(delegate), signers: []core.Keypair{staker},
			want: `{"InstructionError":[0,{"Custom":12}]}`},
		{name: "not a vote account", setup: put(initialized(stake.Lockup{}), reserve+sol), ixs: one(func() core.Instruction {
			return stake.DelegateStake(sk, staker.PublicKey(), other.PublicKey())
		}), signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"IncorrectProgramId"]}`},
		{name: "bad vote state", setup: func(h *harness) {
			put(initialized(stake.Lockup{}), reserve+sol)(h)
			h.accs[voteA.PublicKey()] = runtime.Account{Lamports: voteRent, Owner: core.VoteProgramID, Data: []byte{9, 9, 9, 9}}
		}, ixs: one(delegate), signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"InvalidAccountData"]}`},
		{name: "without StakeHistory", setup: func(h *harness) {
			put(initialized(stake.Lockup{}), reserve+sol)(h)
			delete(h.env.SysvarData, core.SysvarStakeHistoryID)
		}, ixs: one(delegate), signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"UnsupportedSysvar"]}`},
		{name: "wrong StakeHistory account", setup: put(initialized(stake.Lockup{}), reserve+sol), ixs: one(func() core.Instruction {
			ix := delegate()
			ix.Accounts[3].Pubkey = core.SysvarRentID
			return ix
		}), signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"InvalidArgument"]}`},
		{name: "five accounts needed", setup: put(initialized(stake.Lockup{}), reserve+sol), ixs: one(func() core.Instruction {
			ix := delegate()
			ix.Accounts = ix.Accounts[:4]
			return ix
		}), want: `{"InstructionError":[0,"MissingAccount"]}`},
		{name: "active stake elsewhere", setup: put(delegated(sol, 1, never), reserve+sol), ixs: one(func() core.Instruction {
			return stake.DelegateStake(sk, staker.PublicKey(), voteB.PublicKey())
		}), signers: []core.Keypair{staker}, want: `{"InstructionError":[0,{"Custom":3}]}`},
		{name: "rescind this epoch's deactivation", setup: put(delegated(sol, 1, 10), reserve+sol), ixs: one(delegate), signers: []core.Keypair{staker},
			want: success, check: func(t *testing.T, h *harness) {
				if d, _ := h.state(sk).Delegation(); d.DeactivationEpoch != never || d.ActivationEpoch != 1 {
					t.Fatalf("delegation %+v", d)
				}
			}},
		{name: "redelegate inactive stake", setup: put(delegated(sol, 1, 5), reserve+2*sol), ixs: one(func() core.Instruction {
			return stake.DelegateStake(sk, staker.PublicKey(), voteB.PublicKey())
		}), signers: []core.Keypair{staker}, want: success, check: func(t *testing.T, h *harness) {
			s := h.state(sk)
			if d := s.Stake.Delegation; d.VoterPubkey != voteB.PublicKey() || d.Stake != 2*sol || d.ActivationEpoch != 10 || d.DeactivationEpoch != never || s.Stake.CreditsObserved != 0 {
				t.Fatalf("stake %+v", s.Stake)
			}
		}},
	})
}

func TestDeactivate(t *testing.T) {
	t.Parallel()
	sk := stakeAcct.PublicKey()
	deactivate := one(func() core.Instruction { return stake.Deactivate(sk, staker.PublicKey()) })
	runInstructionTests(t, []instructionTest{
		{name: "deactivate", setup: func(h *harness) { h.put(sk, delegated(sol, 1, never), reserve+sol) }, ixs: deactivate,
			signers: []core.Keypair{staker}, want: success, check: func(t *testing.T, h *harness) {
				if d, _ := h.state(sk).Delegation(); d.DeactivationEpoch != 10 {
					t.Fatalf("delegation %+v", d)
				}
			}},
		{name: "twice", setup: func(h *harness) { h.put(sk, delegated(sol, 1, 9), reserve+sol) }, ixs: deactivate,
			signers: []core.Keypair{staker}, want: `{"InstructionError":[0,{"Custom":2}]}`},
		{name: "not delegated", setup: func(h *harness) { h.put(sk, initialized(stake.Lockup{}), reserve+sol) }, ixs: deactivate,
			signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"InvalidAccountData"]}`},
		{name: "by the withdrawer", setup: func(h *harness) { h.put(sk, delegated(sol, 1, never), reserve+sol) },
			ixs:     one(func() core.Instruction { return stake.Deactivate(sk, withdrawer.PublicKey()) }),
			signers: []core.Keypair{withdrawer}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
	})
}

func TestWithdraw(t *testing.T) {
	t.Parallel()
	sk := stakeAcct.PublicKey()
	to := other.PublicKey()
	lockup := stake.Lockup{UnixTimestamp: 1_000_000, Epoch: 100, Custodian: custodian.PublicKey()}
	withdraw := func(lamports uint64) func() []core.Instruction {
		return one(func() core.Instruction { return stake.Withdraw(sk, withdrawer.PublicKey(), to, lamports, nil) })
	}
	put := func(s stake.State, lamports uint64) func(h *harness) {
		return func(h *harness) { h.put(sk, s, lamports); h.fund(to, sol) }
	}
	balances := func(stakeLamports, toLamports uint64) func(t *testing.T, h *harness) {
		return func(t *testing.T, h *harness) {
			if h.accs[sk].Lamports != stakeLamports || h.accs[to].Lamports != toLamports {
				t.Fatalf("balances %d %d, want %d %d", h.accs[sk].Lamports, h.accs[to].Lamports, stakeLamports, toLamports)
			}
		}
	}
	runInstructionTests(t, []instructionTest{
		{name: "initialized surplus", setup: put(initialized(stake.Lockup{}), reserve+5), ixs: withdraw(5), signers: []core.Keypair{withdrawer},
			want: success, check: balances(reserve, sol+5)},
		{name: "into the reserve", setup: put(initialized(stake.Lockup{}), reserve+5), ixs: withdraw(6), signers: []core.Keypair{withdrawer},
			want: `{"InstructionError":[0,"InsufficientFunds"]}`},
		{name: "everything closes", setup: put(initialized(stake.Lockup{}), reserve+5), ixs: withdraw(reserve + 5), signers: []core.Keypair{withdrawer},
			want: success, check: func(t *testing.T, h *harness) {
				if _, ok := h.accs[sk]; ok {
					t.Fatal("account not closed")
				}
			}},
		{name: "by the staker", setup: put(initialized(stake.Lockup{}), reserve+5), ixs: one(func() core.Instruction {
			return stake.Withdraw(sk, staker.PublicKey(), to, 5, nil)
		}), signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "withdrawer unsigned", setup: put(initialized(stake.Lockup{}), reserve+5), ixs: one(func() core.Instruction {
			return unsign(stake.Withdraw(sk, withdrawer.PublicKey(), to, 5, nil), withdrawer.PublicKey())
		}), want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "active stake", setup: put(delegated(sol, 1, never), reserve+sol+5), ixs: withdraw(6), signers: []core.Keypair{withdrawer},
			want: `{"InstructionError":[0,"InsufficientFunds"]}`},
		{name: "active stake surplus", setup: put(delegated(sol, 1, never), reserve+sol+5), ixs: withdraw(5), signers: []core.Keypair{withdrawer},
			want: success},
		{name: "all of active stake", setup: put(delegated(sol, 1, never), reserve+sol), ixs: withdraw(reserve + sol), signers: []core.Keypair{withdrawer},
			want: `{"InstructionError":[0,"InsufficientFunds"]}`},
		{name: "deactivated stake", setup: put(delegated(sol, 1, 5), reserve+sol), ixs: withdraw(reserve + sol), signers: []core.Keypair{withdrawer},
			want: success},
		{name: "still cooling down", setup: func(h *harness) {
			put(delegated(sol, 1, 9), reserve+sol)(h)
			h.setHistory(sysvar.StakeHistory{{Epoch: 9, Entry: sysvar.StakeHistoryEntry{Effective: 4 * sol, Deactivating: sol}}})
		}, ixs: withdraw(sol), signers: []core.Keypair{withdrawer}, want: `{"InstructionError":[0,"InsufficientFunds"]}`},
		{name: "cooled part", setup: func(h *harness) {
			put(delegated(sol, 1, 9), reserve+sol)(h)
			h.setHistory(sysvar.StakeHistory{{Epoch: 9, Entry: sysvar.StakeHistoryEntry{Effective: 4 * sol, Deactivating: sol}}})
		}, ixs: withdraw(sol * 36 / 100), signers: []core.Keypair{withdrawer}, want: success}, // 9% of 4 SOL cooled off
		{name: "uninitialized, signed by itself", setup: func(h *harness) { put(stake.State{}, sol)(h) }, ixs: one(func() core.Instruction {
			return stake.Withdraw(sk, sk, to, sol, nil)
		}), signers: []core.Keypair{stakeAcct}, want: success},
		{name: "lockup", setup: put(initialized(lockup), reserve+5), ixs: withdraw(5), signers: []core.Keypair{withdrawer},
			want: `{"InstructionError":[0,{"Custom":1}]}`},
		{name: "lockup with custodian", setup: put(initialized(lockup), reserve+5), ixs: one(func() core.Instruction {
			return stake.Withdraw(sk, withdrawer.PublicKey(), to, 5, ptr(custodian.PublicKey()))
		}), signers: []core.Keypair{withdrawer, custodian}, want: success},
		{name: "expired lockup", setup: func(h *harness) {
			put(initialized(lockup), reserve+5)(h)
			h.at(100)
			h.env.Clock.UnixTimestamp = 1_000_000
		}, ixs: withdraw(5), signers: []core.Keypair{withdrawer}, want: success},
	})
}

func TestSplit(t *testing.T) {
	t.Parallel()
	sk, dk := stakeAcct.PublicKey(), stake2.PublicKey()
	put := func(s stake.State, lamports uint64) func(h *harness) {
		return func(h *harness) { h.put(sk, s, lamports) }
	}
	split := func(lamports uint64) func() []core.Instruction {
		return func() []core.Instruction { return stake.Split(sk, staker.PublicKey(), lamports, dk) }
	}
	prefunded := func(s stake.State, lamports uint64) func(h *harness) {
		return func(h *harness) {
			h.put(sk, s, lamports)
			h.accs[dk] = runtime.Account{Lamports: reserve, Owner: stake.ProgramID, Data: make([]byte, stake.Size)}
		}
	}
	splitIx := func(lamports uint64) func() []core.Instruction {
		return one(func() core.Instruction { return stake.SplitIx(sk, staker.PublicKey(), lamports, dk) })
	}
	runInstructionTests(t, []instructionTest{
		{name: "initialized", setup: put(initialized(stake.Lockup{}), 2*reserve+10), ixs: split(reserve + 4), signers: []core.Keypair{staker, stake2},
			want: success, check: func(t *testing.T, h *harness) {
				if h.accs[dk].Lamports != reserve+4 || h.accs[sk].Lamports != reserve+6 || h.state(dk) != initialized(stake.Lockup{}) {
					t.Fatalf("split %+v %+v", h.accs[dk], h.state(dk))
				}
			}},
		{name: "initialized, source below reserve", setup: put(initialized(stake.Lockup{}), 2*reserve+10), ixs: split(reserve + 11), signers: []core.Keypair{staker, stake2},
			want: `{"InstructionError":[2,"InsufficientFunds"]}`},
		{name: "active into a prefunded account", setup: prefunded(delegated(10*sol, 1, never), reserve+10*sol), ixs: splitIx(4 * sol),
			signers: []core.Keypair{staker}, want: success, check: func(t *testing.T, h *harness) {
				src, dst := h.state(sk), h.state(dk)
				if src.Stake.Delegation.Stake != 6*sol || dst.Stake.Delegation.Stake != 4*sol || dst.Meta.RentExemptReserve != reserve ||
					dst.Stake.Delegation.VoterPubkey != voteA.PublicKey() || h.accs[dk].Lamports != reserve+4*sol {
					t.Fatalf("source %+v\ndestination %+v", src.Stake, dst.Stake)
				}
			}},
		{name: "active into an empty account", setup: func(h *harness) {
			h.put(sk, delegated(10*sol, 1, never), reserve+10*sol)
			h.accs[dk] = runtime.Account{Lamports: 0, Owner: stake.ProgramID, Data: make([]byte, stake.Size)}
		}, ixs: split(4 * sol), signers: []core.Keypair{staker, stake2}, want: `{"InstructionError":[2,"InsufficientFunds"]}`},
		{name: "all of an active stake", setup: put(delegated(10*sol, 1, never), reserve+10*sol), ixs: split(reserve + 10*sol),
			signers: []core.Keypair{staker, stake2}, want: success, check: func(t *testing.T, h *harness) {
				if _, ok := h.accs[sk]; ok || h.state(dk).Stake.Delegation.Stake != 10*sol {
					t.Fatalf("split everything: %+v", h.state(dk))
				}
			}},
		{name: "more than the stake", setup: prefunded(delegated(10*sol, 1, never), reserve+12*sol), ixs: splitIx(11 * sol),
			signers: []core.Keypair{staker}, want: `{"InstructionError":[0,{"Custom":12}]}`},
		{name: "destination not a stake account", setup: func(h *harness) {
			h.put(sk, initialized(stake.Lockup{}), 2*reserve)
			h.fund(dk, reserve)
		}, ixs: splitIx(reserve), signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"IncorrectProgramId"]}`},
		{name: "destination in use", setup: func(h *harness) {
			h.put(sk, initialized(stake.Lockup{}), 2*reserve)
			h.put(dk, initialized(stake.Lockup{}), reserve)
		}, ixs: splitIx(reserve), signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"InvalidAccountData"]}`},
		{name: "nothing", setup: prefunded(initialized(stake.Lockup{}), 2*reserve), ixs: splitIx(0),
			signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"InsufficientFunds"]}`},
		{name: "by the withdrawer", setup: prefunded(initialized(stake.Lockup{}), 2*reserve), ixs: one(func() core.Instruction {
			return stake.SplitIx(sk, withdrawer.PublicKey(), reserve, dk)
		}), signers: []core.Keypair{withdrawer}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
	})
}

func TestMerge(t *testing.T) {
	t.Parallel()
	dk, sk := stakeAcct.PublicKey(), stake2.PublicKey()
	merge := one(func() core.Instruction { return stake.Merge(dk, sk, staker.PublicKey()) })
	both := func(dst, src stake.State, dstLamports, srcLamports uint64) func(h *harness) {
		return func(h *harness) { h.put(dk, dst, dstLamports); h.put(sk, src, srcLamports) }
	}
	checking := []string{"Checking if destination stake is mergeable", "Checking if source stake is mergeable", "Merging stake accounts"}
	transient := func(h *harness) {
		both(delegated(sol, 9, never), delegated(sol, 1, never), reserve+sol, reserve+sol)(h)
		h.setHistory(sysvar.StakeHistory{{Epoch: 9, Entry: sysvar.StakeHistoryEntry{Effective: 2 * sol, Activating: sol}}})
	}
	otherAuth := initialized(stake.Lockup{})
	otherAuth.Meta.Authorized.Withdrawer = other.PublicKey()
	runInstructionTests(t, []instructionTest{
		{name: "two initialized", setup: both(initialized(stake.Lockup{}), initialized(stake.Lockup{}), reserve+1, reserve+2), ixs: merge,
			signers: []core.Keypair{staker}, want: success, logs: checking, check: func(t *testing.T, h *harness) {
				if _, ok := h.accs[sk]; ok || h.accs[dk].Lamports != 2*reserve+3 || h.state(dk) != initialized(stake.Lockup{}) {
					t.Fatalf("merged %+v", h.accs[dk])
				}
			}},
		{name: "two active", setup: both(delegated(sol, 1, never), delegated(2*sol, 2, never), reserve+sol, reserve+2*sol), ixs: merge,
			signers: []core.Keypair{staker}, want: success, check: func(t *testing.T, h *harness) {
				// The source's reserve becomes free lamports, not stake.
				if d, _ := h.state(dk).Delegation(); d.Stake != 3*sol || h.accs[dk].Lamports != 2*reserve+3*sol {
					t.Fatalf("merged delegation %+v, %d lamports", d, h.accs[dk].Lamports)
				}
			}},
		{name: "inactive into activating", setup: both(delegated(sol, 10, never), initialized(stake.Lockup{}), reserve+sol, reserve+5), ixs: merge,
			signers: []core.Keypair{staker}, want: success, check: func(t *testing.T, h *harness) {
				if d, _ := h.state(dk).Delegation(); d.Stake != sol+reserve+5 {
					t.Fatalf("merged delegation %+v", d)
				}
			}},
		{name: "weighted credits", setup: func(h *harness) {
			a, b := delegated(sol, 1, never), delegated(3*sol, 1, never)
			a.Stake.CreditsObserved, b.Stake.CreditsObserved = 100, 201
			both(a, b, reserve+sol, reserve+3*sol)(h)
		}, ixs: merge, signers: []core.Keypair{staker}, want: success, check: func(t *testing.T, h *harness) {
			// ceil((100×1 + 201×3) / 4) = ceil(703/4) = 176
			if c := h.state(dk).Stake.CreditsObserved; c != 176 {
				t.Fatalf("credits observed %d", c)
			}
		}},
		{name: "transient", setup: transient, ixs: merge, signers: []core.Keypair{staker},
			want: `{"InstructionError":[0,{"Custom":5}]}`, logs: []string{checking[0], "stake account with transient stake cannot be merged"}},
		{name: "authority mismatch", setup: both(initialized(stake.Lockup{}), otherAuth, reserve, reserve), ixs: merge, signers: []core.Keypair{staker},
			want: `{"InstructionError":[0,{"Custom":6}]}`, logs: append(checking, "Unable to merge due to metadata mismatch")},
		{name: "voter mismatch", setup: func(h *harness) {
			b := delegated(sol, 1, never)
			b.Stake.Delegation.VoterPubkey = voteB.PublicKey()
			both(delegated(sol, 1, never), b, reserve+sol, reserve+sol)(h)
		}, ixs: merge, signers: []core.Keypair{staker}, want: `{"InstructionError":[0,{"Custom":6}]}`,
			logs: append(checking, "Unable to merge due to voter mismatch")},
		{name: "into itself", setup: both(initialized(stake.Lockup{}), initialized(stake.Lockup{}), reserve, reserve), ixs: one(func() core.Instruction {
			return stake.Merge(dk, dk, staker.PublicKey())
		}), signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"InvalidArgument"]}`, logs: []string{}},
		{name: "by the withdrawer", setup: both(initialized(stake.Lockup{}), initialized(stake.Lockup{}), reserve, reserve), ixs: one(func() core.Instruction {
			return stake.Merge(dk, sk, withdrawer.PublicKey())
		}), signers: []core.Keypair{withdrawer}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`, logs: checking[:1]},
	})
}

func TestLockupInstructions(t *testing.T) {
	t.Parallel()
	sk := stakeAcct.PublicKey()
	lockup := stake.Lockup{UnixTimestamp: 1_000_000, Epoch: 100, Custodian: custodian.PublicKey()}
	lockupIs := func(want stake.Lockup) func(t *testing.T, h *harness) {
		return func(t *testing.T, h *harness) {
			if got := h.state(sk).Meta.Lockup; got != want {
				t.Fatalf("lockup %+v, want %+v", got, want)
			}
		}
	}
	runInstructionTests(t, []instructionTest{
		{name: "withdrawer sets a lockup", setup: func(h *harness) { h.put(sk, initialized(stake.Lockup{}), reserve) }, ixs: one(func() core.Instruction {
			return stake.SetLockup(sk, stake.LockupArgs{Epoch: ptr(uint64(50)), Custodian: ptr(custodian.PublicKey())}, withdrawer.PublicKey())
		}), signers: []core.Keypair{withdrawer}, want: success, check: lockupIs(stake.Lockup{Epoch: 50, Custodian: custodian.PublicKey()})},
		{name: "withdrawer during a lockup", setup: func(h *harness) { h.put(sk, initialized(lockup), reserve) }, ixs: one(func() core.Instruction {
			return stake.SetLockup(sk, stake.LockupArgs{Epoch: ptr(uint64(0))}, withdrawer.PublicKey())
		}), signers: []core.Keypair{withdrawer}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "custodian during a lockup", setup: func(h *harness) {
			h.put(sk, delegated(sol, 1, never), reserve+sol)
			h.put(sk, func() stake.State {
				s := delegated(sol, 1, never)
				s.Meta.Lockup = lockup
				return s
			}(), reserve+sol)
		}, ixs: one(func() core.Instruction {
			return stake.SetLockup(sk, stake.LockupArgs{UnixTimestamp: ptr(int64(0))}, custodian.PublicKey())
		}), signers: []core.Keypair{custodian}, want: success, check: lockupIs(stake.Lockup{Epoch: 100, Custodian: custodian.PublicKey()})},
		{name: "checked with a new custodian", setup: func(h *harness) { h.put(sk, initialized(stake.Lockup{}), reserve) }, ixs: one(func() core.Instruction {
			return stake.SetLockupChecked(sk, stake.LockupArgs{UnixTimestamp: ptr(int64(9)), Custodian: ptr(other.PublicKey())}, withdrawer.PublicKey())
		}), signers: []core.Keypair{withdrawer, other}, want: success, check: lockupIs(stake.Lockup{UnixTimestamp: 9, Custodian: other.PublicKey()})},
		{name: "checked, new custodian unsigned", setup: func(h *harness) { h.put(sk, initialized(stake.Lockup{}), reserve) }, ixs: one(func() core.Instruction {
			return unsign(stake.SetLockupChecked(sk, stake.LockupArgs{Custodian: ptr(other.PublicKey())}, withdrawer.PublicKey()), other.PublicKey())
		}), signers: []core.Keypair{withdrawer}, want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
		{name: "uninitialized", setup: func(h *harness) { h.put(sk, stake.State{}, reserve) }, ixs: one(func() core.Instruction {
			return stake.SetLockup(sk, stake.LockupArgs{}, withdrawer.PublicKey())
		}), signers: []core.Keypair{withdrawer}, want: `{"InstructionError":[0,"InvalidAccountData"]}`},
	})
}

func TestGetMinimumDelegation(t *testing.T) {
	t.Parallel()
	for _, raised := range []bool{false, true} {
		h := newHarness(t, func(r *runtime.Registry) {
			r.RegisterBuiltin(stake.ProgramID, stake.Program{RaiseMinimumDelegationTo1SOL: raised})
		})
		res := h.exec([]core.Instruction{stake.GetMinimumDelegation()})
		runtimetest.WantErr(t, res, success)
		want := stake.MinimumDelegation(raised)
		if res.ReturnData == nil || res.ReturnData.ProgramID != stake.ProgramID {
			t.Fatalf("return data %+v", res.ReturnData)
		}
		if got, ok := stake.DecodeMinimumDelegation(res.ReturnData.Data); !ok || got != want {
			t.Fatalf("minimum delegation %d, want %d", got, want)
		}
	}
	if stake.MinimumDelegation(false) != 1 {
		t.Fatal("the 2.1 line's minimum delegation is 1 lamport")
	}
}

func TestDeactivateDelinquent(t *testing.T) {
	t.Parallel()
	sk := stakeAcct.PublicKey()
	credits := func(epochs ...uint64) []vote.EpochCredits {
		var out []vote.EpochCredits
		for i, e := range epochs {
			out = append(out, vote.EpochCredits{Epoch: e, Credits: uint64(i + 1), PrevCredits: uint64(i)})
		}
		return out
	}
	setup := func(delinquent, reference []vote.EpochCredits) func(h *harness) {
		return func(h *harness) {
			h.put(sk, delegated(sol, 1, never), reserve+sol)
			for k, c := range map[core.Pubkey][]vote.EpochCredits{voteA.PublicKey(): delinquent, voteB.PublicKey(): reference} {
				s := vote.NewState(vote.VoteInit{AuthorizedVoter: other.PublicKey()}, 0)
				s.EpochCredits = c
				h.accs[k] = runtime.Account{Lamports: voteRent, Owner: vote.ProgramID, Data: s.AccountData()}
			}
		}
	}
	ix := one(func() core.Instruction { return stake.DeactivateDelinquent(sk, voteA.PublicKey(), voteB.PublicKey()) })
	runInstructionTests(t, []instructionTest{
		{name: "never voted", setup: setup(nil, credits(6, 7, 8, 9, 10)), ixs: ix, want: success, check: func(t *testing.T, h *harness) {
			if d, _ := h.state(sk).Delegation(); d.DeactivationEpoch != 10 {
				t.Fatalf("delegation %+v", d)
			}
		}},
		{name: "stopped five epochs ago", setup: setup(credits(4, 5), credits(6, 7, 8, 9, 10)), ixs: ix, want: success},
		{name: "voted four epochs ago", setup: setup(credits(6), credits(6, 7, 8, 9, 10)), ixs: ix, want: `{"InstructionError":[0,{"Custom":11}]}`},
		{name: "reference skipped an epoch", setup: setup(nil, credits(5, 7, 8, 9, 10)), ixs: ix, want: `{"InstructionError":[0,{"Custom":9}]}`},
		{name: "reference not voting now", setup: setup(nil, credits(5, 6, 7, 8, 9)), ixs: ix, want: `{"InstructionError":[0,{"Custom":9}]}`},
		{name: "other vote account", setup: setup(nil, credits(6, 7, 8, 9, 10)), ixs: one(func() core.Instruction {
			return stake.DeactivateDelinquent(sk, voteB.PublicKey(), voteB.PublicKey())
		}), want: `{"InstructionError":[0,{"Custom":10}]}`},
		{name: "delinquent not a vote account", setup: setup(nil, credits(6, 7, 8, 9, 10)), ixs: one(func() core.Instruction {
			return stake.DeactivateDelinquent(sk, other.PublicKey(), voteB.PublicKey())
		}), want: `{"InstructionError":[0,"IncorrectProgramId"]}`},
	})
}

func TestMoveStakeAndLamports(t *testing.T) {
	t.Parallel()
	sk, dk := stakeAcct.PublicKey(), stake2.PublicKey()
	both := func(src, dst stake.State, srcLamports, dstLamports uint64) func(h *harness) {
		return func(h *harness) { h.put(sk, src, srcLamports); h.put(dk, dst, dstLamports) }
	}
	runInstructionTests(t, []instructionTest{
		{name: "move stake to active", setup: both(delegated(5*sol, 1, never), delegated(sol, 1, never), reserve+5*sol, reserve+sol),
			ixs:     one(func() core.Instruction { return stake.MoveStake(sk, dk, staker.PublicKey(), 2*sol) }),
			signers: []core.Keypair{staker}, want: success, check: func(t *testing.T, h *harness) {
				a, _ := h.state(sk).Delegation()
				b, _ := h.state(dk).Delegation()
				if a.Stake != 3*sol || b.Stake != 3*sol || h.accs[dk].Lamports != reserve+3*sol {
					t.Fatalf("stakes %d %d", a.Stake, b.Stake)
				}
			}},
		{name: "move all stake to inactive", setup: both(delegated(5*sol, 1, never), initialized(stake.Lockup{}), reserve+5*sol, reserve),
			ixs:     one(func() core.Instruction { return stake.MoveStake(sk, dk, staker.PublicKey(), 5*sol) }),
			signers: []core.Keypair{staker}, want: success, check: func(t *testing.T, h *harness) {
				if h.state(sk) != initialized(stake.Lockup{}) || h.state(dk).Stake.Delegation.Stake != 5*sol {
					t.Fatalf("states %+v %+v", h.state(sk), h.state(dk))
				}
			}},
		{name: "move stake from inactive", setup: both(initialized(stake.Lockup{}), delegated(sol, 1, never), reserve+5*sol, reserve+sol),
			ixs:     one(func() core.Instruction { return stake.MoveStake(sk, dk, staker.PublicKey(), sol) }),
			signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"InvalidAccountData"]}`},
		{name: "move stake to another voter", setup: func(h *harness) {
			d := delegated(sol, 1, never)
			d.Stake.Delegation.VoterPubkey = voteB.PublicKey()
			both(delegated(5*sol, 1, never), d, reserve+5*sol, reserve+sol)(h)
		}, ixs: one(func() core.Instruction { return stake.MoveStake(sk, dk, staker.PublicKey(), sol) }),
			signers: []core.Keypair{staker}, want: `{"InstructionError":[0,{"Custom":10}]}`},
		{name: "move nothing", setup: both(delegated(5*sol, 1, never), delegated(sol, 1, never), reserve+5*sol, reserve+sol),
			ixs:     one(func() core.Instruction { return stake.MoveStake(sk, dk, staker.PublicKey(), 0) }),
			signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"InvalidArgument"]}`},
		{name: "move lamports", setup: both(delegated(5*sol, 1, never), initialized(stake.Lockup{}), reserve+5*sol+7, reserve),
			ixs:     one(func() core.Instruction { return stake.MoveLamports(sk, dk, staker.PublicKey(), 7) }),
			signers: []core.Keypair{staker}, want: success},
		{name: "move staked lamports", setup: both(delegated(5*sol, 1, never), initialized(stake.Lockup{}), reserve+5*sol+7, reserve),
			ixs:     one(func() core.Instruction { return stake.MoveLamports(sk, dk, staker.PublicKey(), 8) }),
			signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"InvalidArgument"]}`},
		{name: "move to itself", setup: both(delegated(5*sol, 1, never), initialized(stake.Lockup{}), reserve+5*sol+7, reserve),
			ixs:     one(func() core.Instruction { return stake.MoveLamports(sk, sk, staker.PublicKey(), 1) }),
			signers: []core.Keypair{staker}, want: `{"InstructionError":[0,"InvalidInstructionData"]}`},
		{name: "unsigned", setup: both(delegated(5*sol, 1, never), initialized(stake.Lockup{}), reserve+5*sol+7, reserve),
			ixs: one(func() core.Instruction {
				return unsign(stake.MoveLamports(sk, dk, staker.PublicKey(), 1), staker.PublicKey())
			}),
			want: `{"InstructionError":[0,"MissingRequiredSignature"]}`},
	})
}

func TestEpochRewardsActiveAndRedelegate(t *testing.T) {
	t.Parallel()
	sk := stakeAcct.PublicKey()
	rewarding := func(h *harness) {
		h.put(sk, delegated(sol, 1, never), reserve+sol)
		er := sysvar.EpochRewards{Active: true, NumPartitions: 1}
		h.env.SysvarData[core.SysvarEpochRewardsID] = er.Marshal()
	}
	runInstructionTests(t, []instructionTest{
		{name: "deactivate during rewards", setup: rewarding, ixs: one(func() core.Instruction { return stake.Deactivate(sk, staker.PublicKey()) }),
			signers: []core.Keypair{staker}, want: `{"InstructionError":[0,{"Custom":16}]}`},
		{name: "minimum delegation during rewards", setup: rewarding, ixs: one(stake.GetMinimumDelegation), want: success},
		{name: "redelegate", setup: func(h *harness) { h.put(sk, delegated(sol, 1, never), reserve+sol) }, ixs: one(func() core.Instruction {
			return core.Instruction{ProgramID: stake.ProgramID, Accounts: []core.AccountMeta{core.Writable(sk)}, Data: stake.Instruction{Kind: stake.KindRedelegate}.Encode()}
		}), want: `{"InstructionError":[0,"InvalidInstructionData"]}`},
		{name: "unknown instruction", setup: func(h *harness) { h.put(sk, delegated(sol, 1, never), reserve+sol) }, ixs: one(func() core.Instruction {
			return core.Instruction{ProgramID: stake.ProgramID, Accounts: []core.AccountMeta{core.Writable(sk)}, Data: []byte{18, 0, 0, 0}}
		}), want: `{"InstructionError":[0,"InvalidInstructionData"]}`},
	})
}

// The whole life of a stake, through transactions: created and delegated in epoch 10, warming
// up at 9% of the cluster's effective stake per epoch as recorded in StakeHistory, deactivated,
// cooling down, and withdrawn.
func TestStakeLifecycle(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	sk := stakeAcct.PublicKey()
	// The cluster: 100 SOL of bootstrap stake.
	bootstrap := stake.NewDelegation(voteA.PublicKey(), 100*sol, never)
	res := h.exec(stake.CreateAccountAndDelegate(payer.PublicKey(), sk, voteA.PublicKey(), auth, stake.Lockup{}, reserve+50*sol), stakeAcct, staker)
	runtimetest.WantErr(t, res, success)
	rate := ptr(stake.PerpetualNewRateActivationEpoch)
	// The bank records each epoch's entry at the boundary into the next.
	advance := func(epoch uint64) {
		d, _ := h.state(sk).Delegation()
		entry := stake.HistoryEntry(epoch-1, []stake.Delegation{bootstrap, d}, h.history, rate)
		history := append(sysvar.StakeHistory(nil), h.history...)
		history.Add(epoch-1, entry)
		h.setHistory(history)
		h.at(epoch)
	}
	activation := func() (stake.ActivationState, uint64, uint64) {
		st, active, inactive, err := stake.Activation(h.state(sk), h.accs[sk].Lamports, h.env.Clock.Epoch, h.history, rate)
		if err != nil {
			t.Fatal(err)
		}
		return st, active, inactive
	}
	if st, active, inactive := activation(); st != stake.Activating || active != 0 || inactive != 50*sol {
		t.Fatalf("epoch 10: %s %d %d", st, active, inactive)
	}
	// Epoch 11: 9% of 100 SOL = 9 SOL became effective. Epoch 12: 9% of 109 SOL = 9.81 SOL more.
	advance(11)
	if st, active, inactive := activation(); st != stake.Activating || active != 9*sol || inactive != 41*sol {
		t.Fatalf("epoch 11: %s %d %d", st, active, inactive)
	}
	advance(12)
	if _, active, _ := activation(); active != 18_810_000_000 {
		t.Fatalf("epoch 12: active %d", active)
	}
	// Not fully active: merging or withdrawing the stake is refused.
	res = h.exec([]core.Instruction{stake.Withdraw(sk, withdrawer.PublicKey(), other.PublicKey(), sol, nil)}, withdrawer)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"InsufficientFunds"]}`)
	for e := uint64(13); e <= 16; e++ {
		advance(e)
	}
	if st, active, _ := activation(); st != stake.Active || active != 50*sol {
		t.Fatalf("epoch 16: %s %d", st, active)
	}
	res = h.exec([]core.Instruction{stake.Deactivate(sk, staker.PublicKey())}, staker)
	runtimetest.WantErr(t, res, success)
	if st, active, inactive := activation(); st != stake.Deactivating || active != 50*sol || inactive != 0 {
		t.Fatalf("epoch 16 deactivating: %s %d %d", st, active, inactive)
	}
	// Epoch 17: 9% of 150 SOL = 13.5 SOL cooled down.
	advance(17)
	if st, active, inactive := activation(); st != stake.Deactivating || active != 36_500_000_000 || inactive != 13_500_000_000 {
		t.Fatalf("epoch 17: %s %d %d", st, active, inactive)
	}
	res = h.exec([]core.Instruction{stake.Withdraw(sk, withdrawer.PublicKey(), other.PublicKey(), 13_500_000_000, nil)}, withdrawer)
	runtimetest.WantErr(t, res, success)
	for e := uint64(18); e <= 21; e++ {
		advance(e)
	}
	if st, active, _ := activation(); st != stake.Inactive || active != 0 {
		t.Fatalf("epoch 21: %s %d", st, active)
	}
	res = h.exec([]core.Instruction{stake.Withdraw(sk, withdrawer.PublicKey(), other.PublicKey(), h.accs[sk].Lamports, nil)}, withdrawer)
	runtimetest.WantErr(t, res, success)
	if _, ok := h.accs[sk]; ok || h.accs[other.PublicKey()].Lamports != reserve+50*sol {
		t.Fatalf("not withdrawn: %d", h.accs[other.PublicKey()].Lamports)
	}
}

func TestStateLayout(t *testing.T) {
	t.Parallel()
	s := delegated(7, 3, 9)
	s.Meta.Lockup = stake.Lockup{UnixTimestamp: -2, Epoch: 4, Custodian: custodian.PublicKey()}
	s.Flags = 1
	data := s.AccountData()
	u64 := func(off int) uint64 { return binary.LittleEndian.Uint64(data[off:]) }
	checks := []struct {
		name      string
		got, want any
	}{
		{"tag", binary.LittleEndian.Uint32(data), uint32(2)},
		{"reserve", u64(4), uint64(reserve)},
		{"staker", core.Pubkey(data[12:44]), staker.PublicKey()},
		{"withdrawer", core.Pubkey(data[44:76]), withdrawer.PublicKey()},
		{"lockup timestamp", int64(u64(76)), int64(-2)},
		{"lockup epoch", u64(84), uint64(4)},
		{"custodian", core.Pubkey(data[92:124]), custodian.PublicKey()},
		{"voter", core.Pubkey(data[124:156]), voteA.PublicKey()},
		{"stake", u64(156), uint64(7)},
		{"activation", u64(164), uint64(3)},
		{"deactivation", u64(172), uint64(9)},
		{"warmup rate", u64(180), uint64(0x3fd0000000000000)},
		{"credits observed", u64(188), uint64(1000)},
		{"flags", data[196], uint8(1)},
		{"encoded length", len(s.Encode()), 197},
		{"initialized length", len(initialized(stake.Lockup{}).Encode()), 124},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
	got, err := stake.Decode(data)
	if err != nil || got != s {
		t.Fatalf("round trip %+v, %v", got, err)
	}
	for name, bad := range map[string][]byte{"empty": nil, "tag 4": {4, 0, 0, 0}, "short meta": data[:100], "short stake": data[:196]} {
		if _, err := stake.Decode(bad); err == nil {
			t.Errorf("%s decoded", name)
		}
	}
	for _, k := range []stake.StateKind{stake.StateUninitialized, stake.StateRewardsPool} {
		if got, err := stake.Decode(stake.State{Kind: k}.AccountData()); err != nil || got.Kind != k {
			t.Errorf("%s: %+v %v", k, got, err)
		}
	}
}
