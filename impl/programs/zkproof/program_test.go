//go:build unix

package zkproof

import (
	"encoding/hex"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
)

var blockhash = core.HashBytes([]byte("zk elgamal proof bank"))

// zeroCiphertextProof returns fresh zero-ciphertext proof data made by the reference's zk-sdk.
func zeroCiphertextProof(t *testing.T) []byte {
	t.Helper()
	for _, v := range freshVectors(t) {
		if v.Name == "ZeroCiphertext" {
			return v.data
		}
	}
	t.Fatal("no zero-ciphertext vector")
	return nil
}

type bank struct {
	t     *testing.T
	accts runtime.MapSource
	payer core.Keypair
}

func (b *bank) run(ixs []core.Instruction, signers ...core.Keypair) *runtime.Result {
	b.t.Helper()
	msg, err := core.CompileLegacyMessage(b.payer.PublicKey(), ixs, blockhash)
	if err != nil {
		b.t.Fatal(err)
	}
	tx, err := core.NewSignedTransaction(msg, append([]core.Keypair{b.payer}, signers...)...)
	if err != nil {
		b.t.Fatal(err)
	}
	res := runtime.Execute(runtime.DefaultEnv(blockhash, runtime.NewRegistry(Module)), b.accts, tx, runtime.Options{})
	for _, w := range res.Writes {
		b.accts[w.Pubkey] = w.Account
	}
	return res
}

// The program verifies inline proof data and proof data in an account, records the context in a
// context-state account, refuses to record it twice, and closes the account for its authority
// only; every outcome with the reference's error, log lines and units.
func TestProgramInstructions(t *testing.T) {
	data := zeroCiphertextProof(t)
	id := ProgramID.String()
	payer, authority := core.KeypairFromSeed([32]byte{1}), core.KeypairFromSeed([32]byte{2})
	proofAcct, contextAcct, dest := core.KeypairFromSeed([32]byte{3}).PublicKey(), core.KeypairFromSeed([32]byte{4}).PublicKey(), core.KeypairFromSeed([32]byte{5}).PublicKey()
	b := &bank{t: t, payer: payer, accts: runtime.MapSource{
		payer.PublicKey():    {Lamports: 1e10, Owner: core.SystemProgramID},
		ProgramID:            {Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("zk_elgamal_proof_program")},
		core.SystemProgramID: {Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true},
		proofAcct:            {Lamports: 1e9, Owner: core.SystemProgramID, Data: append([]byte{9, 9, 9}, data...)},
		contextAcct:          {Lamports: 2e9, Owner: ProgramID, Data: make([]byte, 33+96)},
	}}
	verify := func(d []byte, metas ...core.AccountMeta) core.Instruction {
		return core.Instruction{ProgramID: ProgramID, Data: d, Accounts: metas}
	}
	inline := append([]byte{byte(ZeroCiphertext)}, data...)

	res := b.run([]core.Instruction{verify(inline)})
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res, "Program "+id+" invoke [1]", "VerifyZeroCiphertext", "Program "+id+" success")
	if res.ComputeUnitsConsumed != 6_000 {
		t.Errorf("units %d, want 6000", res.ComputeUnitsConsumed)
	}

	bad := append([]byte(nil), inline...)
	bad[len(bad)-40] ^= 1 // in Y_D
	res = b.run([]core.Instruction{verify(bad)})
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"InvalidInstructionData"]}`)
	if res.Logs[2] != "proof verification failed: SigmaProof(ZeroCiphertext, Deserialization)" &&
		res.Logs[2] != "proof verification failed: SigmaProof(ZeroCiphertext, AlgebraicRelation)" {
		t.Errorf("log %q", res.Logs[2])
	}
	res = b.run([]core.Instruction{verify(inline[:len(inline)-1])})
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"InvalidInstructionData"]}`)
	runtimetest.WantLogs(t, res, "Program "+id+" invoke [1]", "VerifyZeroCiphertext", "invalid proof data",
		"Program "+id+" failed: invalid instruction data")
	res = b.run([]core.Instruction{verify([]byte{13})})
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"InvalidInstructionData"]}`)

	// From the account at offset 3, recording the context.
	fromAcct := []byte{byte(ZeroCiphertext), 3, 0, 0, 0}
	past := []byte{byte(ZeroCiphertext), 4, 0, 0, 0}
	res = b.run([]core.Instruction{verify(past, core.Readonly(proofAcct))})
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"InvalidAccountData"]}`)
	res = b.run([]core.Instruction{verify(fromAcct, core.Readonly(proofAcct), core.Writable(contextAcct), core.Readonly(authority.PublicKey()))})
	runtimetest.WantErr(t, res, "<nil>")
	got := b.accts[contextAcct].Data
	want := EncodeContextState(authority.PublicKey(), ZeroCiphertext, data[:96])
	if hex.EncodeToString(got) != hex.EncodeToString(want) {
		t.Fatalf("context state %x, want %x", got, want)
	}
	if s, ok := DecodeContextState(got, ZeroCiphertext); !ok || s.Authority != authority.PublicKey() {
		t.Errorf("DecodeContextState = %+v, %v", s, ok)
	}
	res = b.run([]core.Instruction{verify(inline, core.Writable(contextAcct), core.Readonly(authority.PublicKey()))})
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"AccountAlreadyInitialized"]}`)

	// Closing: the recorded authority must sign.
	closeIx := func(auth core.Pubkey) core.Instruction {
		return core.Instruction{ProgramID: ProgramID, Data: []byte{CloseContextState},
			Accounts: []core.AccountMeta{core.Writable(contextAcct), core.Writable(dest), core.ReadonlySigner(auth)}}
	}
	res = b.run([]core.Instruction{closeIx(payer.PublicKey())})
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"InvalidAccountOwner"]}`)
	res = b.run([]core.Instruction{closeIx(authority.PublicKey())}, authority)
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res, "Program "+id+" invoke [1]", "CloseContextState", "Program "+id+" success")
	if a := b.accts[contextAcct]; a.Lamports != 0 || len(a.Data) != 0 {
		t.Errorf("closed account %+v", a)
	}
	if b.accts[dest].Lamports != 2e9 {
		t.Errorf("destination has %d lamports", b.accts[dest].Lamports)
	}
}
