// Package precompile holds the signature-verification precompiles (ed25519, secp256k1,
// secp256r1). They run without accounts, logs or compute units: each checks the signatures its
// instruction data describes, reading the signature, key and message from its own data or from
// any top-level instruction of the transaction, and fails the instruction with the reference's
// PrecompileError as a custom error code. The signatures they verify are paid for as
// transaction signatures (runtime.SignatureCount counts the first data byte).
package precompile

import (
	"encoding/binary"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// Error is the reference's PrecompileError; an instruction fails with Custom(Error).
type Error uint32

// The PrecompileError values, in the reference's order (their numbers are the custom codes).
const (
	InvalidPublicKey Error = iota
	InvalidRecoveryID
	InvalidSignature
	InvalidDataOffsets
	InvalidInstructionDataSize
)

var errorText = [...]string{
	"public key is not valid",
	"id is not valid",
	"signature is not valid",
	"offset not valid",
	"instruction is incorrect size",
}

func (e Error) Error() string {
	if int(e) < len(errorText) {
		return errorText[e]
	}
	return "unknown precompile error"
}

// currentInstruction is the instruction index the ed25519 and secp256r1 offsets use for the
// precompile's own data.
const currentInstruction = 0xffff

// Verifier checks one precompile instruction: data is its own data, datas the data of every
// top-level instruction of the transaction (its own included, at its index).
type Verifier func(data []byte, datas [][]byte) error

// program runs a verifier as the precompile's execution.
func program(verify Verifier) runtime.Program {
	return runtime.ProgramFunc(func(ctx *runtime.InvokeContext) error {
		if err := verify(ctx.Data(), ctx.InstructionDatas()); err != nil {
			if e, ok := err.(Error); ok {
				return runtime.CustomError(uint32(e))
			}
			return err
		}
		return nil
	})
}

// Modules are the precompiles as the node assembles them. Their accounts hold the program's
// name, as the reference's test harnesses (LiteSVM) lay them out.
var Modules = []runtime.Module{
	{
		ID:      core.Ed25519ProgramID,
		Name:    "ed25519",
		Kind:    runtime.Precompile,
		Program: program(VerifyEd25519),
		Genesis: runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "ed25519_program"},
	},
	{
		ID:      core.Secp256k1ProgramID,
		Name:    "secp256k1",
		Kind:    runtime.Precompile,
		Program: program(VerifySecp256k1),
		Genesis: runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "secp256k1_program"},
	},
	{
		ID:      core.Secp256r1ProgramID,
		Name:    "secp256r1",
		Kind:    runtime.Precompile,
		Program: program(VerifySecp256r1),
		Genesis: runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "secp256r1_program"},
	},
}

// Offsets is the 14-byte offsets record of the ed25519 and secp256r1 instructions (seven
// little-endian u16), which say where one signature, its public key and its message are.
type Offsets struct {
	SignatureOffset           uint16
	SignatureInstructionIndex uint16
	PublicKeyOffset           uint16
	PublicKeyInstructionIndex uint16
	MessageDataOffset         uint16
	MessageDataSize           uint16
	MessageInstructionIndex   uint16
}

// OffsetsSize is the encoded size of Offsets; the records start at OffsetsStart, after the
// signature count and a padding byte.
const (
	OffsetsSize  = 14
	OffsetsStart = 2
)

// Encode appends the record's encoding to b.
func (o Offsets) Encode(b []byte) []byte {
	for _, v := range [...]uint16{o.SignatureOffset, o.SignatureInstructionIndex, o.PublicKeyOffset,
		o.PublicKeyInstructionIndex, o.MessageDataOffset, o.MessageDataSize, o.MessageInstructionIndex} {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return b
}

// decodeOffsets reads the record at b[0:14].
func decodeOffsets(b []byte) Offsets {
	u := func(i int) uint16 { return binary.LittleEndian.Uint16(b[2*i:]) }
	return Offsets{u(0), u(1), u(2), u(3), u(4), u(5), u(6)}
}

// checkCount applies the shared size rules of the ed25519 and secp256r1 instructions: the
// count byte and padding byte must be there, and every offsets record it announces.
func checkCount(data []byte) (int, error) {
	if len(data) < OffsetsStart {
		return 0, InvalidInstructionDataSize
	}
	n := int(data[0])
	if len(data) < n*OffsetsSize+OffsetsStart {
		return 0, InvalidInstructionDataSize
	}
	return n, nil
}

// slice returns size bytes at offset of the instruction at index (currentInstruction: data
// itself), failing with InvalidDataOffsets when either is out of range, as the ed25519 and
// secp256r1 precompiles do.
func slice(data []byte, datas [][]byte, index, offset uint16, size int) ([]byte, error) {
	ix := data
	if index != currentInstruction {
		if int(index) >= len(datas) {
			return nil, InvalidDataOffsets
		}
		ix = datas[index]
	}
	end := int(offset) + size
	if end > len(ix) {
		return nil, InvalidDataOffsets
	}
	return ix[offset:end], nil
}
