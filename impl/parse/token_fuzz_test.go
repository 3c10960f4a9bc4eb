package parse

import (
	"encoding/json"
	"testing"

	"ledgerd/impl/core"
)

// FuzzProgramParsers runs the token, associated token and lookup table parsers on arbitrary data and account
// lists: nothing may panic, and whatever they return must marshal.
func FuzzProgramParsers(f *testing.F) {
	seeds := [][]byte{
		bs(0, 2, key(3), 1, key(4)), bs(3, u64(7)), bs(12, u64(55), 2), bs(6, 0, 1, key(5)), bs(21, u16(7)),
		bs(26, 3, 2), bs(28, 1, 1), bs(33, 0, key(5), u16(500)), bs(39, 1, key(6)), bs(43, 1, u64(1), u64(2)),
		bs(255, 3, 9, bs(3, u64(7)), 1, 1, 17), bs(discMetadataInitialize, bstr("a"), bstr("b"), bstr("c")),
		bs(discInitializeGroup, key(5), u64(3)), bs(u32(2), u64(1), key(7)), bs(u32(0), u64(42), 254), {2}, nil,
	}
	for i, s := range seeds {
		f.Add(uint8(i), []byte{1, 2, 3, 4, 5, 6, 7}, s)
	}
	programs := []core.Pubkey{core.TokenProgramID, core.Token2022ProgramID, core.AssociatedTokenProgramID, core.AddressLookupTableProgramID}
	f.Fuzz(func(t *testing.T, sel uint8, accounts, data []byte) {
		keys := ixKeys(programs[int(sel)%len(programs)])
		ui, err := ParseInstruction(0, accounts, data, keys, nil)
		if err != nil {
			for _, a := range accounts {
				if int(a) >= len(keys) {
					return
				}
			}
			t.Fatalf("error with accounts in range: %v", err)
		}
		if _, err := json.Marshal(ui); err != nil {
			t.Fatalf("marshal: %v", err)
		}
	})
}
