package parse

import (
	"encoding/binary"

	"ledgerd/impl/core"
)

func init() {
	Register(core.AddressLookupTableProgramID, Program{Name: "address-lookup-table", Parse: parseAddressLookupTable})
}

// parseAddressLookupTable follows the reference's parse_address_lookup_table: the data is the program's
// bincode ProgramInstruction (u32 variant; trailing bytes ignored), then the accounts are checked.
func parseAddressLookupTable(ix *Instruction) (any, error) {
	d := ix.Data
	if len(d) < 4 {
		return nil, ErrNotParsable
	}
	kind, rest := binary.LittleEndian.Uint32(d), d[4:]
	var (
		recentSlot   uint64
		bumpSeed     uint8
		newAddresses []string
	)
	switch kind {
	case 0: // CreateLookupTable {recent_slot: u64, bump_seed: u8}
		if len(rest) < 9 {
			return nil, ErrNotParsable
		}
		recentSlot, bumpSeed = binary.LittleEndian.Uint64(rest), rest[8]
	case 2: // ExtendLookupTable {new_addresses: Vec<Pubkey>}
		if len(rest) < 8 {
			return nil, ErrNotParsable
		}
		n := binary.LittleEndian.Uint64(rest)
		rest = rest[8:]
		if n > uint64(len(rest)/32) {
			return nil, ErrNotParsable
		}
		newAddresses = make([]string, n)
		for i := range newAddresses {
			newAddresses[i] = core.Pubkey(rest[32*i : 32*i+32]).String()
		}
	case 1, 3, 4:
	default:
		return nil, ErrNotParsable
	}
	if len(ix.Accounts) == 0 {
		return nil, ErrKeyMismatch
	}
	if err := ix.CheckAccounts(0); err != nil {
		return nil, err
	}
	need := map[uint32]int{0: 4, 1: 2, 2: 2, 3: 2, 4: 3}[kind]
	if len(ix.Accounts) < need {
		return nil, ErrKeyMismatch
	}
	key := func(pos int) string { return ix.Keys[ix.Accounts[pos]].String() }
	info := map[string]any{"lookupTableAccount": key(0), "lookupTableAuthority": key(1)}
	switch kind {
	case 0:
		info["payerAccount"], info["systemProgram"] = key(2), key(3)
		info["recentSlot"], info["bumpSeed"] = recentSlot, bumpSeed
		return parsedInstruction("createLookupTable", info), nil
	case 1:
		return parsedInstruction("freezeLookupTable", info), nil
	case 2:
		info["newAddresses"] = newAddresses
		if len(ix.Accounts) >= 4 {
			info["payerAccount"], info["systemProgram"] = key(2), key(3)
		}
		return parsedInstruction("extendLookupTable", info), nil
	case 3:
		return parsedInstruction("deactivateLookupTable", info), nil
	default:
		info["recipient"] = key(2)
		return parsedInstruction("closeLookupTable", info), nil
	}
}
