package alt

import (
	"encoding/binary"
	"errors"

	"ledgerd/impl/core"
)

// Kind is an instruction of the program, numbered as its bincode enum tag.
type Kind uint32

// The instructions.
const (
	KindCreateLookupTable Kind = iota
	KindFreezeLookupTable
	KindExtendLookupTable
	KindDeactivateLookupTable
	KindCloseLookupTable
	numKinds
)

var kindNames = [numKinds]string{"CreateLookupTable", "FreezeLookupTable", "ExtendLookupTable",
	"DeactivateLookupTable", "CloseLookupTable"}

// String returns the instruction's name ("ExtendLookupTable").
func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "Unknown"
}

// MaxNewAddresses is the most addresses one ExtendLookupTable may carry: a larger vector cannot
// fit in a packet, and the program refuses it before reading it.
const MaxNewAddresses = (1232 - 4 - 8) / core.PubkeyLen

// Instruction is a decoded instruction.
type Instruction struct {
	Kind Kind
	// RecentSlot and BumpSeed derive the table address (CreateLookupTable).
	RecentSlot uint64
	BumpSeed   uint8
	// NewAddresses are appended to the table (ExtendLookupTable).
	NewAddresses []core.Pubkey
}

// ErrInvalidInstruction is instruction data the program cannot decode.
var ErrInvalidInstruction = errors.New("alt: invalid instruction data")

// dataFailure says where decoding the instruction data stopped, for the program's cost model.
type dataFailure uint8

const (
	dataOK dataFailure = iota
	dataShort
	dataBadTag
	dataShortCreate
	dataMissingLength
	dataTooManyAddresses
	dataShortAddresses
)

// DecodeInstruction reads instruction data as the program does (bincode, trailing bytes
// allowed; an ExtendLookupTable vector longer than MaxNewAddresses is refused unread).
func DecodeInstruction(data []byte) (Instruction, error) {
	ix, f, _ := decodeInstruction(data)
	if f != dataOK {
		return Instruction{}, ErrInvalidInstruction
	}
	return ix, nil
}

// decodeInstruction also returns how many addresses of a short ExtendLookupTable vector were
// read before the data ran out.
func decodeInstruction(data []byte) (Instruction, dataFailure, int) {
	if len(data) < 4 {
		return Instruction{}, dataShort, 0
	}
	ix := Instruction{Kind: Kind(binary.LittleEndian.Uint32(data))}
	rest := data[4:]
	switch ix.Kind {
	case KindCreateLookupTable:
		if len(rest) < 9 {
			return Instruction{}, dataShortCreate, 0
		}
		ix.RecentSlot = binary.LittleEndian.Uint64(rest)
		ix.BumpSeed = rest[8]
	case KindExtendLookupTable:
		if len(rest) < 8 {
			return Instruction{}, dataMissingLength, 0
		}
		n := binary.LittleEndian.Uint64(rest)
		if n > MaxNewAddresses {
			return Instruction{}, dataTooManyAddresses, 0
		}
		rest = rest[8:]
		if uint64(len(rest)) < n*core.PubkeyLen {
			return Instruction{}, dataShortAddresses, len(rest) / core.PubkeyLen
		}
		ix.NewAddresses = make([]core.Pubkey, n)
		for i := range ix.NewAddresses {
			ix.NewAddresses[i] = core.Pubkey(rest[i*core.PubkeyLen:])
		}
	case KindFreezeLookupTable, KindDeactivateLookupTable, KindCloseLookupTable:
	default:
		return Instruction{}, dataBadTag, 0
	}
	return ix, dataOK, 0
}

// Encode returns the instruction data of ix.
func (ix Instruction) Encode() []byte {
	data := binary.LittleEndian.AppendUint32(nil, uint32(ix.Kind))
	switch ix.Kind {
	case KindCreateLookupTable:
		data = binary.LittleEndian.AppendUint64(data, ix.RecentSlot)
		data = append(data, ix.BumpSeed)
	case KindExtendLookupTable:
		data = binary.LittleEndian.AppendUint64(data, uint64(len(ix.NewAddresses)))
		for i := range ix.NewAddresses {
			data = append(data, ix.NewAddresses[i][:]...)
		}
	}
	return data
}

// DeriveAddress returns the address of the table authority creates with recentSlot, and its
// bump seed.
func DeriveAddress(authority core.Pubkey, recentSlot uint64) (core.Pubkey, uint8) {
	addr, bump, err := core.FindProgramAddress([][]byte{authority[:], binary.LittleEndian.AppendUint64(nil, recentSlot)}, ProgramID)
	if err != nil {
		// Two short seeds are within the limits and a bump exists with overwhelming probability.
		panic("alt: no lookup table address: " + err.Error())
	}
	return addr, bump
}

// CreateLookupTable creates the table of authority derived from recentSlot (a slot in the
// SlotHashes sysvar), funded by payer; it returns the instruction and the table's address. The
// authority need not sign (the reference's create_lookup_table).
func CreateLookupTable(authority, payer core.Pubkey, recentSlot uint64) (core.Instruction, core.Pubkey) {
	table, bump := DeriveAddress(authority, recentSlot)
	return core.Instruction{
		ProgramID: ProgramID,
		Accounts: []core.AccountMeta{core.Writable(table), core.Readonly(authority), core.WritableSigner(payer),
			core.Readonly(core.SystemProgramID)},
		Data: Instruction{Kind: KindCreateLookupTable, RecentSlot: recentSlot, BumpSeed: bump}.Encode(),
	}, table
}

// CreateLookupTableSigned is CreateLookupTable with the authority signing, as web3.js builds it.
func CreateLookupTableSigned(authority, payer core.Pubkey, recentSlot uint64) (core.Instruction, core.Pubkey) {
	ix, table := CreateLookupTable(authority, payer, recentSlot)
	ix.Accounts[1].IsSigner = true
	return ix, table
}

// FreezeLookupTable makes table immutable; authority signs.
func FreezeLookupTable(table, authority core.Pubkey) core.Instruction {
	return core.Instruction{
		ProgramID: ProgramID,
		Accounts:  []core.AccountMeta{core.Writable(table), core.ReadonlySigner(authority)},
		Data:      Instruction{Kind: KindFreezeLookupTable}.Encode(),
	}
}

// ExtendLookupTable appends addresses to table; authority signs. With a payer, the payer tops the
// table up to its rent-exempt balance (through the system program).
func ExtendLookupTable(table, authority core.Pubkey, payer *core.Pubkey, addresses []core.Pubkey) core.Instruction {
	accounts := []core.AccountMeta{core.Writable(table), core.ReadonlySigner(authority)}
	if payer != nil {
		accounts = append(accounts, core.WritableSigner(*payer), core.Readonly(core.SystemProgramID))
	}
	return core.Instruction{
		ProgramID: ProgramID,
		Accounts:  accounts,
		Data:      Instruction{Kind: KindExtendLookupTable, NewAddresses: addresses}.Encode(),
	}
}

// DeactivateLookupTable starts table's cool-down, after which it can be closed; authority signs.
func DeactivateLookupTable(table, authority core.Pubkey) core.Instruction {
	return core.Instruction{
		ProgramID: ProgramID,
		Accounts:  []core.AccountMeta{core.Writable(table), core.ReadonlySigner(authority)},
		Data:      Instruction{Kind: KindDeactivateLookupTable}.Encode(),
	}
}

// CloseLookupTable closes a deactivated table, sending its lamports to recipient; authority
// signs.
func CloseLookupTable(table, authority, recipient core.Pubkey) core.Instruction {
	return core.Instruction{
		ProgramID: ProgramID,
		Accounts:  []core.AccountMeta{core.Writable(table), core.ReadonlySigner(authority), core.Writable(recipient)},
		Data:      Instruction{Kind: KindCloseLookupTable}.Encode(),
	}
}
