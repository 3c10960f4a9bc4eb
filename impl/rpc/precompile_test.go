package rpc

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/precompile"
	"ledgerd/impl/programs/system"
)

// Transactions with an ed25519 precompile instruction over RPC: a valid one executes (and pays a
// signature fee per verified signature), an invalid one fails its instruction with the
// precompile's error as a custom code, in simulation, in preflight, and on chain when preflight
// is skipped (the fee is still charged).
func TestPrecompileOverRPC(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, 1_000_000_000)
	dest := core.KeypairFromSeed([32]byte{42}).PublicKey()
	priv := ed25519.NewKeyFromSeed(make([]byte, 32))
	var pub core.Pubkey
	copy(pub[:], priv.Public().(ed25519.PublicKey))
	msg := []byte("ledgerd precompile over rpc")
	good := precompile.NewEd25519Instruction(pub, core.Signature(ed25519.Sign(priv, msg)), msg)
	bad := append([]byte(nil), good...)
	bad[len(bad)-1] ^= 1
	build := func(data []byte, lamports uint64) *core.Transaction {
		tx, err := core.NewTransaction(payer.PublicKey(), []core.Instruction{
			{ProgramID: core.Ed25519ProgramID, Data: data},
			system.Transfer(payer.PublicKey(), dest, lamports),
		}, stRecentHash(l), payer)
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}

	sim, err := s.SimulateTransaction(ctx, &rpcapi.SimulateTransactionParams{Transaction: txB58(build(bad, 1_000_000)),
		Config: rpcapi.Some(rpcapi.SimulateTransactionConfig{Commitment: txPtr(rpcapi.CommitmentProcessed)})})
	if err != nil {
		t.Fatal(err)
	}
	v := txKeys(t, sim.Value)
	txJSONEqual(t, v["err"], `{"InstructionError":[0,{"Custom":2}]}`)
	txJSONEqual(t, v["logs"], `[]`)
	txJSONEqual(t, v["unitsConsumed"], `0`)

	sim, err = s.SimulateTransaction(ctx, &rpcapi.SimulateTransactionParams{Transaction: txB58(build(good, 1_000_000)),
		Config: rpcapi.Some(rpcapi.SimulateTransactionConfig{Commitment: txPtr(rpcapi.CommitmentProcessed)})})
	if err != nil {
		t.Fatal(err)
	}
	v = txKeys(t, sim.Value)
	if v["err"] != nil {
		t.Fatalf("valid simulation: %v", v)
	}

	_, err = s.SendTransaction(ctx, &rpcapi.SendTransactionParams{Transaction: txB58(build(bad, 1_000_001)),
		Config: rpcapi.Some(rpcapi.SendTransactionConfig{PreflightCommitment: txPtr(rpcapi.CommitmentProcessed)})})
	txWantError(t, err, -32002, "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x2")

	record := func(sig string) *ledger.TxRecord {
		t.Helper()
		s, err := core.ParseSignature(sig)
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			if r, ok, err := l.Transaction(s, ledger.Processed); err == nil && ok {
				return r
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s never landed", sig)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	sig, err := s.SendTransaction(ctx, &rpcapi.SendTransactionParams{Transaction: txB58(build(good, 1_000_002)),
		Config: rpcapi.Some(rpcapi.SendTransactionConfig{PreflightCommitment: txPtr(rpcapi.CommitmentProcessed)})})
	if err != nil {
		t.Fatal(err)
	}
	r := record(sig)
	if r.Meta.Err != nil || r.Meta.Fee != 10_000 || len(r.Meta.Logs) != 2 {
		b, _ := json.Marshal(r.Meta)
		t.Errorf("valid on chain: %s", b)
	}
	sig, err = s.SendTransaction(ctx, &rpcapi.SendTransactionParams{Transaction: txB58(build(bad, 1_000_003)),
		Config: rpcapi.Some(rpcapi.SendTransactionConfig{SkipPreflight: txPtr(true)})})
	if err != nil {
		t.Fatal(err)
	}
	r = record(sig)
	if b, _ := json.Marshal(r.Meta.Err); string(b) != `{"InstructionError":[0,{"Custom":2}]}` || r.Meta.Fee != 10_000 {
		t.Errorf("invalid on chain: err %s fee %d", b, r.Meta.Fee)
	}
}
