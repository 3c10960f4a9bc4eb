package loader

import (
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/sbpf/sbpftest"
)

func logProgram(msg string) []byte {
	return sbpftest.MustELF("lddw r1, rodata+0\nmov64 r2, "+string(rune('0'+len(msg)))+"\ncall sol_log_\nmov64 r0, 0\nexit", []byte(msg))
}

// An upgradeable program deployed (or upgraded) in slot S is "not deployed" in S and runs from
// S+1; the upgrade's new code runs, never the cached old one; a closed program, a program whose
// ProgramData is not one, and a program account that is not a Program are not deployed either.
func TestDelayVisibility(t *testing.T) {
	b := newVMBank(t)
	payer := testKey(60)
	b.accounts[payer.PublicKey()] = runtime.Account{Lamports: 10e9, Owner: core.SystemProgramID}
	id := testKey(61).PublicKey()
	pd, _, _ := core.FindProgramAddress([][]byte{id[:]}, core.BPFLoaderUpgradeableProgramID)
	s := id.String()
	notDeployed := []string{"Program " + s + " invoke [1]", "Program is not deployed", "Program " + s + " failed: Unsupported program id"}
	ran := func(msg string) []string {
		return []string{"Program " + s + " invoke [1]", "Program log: " + msg,
			"Program " + s + " consumed 105 of 200000 compute units", "Program " + s + " success"}
	}
	check := func(name string, slot uint64, want []string) {
		t.Helper()
		b.env.Clock.Slot = slot
		res := b.run([]core.Instruction{{ProgramID: id}}, payer)
		if !slices.Equal(res.Logs, want) {
			t.Errorf("%s (slot %d): logs %q, want %q", name, slot, res.Logs, want)
		}
	}
	// A genesis program (--bpf-program, --upgradeable-program: its ProgramData says slot 0) is no
	// exception: the bank of slot 0 does not run it, as the reference's program cache (effective
	// slot 1) does not; transactions land from slot 1, simulations at a commitment still at slot
	// 0 fail.
	b.addProgram(id, core.BPFLoaderUpgradeableProgramID, logProgram("g"), 0)
	check("genesis program in the genesis bank", 0, notDeployed)
	check("genesis program in slot 1", 1, ran("g"))
	b.addProgram(id, core.BPFLoaderUpgradeableProgramID, logProgram("a"), 10)
	check("deployed this slot", 10, notDeployed)
	check("next slot", 11, ran("a"))
	check("later", 12, ran("a"))
	b.addProgram(id, core.BPFLoaderUpgradeableProgramID, logProgram("b"), 12)
	check("upgraded this slot", 12, notDeployed)
	check("after the upgrade", 13, ran("b"))
	// The same slot, other bytes (an extend rewrites the slot too, but the bytes alone must
	// be enough to miss the cache).
	d := b.accounts[pd]
	d.Data = append([]byte(nil), d.Data...)
	copy(d.Data[programDataMetadataSize:], logProgram("c"))
	b.accounts[pd] = d
	check("other bytes", 13, ran("c"))
	d.Data = append([]byte(nil), d.Data...)
	d.Data[0] = 1 // a buffer, not program data
	b.accounts[pd] = d
	check("program data is a buffer", 13, notDeployed)
	delete(b.accounts, pd)
	check("closed", 14, notDeployed)
	prog := b.accounts[id]
	prog.Data = append([]byte(nil), prog.Data...)
	prog.Data[0] = 1
	b.accounts[id] = prog
	check("not a program", 14, notDeployed)
	// A garbage ELF is not deployed either (the reference's failed verification).
	b.addProgram(id, core.BPFLoaderUpgradeableProgramID, []byte("garbage, not an ELF"), 1)
	check("garbage", 14, notDeployed)
	b.addProgram(id, core.BPFLoaderUpgradeableProgramID, logProgram("d"), 1)
	check("still serving", 14, ran("d"))
	// Loaders 1 and 2 have no deployment slot: a program runs as soon as it exists, unless its
	// ELF does not load.
	for _, loader := range []core.Pubkey{core.BPFLoaderProgramID, core.BPFLoaderDeprecatedProgramID} {
		b.addProgram(id, loader, logProgram("e"), 0)
		check("loader "+loader.String(), 14, ran("e"))
		b.addProgram(id, loader, []byte("\x7fELF garbage"), 0)
		check("loader "+loader.String()+", garbage", 14, notDeployed)
	}
}
