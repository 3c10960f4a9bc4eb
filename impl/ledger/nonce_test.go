package ledger

import (
	"context"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
)

// A frozen bank is simulated against as the reference's completed bank: with its own blockhash registered. A
// nonce initialized in the bank advances in a simulation against it once it is frozen (clients that confirm the
// initialization and then advance see exactly this with preflight at confirmed), and its sysvars list that hash.
func TestSimulateAgainstFrozenBankSeesItsOwnBlockhash(t *testing.T) {
	l := openTest(t, t.TempDir(), 4)
	ctx := context.Background()
	payer, authority := newKey(t), newKey(t)
	var nonceAcct core.Keypair
	if _, err := l.Airdrop(ctx, payer.PublicKey(), 10*LamportsPerSOL); err != nil {
		t.Fatal(err)
	}

	// Initialize the nonce, keeping the bank it ran in (again with a new account when a slot boundary falls
	// between reading the bank and running the transaction).
	var bank *Bank
	for bank == nil {
		nonceAcct = newKey(t)
		b := l.Bank(Processed)
		ixs := system.CreateNonceAccount(payer.PublicKey(), nonceAcct.PublicKey(), authority.PublicKey(), LamportsPerSOL)
		tx, err := core.NewTransaction(payer.PublicKey(), ixs, b.LastBlockhash(), payer, nonceAcct)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := l.Execute(ctx, tx)
		if err != nil || ex.Result.Err != nil {
			t.Fatalf("creating the nonce: %v %v", err, ex.Result.Err)
		}
		if ex.Slot == b.Slot {
			bank = b
		}
	}
	waitFor(t, "the bank to freeze", bank.Frozen)

	advance, err := core.NewTransaction(payer.PublicKey(),
		[]core.Instruction{system.AdvanceNonceAccount(nonceAcct.PublicKey(), authority.PublicKey())},
		bank.LastBlockhash(), payer, authority)
	if err != nil {
		t.Fatal(err)
	}
	if sim, err := l.Simulate(bank, advance, false, nil); err != nil || sim.Result.Err != nil {
		t.Errorf("advancing the nonce against its frozen bank: %v; logs %q", sim.Result.Err, sim.Result.Logs)
	}

	env := bank.ExecEnv()
	if env.Blockhash != bank.Hash || len(env.RecentBlockhashes) == 0 || env.RecentBlockhashes[0].Blockhash != bank.Hash {
		t.Errorf("frozen bank's environment: last blockhash %s, want its own %s", env.Blockhash, bank.Hash)
	}
	if a, ok := bank.GetAccount(core.SysvarRecentBlockhashesID); !ok || len(a.Data) < 8+32 ||
		core.Hash(a.Data[8:40]) != bank.Hash {
		t.Errorf("the frozen bank's RecentBlockhashes sysvar does not start with its own hash")
	}
	if bank.Env.Blockhash != bank.ParentHash {
		t.Errorf("the environment its transactions ran in changed: %s, want the parent's %s", bank.Env.Blockhash, bank.ParentHash)
	}
}
