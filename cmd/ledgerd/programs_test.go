package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/loader"
)

func TestProgramFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	elf := filepath.Join(dir, "p.so")
	os.WriteFile(elf, []byte("ELF bytes"), 0o644)
	kp := core.KeypairFromSeed([32]byte{7})
	kpFile := filepath.Join(dir, "program-keypair.json")
	if err := core.WriteKeypairFile(kpFile, kp); err != nil {
		t.Fatal(err)
	}
	auth := core.Pubkey{9}

	rest, flags, err := takeProgramFlags([]string{"--rpc-port", "0", "--bpf-program", core.TokenProgramID.String(), elf,
		"--upgradeable-program", kpFile, elf, auth.String(), "--upgradeable-program", kpFile, elf, "none", "--", "--bpf-program"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rest, []string{"--rpc-port", "0", "--", "--bpf-program"}) || len(flags) != 3 {
		t.Fatalf("rest %q, %d programs", rest, len(flags))
	}
	accounts, err := genesisPrograms(flags, sysvar.DefaultRent())
	if err != nil {
		t.Fatal(err)
	}
	if len(accounts) != 6 {
		t.Fatalf("%d accounts", len(accounts))
	}
	// The program data comes first, then the program; the authority is recorded even for "none" (the zero
	// address), as the reference does.
	for i, want := range []struct {
		program   core.Pubkey
		authority core.Pubkey
	}{{core.TokenProgramID, core.Pubkey{}}, {kp.PublicKey(), auth}, {kp.PublicKey(), core.Pubkey{}}} {
		pd, prog := accounts[2*i], accounts[2*i+1]
		wantPD, _ := loader.ProgramDataAddress(want.program)
		if prog.Pubkey != want.program || pd.Pubkey != wantPD || !prog.Executable || pd.Executable {
			t.Errorf("program %d: %s %s", i, prog.Pubkey, pd.Pubkey)
		}
		s, err := loader.DecodeState(pd.Data)
		if err != nil || s.Kind != loader.StateProgramData || s.Slot != 0 || s.Authority == nil || *s.Authority != want.authority ||
			!bytes.Equal(pd.Data[loader.ProgramDataMetadataSize:], []byte("ELF bytes")) {
			t.Errorf("program %d: program data %+v %v", i, s, err)
		}
	}

	for _, bad := range [][]string{
		{"--bpf-program", "x"},
		{"--upgradeable-program", "a", "b"},
	} {
		if _, _, err := takeProgramFlags(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, bad := range []programFlag{
		{name: "--bpf-program", address: "not-a-key-or-file", file: elf},
		{name: "--bpf-program", address: auth.String(), file: filepath.Join(dir, "missing.so")},
		{name: "--upgradeable-program", address: auth.String(), file: elf, authority: "nope"},
	} {
		if _, err := genesisPrograms([]programFlag{bad}, sysvar.DefaultRent()); err == nil || !strings.Contains(err.Error(), bad.name) {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}
