package precompile_test

import (
	"crypto/ed25519"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs"
	"ledgerd/impl/programs/precompile"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
)

var blockhash = core.HashBytes([]byte("precompile bank"))

func execute(t *testing.T, payer core.Keypair, ixs ...core.Instruction) *runtime.Result {
	t.Helper()
	env := runtime.DefaultEnv(blockhash, programs.Registry())
	accs := runtime.MapSource{payer.PublicKey(): {Lamports: 1e9, Owner: core.SystemProgramID}}
	for _, m := range precompile.Modules {
		accs[m.ID] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte(m.Genesis.Data)}
	}
	accs[core.SystemProgramID] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true}
	msg, err := core.CompileLegacyMessage(payer.PublicKey(), ixs, blockhash)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := core.NewSignedTransaction(msg, payer)
	if err != nil {
		t.Fatal(err)
	}
	return runtime.Execute(env, accs, tx, runtime.Options{})
}

// A transaction with a precompile instruction runs it without logs or compute units, pays one
// signature fee for each signature the precompile verifies, and fails with the precompile's
// error as a custom code of that instruction.
func TestPrecompileTransactions(t *testing.T) {
	t.Parallel()
	payer := core.KeypairFromSeed([32]byte{7})
	seed := core.KeypairFromSeed([32]byte{8})
	priv := ed25519.NewKeyFromSeed(make([]byte, 32))
	var pub core.Pubkey
	copy(pub[:], priv.Public().(ed25519.PublicKey))
	msg := []byte("signed elsewhere")
	good := precompile.NewEd25519Instruction(pub, core.Signature(ed25519.Sign(priv, msg)), msg)
	bad := append([]byte(nil), good...)
	bad[len(bad)-1] ^= 1
	ed := func(data []byte) core.Instruction {
		return core.Instruction{ProgramID: core.Ed25519ProgramID, Data: data}
	}
	transfer := system.Transfer(payer.PublicKey(), seed.PublicKey(), 1_000_000)

	res := execute(t, payer, ed(good), transfer)
	runtimetest.WantErr(t, res, "<nil>")
	if res.Fee != 2*5000 {
		t.Errorf("fee %d, want two signatures", res.Fee)
	}
	// Only the system program logs.
	if len(res.Logs) != 2 {
		t.Errorf("logs %q", res.Logs)
	}

	res = execute(t, payer, transfer, ed(bad))
	runtimetest.WantErr(t, res, `{"InstructionError":[1,{"Custom":2}]}`)
	if res.Fee != 2*5000 {
		t.Errorf("failed: fee %d, want two signatures", res.Fee)
	}

	// The offsets name the message in instruction 1 (a memo-like data blob of another program).
	offsetsOnly := precompile.Offsets{
		SignatureOffset: 16 + 32, SignatureInstructionIndex: 0xffff, PublicKeyOffset: 16, PublicKeyInstructionIndex: 0xffff,
		MessageDataOffset: 0, MessageDataSize: uint16(len(msg)), MessageInstructionIndex: 1,
	}.Encode([]byte{1, 0})
	offsetsOnly = append(offsetsOnly, good[16:16+96]...)
	res = execute(t, payer, ed(offsetsOnly), core.Instruction{ProgramID: core.Ed25519ProgramID, Data: msg})
	// Instruction 1 is itself an ed25519 instruction whose data is not one: it fails on its own.
	runtimetest.WantErr(t, res, `{"InstructionError":[1,{"Custom":4}]}`)
	// Read at offset 0 of {0, 0, msg...}, the message is wrong and instruction 0 fails; at offset 2 it
	// verifies, and instruction 1 (a zero count with data) fails.
	res = execute(t, payer, ed(offsetsOnly), ed(append([]byte{0, 0}, msg...)))
	runtimetest.WantErr(t, res, `{"InstructionError":[0,{"Custom":2}]}`)
	offsetsOnly[2+8] = 2
	res = execute(t, payer, ed(offsetsOnly), ed(append([]byte{0, 0}, msg...)))
	runtimetest.WantErr(t, res, `{"InstructionError":[1,{"Custom":4}]}`)

	// Three signatures announced, records cut short: refused, and the three are still paid.
	res = execute(t, payer, ed([]byte{3, 0}))
	runtimetest.WantErr(t, res, `{"InstructionError":[0,{"Custom":4}]}`)
	if res.Fee != 4*5000 {
		t.Errorf("fee %d, want four signatures", res.Fee)
	}
	res = execute(t, payer, core.Instruction{ProgramID: core.Secp256k1ProgramID, Data: []byte{1}})
	runtimetest.WantErr(t, res, `{"InstructionError":[0,{"Custom":4}]}`)
	res = execute(t, payer, core.Instruction{ProgramID: core.Secp256r1ProgramID, Data: []byte{0, 0}})
	runtimetest.WantErr(t, res, `{"InstructionError":[0,{"Custom":4}]}`)
}
