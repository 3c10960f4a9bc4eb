package loader

import (
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/sbpf/sbpftest"
)

// A deployed program's sol_get_epoch_stake reads the bank's epoch stakes (runtime.Env.EpochStake):
// the total for a null address, the vote account's stake for its address.
func TestEpochStakeSyscall(t *testing.T) {
	var voteAccount core.Pubkey
	copy(voteAccount[:], "votevotevotevotevotevotevotevote")
	elf, err := sbpftest.ELF(`
entrypoint:
	mov64 r1, 0
	call sol_get_epoch_stake
	mov64 r6, r0
	lddw r1, vote
	call sol_get_epoch_stake
	mov64 r2, r0
	lddw r1, other
	call sol_get_epoch_stake
	mov64 r3, r0
	mov64 r1, r6
	mov64 r4, 0
	mov64 r5, 0
	call sol_log_64_
	mov64 r0, 0
	exit
.rodata
vote: .ascii "votevotevotevotevotevotevotevote"
other: .ascii "otherotherotherotherotherotherot"
`, nil)
	if err != nil {
		t.Fatal(err)
	}
	b := newVMBank(t)
	prog, payer := testKey(40).PublicKey(), testKey(41)
	b.addProgram(prog, core.BPFLoaderProgramID, elf, 0)
	b.accounts[payer.PublicKey()] = runtime.Account{Lamports: 10_000_000_000, Owner: core.SystemProgramID}
	b.env.EpochStake = func(vote *core.Pubkey) uint64 {
		switch {
		case vote == nil:
			return 1000
		case *vote == voteAccount:
			return 600
		}
		return 0
	}
	res := b.run([]core.Instruction{{ProgramID: prog, Data: []byte{}}}, payer)
	if res.Err != nil {
		t.Fatalf("%v: %q", res.Err, res.Logs)
	}
	if want := "Program log: 0x3e8, 0x258, 0x0, 0x0, 0x0"; !slices.Contains(res.Logs, want) {
		t.Errorf("logs %q, want %q", res.Logs, want)
	}
}
