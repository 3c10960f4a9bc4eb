package ledger

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/stake"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/runtime"
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
	// The reward's postBalance is the leader's balance at the end of the block; a later balance would not do,
	// since the leader also pays for its votes (a vote in the same stretch can cancel a fee exactly).
	post, _, _, err := l.Store().GetAccount(l.Genesis.Identity.PublicKey(), ex.Slot)
	if err != nil {
		t.Fatal(err)
	}
	if fee.PostBalance != post.Lamports {
		t.Fatalf("leader balance %d at the block, fee reward %+v", post.Lamports, *fee)
	}
}

// A new chain holds what the reference's test validator writes into its genesis: SPL Token's wrapped-SOL mint
// with one SOL and rent epoch 1 (and no Token-2022 one), the stake config account, the rent of SIMD-0194, the
// vote account as its own voter and withdrawer, program data with the zero address as upgrade authority. The
// node's own accounts replace configured ones at the same address, as the reference's genesis does, while
// configured accounts replace the programs' builds.
func TestGenesisAsTheReferenceMakesIt(t *testing.T) {
	stale := GenesisAccount{Pubkey: core.StakeConfigID, Lamports: 5, Owner: core.ConfigProgramID, Data: []byte{9, 9}}
	mint := GenesisAccount{Pubkey: core.NativeMintID, Lamports: 7, Owner: core.TokenProgramID, Data: make([]byte, 82)}
	memo := GenesisAccount{Pubkey: core.MemoProgramID, Lamports: 11, Owner: core.BPFLoaderProgramID, Executable: true,
		Data: []byte("a build")}
	l, err := Open(Config{Dir: t.TempDir(), Paused: true, Genesis: GenesisOptions{Accounts: []GenesisAccount{stale, mint, memo}}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	bank := l.Bank(Finalized)
	get := func(k core.Pubkey) runtime.Account {
		t.Helper()
		a, ok := bank.GetAccount(k)
		if !ok {
			t.Fatalf("%s: missing", k)
		}
		return a
	}

	if a := get(core.NativeMintID); a.Lamports != LamportsPerSOL || a.RentEpoch != 1 || a.Owner != core.TokenProgramID ||
		!bytes.Equal(a.Data, token.NativeMintData()) {
		t.Errorf("native mint = %d lamports, rent epoch %d, owner %s, data % x", a.Lamports, a.RentEpoch, a.Owner, a.Data)
	}
	if _, ok := bank.GetAccount(core.NativeMint2022ID); ok {
		t.Error("Token-2022's native mint is in genesis; the reference's CreateNativeMint makes it")
	}

	cfg := get(core.StakeConfigID)
	wantCfg := []byte{0, 0, 0, 0, 0, 0, 0, 0xd0, 0x3f, 12} // no keys, 0.25, 12
	if cfg.Owner != core.ConfigProgramID || !bytes.Equal(cfg.Data, wantCfg) || cfg.Lamports != (128+10)*6960 ||
		cfg.RentEpoch != 0 || cfg.Executable {
		t.Errorf("stake config = %+v, want %x with %d lamports", cfg, wantCfg, (128+10)*6960)
	}
	if a := get(core.MemoProgramID); a.Lamports != 11 || string(a.Data) != "a build" {
		t.Errorf("a configured program account lost to the module's: %+v", a)
	}

	rent := l.Rent()
	if rent.LamportsPerByteYear != 6960 || rent.ExemptionThreshold != 1 || rent.BurnPercent != 50 {
		t.Errorf("rent = %+v, want 6960 per byte, threshold 1", rent)
	}
	if got := rent.MinimumBalance(165); got != 2_039_280 {
		t.Errorf("minimum balance of 165 bytes = %d, want 2039280 as before", got)
	}
	if d := get(core.SysvarRentID).Data; !bytes.Equal(d[:8], []byte{0x30, 0x1b, 0, 0, 0, 0, 0, 0}) {
		t.Errorf("Rent sysvar data % x, want 6960 first", d)
	}

	st, err := vote.Decode(get(l.VoteAccount()).Data)
	if err != nil {
		t.Fatal(err)
	}
	voter, _ := st.AuthorizedVoter(0)
	if voter != l.VoteAccount() || st.AuthorizedWithdrawer != l.VoteAccount() || st.NodePubkey != l.Genesis.Identity.PublicKey() {
		t.Errorf("vote account voter %s, withdrawer %s, node %s; want the vote account twice, then the identity",
			voter, st.AuthorizedWithdrawer, st.NodePubkey)
	}

	sa, err := stake.Decode(get(l.StakeAccount()).Data)
	if err != nil {
		t.Fatal(err)
	}
	if a := sa.Meta.Authorized; a.Staker != l.StakeAccount() || a.Withdrawer != l.StakeAccount() {
		t.Errorf("bootstrap stake authorities %+v, want the stake account itself", a)
	}

	dataAddr, _, err := core.FindProgramAddress([][]byte{core.Token2022ProgramID[:]}, core.BPFLoaderUpgradeableProgramID)
	if err != nil {
		t.Fatal(err)
	}
	pd := get(dataAddr).Data
	want := append([]byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, make([]byte, 32)...)
	if len(pd) < len(want) || !bytes.Equal(pd[:len(want)], want) {
		t.Errorf("Token-2022 program data header % x, want % x", pd, want)
	}
}

// The node votes with its vote account's keypair, the vote account being its own voter: its votes land.
func TestNodeVotesAsItsVoteAccount(t *testing.T) {
	l := openTest(t, t.TempDir(), 2)
	waitFor(t, "a landed vote", func() bool {
		a, ok := l.Bank(Confirmed).GetAccount(l.VoteAccount())
		if !ok {
			return false
		}
		st, err := vote.Decode(a.Data)
		if err != nil {
			return false
		}
		_, voted := st.LastVotedSlot()
		return voted
	})
}
