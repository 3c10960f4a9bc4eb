package ledger

import (
	"os"
	"path/filepath"
	"testing"

	"ledgerd/impl/core"
)

func TestGenesisAccountsAndHash(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(t.TempDir(), "acct.json")
	owner := core.MemoProgramID.String()
	os.WriteFile(file, []byte(`{"pubkey":"ignored","account":{"lamports":42,"data":["AQID","base64"],"owner":"`+owner+`","executable":false,"rentEpoch":18446744073709551615,"space":3}}`), 0o644)
	addr := "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
	acct, err := LoadAccountFile(addr, file)
	if err != nil {
		t.Fatal(err)
	}
	l, err := Open(Config{Dir: dir, Genesis: GenesisOptions{Accounts: []GenesisAccount{acct}, FaucetLamports: 77 * LamportsPerSOL}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	bank := l.Bank(Finalized)
	got, ok := bank.GetAccount(core.MustParsePubkey(addr))
	if !ok || got.Lamports != 42 || string(got.Data) != "\x01\x02\x03" || got.Owner != core.MemoProgramID {
		t.Fatalf("--account: %+v %v", got, ok)
	}
	if f, _ := bank.GetAccount(l.Genesis.Faucet.PublicKey()); f.Lamports != 77*LamportsPerSOL {
		t.Fatalf("faucet = %d", f.Lamports)
	}
	sys, ok := bank.GetAccount(core.SystemProgramID)
	if !ok || !sys.Executable || sys.Owner != core.NativeLoaderProgramID || string(sys.Data) != "system_program" {
		t.Fatalf("system program account: %+v", sys)
	}
	clock, ok := bank.GetAccount(core.SysvarClockID)
	if !ok || clock.Owner != core.SysvarOwnerID || len(clock.Data) != 40 {
		t.Fatalf("clock sysvar: %+v", clock)
	}
	want := uint64(42) + 77*LamportsPerSOL + IdentityLamports
	if c := bank.Capitalization(); c < want {
		t.Fatalf("capitalization %d below the funded accounts %d", c, want)
	}

	// Another chain with another configuration has another genesis hash.
	l2, err := Open(Config{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if l2.Genesis.Hash == l.Genesis.Hash {
		t.Fatal("two chains share a genesis hash")
	}
}

func TestLoadAccountFileErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(body string) string {
		p := filepath.Join(dir, "a.json")
		os.WriteFile(p, []byte(body), 0o644)
		return p
	}
	good := "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
	for name, c := range map[string]struct{ addr, body string }{
		"bad address":  {"nope", `{}`},
		"not json":     {good, `{`},
		"bad owner":    {good, `{"account":{"lamports":1,"data":["",""],"owner":"x"}}`},
		"bad data":     {good, `{"account":{"lamports":1,"data":["!!","base64"],"owner":"11111111111111111111111111111111"}}`},
		"no lamports":  {good, `{"account":{"lamports":0,"data":["","base64"],"owner":"11111111111111111111111111111111"}}`},
		"bad encoding": {good, `{"account":{"lamports":1,"data":["","hex"],"owner":"11111111111111111111111111111111"}}`},
	} {
		if _, err := LoadAccountFile(c.addr, write(c.body)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// Fees: half of the signature fee is burned, the rest paid to the leader as a Fee reward of the block.
func TestFeesPaidToLeader(t *testing.T) {
	l := openTest(t, t.TempDir(), 2)
	alice := newKey(t)
	if _, err := l.Airdrop(t.Context(), alice.PublicKey(), LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	before := balance(l, Processed, l.Genesis.Identity.PublicKey())
	tx := core.NewTransferTx(alice, newKey(t).PublicKey(), 1_000_000, l.Bank(Processed).LastBlockhash())
	ex, err := l.Execute(t.Context(), tx)
	if err != nil || ex.Result.Err != nil {
		t.Fatal(err, ex.Result.Err)
	}
	waitFor(t, "the block", func() bool { _, c, _ := l.Slots(); return c >= ex.Slot })
	block, _, _ := l.Block(ex.Slot, Confirmed)
	var fee *Reward
	for i := range block.Rewards {
		if block.Rewards[i].RewardType == "Fee" {
			fee = &block.Rewards[i]
		}
	}
	// Each airdrop (5000) and the transfer (5000) may share the block; the leader gets half of each.
	if fee == nil || fee.Lamports <= 0 || fee.Lamports%2500 != 0 || fee.Pubkey != l.Genesis.Identity.PublicKey() {
		t.Fatalf("fee reward: %+v", block.Rewards)
	}
	if after := balance(l, Confirmed, l.Genesis.Identity.PublicKey()); after < before+2500 {
		t.Fatalf("leader balance %d -> %d", before, after)
	}
}
