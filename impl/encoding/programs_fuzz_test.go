package encoding

import (
	"encoding/json"
	"math"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
)

// FuzzProgramParsers feeds arbitrary data to the token, lookup table, config and upgradeable loader parsers,
// as account data and as the mint a token account refers to. Nothing may panic, and whatever parses must
// marshal.
func FuzzProgramParsers(f *testing.F) {
	owner := core.Pubkey(fill(3))
	interest := cat(make([]byte, 32), le64(0), le16(500), le64(intSecondsPerYear), le16(500))
	scaled := cat(owner[:], le64(math.Float64bits(1)), le64(0), le64(math.Float64bits(math.Inf(1))))
	mint := extended(testMint(&owner, 5, 6, nil), accountTypeMint, tlv{extInterestBearingConfig, interest}, tlv{extScaledUiAmount, scaled})
	acct := extended(testAcct{mint: core.Pubkey(fill(2)), owner: owner, amount: 7, state: 1}.bytes(), accountTypeAccount,
		tlv{extImmutableOwner, nil}, tlv{extMemoTransfer, []byte{1}})
	for _, seed := range [][]byte{
		testMint(&owner, 1, 2, &owner), mint, acct, testAcct{mint: core.NativeMintID, state: 1}.bytes(),
		cat([]byte{2, 3, 1}, make([]byte, 352)), lookupTableData(1, 2, 3, &owner, owner),
		configData([]ConfigKey{{ValidatorInfoID, false}}, bincodeString(`{"a":1.5}`)),
		cat([]byte{3, 0, 0, 0}, le64(42), []byte{1}, owner[:]), nil,
	} {
		f.Add(seed, mint, uint8(0))
	}
	owners := []core.Pubkey{core.TokenProgramID, core.Token2022ProgramID, core.AddressLookupTableProgramID,
		core.ConfigProgramID, core.BPFLoaderUpgradeableProgramID}
	clock := (&sysvar.Clock{UnixTimestamp: intSecondsPerYear}).Marshal()
	f.Fuzz(func(t *testing.T, data, mintData []byte, sel uint8) {
		lookup := testLookup(map[core.Pubkey]runtime.Account{
			core.Pubkey(fill(2)): {Owner: core.Token2022ProgramID, Data: mintData},
			core.SysvarClockID:   {Owner: core.SysvarOwnerID, Data: clock},
		})
		pubkey := core.Pubkey{9}
		if sel&0x80 != 0 {
			pubkey = core.StakeConfigID
		}
		p, err := Parse(pubkey, runtime.Account{Owner: owners[int(sel)%len(owners)], Data: data}, lookup)
		if err == nil {
			if _, err := json.Marshal(p); err != nil {
				t.Fatalf("marshal: %v", err)
			}
		}
		if m, err := DecodeMint(mintData); err == nil {
			u := m.Amounts(lookup).UiAmount(uint64(len(data)) << (sel % 64))
			if _, err := json.Marshal(u); err != nil {
				t.Fatalf("marshal amount: %v", err)
			}
			if _, err := json.Marshal(u.RPC()); err != nil {
				t.Fatalf("marshal RPC amount: %v", err)
			}
		}
	})
}
