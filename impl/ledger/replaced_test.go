package ledger

import (
	"bytes"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs"
	"ledgerd/impl/programs/loader"
	"ledgerd/impl/runtime"
)

// A program the genesis configuration deploys from an ELF at the id of a natively run program replaces it: the
// loader runs the ELF (the native module no longer executes but keeps its parsers), on the new chain and after a
// restart, and the accounts are the configured ones.
func TestGenesisProgramReplacesNative(t *testing.T) {
	t.Parallel()
	elf := []byte("\x7fELF not really, the ledger does not look")
	g := loader.NewGenesisProgram(core.TokenProgramID, elf, core.Pubkey{}, sysvar.DefaultRent())
	accounts := []GenesisAccount{
		{Pubkey: g.ProgramData, Lamports: g.ProgramDataAcc.Lamports, Owner: g.ProgramDataAcc.Owner, RentEpoch: g.ProgramDataAcc.RentEpoch, Data: g.ProgramDataAcc.Data},
		{Pubkey: g.Program, Lamports: g.ProgramAccount.Lamports, Owner: g.ProgramAccount.Owner, Executable: true, RentEpoch: g.ProgramAccount.RentEpoch, Data: g.ProgramAccount.Data},
		// Not executable: no program, the native memo keeps running.
		{Pubkey: core.MemoProgramID, Lamports: 1e9, Owner: core.BPFLoaderProgramID, Data: []byte("data")},
	}
	dir := t.TempDir()
	for _, restart := range []bool{false, true} {
		reg := programs.Registry()
		l, err := Open(Config{Dir: dir, Paused: true, Programs: reg, Genesis: GenesisOptions{Accounts: accounts}})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, ok := l.cfg.Programs.Lookup(core.TokenProgramID); ok {
			t.Errorf("restart %v: the native token program still runs", restart)
		}
		if m, _ := l.cfg.Programs.Module(core.TokenProgramID); m.ParseAccount == nil || m.ParseInstruction == nil {
			t.Errorf("restart %v: the token module lost its parsers", restart)
		}
		if _, _, ok := l.cfg.Programs.Lookup(core.MemoProgramID); !ok {
			t.Errorf("restart %v: memo no longer runs natively", restart)
		}
		if _, _, ok := reg.Lookup(core.TokenProgramID); !ok {
			t.Error("the caller's registry was changed")
		}
		bank := l.Bank(Finalized)
		for _, want := range []struct {
			key  core.Pubkey
			acct runtime.Account
		}{{g.Program, g.ProgramAccount}, {g.ProgramData, g.ProgramDataAcc}} {
			got, ok := bank.GetAccount(want.key)
			if !ok || got.Owner != core.BPFLoaderUpgradeableProgramID || got.Executable != want.acct.Executable ||
				got.Lamports != want.acct.Lamports || !bytes.Equal(got.Data, want.acct.Data) {
				t.Errorf("restart %v: account %s = %+v", restart, want.key, got)
			}
		}
		l.Close()
		accounts = nil // a restart keeps the chain's genesis whatever the options say
	}
}
