package encoding_test

import (
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/encoding"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
)

// TestTokenProgramStateDecodes decodes state the token program package lays out: both sides must agree on the
// layouts.
func TestTokenProgramStateDecodes(t *testing.T) {
	t.Parallel()
	a, b := core.Pubkey{1}, core.Pubkey{2}
	mint := token.Mint{MintAuthority: token.Some(a), Supply: 77, Decimals: 4, IsInitialized: true}
	m, err := encoding.DecodeMint(mint.MintData())
	if err != nil || m.Supply != 77 || m.Decimals != 4 || m.MintAuthority == nil || *m.MintAuthority != a || m.FreezeAuthority != nil {
		t.Fatalf("mint: %+v, %v", m, err)
	}
	acct := token.Account{Mint: a, Owner: b, Amount: 9, Delegate: token.Some(b), State: token.StateFrozen, IsNative: token.Some(uint64(5)),
		DelegatedAmount: 3, CloseAuthority: token.Some(a)}
	ta, err := encoding.DecodeTokenAccount(acct.AccountData())
	if err != nil || ta.Mint != a || ta.Owner != b || ta.Amount != 9 || ta.Delegate == nil || *ta.Delegate != b || ta.State != encoding.TokenStateFrozen ||
		ta.IsNative == nil || *ta.IsNative != 5 || ta.DelegatedAmount != 3 || ta.CloseAuthority == nil || *ta.CloseAuthority != a {
		t.Fatalf("account: %+v, %v", ta, err)
	}
	ms := token.Multisig{M: 1, N: 2, IsInitialized: true}
	ms.Signers[0], ms.Signers[1] = a, b
	p, err := encoding.Parse(core.Pubkey{3}, runtime.Account{Owner: core.TokenProgramID, Data: ms.MultisigData()}, nil)
	if err != nil || p.Parsed.(map[string]any)["type"] != "multisig" {
		t.Fatalf("multisig: %+v, %v", p, err)
	}
	native, err := encoding.DecodeMint(token.NativeMintData())
	if err != nil || native.Decimals != 9 {
		t.Fatalf("native mint: %+v, %v", native, err)
	}
}
