package encoding

import (
	"encoding/binary"
	"math"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// lookupTableData lays out a lookup table: bincode ProgramState::LookupTable(meta), padded to 56 bytes, then the
// addresses.
func lookupTableData(deactivation, lastExtended uint64, startIndex uint8, authority *core.Pubkey, addrs ...core.Pubkey) []byte {
	b := binary.LittleEndian.AppendUint32(nil, 1)
	b = binary.LittleEndian.AppendUint64(b, deactivation)
	b = binary.LittleEndian.AppendUint64(b, lastExtended)
	b = append(b, startIndex)
	if authority != nil {
		b = append(b, 1)
		b = append(b, authority[:]...)
	} else {
		b = append(b, 0)
	}
	b = append(b, 0, 0) // padding
	for len(b) < LookupTableMetaSize {
		b = append(b, 0)
	}
	for _, a := range addrs {
		b = append(b, a[:]...)
	}
	return b
}

// configData lays out a config account: the short_vec key list, then data.
func configData(keys []ConfigKey, data []byte) []byte {
	b := core.AppendShortU16(nil, uint16(len(keys)))
	for _, k := range keys {
		b = append(b, k.Pubkey[:]...)
		if k.Signer {
			b = append(b, 1)
		} else {
			b = append(b, 0)
		}
	}
	return append(b, data...)
}

func bincodeString(s string) []byte {
	return append(binary.LittleEndian.AppendUint64(nil, uint64(len(s))), s...)
}

// TestProgramParsedShapes compares the lookup table, config and upgradeable loader views with the reference's
// (parse_address_lookup_table.rs, parse_config.rs, parse_bpf_loader.rs).
func TestProgramParsedShapes(t *testing.T) {
	t.Parallel()
	a1, a2, a3 := core.Pubkey(fill(1)), core.Pubkey(fill(2)), core.Pubkey(fill(3))
	vars := map[string]string{"a1": ones, "a2": twos, "a3": threes, "info": ValidatorInfoID.String()}
	validatorInfo := configData([]ConfigKey{{ValidatorInfoID, false}, {a1, true}},
		bincodeString(`{"name":"Solana","website":"https://x","n":1,"f":2.0,"e":1e2,"big":18446744073709551616,"z":{"b":1,"a":[true,null]}}`))
	program := []byte{7, 7, 7}
	tests := []struct {
		name   string
		pubkey core.Pubkey
		owner  core.Pubkey
		data   []byte
		want   string
	}{
		{"lookup table", a3, core.AddressLookupTableProgramID, lookupTableData(math.MaxUint64, 2, 3, &a1, a2, a3),
			`{"program":"address-lookup-table","parsed":{"info":{"addresses":["$a2","$a3"],"authority":"$a1","deactivationSlot":"18446744073709551615","lastExtendedSlot":"2","lastExtendedSlotStartIndex":3},"type":"lookupTable"},"space":120}`},
		{"frozen lookup table without addresses", a3, core.AddressLookupTableProgramID, lookupTableData(7, 0, 0, nil),
			`{"program":"address-lookup-table","parsed":{"info":{"addresses":[],"deactivationSlot":"7","lastExtendedSlot":"0","lastExtendedSlotStartIndex":0},"type":"lookupTable"},"space":56}`},
		{"uninitialized lookup table", a3, core.AddressLookupTableProgramID, make([]byte, LookupTableMetaSize),
			`{"program":"address-lookup-table","parsed":{"type":"uninitialized"},"space":56}`},
		{"validator info", a2, core.ConfigProgramID, validatorInfo,
			`{"program":"config","parsed":{"info":{"configData":{"big":1.8446744073709552e19,"e":100.0,"f":2.0,"n":1,"name":"Solana","website":"https://x","z":{"a":[true,null],"b":1}},"keys":[{"pubkey":"$info","signer":false},{"pubkey":"$a1","signer":true}]},"type":"validatorInfo"},"space":` +
				itoa(len(validatorInfo)) + `}`},
		{"upgradeable loader uninitialized", a1, core.BPFLoaderUpgradeableProgramID, []byte{0, 0, 0, 0},
			`{"program":"bpf-upgradeable-loader","parsed":{"type":"uninitialized"},"space":4}`},
		{"upgradeable loader buffer", a1, core.BPFLoaderUpgradeableProgramID, cat([]byte{1, 0, 0, 0, 1}, a2[:], program),
			`{"program":"bpf-upgradeable-loader","parsed":{"info":{"authority":"$a2","data":["BwcH","base64"]},"type":"buffer"},"space":40}`},
		{"upgradeable loader buffer without authority", a1, core.BPFLoaderUpgradeableProgramID, cat([]byte{1, 0, 0, 0, 0}, program),
			`{"program":"bpf-upgradeable-loader","parsed":{"info":{"authority":null,"data":["BwcH","base64"]},"type":"buffer"},"space":8}`},
		{"upgradeable loader program", a1, core.BPFLoaderUpgradeableProgramID, cat([]byte{2, 0, 0, 0}, a3[:]),
			`{"program":"bpf-upgradeable-loader","parsed":{"info":{"programData":"$a3"},"type":"program"},"space":36}`},
		{"upgradeable loader program data", a1, core.BPFLoaderUpgradeableProgramID, cat([]byte{3, 0, 0, 0}, le64(42), []byte{1}, a2[:], program),
			`{"program":"bpf-upgradeable-loader","parsed":{"info":{"authority":"$a2","data":["BwcH","base64"],"slot":42},"type":"programData"},"space":48}`},
		{"upgradeable loader program data without authority", a1, core.BPFLoaderUpgradeableProgramID, cat([]byte{3, 0, 0, 0}, le64(42), []byte{0}),
			`{"program":"bpf-upgradeable-loader","parsed":{"info":{"authority":null,"data":["","base64"],"slot":42},"type":"programData"},"space":13}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := EncodeAccount(runtime.Account{Lamports: 1, Owner: tt.owner, Data: tt.data}, tt.pubkey, JSONParsed, nil, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if s, want := mustJSON(t, got.Data), expand(tt.want, vars); s != want {
				t.Errorf("\n got %s\nwant %s", s, want)
			}
		})
	}
}

func itoa(n int) string { return uintString(uint64(n)) }

func TestProgramNotParsable(t *testing.T) {
	t.Parallel()
	a1 := core.Pubkey(fill(1))
	tests := []struct {
		name   string
		pubkey core.Pubkey
		owner  core.Pubkey
		data   []byte
	}{
		{"lookup table empty", a1, core.AddressLookupTableProgramID, nil},
		{"lookup table bad tag", a1, core.AddressLookupTableProgramID, []byte{2, 0, 0, 0}},
		{"lookup table short", a1, core.AddressLookupTableProgramID, lookupTableData(1, 1, 1, nil)[:40]},
		{"lookup table partial address", a1, core.AddressLookupTableProgramID, append(lookupTableData(1, 1, 1, nil), 1, 2, 3)},
		{"lookup table bad option", a1, core.AddressLookupTableProgramID, func() []byte { b := lookupTableData(1, 1, 1, nil); b[21] = 2; return b }()},
		{"stake config elsewhere", a1, core.ConfigProgramID, configData(nil, append(le64(0), 1))},
		{"stake config short", core.StakeConfigID, core.ConfigProgramID, configData(nil, le64(0))},
		// Since 4.1 the reference no longer parses the stake config: it falls back to base64.
		{"stake config", core.StakeConfigID, core.ConfigProgramID,
			configData(nil, append(binary.LittleEndian.AppendUint64(nil, math.Float64bits(0.25)), 12))},
		{"config without validator info key", a1, core.ConfigProgramID, configData([]ConfigKey{{a1, true}}, bincodeString(`{}`))},
		{"validator info not JSON", a1, core.ConfigProgramID, configData([]ConfigKey{{ValidatorInfoID, false}}, bincodeString(`{`))},
		{"validator info trailing JSON", a1, core.ConfigProgramID, configData([]ConfigKey{{ValidatorInfoID, false}}, bincodeString(`{} {}`))},
		{"validator info bad bool", a1, core.ConfigProgramID, func() []byte {
			b := configData([]ConfigKey{{ValidatorInfoID, false}}, bincodeString(`{}`))
			b[33] = 2
			return b
		}()},
		{"config bad short_vec", a1, core.ConfigProgramID, []byte{0x80}},
		{"loader short", a1, core.BPFLoaderUpgradeableProgramID, []byte{0, 0}},
		{"loader bad tag", a1, core.BPFLoaderUpgradeableProgramID, []byte{4, 0, 0, 0}},
		{"loader buffer bad option", a1, core.BPFLoaderUpgradeableProgramID, []byte{1, 0, 0, 0, 2}},
		{"loader program short", a1, core.BPFLoaderUpgradeableProgramID, []byte{2, 0, 0, 0, 1}},
	}
	for _, tt := range tests {
		if p, err := Parse(tt.pubkey, runtime.Account{Owner: tt.owner, Data: tt.data}, nil); err == nil {
			t.Errorf("%s: Parse = %s, want an error", tt.name, mustJSON(t, p))
		}
	}
}
