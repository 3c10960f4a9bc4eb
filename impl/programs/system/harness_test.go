package system_test

import (
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/nonce"
)

const (
	systemID         = "11111111111111111111111111111111"
	nonceRentMinimum = 1_447_680 // (128 + 80) * 6960
)

var (
	blockhash1 = core.HashBytes([]byte("bank 1"))
	blockhash2 = core.HashBytes([]byte("bank 2"))
	otherOwner = core.Pubkey(core.HashBytes([]byte("some program")))
)

type harness struct {
	t    testing.TB
	env  *runtime.Env
	accs runtime.MapSource
}

func newHarness(t testing.TB) *harness {
	reg := runtime.NewRegistry()
	reg.Add(system.Module)
	h := &harness{t: t, env: runtime.DefaultEnv(blockhash1, reg), accs: runtime.MapSource{}}
	h.accs[core.SystemProgramID] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("system_program")}
	return h
}

// newBank moves the harness to a bank with blockhash bh (the previous one stays recent).
func (h *harness) newBank(bh core.Hash) {
	env := *h.env
	env.Blockhash = bh
	env.RecentBlockhashes = append(sysvar.RecentBlockhashes{{
		Blockhash: bh, FeeCalculator: sysvar.FeeCalculator{LamportsPerSignature: runtime.DefaultLamportsPerSignature},
	}}, h.env.RecentBlockhashes...)
	h.env = &env
}

func key(seed byte) core.Keypair { return core.KeypairFromSeed([32]byte{seed}) }

func (h *harness) fund(k core.Pubkey, lamports uint64) {
	h.accs[k] = runtime.Account{Lamports: lamports, Owner: core.SystemProgramID}
}

func (h *harness) run(bh core.Hash, ixs []core.Instruction, signers ...core.Keypair) *runtime.Result {
	h.t.Helper()
	msg, err := core.CompileLegacyMessage(signers[0].PublicKey(), ixs, bh)
	if err != nil {
		h.t.Fatal(err)
	}
	tx := &core.Transaction{Message: *msg, Signatures: make([]core.Signature, msg.Header.NumRequiredSignatures)}
	res := runtime.Execute(h.env, h.accs, tx, runtime.Options{})
	h.accs.Apply(res.Writes)
	return res
}

func (h *harness) exec(ixs []core.Instruction, signers ...core.Keypair) *runtime.Result {
	h.t.Helper()
	return h.run(h.env.Blockhash, ixs, signers...)
}

func (h *harness) nonceState(k core.Pubkey) nonce.Versions {
	h.t.Helper()
	v, err := nonce.Decode(h.accs[k].Data)
	if err != nil {
		h.t.Fatalf("nonce %s: %v", k, err)
	}
	return v
}

// unsign drops the signer flag of k in ix (the message then does not ask k to sign).
func unsign(ix core.Instruction, k core.Pubkey) core.Instruction {
	ix.Accounts = slices.Clone(ix.Accounts)
	for i := range ix.Accounts {
		if ix.Accounts[i].Pubkey == k {
			ix.Accounts[i].IsSigner = false
		}
	}
	return ix
}

func readonly(ix core.Instruction, k core.Pubkey) core.Instruction {
	ix.Accounts = slices.Clone(ix.Accounts)
	for i := range ix.Accounts {
		if ix.Accounts[i].Pubkey == k {
			ix.Accounts[i].IsWritable = false
		}
	}
	return ix
}

func addr(k core.Pubkey) string { return "Address { address: " + k.String() + ", base: None }" }

func seededAddr(k, base core.Pubkey) string {
	return "Address { address: " + k.String() + ", base: Some(" + base.String() + ") }"
}
