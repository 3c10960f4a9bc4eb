package rpc

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/memo"
)

// The helpers of this file carry a tx prefix so that they cannot collide with those of other test files.

func txB58(tx *core.Transaction) string { return base58.Encode(tx.Serialize()) }

func txB64(tx *core.Transaction) string { return base64.StdEncoding.EncodeToString(tx.Serialize()) }

func txPtr[T any](v T) *T { return &v }

// txWantError checks that err is the JSON-RPC error code with message (any message when empty).
func txWantError(t *testing.T, err error, code int, message string) *rpcapi.Error {
	t.Helper()
	e, ok := rpcapi.AsError(err)
	if !ok {
		t.Fatalf("got error %v, want a JSON-RPC error %d", err, code)
	}
	if e.Code != code || (message != "" && e.Message != message) {
		t.Fatalf("got error %d %q, want %d %q", e.Code, e.Message, code, message)
	}
	return e
}

// txJSON marshals v and reads it back as plain JSON values, to compare shapes.
func txJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// txJSONEqual compares the JSON of v with want (a JSON text), ignoring key order.
func txJSONEqual(t *testing.T, v any, want string) {
	t.Helper()
	var w any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want JSON: %v", err)
	}
	if got := txJSON(t, v); !reflect.DeepEqual(got, w) {
		b, _ := json.Marshal(got)
		t.Fatalf("got JSON\n%s\nwant\n%s", b, want)
	}
}

// txKeys returns the object keys of v's JSON.
func txKeys(t *testing.T, v any) map[string]any {
	t.Helper()
	m, ok := txJSON(t, v).(map[string]any)
	if !ok {
		t.Fatalf("%T does not marshal to an object", v)
	}
	return m
}

// txWaitConfirmed waits until the processed slot of now is confirmed.
func txWaitConfirmed(t *testing.T, l *ledger.Ledger) {
	t.Helper()
	processed, _, _ := l.Slots()
	stWaitFrozen(t, l, processed)
}

// txSend submits tx through sendTransaction with a processed preflight and fails the test on an error.
func txSend(t *testing.T, s *Server, tx *core.Transaction) string {
	t.Helper()
	sig, err := s.SendTransaction(context.Background(), &rpcapi.SendTransactionParams{
		Transaction: txB58(tx),
		Config:      rpcapi.Some(rpcapi.SendTransactionConfig{PreflightCommitment: txPtr(rpcapi.CommitmentProcessed)}),
	})
	if err != nil {
		t.Fatalf("sendTransaction: %v", err)
	}
	if sig != tx.Signature().String() {
		t.Fatalf("sendTransaction returned %s, want %s", sig, tx.Signature())
	}
	return sig
}

func txStatus(t *testing.T, s *Server, sig string, history bool) *rpcapi.SignatureStatus {
	t.Helper()
	res, err := s.GetSignatureStatuses(context.Background(), &rpcapi.GetSignatureStatusesParams{
		Signatures: mustSignatures([]string{sig}),
		Config:     rpcapi.Some(rpcapi.GetSignatureStatusesConfig{SearchTransactionHistory: history}),
	})
	if err != nil {
		t.Fatal(err)
	}
	return res.Value[0]
}

func TestSendTransaction(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, 10_000_000_000)
	dest := core.KeypairFromSeed([32]byte{}).PublicKey()
	hash := stRecentHash(l)
	processed := &rpcapi.SendTransactionConfig{PreflightCommitment: txPtr(rpcapi.CommitmentProcessed)}

	good := core.NewTransferTx(payer, dest, 1_000_000, hash)
	good64 := core.NewTransferTx(payer, dest, 1_000_001, hash)
	tooMuch := core.NewTransferTx(payer, dest, 20_000_000_000, hash)
	unknownHash := core.NewTransferTx(payer, dest, 1_000_002, core.Hash{7})
	tampered := core.NewTransferTx(payer, dest, 1_000_003, hash)
	tampered.Signatures[0][0] ^= 1
	tamperedSkip := core.NewTransferTx(payer, dest, 1_000_004, hash)
	tamperedSkip.Signatures[0][0] ^= 1
	failingSkip := core.NewTransferTx(payer, dest, 20_000_000_001, hash)
	unsanitized := core.NewTransferTx(payer, dest, 1_000_005, hash)
	unsanitized.Message.Header.NumRequiredSignatures = 2
	const txType = "solana_transaction::versioned::VersionedTransaction"

	for _, tc := range []struct {
		name     string
		data     string
		cfg      *rpcapi.SendTransactionConfig
		code     int
		message  string // exact, or a prefix when it ends with "…"
		executed *core.Transaction
		failed   bool // executed with an error
	}{
		{name: "base58 transfer", data: txB58(good), cfg: processed, executed: good},
		{name: "base64 transfer", data: txB64(good64), cfg: &rpcapi.SendTransactionConfig{Encoding: txPtr("base64"), PreflightCommitment: txPtr(rpcapi.CommitmentProcessed)}, executed: good64},
		{name: "json encoding", data: txB58(good), cfg: &rpcapi.SendTransactionConfig{Encoding: txPtr("json")},
			code: -32602, message: "unsupported encoding: json. Supported encodings: base58, base64"},
		{name: "bad base58", data: "0OIl", code: -32602, message: "invalid base58 encoding: …"},
		{name: "bad base64", data: "!!!", cfg: &rpcapi.SendTransactionConfig{Encoding: txPtr("base64")}, code: -32602, message: "invalid base64 encoding: …"},
		{name: "base58 too long", data: strings.Repeat("1", 1684), code: -32602,
			message: "base58 encoded " + txType + " too large: 1684 bytes (max: encoded/raw 1683/1232)"},
		{name: "base64 too long", data: strings.Repeat("A", 1648), cfg: &rpcapi.SendTransactionConfig{Encoding: txPtr("base64")}, code: -32602,
			message: "base64 encoded " + txType + " too large: 1648 bytes (max: encoded/raw 1644/1232)"},
		{name: "decoded too large", data: base64.StdEncoding.EncodeToString(make([]byte, 1233)), cfg: &rpcapi.SendTransactionConfig{Encoding: txPtr("base64")},
			code: -32602, message: "decoded " + txType + " too large: 1233 bytes (max: 1232 bytes)"},
		{name: "truncated", data: base58.Encode([]byte{1, 2, 3}), code: -32602, message: "failed to deserialize " + txType + ": …"},
		{name: "unsanitized", data: txB58(unsanitized), cfg: processed, code: -32602,
			message: "invalid transaction: Transaction failed to sanitize accounts offsets correctly"},
		{name: "tampered signature", data: txB58(tampered), cfg: processed, code: -32002,
			message: "Transaction simulation failed: Transaction did not pass signature verification"},
		{name: "min context slot", data: txB58(good), cfg: &rpcapi.SendTransactionConfig{MinContextSlot: txPtr(uint64(1 << 40))},
			code: -32016, message: "Minimum context slot has not been reached"},
		{name: "preflight failure", data: txB58(tooMuch), cfg: processed, code: -32002,
			message: "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1"},
		{name: "unknown blockhash", data: txB58(unknownHash), cfg: processed, code: -32002, message: "Transaction simulation failed: Blockhash not found"},
		{name: "skip preflight, bad signature", data: txB58(tamperedSkip), cfg: &rpcapi.SendTransactionConfig{SkipPreflight: txPtr(true)}},
		{name: "skip preflight, failing", data: txB58(failingSkip), cfg: &rpcapi.SendTransactionConfig{SkipPreflight: txPtr(true)}, executed: failingSkip, failed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sig, err := s.SendTransaction(ctx, &rpcapi.SendTransactionParams{Transaction: tc.data, Config: rpcapi.OptOf(tc.cfg)})
			if tc.code != 0 {
				e, ok := rpcapi.AsError(err)
				if !ok || e.Code != tc.code {
					t.Fatalf("got %v, want error %d", err, tc.code)
				}
				if prefix, ok := strings.CutSuffix(tc.message, "…"); ok {
					if !strings.HasPrefix(e.Message, prefix) {
						t.Fatalf("got message %q, want prefix %q", e.Message, prefix)
					}
				} else if e.Message != tc.message {
					t.Fatalf("got message %q, want %q", e.Message, tc.message)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			decoded, _ := base58.Decode(sig)
			if len(decoded) != 64 {
				t.Fatalf("got signature %q", sig)
			}
			// A status shows once the transaction's slot froze.
			txWaitConfirmed(t, l)
			st := txStatus(t, s, sig, false)
			if tc.executed == nil {
				if st != nil {
					t.Fatalf("a transaction that must not run has status %+v", st)
				}
				return
			}
			if st == nil {
				t.Fatal("the sent transaction has no status")
			}
			if (st.Err != nil) != tc.failed {
				t.Fatalf("got status err %v, want failed=%v", st.Err, tc.failed)
			}
		})
	}
}

// TestSendTransactionPreflightData checks the data of -32002: the full simulation value, with the logs clients
// show.
func TestSendTransactionPreflightData(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, 1_000_000_000)
	dest := core.KeypairFromSeed([32]byte{}).PublicKey()

	tx := core.NewTransferTx(payer, dest, 5_000_000_000, stRecentHash(l))
	_, err := s.SendTransaction(ctx, &rpcapi.SendTransactionParams{Transaction: txB58(tx),
		Config: rpcapi.Some(rpcapi.SendTransactionConfig{PreflightCommitment: txPtr(rpcapi.CommitmentProcessed)})})
	e := txWantError(t, err, -32002, "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1")
	data := txKeys(t, e.Data)
	for _, k := range []string{"err", "logs", "accounts", "unitsConsumed", "loadedAccountsDataSize", "returnData",
		"innerInstructions", "replacementBlockhash", "fee", "preBalances", "postBalances", "preTokenBalances",
		"postTokenBalances", "loadedAddresses"} {
		if _, ok := data[k]; !ok {
			t.Errorf("data lacks %q: %v", k, data)
		}
	}
	txJSONEqual(t, data["err"], `{"InstructionError":[0,{"Custom":1}]}`)
	txJSONEqual(t, data["logs"], `[
		"Program 11111111111111111111111111111111 invoke [1]",
		"Transfer: insufficient lamports 999995000, need 5000000000",
		"Program 11111111111111111111111111111111 failed: custom program error: 0x1"]`)
	for _, k := range []string{"accounts", "innerInstructions", "replacementBlockhash", "returnData"} {
		if data[k] != nil {
			t.Errorf("data.%s = %v, want null", k, data[k])
		}
	}
	// The failed transfer would still pay its fee: the payer's balance drops by it, the recipient's does not move.
	txJSONEqual(t, data["fee"], `5000`)
	txJSONEqual(t, data["preBalances"], `[1000000000,0,1]`)
	txJSONEqual(t, data["postBalances"], `[999995000,0,1]`)
	txJSONEqual(t, data["loadedAddresses"], `{"readonly":[],"writable":[]}`)

	// A signature that does not verify is the preflight's failure since the reference's 3.x line (no longer
	// -32003): SignatureFailure before anything ran, no fee, no balances.
	tampered := core.NewTransferTx(payer, dest, 1, stRecentHash(l))
	tampered.Signatures[0][1] ^= 1
	_, err = s.SendTransaction(ctx, &rpcapi.SendTransactionParams{Transaction: txB58(tampered),
		Config: rpcapi.Some(rpcapi.SendTransactionConfig{PreflightCommitment: txPtr(rpcapi.CommitmentProcessed)})})
	e = txWantError(t, err, -32002, "Transaction simulation failed: Transaction did not pass signature verification")
	txJSONEqual(t, e.Data, `{"accounts":null,"err":"SignatureFailure","fee":null,"innerInstructions":null,`+
		`"loadedAccountsDataSize":0,"loadedAddresses":null,"logs":[],"postBalances":null,`+
		`"postTokenBalances":null,"preBalances":null,"preTokenBalances":null,"replacementBlockhash":null,`+
		`"returnData":null,"unitsConsumed":0}`)

	// The reference's own example: a blockhash the bank does not know fails before anything runs: no fee, no
	// balances, no loaded addresses (null each, as kit's live test of the reference expects).
	stale := core.NewTransferTx(payer, dest, 1, core.Hash{9})
	_, err = s.SendTransaction(ctx, &rpcapi.SendTransactionParams{Transaction: txB58(stale),
		Config: rpcapi.Some(rpcapi.SendTransactionConfig{PreflightCommitment: txPtr(rpcapi.CommitmentProcessed)})})
	e = txWantError(t, err, -32002, "Transaction simulation failed: Blockhash not found")
	txJSONEqual(t, e.Data, `{"err":"BlockhashNotFound","accounts":null,"innerInstructions":null,"loadedAccountsDataSize":0,"logs":[],"replacementBlockhash":null,"returnData":null,"unitsConsumed":0,`+
		`"fee":null,"preBalances":null,"postBalances":null,"preTokenBalances":null,"postTokenBalances":null,"loadedAddresses":null}`)

	// The default preflight commitment is finalized: a payer funded a moment ago is unknown there.
	fresh := stFund(t, l, 1_000_000_000)
	tx = core.NewTransferTx(fresh, dest, 1_000_000, l.Bank(ledger.Finalized).LastBlockhash())
	_, err = s.SendTransaction(ctx, &rpcapi.SendTransactionParams{Transaction: txB58(tx)})
	txWantError(t, err, -32002, "Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.")
	waitFinalized(t, l)
	tx = core.NewTransferTx(fresh, dest, 1_000_001, l.Bank(ledger.Finalized).LastBlockhash())
	if _, err := s.SendTransaction(ctx, &rpcapi.SendTransactionParams{Transaction: txB58(tx)}); err != nil {
		t.Fatalf("finalized preflight after finality: %v", err)
	}
}

func TestSimulateTransaction(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, 1_000_000_000)
	dest := core.KeypairFromSeed([32]byte{}).PublicKey()
	stranger := core.KeypairFromSeed([32]byte{1}).PublicKey()
	hash := stRecentHash(l)
	transfer := core.NewTransferTx(payer, dest, 1_000_000, hash)
	failing := core.NewTransferTx(payer, dest, 5_000_000_000, hash)
	stale := core.NewTransferTx(payer, dest, 1_000_000, core.Hash{5})
	tampered := core.NewTransferTx(payer, dest, 1_000_000, hash)
	tampered.Signatures[0][1] ^= 1
	processed := txPtr(rpcapi.CommitmentProcessed)
	const transferLogs = `["Program 11111111111111111111111111111111 invoke [1]","Program 11111111111111111111111111111111 success"]`

	simulate := func(tx *core.Transaction, cfg *rpcapi.SimulateTransactionConfig) (rpcapi.SimulateTransactionResult, error) {
		return s.SimulateTransaction(ctx, &rpcapi.SimulateTransactionParams{Transaction: txB58(tx), Config: rpcapi.OptOf(cfg)})
	}

	t.Run("transfer", func(t *testing.T) {
		res, err := simulate(transfer, &rpcapi.SimulateTransactionConfig{Commitment: processed})
		if err != nil {
			t.Fatal(err)
		}
		v := txKeys(t, res.Value)
		if len(v) != 14 {
			t.Errorf("got keys %v, want the 14 of 3.x and later", v)
		}
		txJSONEqual(t, v["fee"], `5000`)
		txJSONEqual(t, v["preBalances"], `[1000000000,0,1]`)
		txJSONEqual(t, v["postBalances"], `[998995000,1000000,1]`)
		txJSONEqual(t, v["preTokenBalances"], `[]`)
		txJSONEqual(t, v["postTokenBalances"], `[]`)
		txJSONEqual(t, v["loadedAddresses"], `{"readonly":[],"writable":[]}`)
		txJSONEqual(t, res.Value.Logs, transferLogs)
		if res.Value.Err != nil || res.Value.UnitsConsumed != 150 || res.Value.Accounts != nil ||
			res.Value.InnerInstructions != nil || res.Value.ReplacementBlockhash != nil || res.Value.ReturnData != nil {
			t.Errorf("got value %+v", res.Value)
		}
		if res.Value.LoadedAccountsDataSize == 0 {
			t.Error("loadedAccountsDataSize is 0")
		}
		if res.Context.Slot == 0 || res.Context.ApiVersion == nil {
			t.Errorf("got context %+v", res.Context)
		}
		// Nothing was recorded.
		if st := txStatus(t, s, transfer.Signature().String(), true); st != nil {
			t.Errorf("a simulated transaction has status %+v", st)
		}
	})

	t.Run("accounts after the simulation", func(t *testing.T) {
		res, err := simulate(transfer, &rpcapi.SimulateTransactionConfig{Commitment: processed,
			Accounts: &rpcapi.SimulateTransactionConfigAccounts{Addresses: []string{dest.String(), payer.PublicKey().String(), stranger.String()}}})
		if err != nil {
			t.Fatal(err)
		}
		accts := res.Value.Accounts
		if len(accts) != 3 || accts[0] == nil || accts[1] == nil || accts[2] != nil {
			t.Fatalf("got accounts %v", txJSON(t, accts))
		}
		if accts[0].Lamports != 1_000_000 || accts[1].Lamports != 1_000_000_000-1_000_000-5000 {
			t.Errorf("got lamports %d and %d", accts[0].Lamports, accts[1].Lamports)
		}
		txJSONEqual(t, accts[0].Data, `["","base64"]`)
	})

	t.Run("accounts of a failed simulation are null", func(t *testing.T) {
		res, err := simulate(failing, &rpcapi.SimulateTransactionConfig{Commitment: processed,
			Accounts: &rpcapi.SimulateTransactionConfigAccounts{Addresses: []string{dest.String(), payer.PublicKey().String()}}})
		if err != nil {
			t.Fatal(err)
		}
		txJSONEqual(t, res.Value.Accounts, `[null,null]`)
		txJSONEqual(t, res.Value.Err, `{"InstructionError":[0,{"Custom":1}]}`)
	})

	t.Run("inner instructions", func(t *testing.T) {
		res, err := simulate(transfer, &rpcapi.SimulateTransactionConfig{Commitment: processed, InnerInstructions: txPtr(true)})
		if err != nil {
			t.Fatal(err)
		}
		txJSONEqual(t, txKeys(t, res.Value)["innerInstructions"], `[]`)
		// Nothing ran: null even when asked for.
		res, err = simulate(stale, &rpcapi.SimulateTransactionConfig{Commitment: processed, InnerInstructions: txPtr(true)})
		if err != nil {
			t.Fatal(err)
		}
		txJSONEqual(t, res.Value, `{"err":"BlockhashNotFound","accounts":null,"innerInstructions":null,"loadedAccountsDataSize":0,"logs":[],"replacementBlockhash":null,"returnData":null,"unitsConsumed":0,`+
			`"fee":null,"preBalances":null,"postBalances":null,"preTokenBalances":null,"postTokenBalances":null,"loadedAddresses":null}`)
	})

	t.Run("replace recent blockhash", func(t *testing.T) {
		txWaitConfirmed(t, l) // the payer exists at confirmed
		res, err := simulate(stale, &rpcapi.SimulateTransactionConfig{Commitment: txPtr(rpcapi.CommitmentConfirmed), ReplaceRecentBlockhash: txPtr(true)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Value.Err != nil {
			t.Fatalf("got err %v", res.Value.Err)
		}
		rb := res.Value.ReplacementBlockhash
		if rb == nil {
			t.Fatal("no replacementBlockhash")
		}
		info, found, err := l.Block(res.Context.Slot, ledger.Confirmed)
		if err != nil || !found {
			t.Fatalf("block of the context slot: %v %v", found, err)
		}
		if rb.Blockhash != info.Blockhash.String() || rb.LastValidBlockHeight != info.BlockHeight+ledger.MaxProcessingAge {
			t.Errorf("got %+v, want the bank's hash %s valid to %d", rb, info.Blockhash, info.BlockHeight+ledger.MaxProcessingAge)
		}
	})

	t.Run("signatures", func(t *testing.T) {
		if _, err := simulate(tampered, &rpcapi.SimulateTransactionConfig{Commitment: processed}); err != nil {
			t.Fatalf("without sigVerify: %v", err)
		}
		// Since the reference's 3.x line a signature that does not verify is the simulation's result, not -32003.
		res, err := simulate(tampered, &rpcapi.SimulateTransactionConfig{Commitment: processed, SigVerify: txPtr(true)})
		if err != nil {
			t.Fatalf("with sigVerify: %v", err)
		}
		txJSONEqual(t, res.Value, `{"err":"SignatureFailure","accounts":null,"innerInstructions":null,"loadedAccountsDataSize":0,"logs":[],"replacementBlockhash":null,"returnData":null,"unitsConsumed":0,`+
			`"fee":null,"preBalances":null,"postBalances":null,"preTokenBalances":null,"postTokenBalances":null,"loadedAddresses":null}`)
		_, err = simulate(transfer, &rpcapi.SimulateTransactionConfig{SigVerify: txPtr(true), ReplaceRecentBlockhash: txPtr(true)})
		txWantError(t, err, -32602, "sigVerify may not be used with replaceRecentBlockhash")
	})

	for _, tc := range []struct {
		name    string
		data    string
		cfg     *rpcapi.SimulateTransactionConfig
		code    int
		message string
	}{
		{"too many accounts", txB58(transfer), &rpcapi.SimulateTransactionConfig{Commitment: processed, Accounts: &rpcapi.SimulateTransactionConfigAccounts{
			Addresses: []string{dest.String(), dest.String(), dest.String(), dest.String()}}}, -32602, "Too many accounts provided; max 3"},
		{"base58 accounts", txB58(transfer), &rpcapi.SimulateTransactionConfig{Commitment: processed, Accounts: &rpcapi.SimulateTransactionConfigAccounts{
			Encoding: txPtr("base58"), Addresses: []string{dest.String()}}}, -32602, "base58 encoding not supported"},
		{"binary accounts", txB58(transfer), &rpcapi.SimulateTransactionConfig{Commitment: processed, Accounts: &rpcapi.SimulateTransactionConfigAccounts{
			Encoding: txPtr("binary"), Addresses: []string{dest.String()}}}, -32602, "base58 encoding not supported"},
		{"min context slot", txB58(transfer), &rpcapi.SimulateTransactionConfig{MinContextSlot: txPtr(uint64(1 << 40))}, -32016, "Minimum context slot has not been reached"},
		{"jsonParsed encoding", txB58(transfer), &rpcapi.SimulateTransactionConfig{Encoding: txPtr("jsonParsed")}, -32602,
			"unsupported encoding: jsonParsed. Supported encodings: base58, base64"},
		{"truncated", base58.Encode([]byte{0}), nil, -32602, "failed to deserialize solana_transaction::versioned::VersionedTransaction: io error: failed to fill whole buffer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.SimulateTransaction(ctx, &rpcapi.SimulateTransactionParams{Transaction: tc.data, Config: rpcapi.OptOf(tc.cfg)})
			txWantError(t, err, tc.code, tc.message)
		})
	}

	t.Run("min context slot data", func(t *testing.T) {
		_, err := simulate(transfer, &rpcapi.SimulateTransactionConfig{MinContextSlot: txPtr(uint64(1 << 40))})
		e := txWantError(t, err, -32016, "")
		if _, ok := txKeys(t, e.Data)["contextSlot"]; !ok {
			t.Errorf("got data %v", e.Data)
		}
	})

	t.Run("base64 and finalized default", func(t *testing.T) {
		// The payer was funded at processed: the finalized bank does not know it yet.
		res, err := s.SimulateTransaction(ctx, &rpcapi.SimulateTransactionParams{Transaction: txB64(transfer),
			Config: rpcapi.Some(rpcapi.SimulateTransactionConfig{Encoding: txPtr("base64"), ReplaceRecentBlockhash: txPtr(true)})})
		if err != nil {
			t.Fatal(err)
		}
		_, _, root := l.Slots()
		if res.Context.Slot > root {
			t.Errorf("context slot %d is above the root %d", res.Context.Slot, root)
		}
	})
}

func TestRequestAirdrop(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	to := core.KeypairFromSeed([32]byte{}).PublicKey()
	// ledger.Airdrop reads the processed bank's blockhash queue without its lock; start right after a slot
	// boundary so that the producer is not freezing that bank meanwhile.
	for start, _, _ := l.Slots(); ; {
		if p, _, _ := l.Slots(); p != start {
			break
		}
		time.Sleep(100 * time.Microsecond)
	}
	sig, err := s.RequestAirdrop(ctx, &rpcapi.RequestAirdropParams{Pubkey: to, Lamports: 5_000_000_000,
		Config: rpcapi.Some(rpcapi.CommitmentConfig{Commitment: txPtr(rpcapi.CommitmentConfirmed)})})
	if err != nil {
		t.Fatal(err)
	}
	txWaitConfirmed(t, l)
	if st := txStatus(t, s, sig, false); st == nil || st.Err != nil {
		t.Fatalf("got status %+v", st)
	}
	if a, ok := l.Bank(ledger.Processed).GetAccount(to); !ok || a.Lamports != 5_000_000_000 {
		t.Errorf("got account %+v", a)
	}
	_, err = s.RequestAirdrop(ctx, &rpcapi.RequestAirdropParams{Pubkey: to, Lamports: ledger.DefaultAirdropCap + 1})
	txWantError(t, err, -32603, "Internal error")
	_, err = viaJSON(s.RequestAirdrop, "abc", 1)
	txWantError(t, err, -32602, "")
}

// TestSignatureStatusLifecycle follows a signature from no status (its slot is the working bank's) to confirmed
// to finalized. The reference reads statuses from its processed bank, the newest frozen one, and answers in its
// context, so a transaction has no status until its slot froze, and ledgerd's newest frozen slot is its confirmed
// one: no status is ever "processed".
func TestSignatureStatusLifecycle(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, 1_000_000_000)
	dest := core.KeypairFromSeed([32]byte{}).PublicKey()

	// The producer freezes a slot every 10 ms: catching the transaction in the working bank may take a few tries.
	var sig string
	var seen *rpcapi.SignatureStatus
	for i := 0; i < 50 && seen == nil; i++ {
		tx := core.NewTransferTx(payer, dest, uint64(1_000_000+i), stRecentHash(l))
		sig = txSend(t, s, tx)
		ex, ok := l.SignatureStatuses([]core.Signature{tx.Signature()}, false)
		if ok != nil || ex[0] == nil {
			t.Fatalf("the ledger has no status of the sent transaction: %v", ok)
		}
		res, err := s.GetSignatureStatuses(ctx, &rpcapi.GetSignatureStatusesParams{Signatures: mustSignatures([]string{sig})})
		if err != nil {
			t.Fatal(err)
		}
		if _, confirmed, _ := l.Slots(); confirmed >= ex[0].Slot {
			continue // the slot froze meanwhile: not the window under test
		}
		if res.Value[0] != nil {
			t.Fatalf("a transaction of the working bank has a status: %v", txJSON(t, res.Value[0]))
		}
		// The answer is the newest frozen bank's, as its context says.
		if res.Context.Slot >= ex[0].Slot {
			t.Fatalf("context slot %d, want the frozen slot before the transaction's %d", res.Context.Slot, ex[0].Slot)
		}
		seen = &rpcapi.SignatureStatus{Slot: ex[0].Slot}
	}
	if seen == nil {
		t.Fatal("never caught a transaction in the working bank")
	}

	txWaitConfirmed(t, l)
	if st := txStatus(t, s, sig, false); st == nil || *st.ConfirmationStatus == "processed" || (st.Confirmations == nil) != (*st.ConfirmationStatus == "finalized") {
		t.Fatalf("after confirmation: %v", txJSON(t, st))
	} else if *st.ConfirmationStatus == "confirmed" && (*st.Confirmations < 1 || st.Slot != seen.Slot) {
		t.Fatalf("confirmed status %v", txJSON(t, st))
	}

	waitFinalized(t, l)
	for _, history := range []bool{false, true} {
		st := txStatus(t, s, sig, history)
		txJSONEqual(t, st, `{"slot":`+itoaU(seen.Slot)+`,"confirmations":null,"status":{"Ok":null},"err":null,"confirmationStatus":"finalized"}`)
	}

	// A failed transaction carries its error in both forms.
	failing := core.NewTransferTx(payer, dest, 5_000_000_000, stRecentHash(l))
	failSig, err := s.SendTransaction(ctx, &rpcapi.SendTransactionParams{Transaction: txB58(failing),
		Config: rpcapi.Some(rpcapi.SendTransactionConfig{SkipPreflight: txPtr(true)})})
	if err != nil {
		t.Fatal(err)
	}
	txWaitConfirmed(t, l)
	st := txStatus(t, s, failSig, false)
	if st == nil {
		t.Fatal("no status of the failed transaction once its slot froze")
	}
	txJSONEqual(t, st.Err, `{"InstructionError":[0,{"Custom":1}]}`)
	txJSONEqual(t, st.Status, `{"Err":{"InstructionError":[0,{"Custom":1}]}}`)

	unknown := core.Signature{1}.String()
	res, err := s.GetSignatureStatuses(ctx, &rpcapi.GetSignatureStatusesParams{Signatures: mustSignatures([]string{unknown, sig}),
		Config: rpcapi.Some(rpcapi.GetSignatureStatusesConfig{SearchTransactionHistory: true})})
	if err != nil {
		t.Fatal(err)
	}
	if res.Value[0] != nil || res.Value[1] == nil {
		t.Errorf("got %v", txJSON(t, res.Value))
	}

	many := make([]string, 257)
	for i := range many {
		many[i] = unknown
	}
	_, err = viaJSON(s.GetSignatureStatuses, many)
	txWantError(t, err, -32602, "Too many inputs provided; max 256")
	_, err = viaJSON(s.GetSignatureStatuses, []string{"bad"})
	txWantError(t, err, -32602, "Invalid param: WrongSize")
}

func itoaU(v uint64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestGetSignaturesForAddress(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, 10_000_000_000)
	dest := core.KeypairFromSeed([32]byte{}).PublicKey()

	// Five transactions mention dest, oldest first; the third also carries a memo.
	var sigs []string
	for i := range 5 {
		ixs := []core.Instruction{core.TransferInstruction(payer.PublicKey(), dest, uint64(1_000_000+i))}
		if i == 2 {
			ixs = append(ixs, memo.Instruction("hello memo", payer.PublicKey()))
		}
		tx, err := core.NewTransaction(payer.PublicKey(), ixs, stRecentHash(l), payer)
		if err != nil {
			t.Fatal(err)
		}
		sigs = append(sigs, txSend(t, s, tx))
	}
	waitFinalized(t, l)

	get := func(cfg *rpcapi.GetSignaturesForAddressConfig) []rpcapi.ConfirmedSignatureInfo {
		t.Helper()
		res, err := s.GetSignaturesForAddress(ctx, &rpcapi.GetSignaturesForAddressParams{Address: dest, Config: rpcapi.OptOf(cfg)})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	sigsOf := func(infos []rpcapi.ConfirmedSignatureInfo) []string {
		out := make([]string, len(infos))
		for i, info := range infos {
			out[i] = info.Signature
		}
		return out
	}
	newestFirst := []string{sigs[4], sigs[3], sigs[2], sigs[1], sigs[0]}

	all := get(nil)
	if got := sigsOf(all); !reflect.DeepEqual(got, newestFirst) {
		t.Fatalf("got %v, want %v", got, newestFirst)
	}
	for i, info := range all {
		if *info.ConfirmationStatus != "finalized" || info.Err != nil || info.BlockTime == nil {
			t.Errorf("entry %d: %v", i, txJSON(t, info))
		}
		wantMemo := info.Signature == sigs[2]
		if (info.Memo != nil) != wantMemo {
			t.Errorf("entry %d memo %v", i, info.Memo)
		}
	}
	if m := all[2].Memo; m == nil || *m != "[10] hello memo" {
		t.Errorf("got memo %v, want [10] hello memo", m)
	}
	if keys := txKeys(t, all[0]); len(keys) != 6 {
		t.Errorf("got keys %v", keys)
	}

	for _, tc := range []struct {
		name string
		cfg  *rpcapi.GetSignaturesForAddressConfig
		want []string
	}{
		{"limit", &rpcapi.GetSignaturesForAddressConfig{Limit: txPtr(uint64(2))}, newestFirst[:2]},
		{"before", &rpcapi.GetSignaturesForAddressConfig{Before: &sigs[3], Limit: txPtr(uint64(2))}, newestFirst[2:4]},
		{"until", &rpcapi.GetSignaturesForAddressConfig{Until: &sigs[1]}, newestFirst[:3]},
		{"before and until", &rpcapi.GetSignaturesForAddressConfig{Before: &sigs[4], Until: &sigs[0]}, newestFirst[1:4]},
		{"confirmed", &rpcapi.GetSignaturesForAddressConfig{Commitment: txPtr(rpcapi.CommitmentConfirmed)}, newestFirst},
		{"unknown before", &rpcapi.GetSignaturesForAddressConfig{Before: txPtr(core.Signature{1}.String())}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sigsOf(get(tc.cfg)); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}

	// Paging with before walks the whole list.
	var paged []string
	var before *string
	for {
		page := get(&rpcapi.GetSignaturesForAddressConfig{Limit: txPtr(uint64(2)), Before: before})
		if len(page) == 0 {
			break
		}
		paged = append(paged, sigsOf(page)...)
		before = &page[len(page)-1].Signature
	}
	if !reflect.DeepEqual(paged, newestFirst) {
		t.Errorf("paged %v, want %v", paged, newestFirst)
	}

	for _, tc := range []struct {
		name    string
		cfg     *rpcapi.GetSignaturesForAddressConfig
		code    int
		message string
	}{
		{"limit 0", &rpcapi.GetSignaturesForAddressConfig{Limit: txPtr(uint64(0))}, -32602, "Invalid limit; max 1000"},
		{"limit 1001", &rpcapi.GetSignaturesForAddressConfig{Limit: txPtr(uint64(1001))}, -32602, "Invalid limit; max 1000"},
		{"processed", &rpcapi.GetSignaturesForAddressConfig{Commitment: txPtr(rpcapi.CommitmentProcessed)}, -32602, "Method does not support commitment below `confirmed`"},
		{"min context slot", &rpcapi.GetSignaturesForAddressConfig{MinContextSlot: txPtr(uint64(1 << 40))}, -32016, "Minimum context slot has not been reached"},
		{"bad before", &rpcapi.GetSignaturesForAddressConfig{Before: txPtr("xyz")}, -32602, "Invalid param: WrongSize"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.GetSignaturesForAddress(ctx, &rpcapi.GetSignaturesForAddressParams{Address: dest, Config: rpcapi.OptOf(tc.cfg)})
			txWantError(t, err, tc.code, tc.message)
		})
	}

	t.Run("deprecated form", func(t *testing.T) {
		res, err := s.GetConfirmedSignaturesForAddress2(ctx, &rpcapi.GetConfirmedSignaturesForAddress2Params{Address: dest,
			Config: rpcapi.Some(rpcapi.GetConfirmedSignaturesForAddress2Config{Limit: txPtr(uint64(3))})})
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 3 || res[0].Signature != sigs[4] || res[2].Memo == nil {
			t.Fatalf("got %v", txJSON(t, res))
		}
		keys := txKeys(t, res[0])
		if _, ok := keys["confirmationStatus"]; ok || len(keys) != 5 {
			t.Errorf("got keys %v", keys)
		}
	})

	t.Run("a transaction confirmed but not yet finalized", func(t *testing.T) {
		tx := core.NewTransferTx(payer, dest, 7_777, stRecentHash(l))
		sig := txSend(t, s, tx)
		txWaitConfirmed(t, l)
		got := get(&rpcapi.GetSignaturesForAddressConfig{Commitment: txPtr(rpcapi.CommitmentConfirmed), Limit: txPtr(uint64(1))})
		_, _, root := l.Slots()
		if len(got) != 1 || got[0].Signature != sig {
			t.Fatalf("got %v", txJSON(t, got))
		}
		// The root only grows: a slot above it now was above it during the call.
		if got[0].Slot > root && *got[0].ConfirmationStatus != "confirmed" {
			t.Errorf("slot %d above the root %d is %s, want confirmed", got[0].Slot, root, *got[0].ConfirmationStatus)
		}
	})
}

func TestGetTransaction(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, 1_000_000_000)
	dest := core.KeypairFromSeed([32]byte{}).PublicKey()
	tx := core.NewTransferTx(payer, dest, 1_000_000, stRecentHash(l))
	sig := txSend(t, s, tx)

	get := func(cfg *rpcapi.GetTransactionConfig) (rpcapi.GetTransactionResult, error) {
		return s.GetTransaction(ctx, &rpcapi.GetTransactionParams{Signature: core.MustParseSignature(sig), Config: rpcapi.OptOf(cfg)})
	}
	confirmed := func(enc rpcapi.TransactionEncoding, maxVersion *uint8) *rpcapi.GetTransactionConfig {
		return &rpcapi.GetTransactionConfig{Config: &rpcapi.TransactionConfig{Commitment: txPtr(rpcapi.CommitmentConfirmed), Encoding: &enc, MaxSupportedTransactionVersion: maxVersion}}
	}

	txWaitConfirmed(t, l)
	res, err := get(confirmed("json", nil))
	if err != nil || res == nil {
		t.Fatalf("got %v, %v", res, err)
	}
	st := txStatus(t, s, sig, false)
	got := txKeys(t, res)
	if _, ok := got["version"]; ok || len(got) != 4 || res.Slot != st.Slot || res.BlockTime == nil {
		t.Errorf("got %v", got)
	}
	txJSONEqual(t, got["transaction"], `{"signatures":["`+sig+`"],"message":{
		"header":{"numRequiredSignatures":1,"numReadonlySignedAccounts":0,"numReadonlyUnsignedAccounts":1},
		"accountKeys":["`+payer.PublicKey().String()+`","`+dest.String()+`","11111111111111111111111111111111"],
		"recentBlockhash":"`+tx.Message.RecentBlockhash.String()+`",
		"instructions":[{"programIdIndex":2,"accounts":[0,1],"data":"`+base58.Encode(tx.Message.Instructions[0].Data)+`","stackHeight":null}]}}`)
	txJSONEqual(t, got["meta"], `{"err":null,"status":{"Ok":null},"fee":5000,
		"preBalances":[1000000000,0,1],"postBalances":[998995000,1000000,1],
		"innerInstructions":[],"logMessages":["Program 11111111111111111111111111111111 invoke [1]","Program 11111111111111111111111111111111 success"],
		"preTokenBalances":[],"postTokenBalances":[],"rewards":[],"loadedAddresses":{"writable":[],"readonly":[]},
		"computeUnitsConsumed":150}`)

	t.Run("version", func(t *testing.T) {
		res, err := get(confirmed("json", txPtr(uint8(0))))
		if err != nil {
			t.Fatal(err)
		}
		txJSONEqual(t, txKeys(t, res)["version"], `"legacy"`)
	})
	t.Run("base64", func(t *testing.T) {
		res, err := get(confirmed("base64", nil))
		if err != nil {
			t.Fatal(err)
		}
		txJSONEqual(t, res.Transaction, `["`+txB64(tx)+`","base64"]`)
	})
	t.Run("base58 bare encoding", func(t *testing.T) {
		waitFinalized(t, l)
		enc := rpcapi.TransactionEncodingBase58
		res, err := get(&rpcapi.GetTransactionConfig{Encoding: &enc})
		if err != nil || res == nil {
			t.Fatalf("got %v, %v", res, err)
		}
		txJSONEqual(t, res.Transaction, `["`+txB58(tx)+`","base58"]`)
	})
	t.Run("jsonParsed", func(t *testing.T) {
		res, err := get(confirmed("jsonParsed", nil))
		if err != nil {
			t.Fatal(err)
		}
		msg := txKeys(t, res.Transaction.Json.Message)
		txJSONEqual(t, msg["instructions"], `[{"program":"system","programId":"11111111111111111111111111111111",
			"parsed":{"type":"transfer","info":{"source":"`+payer.PublicKey().String()+`","destination":"`+dest.String()+`","lamports":1000000}},
			"stackHeight":null}]`)
		if _, ok := txKeys(t, res.Meta)["loadedAddresses"]; ok {
			t.Error("jsonParsed meta carries loadedAddresses")
		}
	})
	t.Run("deprecated form", func(t *testing.T) {
		res, err := s.GetConfirmedTransaction(ctx, &rpcapi.GetConfirmedTransactionParams{Signature: core.MustParseSignature(sig)})
		if err != nil || res == nil {
			t.Fatalf("got %v, %v", res, err)
		}
		meta := txKeys(t, res.Meta)
		for _, k := range []string{"rewards", "loadedAddresses", "returnData"} {
			if _, ok := meta[k]; ok {
				t.Errorf("meta carries %s", k)
			}
		}
		if _, ok := meta["logMessages"]; !ok {
			t.Error("meta lacks logMessages")
		}
	})
	t.Run("errors and null", func(t *testing.T) {
		_, err := get(&rpcapi.GetTransactionConfig{Config: &rpcapi.TransactionConfig{Commitment: txPtr(rpcapi.CommitmentProcessed)}})
		txWantError(t, err, -32602, "Method does not support commitment below `confirmed`")
		res, err := s.GetTransaction(ctx, &rpcapi.GetTransactionParams{Signature: core.Signature{3}})
		if err != nil || res != nil {
			t.Fatalf("unknown signature: %v, %v", res, err)
		}
		_, err = viaJSON(s.GetTransaction, "0")
		txWantError(t, err, -32602, "Invalid param: Invalid")
	})

	t.Run("not yet finalized is null at finalized", func(t *testing.T) {
		fresh := core.NewTransferTx(payer, dest, 2_000_000, stRecentHash(l))
		freshSig := txSend(t, s, fresh)
		res, err := s.GetTransaction(ctx, &rpcapi.GetTransactionParams{Signature: core.MustParseSignature(freshSig)})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, root := l.Slots(); res != nil && res.Slot > root {
			t.Fatalf("got a transaction above the root at finalized: %v", txJSON(t, res))
		}
		waitFinalized(t, l)
		if res, err = s.GetTransaction(ctx, &rpcapi.GetTransactionParams{Signature: core.MustParseSignature(freshSig)}); err != nil || res == nil {
			t.Fatalf("after finality: %v, %v", res, err)
		}
	})

	t.Run("version 0", func(t *testing.T) {
		v0 := txSendV0(t, s, l, payer, dest)
		txWaitConfirmed(t, l)
		_, err := s.GetTransaction(ctx, &rpcapi.GetTransactionParams{Signature: core.MustParseSignature(v0), Config: rpcapi.OptOf(confirmed("json", nil))})
		txWantError(t, err, -32015, `Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0`)
		res, err := s.GetTransaction(ctx, &rpcapi.GetTransactionParams{Signature: core.MustParseSignature(v0), Config: rpcapi.OptOf(confirmed("json", txPtr(uint8(0))))})
		if err != nil {
			t.Fatal(err)
		}
		keys := txKeys(t, res)
		txJSONEqual(t, keys["version"], `0`)
		txJSONEqual(t, txKeys(t, keys["transaction"])["message"].(map[string]any)["addressTableLookups"], `[]`)
		_, err = s.GetConfirmedTransaction(ctx, &rpcapi.GetConfirmedTransactionParams{Signature: core.MustParseSignature(v0),
			Config: rpcapi.Some(rpcapi.GetConfirmedTransactionConfig{Config: &rpcapi.ConfirmedTransactionConfig{Commitment: txPtr(rpcapi.CommitmentConfirmed)}})})
		txWantError(t, err, -32015, "")
	})
}

// txSendV0 sends a version-0 transfer (without lookup tables, which this ledger does not have yet).
func txSendV0(t *testing.T, s *Server, l *ledger.Ledger, payer core.Keypair, dest core.Pubkey) string {
	t.Helper()
	m, err := core.CompileV0Message(payer.PublicKey(), []core.Instruction{core.TransferInstruction(payer.PublicKey(), dest, 3_333)}, nil, stRecentHash(l))
	if err != nil {
		t.Fatal(err)
	}
	tx, err := core.NewSignedTransaction(m, payer)
	if err != nil {
		t.Fatal(err)
	}
	return txSend(t, s, tx)
}
