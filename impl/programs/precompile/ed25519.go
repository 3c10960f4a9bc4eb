package precompile

import (
	"ledgerd/impl/core"
)

// Ed25519 sizes.
const (
	Ed25519PublicKeySize = 32
	Ed25519SignatureSize = 64
)

// VerifyEd25519 is the ed25519 precompile: data is a signature count, a padding byte, then one
// Offsets record per signature. Each signature is checked with the reference's strict rules
// (ed25519-dalek's verify_strict): a canonical S, neither the key nor R of small order, and R
// equal to the recomputed point's canonical encoding. A count of zero with nothing after the
// padding byte verifies nothing and succeeds; with more bytes it is an error.
func VerifyEd25519(data []byte, datas [][]byte) error {
	n, err := checkCount(data)
	if err != nil {
		return err
	}
	if n == 0 && len(data) > OffsetsStart {
		return InvalidInstructionDataSize
	}
	for i := range n {
		o := decodeOffsets(data[OffsetsStart+i*OffsetsSize:])
		sig, err := slice(data, datas, o.SignatureInstructionIndex, o.SignatureOffset, Ed25519SignatureSize)
		if err != nil {
			return err
		}
		pub, err := slice(data, datas, o.PublicKeyInstructionIndex, o.PublicKeyOffset, Ed25519PublicKeySize)
		if err != nil {
			return err
		}
		if !core.IsOnCurve(pub) {
			return InvalidPublicKey
		}
		msg, err := slice(data, datas, o.MessageInstructionIndex, o.MessageDataOffset, int(o.MessageDataSize))
		if err != nil {
			return err
		}
		if !core.VerifyStrict(core.Pubkey(pub), msg, core.Signature(sig)) {
			return InvalidSignature
		}
	}
	return nil
}

// NewEd25519Instruction returns the data of an ed25519 instruction verifying one signature,
// with the key, signature and message inline (the reference's
// new_ed25519_instruction_with_signature layout: key, then signature, then message).
func NewEd25519Instruction(pub core.Pubkey, sig core.Signature, msg []byte) []byte {
	const keyAt = OffsetsStart + OffsetsSize
	o := Offsets{
		SignatureOffset: keyAt + Ed25519PublicKeySize, SignatureInstructionIndex: currentInstruction,
		PublicKeyOffset: keyAt, PublicKeyInstructionIndex: currentInstruction,
		MessageDataOffset: keyAt + Ed25519PublicKeySize + Ed25519SignatureSize, MessageDataSize: uint16(len(msg)),
		MessageInstructionIndex: currentInstruction,
	}
	b := o.Encode([]byte{1, 0})
	b = append(b, pub[:]...)
	b = append(b, sig[:]...)
	return append(b, msg...)
}
