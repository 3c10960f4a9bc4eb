package ledger

import (
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs"
	"ledgerd/impl/runtime"
)

// The program accounts of a new chain come from the modules the ledger is handed, laid out as the
// reference lays out a program of each loader: the shipped list gives exactly these.
func TestGenesisProgramAccounts(t *testing.T) {
	t.Parallel()
	rent := sysvar.DefaultRent()
	native := func(id core.Pubkey, name string) GenesisAccount {
		return GenesisAccount{Pubkey: id, Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true,
			RentEpoch: runtime.RentExemptRentEpoch, Data: []byte(name)}
	}
	deployed := func(id, loader core.Pubkey, marker string) GenesisAccount {
		return GenesisAccount{Pubkey: id, Lamports: rent.MinimumBalance(uint64(len(marker))), Owner: loader, Executable: true,
			RentEpoch: runtime.RentExemptRentEpoch, Data: []byte(marker)}
	}
	want := map[core.Pubkey]GenesisAccount{}
	for _, a := range []GenesisAccount{
		native(core.SystemProgramID, "system_program"),
		native(core.VoteProgramID, "vote_program"),
		native(core.StakeProgramID, "stake_program"),
		native(core.ConfigProgramID, "config_program"),
		native(core.ComputeBudgetProgramID, "compute_budget_program"),
		native(core.BPFLoaderDeprecatedProgramID, "solana_bpf_loader_deprecated_program"),
		native(core.BPFLoaderProgramID, "solana_bpf_loader_program"),
		native(core.BPFLoaderUpgradeableProgramID, "solana_bpf_loader_upgradeable_program"),
		native(core.LoaderV4ProgramID, "loader_v4"),
		native(core.Ed25519ProgramID, "ed25519_program"),
		native(core.Secp256k1ProgramID, "secp256k1_program"),
		native(core.Secp256r1ProgramID, "secp256r1_program"),
		native(core.ZkElGamalProofProgramID, "zk_elgamal_proof_program"),
		deployed(core.MemoV1ProgramID, core.BPFLoaderProgramID, "spl_memo-1.0.0 (native)"),
		deployed(core.MemoProgramID, core.BPFLoaderProgramID, "spl_memo-3.0.0 (native)"),
		deployed(core.AssociatedTokenProgramID, core.BPFLoaderProgramID, "spl_associated_token_account-1.1.1 (native)"),
	} {
		want[a.Pubkey] = a
	}
	// SPL Token and Token-2022 as the reference's 4.1+ program binaries install them (p-token at SPL Token's id),
	// the lookup table program as its Core BPF build.
	for _, id := range []core.Pubkey{core.TokenProgramID, core.Token2022ProgramID, core.AddressLookupTableProgramID} {
		for _, a := range upgradeableProgram(id, &rent) {
			want[a.Pubkey] = a
		}
	}
	got := programAccounts(programs.All(), &rent)
	if len(got) != len(want) {
		t.Errorf("%d program accounts, want %d", len(got), len(want))
	}
	for _, a := range got {
		w, ok := want[a.Pubkey]
		if !ok {
			t.Errorf("unexpected program account %s", a.Pubkey)
			continue
		}
		if a.Lamports != w.Lamports || a.Owner != w.Owner || a.Executable != w.Executable || a.RentEpoch != w.RentEpoch ||
			string(a.Data) != string(w.Data) {
			t.Errorf("%s = %+v, want %+v", a.Pubkey, a, w)
		}
	}
}

// A chain started with another module list has that list's program accounts: genesis reads the list the
// ledger is handed, not one of its own.
func TestGenesisFollowsModules(t *testing.T) {
	t.Parallel()
	extra := core.Pubkey{0xAB, 1}
	mods := append(programs.All(), runtime.Module{ID: extra, Name: "extra", Kind: runtime.Builtin,
		Genesis: runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "extra_program"}})
	l, err := Open(Config{Dir: t.TempDir(), Paused: true, StoreInMemory: true, Programs: runtime.NewRegistry(mods...)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	a, ok, err := l.Bank(Finalized).Account(extra)
	if err != nil || !ok || string(a.Data) != "extra_program" || a.Owner != core.NativeLoaderProgramID || !a.Executable {
		t.Fatalf("extra module's account = %+v, %v, %v", a, ok, err)
	}
}
