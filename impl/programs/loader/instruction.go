package loader

import (
	"encoding/binary"
	"errors"

	"ledgerd/impl/core"
)

// Tags of the upgradeable loader's instructions (bincode u32 variant index).
const (
	TagInitializeBuffer uint32 = iota
	TagWrite
	TagDeployWithMaxDataLen
	TagUpgrade
	TagSetAuthority
	TagClose
	TagExtendProgram
	TagSetAuthorityChecked
	TagMigrate
	TagExtendProgramChecked
)

// packetDataSize bounds what the reference's limited_deserialize reads of an instruction.
const packetDataSize = 1232

// errBadInstruction: the data is not an upgradeable loader instruction.
var errBadInstruction = errors.New("not an upgradeable loader instruction")

// UpgradeableInstruction is a decoded upgradeable loader instruction.
type UpgradeableInstruction struct {
	Tag uint32
	// Offset and Bytes are Write's.
	Offset uint32
	Bytes  []byte
	// MaxDataLen is DeployWithMaxDataLen's.
	MaxDataLen uint64
	// AdditionalBytes is ExtendProgram's and ExtendProgramChecked's.
	AdditionalBytes uint32
}

// DecodeUpgradeable reads an instruction as bincode does with the reference's limit: trailing
// bytes are allowed (newer clients append optional flags), reading more than 1232 bytes is not.
func DecodeUpgradeable(data []byte) (UpgradeableInstruction, error) {
	if len(data) < 4 {
		return UpgradeableInstruction{}, errBadInstruction
	}
	ix := UpgradeableInstruction{Tag: binary.LittleEndian.Uint32(data)}
	rest := data[4:]
	switch ix.Tag {
	case TagInitializeBuffer, TagUpgrade, TagSetAuthority, TagClose, TagSetAuthorityChecked, TagMigrate:
	case TagWrite:
		if len(rest) < 12 {
			return UpgradeableInstruction{}, errBadInstruction
		}
		ix.Offset = binary.LittleEndian.Uint32(rest)
		n := binary.LittleEndian.Uint64(rest[4:])
		rest = rest[12:]
		if n > uint64(len(rest)) || 16+n > packetDataSize {
			return UpgradeableInstruction{}, errBadInstruction
		}
		ix.Bytes = rest[:n]
	case TagDeployWithMaxDataLen:
		if len(rest) < 8 {
			return UpgradeableInstruction{}, errBadInstruction
		}
		ix.MaxDataLen = binary.LittleEndian.Uint64(rest)
	case TagExtendProgram, TagExtendProgramChecked:
		if len(rest) < 4 {
			return UpgradeableInstruction{}, errBadInstruction
		}
		ix.AdditionalBytes = binary.LittleEndian.Uint32(rest)
	default:
		return UpgradeableInstruction{}, errBadInstruction
	}
	return ix, nil
}

// Encode is the instruction's wire data.
func (ix UpgradeableInstruction) Encode() []byte {
	b := binary.LittleEndian.AppendUint32(nil, ix.Tag)
	switch ix.Tag {
	case TagWrite:
		b = binary.LittleEndian.AppendUint32(b, ix.Offset)
		b = binary.LittleEndian.AppendUint64(b, uint64(len(ix.Bytes)))
		b = append(b, ix.Bytes...)
	case TagDeployWithMaxDataLen:
		b = binary.LittleEndian.AppendUint64(b, ix.MaxDataLen)
	case TagExtendProgram, TagExtendProgramChecked:
		b = binary.LittleEndian.AppendUint32(b, ix.AdditionalBytes)
	}
	return b
}

// Builders of the instructions as the reference's solana-loader-v3-interface lays out their
// accounts; clients and tests use them.

func upgradeable(tag UpgradeableInstruction, metas ...core.AccountMeta) core.Instruction {
	return core.Instruction{ProgramID: core.BPFLoaderUpgradeableProgramID, Accounts: metas, Data: tag.Encode()}
}

// InitializeBuffer makes buffer (created by the system program, owned by the loader, 37 bytes
// plus the program's size) a buffer whose authority is authority.
func InitializeBuffer(buffer, authority core.Pubkey) core.Instruction {
	return upgradeable(UpgradeableInstruction{Tag: TagInitializeBuffer}, core.Writable(buffer), core.Readonly(authority))
}

// Write writes bytes at offset of a buffer's program bytes.
func Write(buffer, authority core.Pubkey, offset uint32, bytes []byte) core.Instruction {
	return upgradeable(UpgradeableInstruction{Tag: TagWrite, Offset: offset, Bytes: bytes},
		core.Writable(buffer), core.ReadonlySigner(authority))
}

// DeployWithMaxDataLen deploys buffer's program at program (an account of ProgramSize bytes
// the loader owns), with room for maxDataLen bytes of program.
func DeployWithMaxDataLen(payer, program, buffer, authority core.Pubkey, maxDataLen uint64) core.Instruction {
	pd, _ := ProgramDataAddress(program)
	return upgradeable(UpgradeableInstruction{Tag: TagDeployWithMaxDataLen, MaxDataLen: maxDataLen},
		core.WritableSigner(payer), core.Writable(pd), core.Writable(program), core.Writable(buffer),
		core.Readonly(core.SysvarRentID), core.Readonly(core.SysvarClockID),
		core.Readonly(core.SystemProgramID), core.ReadonlySigner(authority))
}

// Upgrade replaces program's code by buffer's; the lamports left over go to spill.
func Upgrade(program, buffer, authority, spill core.Pubkey) core.Instruction {
	pd, _ := ProgramDataAddress(program)
	return upgradeable(UpgradeableInstruction{Tag: TagUpgrade},
		core.Writable(pd), core.Writable(program), core.Writable(buffer), core.Writable(spill),
		core.Readonly(core.SysvarRentID), core.Readonly(core.SysvarClockID), core.ReadonlySigner(authority))
}

// SetAuthority changes the authority of a buffer or program data account; newAuthority nil
// makes a program immutable.
func SetAuthority(account, current core.Pubkey, newAuthority *core.Pubkey) core.Instruction {
	metas := []core.AccountMeta{core.Writable(account), core.ReadonlySigner(current)}
	if newAuthority != nil {
		metas = append(metas, core.Readonly(*newAuthority))
	}
	return upgradeable(UpgradeableInstruction{Tag: TagSetAuthority}, metas...)
}

// SetAuthorityChecked is SetAuthority where the new authority signs too.
func SetAuthorityChecked(account, current, newAuthority core.Pubkey) core.Instruction {
	return upgradeable(UpgradeableInstruction{Tag: TagSetAuthorityChecked},
		core.Writable(account), core.ReadonlySigner(current), core.ReadonlySigner(newAuthority))
}

// Close closes a buffer, an uninitialized account, or (with program non-nil) a program's
// program data, sending its lamports to recipient.
func Close(account, recipient, authority core.Pubkey, program *core.Pubkey) core.Instruction {
	metas := []core.AccountMeta{core.Writable(account), core.Writable(recipient), core.ReadonlySigner(authority)}
	if program != nil {
		metas = append(metas, core.Writable(*program))
	}
	return upgradeable(UpgradeableInstruction{Tag: TagClose}, metas...)
}

// ExtendProgram grows program's program data by additional bytes; payer funds the rent.
func ExtendProgram(program, payer core.Pubkey, additional uint32) core.Instruction {
	pd, _ := ProgramDataAddress(program)
	return upgradeable(UpgradeableInstruction{Tag: TagExtendProgram, AdditionalBytes: additional},
		core.Writable(pd), core.Writable(program), core.Readonly(core.SystemProgramID), core.WritableSigner(payer))
}
