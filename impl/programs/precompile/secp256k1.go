package precompile

import (
	"encoding/binary"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"golang.org/x/crypto/sha3"
)

// Secp256k1 sizes: the offsets record (u16, u8, u16, u8, u16, u16, u8), the signature r||s
// followed by its recovery id byte, and the Ethereum address a public key hashes to.
const (
	Secp256k1OffsetsSize   = 11
	Secp256k1SignatureSize = 64
	EthAddressSize         = 20
)

// Secp256k1Offsets is the secp256k1 instruction's offsets record. Its instruction indexes are
// one byte, with no value meaning the precompile's own instruction: that is its own index.
type Secp256k1Offsets struct {
	SignatureOffset            uint16
	SignatureInstructionIndex  uint8
	EthAddressOffset           uint16
	EthAddressInstructionIndex uint8
	MessageDataOffset          uint16
	MessageDataSize            uint16
	MessageInstructionIndex    uint8
}

// Encode appends the record's encoding to b.
func (o Secp256k1Offsets) Encode(b []byte) []byte {
	b = binary.LittleEndian.AppendUint16(b, o.SignatureOffset)
	b = append(b, o.SignatureInstructionIndex)
	b = binary.LittleEndian.AppendUint16(b, o.EthAddressOffset)
	b = append(b, o.EthAddressInstructionIndex)
	b = binary.LittleEndian.AppendUint16(b, o.MessageDataOffset)
	b = binary.LittleEndian.AppendUint16(b, o.MessageDataSize)
	return append(b, o.MessageInstructionIndex)
}

func decodeSecp256k1Offsets(b []byte) Secp256k1Offsets {
	return Secp256k1Offsets{
		SignatureOffset: binary.LittleEndian.Uint16(b), SignatureInstructionIndex: b[2],
		EthAddressOffset: binary.LittleEndian.Uint16(b[3:]), EthAddressInstructionIndex: b[5],
		MessageDataOffset: binary.LittleEndian.Uint16(b[6:]), MessageDataSize: binary.LittleEndian.Uint16(b[8:]),
		MessageInstructionIndex: b[10],
	}
}

// VerifySecp256k1 is the secp256k1 precompile: data is a signature count (one byte), then one
// Secp256k1Offsets record per signature. Each signature's public key is recovered from the
// Keccak-256 hash of the message and must hash to the given Ethereum address. The errors are
// the reference's, which differ from the ed25519 ones: a signature instruction index out of
// range is InvalidInstructionDataSize, a slice past an instruction's end InvalidSignature.
func VerifySecp256k1(data []byte, datas [][]byte) error {
	if len(data) == 0 {
		return InvalidInstructionDataSize
	}
	n := int(data[0])
	if n == 0 && len(data) > 1 {
		return InvalidInstructionDataSize
	}
	if len(data) < n*Secp256k1OffsetsSize+1 {
		return InvalidInstructionDataSize
	}
	for i := range n {
		o := decodeSecp256k1Offsets(data[1+i*Secp256k1OffsetsSize:])
		if int(o.SignatureInstructionIndex) >= len(datas) {
			return InvalidInstructionDataSize
		}
		sigIx := datas[o.SignatureInstructionIndex]
		sigEnd := int(o.SignatureOffset) + Secp256k1SignatureSize
		if sigEnd >= len(sigIx) { // the recovery id follows the signature
			return InvalidSignature
		}
		sig := sigIx[o.SignatureOffset:sigEnd]
		// r and s must be below the group order (zero is refused by the recovery below).
		var r, s secp256k1.ModNScalar
		if r.SetByteSlice(sig[:32]) || s.SetByteSlice(sig[32:]) {
			return InvalidSignature
		}
		recoveryID := sigIx[sigEnd]
		if recoveryID > 3 {
			return InvalidRecoveryID
		}
		addr, err := secp256k1Slice(datas, o.EthAddressInstructionIndex, o.EthAddressOffset, EthAddressSize)
		if err != nil {
			return err
		}
		msg, err := secp256k1Slice(datas, o.MessageInstructionIndex, o.MessageDataOffset, int(o.MessageDataSize))
		if err != nil {
			return err
		}
		h := sha3.NewLegacyKeccak256()
		h.Write(msg)
		var compact [65]byte
		compact[0] = 27 + recoveryID // decred's compact form: header, then r and s
		copy(compact[1:], sig)
		pub, _, err := ecdsa.RecoverCompact(compact[:], h.Sum(nil))
		if err != nil {
			return InvalidSignature
		}
		if want := EthAddress(pub.SerializeUncompressed()[1:]); string(addr) != string(want[:]) {
			return InvalidSignature
		}
	}
	return nil
}

// secp256k1Slice is the secp256k1 precompile's read of an address or message.
func secp256k1Slice(datas [][]byte, index uint8, offset uint16, size int) ([]byte, error) {
	if int(index) >= len(datas) {
		return nil, InvalidDataOffsets
	}
	ix := datas[index]
	end := int(offset) + size
	if end > len(ix) {
		return nil, InvalidSignature
	}
	return ix[offset:end], nil
}

// EthAddress is the Ethereum address of a public key given as its 64 bytes X||Y: the last 20
// bytes of their Keccak-256 hash.
func EthAddress(xy []byte) [EthAddressSize]byte {
	h := sha3.NewLegacyKeccak256()
	h.Write(xy)
	var out [EthAddressSize]byte
	copy(out[:], h.Sum(nil)[32-EthAddressSize:])
	return out
}

// NewSecp256k1Instruction returns the data of a secp256k1 instruction verifying one signature
// (r||s and its recovery id) of msg by the key of addr, all inline, laid out as the reference's
// new_secp256k1_instruction_with_signature (address, signature, recovery id, message); the
// offsets name instruction index, the instruction's own position in the transaction.
func NewSecp256k1Instruction(addr [EthAddressSize]byte, sig [Secp256k1SignatureSize]byte, recoveryID byte, msg []byte, index uint8) []byte {
	const addrAt = 1 + Secp256k1OffsetsSize
	o := Secp256k1Offsets{
		SignatureOffset: addrAt + EthAddressSize, SignatureInstructionIndex: index,
		EthAddressOffset: addrAt, EthAddressInstructionIndex: index,
		MessageDataOffset: addrAt + EthAddressSize + Secp256k1SignatureSize + 1, MessageDataSize: uint16(len(msg)),
		MessageInstructionIndex: index,
	}
	b := o.Encode([]byte{1})
	b = append(b, addr[:]...)
	b = append(b, sig[:]...)
	b = append(b, recoveryID)
	return append(b, msg...)
}
