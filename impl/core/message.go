package core

import (
	"encoding/json"
	"fmt"
)

// PacketDataSize is the largest serialized transaction the network accepts (PACKET_DATA_SIZE:
// the IPv6 minimum MTU minus headers).
const PacketDataSize = 1232

// Longest encoded transactions the reference's RPC accepts before decoding them: the base58 and
// base64 lengths of PacketDataSize bytes.
const (
	MaxBase58TransactionSize = 1683
	MaxBase64TransactionSize = 1644
)

// MessageVersionPrefix is the high bit that marks a versioned message; the low 7 bits carry
// the version. A legacy message starts with its header instead, whose first byte (the number
// of required signatures) is always below 0x80.
const MessageVersionPrefix = 0x80

// Type names the reference puts into its decode errors
// (`failed to deserialize {type}: {error}`).
const (
	VersionedTransactionTypeName = "solana_transaction::versioned::VersionedTransaction"
	VersionedMessageTypeName     = "solana_message::versions::VersionedMessage"
)

// MessageVersion is the format of a message. The zero value is legacy.
type MessageVersion uint8

const (
	// VersionLegacy is the original format, without a version prefix or lookups.
	VersionLegacy MessageVersion = iota
	// Version0 is the v0 format, with address table lookups.
	Version0
)

// String returns "legacy" or the version number.
func (v MessageVersion) String() string {
	switch v {
	case VersionLegacy:
		return "legacy"
	case Version0:
		return "0"
	default:
		return fmt.Sprintf("MessageVersion(%d)", uint8(v))
	}
}

// MarshalJSON writes the RPC form: the string "legacy" or the number 0.
func (v MessageVersion) MarshalJSON() ([]byte, error) {
	switch v {
	case VersionLegacy:
		return []byte(`"legacy"`), nil
	case Version0:
		return []byte(`0`), nil
	default:
		return nil, fmt.Errorf("unknown message version %d", uint8(v))
	}
}

// UnmarshalJSON reads "legacy" or 0.
func (v *MessageVersion) UnmarshalJSON(data []byte) error {
	switch string(data) {
	case `"legacy"`:
		*v = VersionLegacy
	case `0`:
		*v = Version0
	default:
		var raw any
		_ = json.Unmarshal(data, &raw)
		return fmt.Errorf("unknown message version %v", raw)
	}
	return nil
}

// MessageHeader says how the static account keys divide: the first NumRequiredSignatures sign
// (the last NumReadonlySignedAccounts of those read-only), and the last
// NumReadonlyUnsignedAccounts keys are read-only non-signers.
type MessageHeader struct {
	NumRequiredSignatures       uint8
	NumReadonlySignedAccounts   uint8
	NumReadonlyUnsignedAccounts uint8
}

// CompiledInstruction is an instruction whose program and accounts are indexes into the
// message's account keys (static keys, then keys loaded by lookups).
type CompiledInstruction struct {
	ProgramIDIndex uint8
	Accounts       []uint8
	Data           []byte
}

// AddressTableLookup loads accounts from an address lookup table (v0 only): the writable
// indexes first, then the read-only ones.
type AddressTableLookup struct {
	AccountKey      Pubkey
	WritableIndexes []uint8
	ReadonlyIndexes []uint8
}

// Message is the signed part of a transaction, in either format. For legacy messages
// AddressTableLookups is ignored.
type Message struct {
	Version             MessageVersion
	Header              MessageHeader
	AccountKeys         []Pubkey
	RecentBlockhash     Hash
	Instructions        []CompiledInstruction
	AddressTableLookups []AddressTableLookup
}

// ---------------------------------------------------------------------------------------------
// Serialization

func mustShortLen(n int, what string) uint16 {
	if n > 0xffff {
		// Only a programmer can build this: nothing decoded has more than 65535 elements.
		panic("core: " + what + " length larger than u16")
	}
	return uint16(n)
}

func shortVecSize(n int) int { return ShortU16Len(uint16(min(n, 0xffff))) + n }

// Size returns the length of the serialized message.
func (m *Message) Size() int {
	n := 3 + shortVecSize(len(m.AccountKeys)) - len(m.AccountKeys) + len(m.AccountKeys)*PubkeyLen + HashLen
	n += shortVecSize(len(m.Instructions)) - len(m.Instructions)
	for i := range m.Instructions {
		ix := &m.Instructions[i]
		n += 1 + shortVecSize(len(ix.Accounts)) + shortVecSize(len(ix.Data))
	}
	if m.Version == Version0 {
		n++ // version prefix
		n += shortVecSize(len(m.AddressTableLookups)) - len(m.AddressTableLookups)
		for i := range m.AddressTableLookups {
			l := &m.AddressTableLookups[i]
			n += PubkeyLen + shortVecSize(len(l.WritableIndexes)) + shortVecSize(len(l.ReadonlyIndexes))
		}
	}
	return n
}

// AppendTo appends the wire form of m (the bytes that are signed) to dst. It panics if a list
// is longer than 65535 elements, which no decodable message has.
func (m *Message) AppendTo(dst []byte) []byte {
	if m.Version == Version0 {
		dst = append(dst, MessageVersionPrefix|0)
	} else if m.Version != VersionLegacy {
		panic(fmt.Sprintf("core: cannot serialize message version %d", uint8(m.Version)))
	}
	dst = append(dst, m.Header.NumRequiredSignatures, m.Header.NumReadonlySignedAccounts, m.Header.NumReadonlyUnsignedAccounts)
	dst = AppendShortU16(dst, mustShortLen(len(m.AccountKeys), "account keys"))
	for i := range m.AccountKeys {
		dst = append(dst, m.AccountKeys[i][:]...)
	}
	dst = append(dst, m.RecentBlockhash[:]...)
	dst = AppendShortU16(dst, mustShortLen(len(m.Instructions), "instructions"))
	for i := range m.Instructions {
		ix := &m.Instructions[i]
		dst = append(dst, ix.ProgramIDIndex)
		dst = AppendShortU16(dst, mustShortLen(len(ix.Accounts), "instruction accounts"))
		dst = append(dst, ix.Accounts...)
		dst = AppendShortU16(dst, mustShortLen(len(ix.Data), "instruction data"))
		dst = append(dst, ix.Data...)
	}
	if m.Version == Version0 {
		dst = AppendShortU16(dst, mustShortLen(len(m.AddressTableLookups), "address table lookups"))
		for i := range m.AddressTableLookups {
			l := &m.AddressTableLookups[i]
			dst = append(dst, l.AccountKey[:]...)
			dst = AppendShortU16(dst, mustShortLen(len(l.WritableIndexes), "writable indexes"))
			dst = append(dst, l.WritableIndexes...)
			dst = AppendShortU16(dst, mustShortLen(len(l.ReadonlyIndexes), "readonly indexes"))
			dst = append(dst, l.ReadonlyIndexes...)
		}
	}
	return dst
}

// Serialize returns the wire form of m: the bytes its signatures sign.
func (m *Message) Serialize() []byte { return m.AppendTo(make([]byte, 0, m.Size())) }

// MarshalBinary implements encoding.BinaryMarshaler.
func (m *Message) MarshalBinary() ([]byte, error) { return m.Serialize(), nil }

// ---------------------------------------------------------------------------------------------
// Decoding

// decoder reads the bincode wire form. Variable-length fields are recorded as sub-slices of the
// input and moved into one owned arena at the end (see finish), so a decode costs one copy of
// the input and a handful of allocations, and the result never aliases the caller's buffer.
type decoder struct {
	b   []byte
	off int
}

func (d *decoder) remaining() int { return len(d.b) - d.off }

func (d *decoder) u8() (byte, error) {
	if d.off >= len(d.b) {
		return 0, ErrUnexpectedEOF
	}
	v := d.b[d.off]
	d.off++
	return v, nil
}

func (d *decoder) shortLen() (int, error) {
	v, n, err := DecodeShortU16(d.b[d.off:])
	if err != nil {
		return 0, err
	}
	d.off += n
	return int(v), nil
}

// bytes returns the next n bytes as a sub-slice of the input (nil when n is 0).
func (d *decoder) bytes(n int) ([]byte, error) {
	if n > d.remaining() {
		return nil, ErrUnexpectedEOF
	}
	if n == 0 {
		return nil, nil
	}
	// Capacity is left unclipped on purpose: finish derives the offset from it.
	s := d.b[d.off : d.off+n]
	d.off += n
	return s, nil
}

// shortBytes reads a shortvec of u8.
func (d *decoder) shortBytes() ([]byte, error) {
	n, err := d.shortLen()
	if err != nil {
		return nil, err
	}
	return d.bytes(n)
}

func (d *decoder) read32(out *[32]byte) error {
	if d.remaining() < 32 {
		return ErrUnexpectedEOF
	}
	copy(out[:], d.b[d.off:d.off+32])
	d.off += 32
	return nil
}

func (d *decoder) pubkeys() ([]Pubkey, error) {
	n, err := d.shortLen()
	if err != nil {
		return nil, err
	}
	if n*PubkeyLen > d.remaining() {
		return nil, ErrUnexpectedEOF
	}
	if n == 0 {
		return nil, nil
	}
	keys := make([]Pubkey, n)
	for i := range keys {
		copy(keys[i][:], d.b[d.off:d.off+PubkeyLen])
		d.off += PubkeyLen
	}
	return keys, nil
}

// message reads a message (with its optional version prefix) into m.
func (d *decoder) message(m *Message) error {
	prefix, err := d.u8()
	if err != nil {
		return err
	}
	if prefix&MessageVersionPrefix != 0 {
		switch version := prefix &^ MessageVersionPrefix; version {
		case 0:
			m.Version = Version0
			if m.Header.NumRequiredSignatures, err = d.u8(); err != nil {
				return err
			}
		case 127:
			return ErrOffChainMessage
		default:
			return invalidMessageVersion(version)
		}
	} else {
		m.Version = VersionLegacy
		m.Header.NumRequiredSignatures = prefix
	}
	if m.Header.NumReadonlySignedAccounts, err = d.u8(); err != nil {
		return err
	}
	if m.Header.NumReadonlyUnsignedAccounts, err = d.u8(); err != nil {
		return err
	}
	if m.AccountKeys, err = d.pubkeys(); err != nil {
		return err
	}
	if err = d.read32((*[32]byte)(&m.RecentBlockhash)); err != nil {
		return err
	}
	nix, err := d.shortLen()
	if err != nil {
		return err
	}
	// Instructions vary in size, so a later one may fail for another reason than running out;
	// reserve only what the input could hold (3 bytes per instruction at least).
	m.Instructions = nil
	if nix > 0 {
		m.Instructions = make([]CompiledInstruction, 0, min(nix, d.remaining()/3))
	}
	for range nix {
		var ix CompiledInstruction
		if ix.ProgramIDIndex, err = d.u8(); err != nil {
			return err
		}
		if ix.Accounts, err = d.shortBytes(); err != nil {
			return err
		}
		if ix.Data, err = d.shortBytes(); err != nil {
			return err
		}
		m.Instructions = append(m.Instructions, ix)
	}
	m.AddressTableLookups = nil
	if m.Version != Version0 {
		return nil
	}
	nl, err := d.shortLen()
	if err != nil {
		return err
	}
	if nl > 0 {
		m.AddressTableLookups = make([]AddressTableLookup, 0, min(nl, d.remaining()/(PubkeyLen+2)))
	}
	for range nl {
		var l AddressTableLookup
		if err = d.read32((*[32]byte)(&l.AccountKey)); err != nil {
			return err
		}
		if l.WritableIndexes, err = d.shortBytes(); err != nil {
			return err
		}
		if l.ReadonlyIndexes, err = d.shortBytes(); err != nil {
			return err
		}
		m.AddressTableLookups = append(m.AddressTableLookups, l)
	}
	return nil
}

// finish moves every byte slice of m that points into the input onto one owned copy of the
// consumed bytes input[start:d.off].
func (d *decoder) finish(m *Message, start int) {
	var arena []byte
	rebase := func(s []byte) []byte {
		if s == nil {
			return nil
		}
		if arena == nil {
			arena = make([]byte, d.off-start)
			copy(arena, d.b[start:d.off])
		}
		// s was cut as d.b[i:j] without clipping its capacity, so cap(s) == cap(d.b)-i.
		i := cap(d.b) - cap(s) - start
		return arena[i : i+len(s) : i+len(s)]
	}
	for i := range m.Instructions {
		ix := &m.Instructions[i]
		ix.Accounts = rebase(ix.Accounts)
		ix.Data = rebase(ix.Data)
	}
	for i := range m.AddressTableLookups {
		l := &m.AddressTableLookups[i]
		l.WritableIndexes = rebase(l.WritableIndexes)
		l.ReadonlyIndexes = rebase(l.ReadonlyIndexes)
	}
}
