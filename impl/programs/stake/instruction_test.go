package stake_test

import (
	"encoding/hex"
	"reflect"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/stake"
)

func sampleInstructions() []stake.Instruction {
	k := other.PublicKey()
	return []stake.Instruction{
		{Kind: stake.KindInitialize, Authorized: auth, Lockup: stake.Lockup{UnixTimestamp: -1, Epoch: 2, Custodian: k}},
		{Kind: stake.KindAuthorize, NewAuthority: k, Authority: stake.AuthorityWithdrawer},
		{Kind: stake.KindDelegateStake},
		{Kind: stake.KindSplit, Lamports: 5},
		{Kind: stake.KindWithdraw, Lamports: 1 << 50},
		{Kind: stake.KindDeactivate},
		{Kind: stake.KindSetLockup, LockupArgs: stake.LockupArgs{UnixTimestamp: ptr(int64(3)), Custodian: &k}},
		{Kind: stake.KindSetLockup, LockupArgs: stake.LockupArgs{Epoch: ptr(uint64(4))}},
		{Kind: stake.KindMerge},
		{Kind: stake.KindAuthorizeWithSeed, NewAuthority: k, Authority: stake.AuthorityStaker, Seed: "seed", SeedOwner: stake.ProgramID},
		{Kind: stake.KindInitializeChecked},
		{Kind: stake.KindAuthorizeChecked, Authority: stake.AuthorityStaker},
		{Kind: stake.KindAuthorizeCheckedWithSeed, Authority: stake.AuthorityWithdrawer, Seed: "", SeedOwner: k},
		{Kind: stake.KindSetLockupChecked, LockupArgs: stake.LockupArgs{UnixTimestamp: ptr(int64(-9)), Epoch: ptr(uint64(9))}},
		{Kind: stake.KindGetMinimumDelegation},
		{Kind: stake.KindDeactivateDelinquent},
		{Kind: stake.KindRedelegate},
		{Kind: stake.KindMoveStake, Lamports: 6},
		{Kind: stake.KindMoveLamports, Lamports: 7},
	}
}

func TestInstructionRoundTrip(t *testing.T) {
	t.Parallel()
	for _, ix := range sampleInstructions() {
		b := ix.Encode()
		got, err := stake.DecodeInstruction(b)
		if err != nil || !reflect.DeepEqual(got, ix) {
			t.Errorf("%s: %+v, %v", ix.Kind, got, err)
		}
		if got, err := stake.DecodeInstruction(append(b, 9)); err != nil || !reflect.DeepEqual(got, ix) {
			t.Errorf("%s with a trailing byte: %v", ix.Kind, err)
		}
		if len(b) > 4 {
			if _, err := stake.DecodeInstruction(b[:len(b)-1]); err == nil {
				t.Errorf("%s: truncated data accepted", ix.Kind)
			}
		}
	}
	for name, data := range map[string][]byte{
		"empty":          nil,
		"unknown":        {18, 0, 0, 0},
		"bad authority":  append(append([]byte{1, 0, 0, 0}, make([]byte, 32)...), 2, 0, 0, 0),
		"bad option tag": {6, 0, 0, 0, 3},
	} {
		if _, err := stake.DecodeInstruction(data); err == nil {
			t.Errorf("%s decoded", name)
		}
	}
}

// Wire forms and account lists as solana-stake-interface builds them.
func TestBuilders(t *testing.T) {
	t.Parallel()
	sk := stakeAcct.PublicKey()
	d := stake.DelegateStake(sk, staker.PublicKey(), voteA.PublicKey())
	if hex.EncodeToString(d.Data) != "02000000" || len(d.Accounts) != 6 || d.Accounts[4].Pubkey != core.StakeConfigID ||
		!d.Accounts[5].IsSigner || d.Accounts[3].Pubkey != core.SysvarStakeHistoryID {
		t.Fatalf("delegate %+v", d)
	}
	w := stake.Withdraw(sk, withdrawer.PublicKey(), other.PublicKey(), 3, ptr(custodian.PublicKey()))
	if hex.EncodeToString(w.Data) != "040000000300000000000000" || len(w.Accounts) != 6 || !w.Accounts[5].IsSigner {
		t.Fatalf("withdraw %+v", w)
	}
	if n := len(stake.Initialize(sk, auth, stake.Lockup{}).Data); n != 116 {
		t.Fatalf("initialize data %d bytes", n)
	}
	split := stake.Split(sk, staker.PublicKey(), 10, stake2.PublicKey())
	if len(split) != 3 || split[0].ProgramID != core.SystemProgramID || split[2].ProgramID != stake.ProgramID {
		t.Fatalf("split %+v", split)
	}
	if got := hex.EncodeToString(stake.GetMinimumDelegation().Data); got != "0d000000" {
		t.Fatalf("get minimum delegation %s", got)
	}
}
