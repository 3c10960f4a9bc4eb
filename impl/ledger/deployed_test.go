package ledger

import (
	"bytes"
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/sbpf/sbpftest"
)

// Simulating a transaction to a program deployed at genesis runs it in the VM: its logs, with the loader's
// "consumed" and "Program return:" lines, its compute units and its return data, as simulateTransaction reports
// them.
func TestSimulateDeployedProgram(t *testing.T) {
	elf, err := sbpftest.ELF(`
entrypoint:
	lddw r1, msg
	mov64 r2, 2
	call sol_log_
	lddw r1, msg
	mov64 r2, 2
	call sol_set_return_data
	mov64 r0, 0
	exit
.rodata
msg: .ascii "hi"
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	prog := core.Pubkey{0xde, 0x92}
	l, err := Open(Config{Dir: t.TempDir(), Paused: true, StoreInMemory: true, Genesis: GenesisOptions{Accounts: []GenesisAccount{{
		Pubkey: prog, Lamports: 1_000_000_000, Owner: core.BPFLoaderProgramID, Executable: true, Data: elf}}}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	bank := l.Bank(Processed)
	tx, err := core.NewTransaction(l.Genesis.Faucet.PublicKey(), []core.Instruction{{ProgramID: prog}}, bank.LastBlockhash(),
		l.Genesis.Faucet)
	if err != nil {
		t.Fatal(err)
	}
	sim, err := l.Simulate(bank, tx, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	res := sim.Result
	id := prog.String()
	// 8 instructions (lddw is one), sol_log_ 100, sol_set_return_data 100.
	want := []string{"Program " + id + " invoke [1]", "Program log: hi",
		"Program " + id + " consumed 208 of 200000 compute units", "Program return: " + id + " aGk=", "Program " + id + " success"}
	if res.Err != nil || !slices.Equal(res.Logs, want) {
		t.Fatalf("err %v, logs %q, want %q", res.Err, res.Logs, want)
	}
	if res.ComputeUnitsConsumed != 208 {
		t.Errorf("%d units consumed, want 208", res.ComputeUnitsConsumed)
	}
	if rd := res.ReturnData; rd == nil || rd.ProgramID != prog || !bytes.Equal(rd.Data, []byte("hi")) {
		t.Errorf("return data %+v", rd)
	}
}
