package runtime_test

import (
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/memo"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/computebudget"
	"ledgerd/impl/runtime/nonce"
)

// FuzzExecute runs arbitrary instruction data and account flags through each native program.
// Execute must not panic, and its result must keep the ledger's invariants: lamports are
// conserved (less the fee), and a failed transaction writes only what pays its fee.
func FuzzExecute(f *testing.F) {
	f.Add(byte(0), byte(0b1111), system.Transfer(key(1).PublicKey(), key(2).PublicKey(), 5).Data)
	f.Add(byte(0), byte(0b0111), system.CreateAccount(key(1).PublicKey(), key(2).PublicKey(), 1e6, 10, key(3).PublicKey()).Data)
	f.Add(byte(0), byte(0b1011), system.WithdrawNonceAccount(key(4).PublicKey(), key(1).PublicKey(), key(2).PublicKey(), 5).Data)
	f.Add(byte(0), byte(0b1011), system.AdvanceNonceAccount(key(4).PublicKey(), key(1).PublicKey()).Data)
	f.Add(byte(1), byte(0b0001), []byte("memo"))
	f.Add(byte(2), byte(0), []byte{0xff})
	f.Add(byte(3), byte(0), computebudget.SetComputeUnitLimit(10).Data)
	f.Add(byte(4), byte(0b1111), []byte{opInvoke, 4, 2, 0, 1, 1, 1, 0, 1, 2, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(fuzzOne)
}

func fuzzOne(t *testing.T, program, flags byte, data []byte) {
	{
		h := newHarness(t)
		payer := key(1)
		nonceKey := key(4).PublicKey()
		h.fund(payer.PublicKey(), 1e10)
		h.fund(key(2).PublicKey(), 1e9)
		h.accs[nonceKey] = runtime.Account{Lamports: 1e8, Owner: core.SystemProgramID,
			Data: nonce.NewInitialized(payer.PublicKey(), core.Hash{1}, 5000).Encode()}
		programs := []core.Pubkey{core.SystemProgramID, memo.ProgramIDV3, memo.ProgramIDV1, core.ComputeBudgetProgramID, testProgramID}
		pid := programs[int(program)%len(programs)]
		candidates := []core.Pubkey{payer.PublicKey(), key(2).PublicKey(), key(3).PublicKey(), nonceKey,
			core.SysvarRecentBlockhashesID, core.SysvarRentID, core.SystemProgramID}
		var metas []core.AccountMeta
		for i, k := range candidates {
			if flags&(1<<(i%8)) != 0 || i == 0 {
				metas = append(metas, core.AccountMeta{Pubkey: k, IsSigner: i == 0 || flags&0x80 != 0 && i < 3, IsWritable: i < 4})
			}
		}
		if pid == testProgramID {
			metas = append(metas, core.Readonly(testProgramID))
		}
		ixs := []core.Instruction{{ProgramID: pid, Accounts: metas, Data: data}}
		signers := []core.Keypair{payer}
		for _, m := range metas[1:] {
			if m.IsSigner && m.Pubkey == key(2).PublicKey() {
				signers = append(signers, key(2))
			}
		}
		if flags&0x80 != 0 && containsMeta(metas, key(3).PublicKey()) {
			signers = append(signers, key(3))
		}
		msg, err := core.CompileLegacyMessage(payer.PublicKey(), ixs, testBlockhash)
		if err != nil {
			return
		}
		tx := &core.Transaction{Message: *msg, Signatures: make([]core.Signature, msg.Header.NumRequiredSignatures)}
		_ = signers
		before := sum(h.accs)
		res := runtime.Execute(h.env, h.accs, tx, runtime.Options{})
		h.accs.Apply(res.Writes)
		after := sum(h.accs)
		if !res.Processed {
			if res.Err == nil || len(res.Writes) != 0 || after != before {
				t.Fatalf("unprocessed transaction changed state: %+v", res)
			}
			return
		}
		if before-after != res.Fee {
			t.Fatalf("lamports %d -> %d with fee %d (err %v)", before, after, res.Fee, res.Err)
		}
		if res.Err != nil && (len(res.Writes) != 1 || res.Writes[0].Pubkey != payer.PublicKey()) {
			t.Fatalf("failed transaction wrote %+v", res.Writes)
		}
	}
}

func containsMeta(metas []core.AccountMeta, k core.Pubkey) bool {
	for _, m := range metas {
		if m.Pubkey == k {
			return true
		}
	}
	return false
}

func sum(m runtime.MapSource) uint64 {
	var s uint64
	for _, a := range m {
		s += a.Lamports
	}
	return s
}
