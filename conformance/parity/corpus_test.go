package parity

import (
	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/programs/alt"
	"ledgerd/impl/programs/ata"
	"ledgerd/impl/programs/memo"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/computebudget"
)

// blockhash is every transaction's recent blockhash: LiteSVM runs without its blockhash check, ledgerd's side
// accepts it as recent.
var blockhash = core.HashBytes([]byte("ledgerd parity"))

// The corpus's keypairs: fixed seeds, so the transactions' bytes never change.
func keypair(seed byte) core.Keypair { return core.KeypairFromSeed([32]byte{seed, 'p', 'a', 'r'}) }

var (
	payer = keypair(1)
	alice = keypair(2)
	bob   = keypair(3)
	carol = keypair(4)
	dave  = keypair(5) // holds too little for a fee
	mint1 = keypair(10)
	mint2 = keypair(11)
	mint3 = keypair(12)
	mint4 = keypair(13)
	mint5 = keypair(14)
	mint6 = keypair(15)
	mint7 = keypair(16)
	mint8 = keypair(17)
	msig  = keypair(20)
	fresh = keypair(21) // an address that holds nothing
)

var rent = sysvar.DefaultRent()

func rentFor(n int) uint64 { return rent.MinimumBalance(uint64(n)) }

// scenario is a fresh chain state (accounts besides the programs) and transactions run on it in order.
type scenario struct {
	name     string
	accounts map[core.Pubkey]runtime.Account
	steps    []step
}

type step struct {
	name     string
	slot     uint64
	tx       *core.Transaction
	mustFail bool // the corpus checks that the real programs fail it
}

// builder adds steps to a scenario.
type builder struct {
	sc   *scenario
	slot uint64
}

func newScenario(name string) (*scenario, *builder) {
	sc := &scenario{name: name, accounts: map[core.Pubkey]runtime.Account{}}
	b := &builder{sc: sc, slot: 10}
	for _, k := range []core.Keypair{payer, alice, bob, carol} {
		b.fund(k.PublicKey(), 100_000_000_000)
	}
	return sc, b
}

func (b *builder) fund(k core.Pubkey, lamports uint64) {
	b.sc.accounts[k] = runtime.Account{Lamports: lamports, Owner: core.SystemProgramID, RentEpoch: runtime.RentExemptRentEpoch}
}

// nativeMint adds program's wrapped SOL mint as both sides' genesis would hold it.
func (b *builder) nativeMint(program core.Pubkey) {
	b.sc.accounts[token.NativeMintOf(program)] = runtime.Account{Lamports: rentFor(token.MintSize), Owner: program,
		Data: token.NativeMintData(), RentEpoch: runtime.RentExemptRentEpoch}
}

func (b *builder) add(name string, mustFail bool, msg *core.Message, err error, signers []core.Keypair) {
	if err != nil {
		panic(name + ": " + err.Error())
	}
	tx, err := core.NewSignedTransaction(msg, signers...)
	if err != nil {
		panic(name + ": " + err.Error())
	}
	b.sc.steps = append(b.sc.steps, step{name: name, slot: b.slot, tx: tx, mustFail: mustFail})
}

// ok adds a legacy transaction paid by the first signer; fail adds one the real programs must reject.
func (b *builder) ok(name string, ixs []core.Instruction, signers ...core.Keypair) {
	msg, err := core.CompileLegacyMessage(signers[0].PublicKey(), ixs, blockhash)
	b.add(name, false, msg, err, signers)
}

func (b *builder) fail(name string, ixs []core.Instruction, signers ...core.Keypair) {
	msg, err := core.CompileLegacyMessage(signers[0].PublicKey(), ixs, blockhash)
	b.add(name, true, msg, err, signers)
}

// v0 adds a version 0 transaction using tables.
func (b *builder) v0(name string, mustFail bool, ixs []core.Instruction, tables []core.AddressLookupTableAccount, signers ...core.Keypair) {
	msg, err := core.CompileV0Message(signers[0].PublicKey(), ixs, tables, blockhash)
	b.add(name, mustFail, msg, err, signers)
}

func ixs(list ...core.Instruction) []core.Instruction { return list }

func pk(k core.Keypair) *core.Pubkey {
	p := k.PublicKey()
	return &p
}

// createMint is the usual two instructions: the account, then InitializeMint2.
func createMint(program core.Pubkey, mint core.Keypair, authority core.Pubkey, freeze *core.Pubkey, decimals uint8) []core.Instruction {
	return ixs(
		system.CreateAccount(payer.PublicKey(), mint.PublicKey(), rentFor(token.MintSize), token.MintSize, program),
		token.InitializeMint2(program, mint.PublicKey(), authority, freeze, decimals),
	)
}

// createMint2022 makes a Token-2022 mint with the fixed-size extensions exts, initialized by init (before the mint),
// with extra lamports for what the metadata will need.
func createMint2022(mint core.Keypair, authority core.Pubkey, freeze *core.Pubkey, decimals uint8, extra uint64,
	exts []token.ExtensionType, init ...core.Instruction) []core.Instruction {
	size, err := token.MintExtensionLen(exts...)
	if err != nil {
		panic(err)
	}
	out := ixs(system.CreateAccount(payer.PublicKey(), mint.PublicKey(), rentFor(size)+extra, uint64(size), token.Program2022ID))
	out = append(out, init...)
	return append(out, token.InitializeMint2(token.Program2022ID, mint.PublicKey(), authority, freeze, decimals))
}

// buildCorpus returns the scenarios: the everyday token flows on both token programs, multisig, wrapped SOL,
// Token-2022's extensions, the associated token account program's paths, lookup tables with v0 transactions, and
// fees.
func buildCorpus() []*scenario {
	var out []*scenario
	for _, p := range []core.Pubkey{token.ProgramID, token.Program2022ID} {
		out = append(out, tokenBasics(p), multisig(p), wrappedSOL(p), ataFlows(p))
	}
	return append(out, token2022Extensions(), lookupTables(), fees(), precompiles())
}

func programName(p core.Pubkey) string {
	if p == token.Program2022ID {
		return "token-2022"
	}
	return "spl-token"
}

func tokenBasics(p core.Pubkey) *scenario {
	sc, b := newScenario("basics/" + programName(p))
	A, B, C, M := alice.PublicKey(), bob.PublicKey(), carol.PublicKey(), mint1.PublicKey()
	ataA, ataB := ata.Address(A, M, p), ata.Address(B, M, p)
	b.ok("create mint", createMint(p, mint1, A, &C, 6), payer, mint1)
	b.ok("create alice's associated account", ixs(ata.Create(payer.PublicKey(), A, M, p)), payer)
	b.ok("create bob's associated account idempotently", ixs(ata.CreateIdempotent(payer.PublicKey(), B, M, p)), payer)
	b.ok("mint to alice", ixs(token.MintTo(p, M, ataA, A, nil, 1_000_000)), payer, alice)
	b.ok("transfer", ixs(token.Transfer(p, ataA, ataB, A, nil, 300_000)), alice)
	b.ok("transfer checked", ixs(token.TransferChecked(p, ataA, M, ataB, A, nil, 200_000, 6)), payer, alice)
	b.fail("transfer checked with the wrong decimals", ixs(token.TransferChecked(p, ataA, M, ataB, A, nil, 1, 2)), alice)
	b.fail("transfer more than the balance", ixs(token.Transfer(p, ataA, ataB, A, nil, 10_000_000)), alice)
	unsigned := token.Transfer(p, ataA, ataB, A, nil, 1)
	unsigned.Accounts[2].IsSigner = false
	b.fail("transfer without the owner's signature", ixs(unsigned), bob)
	b.ok("approve a delegate", ixs(token.Approve(p, ataA, C, A, nil, 100_000)), alice)
	b.ok("delegate transfers", ixs(token.Transfer(p, ataA, ataB, C, nil, 50_000)), carol)
	b.fail("delegate transfers over the allowance", ixs(token.Transfer(p, ataA, ataB, C, nil, 60_000)), carol)
	b.ok("revoke", ixs(token.Revoke(p, ataA, A, nil)), alice)
	b.fail("revoked delegate transfers", ixs(token.Transfer(p, ataA, ataB, C, nil, 1)), carol)
	b.ok("burn", ixs(token.Burn(p, ataB, M, B, nil, 10_000)), bob)
	b.ok("burn checked", ixs(token.BurnChecked(p, ataB, M, B, nil, 5_000, 6)), bob)
	b.ok("freeze", ixs(token.FreezeAccount(p, ataB, M, C, nil)), carol)
	b.fail("transfer from a frozen account", ixs(token.Transfer(p, ataB, ataA, B, nil, 1)), bob)
	b.fail("freeze by someone else", ixs(token.FreezeAccount(p, ataA, M, B, nil)), bob)
	b.ok("thaw", ixs(token.ThawAccount(p, ataB, M, C, nil)), carol)
	b.fail("close an account holding tokens", ixs(token.CloseAccount(p, ataB, B, B, nil)), bob)
	b.ok("empty and close", ixs(token.Transfer(p, ataB, ataA, B, nil, 535_000), token.CloseAccount(p, ataB, B, B, nil)), bob)
	b.ok("mint to checked", ixs(token.MintToChecked(p, M, ataA, A, nil, 1, 6)), alice)
	b.ok("give up the mint authority", ixs(token.SetAuthority(p, M, nil, token.AuthorityMintTokens, A, nil)), alice)
	b.fail("mint without a mint authority", ixs(token.MintTo(p, M, ataA, A, nil, 1)), alice)
	b.ok("re-create idempotently", ixs(ata.CreateIdempotent(payer.PublicKey(), A, M, p)), payer)
	b.fail("create an existing associated account", ixs(ata.Create(payer.PublicKey(), A, M, p)), payer)
	return sc
}

func multisig(p core.Pubkey) *scenario {
	sc, b := newScenario("multisig/" + programName(p))
	A, B, C, MS, M := alice.PublicKey(), bob.PublicKey(), carol.PublicKey(), msig.PublicKey(), mint1.PublicKey()
	ataC, ataMS := ata.Address(C, M, p), ata.Address(MS, M, p)
	b.ok("create a 2 of 3 multisig", ixs(
		system.CreateAccount(payer.PublicKey(), MS, rentFor(token.MultisigSize), token.MultisigSize, p),
		token.InitializeMultisig2(p, MS, []core.Pubkey{A, B, C}, 2),
	), payer, msig)
	b.ok("create a mint of the multisig", createMint(p, mint1, MS, nil, 0), payer, mint1)
	b.ok("associated accounts of carol and the multisig", ixs(
		ata.Create(payer.PublicKey(), C, M, p), ata.Create(payer.PublicKey(), MS, M, p)), payer)
	b.ok("mint with two signers", ixs(token.MintTo(p, M, ataC, MS, []core.Pubkey{A, B}, 100)), payer, alice, bob)
	b.fail("mint with one signer", ixs(token.MintTo(p, M, ataC, MS, []core.Pubkey{A}, 100)), payer, alice)
	b.fail("mint with a stranger among the signers", ixs(token.MintTo(p, M, ataC, MS, []core.Pubkey{A, payer.PublicKey()}, 100)), payer, alice)
	b.ok("mint to the multisig's account", ixs(token.MintTo(p, M, ataMS, MS, []core.Pubkey{B, C}, 40)), payer, bob, carol)
	b.ok("transfer from the multisig's account", ixs(token.TransferChecked(p, ataMS, M, ataC, MS, []core.Pubkey{A, C}, 15, 0)), payer, alice, carol)
	return sc
}

func wrappedSOL(p core.Pubkey) *scenario {
	sc, b := newScenario("wrapped-sol/" + programName(p))
	b.nativeMint(p)
	A, B, NM := alice.PublicKey(), bob.PublicKey(), token.NativeMintOf(p)
	ataA, ataB := ata.Address(A, NM, p), ata.Address(B, NM, p)
	b.ok("associated account for wrapped SOL", ixs(ata.Create(payer.PublicKey(), A, NM, p)), payer)
	b.ok("wrap: transfer lamports and sync", ixs(system.Transfer(A, ataA, 1_000_000_000), token.SyncNative(p, ataA)), alice)
	b.ok("transfer wrapped SOL", ixs(ata.CreateIdempotent(A, B, NM, p), token.TransferChecked(p, ataA, NM, ataB, A, nil, 400_000_000, 9)), alice)
	b.fail("transfer more wrapped SOL than held", ixs(token.TransferChecked(p, ataB, NM, ataA, B, nil, 400_000_001, 9)), bob)
	b.ok("unwrap: close the account", ixs(token.CloseAccount(p, ataA, A, A, nil)), alice)
	b.fail("mint wrapped SOL", ixs(token.MintTo(p, NM, ataB, A, nil, 1)), alice)
	return sc
}

func ataFlows(p core.Pubkey) *scenario {
	sc, b := newScenario("associated-token-account/" + programName(p))
	A, B, C, M1, M2 := alice.PublicKey(), bob.PublicKey(), carol.PublicKey(), mint1.PublicKey(), mint2.PublicKey()
	b.ok("create two mints", append(createMint(p, mint1, A, nil, 2), createMint(p, mint2, A, nil, 0)...), payer, mint1, mint2)
	prefunded := ata.Address(C, M1, p)
	b.ok("create a prefunded account (short of rent)", ixs(system.Transfer(payer.PublicKey(), prefunded, 1_000),
		ata.CreateIdempotent(payer.PublicKey(), C, M1, p)), payer)
	rich := ata.Address(C, M2, p)
	b.ok("create a prefunded account (over rent)", ixs(system.Transfer(payer.PublicKey(), rich, 3_000_000),
		ata.Create(payer.PublicKey(), C, M2, p)), payer)
	owner := ata.Address(B, M1, p)
	nested := ata.Address(owner, M2, p)
	b.ok("an account owned by an associated account", ixs(ata.Create(payer.PublicKey(), B, M1, p),
		ata.Create(payer.PublicKey(), owner, M2, p), token.MintTo(p, M2, nested, A, nil, 77)), payer, alice)
	recover := ata.RecoverNested(B, M1, M2, p)
	b.fail("recover nested before the destination exists", ixs(recover), payer, bob)
	unsigned := recover
	unsigned.Accounts = append([]core.AccountMeta(nil), recover.Accounts...)
	unsigned.Accounts[5] = core.Writable(B)
	b.fail("recover nested without the wallet's signature", ixs(unsigned), payer)
	b.ok("recover nested", ixs(ata.Create(payer.PublicKey(), B, M2, p), recover), payer, bob)
	wrongAddress := ata.Create(payer.PublicKey(), A, M1, p)
	wrongAddress.Accounts[1] = core.Writable(ata.Address(B, M2, p))
	b.fail("create at an address that is not the derived one", ixs(wrongAddress), payer)
	badData := ata.Create(payer.PublicKey(), A, M1, p)
	badData.Data = []byte{3}
	b.fail("unknown instruction", ixs(badData), payer)
	b.ok("create with empty data (the original Create)", ixs(func() core.Instruction {
		ix := ata.Create(payer.PublicKey(), A, M1, p)
		ix.Data = nil
		return ix
	}()), payer)
	// Give bob's account to carol: SPL Token allows it, Token-2022's ImmutableOwner refuses.
	setOwner := ixs(token.SetAuthority(p, owner, &C, token.AuthorityAccountOwner, B, nil))
	if p == token.ProgramID {
		b.ok("give an associated account to someone else", setOwner, bob)
		b.fail("create idempotently over an account of another owner", ixs(ata.CreateIdempotent(payer.PublicKey(), B, M1, p)), payer)
	} else {
		b.fail("change the owner of an immutable-owner account", setOwner, bob)
	}
	return sc
}

func token2022Extensions() *scenario {
	sc, b := newScenario("extensions/token-2022")
	p := token.Program2022ID
	A, B, C := alice.PublicKey(), bob.PublicKey(), carol.PublicKey()

	// Transfer fees.
	FM := mint2.PublicKey()
	feeA, feeB := ata.Address(A, FM, p), ata.Address(B, FM, p)
	b.ok("mint with a transfer fee", createMint2022(mint2, A, nil, 2, 0, []token.ExtensionType{token.ExtTransferFeeConfig},
		token.InitializeTransferFeeConfig(FM, &A, &A, 100, 5_000)), payer, mint2)
	b.ok("associated accounts with TransferFeeAmount", ixs(ata.Create(payer.PublicKey(), A, FM, p), ata.Create(payer.PublicKey(), B, FM, p)), payer)
	b.ok("mint to alice", ixs(token.MintTo(p, FM, feeA, A, nil, 100_000)), alice)
	b.ok("transfer checked with fee", ixs(token.TransferCheckedWithFee(feeA, FM, feeB, A, nil, 10_000, 2, 100)), alice)
	b.fail("transfer checked with the wrong fee", ixs(token.TransferCheckedWithFee(feeA, FM, feeB, A, nil, 10_000, 2, 99)), alice)
	b.ok("transfer checked (the fee is withheld)", ixs(token.TransferChecked(p, feeA, FM, feeB, A, nil, 20_000, 2)), alice)
	b.ok("harvest withheld fees to the mint", ixs(token.HarvestWithheldTokensToMint(FM, feeB)), payer)
	b.ok("withdraw withheld fees from the mint", ixs(token.WithdrawWithheldTokensFromMint(FM, feeA, A, nil)), alice)
	b.fail("withdraw without the withdraw authority", ixs(token.WithdrawWithheldTokensFromMint(FM, feeA, B, nil)), bob)

	// Required memos.
	b.ok("require memos on bob's account", ixs(token.Reallocate(feeB, payer.PublicKey(), B, nil, token.ExtMemoTransfer),
		token.EnableRequiredMemoTransfers(feeB, B, nil)), payer, bob)
	b.fail("transfer without a memo", ixs(token.TransferChecked(p, feeA, FM, feeB, A, nil, 100, 2)), alice)
	b.ok("transfer after a memo", ixs(memo.Instruction("invoice 7", A), token.TransferChecked(p, feeA, FM, feeB, A, nil, 100, 2)), alice)

	// Metadata pointer and token metadata in the mint.
	MM := mint3.PublicKey()
	b.ok("mint with metadata", append(createMint2022(mint3, A, nil, 0, 10_000_000, []token.ExtensionType{token.ExtMetadataPointer},
		token.InitializeMetadataPointer(MM, &A, &MM)),
		token.InitializeTokenMetadata(MM, A, A, "Parity Coin", "PAR", "https://example.com/par.json")), payer, mint3, alice)
	b.ok("add a metadata field", ixs(token.UpdateTokenMetadataField(MM, A, token.MetadataField{Kind: token.FieldKey, Key: "color"}, "blue")), alice)
	b.ok("update the name", ixs(token.UpdateTokenMetadataField(MM, A, token.MetadataField{Kind: token.FieldName}, "Parity")), alice)
	b.fail("update by someone else", ixs(token.UpdateTokenMetadataField(MM, B, token.MetadataField{Kind: token.FieldSymbol}, "X")), bob)

	// Interest-bearing mint: the UI amount as return data.
	IM := mint4.PublicKey()
	b.ok("interest-bearing mint", createMint2022(mint4, A, nil, 2, 0, []token.ExtensionType{token.ExtInterestBearingConfig},
		token.InitializeInterestBearingConfig(IM, &A, 500)), payer, mint4)
	b.ok("amount to UI amount", ixs(token.AmountToUiAmount(p, IM, 12_345)), payer)
	b.ok("update the rate", ixs(token.UpdateInterestBearingConfigRate(IM, A, nil, -200)), alice)

	// Mint close authority.
	CM := mint5.PublicKey()
	b.ok("mint with a close authority", createMint2022(mint5, A, nil, 0, 0, []token.ExtensionType{token.ExtMintCloseAuthority},
		token.InitializeMintCloseAuthority(CM, &A)), payer, mint5)
	b.ok("close the mint", ixs(token.CloseAccount(p, CM, A, A, nil)), alice)

	// Non-transferable.
	NM := mint6.PublicKey()
	b.ok("non-transferable mint", createMint2022(mint6, A, nil, 0, 0, []token.ExtensionType{token.ExtNonTransferable},
		token.InitializeNonTransferableMint(NM)), payer, mint6)
	b.ok("accounts of a non-transferable mint", ixs(ata.Create(payer.PublicKey(), A, NM, p), ata.Create(payer.PublicKey(), B, NM, p),
		token.MintTo(p, NM, ata.Address(A, NM, p), A, nil, 5)), payer, alice)
	b.fail("transfer a non-transferable token", ixs(token.TransferChecked(p, ata.Address(A, NM, p), NM, ata.Address(B, NM, p), A, nil, 1, 0)), alice)

	// Accounts frozen by default.
	DM := mint7.PublicKey()
	b.ok("mint whose accounts start frozen", createMint2022(mint7, A, &C, 0, 0, []token.ExtensionType{token.ExtDefaultAccountState},
		token.InitializeDefaultAccountState(DM, token.StateFrozen)), payer, mint7)
	b.ok("a frozen associated account", ixs(ata.Create(payer.PublicKey(), B, DM, p)), payer)
	b.fail("mint to a frozen account", ixs(token.MintTo(p, DM, ata.Address(B, DM, p), A, nil, 1)), alice)
	b.ok("thaw it", ixs(token.ThawAccount(p, ata.Address(B, DM, p), DM, C, nil)), carol)

	// Permanent delegate.
	PM := mint8.PublicKey()
	b.ok("mint with a permanent delegate", createMint2022(mint8, A, nil, 0, 0, []token.ExtensionType{token.ExtPermanentDelegate},
		token.InitializePermanentDelegate(PM, C)), payer, mint8)
	b.ok("an account of alice's", ixs(ata.Create(payer.PublicKey(), A, PM, p), token.MintTo(p, PM, ata.Address(A, PM, p), A, nil, 9)), payer, alice)
	b.ok("the permanent delegate moves alice's tokens", ixs(ata.CreateIdempotent(payer.PublicKey(), C, PM, p),
		token.TransferChecked(p, ata.Address(A, PM, p), PM, ata.Address(C, PM, p), C, nil, 5, 0)), payer, carol)
	b.ok("the permanent delegate burns", ixs(token.BurnChecked(p, ata.Address(A, PM, p), PM, C, nil, 4, 0)), carol)
	return sc
}

func lookupTables() *scenario {
	sc, b := newScenario("lookup-tables")
	A, B, C, M := alice.PublicKey(), bob.PublicKey(), carol.PublicKey(), mint1.PublicKey()
	p := token.ProgramID
	ataA, ataB := ata.Address(A, M, p), ata.Address(B, M, p)
	b.slot = 100
	b.ok("token setup", append(createMint(p, mint1, A, nil, 3), ata.Create(payer.PublicKey(), A, M, p),
		ata.Create(payer.PublicKey(), B, M, p), token.MintTo(p, M, ata.Address(A, M, p), A, nil, 5_000)), payer, mint1, alice)
	create, table := alt.CreateLookupTable(A, payer.PublicKey(), 99)
	b.ok("create a table", ixs(create), payer)
	b.ok("create it again (idempotent)", ixs(create), payer)
	addresses := []core.Pubkey{B, C, fresh.PublicKey(), ataA, ataB, M, p}
	payerKey := payer.PublicKey()
	b.ok("extend it", ixs(alt.ExtendLookupTable(table, A, &payerKey, addresses)), payer, alice)
	tables := []core.AddressLookupTableAccount{{Key: table, Addresses: addresses}}
	transfers := ixs(system.Transfer(payer.PublicKey(), B, 1_000_000), system.Transfer(payer.PublicKey(), fresh.PublicKey(), 2_000_000))
	b.v0("v0 transfer in the extension's slot", true, transfers, tables, payer)
	b.slot = 101
	b.v0("v0 transfers through the table", false, transfers, tables, payer)
	b.v0("v0 token transfer through the table", false, ixs(token.TransferChecked(p, ataA, M, ataB, A, nil, 1_234, 3)), tables, payer, alice)
	b.v0("v0 failing token transfer", true, ixs(token.TransferChecked(p, ataA, M, ataB, A, nil, 1_000_000, 3)), tables, payer, alice)
	b.ok("freeze the table", ixs(alt.FreezeLookupTable(table, A)), payer, alice)
	b.fail("extend a frozen table", ixs(alt.ExtendLookupTable(table, A, &payerKey, []core.Pubkey{carol.PublicKey()})), payer, alice)
	other, table2 := alt.CreateLookupTable(A, payer.PublicKey(), 100)
	b.ok("a second table", ixs(other, alt.ExtendLookupTable(table2, A, &payerKey, []core.Pubkey{C})), payer, alice)
	b.slot = 102
	b.ok("deactivate it", ixs(alt.DeactivateLookupTable(table2, A)), payer, alice)
	b.slot = 103
	b.fail("close it too early", ixs(alt.CloseLookupTable(table2, A, payer.PublicKey())), payer, alice)
	b.slot = 1_000
	b.ok("close it after the cool-down", ixs(alt.CloseLookupTable(table2, A, payer.PublicKey())), payer, alice)
	b.v0("v0 transfer through the closed table", true, ixs(system.Transfer(payer.PublicKey(), C, 1)),
		[]core.AddressLookupTableAccount{{Key: table2, Addresses: []core.Pubkey{C}}}, payer)
	return sc
}

func fees() *scenario {
	sc, b := newScenario("fees")
	b.fund(dave.PublicKey(), 1_000)
	b.ok("transfer", ixs(system.Transfer(alice.PublicKey(), bob.PublicKey(), 5_000_000)), alice)
	b.ok("priority fee", ixs(computebudget.SetComputeUnitLimit(10_000), computebudget.SetComputeUnitPrice(1_000_000),
		system.Transfer(alice.PublicKey(), bob.PublicKey(), 1)), alice)
	b.ok("two signatures", ixs(system.Transfer(alice.PublicKey(), carol.PublicKey(), 7), system.Transfer(bob.PublicKey(), carol.PublicKey(), 8)), alice, bob)
	b.fail("a new account left below rent", ixs(system.Transfer(alice.PublicKey(), fresh.PublicKey(), 1)), alice)
	b.fail("transfer more than the balance", ixs(system.Transfer(bob.PublicKey(), carol.PublicKey(), 1_000_000_000_000)), bob)
	b.fail("a payer short of the fee", ixs(system.Transfer(dave.PublicKey(), carol.PublicKey(), 1)), dave)
	b.fail("too little compute", ixs(computebudget.SetComputeUnitLimit(100), system.Transfer(alice.PublicKey(), bob.PublicKey(), 1)), alice)
	return sc
}
