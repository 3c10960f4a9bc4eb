package parse_test

import (
	"encoding/json"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/parse"
	"ledgerd/impl/programs/token"
)

// TestTokenBuildersParse parses the instructions impl/programs/token builds (its encodings are the programs'):
// each must parse as the reference names it, so the parser and the programs agree on every layout.
func TestTokenBuildersParse(t *testing.T) {
	t.Parallel()
	k := func(n byte) core.Pubkey {
		var p core.Pubkey
		p[0], p[31] = n, 0xdd
		return p
	}
	a, b, c, d, e := k(1), k(2), k(3), k(4), k(5)
	p, p22 := token.ProgramID, token.Program2022ID
	one := uint64(1)
	tests := []struct {
		ix  core.Instruction
		typ string
	}{
		{token.InitializeMintIx(p, a, b, &c, 6), "initializeMint"},
		{token.InitializeMint2(p22, a, b, nil, 6), "initializeMint2"},
		{token.InitializeAccount(p, a, b, c), "initializeAccount"},
		{token.InitializeAccount2(p, a, b, c), "initializeAccount2"},
		{token.InitializeAccount3(p22, a, b, c), "initializeAccount3"},
		{token.InitializeMultisig(p, a, []core.Pubkey{b, c}, 1), "initializeMultisig"},
		{token.InitializeMultisig2(p, a, []core.Pubkey{b, c}, 2), "initializeMultisig2"},
		{token.Transfer(p, a, b, c, nil, 5), "transfer"},
		{token.TransferChecked(p22, a, b, c, d, []core.Pubkey{e}, 5, 2), "transferChecked"},
		{token.Approve(p, a, b, c, nil, 5), "approve"},
		{token.ApproveChecked(p, a, b, c, d, nil, 5, 2), "approveChecked"},
		{token.Revoke(p, a, b, nil), "revoke"},
		{token.SetAuthority(p, a, &b, token.AuthorityCloseAccount, c, nil), "setAuthority"},
		{token.MintTo(p, a, b, c, nil, 5), "mintTo"},
		{token.MintToChecked(p, a, b, c, nil, 5, 2), "mintToChecked"},
		{token.Burn(p, a, b, c, nil, 5), "burn"},
		{token.BurnChecked(p, a, b, c, nil, 5, 2), "burnChecked"},
		{token.CloseAccount(p, a, b, c, nil), "closeAccount"},
		{token.FreezeAccount(p, a, b, c, nil), "freezeAccount"},
		{token.ThawAccount(p, a, b, c, nil), "thawAccount"},
		{token.SyncNative(p, a), "syncNative"},
		{token.GetAccountDataSize(p22, a, token.ExtImmutableOwner, token.ExtTransferFeeAmount), "getAccountDataSize"},
		{token.InitializeImmutableOwner(p22, a), "initializeImmutableOwner"},
		{token.AmountToUiAmount(p, a, 5), "amountToUiAmount"},
		{token.UiAmountToAmount(p, a, "0.5"), "uiAmountToAmount"},
		{token.InitializeMintCloseAuthority(a, &b), "initializeMintCloseAuthority"},
		{token.InitializeNonTransferableMint(a), "initializeNonTransferableMint"},
		{token.InitializePermanentDelegate(a, b), "initializePermanentDelegate"},
		{token.Reallocate(a, b, c, nil, token.ExtMemoTransfer), "reallocate"},
		{token.InitializeTransferFeeConfig(a, &b, nil, 10, 100), "initializeTransferFeeConfig"},
		{token.TransferCheckedWithFee(a, b, c, d, nil, 100, 2, 1), "transferCheckedWithFee"},
		{token.WithdrawWithheldTokensFromMint(a, b, c, nil), "withdrawWithheldTokensFromMint"},
		{token.WithdrawWithheldTokensFromAccounts(a, b, c, nil, []core.Pubkey{d, e}), "withdrawWithheldTokensFromAccounts"},
		{token.HarvestWithheldTokensToMint(a, b, c), "harvestWithheldTokensToMint"},
		{token.SetTransferFee(a, b, nil, 10, 100), "setTransferFee"},
		{token.InitializeDefaultAccountState(a, token.StateFrozen), "initializeDefaultAccountState"},
		{token.UpdateDefaultAccountState(a, b, nil, token.StateInitialized), "updateDefaultAccountState"},
		{token.EnableRequiredMemoTransfers(a, b, nil), "enableRequiredMemoTransfers"},
		{token.DisableRequiredMemoTransfers(a, b, nil), "disableRequiredMemoTransfers"},
		{token.EnableCpiGuard(a, b, nil), "enableCpiGuard"},
		{token.DisableCpiGuard(a, b, nil), "disableCpiGuard"},
		{token.InitializeInterestBearingConfig(a, &b, 500), "initializeInterestBearingConfig"},
		{token.UpdateInterestBearingConfigRate(a, b, nil, -5), "updateInterestBearingConfigRate"},
		{token.InitializeMetadataPointer(a, &b, &a), "initializeMetadataPointer"},
		{token.UpdateMetadataPointer(a, b, nil, nil), "updateMetadataPointer"},
		{token.InitializeTokenMetadata(a, b, c, "Name", "SYM", "https://x"), "initializeTokenMetadata"},
		{token.UpdateTokenMetadataField(a, b, token.MetadataField{Kind: 3, Key: "k"}, "v"), "updateTokenMetadataField"},
		{token.RemoveTokenMetadataKey(a, b, "k", true), "removeTokenMetadataKey"},
		{token.UpdateTokenMetadataUpdateAuthority(a, b, nil), "updateTokenMetadataAuthority"},
		{token.EmitTokenMetadata(a, &one, nil), "emitTokenMetadata"},
	}
	for _, tt := range tests {
		m, err := core.CompileLegacyMessage(k(9), []core.Instruction{tt.ix}, core.Hash{})
		if err != nil {
			t.Fatal(err)
		}
		ci := m.Instructions[0]
		ui, err := parse.ParseInstruction(ci.ProgramIDIndex, ci.Accounts, ci.Data, m.AccountKeys, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ui.Parsed == nil {
			t.Errorf("%s: not parsed: %s", tt.typ, mustMarshal(t, ui))
			continue
		}
		if got := ui.Parsed.Parsed.(map[string]any)["type"]; got != tt.typ {
			t.Errorf("parsed as %v, want %s", got, tt.typ)
		}
	}
}

func mustMarshal(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
