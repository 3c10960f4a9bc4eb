package ledger

import (
	"testing"

	"ledgerd/impl/core"
)

// The signatures a precompile instruction verifies are paid as transaction signatures, and half of
// that signature fee is burned like the rest: the leader's Fee reward is the block's fees less half
// of every signature fee, precompile signatures included.
func TestPrecompileSignaturesBurned(t *testing.T) {
	l := openTest(t, t.TempDir(), 2)
	alice := newKey(t)
	if _, err := l.Airdrop(t.Context(), alice.PublicKey(), LamportsPerSOL); err != nil {
		t.Fatal(err)
	}
	// Three ed25519 signatures announced without their records: the instruction fails, the four
	// signatures are still paid.
	tx, err := core.NewTransaction(alice.PublicKey(), []core.Instruction{{ProgramID: core.Ed25519ProgramID, Data: []byte{3, 0}}},
		l.Bank(Processed).LastBlockhash(), alice)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := l.Execute(t.Context(), tx)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Result.Fee != 20_000 {
		t.Fatalf("fee %d, want 4 signatures", ex.Result.Fee)
	}
	waitFor(t, "the block", func() bool { _, c, _ := l.Slots(); return c >= ex.Slot })
	block, _, _ := l.Block(ex.Slot, Confirmed)
	txs, err := l.BlockTransactions(block)
	if err != nil {
		t.Fatal(err)
	}
	var want int64
	for _, r := range txs {
		burned := uint64(len(r.Tx.Signatures)) * 2500 // the node's votes and airdrops: no precompiles
		if r.Tx.Signature() == tx.Signature() {
			burned = 4 * 2500
		}
		want += int64(r.Meta.Fee - min(burned, r.Meta.Fee))
	}
	found := false
	for _, r := range block.Rewards {
		if r.RewardType == "Fee" {
			found = true
			if r.Lamports != want {
				t.Fatalf("fee reward %d, want %d", r.Lamports, want)
			}
		}
	}
	if !found {
		t.Fatalf("no fee reward: %+v", block.Rewards)
	}
}
