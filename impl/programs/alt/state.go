package alt

import (
	"encoding/binary"
	"errors"
	"math"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Layout of a lookup table account: the bincode encoding of ProgramState::LookupTable(meta),
// zero-padded to MetaSize bytes, then the addresses.
const (
	// MetaSize is the length of the metadata in front of the addresses.
	MetaSize = 56
	// MaxAddresses is how many addresses a table holds at most.
	MaxAddresses = 256
	// MaxAccountSize is the data length of a full table.
	MaxAccountSize = MetaSize + MaxAddresses*core.PubkeyLen

	stateUninitialized = 0
	stateLookupTable   = 1

	offDeactivationSlot = 4
	offLastExtendedSlot = 12
	offStartIndex       = 20
	offAuthorityTag     = 21
	offAuthority        = 22
)

// Active is the deactivation slot of a table that was never deactivated (Slot::MAX).
const Active uint64 = math.MaxUint64

// Meta is a table's metadata (the reference's LookupTableMeta).
type Meta struct {
	// DeactivationSlot is Active until the table is deactivated.
	DeactivationSlot uint64
	// LastExtendedSlot and LastExtendedSlotStartIndex say which addresses were appended in the
	// slot of the last extension: those are not usable for lookups until a later slot.
	LastExtendedSlot           uint64
	LastExtendedSlotStartIndex uint8
	// Authority may modify the table; nil once frozen.
	Authority *core.Pubkey
}

// NewMeta returns the metadata of a new table of authority.
func NewMeta(authority core.Pubkey) Meta {
	return Meta{DeactivationSlot: Active, Authority: &authority}
}

// Table is a decoded lookup table. Addresses aliases the decoded data.
type Table struct {
	Meta      Meta
	Addresses []core.Pubkey
}

// Decoding failures, in the reference's terms. Which one a table gets decides the program's
// error and, for the on-chain build, what the failure costs.
var (
	// ErrUninitialized: the state is ProgramState::Uninitialized (UninitializedAccount).
	ErrUninitialized = errors.New("alt: lookup table is not initialized")
	// ErrInvalidData: the data is not a lookup table (InvalidAccountData).
	ErrInvalidData = errors.New("alt: invalid lookup table data")
)

// decodeFailure says where bincode stopped, for the program's cost model.
type decodeFailure uint8

const (
	decodeOK decodeFailure = iota
	decodeShort
	decodeUninitialized
	decodeBadTag
	decodeBadOption
	decodeMisaligned
)

// Decode reads a lookup table account's data as the reference's AddressLookupTable::deserialize
// does: bincode (trailing bytes allowed) of the state, then the addresses from MetaSize on, which
// must be a whole number of keys. Errors are ErrUninitialized or ErrInvalidData.
func Decode(data []byte) (*Table, error) {
	t, f := decode(data)
	switch f {
	case decodeOK:
		return t, nil
	case decodeUninitialized:
		return nil, ErrUninitialized
	}
	return nil, ErrInvalidData
}

func decode(data []byte) (*Table, decodeFailure) {
	if len(data) < 4 {
		return nil, decodeShort
	}
	switch binary.LittleEndian.Uint32(data) {
	case stateUninitialized:
		return nil, decodeUninitialized
	case stateLookupTable:
	default:
		return nil, decodeBadTag
	}
	if len(data) < offAuthorityTag+1 {
		return nil, decodeShort
	}
	t := &Table{Meta: Meta{
		DeactivationSlot:           binary.LittleEndian.Uint64(data[offDeactivationSlot:]),
		LastExtendedSlot:           binary.LittleEndian.Uint64(data[offLastExtendedSlot:]),
		LastExtendedSlotStartIndex: data[offStartIndex],
	}}
	end := offAuthority
	switch data[offAuthorityTag] {
	case 0:
	case 1:
		end += core.PubkeyLen
		if len(data) < end {
			return nil, decodeShort
		}
		a := core.Pubkey(data[offAuthority:end])
		t.Meta.Authority = &a
	default:
		return nil, decodeBadOption
	}
	if len(data) < end+2 { // the u16 padding
		return nil, decodeShort
	}
	if len(data) < MetaSize {
		return nil, decodeShort
	}
	rest := data[MetaSize:]
	if len(rest)%core.PubkeyLen != 0 {
		return nil, decodeMisaligned
	}
	t.Addresses = make([]core.Pubkey, len(rest)/core.PubkeyLen)
	for i := range t.Addresses {
		t.Addresses[i] = core.Pubkey(rest[i*core.PubkeyLen:])
	}
	return t, decodeOK
}

// putMeta overwrites the first MetaSize bytes of data with m, zeroing what the encoding does not
// cover (the reference's overwrite_meta_data).
func putMeta(data []byte, m Meta) {
	meta := data[:MetaSize]
	clear(meta)
	binary.LittleEndian.PutUint32(meta, stateLookupTable)
	binary.LittleEndian.PutUint64(meta[offDeactivationSlot:], m.DeactivationSlot)
	binary.LittleEndian.PutUint64(meta[offLastExtendedSlot:], m.LastExtendedSlot)
	meta[offStartIndex] = m.LastExtendedSlotStartIndex
	if m.Authority != nil {
		meta[offAuthorityTag] = 1
		copy(meta[offAuthority:], m.Authority[:])
	}
}

// Encode returns the account data of a table with meta m and addresses.
func Encode(m Meta, addresses []core.Pubkey) []byte {
	data := make([]byte, MetaSize+len(addresses)*core.PubkeyLen)
	putMeta(data, m)
	for i := range addresses {
		copy(data[MetaSize+i*core.PubkeyLen:], addresses[i][:])
	}
	return data
}

// Status is a table's activation status.
type Status uint8

const (
	// Activated tables serve lookups and can be extended.
	Activated Status = iota
	// Deactivating tables still serve lookups but cannot be closed yet.
	Deactivating
	// Deactivated tables serve nothing and can be closed.
	Deactivated
)

// Status returns the table's status at currentSlot. A deactivated table cools down while its
// deactivation slot is in slotHashes; remaining is then how many more blocks that takes
// (SlotHashesMaxEntries+1 in the deactivation slot itself).
func (m *Meta) Status(currentSlot uint64, slotHashes SlotHashes) (s Status, remaining int) {
	switch {
	case m.DeactivationSlot == Active:
		return Activated, 0
	case m.DeactivationSlot == currentSlot:
		return Deactivating, slotHashesMaxEntries + 1
	}
	if pos, ok := slotHashes.Position(m.DeactivationSlot); ok {
		return Deactivating, slotHashesMaxEntries - pos
	}
	return Deactivated, 0
}

// SlotHashes is the SlotHashes sysvar's account data (a u64 count, then (slot, hash) entries,
// newest first), searched in place.
type SlotHashes []byte

// Len returns the number of entries.
func (s SlotHashes) Len() int {
	if len(s) < 8 {
		return 0
	}
	return int(min(binary.LittleEndian.Uint64(s), uint64(len(s)-8)/40))
}

// Slot returns entry i's slot.
func (s SlotHashes) Slot(i int) uint64 { return binary.LittleEndian.Uint64(s[8+40*i:]) }

// Position finds slot among the entries.
func (s SlotHashes) Position(slot uint64) (int, bool) {
	lo, hi := 0, s.Len()
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch e := s.Slot(mid); {
		case e == slot:
			return mid, true
		case e > slot:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// ActiveLen returns how many of the table's addresses serve lookups at currentSlot: those
// appended in currentSlot are usable from the next slot on. A deactivated table (see Status)
// is ErrTableNotFound, since it may be closed at any moment.
func (t *Table) ActiveLen(currentSlot uint64, slotHashes SlotHashes) (int, error) {
	if s, _ := t.Meta.Status(currentSlot, slotHashes); s == Deactivated {
		return 0, ErrTableNotFound
	}
	if currentSlot > t.Meta.LastExtendedSlot {
		return len(t.Addresses), nil
	}
	return int(t.Meta.LastExtendedSlotStartIndex), nil
}

// Lookup resolves indexes against the addresses active at currentSlot (the reference's
// AddressLookupTable::lookup): ErrTableNotFound for a deactivated table, ErrInvalidData when the
// metadata claims more active addresses than the table holds, ErrInvalidIndex for an index past
// the active addresses.
func (t *Table) Lookup(currentSlot uint64, indexes []uint8, slotHashes SlotHashes) ([]core.Pubkey, error) {
	n, err := t.ActiveLen(currentSlot, slotHashes)
	if err != nil {
		return nil, err
	}
	if n > len(t.Addresses) {
		return nil, ErrInvalidData
	}
	out := make([]core.Pubkey, len(indexes))
	for i, idx := range indexes {
		if int(idx) >= n {
			return nil, ErrInvalidIndex
		}
		out[i] = t.Addresses[idx]
	}
	return out, nil
}

// Lookup errors besides ErrInvalidData (the reference's AddressLookupError).
var (
	ErrTableNotFound = errors.New("alt: lookup table not found")
	ErrInvalidOwner  = errors.New("alt: lookup table has an invalid owner")
	ErrInvalidIndex  = errors.New("alt: invalid lookup table index")
)

// TransactionError maps a lookup error to the transaction error the bank reports.
func TransactionError(err error) *runtime.TransactionError {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrTableNotFound):
		return runtime.NewTransactionError(runtime.TxAddressLookupTableNotFound)
	case errors.Is(err, ErrInvalidOwner):
		return runtime.NewTransactionError(runtime.TxInvalidAddressLookupTableOwner)
	case errors.Is(err, ErrInvalidIndex):
		return runtime.NewTransactionError(runtime.TxInvalidAddressLookupTableIndex)
	}
	return runtime.NewTransactionError(runtime.TxInvalidAddressLookupTableData)
}
