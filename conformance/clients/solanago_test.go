package clients

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gagliardetto/solana-go"
	"github.com/gagliardetto/solana-go/programs/system"
	"github.com/gagliardetto/solana-go/rpc"
	"github.com/gagliardetto/solana-go/rpc/jsonrpc"
	"github.com/gagliardetto/solana-go/rpc/ws"
)

// The developer flow of the web3.js scenario, through github.com/gagliardetto/solana-go: its rpc client over HTTP, its
// rpc/ws client for subscriptions, and its system program and transaction builders.

const (
	// sgWait bounds every call and every wait for a confirmation or a notification.
	sgWait = 20 * time.Second

	sgLamportsPerSignature = 5000
	sgRentExemptEmpty      = 890880
	// sgBuiltinUnits is what a system transfer (any instruction of a builtin program) consumes.
	sgBuiltinUnits = 150
	// sgPreflightFailure is the JSON-RPC code of a sendTransaction whose preflight simulation fails.
	sgPreflightFailure = -32002
)

var sgTransferLogs = []string{
	"Program 11111111111111111111111111111111 invoke [1]",
	"Program 11111111111111111111111111111111 success",
}

// sgScenario carries the state one step leaves to the next.
type sgScenario struct {
	rpc *rpc.Client
	ws  *ws.Client

	payer     solana.PrivateKey
	recipient solana.PrivateKey
	balance   uint64 // the payer's expected balance
	received  uint64 // the recipient's expected balance

	transfer    solana.Signature // the first transfer
	transferAt  uint64           // its slot
	transferTx  *solana.Transaction
	preTransfer uint64 // the payer's balance before it
}

// TestSolanaGo runs the solana-go scenario against a ledgerd binary started for the test.
func TestSolanaGo(t *testing.T) {
	n := startNode(t, buildNode(t))

	ctx, cancel := context.WithTimeout(t.Context(), sgWait)
	wsClient, err := ws.Connect(ctx, n.wsURL)
	cancel()
	if err != nil {
		t.Fatalf("ws.Connect(%s): %v", n.wsURL, err)
	}
	// Registered after startNode's cleanup, so it runs first: the socket closes before the node stops.
	t.Cleanup(wsClient.Close)

	s := &sgScenario{
		rpc:       rpc.New(n.httpURL),
		ws:        wsClient,
		payer:     solana.NewWallet().PrivateKey,
		recipient: solana.NewWallet().PrivateKey,
	}
	steps := []struct {
		name string
		run  func(context.Context, *testing.T)
	}{
		{"GetVersion", s.getVersion},
		{"GetSlot_GetEpochInfo_GetLatestBlockhash", s.clock},
		{"GetMinimumBalanceForRentExemption", s.rentExemption},
		{"RequestAirdrop_confirmed_by_polling_GetBalance", s.airdrop},
		{"GetAccountInfo_GetMultipleAccounts", s.accounts},
		{"SendTransaction_transfer_SignatureSubscribe_AccountSubscribe", s.sendTransfer},
		{"SendTransactionWithOpts_transfer", s.sendTransferWithOpts},
		{"GetTransaction", s.getTransaction},
		{"GetBlockWithOpts", s.getBlock},
		{"GetSignaturesForAddress", s.signaturesForAddress},
		{"SimulateTransaction", s.simulate},
		{"preflight_failure_-32002_with_logs", s.overdraft},
		{"v0_transfer", s.v0Transfer},
	}
	for _, step := range steps {
		ok := t.Run(step.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), sgWait)
			defer cancel()
			step.run(ctx, t)
		})
		if !ok {
			t.Fatalf("step %s failed; the later steps depend on it", step.name)
		}
	}
}

func (s *sgScenario) getVersion(ctx context.Context, t *testing.T) {
	v, err := s.rpc.GetVersion(ctx)
	if err != nil {
		t.Fatalf("GetVersion: %v", err)
	}
	if !regexp.MustCompile(`^\d+\.\d+\.\d+`).MatchString(v.SolanaCore) {
		t.Errorf("GetVersion: solana-core %q is not a semantic version", v.SolanaCore)
	}
	if v.FeatureSet > 1<<32-1 {
		t.Errorf("GetVersion: feature-set %d does not fit in a u32", v.FeatureSet)
	}
}

func (s *sgScenario) clock(ctx context.Context, t *testing.T) {
	slot, err := s.rpc.GetSlot(ctx, rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatalf("GetSlot: %v", err)
	}
	height, err := s.rpc.GetBlockHeight(ctx, rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatalf("GetBlockHeight: %v", err)
	}
	if height > slot {
		t.Errorf("block height %d > slot %d", height, slot)
	}
	epoch, err := s.rpc.GetEpochInfo(ctx, rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatalf("GetEpochInfo: %v", err)
	}
	if epoch.SlotIndex >= epoch.SlotsInEpoch {
		t.Errorf("GetEpochInfo: slotIndex %d >= slotsInEpoch %d", epoch.SlotIndex, epoch.SlotsInEpoch)
	}
	if epoch.AbsoluteSlot < slot {
		t.Errorf("GetEpochInfo: absoluteSlot %d < the slot %d read before", epoch.AbsoluteSlot, slot)
	}
	if epoch.BlockHeight < height {
		t.Errorf("GetEpochInfo: blockHeight %d < the block height %d read before", epoch.BlockHeight, height)
	}
	latest, err := s.rpc.GetLatestBlockhash(ctx, rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatalf("GetLatestBlockhash: %v", err)
	}
	if latest.Value == nil || latest.Value.Blockhash.IsZero() {
		t.Fatalf("GetLatestBlockhash: no blockhash in %+v", latest)
	}
	if latest.Value.LastValidBlockHeight <= height {
		t.Errorf("GetLatestBlockhash: lastValidBlockHeight %d <= block height %d", latest.Value.LastValidBlockHeight, height)
	}
	if latest.Context.Slot < slot {
		t.Errorf("GetLatestBlockhash: context slot %d < the slot %d read before", latest.Context.Slot, slot)
	}
}

func (s *sgScenario) rentExemption(ctx context.Context, t *testing.T) {
	got, err := s.rpc.GetMinimumBalanceForRentExemption(ctx, 0, "")
	if err != nil {
		t.Fatalf("GetMinimumBalanceForRentExemption(0): %v", err)
	}
	if got != sgRentExemptEmpty {
		t.Errorf("GetMinimumBalanceForRentExemption(0) = %d, want %d", got, sgRentExemptEmpty)
	}
}

func (s *sgScenario) airdrop(ctx context.Context, t *testing.T) {
	const amount = 2 * solana.LAMPORTS_PER_SOL
	sig, err := s.rpc.RequestAirdrop(ctx, s.payer.PublicKey(), amount, rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatalf("RequestAirdrop: %v", err)
	}
	// Finalized, so that a preflight at the default (finalized) commitment sees the airdrop.
	sgWaitStatus(ctx, t, s.rpc, sig, rpc.ConfirmationStatusFinalized)
	s.balance = amount
	s.checkBalance(ctx, t, s.payer.PublicKey(), s.balance, "the payer after the airdrop")
}

func (s *sgScenario) accounts(ctx context.Context, t *testing.T) {
	info, err := s.rpc.GetAccountInfoWithOpts(ctx, s.payer.PublicKey(), &rpc.GetAccountInfoOpts{Commitment: rpc.CommitmentConfirmed})
	if err != nil {
		t.Fatalf("GetAccountInfo(payer): %v", err)
	}
	acc := info.Value
	if acc == nil {
		t.Fatal("GetAccountInfo(payer): no account")
	}
	if acc.Lamports != s.balance {
		t.Errorf("GetAccountInfo: lamports %d, want %d", acc.Lamports, s.balance)
	}
	if !acc.Owner.Equals(solana.SystemProgramID) {
		t.Errorf("GetAccountInfo: owner %s, want the system program", acc.Owner)
	}
	if acc.Executable {
		t.Error("GetAccountInfo: a wallet is executable")
	}
	if len(info.GetBinary()) != 0 || acc.Space != 0 {
		t.Errorf("GetAccountInfo: %d data bytes, space %d; want none", len(info.GetBinary()), acc.Space)
	}
	maxU64 := new(big.Int).SetUint64(^uint64(0))
	if acc.RentEpoch == nil || acc.RentEpoch.Cmp(maxU64) != 0 {
		t.Errorf("GetAccountInfo: rentEpoch %v, want u64::MAX", acc.RentEpoch)
	}

	missing := solana.NewWallet().PublicKey()
	multi, err := s.rpc.GetMultipleAccounts(ctx, s.payer.PublicKey(), missing)
	if err != nil {
		t.Fatalf("GetMultipleAccounts: %v", err)
	}
	if len(multi.Value) != 2 {
		t.Fatalf("GetMultipleAccounts: %d values for 2 keys", len(multi.Value))
	}
	// The default (finalized) commitment: the airdrop was waited for until finalized.
	if multi.Value[0] == nil || multi.Value[0].Lamports != s.balance {
		t.Errorf("GetMultipleAccounts[0] = %+v, want the payer with %d lamports", multi.Value[0], s.balance)
	}
	if multi.Value[1] != nil {
		t.Errorf("GetMultipleAccounts[1] = %+v, want null for a missing account", multi.Value[1])
	}
}

// sendTransfer sends a transfer with SendTransaction (preflight at the default commitment), with a signatureSubscribe
// and an accountSubscribe on the recipient opened before it is sent.
func (s *sgScenario) sendTransfer(ctx context.Context, t *testing.T) {
	const amount = solana.LAMPORTS_PER_SOL / 10
	tx, _ := s.buildTransfer(ctx, t, s.payer, s.recipient.PublicKey(), amount)
	sig := tx.Signatures[0]

	sigSub, err := s.ws.SignatureSubscribe(sig, rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatalf("SignatureSubscribe: %v", err)
	}
	defer sigSub.Unsubscribe()
	accSub, err := s.ws.AccountSubscribe(s.recipient.PublicKey(), rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatalf("AccountSubscribe(recipient): %v", err)
	}
	defer accSub.Unsubscribe()

	got, err := s.rpc.SendTransaction(ctx, tx)
	if err != nil {
		t.Fatalf("SendTransaction: %v", err)
	}
	if got != sig {
		t.Fatalf("SendTransaction returned %s, not the first signature %s", got, sig)
	}

	res, err := sigSub.Recv(ctx)
	if err != nil {
		t.Fatalf("SignatureSubscribe: no notification within %v: %v", sgWait, err)
	}
	if res.Value.Err != nil {
		t.Fatalf("SignatureSubscribe: the transfer failed: %v", res.Value.Err)
	}
	if res.Context.Slot == 0 {
		t.Error("SignatureSubscribe: notification context slot 0")
	}

	acc, err := accSub.Recv(ctx)
	if err != nil {
		t.Fatalf("AccountSubscribe: no notification within %v: %v", sgWait, err)
	}
	if acc.Value == nil || acc.Value.Lamports != amount {
		t.Fatalf("AccountSubscribe: recipient %+v, want %d lamports", acc.Value, amount)
	}
	if !acc.Value.Owner.Equals(solana.SystemProgramID) {
		t.Errorf("AccountSubscribe: owner %s, want the system program", acc.Value.Owner)
	}

	status := sgWaitStatus(ctx, t, s.rpc, sig, rpc.ConfirmationStatusConfirmed)
	s.transfer, s.transferAt, s.transferTx, s.preTransfer = sig, status.Slot, tx, s.balance
	s.balance -= amount + sgLamportsPerSignature
	s.received += amount
	s.checkBalance(ctx, t, s.payer.PublicKey(), s.balance, "the payer after the transfer (amount + a 5000 fee)")
	s.checkBalance(ctx, t, s.recipient.PublicKey(), s.received, "the recipient after the transfer")
}

// sendTransferWithOpts sends a transfer with SendTransactionWithOpts (preflight on, at confirmed) and polls
// GetSignatureStatuses until it is confirmed.
func (s *sgScenario) sendTransferWithOpts(ctx context.Context, t *testing.T) {
	const amount = 12345
	tx, _ := s.buildTransfer(ctx, t, s.payer, s.recipient.PublicKey(), amount)
	sig, err := s.rpc.SendTransactionWithOpts(ctx, tx, rpc.TransactionOpts{
		SkipPreflight:       false,
		PreflightCommitment: rpc.CommitmentConfirmed,
	})
	if err != nil {
		t.Fatalf("SendTransactionWithOpts: %v", err)
	}
	if sig != tx.Signatures[0] {
		t.Fatalf("SendTransactionWithOpts returned %s, not the first signature %s", sig, tx.Signatures[0])
	}
	sgWaitStatus(ctx, t, s.rpc, sig, rpc.ConfirmationStatusConfirmed)
	s.balance -= amount + sgLamportsPerSignature
	s.received += amount
	s.checkBalance(ctx, t, s.payer.PublicKey(), s.balance, "the payer after the second transfer")
	s.checkBalance(ctx, t, s.recipient.PublicKey(), s.received, "the recipient after the second transfer")
}

func (s *sgScenario) getTransaction(ctx context.Context, t *testing.T) {
	got, err := s.rpc.GetTransaction(ctx, s.transfer, &rpc.GetTransactionOpts{
		Commitment:                     rpc.CommitmentConfirmed,
		MaxSupportedTransactionVersion: &rpc.MaxSupportedTransactionVersion0,
	})
	if err != nil {
		t.Fatalf("GetTransaction: %v", err)
	}
	if got.Slot != s.transferAt {
		t.Errorf("GetTransaction: slot %d, want %d (from getSignatureStatuses)", got.Slot, s.transferAt)
	}
	if got.Version != rpc.LegacyTransactionVersion {
		t.Errorf("GetTransaction: version %d, want legacy", got.Version)
	}
	if got.Transaction == nil {
		t.Fatal("GetTransaction: no transaction")
	}
	tx, err := got.Transaction.GetTransaction()
	if err != nil || tx == nil {
		t.Fatalf("GetTransaction: the json transaction does not decode: %v", err)
	}
	if len(tx.Signatures) != 1 || tx.Signatures[0] != s.transfer {
		t.Errorf("GetTransaction: signatures %v, want [%s]", tx.Signatures, s.transfer)
	}
	if tx.Message.RecentBlockhash != s.transferTx.Message.RecentBlockhash {
		t.Errorf("GetTransaction: recentBlockhash %s, want %s", tx.Message.RecentBlockhash, s.transferTx.Message.RecentBlockhash)
	}
	wantKeys := solana.PublicKeySlice{s.payer.PublicKey(), s.recipient.PublicKey(), solana.SystemProgramID}
	if !slices.Equal(tx.Message.AccountKeys, wantKeys) {
		t.Errorf("GetTransaction: account keys %v, want %v", tx.Message.AccountKeys, wantKeys)
	}
	if tx.Message.Header != s.transferTx.Message.Header {
		t.Errorf("GetTransaction: header %+v, want %+v", tx.Message.Header, s.transferTx.Message.Header)
	}

	meta := got.Meta
	if meta == nil {
		t.Fatal("GetTransaction: no meta")
	}
	if meta.Err != nil {
		t.Errorf("GetTransaction: meta.err %v, want null", meta.Err)
	}
	if meta.Fee != sgLamportsPerSignature {
		t.Errorf("GetTransaction: meta.fee %d, want %d", meta.Fee, sgLamportsPerSignature)
	}
	const amount = solana.LAMPORTS_PER_SOL / 10
	if len(meta.PreBalances) != 3 || len(meta.PostBalances) != 3 {
		t.Fatalf("GetTransaction: pre/post balances %v %v, want 3 each", meta.PreBalances, meta.PostBalances)
	}
	if meta.PreBalances[0] != s.preTransfer || meta.PreBalances[1] != 0 {
		t.Errorf("GetTransaction: preBalances %v, want [%d 0 ...]", meta.PreBalances, s.preTransfer)
	}
	if meta.PostBalances[0] != s.preTransfer-amount-sgLamportsPerSignature || meta.PostBalances[1] != amount {
		t.Errorf("GetTransaction: postBalances %v, want [%d %d ...]", meta.PostBalances, s.preTransfer-amount-sgLamportsPerSignature, amount)
	}
	if !slices.Equal(meta.LogMessages, sgTransferLogs) {
		t.Errorf("GetTransaction: logMessages %q, want %q", meta.LogMessages, sgTransferLogs)
	}
	if meta.ComputeUnitsConsumed == nil || *meta.ComputeUnitsConsumed != sgBuiltinUnits {
		t.Errorf("GetTransaction: computeUnitsConsumed %v, want %d", sgDeref(meta.ComputeUnitsConsumed), sgBuiltinUnits)
	}
	if meta.InnerInstructions == nil || len(meta.InnerInstructions) != 0 {
		t.Errorf("GetTransaction: innerInstructions %v, want []", meta.InnerInstructions)
	}
}

func (s *sgScenario) getBlock(ctx context.Context, t *testing.T) {
	noRewards := false
	block, err := s.rpc.GetBlockWithOpts(ctx, s.transferAt, &rpc.GetBlockOpts{
		Commitment:                     rpc.CommitmentConfirmed,
		MaxSupportedTransactionVersion: &rpc.MaxSupportedTransactionVersion0,
	})
	if err != nil {
		t.Fatalf("GetBlockWithOpts(%d): %v", s.transferAt, err)
	}
	if block.Blockhash.IsZero() || block.PreviousBlockhash.IsZero() {
		t.Errorf("GetBlock: blockhash %s, previousBlockhash %s", block.Blockhash, block.PreviousBlockhash)
	}
	if block.ParentSlot >= s.transferAt {
		t.Errorf("GetBlock: parentSlot %d >= slot %d", block.ParentSlot, s.transferAt)
	}
	if block.BlockHeight == nil {
		t.Error("GetBlock: no blockHeight")
	}
	found := false
	for i, entry := range block.Transactions {
		tx, err := entry.GetTransaction()
		if err != nil {
			t.Fatalf("GetBlock: transaction %d (base64) does not decode: %v", i, err)
		}
		if len(tx.Signatures) == 0 || tx.Signatures[0] != s.transfer {
			continue
		}
		found = true
		if entry.Meta == nil || entry.Meta.Fee != sgLamportsPerSignature {
			t.Errorf("GetBlock: the transfer's meta %+v, want fee %d", entry.Meta, sgLamportsPerSignature)
		}
		if entry.Version != rpc.LegacyTransactionVersion {
			t.Errorf("GetBlock: the transfer's version %d, want legacy", entry.Version)
		}
		if tx.Message.RecentBlockhash != s.transferTx.Message.RecentBlockhash {
			t.Errorf("GetBlock: the transfer's blockhash %s, want %s", tx.Message.RecentBlockhash, s.transferTx.Message.RecentBlockhash)
		}
	}
	if !found {
		t.Errorf("GetBlock(%d): the transfer %s is not among its %d transactions", s.transferAt, s.transfer, len(block.Transactions))
	}

	sigs, err := s.rpc.GetBlockWithOpts(ctx, s.transferAt, &rpc.GetBlockOpts{
		Commitment:                     rpc.CommitmentConfirmed,
		MaxSupportedTransactionVersion: &rpc.MaxSupportedTransactionVersion0,
		TransactionDetails:             rpc.TransactionDetailsSignatures,
		Rewards:                        &noRewards,
	})
	if err != nil {
		t.Fatalf("GetBlockWithOpts(%d, signatures): %v", s.transferAt, err)
	}
	if !slices.Contains(sigs.Signatures, s.transfer) {
		t.Errorf("GetBlock(signatures): %v does not hold the transfer %s", sigs.Signatures, s.transfer)
	}
	if sigs.Blockhash != block.Blockhash {
		t.Errorf("GetBlock(signatures): blockhash %s, want %s", sigs.Blockhash, block.Blockhash)
	}
}

func (s *sgScenario) signaturesForAddress(ctx context.Context, t *testing.T) {
	limit := 10
	for _, who := range []solana.PublicKey{s.payer.PublicKey(), s.recipient.PublicKey()} {
		list, err := s.rpc.GetSignaturesForAddressWithOpts(ctx, who, &rpc.GetSignaturesForAddressOpts{
			Limit:      &limit,
			Commitment: rpc.CommitmentConfirmed,
		})
		if err != nil {
			t.Fatalf("GetSignaturesForAddress(%s): %v", who, err)
		}
		// Newest first: the second transfer, the first, then (for the payer) the airdrop.
		want := 2
		if who == s.payer.PublicKey() {
			want = 3
		}
		if len(list) != want {
			t.Fatalf("GetSignaturesForAddress(%s): %d signatures, want %d", who, len(list), want)
		}
		item := list[1]
		if item.Signature != s.transfer {
			t.Fatalf("GetSignaturesForAddress(%s)[1] = %s, want the first transfer %s", who, item.Signature, s.transfer)
		}
		if item.Slot != s.transferAt {
			t.Errorf("GetSignaturesForAddress: slot %d, want %d", item.Slot, s.transferAt)
		}
		if item.Err != nil || item.Memo != nil {
			t.Errorf("GetSignaturesForAddress: err %v, memo %v; want null, null", item.Err, item.Memo)
		}
		if item.ConfirmationStatus != rpc.ConfirmationStatusConfirmed && item.ConfirmationStatus != rpc.ConfirmationStatusFinalized {
			t.Errorf("GetSignaturesForAddress: confirmationStatus %q", item.ConfirmationStatus)
		}
	}
}

func (s *sgScenario) simulate(ctx context.Context, t *testing.T) {
	tx, _ := s.buildTransfer(ctx, t, s.payer, s.recipient.PublicKey(), 777)
	res, err := s.rpc.SimulateTransactionWithOpts(ctx, tx, &rpc.SimulateTransactionOpts{
		SigVerify:  true,
		Commitment: rpc.CommitmentConfirmed,
	})
	if err != nil {
		t.Fatalf("SimulateTransaction: %v", err)
	}
	if res.Value == nil {
		t.Fatal("SimulateTransaction: no value")
	}
	if res.Value.Err != nil {
		t.Errorf("SimulateTransaction: err %v, want null", res.Value.Err)
	}
	if !slices.Equal(res.Value.Logs, sgTransferLogs) {
		t.Errorf("SimulateTransaction: logs %q, want %q", res.Value.Logs, sgTransferLogs)
	}
	if res.Value.UnitsConsumed == nil || *res.Value.UnitsConsumed != sgBuiltinUnits {
		t.Errorf("SimulateTransaction: unitsConsumed %v, want %d", sgDeref(res.Value.UnitsConsumed), sgBuiltinUnits)
	}
	s.checkBalance(ctx, t, s.payer.PublicKey(), s.balance, "the payer after a simulation (unchanged)")
}

// overdraft sends a transfer of one lamport more than the payer holds: the preflight fails with -32002 and the
// simulation's logs in error.data.
func (s *sgScenario) overdraft(ctx context.Context, t *testing.T) {
	tooMuch := s.balance + 1
	tx, _ := s.buildTransfer(ctx, t, s.payer, solana.NewWallet().PublicKey(), tooMuch)
	_, err := s.rpc.SendTransactionWithOpts(ctx, tx, rpc.TransactionOpts{PreflightCommitment: rpc.CommitmentConfirmed})
	if err == nil {
		t.Fatal("SendTransaction of an overdraft succeeded")
	}
	var rpcErr *jsonrpc.RPCError
	if !errors.As(err, &rpcErr) {
		t.Fatalf("SendTransaction of an overdraft: %T %v, want a *jsonrpc.RPCError", err, err)
	}
	if rpcErr.Code != sgPreflightFailure {
		t.Errorf("overdraft: code %d, want %d", rpcErr.Code, sgPreflightFailure)
	}
	const wantMessage = "Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1"
	if rpcErr.Message != wantMessage {
		t.Errorf("overdraft: message %q, want %q", rpcErr.Message, wantMessage)
	}
	data, ok := rpcErr.Data.(map[string]any)
	if !ok {
		t.Fatalf("overdraft: error.data is %T %v, want an object", rpcErr.Data, rpcErr.Data)
	}
	rawLogs, ok := data["logs"].([]any)
	if !ok {
		t.Fatalf("overdraft: error.data.logs is %T %v, want an array", data["logs"], data["logs"])
	}
	var logs []string
	for _, l := range rawLogs {
		line, ok := l.(string)
		if !ok {
			t.Fatalf("overdraft: a log line is %T %v", l, l)
		}
		logs = append(logs, line)
	}
	// The fee is taken before the instruction runs, so the transfer sees the balance less the fee.
	want := []string{
		sgTransferLogs[0],
		fmt.Sprintf("Transfer: insufficient lamports %d, need %d", s.balance-sgLamportsPerSignature, tooMuch),
		"Program 11111111111111111111111111111111 failed: custom program error: 0x1",
	}
	if !slices.Equal(logs, want) {
		t.Errorf("overdraft: error.data.logs %q, want %q", logs, want)
	}
	if errVal, ok := data["err"].(map[string]any); !ok || errVal["InstructionError"] == nil {
		t.Errorf("overdraft: error.data.err %v, want an InstructionError", data["err"])
	}
	s.checkBalance(ctx, t, s.payer.PublicKey(), s.balance, "the payer after a failed preflight (charged nothing)")
}

// v0Transfer sends a transfer as a v0 message (no lookup tables) and reads it back as version 0.
func (s *sgScenario) v0Transfer(ctx context.Context, t *testing.T) {
	const amount = 4242
	latest, err := s.rpc.GetLatestBlockhash(ctx, rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatalf("GetLatestBlockhash: %v", err)
	}
	tx, err := solana.NewTransaction(
		[]solana.Instruction{system.NewTransferInstruction(amount, s.payer.PublicKey(), s.recipient.PublicKey()).Build()},
		latest.Value.Blockhash,
		solana.TransactionPayer(s.payer.PublicKey()),
	)
	if err != nil {
		t.Fatalf("NewTransaction: %v", err)
	}
	tx.Message.SetVersion(solana.MessageVersionV0)
	s.sign(t, tx, s.payer)
	sig, err := s.rpc.SendTransactionWithOpts(ctx, tx, rpc.TransactionOpts{PreflightCommitment: rpc.CommitmentConfirmed})
	if err != nil {
		t.Fatalf("SendTransaction(v0): %v", err)
	}
	sgWaitStatus(ctx, t, s.rpc, sig, rpc.ConfirmationStatusConfirmed)

	got, err := s.rpc.GetTransaction(ctx, sig, &rpc.GetTransactionOpts{
		Commitment:                     rpc.CommitmentConfirmed,
		MaxSupportedTransactionVersion: &rpc.MaxSupportedTransactionVersion0,
	})
	if err != nil {
		t.Fatalf("GetTransaction(v0): %v", err)
	}
	if got.Version != 0 {
		t.Errorf("GetTransaction(v0): version %d, want 0", got.Version)
	}
	if got.Meta == nil || got.Meta.Fee != sgLamportsPerSignature || got.Meta.Err != nil {
		t.Errorf("GetTransaction(v0): meta %+v, want fee %d and no error", got.Meta, sgLamportsPerSignature)
	}
	// The base64 encoding decodes back to a v0 message.
	raw, err := s.rpc.GetTransaction(ctx, sig, &rpc.GetTransactionOpts{
		Encoding:                       solana.EncodingBase64,
		Commitment:                     rpc.CommitmentConfirmed,
		MaxSupportedTransactionVersion: &rpc.MaxSupportedTransactionVersion0,
	})
	if err != nil {
		t.Fatalf("GetTransaction(v0, base64): %v", err)
	}
	decoded, err := solana.TransactionFromBytes(raw.Transaction.GetBinary())
	if err != nil {
		t.Fatalf("GetTransaction(v0, base64): does not decode: %v", err)
	}
	if decoded.Message.GetVersion() != solana.MessageVersionV0 || decoded.Signatures[0] != sig {
		t.Errorf("GetTransaction(v0, base64): version %d, signature %s", decoded.Message.GetVersion(), decoded.Signatures[0])
	}
	s.balance -= amount + sgLamportsPerSignature
	s.received += amount
	s.checkBalance(ctx, t, s.payer.PublicKey(), s.balance, "the payer after the v0 transfer")
	s.checkBalance(ctx, t, s.recipient.PublicKey(), s.received, "the recipient after the v0 transfer")
}

// buildTransfer builds and signs a legacy transfer with solana-go's system program builder and a blockhash from
// GetLatestBlockhash.
func (s *sgScenario) buildTransfer(ctx context.Context, t *testing.T, from solana.PrivateKey, to solana.PublicKey, lamports uint64) (*solana.Transaction, solana.Hash) {
	t.Helper()
	latest, err := s.rpc.GetLatestBlockhash(ctx, rpc.CommitmentFinalized)
	if err != nil {
		t.Fatalf("GetLatestBlockhash: %v", err)
	}
	tx, err := solana.NewTransaction(
		[]solana.Instruction{system.NewTransferInstruction(lamports, from.PublicKey(), to).Build()},
		latest.Value.Blockhash,
		solana.TransactionPayer(from.PublicKey()),
	)
	if err != nil {
		t.Fatalf("NewTransaction: %v", err)
	}
	s.sign(t, tx, from)
	return tx, latest.Value.Blockhash
}

func (s *sgScenario) sign(t *testing.T, tx *solana.Transaction, signers ...solana.PrivateKey) {
	t.Helper()
	_, err := tx.Sign(func(key solana.PublicKey) *solana.PrivateKey {
		for i := range signers {
			if signers[i].PublicKey().Equals(key) {
				return &signers[i]
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Sign: %v", err)
	}
}

func (s *sgScenario) checkBalance(ctx context.Context, t *testing.T, who solana.PublicKey, want uint64, what string) {
	t.Helper()
	got, err := s.rpc.GetBalance(ctx, who, rpc.CommitmentConfirmed)
	if err != nil {
		t.Fatalf("GetBalance(%s): %v", what, err)
	}
	if got.Value != want {
		t.Errorf("GetBalance(%s) = %d, want %d", what, got.Value, want)
	}
}

// sgWaitStatus polls GetSignatureStatuses until the signature reaches the commitment (finalized also satisfies
// confirmed), failing on a transaction error or when ctx ends.
func sgWaitStatus(ctx context.Context, t *testing.T, client *rpc.Client, sig solana.Signature, want rpc.ConfirmationStatusType) *rpc.SignatureStatusesResult {
	t.Helper()
	last := "no status"
	for {
		res, err := client.GetSignatureStatuses(ctx, false, sig)
		switch {
		case err != nil:
			last = err.Error()
		case len(res.Value) != 1:
			t.Fatalf("GetSignatureStatuses: %d values for 1 signature", len(res.Value))
		case res.Value[0] != nil:
			st := res.Value[0]
			if st.Err != nil {
				t.Fatalf("%s failed: %v", sig, st.Err)
			}
			last = string(st.ConfirmationStatus)
			if st.ConfirmationStatus == want || st.ConfirmationStatus == rpc.ConfirmationStatusFinalized {
				return st
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s did not reach %s within %v; last: %s", sig, want, sgWait, strings.TrimSpace(last))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func sgDeref(p *uint64) any {
	if p == nil {
		return nil
	}
	return *p
}
