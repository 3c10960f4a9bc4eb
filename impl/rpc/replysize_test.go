package rpc

import (
	"context"
	"testing"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/jsonrpc"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/system"
)

// Account lists whose encoding would pass the call's reply budget are refused while they are collected, with
// "response too large", never cut short.
func TestAccountListsStopAtTheReplyBudget(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	payer := stFund(t, l, 100*ledger.LamportsPerSOL)
	program := stKeypair(t).PublicKey()
	var ixs []core.Instruction
	var owned []core.Keypair
	for range 4 {
		k := stKeypair(t)
		owned = append(owned, k)
		ixs = append(ixs, system.CreateAccount(payer.PublicKey(), k.PublicKey(), l.Rent().MinimumBalance(3000), 3000, program))
	}
	stRun(t, l, payer, ixs, owned...)
	keys := make([]string, len(owned))
	for i, k := range owned {
		keys[i] = k.PublicKey().String()
	}
	base64 := stPtr(rpcapi.AccountEncodingBase64)
	processed := stPtr(rpcapi.CommitmentProcessed)
	programAccounts := func(ctx context.Context) error {
		r, err := s.GetProgramAccounts(ctx, &rpcapi.GetProgramAccountsParams{ProgramId: program,
			Config: rpcapi.Some(rpcapi.ProgramAccountsConfig{Encoding: base64, Commitment: processed})})
		if err == nil && len(*r.Accounts) != 4 {
			t.Errorf("got %d accounts, want 4", len(*r.Accounts))
		}
		return err
	}
	multipleAccounts := func(ctx context.Context) error {
		_, err := s.GetMultipleAccounts(ctx, &rpcapi.GetMultipleAccountsParams{Pubkeys: mustPubkeys(keys...),
			Config: rpcapi.Some(rpcapi.AccountInfoConfig{Encoding: base64, Commitment: processed})})
		return err
	}
	for name, call := range map[string]func(context.Context) error{rpcapi.MethodGetProgramAccounts: programAccounts, rpcapi.MethodGetMultipleAccounts: multipleAccounts} {
		// Four accounts of 3,000 bytes are 16,000 bytes of base64: a 10,000-byte budget cannot hold them.
		stWantError(t, name+" over budget", call(jsonrpc.WithReplyBudget(context.Background(), 10_000)),
			rpcapi.CodeResponseTooLarge, "response too large")
		if err := call(jsonrpc.WithReplyBudget(context.Background(), 20_000)); err != nil {
			t.Errorf("%s within budget: %v", name, err)
		}
	}
}
