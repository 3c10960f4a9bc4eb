package parity

import (
	"ledgerd/impl/core"
	"ledgerd/impl/programs/alt"
	"ledgerd/impl/programs/ata"
	"ledgerd/impl/programs/memo"
	"ledgerd/impl/programs/stake"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/programs/vote"
	"ledgerd/impl/runtime"
)

// moreScenarios covers what the parity corpus leaves out and the real builds do: every token instruction on both
// token programs with their errors, more Token-2022 extensions, both memo programs, the lookup table program's
// errors, and stake.
func moreScenarios() []*scenario {
	var out []*scenario
	for _, p := range []core.Pubkey{token.ProgramID, token.Program2022ID} {
		out = append(out, tokenInstructions(p), tokenErrors(p), multisigV1(p))
	}
	return append(out, token2022More(), memos(), lookupTableErrors(), stakeFlows())
}

var (
	acct1 = keypair(30)
	acct2 = keypair(31)
	acct3 = keypair(32)
	acct4 = keypair(33)
	stk1  = keypair(40)
	stk2  = keypair(41)
	vote1 = keypair(42)
)

// createAccountFor creates an uninitialized account of size bytes for program, rent-exempt.
func createAccountFor(p core.Pubkey, k core.Keypair, size int) core.Instruction {
	return system.CreateAccount(payer.PublicKey(), k.PublicKey(), rentFor(size), uint64(size), p)
}

// tokenInstructions runs every instruction of SPL Token 3.5.0 that the parity corpus does not: the first forms of
// InitializeMint, InitializeAccount and InitializeMultisig, InitializeAccount2 and 3, ApproveChecked, every
// authority SetAuthority changes, GetAccountDataSize, InitializeImmutableOwner, AmountToUiAmount and
// UiAmountToAmount.
func tokenInstructions(p core.Pubkey) *scenario {
	sc, b := newScenario("instructions/" + programName(p))
	A, B, C, M := alice.PublicKey(), bob.PublicKey(), carol.PublicKey(), mint1.PublicKey()
	a1, a2, a3, a4 := acct1.PublicKey(), acct2.PublicKey(), acct3.PublicKey(), acct4.PublicKey()
	b.ok("InitializeMint (with the rent sysvar)", ixs(createAccountFor(p, mint1, token.MintSize),
		token.InitializeMintIx(p, M, A, &C, 4)), payer, mint1)
	b.ok("InitializeAccount", ixs(createAccountFor(p, acct1, token.AccountSize), token.InitializeAccount(p, a1, M, A)), payer, acct1)
	b.ok("InitializeAccount2", ixs(createAccountFor(p, acct2, token.AccountSize), token.InitializeAccount2(p, a2, M, B)), payer, acct2)
	size := token.AccountSize
	if p == token.Program2022ID {
		var err error
		if size, err = token.AccountExtensionLen(token.ExtImmutableOwner); err != nil {
			panic(err)
		}
	}
	b.ok("InitializeImmutableOwner then InitializeAccount3", ixs(createAccountFor(p, acct3, size),
		token.InitializeImmutableOwner(p, a3), token.InitializeAccount3(p, a3, M, C)), payer, acct3)
	b.ok("GetAccountDataSize", ixs(token.GetAccountDataSize(p, M)), payer)
	b.ok("MintTo", ixs(token.MintTo(p, M, a1, A, nil, 50_000)), alice)
	b.ok("ApproveChecked", ixs(token.ApproveChecked(p, a1, M, C, A, nil, 1_000, 4)), alice)
	b.fail("ApproveChecked with the wrong decimals", ixs(token.ApproveChecked(p, a1, M, C, A, nil, 1_000, 3)), alice)
	b.ok("TransferChecked by the delegate", ixs(token.TransferChecked(p, a1, M, a2, C, nil, 400, 4)), carol)
	b.ok("Approve replaces the delegate", ixs(token.Approve(p, a1, B, A, nil, 10)), alice)
	b.ok("Revoke", ixs(token.Revoke(p, a1, A, nil)), alice)
	b.ok("AmountToUiAmount", ixs(token.AmountToUiAmount(p, M, 1_234_500)), payer)
	b.ok("AmountToUiAmount of zero", ixs(token.AmountToUiAmount(p, M, 0)), payer)
	b.ok("UiAmountToAmount", ixs(token.UiAmountToAmount(p, M, "12.3456")), payer)
	b.ok("UiAmountToAmount of an integer", ixs(token.UiAmountToAmount(p, M, "7")), payer)
	b.fail("UiAmountToAmount with too many decimals", ixs(token.UiAmountToAmount(p, M, "1.23456")), payer)
	b.fail("UiAmountToAmount of text", ixs(token.UiAmountToAmount(p, M, "ten")), payer)
	b.ok("SetAuthority: a close authority", ixs(token.SetAuthority(p, a1, &C, token.AuthorityCloseAccount, A, nil)), alice)
	b.ok("SetAuthority: the freeze authority", ixs(token.SetAuthority(p, M, &B, token.AuthorityFreezeAccount, C, nil)), carol)
	b.ok("freeze with the new freeze authority", ixs(token.FreezeAccount(p, a2, M, B, nil)), bob)
	b.fail("freeze a frozen account", ixs(token.FreezeAccount(p, a2, M, B, nil)), bob)
	b.ok("thaw", ixs(token.ThawAccount(p, a2, M, B, nil)), bob)
	b.fail("thaw an account that is not frozen", ixs(token.ThawAccount(p, a2, M, B, nil)), bob)
	b.ok("SetAuthority: the mint authority", ixs(token.SetAuthority(p, M, &B, token.AuthorityMintTokens, A, nil)), alice)
	b.ok("MintToChecked by the new authority", ixs(token.MintToChecked(p, M, a2, B, nil, 5, 4)), bob)
	b.fail("SetAuthority of a kind the account lacks", ixs(token.SetAuthority(p, a1, &B, token.AuthorityMintTokens, A, nil)), alice)
	b.ok("SetAuthority: drop the freeze authority", ixs(token.SetAuthority(p, M, nil, token.AuthorityFreezeAccount, B, nil)), bob)
	b.fail("freeze without a freeze authority", ixs(token.FreezeAccount(p, a2, M, B, nil)), bob)
	b.ok("Burn by the owner", ixs(token.Burn(p, a1, M, A, nil, 100)), alice)
	b.ok("empty the account", ixs(token.Transfer(p, a1, a2, A, nil, 49_500)), alice)
	b.fail("CloseAccount by the owner once a close authority is set", ixs(token.CloseAccount(p, a1, A, A, nil)), alice)
	b.ok("CloseAccount by the close authority", ixs(token.CloseAccount(p, a1, C, C, nil)), carol)
	b.ok("InitializeAccount3 with the rent already there", ixs(createAccountFor(p, acct4, token.AccountSize),
		token.InitializeAccount3(p, a4, M, A)), payer, acct4)
	b.ok("SetAuthority: the account owner", ixs(token.SetAuthority(p, a4, &B, token.AuthorityAccountOwner, A, nil)), alice)
	b.fail("the old owner transfers", ixs(token.Transfer(p, a4, a2, A, nil, 0)), alice)
	b.ok("a transfer of nothing by the new owner", ixs(token.Transfer(p, a4, a2, B, nil, 0)), bob)
	return sc
}

// tokenErrors runs instructions the token programs refuse, one error each.
func tokenErrors(p core.Pubkey) *scenario {
	sc, b := newScenario("errors/" + programName(p))
	A, B, M, M2 := alice.PublicKey(), bob.PublicKey(), mint1.PublicKey(), mint2.PublicKey()
	a1, a2, a3 := acct1.PublicKey(), acct2.PublicKey(), acct3.PublicKey()
	b.ok("two mints and two accounts", append(append(createMint(p, mint1, A, nil, 2), createMint(p, mint2, A, nil, 2)...),
		createAccountFor(p, acct1, token.AccountSize), token.InitializeAccount3(p, a1, M, A),
		createAccountFor(p, acct2, token.AccountSize), token.InitializeAccount3(p, a2, M2, B)), payer, mint1, mint2, acct1, acct2)
	b.ok("mint", ixs(token.MintTo(p, M, a1, A, nil, 1_000)), alice)
	b.fail("initialize a mint twice", ixs(token.InitializeMint2(p, M, A, nil, 2)), payer)
	b.fail("initialize an account twice", ixs(token.InitializeAccount3(p, a1, M, A)), payer)
	b.fail("transfer to an account of another mint", ixs(token.Transfer(p, a1, a2, A, nil, 1)), alice)
	b.fail("transfer checked naming another mint", ixs(token.TransferChecked(p, a1, M2, a2, A, nil, 1, 2)), alice)
	b.fail("mint to an account of another mint", ixs(token.MintTo(p, M2, a1, A, nil, 1)), alice)
	b.fail("mint past u64", ixs(token.MintTo(p, M, a1, A, nil, ^uint64(0))), alice)
	b.fail("burn more than held", ixs(token.Burn(p, a1, M, A, nil, 1_001)), alice)
	b.fail("burn checked with the wrong decimals", ixs(token.BurnChecked(p, a1, M, A, nil, 1, 9)), alice)
	b.fail("approve by someone else", ixs(token.Approve(p, a1, B, B, nil, 1)), bob)
	b.fail("close by someone else", ixs(token.CloseAccount(p, a2, A, A, nil)), alice)
	b.fail("an account not rent-exempt", ixs(system.CreateAccount(payer.PublicKey(), acct3.PublicKey(), 1_000_000,
		token.AccountSize, p), token.InitializeAccount3(p, a3, M, A)), payer, acct3)
	b.fail("an account of a mint that is not initialized", ixs(createAccountFor(p, acct3, token.AccountSize),
		token.InitializeAccount3(p, a3, fresh.PublicKey(), A)), payer, acct3)
	b.fail("a mint account of the wrong size", ixs(system.CreateAccount(payer.PublicKey(), mint3.PublicKey(), rentFor(80), 80, p),
		token.InitializeMint2(p, mint3.PublicKey(), A, nil, 0)), payer, mint3)
	b.fail("unknown instruction", ixs(core.Instruction{ProgramID: p, Accounts: []core.AccountMeta{core.Writable(a1)}, Data: []byte{99}}), payer)
	b.fail("empty instruction data", ixs(core.Instruction{ProgramID: p, Accounts: []core.AccountMeta{core.Writable(a1)}}), payer)
	b.fail("too few accounts", ixs(core.Instruction{ProgramID: p, Accounts: []core.AccountMeta{core.Writable(a1)},
		Data: token.Transfer(p, a1, a2, A, nil, 1).Data}), payer)
	b.fail("an account another program owns", ixs(token.Transfer(p, a1, alice.PublicKey(), A, nil, 1)), alice)
	b.fail("sync a non-native account", ixs(token.SyncNative(p, a1)), payer)
	b.fail("GetAccountDataSize of an account that is not a mint", ixs(token.GetAccountDataSize(p, a1)), payer)
	b.ok("transfer to itself", ixs(token.Transfer(p, a1, a1, A, nil, 10)), alice)
	b.fail("transfer to itself more than held", ixs(token.Transfer(p, a1, a1, A, nil, 10_000)), alice)
	return sc
}

// multisigV1 is InitializeMultisig (the first form, with the rent sysvar), and multisig-signed instructions of
// every family: approve, set authority, freeze, burn, close.
func multisigV1(p core.Pubkey) *scenario {
	sc, b := newScenario("multisig-v1/" + programName(p))
	A, B, C, MS, M := alice.PublicKey(), bob.PublicKey(), carol.PublicKey(), msig.PublicKey(), mint1.PublicKey()
	a1 := acct1.PublicKey()
	// The token programs check m and n against 1..=11 each, not m against n: a multisig that can never sign.
	b.ok("m larger than n", ixs(createAccountFor(p, acct2, token.MultisigSize),
		token.InitializeMultisig(p, acct2.PublicKey(), []core.Pubkey{A, B}, 3)), payer, acct2)
	b.fail("m of zero", ixs(createAccountFor(p, acct3, token.MultisigSize),
		token.InitializeMultisig(p, acct3.PublicKey(), []core.Pubkey{A, B}, 0)), payer, acct3)
	b.fail("twelve signers", ixs(createAccountFor(p, acct3, token.MultisigSize),
		token.InitializeMultisig(p, acct3.PublicKey(), []core.Pubkey{A, B, C, A, B, C, A, B, C, A, B, C}, 1)), payer, acct3)
	b.ok("a 1 of 2 multisig", ixs(createAccountFor(p, msig, token.MultisigSize),
		token.InitializeMultisig(p, MS, []core.Pubkey{A, B}, 1)), payer, msig)
	b.ok("a mint whose both authorities are the multisig", createMint(p, mint1, MS, &MS, 1), payer, mint1)
	b.ok("an account the multisig owns", ixs(createAccountFor(p, acct1, token.AccountSize),
		token.InitializeAccount3(p, a1, M, MS)), payer, acct1)
	b.ok("mint, alice signing", ixs(token.MintTo(p, M, a1, MS, []core.Pubkey{A}, 90)), payer, alice)
	b.ok("approve, bob signing", ixs(token.Approve(p, a1, C, MS, []core.Pubkey{B}, 5)), payer, bob)
	b.fail("approve, a signer listed twice who did not sign", ixs(func() core.Instruction {
		ix := token.Approve(p, a1, C, MS, []core.Pubkey{C}, 5)
		ix.Accounts[len(ix.Accounts)-1].IsSigner = false
		return ix
	}()), payer)
	b.ok("freeze and thaw, alice signing", ixs(token.FreezeAccount(p, a1, M, MS, []core.Pubkey{A}),
		token.ThawAccount(p, a1, M, MS, []core.Pubkey{A})), payer, alice)
	b.ok("burn checked, both signing", ixs(token.BurnChecked(p, a1, M, MS, []core.Pubkey{A, B}, 90, 1)), payer, alice, bob)
	b.ok("close, bob signing", ixs(token.CloseAccount(p, a1, C, MS, []core.Pubkey{B})), payer, bob)
	b.ok("give the mint authority to alice", ixs(token.SetAuthority(p, M, &A, token.AuthorityMintTokens, MS, []core.Pubkey{B})), payer, bob)
	b.ok("an account of alice's", ixs(createAccountFor(p, acct4, token.AccountSize),
		token.InitializeAccount3(p, acct4.PublicKey(), M, A)), payer, acct4)
	b.fail("the multisig mints no more", ixs(token.MintTo(p, M, acct4.PublicKey(), MS, []core.Pubkey{A}, 1)), payer, alice)
	b.ok("alice mints", ixs(token.MintTo(p, M, acct4.PublicKey(), A, nil, 1)), alice)
	b.fail("mint to a closed account", ixs(token.MintTo(p, M, a1, A, nil, 1)), alice)
	return sc
}

// token2022More runs Token-2022 extensions and instructions the parity corpus leaves out: immutable owner set
// explicitly, data sizes with extensions, CPI guard, transfer fee changes and withdrawal from accounts, the default
// account state changed, the metadata pointer and metadata updated, emitted and removed, required memos switched
// off, reallocation.
func token2022More() *scenario {
	sc, b := newScenario("extensions-more/token-2022")
	p := token.Program2022ID
	A, B, C := alice.PublicKey(), bob.PublicKey(), carol.PublicKey()
	a1 := acct1.PublicKey()

	FM := mint1.PublicKey()
	b.ok("transfer fee mint", createMint2022(mint1, A, nil, 3, 0, []token.ExtensionType{token.ExtTransferFeeConfig},
		token.InitializeTransferFeeConfig(FM, &A, &B, 250, 1_000_000)), payer, mint1)
	b.ok("GetAccountDataSize with extensions", ixs(token.GetAccountDataSize(p, FM, token.ExtImmutableOwner, token.ExtMemoTransfer)), payer)
	size, err := token.AccountExtensionLen(token.ExtTransferFeeAmount, token.ExtImmutableOwner)
	if err != nil {
		panic(err)
	}
	b.ok("an immutable-owner account initialized by hand", ixs(createAccountFor(p, acct1, size),
		token.InitializeImmutableOwner(p, a1), token.InitializeAccount3(p, a1, FM, A)), payer, acct1)
	b.fail("InitializeImmutableOwner of an initialized account", ixs(token.InitializeImmutableOwner(p, a1)), payer)
	b.fail("change its owner", ixs(token.SetAuthority(p, a1, &B, token.AuthorityAccountOwner, A, nil)), alice)
	ataB := ata.Address(B, FM, p)
	b.ok("mint and transfer with the fee", ixs(ata.Create(payer.PublicKey(), B, FM, p), token.MintTo(p, FM, a1, A, nil, 1_000_000),
		token.TransferChecked(p, a1, FM, ataB, A, nil, 400_000, 3)), payer, alice)
	b.ok("SetTransferFee", ixs(token.SetTransferFee(FM, A, nil, 10, 5)), alice)
	b.fail("SetTransferFee by the withdraw authority", ixs(token.SetTransferFee(FM, B, nil, 10, 5)), bob)
	b.ok("WithdrawWithheldTokensFromAccounts", ixs(token.WithdrawWithheldTokensFromAccounts(FM, a1, B, nil, []core.Pubkey{ataB})), bob)
	b.ok("SetAuthority: the transfer fee config authority", ixs(token.SetAuthority(p, FM, nil, token.AuthorityTransferFeeConfig, A, nil)), alice)
	b.ok("CPI guard on and off", ixs(token.Reallocate(a1, payer.PublicKey(), A, nil, token.ExtCpiGuard),
		token.EnableCpiGuard(a1, A, nil), token.DisableCpiGuard(a1, A, nil)), payer, alice)
	b.ok("required memos on and off", ixs(token.Reallocate(ataB, payer.PublicKey(), B, nil, token.ExtMemoTransfer),
		token.EnableRequiredMemoTransfers(ataB, B, nil), token.DisableRequiredMemoTransfers(ataB, B, nil)), payer, bob)
	b.ok("a transfer without a memo after", ixs(token.TransferChecked(p, a1, FM, ataB, A, nil, 10, 3)), alice)

	DM := mint2.PublicKey()
	b.ok("default-frozen mint", createMint2022(mint2, A, &C, 0, 0, []token.ExtensionType{token.ExtDefaultAccountState},
		token.InitializeDefaultAccountState(DM, token.StateFrozen)), payer, mint2)
	b.ok("UpdateDefaultAccountState", ixs(token.UpdateDefaultAccountState(DM, C, nil, token.StateInitialized)), carol)
	b.fail("UpdateDefaultAccountState by the mint authority", ixs(token.UpdateDefaultAccountState(DM, A, nil, token.StateFrozen)), alice)
	b.ok("an account of it starts thawed", ixs(ata.Create(payer.PublicKey(), B, DM, p), token.MintTo(p, DM, ata.Address(B, DM, p), A, nil, 3)), payer, alice)

	MM := mint3.PublicKey()
	b.ok("mint with metadata", append(createMint2022(mint3, A, nil, 0, 10_000_000, []token.ExtensionType{token.ExtMetadataPointer},
		token.InitializeMetadataPointer(MM, &A, &MM)),
		token.InitializeTokenMetadata(MM, A, A, "Parity Coin", "PAR", "https://example.com/par.json")), payer, mint3, alice)
	b.ok("a field", ixs(token.UpdateTokenMetadataField(MM, A, token.MetadataField{Kind: token.FieldKey, Key: "k"}, "v")), alice)
	b.ok("RemoveTokenMetadataKey", ixs(token.RemoveTokenMetadataKey(MM, A, "k", false)), alice)
	b.fail("remove a key that is not there", ixs(token.RemoveTokenMetadataKey(MM, A, "k", false)), alice)
	b.ok("remove it idempotently", ixs(token.RemoveTokenMetadataKey(MM, A, "k", true)), alice)
	b.ok("EmitTokenMetadata", ixs(token.EmitTokenMetadata(MM, nil, nil)), payer)
	start, end := uint64(4), uint64(40)
	b.ok("EmitTokenMetadata of a slice", ixs(token.EmitTokenMetadata(MM, &start, &end)), payer)
	b.ok("UpdateMetadataPointer", ixs(token.UpdateMetadataPointer(MM, A, nil, &B)), alice)
	b.ok("UpdateTokenMetadataUpdateAuthority", ixs(token.UpdateTokenMetadataUpdateAuthority(MM, A, &C)), alice)
	b.fail("the old update authority", ixs(token.UpdateTokenMetadataField(MM, A, token.MetadataField{Kind: token.FieldName}, "x")), alice)
	b.ok("the new update authority", ixs(token.UpdateTokenMetadataField(MM, C, token.MetadataField{Kind: token.FieldURI}, "u")), carol)
	return sc
}

// memos runs memo 4.0 (at the Memo id) and memo 1.0: signers, several signers, a signer that did not sign, invalid
// UTF-8, an empty memo.
func memos() *scenario {
	sc, b := newScenario("memo")
	A, B := alice.PublicKey(), bob.PublicKey()
	v1 := func(text string, metas ...core.AccountMeta) core.Instruction {
		return core.Instruction{ProgramID: core.MemoV1ProgramID, Accounts: metas, Data: []byte(text)}
	}
	b.ok("memo without signers", ixs(memo.Instruction("hello")), payer)
	b.ok("memo signed by alice", ixs(memo.Instruction("from alice", A)), payer, alice)
	b.ok("memo signed by two", ixs(memo.Instruction("from both", A, B)), payer, alice, bob)
	unsigned := memo.Instruction("forged", A)
	unsigned.Accounts[0].IsSigner = false
	b.fail("memo naming a signer who did not sign", ixs(unsigned), payer)
	b.fail("memo of invalid UTF-8", ixs(memo.Instruction("\xff\xfe", A)), payer, alice)
	b.ok("empty memo", ixs(memo.Instruction("")), payer)
	b.ok("memo with multi-byte characters", ixs(memo.Instruction("grüße, 🚀", A)), payer, alice)
	b.ok("memo 1.0", ixs(v1("hello v1")), payer)
	b.ok("memo 1.0 with an account", ixs(v1("hello v1", core.ReadonlySigner(A))), payer, alice)
	b.fail("memo 1.0 of invalid UTF-8", ixs(v1("\xc3\x28")), payer)
	b.ok("memo 1.0 and 4.0 in one transaction", ixs(v1("one"), memo.Instruction("two", A)), payer, alice)
	return sc
}

// lookupTableErrors runs what the lookup table program refuses.
func lookupTableErrors() *scenario {
	sc, b := newScenario("lookup-table-errors")
	A, B, C := alice.PublicKey(), bob.PublicKey(), carol.PublicKey()
	payerKey := payer.PublicKey()
	b.slot = 200
	create, table := alt.CreateLookupTable(A, payerKey, 199)
	b.fail("create for a slot that is not recent", ixs(func() core.Instruction {
		ix, _ := alt.CreateLookupTable(A, payerKey, 5_000)
		return ix
	}()), payer)
	wrong := create
	wrong.Accounts = append([]core.AccountMeta(nil), create.Accounts...)
	wrong.Accounts[0] = core.Writable(fresh.PublicKey())
	b.fail("create at an address that is not the derived one", ixs(wrong), payer)
	b.ok("create", ixs(create), payer)
	b.fail("extend with no addresses", ixs(alt.ExtendLookupTable(table, A, &payerKey, nil)), payer, alice)
	b.fail("extend by someone else", ixs(alt.ExtendLookupTable(table, B, &payerKey, []core.Pubkey{C})), payer, bob)
	b.ok("extend without a payer (the table holds enough)", ixs(system.Transfer(payerKey, table, 10_000_000),
		alt.ExtendLookupTable(table, A, nil, []core.Pubkey{C, B})), payer, alice)
	b.fail("close an active table", ixs(alt.CloseLookupTable(table, A, payerKey)), payer, alice)
	b.fail("freeze by someone else", ixs(alt.FreezeLookupTable(table, B)), payer, bob)
	b.ok("deactivate", ixs(alt.DeactivateLookupTable(table, A)), payer, alice)
	b.fail("deactivate twice", ixs(alt.DeactivateLookupTable(table, A)), payer, alice)
	b.fail("extend a deactivated table", ixs(alt.ExtendLookupTable(table, A, &payerKey, []core.Pubkey{payerKey})), payer, alice)
	b.fail("freeze a deactivated table", ixs(alt.FreezeLookupTable(table, A)), payer, alice)
	b.fail("unknown instruction", ixs(core.Instruction{ProgramID: core.AddressLookupTableProgramID,
		Accounts: []core.AccountMeta{core.Writable(table)}, Data: []byte{9, 0, 0, 0}}), payer)
	return sc
}

// stakeFlows runs stake 5.0.0 through the life of an undelegated stake account and a delegation.
func stakeFlows() *scenario {
	sc, b := newScenario("stake")
	A, B, C := alice.PublicKey(), bob.PublicKey(), carol.PublicKey()
	S1, S2, V := stk1.PublicKey(), stk2.PublicKey(), vote1.PublicKey()
	lamports := rentFor(stake.Size) + 5_000_000_000
	b.ok("create and initialize", stake.CreateAccount(payer.PublicKey(), S1, stake.Authorized{Staker: A, Withdrawer: B},
		stake.Lockup{}, lamports), payer, stk1)
	b.fail("initialize twice", ixs(stake.Initialize(S1, stake.Authorized{Staker: A, Withdrawer: B}, stake.Lockup{})), payer)
	b.ok("InitializeChecked", ixs(system.CreateAccount(payer.PublicKey(), S2, lamports, stake.Size, stake.ProgramID),
		stake.InitializeChecked(S2, stake.Authorized{Staker: A, Withdrawer: B})), payer, stk2, bob)
	b.ok("GetMinimumDelegation", ixs(stake.GetMinimumDelegation()), payer)
	b.ok("Authorize a new staker", ixs(stake.AuthorizeIx(S1, A, C, stake.AuthorityStaker, nil)), payer, alice)
	b.fail("Authorize by the old staker", ixs(stake.AuthorizeIx(S1, A, A, stake.AuthorityStaker, nil)), payer, alice)
	b.ok("AuthorizeChecked back", ixs(stake.AuthorizeChecked(S1, C, A, stake.AuthorityStaker, nil)), payer, carol, alice)
	b.ok("withdraw from the other", ixs(stake.Withdraw(S2, B, C, 1_000_000, nil)), payer, bob)
	b.fail("withdraw below the rent reserve", ixs(stake.Withdraw(S2, B, C, lamports-1_000_000-1, nil)), payer, bob)
	b.fail("deactivate an undelegated account", ixs(stake.Deactivate(S2, A)), payer, alice)
	b.ok("merge the other in", ixs(stake.Merge(S1, S2, A)), payer, alice)
	epoch := uint64(3)
	b.ok("SetLockup", ixs(stake.SetLockup(S1, stake.LockupArgs{Epoch: &epoch}, B)), payer, bob)
	b.fail("withdraw while locked", ixs(stake.Withdraw(S1, B, C, 1_000_000, nil)), payer, bob)
	// The vote account is set, not created: LiteSVM's vote program writes the state of a later feature (v4).
	b.sc.accounts[V] = runtime.Account{Lamports: rentFor(vote.Size), Owner: core.VoteProgramID,
		Data:      vote.NewState(vote.VoteInit{NodePubkey: payer.PublicKey(), AuthorizedVoter: A, AuthorizedWithdrawer: A}, 0).AccountData(),
		RentEpoch: runtime.RentExemptRentEpoch}
	b.ok("delegate", ixs(stake.DelegateStake(S1, A, V)), payer, alice)
	b.ok("deactivate", ixs(stake.Deactivate(S1, A)), payer, alice)
	b.fail("deactivate twice", ixs(stake.Deactivate(S1, A)), payer, alice)
	return sc
}
