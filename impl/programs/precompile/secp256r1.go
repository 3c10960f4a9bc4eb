package precompile

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"math/big"
)

// Secp256r1 sizes: a compressed SEC1 public key, and r||s.
const (
	Secp256r1PublicKeySize = 33
	Secp256r1SignatureSize = 64
	// Secp256r1MaxSignatures is the most signatures one instruction may verify.
	Secp256r1MaxSignatures = 8
)

var (
	p256Order = elliptic.P256().Params().N
	// p256HalfOrder is the largest s accepted: the precompile refuses the high-S twin of every
	// signature so that signatures are not malleable.
	p256HalfOrder = new(big.Int).Rsh(p256Order, 1)
)

// VerifySecp256r1 is the secp256r1 precompile: data is a signature count (1 to 8), a padding
// byte, then one Offsets record per signature, each naming a 64-byte r||s signature, a 33-byte
// compressed public key and a message signed with ECDSA over P-256 and SHA-256. r must be in
// [1, n-1] and s in [1, n/2] (low S).
func VerifySecp256r1(data []byte, datas [][]byte) error {
	if len(data) < OffsetsStart {
		return InvalidInstructionDataSize
	}
	if n := data[0]; n == 0 || n > Secp256r1MaxSignatures {
		return InvalidInstructionDataSize
	}
	n, err := checkCount(data)
	if err != nil {
		return err
	}
	for i := range n {
		o := decodeOffsets(data[OffsetsStart+i*OffsetsSize:])
		sig, err := slice(data, datas, o.SignatureInstructionIndex, o.SignatureOffset, Secp256r1SignatureSize)
		if err != nil {
			return err
		}
		key, err := slice(data, datas, o.PublicKeyInstructionIndex, o.PublicKeyOffset, Secp256r1PublicKeySize)
		if err != nil {
			return err
		}
		msg, err := slice(data, datas, o.MessageInstructionIndex, o.MessageDataOffset, int(o.MessageDataSize))
		if err != nil {
			return err
		}
		r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
		if r.Sign() == 0 || r.Cmp(p256Order) >= 0 || s.Sign() == 0 || s.Cmp(p256HalfOrder) > 0 {
			return InvalidSignature
		}
		pub, err := parseP256Compressed(key)
		if err != nil {
			return err
		}
		digest := sha256.Sum256(msg)
		if !ecdsa.Verify(pub, digest[:], r, s) {
			return InvalidSignature
		}
	}
	return nil
}

// parseP256Compressed decodes a compressed SEC1 point (0x02 or 0x03, then x below the field
// prime, on the curve).
func parseP256Compressed(key []byte) (*ecdsa.PublicKey, error) {
	x, y := elliptic.UnmarshalCompressed(elliptic.P256(), key)
	if x == nil {
		return nil, InvalidPublicKey
	}
	var raw [65]byte
	raw[0] = 4
	x.FillBytes(raw[1:33])
	y.FillBytes(raw[33:])
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw[:])
	if err != nil {
		return nil, InvalidPublicKey
	}
	return pub, nil
}

// NewSecp256r1Instruction returns the data of a secp256r1 instruction verifying one signature
// (r||s) of msg by the compressed key, all inline, laid out as the reference's
// new_secp256r1_instruction_with_signature (key, signature, message).
func NewSecp256r1Instruction(key [Secp256r1PublicKeySize]byte, sig [Secp256r1SignatureSize]byte, msg []byte) []byte {
	const keyAt = OffsetsStart + OffsetsSize
	o := Offsets{
		SignatureOffset: keyAt + Secp256r1PublicKeySize, SignatureInstructionIndex: currentInstruction,
		PublicKeyOffset: keyAt, PublicKeyInstructionIndex: currentInstruction,
		MessageDataOffset: keyAt + Secp256r1PublicKeySize + Secp256r1SignatureSize, MessageDataSize: uint16(len(msg)),
		MessageInstructionIndex: currentInstruction,
	}
	b := o.Encode([]byte{1, 0})
	b = append(b, key[:]...)
	b = append(b, sig[:]...)
	return append(b, msg...)
}
