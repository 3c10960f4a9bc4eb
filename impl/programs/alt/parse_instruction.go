package alt

import (
	"encoding/binary"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/internal/jsonparsed"
	"ledgerd/impl/runtime"
)

// parseAddressLookupTable follows the reference's parse_address_lookup_table: the data is the program's
// bincode ProgramInstruction (u32 variant; trailing bytes ignored), then the accounts are checked.
func parseAddressLookupTable(ix *runtime.InstructionView) (any, error) {
	d := ix.Data
	if len(d) < 4 {
		return nil, runtime.ErrNotParsable
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
			return nil, runtime.ErrNotParsable
		}
		recentSlot, bumpSeed = binary.LittleEndian.Uint64(rest), rest[8]
	case 2: // ExtendLookupTable {new_addresses: Vec<Pubkey>}
		if len(rest) < 8 {
			return nil, runtime.ErrNotParsable
		}
		n := binary.LittleEndian.Uint64(rest)
		rest = rest[8:]
		if n > uint64(len(rest)/32) {
			return nil, runtime.ErrNotParsable
		}
		newAddresses = make([]string, n)
		for i := range newAddresses {
			newAddresses[i] = core.Pubkey(rest[32*i : 32*i+32]).String()
		}
	case 1, 3, 4:
	default:
		return nil, runtime.ErrNotParsable
	}
	if len(ix.Accounts) == 0 {
		return nil, runtime.ErrKeyMismatch
	}
	if err := ix.CheckAccounts(0); err != nil {
		return nil, err
	}
	need := map[uint32]int{0: 4, 1: 2, 2: 2, 3: 2, 4: 3}[kind]
	if len(ix.Accounts) < need {
		return nil, runtime.ErrKeyMismatch
	}
	key := func(pos int) string { return ix.Keys[ix.Accounts[pos]].String() }
	info := map[string]any{"lookupTableAccount": key(0), "lookupTableAuthority": key(1)}
	switch kind {
	case 0:
		info["payerAccount"], info["systemProgram"] = key(2), key(3)
		info["recentSlot"], info["bumpSeed"] = recentSlot, bumpSeed
		return jsonparsed.Typed("createLookupTable", info), nil
	case 1:
		return jsonparsed.Typed("freezeLookupTable", info), nil
	case 2:
		info["newAddresses"] = newAddresses
		if len(ix.Accounts) >= 4 {
			info["payerAccount"], info["systemProgram"] = key(2), key(3)
		}
		return jsonparsed.Typed("extendLookupTable", info), nil
	case 3:
		return jsonparsed.Typed("deactivateLookupTable", info), nil
	default:
		info["recipient"] = key(2)
		return jsonparsed.Typed("closeLookupTable", info), nil
	}
}
