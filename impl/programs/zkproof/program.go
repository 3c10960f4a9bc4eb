package zkproof

import (
	"encoding/binary"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// ProgramID is the ZK ElGamal proof program's address.
var ProgramID = core.MustParsePubkey("ZkE1Gama1Proof11111111111111111111111111111")

// Module is the program as the node assembles it: a builtin, whose account holds its name as
// the reference's genesis lays builtins out. The reference parses neither its instructions
// nor its accounts under jsonParsed.
var Module = runtime.Module{
	ID:      ProgramID,
	Name:    "zk-elgamal-proof",
	Kind:    runtime.Builtin,
	Program: runtime.ProgramFunc(execute),
	Genesis: runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "zk_elgamal_proof_program"},
}

// CloseContextState is the discriminator of the instruction that closes a context-state
// account; the Verify instructions' discriminators are their ProofType values.
const CloseContextState = 0

// closeContextStateUnits is what CloseContextState costs.
const closeContextStateUnits = 3_300

// proofFromAccountDataLen is the data size of a Verify instruction that reads its proof data
// from an account: the discriminator and a u32 offset.
const proofFromAccountDataLen = 5

func execute(ctx *runtime.InvokeContext) error {
	data := ctx.Data()
	if len(data) == 0 || data[0] >= byte(numProofTypes) {
		return runtime.ErrInvalidInstructionData
	}
	if data[0] == CloseContextState {
		if err := ctx.Consume(closeContextStateUnits); err != nil {
			return runtime.ErrComputationalBudgetExceeded
		}
		ctx.Log("CloseContextState")
		return closeContext(ctx)
	}
	t := ProofType(data[0])
	k := &kinds[t]
	if err := ctx.Consume(k.units); err != nil {
		return runtime.ErrComputationalBudgetExceeded
	}
	ctx.Log(k.name)
	return verifyProof(ctx, t, data)
}

// verifyProof verifies the proof data, inline after the discriminator or (with 5 bytes of
// data) in account 0 at the given offset, and, when two more accounts follow, records the
// context in the first of them (a context-state account of this program, zeroed, of exactly
// the right size) with the second as its authority.
func verifyProof(ctx *runtime.InvokeContext, t ProofType, data []byte) error {
	k := &kinds[t]
	size := k.contextLen + k.proofLen
	accessed := 0
	var context []byte
	if len(data) == proofFromAccountDataLen {
		acct, err := ctx.Account(0)
		if err != nil {
			return err
		}
		accessed = 1
		start := uint64(binary.LittleEndian.Uint32(data[1:]))
		end := start + uint64(size)
		if end > uint64(len(acct.Data())) {
			return runtime.ErrInvalidAccountData
		}
		c, err := Verify(t, acct.Data()[start:end])
		if err != nil {
			ctx.Log("proof verification failed: " + err.Error())
			return runtime.ErrInvalidInstructionData
		}
		context = append([]byte(nil), c...)
	} else {
		if len(data)-1 != size {
			ctx.Log("invalid proof data")
			return runtime.ErrInvalidInstructionData
		}
		c, err := Verify(t, data[1:])
		if err != nil {
			ctx.Log("proof verification failed: " + err.Error())
			return runtime.ErrInvalidInstructionData
		}
		context = c
	}
	if ctx.NumAccounts() < accessed+2 {
		return nil
	}
	authority, err := ctx.Key(accessed + 1)
	if err != nil {
		return err
	}
	acct, err := ctx.Account(accessed)
	if err != nil {
		return err
	}
	if acct.Owner() != ProgramID {
		return runtime.ErrInvalidAccountOwner
	}
	if len(acct.Data()) < contextStateHeader {
		return runtime.ErrInvalidAccountData
	}
	if acct.Data()[32] != byte(Uninitialized) {
		return runtime.ErrAccountAlreadyInitialized
	}
	state := EncodeContextState(authority, t, context)
	if len(acct.Data()) != len(state) {
		return runtime.ErrInvalidAccountData
	}
	return acct.SetData(state)
}

// closeContext closes context-state account 0, paying its lamports to account 1, when its
// authority (account 2) signs.
func closeContext(ctx *runtime.InvokeContext) error {
	signer, err := ctx.IsSigner(2)
	if err != nil {
		return err
	}
	if !signer {
		return runtime.ErrMissingRequiredSignature
	}
	owner, _ := ctx.Key(2)
	contextKey, err := ctx.Key(0)
	if err != nil {
		return err
	}
	destinationKey, err := ctx.Key(1)
	if err != nil {
		return err
	}
	if contextKey == destinationKey {
		return runtime.ErrInvalidInstructionData
	}
	acct, err := ctx.Account(0)
	if err != nil {
		return err
	}
	if len(acct.Data()) < contextStateHeader {
		return runtime.ErrInvalidAccountData
	}
	if core.Pubkey(acct.Data()[:32]) != owner {
		return runtime.ErrInvalidAccountOwner
	}
	destination, err := ctx.Account(1)
	if err != nil {
		return err
	}
	if err := destination.CheckedAddLamports(acct.Lamports()); err != nil {
		return err
	}
	if err := acct.SetLamports(0); err != nil {
		return err
	}
	if err := acct.SetDataLength(0); err != nil {
		return err
	}
	return acct.SetOwner(core.SystemProgramID)
}
