package sysvar

import (
	"encoding/binary"
	"errors"

	"ledgerd/impl/core"
)

// The Instructions sysvar is not bincode: it is a table the runtime writes for each transaction
// so programs can inspect its instructions (introspection):
//
//	u16 number of instructions
//	u16 offset of each instruction
//	each instruction: u16 number of accounts; per account a flags byte (bit 0 signer,
//	  bit 1 writable) and the 32-byte key; the 32-byte program id; u16 data length; data
//	u16 index of the instruction now executing (the last two bytes)

// Flags of an account in the Instructions sysvar.
const (
	InstructionsAccountIsSigner   = 0b01
	InstructionsAccountIsWritable = 0b10
)

// ErrInvalidInstructionsData is returned for an index out of range or malformed data (the
// reference answers InvalidArgument).
var ErrInvalidInstructionsData = errors.New("invalid argument")

// SerializeInstructions builds the sysvar's data for a transaction's instructions, with the
// signer and writable flags as the message grants them, and room for the current index
// (initially 0).
func SerializeInstructions(ixs []core.Instruction) []byte {
	data := make([]byte, 2+2*len(ixs), 2+len(ixs)*64)
	binary.LittleEndian.PutUint16(data, uint16(len(ixs)))
	for i := range ixs {
		ix := &ixs[i]
		binary.LittleEndian.PutUint16(data[2+2*i:], uint16(len(data)))
		data = binary.LittleEndian.AppendUint16(data, uint16(len(ix.Accounts)))
		for _, a := range ix.Accounts {
			var flags byte
			if a.IsSigner {
				flags |= InstructionsAccountIsSigner
			}
			if a.IsWritable {
				flags |= InstructionsAccountIsWritable
			}
			data = append(data, flags)
			data = append(data, a.Pubkey[:]...)
		}
		data = append(data, ix.ProgramID[:]...)
		data = binary.LittleEndian.AppendUint16(data, uint16(len(ix.Data)))
		data = append(data, ix.Data...)
	}
	return append(data, 0, 0)
}

// StoreCurrentInstructionIndex writes the index of the executing instruction.
func StoreCurrentInstructionIndex(data []byte, index uint16) {
	if len(data) >= 2 {
		binary.LittleEndian.PutUint16(data[len(data)-2:], index)
	}
}

// LoadCurrentInstructionIndex reads the index of the executing instruction.
func LoadCurrentInstructionIndex(data []byte) (uint16, error) {
	if len(data) < 2 {
		return 0, ErrInvalidInstructionsData
	}
	return binary.LittleEndian.Uint16(data[len(data)-2:]), nil
}

// LoadInstructionAt decodes instruction index from the sysvar's data.
func LoadInstructionAt(data []byte, index int) (core.Instruction, error) {
	var ix core.Instruction
	if len(data) < 2 {
		return ix, ErrInvalidInstructionsData
	}
	n := int(binary.LittleEndian.Uint16(data))
	if index < 0 || index >= n || len(data) < 2+2*n {
		return ix, ErrInvalidInstructionsData
	}
	off := int(binary.LittleEndian.Uint16(data[2+2*index:]))
	u16 := func() (int, bool) {
		if off+2 > len(data) {
			return 0, false
		}
		v := int(binary.LittleEndian.Uint16(data[off:]))
		off += 2
		return v, true
	}
	na, ok := u16()
	if !ok || off+na*33+32+2 > len(data) {
		return ix, ErrInvalidInstructionsData
	}
	ix.Accounts = make([]core.AccountMeta, na)
	for i := range ix.Accounts {
		flags := data[off]
		ix.Accounts[i] = core.AccountMeta{
			Pubkey:     core.Pubkey(data[off+1 : off+33]),
			IsSigner:   flags&InstructionsAccountIsSigner != 0,
			IsWritable: flags&InstructionsAccountIsWritable != 0,
		}
		off += 33
	}
	ix.ProgramID = core.Pubkey(data[off : off+32])
	off += 32
	nd, _ := u16()
	if off+nd > len(data) {
		return core.Instruction{}, ErrInvalidInstructionsData
	}
	ix.Data = append([]byte(nil), data[off:off+nd]...)
	return ix, nil
}
