package rpc

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
)

// TestTokenMethodsWithTransactions runs real token transactions (impl/programs/token) and reads them back: balances, supply, the account lists, the largest accounts,
// and the transaction's parsed instructions and token balances.
func TestTokenMethodsWithTransactions(t *testing.T) {
	t.Parallel()
	l, err := ledger.Open(ledger.Config{Dir: t.TempDir(), SlotDuration: 10 * time.Millisecond, FinalityDepth: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	s := NewServer(Node{Identity: l.Genesis.IdentityPubkey(), GenesisHash: l.Genesis.HashString(), Ledger: l})
	ctx := context.Background()
	faucet := l.Genesis.Faucet
	rent := l.Rent()
	newKey := func() core.Keypair {
		k, err := core.NewKeypair()
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	run := func(ixs []core.Instruction, signers ...core.Keypair) (core.Signature, uint64) {
		t.Helper()
		tx, err := core.NewTransaction(faucet.PublicKey(), ixs, l.Bank(ledger.Confirmed).LastBlockhash(), append([]core.Keypair{faucet}, signers...)...)
		if err != nil {
			t.Fatal(err)
		}
		ex, err := l.Execute(ctx, tx)
		if err != nil {
			t.Fatal(err)
		}
		if ex.Result.Err != nil {
			t.Fatalf("transaction failed: %v %q", ex.Result.Err, ex.Result.Logs)
		}
		return tx.Signatures[0], ex.Slot
	}

	for _, program := range []core.Pubkey{core.TokenProgramID, core.Token2022ProgramID} {
		mint, alice, bob, delegate := newKey(), newKey(), newKey(), newKey()
		aliceAcct, bobAcct := newKey(), newKey()
		fp := faucet.PublicKey()
		run([]core.Instruction{
			system.CreateAccount(fp, mint.PublicKey(), rent.MinimumBalance(82), 82, program),
			token.InitializeMint2(program, mint.PublicKey(), fp, nil, 3),
			system.CreateAccount(fp, aliceAcct.PublicKey(), rent.MinimumBalance(165), 165, program),
			token.InitializeAccount3(program, aliceAcct.PublicKey(), mint.PublicKey(), alice.PublicKey()),
			system.CreateAccount(fp, bobAcct.PublicKey(), rent.MinimumBalance(165), 165, program),
			token.InitializeAccount3(program, bobAcct.PublicKey(), mint.PublicKey(), bob.PublicKey()),
			token.MintToChecked(program, mint.PublicKey(), aliceAcct.PublicKey(), fp, nil, 5_000, 3),
		}, mint, aliceAcct, bobAcct)
		sig, slot := run([]core.Instruction{
			token.TransferChecked(program, aliceAcct.PublicKey(), mint.PublicKey(), bobAcct.PublicKey(), alice.PublicKey(), nil, 1_500, 3),
			token.Approve(program, bobAcct.PublicKey(), delegate.PublicKey(), bob.PublicKey(), nil, 100),
		}, alice, bob)

		processed := &rpcapi.RequiredCommitmentConfig{Commitment: "processed"}
		bal, err := s.GetTokenAccountBalance(ctx, &rpcapi.GetTokenAccountBalanceParams{Account: bobAcct.PublicKey(), Config: rpcapi.OptOf(processed)})
		if err != nil || tkJSON(t, bal.Value) != `{"amount":"1500","decimals":3,"uiAmount":1.5,"uiAmountString":"1.5"}` {
			t.Errorf("%s: bob's balance %s, %v", program, tkJSON(t, bal.Value), err)
		}
		supply, err := s.GetTokenSupply(ctx, &rpcapi.GetTokenSupplyParams{Mint: mint.PublicKey(), Config: rpcapi.OptOf(processed)})
		if err != nil || supply.Value.Amount != "5000" {
			t.Errorf("%s: supply %+v, %v", program, supply.Value, err)
		}
		largest, err := s.GetTokenLargestAccounts(ctx, &rpcapi.GetTokenLargestAccountsParams{Mint: mint.PublicKey(), Config: rpcapi.OptOf(processed)})
		if err != nil || len(largest.Value) != 2 || largest.Value[0].Address != aliceAcct.PublicKey().String() || largest.Value[0].Amount != "3500" {
			t.Errorf("%s: largest %s, %v", program, tkJSON(t, largest.Value), err)
		}
		cfg := &rpcapi.AccountInfoConfig{Encoding: tkPtr(rpcapi.AccountEncodingJsonParsed), Commitment: tkPtr(rpcapi.CommitmentProcessed)}
		byOwner, err := s.GetTokenAccountsByOwner(ctx, &rpcapi.GetTokenAccountsByOwnerParams{Owner: bob.PublicKey(),
			Filter: rpcapi.TokenAccountsFilter{ProgramId: &rpcapi.TokenAccountsFilterProgramId{ProgramId: program.String()}}, Config: rpcapi.OptOf(cfg)})
		if err != nil || len(byOwner.Value) != 1 || byOwner.Value[0].Pubkey != bobAcct.PublicKey().String() {
			t.Fatalf("%s: by owner %s, %v", program, tkJSON(t, byOwner.Value), err)
		}
		if s := tkJSON(t, byOwner.Value[0].Account.Data); !strings.Contains(s, `"delegate":"`+delegate.PublicKey().String()+`","delegatedAmount":{"amount":"100","decimals":3,"uiAmount":0.1,"uiAmountString":"0.1"}`) {
			t.Errorf("%s: parsed account %s", program, s)
		}
		byDelegate, err := s.GetTokenAccountsByDelegate(ctx, &rpcapi.GetTokenAccountsByDelegateParams{Delegate: delegate.PublicKey(),
			Filter: rpcapi.TokenAccountsFilter{Mint: &rpcapi.TokenAccountsFilterMint{Mint: mint.PublicKey().String()}}, Config: rpcapi.OptOf(cfg)})
		if err != nil || len(byDelegate.Value) != 1 || byDelegate.Value[0].Pubkey != bobAcct.PublicKey().String() {
			t.Errorf("%s: by delegate %s, %v", program, tkJSON(t, byDelegate.Value), err)
		}

		// The transaction, once confirmed: parsed instructions and token balances.
		deadline := time.Now().Add(5 * time.Second)
		for {
			if _, c, _ := l.Slots(); c >= slot {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("timed out waiting for confirmation")
			}
			time.Sleep(2 * time.Millisecond)
		}
		tx, err := s.GetTransaction(ctx, &rpcapi.GetTransactionParams{Signature: sig, Config: rpcapi.Some(rpcapi.GetTransactionConfig{
			Config: &rpcapi.TransactionConfig{Commitment: tkPtr(rpcapi.CommitmentConfirmed), Encoding: tkPtr(rpcapi.TransactionEncodingJsonParsed)}})})
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			Transaction struct {
				Message struct {
					Instructions []json.RawMessage `json:"instructions"`
				} `json:"message"`
			} `json:"transaction"`
			Meta struct {
				PreTokenBalances  []json.RawMessage `json:"preTokenBalances"`
				PostTokenBalances []json.RawMessage `json:"postTokenBalances"`
			} `json:"meta"`
		}
		if err := json.Unmarshal([]byte(tkJSON(t, tx)), &got); err != nil {
			t.Fatal(err)
		}
		ixs := got.Transaction.Message.Instructions
		wantTransfer := `{"program":"spl-token","programId":"` + program.String() + `","parsed":{"info":{"authority":"` + alice.PublicKey().String() +
			`","destination":"` + bobAcct.PublicKey().String() + `","mint":"` + mint.PublicKey().String() + `","source":"` + aliceAcct.PublicKey().String() +
			`","tokenAmount":{"amount":"1500","decimals":3,"uiAmount":1.5,"uiAmountString":"1.5"}},"type":"transferChecked"},"stackHeight":null}`
		if len(ixs) != 2 || string(ixs[0]) != wantTransfer || !strings.Contains(string(ixs[1]), `"type":"approve"`) {
			t.Errorf("%s: instructions %s", program, ixs)
		}
		balances := func(list []json.RawMessage) string {
			var parts []string
			for _, b := range list {
				parts = append(parts, string(b))
			}
			return strings.Join(parts, ",")
		}
		for _, tt := range []struct {
			what, got, amount string
		}{
			{"pre", balances(got.Meta.PreTokenBalances), `"amount":"5000"`},
			{"post", balances(got.Meta.PostTokenBalances), `"amount":"3500"`},
		} {
			if !strings.Contains(tt.got, `"mint":"`+mint.PublicKey().String()+`","owner":"`+alice.PublicKey().String()+`","programId":"`+program.String()+`","uiTokenAmount":{`+tt.amount) {
				t.Errorf("%s: %s token balances %s", program, tt.what, tt.got)
			}
		}
	}
}
