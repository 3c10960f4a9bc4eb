package loader

import (
	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
)

// GenesisProgram is an upgradeable program placed in a new chain, as the reference test validator
// places --bpf-program and --upgradeable-program: deployed at slot 0 (so it runs from slot 1),
// its ELF stored right after the program data header.
type GenesisProgram struct {
	Program, ProgramData           core.Pubkey
	ProgramAccount, ProgramDataAcc runtime.Account
}

// NewGenesisProgram lays out program with elf and upgrade authority. The reference always
// records an authority: "none" on its command line, and --bpf-program, record the all-zero
// address, which no one can sign for, so the program cannot be upgraded.
func NewGenesisProgram(program core.Pubkey, elf []byte, authority core.Pubkey, rent sysvar.Rent) GenesisProgram {
	pd, _ := ProgramDataAddress(program)
	data := State{Kind: StateProgramData, Authority: &authority}.Encode()
	data = append(data, elf...)
	prog := State{Kind: StateProgram, ProgramData: pd}.Encode()
	return GenesisProgram{
		Program:     program,
		ProgramData: pd,
		ProgramAccount: runtime.Account{Lamports: max(1, rent.MinimumBalance(uint64(len(prog)))), Owner: core.BPFLoaderUpgradeableProgramID,
			Executable: true, RentEpoch: runtime.RentExemptRentEpoch, Data: prog},
		ProgramDataAcc: runtime.Account{Lamports: max(1, rent.MinimumBalance(uint64(len(data)))), Owner: core.BPFLoaderUpgradeableProgramID,
			RentEpoch: runtime.RentExemptRentEpoch, Data: data},
	}
}
