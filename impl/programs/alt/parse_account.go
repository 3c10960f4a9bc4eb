package alt

import (
	"errors"
	"strconv"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/internal/jsonparsed"
	"ledgerd/impl/runtime"
)

// LookupTableMetaSize is the size of an address lookup table's header; the addresses follow it.
const LookupTableMetaSize = 56

var errInvalidLookupTable = errors.New("invalid address lookup table data")

// LookupTable is an address lookup table account (bincode ProgramState::LookupTable and the addresses).
type LookupTable struct {
	DeactivationSlot           uint64
	LastExtendedSlot           uint64
	LastExtendedSlotStartIndex uint8
	Authority                  *core.Pubkey
	Addresses                  []core.Pubkey
}

// DecodeLookupTable reads a lookup table as the reference's AddressLookupTable::deserialize does. An
// uninitialized table (state tag 0) gives (nil, nil).
func DecodeLookupTable(data []byte) (*LookupTable, error) {
	r := jsonparsed.Layout{B: data}
	switch r.U32() {
	case 0:
		if r.Bad {
			return nil, errInvalidLookupTable
		}
		return nil, nil
	case 1:
	default:
		return nil, errInvalidLookupTable
	}
	t := &LookupTable{DeactivationSlot: r.U64(), LastExtendedSlot: r.U64(), LastExtendedSlotStartIndex: r.U8()}
	switch r.U8() { // bincode Option
	case 0:
	case 1:
		k := r.Pubkey()
		t.Authority = &k
	default:
		r.Bad = true
	}
	r.U16() // padding
	if r.Bad || len(data) < LookupTableMetaSize || (len(data)-LookupTableMetaSize)%32 != 0 {
		return nil, errInvalidLookupTable
	}
	for off := LookupTableMetaSize; off < len(data); off += 32 {
		t.Addresses = append(t.Addresses, core.Pubkey(data[off:off+32]))
	}
	return t, nil
}

// parseLookupTable is the reference's parse_address_lookup_table: slots as strings, the authority left out
// when there is none.
func parseLookupTable(_ core.Pubkey, data []byte, _ runtime.AccountLookup) (any, error) {
	t, err := DecodeLookupTable(data)
	if err != nil {
		return nil, err
	}
	if t == nil {
		return map[string]any{"type": "uninitialized"}, nil
	}
	addresses := make([]string, len(t.Addresses))
	for i, a := range t.Addresses {
		addresses[i] = a.String()
	}
	info := map[string]any{
		"deactivationSlot":           strconv.FormatUint(t.DeactivationSlot, 10),
		"lastExtendedSlot":           strconv.FormatUint(t.LastExtendedSlot, 10),
		"lastExtendedSlotStartIndex": t.LastExtendedSlotStartIndex,
		"addresses":                  addresses,
	}
	if t.Authority != nil {
		info["authority"] = t.Authority.String()
	}
	return jsonparsed.Typed("lookupTable", info), nil
}
