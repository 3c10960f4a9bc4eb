package token_test

import (
	"reflect"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/token"
)

func TestDecode(t *testing.T) {
	t.Parallel()
	p, m, a, b, o := token.ProgramID, mintKP.PublicKey(), aliceTA.PublicKey(), bobTA.PublicKey(), alice.PublicKey()
	five := uint64(5)
	tests := []struct {
		ix   core.Instruction
		want token.Instruction
	}{
		{token.InitializeMint2(p, m, o, &b, 6), token.Instruction{Kind: token.KindInitializeMint2, Decimals: 6, MintAuthority: o, FreezeAuthority: token.Some(b)}},
		{token.InitializeMintIx(p, m, o, nil, 6), token.Instruction{Kind: token.KindInitializeMint, Decimals: 6, MintAuthority: o}},
		{token.InitializeAccount(p, a, m, o), token.Instruction{Kind: token.KindInitializeAccount}},
		{token.InitializeAccount3(p, a, m, o), token.Instruction{Kind: token.KindInitializeAccount3, Owner: o}},
		{token.InitializeMultisig(p, m, []core.Pubkey{a}, 1), token.Instruction{Kind: token.KindInitializeMultisig, M: 1}},
		{token.Transfer(p, a, b, o, nil, 7), token.Instruction{Kind: token.KindTransfer, Amount: 7}},
		{token.TransferChecked(p, a, m, b, o, nil, 7, 2), token.Instruction{Kind: token.KindTransferChecked, Amount: 7, Decimals: 2}},
		{token.SetAuthority(p, m, nil, token.AuthorityFreezeAccount, o, nil), token.Instruction{Kind: token.KindSetAuthority, AuthorityType: token.AuthorityFreezeAccount}},
		{token.UiAmountToAmount(p, m, "1.5"), token.Instruction{Kind: token.KindUiAmountToAmount, UIAmount: "1.5"}},
		{token.GetAccountDataSize(t22, m, token.ExtImmutableOwner, token.ExtMemoTransfer), token.Instruction{Kind: token.KindGetAccountDataSize,
			ExtensionTypes: []token.ExtensionType{token.ExtImmutableOwner, token.ExtMemoTransfer}}},
		{token.InitializeMintCloseAuthority(m, &o), token.Instruction{Kind: token.KindInitializeMintCloseAuthority, NewAuthority: token.Some(o)}},
		{token.InitializePermanentDelegate(m, o), token.Instruction{Kind: token.KindInitializePermanentDelegate, Delegate: o}},
		{token.InitializeTransferFeeConfig(m, &o, nil, 50, 9), token.Instruction{Kind: token.KindInitializeTransferFeeConfig,
			TransferFeeConfigAuthority: token.Some(o), TransferFeeBasisPoints: 50, MaximumFee: 9}},
		{token.TransferCheckedWithFee(a, m, b, o, nil, 100, 2, 1), token.Instruction{Kind: token.KindTransferCheckedWithFee, Amount: 100, Decimals: 2, Fee: 1}},
		{token.WithdrawWithheldTokensFromAccounts(m, a, o, nil, []core.Pubkey{b}), token.Instruction{Kind: token.KindWithdrawWithheldTokensFromAccounts, NumTokenAccounts: 1}},
		{token.HarvestWithheldTokensToMint(m, a), token.Instruction{Kind: token.KindHarvestWithheldTokensToMint}},
		{token.SetTransferFee(m, o, nil, 3, 4), token.Instruction{Kind: token.KindSetTransferFee, TransferFeeBasisPoints: 3, MaximumFee: 4}},
		{token.UpdateDefaultAccountState(m, o, nil, token.StateFrozen), token.Instruction{Kind: token.KindUpdateDefaultAccountState, State: token.StateFrozen}},
		{token.DisableRequiredMemoTransfers(a, o, nil), token.Instruction{Kind: token.KindDisableRequiredMemoTransfers}},
		{token.EnableCpiGuard(a, o, nil), token.Instruction{Kind: token.KindEnableCpiGuard}},
		{token.InitializeInterestBearingConfig(m, &o, -7), token.Instruction{Kind: token.KindInitializeInterestBearingConfig, RateAuthority: token.Some(o), Rate: -7}},
		{token.UpdateInterestBearingConfigRate(m, o, nil, 9), token.Instruction{Kind: token.KindUpdateInterestBearingConfigRate, Rate: 9}},
		{token.InitializeMetadataPointer(m, nil, &m), token.Instruction{Kind: token.KindInitializeMetadataPointer, Authority: token.COption[core.Pubkey]{}, MetadataAddress: token.Some(m)}},
		{token.UpdateMetadataPointer(m, o, nil, nil), token.Instruction{Kind: token.KindUpdateMetadataPointer}},
		{token.Reallocate(a, o, o, nil, token.ExtCpiGuard), token.Instruction{Kind: token.KindReallocate, ExtensionTypes: []token.ExtensionType{token.ExtCpiGuard}}},
		{token.InitializeTokenMetadata(m, o, o, "N", "S", "U"), token.Instruction{Kind: token.KindInitializeTokenMetadata, Name: "N", Symbol: "S", URI: "U"}},
		{token.UpdateTokenMetadataField(m, o, token.MetadataField{Kind: token.FieldKey, Key: "k"}, "v"), token.Instruction{Kind: token.KindUpdateTokenMetadataField,
			Field: token.MetadataField{Kind: token.FieldKey, Key: "k"}, Value: "v"}},
		{token.RemoveTokenMetadataKey(m, o, "k", true), token.Instruction{Kind: token.KindRemoveTokenMetadataKey, Idempotent: true, Key: "k"}},
		{token.UpdateTokenMetadataUpdateAuthority(m, o, &b), token.Instruction{Kind: token.KindUpdateTokenMetadataUpdateAuthority, NewAuthority: token.Some(b)}},
		{token.EmitTokenMetadata(m, nil, &five), token.Instruction{Kind: token.KindEmitTokenMetadata, End: token.Some[uint64](5)}},
	}
	for _, tc := range tests {
		got, err := token.Decode(tc.ix.Data)
		if err != nil {
			t.Errorf("%s: %v", tc.want.Kind, err)
			continue
		}
		if got.Kind == token.KindInitializeMetadataPointer {
			tc.want.Authority = got.Authority // the zero key reads as none with the zero value
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.want.Kind, got, tc.want)
		}
	}
	for _, bad := range [][]byte{nil, {3, 1}, {6, 99, 0}, {0, 2}, {47}, {26, 9}, {28, 0}, {24, 0xff}} {
		if _, err := token.Decode(bad); err == nil {
			t.Errorf("Decode(%x) succeeded", bad)
		}
	}
}

func TestUIAmounts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		amount   uint64
		decimals uint8
		full     string
		trimmed  string
	}{
		{0, 0, "0", "0"}, {5, 2, "0.05", "0.05"}, {1500, 3, "1.500", "1.5"}, {100, 2, "1.00", "1"},
		{^uint64(0), 0, "18446744073709551615", "18446744073709551615"}, {1, 9, "0.000000001", "0.000000001"},
	} {
		if got := token.AmountToUIAmountString(tc.amount, tc.decimals); got != tc.full {
			t.Errorf("AmountToUIAmountString(%d, %d) = %q", tc.amount, tc.decimals, got)
		}
		if got := token.AmountToUIAmountStringTrimmed(tc.amount, tc.decimals); got != tc.trimmed {
			t.Errorf("trimmed(%d, %d) = %q", tc.amount, tc.decimals, got)
		}
	}
	for _, tc := range []struct {
		ui       string
		decimals uint8
		want     uint64
		ok       bool
	}{
		{"1.5", 2, 150, true}, {".5", 1, 5, true}, {"5.", 0, 5, true}, {"1.500", 1, 15, true}, {"+3", 0, 3, true},
		{".", 2, 0, false}, {"", 2, 0, false}, {"1.2.3", 3, 0, false}, {"1.23", 1, 0, false}, {"-1", 0, 0, false},
		{"18446744073709551616", 0, 0, false}, {"1e3", 0, 0, false},
	} {
		got, err := token.UIAmountToAmount(tc.ui, tc.decimals)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("UIAmountToAmount(%q, %d) = %d, %v", tc.ui, tc.decimals, got, err)
		}
	}
}

func TestStateRoundTrip(t *testing.T) {
	t.Parallel()
	m := token.Mint{MintAuthority: token.Some(alice.PublicKey()), Supply: 42, Decimals: 7, IsInitialized: true, FreezeAuthority: token.Some(bob.PublicKey())}
	if got, err := token.UnpackMint(m.MintData()); err != nil || got != m {
		t.Errorf("mint %+v %v", got, err)
	}
	a := token.Account{Mint: mintKP.PublicKey(), Owner: alice.PublicKey(), Amount: 3, Delegate: token.Some(bob.PublicKey()),
		State: token.StateFrozen, IsNative: token.Some[uint64](5), DelegatedAmount: 6, CloseAuthority: token.Some(carol.PublicKey())}
	if got, err := token.UnpackAccount(a.AccountData()); err != nil || got != a {
		t.Errorf("account %+v %v", got, err)
	}
	ms := token.Multisig{M: 1, N: 2, IsInitialized: true}
	ms.Signers[0], ms.Signers[1] = alice.PublicKey(), bob.PublicKey()
	if got, err := token.UnpackMultisig(ms.MultisigData()); err != nil || got != ms {
		t.Errorf("multisig %+v %v", got, err)
	}
	bad := a.AccountData()
	bad[72] = 2 // COption tag
	if _, err := token.UnpackAccount(bad); err == nil {
		t.Error("bad COption tag accepted")
	}
	if _, err := token.UnpackAccount(make([]byte, 165)); err == nil {
		t.Error("uninitialized account accepted")
	}
	if n, _ := token.MintExtensionLen(token.ExtTransferFeeConfig, token.ExtTransferFeeConfig); n != 166+4+108 {
		t.Errorf("mint len %d", n)
	}
	if n, _ := token.AccountExtensionLen(); n != 165 {
		t.Errorf("account len %d", n)
	}
	if _, err := token.MintExtensionLen(token.ExtTokenMetadata); err == nil {
		t.Error("variable-size extension sized")
	}
}
