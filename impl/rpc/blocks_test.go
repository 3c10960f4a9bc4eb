package rpc

import (
	"context"
	"fmt"
	"testing"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/memo"
)

// blkGet calls getBlock with a config object (nil for none).
func blkGet(s *Server, slot uint64, cfg *rpcapi.BlockConfig) (rpcapi.GetBlockResult, error) {
	p := &rpcapi.GetBlockParams{Slot: slot}
	if cfg != nil {
		p.Config = rpcapi.Some(rpcapi.GetBlockConfig{Config: cfg})
	}
	return s.GetBlock(context.Background(), p)
}

// blkTxs returns the JSON objects of the block's transactions.
func blkTxs(t *testing.T, b rpcapi.GetBlockResult) []map[string]any {
	t.Helper()
	list, _ := txKeys(t, b)["transactions"].([]any)
	out := make([]map[string]any, len(list))
	for i, v := range list {
		out[i] = v.(map[string]any)
	}
	return out
}

func TestGetBlock(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	payer := stFund(t, l, 1_000_000_000)
	dest := core.KeypairFromSeed([32]byte{}).PublicKey()
	transfer := core.NewTransferTx(payer, dest, 1_000_000, stRecentHash(l))
	sig := txSend(t, s, transfer)
	memoTx, err := core.NewTransaction(payer.PublicKey(), []core.Instruction{memo.Instruction("block memo", payer.PublicKey())}, stRecentHash(l), payer)
	if err != nil {
		t.Fatal(err)
	}
	memoSig := txSend(t, s, memoTx)
	waitFinalized(t, l)
	slot := txStatus(t, s, sig, false).Slot
	memoSlot := txStatus(t, s, memoSig, false).Slot

	b, err := blkGet(s, slot, nil)
	if err != nil {
		t.Fatal(err)
	}
	keys := txKeys(t, b)
	for _, k := range []string{"previousBlockhash", "blockhash", "parentSlot", "transactions", "rewards", "blockTime", "blockHeight"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("block lacks %s", k)
		}
	}
	if len(keys) != 7 {
		t.Errorf("got keys %v", keys)
	}
	parent, err := blkGet(s, b.ParentSlot, &rpcapi.BlockConfig{TransactionDetails: txPtr(rpcapi.TransactionDetailsNone)})
	if err != nil {
		t.Fatal(err)
	}
	if b.ParentSlot != slot-1 || b.PreviousBlockhash != parent.Blockhash || *b.BlockHeight != *parent.BlockHeight+1 {
		t.Errorf("block %d: parent %d, previous %s (parent's %s), height %d", slot, b.ParentSlot, b.PreviousBlockhash, parent.Blockhash, *b.BlockHeight)
	}
	info, _, _ := l.Block(slot, ledger.Finalized)
	if b.Blockhash != info.Blockhash.String() || *b.BlockTime != info.BlockTime {
		t.Errorf("got %s at %d, want %s at %d", b.Blockhash, *b.BlockTime, info.Blockhash, info.BlockTime)
	}

	// The leader is paid the unburned half of the fees, as a Fee reward.
	var fees int64
	var found bool
	for _, tx := range *b.Transactions {
		fees += int64(tx.Full.Meta.Fee)
		found = found || tx.Full.Transaction.Json.Signatures[0] == sig
		if _, ok := txKeys(t, tx)["version"]; ok {
			t.Error("a transaction carries version without maxSupportedTransactionVersion")
		}
	}
	if !found {
		t.Fatal("the block does not hold the transfer")
	}
	// postBalance is the leader's balance at the end of the block (the fee is its last change there); later
	// slots differ, since the leader pays for its votes.
	identity := l.Genesis.Identity.PublicKey()
	post, _, _, err := l.Store().GetAccount(identity, slot)
	if err != nil {
		t.Fatal(err)
	}
	rewards := *b.Rewards
	if len(rewards) != 1 || rewards[0].Pubkey != identity.String() || rewards[0].Lamports != fees/2 ||
		*rewards[0].RewardType != "Fee" || rewards[0].Commission != nil || rewards[0].PostBalance != post.Lamports {
		t.Errorf("got rewards %v (fees %d)", txJSON(t, rewards), fees)
	}
	if got := txKeys(t, rewards[0]); len(got) != 5 || got["commission"] != nil {
		t.Errorf("got reward %v", got)
	}

	encoded := func(t *testing.T, b rpcapi.GetBlockResult) any {
		t.Helper()
		for _, tx := range blkTxs(t, b) {
			if tx["transaction"] != nil {
				if m, ok := tx["transaction"].(map[string]any); ok && m["signatures"].([]any)[0] == sig {
					return tx["transaction"]
				}
				if a, ok := tx["transaction"].([]any); ok && (a[0] == txB58(transfer) || a[0] == txB64(transfer)) {
					return a
				}
			}
		}
		t.Fatal("the transfer is missing")
		return nil
	}

	t.Run("old form encoding", func(t *testing.T) {
		enc := rpcapi.TransactionEncodingBase64
		b, err := s.GetBlock(context.Background(), &rpcapi.GetBlockParams{Slot: slot, Config: rpcapi.Some(rpcapi.GetBlockConfig{Encoding: &enc})})
		if err != nil {
			t.Fatal(err)
		}
		txJSONEqual(t, encoded(t, b), `["`+txB64(transfer)+`","base64"]`)
	})
	t.Run("base58", func(t *testing.T) {
		b, err := blkGet(s, slot, &rpcapi.BlockConfig{Encoding: txPtr(rpcapi.TransactionEncodingBase58)})
		if err != nil {
			t.Fatal(err)
		}
		txJSONEqual(t, encoded(t, b), `["`+txB58(transfer)+`","base58"]`)
	})
	t.Run("json", func(t *testing.T) {
		b, err := blkGet(s, slot, &rpcapi.BlockConfig{Encoding: txPtr(rpcapi.TransactionEncodingJson)})
		if err != nil {
			t.Fatal(err)
		}
		msg := encoded(t, b).(map[string]any)["message"].(map[string]any)
		txJSONEqual(t, msg["accountKeys"], `["`+payer.PublicKey().String()+`","`+dest.String()+`","11111111111111111111111111111111"]`)
		for _, tx := range blkTxs(t, b) {
			meta := tx["meta"].(map[string]any)
			for _, k := range []string{"err", "status", "fee", "preBalances", "postBalances", "innerInstructions", "logMessages",
				"preTokenBalances", "postTokenBalances", "rewards", "loadedAddresses", "computeUnitsConsumed"} {
				if _, ok := meta[k]; !ok {
					t.Errorf("meta lacks %s", k)
				}
			}
		}
	})
	t.Run("jsonParsed", func(t *testing.T) {
		b, err := blkGet(s, slot, &rpcapi.BlockConfig{Encoding: txPtr(rpcapi.TransactionEncodingJsonParsed)})
		if err != nil {
			t.Fatal(err)
		}
		msg := encoded(t, b).(map[string]any)["message"].(map[string]any)
		txJSONEqual(t, msg["accountKeys"].([]any)[0], `{"pubkey":"`+payer.PublicKey().String()+`","writable":true,"signer":true,"source":"transaction"}`)
		txJSONEqual(t, msg["instructions"].([]any)[0].(map[string]any)["program"], `"system"`)
	})
	t.Run("memo parsed", func(t *testing.T) {
		b, err := blkGet(s, memoSlot, &rpcapi.BlockConfig{Encoding: txPtr(rpcapi.TransactionEncodingJsonParsed)})
		if err != nil {
			t.Fatal(err)
		}
		for _, tx := range blkTxs(t, b) {
			msg := tx["transaction"].(map[string]any)["message"].(map[string]any)
			if tx["transaction"].(map[string]any)["signatures"].([]any)[0] != memoSig {
				continue
			}
			txJSONEqual(t, msg["instructions"], `[{"program":"spl-memo","programId":"`+memo.ProgramIDV3.String()+`","parsed":"block memo","stackHeight":null}]`)
			return
		}
		t.Fatal("the memo transaction is missing")
	})
	t.Run("accounts", func(t *testing.T) {
		b, err := blkGet(s, slot, &rpcapi.BlockConfig{TransactionDetails: txPtr(rpcapi.TransactionDetailsAccounts), Encoding: txPtr(rpcapi.TransactionEncodingBase64)})
		if err != nil {
			t.Fatal(err)
		}
		for _, tx := range blkTxs(t, b) {
			if len(tx) != 2 {
				t.Errorf("got keys %v", tx)
			}
			inner := tx["transaction"].(map[string]any)
			if len(inner) != 2 || inner["signatures"] == nil || inner["accountKeys"] == nil {
				t.Errorf("got transaction %v", inner)
			}
			meta := tx["meta"].(map[string]any)
			for _, k := range []string{"err", "status", "fee", "preBalances", "postBalances", "preTokenBalances", "postTokenBalances", "rewards"} {
				if _, ok := meta[k]; !ok {
					t.Errorf("meta lacks %s", k)
				}
			}
			if len(meta) != 8 {
				t.Errorf("got meta %v", meta)
			}
		}
	})
	t.Run("signatures", func(t *testing.T) {
		b, err := blkGet(s, slot, &rpcapi.BlockConfig{TransactionDetails: txPtr(rpcapi.TransactionDetailsSignatures)})
		if err != nil {
			t.Fatal(err)
		}
		keys := txKeys(t, b)
		if _, ok := keys["transactions"]; ok || b.Signatures == nil {
			t.Fatalf("got %v", keys)
		}
		if len(*b.Signatures) != len(info.Signatures) || !contains(*b.Signatures, sig) {
			t.Errorf("got signatures %v", *b.Signatures)
		}
	})
	t.Run("none without rewards", func(t *testing.T) {
		b, err := blkGet(s, slot, &rpcapi.BlockConfig{TransactionDetails: txPtr(rpcapi.TransactionDetailsNone), Rewards: txPtr(false)})
		if err != nil {
			t.Fatal(err)
		}
		keys := txKeys(t, b)
		for _, k := range []string{"transactions", "signatures", "rewards"} {
			if _, ok := keys[k]; ok {
				t.Errorf("block carries %s", k)
			}
		}
		if len(keys) != 5 {
			t.Errorf("got keys %v", keys)
		}
	})
	t.Run("rewards off leaves transaction rewards null", func(t *testing.T) {
		b, err := blkGet(s, slot, &rpcapi.BlockConfig{Rewards: txPtr(false)})
		if err != nil {
			t.Fatal(err)
		}
		for _, tx := range blkTxs(t, b) {
			if r, ok := tx["meta"].(map[string]any)["rewards"]; !ok || r != nil {
				t.Errorf("got meta rewards %v (present %v)", r, ok)
			}
		}
	})
	t.Run("version", func(t *testing.T) {
		b, err := blkGet(s, slot, &rpcapi.BlockConfig{MaxSupportedTransactionVersion: txPtr(uint8(0))})
		if err != nil {
			t.Fatal(err)
		}
		for _, tx := range blkTxs(t, b) {
			txJSONEqual(t, tx["version"], `"legacy"`)
		}
	})
	t.Run("genesis block", func(t *testing.T) {
		b, err := blkGet(s, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if *b.BlockHeight != 0 || *b.BlockTime != l.Genesis.Config.CreationTime || b.ParentSlot != 0 || len(*b.Transactions) != 0 {
			t.Errorf("got %v", txJSON(t, b))
		}
	})
	t.Run("deprecated form", func(t *testing.T) {
		b, err := s.GetConfirmedBlock(context.Background(), &rpcapi.GetConfirmedBlockParams{Slot: slot})
		if err != nil {
			t.Fatal(err)
		}
		keys := txKeys(t, b)
		if _, ok := keys["blockHeight"]; ok || len(keys) != 6 || b.Transactions == nil {
			t.Errorf("got keys %v", keys)
		}
		b, err = s.GetConfirmedBlock(context.Background(), &rpcapi.GetConfirmedBlockParams{Slot: slot,
			Config: rpcapi.Some(rpcapi.GetConfirmedBlockConfig{Config: &rpcapi.ConfirmedBlockConfig{TransactionDetails: txPtr("signatures")}})})
		if err != nil || b.Signatures == nil || b.Transactions != nil {
			t.Errorf("signatures: %v, %v", txJSON(t, b), err)
		}
	})

	t.Run("errors", func(t *testing.T) {
		processed, _, _ := l.Slots()
		_, err := blkGet(s, slot, &rpcapi.BlockConfig{Commitment: txPtr(rpcapi.CommitmentProcessed)})
		txWantError(t, err, -32602, "Method does not support commitment below `confirmed`")
		future := processed + 1000
		_, err = blkGet(s, future, nil)
		txWantError(t, err, -32004, "Block not available for slot "+itoaU(future))
		_, err = blkGet(s, future, &rpcapi.BlockConfig{Commitment: txPtr(rpcapi.CommitmentConfirmed)})
		txWantError(t, err, -32004, "Block not available for slot "+itoaU(future))
		_, err = s.GetConfirmedBlock(context.Background(), &rpcapi.GetConfirmedBlockParams{Slot: future})
		txWantError(t, err, -32004, "")
	})

	t.Run("confirmed but not finalized", func(t *testing.T) {
		_, confirmed, _ := l.Slots()
		if _, err := blkGet(s, confirmed, &rpcapi.BlockConfig{Commitment: txPtr(rpcapi.CommitmentConfirmed)}); err != nil {
			t.Fatalf("confirmed block at confirmed: %v", err)
		}
		_, err := blkGet(s, confirmed, nil)
		if _, _, root := l.Slots(); root < confirmed {
			txWantError(t, err, -32004, "Block not available for slot "+itoaU(confirmed))
		}
	})

	t.Run("version 0", func(t *testing.T) {
		v0 := txSendV0(t, s, l, payer, dest)
		txWaitConfirmed(t, l)
		v0Slot := txStatus(t, s, v0, false).Slot
		confirmed := txPtr(rpcapi.CommitmentConfirmed)
		_, err := blkGet(s, v0Slot, &rpcapi.BlockConfig{Commitment: confirmed})
		txWantError(t, err, -32015, `Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0`)
		_, err = blkGet(s, v0Slot, &rpcapi.BlockConfig{Commitment: confirmed, TransactionDetails: txPtr(rpcapi.TransactionDetailsAccounts)})
		txWantError(t, err, -32015, "")
		if _, err := blkGet(s, v0Slot, &rpcapi.BlockConfig{Commitment: confirmed, TransactionDetails: txPtr(rpcapi.TransactionDetailsSignatures)}); err != nil {
			t.Errorf("signatures do not check the version: %v", err)
		}
		b, err := blkGet(s, v0Slot, &rpcapi.BlockConfig{Commitment: confirmed, MaxSupportedTransactionVersion: txPtr(uint8(0))})
		if err != nil {
			t.Fatal(err)
		}
		versions := map[string]bool{}
		for _, tx := range blkTxs(t, b) {
			versions[fmt.Sprint(tx["version"])] = true
		}
		if !versions["0"] {
			t.Errorf("got versions %v", versions)
		}
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// blkContiguous checks that slots run from first without a gap up to a last slot in [lo, hi].
func blkContiguous(t *testing.T, slots []uint64, first, lo, hi uint64) {
	t.Helper()
	if len(slots) == 0 {
		t.Fatalf("no slots, want %d..[%d, %d]", first, lo, hi)
	}
	for i, s := range slots {
		if s != first+uint64(i) {
			t.Fatalf("slots %v are not contiguous from %d", slots, first)
		}
	}
	if last := slots[len(slots)-1]; last < lo || last > hi {
		t.Fatalf("last slot %d, want within [%d, %d]", last, lo, hi)
	}
}

func TestGetBlocks(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	waitFinalized(t, l)
	waitFinalized(t, l)

	t.Run("default end is the root", func(t *testing.T) {
		_, _, lo := l.Slots()
		got, err := s.GetBlocks(ctx, &rpcapi.GetBlocksParams{StartSlot: 0})
		_, _, hi := l.Slots()
		if err != nil {
			t.Fatal(err)
		}
		blkContiguous(t, got, 0, lo, hi)
	})
	t.Run("end slot", func(t *testing.T) {
		got, err := s.GetBlocks(ctx, &rpcapi.GetBlocksParams{StartSlot: 1, EndSlot: rpcapi.Some(rpcapi.GetBlocksEndSlot{EndSlot: txPtr(uint64(3))})})
		if err != nil {
			t.Fatal(err)
		}
		blkContiguous(t, got, 1, 3, 3)
	})
	t.Run("end before start", func(t *testing.T) {
		got, err := s.GetBlocks(ctx, &rpcapi.GetBlocksParams{StartSlot: 3, EndSlot: rpcapi.Some(rpcapi.GetBlocksEndSlot{EndSlot: txPtr(uint64(2))})})
		if err != nil || got == nil || len(got) != 0 {
			t.Fatalf("got %v, %v", got, err)
		}
	})
	t.Run("a wide range is capped at the root before it is checked", func(t *testing.T) {
		_, _, lo := l.Slots()
		got, err := s.GetBlocks(ctx, &rpcapi.GetBlocksParams{StartSlot: 0, EndSlot: rpcapi.Some(rpcapi.GetBlocksEndSlot{EndSlot: txPtr(uint64(900_000))})})
		_, _, hi := l.Slots()
		if err != nil {
			t.Fatal(err)
		}
		blkContiguous(t, got, 0, lo, hi)
	})
	t.Run("config in place of the end slot", func(t *testing.T) {
		_, lo, _ := l.Slots()
		got, err := s.GetBlocks(ctx, &rpcapi.GetBlocksParams{StartSlot: 0, EndSlot: rpcapi.Some(rpcapi.GetBlocksEndSlot{Config: &rpcapi.ContextConfig{Commitment: txPtr(rpcapi.CommitmentConfirmed)}})})
		_, hi, _ := l.Slots()
		if err != nil {
			t.Fatal(err)
		}
		blkContiguous(t, got, 0, lo, hi)
	})
	t.Run("deprecated form", func(t *testing.T) {
		got, err := s.GetConfirmedBlocks(ctx, &rpcapi.GetConfirmedBlocksParams{StartSlot: 2, EndSlot: rpcapi.Some(rpcapi.GetConfirmedBlocksEndSlot{EndSlot: txPtr(uint64(4))})})
		if err != nil {
			t.Fatal(err)
		}
		blkContiguous(t, got, 2, 4, 4)
	})
	t.Run("with limit", func(t *testing.T) {
		got, err := s.GetBlocksWithLimit(ctx, &rpcapi.GetBlocksWithLimitParams{StartSlot: 1, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		blkContiguous(t, got, 1, 3, 3)
		got, err = s.GetConfirmedBlocksWithLimit(ctx, &rpcapi.GetConfirmedBlocksWithLimitParams{StartSlot: 1, Limit: 2,
			Config: rpcapi.Some(rpcapi.RequiredCommitmentConfig{Commitment: "confirmed"})})
		if err != nil {
			t.Fatal(err)
		}
		blkContiguous(t, got, 1, 2, 2)
		got, err = s.GetBlocksWithLimit(ctx, &rpcapi.GetBlocksWithLimitParams{StartSlot: 1, Limit: 0})
		if err != nil || got == nil || len(got) != 0 {
			t.Fatalf("limit 0: %v, %v", got, err)
		}
		got, err = s.GetBlocksWithLimit(ctx, &rpcapi.GetBlocksWithLimitParams{StartSlot: 1 << 40, Limit: 10})
		if err != nil || got == nil || len(got) != 0 {
			t.Fatalf("beyond the root: %v, %v", got, err)
		}
	})
	t.Run("errors", func(t *testing.T) {
		processed := &rpcapi.ContextConfig{Commitment: txPtr(rpcapi.CommitmentProcessed)}
		_, err := s.GetBlocks(ctx, &rpcapi.GetBlocksParams{StartSlot: 0, Config: rpcapi.OptOf(processed)})
		txWantError(t, err, -32602, "Method does not support commitment below `confirmed`")
		_, err = s.GetBlocksWithLimit(ctx, &rpcapi.GetBlocksWithLimitParams{StartSlot: 0, Limit: 1, Config: rpcapi.OptOf(processed)})
		txWantError(t, err, -32602, "Method does not support commitment below `confirmed`")
		_, err = s.GetBlocksWithLimit(ctx, &rpcapi.GetBlocksWithLimitParams{StartSlot: 0, Limit: 500_001})
		txWantError(t, err, -32602, "Limit too large; max 500000")
		_, err = s.GetConfirmedBlocksWithLimit(ctx, &rpcapi.GetConfirmedBlocksWithLimitParams{StartSlot: 0, Limit: 500_001})
		txWantError(t, err, -32602, "Limit too large; max 500000")
		far := uint64(1 << 40)
		_, err = s.GetBlocks(ctx, &rpcapi.GetBlocksParams{StartSlot: 0, Config: rpcapi.Some(rpcapi.ContextConfig{MinContextSlot: &far})})
		txWantError(t, err, -32016, "Minimum context slot has not been reached")
	})
}

func TestGetBlockTime(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	waitFinalized(t, l)

	got, err := s.GetBlockTime(ctx, &rpcapi.GetBlockTimeParams{Slot: 0})
	if err != nil || got == nil || *got != l.Genesis.Config.CreationTime {
		t.Fatalf("slot 0: %v, %v", got, err)
	}
	_, _, root := l.Slots()
	got, err = s.GetBlockTime(ctx, &rpcapi.GetBlockTimeParams{Slot: root})
	if err != nil || got == nil {
		t.Fatalf("root: %v, %v", got, err)
	}
	if b, err := blkGet(s, root, &rpcapi.BlockConfig{TransactionDetails: txPtr(rpcapi.TransactionDetailsNone)}); err != nil || *b.BlockTime != *got {
		t.Errorf("getBlock's blockTime %v differs from %d (%v)", b, *got, err)
	}
	working := l.Bank(ledger.Processed)
	if got, err := s.GetBlockTime(ctx, &rpcapi.GetBlockTimeParams{Slot: working.Slot}); err != nil || *got != working.BlockTime {
		t.Errorf("processed slot: %v, %v", got, err)
	}
	future := working.Slot + 1000
	_, err = s.GetBlockTime(ctx, &rpcapi.GetBlockTimeParams{Slot: future})
	txWantError(t, err, -32004, "Block not available for slot "+itoaU(future))
}
