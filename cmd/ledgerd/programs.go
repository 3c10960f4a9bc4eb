package main

import (
	"fmt"
	"os"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/loader"
)

// programFlag is one --bpf-program or --upgradeable-program occurrence.
type programFlag struct {
	name      string // the flag as given, for errors
	address   string
	file      string
	authority string // "" for --bpf-program
}

// takeProgramFlags removes every --bpf-program ADDRESS_OR_KEYPAIR FILE.so and --upgradeable-program
// ADDRESS_OR_KEYPAIR FILE.so UPGRADE_AUTHORITY|none from args (multi-value flags, as the reference test
// validator takes them, which the flag package cannot express).
func takeProgramFlags(args []string) (rest []string, programs []programFlag, err error) {
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "--bpf-program", "-bpf-program":
			if i+2 >= len(args) {
				return nil, nil, fmt.Errorf("%s needs ADDRESS_OR_KEYPAIR and FILE.so", args[i])
			}
			programs = append(programs, programFlag{name: args[i], address: args[i+1], file: args[i+2]})
			i += 2
		case "--upgradeable-program", "-upgradeable-program":
			if i+3 >= len(args) {
				return nil, nil, fmt.Errorf("%s needs ADDRESS_OR_KEYPAIR, FILE.so and UPGRADE_AUTHORITY (or none)", args[i])
			}
			programs = append(programs, programFlag{name: args[i], address: args[i+1], file: args[i+2], authority: args[i+3]})
			i += 3
		case "--":
			return append(rest, args[i:]...), programs, nil
		default:
			rest = append(rest, args[i])
		}
	}
	return rest, programs, nil
}

// addressOrKeypair is a base-58 address, or the public key of a keypair file.
func addressOrKeypair(s string) (core.Pubkey, error) {
	if k, err := core.ParsePubkey(s); err == nil {
		return k, nil
	}
	kp, err := core.ReadKeypairFile(s)
	if err != nil {
		return core.Pubkey{}, fmt.Errorf("%q is neither an address nor a keypair file: %w", s, err)
	}
	return kp.PublicKey(), nil
}

// genesisPrograms lays out the programs as the reference test validator does: both flags deploy under the
// upgradeable loader at slot 0; --bpf-program and an authority of "none" record the all-zero address as the
// authority, which no one can sign for.
func genesisPrograms(flags []programFlag, rent sysvar.Rent) ([]ledger.GenesisAccount, error) {
	var out []ledger.GenesisAccount
	for _, f := range flags {
		program, err := addressOrKeypair(f.address)
		if err != nil {
			return nil, fmt.Errorf("%s: address: %w", f.name, err)
		}
		var authority core.Pubkey
		if f.authority != "" && f.authority != "none" {
			if authority, err = addressOrKeypair(f.authority); err != nil {
				return nil, fmt.Errorf("%s %s: upgrade authority: %w", f.name, f.address, err)
			}
		}
		elf, err := os.ReadFile(f.file)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", f.name, f.address, err)
		}
		g := loader.NewGenesisProgram(program, elf, authority, rent)
		out = append(out,
			ledger.GenesisAccount{Pubkey: g.ProgramData, Lamports: g.ProgramDataAcc.Lamports, Owner: g.ProgramDataAcc.Owner,
				RentEpoch: g.ProgramDataAcc.RentEpoch, Data: g.ProgramDataAcc.Data},
			ledger.GenesisAccount{Pubkey: g.Program, Lamports: g.ProgramAccount.Lamports, Owner: g.ProgramAccount.Owner,
				Executable: true, RentEpoch: g.ProgramAccount.RentEpoch, Data: g.ProgramAccount.Data})
	}
	return out, nil
}
