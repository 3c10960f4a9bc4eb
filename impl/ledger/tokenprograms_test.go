package ledger

import (
	"bytes"
	"context"
	"encoding/binary"
	"testing"
	"time"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/loader"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
)

// Both token programs are laid out at genesis as the reference's test validator installs them (its 4.1+ program
// binaries): a 36-byte program account of the upgradeable loader pointing at its program data, which records slot 0
// and the zero address as upgrade authority. No one can sign for that authority, so upgrades, authority changes,
// closes and extends are refused and leave the accounts as they were; the native programs keep running.
func TestTokenProgramsUnderUpgradeableLoader(t *testing.T) {
	t.Parallel()
	l, err := Open(Config{Dir: t.TempDir(), StoreInMemory: true, SlotDuration: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	rent := sysvar.DefaultRent()
	faucet := l.Genesis.Faucet
	fp := faucet.PublicKey()
	ctx := context.Background()
	waitFor(t, "slot 1", func() bool { return l.Bank(Processed).Slot >= 1 })

	type layout struct{ program, programData []byte }
	layouts := map[core.Pubkey]layout{}
	for _, id := range []core.Pubkey{core.TokenProgramID, core.Token2022ProgramID} {
		pdAddr, _ := loader.ProgramDataAddress(id)
		prog, ok := l.Bank(Processed).GetAccount(id)
		wantProg := binary.LittleEndian.AppendUint32(nil, 2)
		wantProg = append(wantProg, pdAddr[:]...)
		if !ok || prog.Owner != core.BPFLoaderUpgradeableProgramID || !prog.Executable || !bytes.Equal(prog.Data, wantProg) ||
			prog.Lamports != rent.MinimumBalance(36) {
			t.Errorf("%s: program account %+v, want 36 bytes % x of the upgradeable loader", id, prog, wantProg)
		}
		pd, ok := l.Bank(Processed).GetAccount(pdAddr)
		wantPD := append([]byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, make([]byte, 32)...)
		if !ok || pd.Owner != core.BPFLoaderUpgradeableProgramID || pd.Executable || !bytes.Equal(pd.Data, wantPD) {
			t.Errorf("%s: program data %+v, want % x", id, pd, wantPD)
		}
		layouts[id] = layout{prog.Data, pd.Data}

		run := func(what string, signers []core.Keypair, ixs ...core.Instruction) error {
			tx, err := core.NewTransaction(fp, ixs, l.Bank(Processed).LastBlockhash(), append(signers, faucet)...)
			if err != nil {
				t.Fatal(err)
			}
			ex, err := l.Execute(ctx, tx)
			if err != nil {
				t.Fatalf("%s %s: %v", id, what, err)
			}
			if ex.Result.Err != nil {
				return ex.Result.Err
			}
			return nil
		}
		newAuth := core.Pubkey{7, 7}
		for _, c := range []struct {
			what string
			ix   core.Instruction
		}{
			{"set authority", loader.SetAuthority(pdAddr, fp, &newAuth)},
			{"upgrade", loader.Upgrade(id, core.Pubkey{9, 9}, fp, fp)},
			{"close", loader.Close(pdAddr, fp, fp, &id)},
			{"extend", loader.ExtendProgram(id, fp, 1024)},
		} {
			if err := run(c.what, nil, c.ix); err == nil {
				t.Errorf("%s: %s succeeded", id, c.what)
			}
		}
		prog, _ = l.Bank(Processed).GetAccount(id)
		pd, _ = l.Bank(Processed).GetAccount(pdAddr)
		if !bytes.Equal(prog.Data, layouts[id].program) || !bytes.Equal(pd.Data, layouts[id].programData) || !prog.Executable {
			t.Errorf("%s: the refused changes changed the program: % x / % x", id, prog.Data, pd.Data)
		}

		mint, err := core.NewKeypair()
		if err != nil {
			t.Fatal(err)
		}
		if err := run("a mint", []core.Keypair{mint}, system.CreateAccount(fp, mint.PublicKey(), rent.MinimumBalance(82), 82, id),
			token.InitializeMint2(id, mint.PublicKey(), fp, nil, 2)); err != nil {
			t.Errorf("%s: the native program no longer runs: %v", id, err)
		}
	}
}
