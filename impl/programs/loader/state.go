package loader

import (
	"encoding/binary"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Sizes of the upgradeable loader's account headers (bincode of UpgradeableLoaderState with an
// authority present): program bytes start right after them.
const (
	// UninitializedSize is the size of an Uninitialized state (its tag).
	UninitializedSize = 4
	// BufferMetadataSize is where a buffer's program bytes start (tag, option tag, authority).
	BufferMetadataSize = 37
	// ProgramSize is the size of a Program account (tag, program data address).
	ProgramSize = 36
	// ProgramDataMetadataSize is where a program data account's ELF starts (tag, slot, option
	// tag, authority).
	ProgramDataMetadataSize = 45
)

// Kinds of UpgradeableLoaderState, in bincode's variant order.
const (
	StateUninitialized uint32 = iota
	StateBuffer
	StateProgram
	StateProgramData
)

// State is an upgradeable loader account's UpgradeableLoaderState.
type State struct {
	Kind uint32
	// Authority is the buffer's or the program data's authority; nil: immutable.
	Authority *core.Pubkey
	// ProgramData is a Program's program data address.
	ProgramData core.Pubkey
	// Slot is the slot a ProgramData was last deployed, upgraded or extended in.
	Slot uint64
}

// DecodeState reads the state at the start of data as bincode does: trailing bytes are
// ignored, a short read or an unknown tag fails (the reference's get_state, InvalidAccountData).
func DecodeState(data []byte) (State, error) {
	bad := runtime.ErrInvalidAccountData
	if len(data) < 4 {
		return State{}, bad
	}
	s := State{Kind: binary.LittleEndian.Uint32(data)}
	rest := data[4:]
	optPubkey := func() (*core.Pubkey, bool) {
		if len(rest) < 1 {
			return nil, false
		}
		switch rest[0] {
		case 0:
			rest = rest[1:]
			return nil, true
		case 1:
			if len(rest) < 33 {
				return nil, false
			}
			var k core.Pubkey
			copy(k[:], rest[1:33])
			rest = rest[33:]
			return &k, true
		}
		return nil, false
	}
	var ok bool
	switch s.Kind {
	case StateUninitialized:
		return s, nil
	case StateBuffer:
		if s.Authority, ok = optPubkey(); !ok {
			return State{}, bad
		}
	case StateProgram:
		if len(rest) < 32 {
			return State{}, bad
		}
		copy(s.ProgramData[:], rest)
	case StateProgramData:
		if len(rest) < 8 {
			return State{}, bad
		}
		s.Slot = binary.LittleEndian.Uint64(rest)
		rest = rest[8:]
		if s.Authority, ok = optPubkey(); !ok {
			return State{}, bad
		}
	default:
		return State{}, bad
	}
	return s, nil
}

// Encode is the state's bincode: without an authority it is shorter than the header, and
// writing it leaves the header's remaining bytes as they were, as the reference does.
func (s State) Encode() []byte {
	b := binary.LittleEndian.AppendUint32(make([]byte, 0, ProgramDataMetadataSize), s.Kind)
	optPubkey := func(k *core.Pubkey) {
		if k == nil {
			b = append(b, 0)
			return
		}
		b = append(b, 1)
		b = append(b, k[:]...)
	}
	switch s.Kind {
	case StateBuffer:
		optPubkey(s.Authority)
	case StateProgram:
		b = append(b, s.ProgramData[:]...)
	case StateProgramData:
		b = binary.LittleEndian.AppendUint64(b, s.Slot)
		optPubkey(s.Authority)
	}
	return b
}

// getState is the reference's BorrowedAccount::get_state.
func getState(a runtime.BorrowedAccount) (State, error) { return DecodeState(a.Data()) }

// setState is the reference's BorrowedAccount::set_state: the account must be writable by the
// loader, and hold the state's bytes (AccountDataTooSmall); only those bytes are written.
func setState(a runtime.BorrowedAccount, s State) error {
	data, err := a.DataMut()
	if err != nil {
		return err
	}
	enc := s.Encode()
	if len(enc) > len(data) {
		return runtime.ErrAccountDataTooSmall
	}
	copy(data, enc)
	return nil
}

// ProgramDataAddress is the program data account of an upgradeable program: the loader's PDA
// of the program id.
func ProgramDataAddress(program core.Pubkey) (core.Pubkey, uint8) {
	k, bump, err := core.FindProgramAddress([][]byte{program[:]}, core.BPFLoaderUpgradeableProgramID)
	if err != nil {
		// A single 32-byte seed always has an address: the search cannot fail.
		panic("loader: no program data address for " + program.String())
	}
	return k, bump
}
