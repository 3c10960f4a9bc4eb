package token_test

import (
	"encoding/binary"
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/memo"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
)

var t22 = token.Program2022ID

// createMint22 creates mintKP with room for exts, runs the extension initializers, then
// InitializeMint2 (authority alice, freeze authority freezer, 2 decimals). extra lamports pay
// for later growth (token metadata).
func (h *harness) createMint22(exts []token.ExtensionType, extra uint64, inits ...core.Instruction) *runtime.Result {
	h.t.Helper()
	size, err := token.MintExtensionLen(exts...)
	if err != nil {
		h.t.Fatal(err)
	}
	ixs := []core.Instruction{system.CreateAccount(payer.PublicKey(), mintKP.PublicKey(), h.rent(size)+extra, uint64(size), t22)}
	ixs = append(ixs, inits...)
	ixs = append(ixs, token.InitializeMint2(t22, mintKP.PublicKey(), alice.PublicKey(), pk(freezer), 2))
	return h.exec(ixs, payer, mintKP)
}

// accountSize asks the program for the size of an account of mintKP with exts.
func (h *harness) accountSize(exts ...token.ExtensionType) int {
	h.t.Helper()
	res := h.ok([]core.Instruction{token.GetAccountDataSize(t22, mintKP.PublicKey(), exts...)}, payer)
	return int(binary.LittleEndian.Uint64(res.ReturnData.Data))
}

// createAccount22 creates a token account of mintKP for owner with the size the program
// asks for, running pre (extension initializers) before InitializeAccount3.
func (h *harness) createAccount22(account core.Keypair, owner core.Pubkey, exts []token.ExtensionType, pre ...core.Instruction) {
	h.t.Helper()
	h.createAccount(t22, account, mintKP.PublicKey(), owner, h.accountSize(exts...), pre...)
}

func wantCode(t *testing.T, res *runtime.Result, want string, logLine string) {
	t.Helper()
	runtimetest.WantErr(t, res, want)
	if logLine != "" && !slices.Contains(res.Logs, "Program log: "+logLine) {
		t.Fatalf("logs %q lack %q", res.Logs, logLine)
	}
}

func TestToken2022Layout(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	res := h.createMint22([]token.ExtensionType{token.ExtMintCloseAuthority}, 0,
		token.InitializeMintCloseAuthority(mintKP.PublicKey(), pk(carol)))
	runtimetest.WantErr(t, res, success)
	d := h.accs[mintKP.PublicKey()].Data
	if len(d) != 202 || d[165] != byte(token.AccountTypeMint) || !slices.Equal(d[166:170], []byte{3, 0, 32, 0}) ||
		core.Pubkey(d[170:202]) != carol.PublicKey() || slices.ContainsFunc(d[82:165], func(b byte) bool { return b != 0 }) {
		t.Fatalf("mint data %x", d)
	}
	runtimetest.WantLogs(t, res,
		"Program "+core.SystemProgramID.String()+" invoke [1]", "Program "+core.SystemProgramID.String()+" success",
		"Program "+token22ID+" invoke [1]", "Program log: Instruction: InitializeMintCloseAuthority",
		"Program "+token22ID+" consumed 2000 of 402850 compute units", "Program "+token22ID+" success",
		"Program "+token22ID+" invoke [1]", "Program log: Instruction: InitializeMint2",
		"Program "+token22ID+" consumed 3480 of 400850 compute units", "Program "+token22ID+" success")

	// An account of a mint without account extensions is 165 bytes; ImmutableOwner adds an
	// entry after the account type.
	if n := h.accountSize(); n != token.AccountSize {
		t.Fatalf("plain account size %d", n)
	}
	h.createAccount22(aliceTA, alice.PublicKey(), []token.ExtensionType{token.ExtImmutableOwner},
		token.InitializeImmutableOwner(t22, aliceTA.PublicKey()))
	d = h.accs[aliceTA.PublicKey()].Data
	if len(d) != 170 || d[165] != byte(token.AccountTypeAccount) || !slices.Equal(d[166:170], []byte{7, 0, 0, 0}) {
		t.Fatalf("account data %x", d)
	}
	typ, exts, err := token.ParseExtensions(d)
	if err != nil || typ != token.AccountTypeAccount || len(exts) != 1 || exts[0].Type != token.ExtImmutableOwner {
		t.Fatalf("extensions %v %v %v", typ, exts, err)
	}
	if mint, owner, ok := token.AccountMintOwner(d); !ok || mint != mintKP.PublicKey() || owner != alice.PublicKey() {
		t.Fatal("AccountMintOwner")
	}
}

func TestImmutableOwner(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	runtimetest.WantErr(t, h.createMint22(nil, 0), success)
	h.createAccount22(aliceTA, alice.PublicKey(), []token.ExtensionType{token.ExtImmutableOwner},
		token.InitializeImmutableOwner(t22, aliceTA.PublicKey()))
	wantCode(t, h.exec([]core.Instruction{token.SetAuthority(t22, aliceTA.PublicKey(), pk(bob), token.AuthorityAccountOwner, alice.PublicKey(), nil)}, alice),
		custom(0, token.ImmutableOwner), "The owner authority cannot be changed")
	// A plain account has no room for the extension.
	h.ok([]core.Instruction{system.CreateAccount(payer.PublicKey(), bobTA.PublicKey(), h.rent(165), 165, t22)}, payer, bobTA)
	wantCode(t, h.exec([]core.Instruction{token.InitializeImmutableOwner(t22, bobTA.PublicKey())}, payer),
		ixErr(0, "InvalidAccountData"), "Error: InvalidAccountData")
}

func TestMintCloseAuthority(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtMintCloseAuthority}, 0,
		token.InitializeMintCloseAuthority(mintKP.PublicKey(), pk(carol))), success)
	h.createAccount22(aliceTA, alice.PublicKey(), nil)
	h.ok([]core.Instruction{token.MintTo(t22, mintKP.PublicKey(), aliceTA.PublicKey(), alice.PublicKey(), nil, 5)}, alice)
	wantCode(t, h.exec([]core.Instruction{token.CloseAccount(t22, mintKP.PublicKey(), carol.PublicKey(), carol.PublicKey(), nil)}, carol),
		custom(0, token.MintHasSupply), "Error: Mint has non-zero supply. Burn all tokens before closing the mint")
	wantCode(t, h.exec([]core.Instruction{token.CloseAccount(t22, mintKP.PublicKey(), alice.PublicKey(), alice.PublicKey(), nil)}, alice),
		custom(0, token.OwnerMismatch), "Error: owner does not match")
	h.ok([]core.Instruction{token.Burn(t22, aliceTA.PublicKey(), mintKP.PublicKey(), alice.PublicKey(), nil, 5)}, alice)
	h.ok([]core.Instruction{token.CloseAccount(t22, mintKP.PublicKey(), carol.PublicKey(), carol.PublicKey(), nil)}, carol)
	if _, ok := h.accs[mintKP.PublicKey()]; ok {
		t.Fatal("mint not closed")
	}
	// Without the extension a mint cannot be closed.
	h2 := newHarness(t)
	runtimetest.WantErr(t, h2.createMint22(nil, 0), success)
	wantCode(t, h2.exec([]core.Instruction{token.CloseAccount(t22, mintKP.PublicKey(), alice.PublicKey(), alice.PublicKey(), nil)}, alice),
		ixErr(0, "InvalidAccountData"), "Error: InvalidAccountData")
}

func TestDefaultAccountState(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtDefaultAccountState}, 0,
		token.InitializeDefaultAccountState(mintKP.PublicKey(), token.StateFrozen)), success)
	h.createAccount22(aliceTA, alice.PublicKey(), nil)
	h.createAccount22(bobTA, bob.PublicKey(), nil)
	if !h.account(aliceTA.PublicKey()).IsFrozen() {
		t.Fatal("new account not frozen")
	}
	wantCode(t, h.exec([]core.Instruction{token.MintTo(t22, mintKP.PublicKey(), aliceTA.PublicKey(), alice.PublicKey(), nil, 5)}, alice),
		custom(0, token.AccountFrozen), "Error: Account is frozen")
	res := h.ok([]core.Instruction{token.UpdateDefaultAccountState(mintKP.PublicKey(), freezer.PublicKey(), nil, token.StateInitialized)}, freezer)
	if !slices.Contains(res.Logs, "Program log: DefaultAccountStateInstruction::Update") {
		t.Fatalf("logs %q", res.Logs)
	}
	h.createAccount22(carolTA, carol.PublicKey(), nil)
	if h.account(carolTA.PublicKey()).IsFrozen() {
		t.Fatal("account frozen after update")
	}
	// A frozen default needs a freeze authority.
	h2 := newHarness(t)
	size, _ := token.MintExtensionLen(token.ExtDefaultAccountState)
	res = h2.exec([]core.Instruction{
		system.CreateAccount(payer.PublicKey(), mintKP.PublicKey(), h2.rent(size), uint64(size), t22),
		token.InitializeDefaultAccountState(mintKP.PublicKey(), token.StateFrozen),
		token.InitializeMint2(t22, mintKP.PublicKey(), alice.PublicKey(), nil, 2),
	}, payer, mintKP)
	wantCode(t, res, custom(2, token.MintCannotFreeze), "Error: This token mint cannot freeze accounts")
}

func TestNonTransferable(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtNonTransferable}, 0,
		token.InitializeNonTransferableMint(mintKP.PublicKey())), success)
	if n := h.accountSize(); n != 174 {
		t.Fatalf("account size %d, want 174", n)
	}
	h.createAccount22(aliceTA, alice.PublicKey(), nil)
	h.createAccount22(bobTA, bob.PublicKey(), nil)
	h.ok([]core.Instruction{token.MintTo(t22, mintKP.PublicKey(), aliceTA.PublicKey(), alice.PublicKey(), nil, 5)}, alice)
	wantCode(t, h.exec([]core.Instruction{token.TransferChecked(t22, aliceTA.PublicKey(), mintKP.PublicKey(), bobTA.PublicKey(), alice.PublicKey(), nil, 1, 2)}, alice),
		custom(0, token.NonTransferable), "Transfer is disabled for this mint")
	// Burning is still allowed.
	h.ok([]core.Instruction{token.Burn(t22, aliceTA.PublicKey(), mintKP.PublicKey(), alice.PublicKey(), nil, 1)}, alice)
	// A 165-byte account has no room for the required extensions.
	h.ok([]core.Instruction{system.CreateAccount(payer.PublicKey(), carolTA.PublicKey(), h.rent(165), 165, t22)}, payer, carolTA)
	wantCode(t, h.exec([]core.Instruction{token.InitializeAccount3(t22, carolTA.PublicKey(), mintKP.PublicKey(), carol.PublicKey())}, payer),
		ixErr(0, "InvalidAccountData"), "Error: InvalidAccountData")
}

func TestPermanentDelegate(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtPermanentDelegate}, 0,
		token.InitializePermanentDelegate(mintKP.PublicKey(), carol.PublicKey())), success)
	size := h.accountSize()
	res := h.ok([]core.Instruction{
		system.CreateAccount(payer.PublicKey(), aliceTA.PublicKey(), h.rent(size), uint64(size), t22),
		token.InitializeAccount3(t22, aliceTA.PublicKey(), mintKP.PublicKey(), alice.PublicKey()),
	}, payer, aliceTA)
	if !slices.Contains(res.Logs, "Program log: Warning: Mint has a permanent delegate, so tokens in this account may be seized at any time") {
		t.Fatalf("logs %q", res.Logs)
	}
	h.createAccount22(bobTA, bob.PublicKey(), nil)
	h.ok([]core.Instruction{token.MintTo(t22, mintKP.PublicKey(), aliceTA.PublicKey(), alice.PublicKey(), nil, 50)}, alice)
	h.ok([]core.Instruction{token.TransferChecked(t22, aliceTA.PublicKey(), mintKP.PublicKey(), bobTA.PublicKey(), carol.PublicKey(), nil, 20, 2)}, carol)
	h.ok([]core.Instruction{token.Burn(t22, aliceTA.PublicKey(), mintKP.PublicKey(), carol.PublicKey(), nil, 10)}, carol)
	if a := h.account(aliceTA.PublicKey()).Amount; a != 20 {
		t.Fatalf("alice %d", a)
	}
	// The delegate acts only through the checked transfer, which names the mint.
	wantCode(t, h.exec([]core.Instruction{token.Transfer(t22, aliceTA.PublicKey(), bobTA.PublicKey(), carol.PublicKey(), nil, 1)}, carol),
		custom(0, token.OwnerMismatch), "Error: owner does not match")
	h2 := newHarness(t)
	wantCode(t, h2.createMint22([]token.ExtensionType{token.ExtPermanentDelegate}, 0,
		token.InitializePermanentDelegate(mintKP.PublicKey(), core.Pubkey{})), ixErr(1, "InvalidArgument"), "Error: InvalidArgument")
}

func TestMemoTransfer(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	runtimetest.WantErr(t, h.createMint22(nil, 0), success)
	h.createAccount22(aliceTA, alice.PublicKey(), nil)
	h.createAccount22(bobTA, bob.PublicKey(), []token.ExtensionType{token.ExtMemoTransfer})
	h.ok([]core.Instruction{token.MintTo(t22, mintKP.PublicKey(), aliceTA.PublicKey(), alice.PublicKey(), nil, 50)}, alice)
	res := h.ok([]core.Instruction{token.EnableRequiredMemoTransfers(bobTA.PublicKey(), bob.PublicKey(), nil)}, bob)
	if !slices.Contains(res.Logs, "Program log: RequiredMemoTransfersInstruction::Enable") {
		t.Fatalf("logs %q", res.Logs)
	}
	transfer := token.TransferChecked(t22, aliceTA.PublicKey(), mintKP.PublicKey(), bobTA.PublicKey(), alice.PublicKey(), nil, 5, 2)
	wantCode(t, h.exec([]core.Instruction{transfer}, alice), custom(0, token.NoMemo),
		"Error: No memo in previous instruction required for recipient to receive a transfer")
	// A memo that is not right before the transfer does not count.
	wantCode(t, h.exec([]core.Instruction{memo.Instruction("hi"), token.MintTo(t22, mintKP.PublicKey(), aliceTA.PublicKey(), alice.PublicKey(), nil, 1), transfer}, alice),
		custom(2, token.NoMemo), "")
	h.ok([]core.Instruction{memo.Instruction("invoice 42"), transfer}, alice)
	if got := h.account(bobTA.PublicKey()).Amount; got != 5 {
		t.Fatalf("bob %d", got)
	}
}

// cpiCallerID is a test program that invokes the program given as its first account with
// its own data and remaining accounts.
var cpiCallerID = key(60).PublicKey()

func cpiCaller(ctx *runtime.InvokeContext) error {
	if err := ctx.Consume(100); err != nil {
		return err
	}
	prog, err := ctx.Key(0)
	if err != nil {
		return err
	}
	var metas []core.AccountMeta
	for i := 1; i < ctx.NumAccounts(); i++ {
		k, _ := ctx.Key(i)
		s, _ := ctx.IsSigner(i)
		w, _ := ctx.IsWritable(i)
		metas = append(metas, core.AccountMeta{Pubkey: k, IsSigner: s, IsWritable: w})
	}
	return ctx.Invoke(core.Instruction{ProgramID: prog, Accounts: metas, Data: ctx.Data()}, nil)
}

func viaCPI(ix core.Instruction) core.Instruction {
	return core.Instruction{ProgramID: cpiCallerID, Data: ix.Data,
		Accounts: append([]core.AccountMeta{core.Readonly(ix.ProgramID)}, ix.Accounts...)}
}

func TestCpiGuard(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.env.Programs.RegisterBuiltin(cpiCallerID, runtime.ProgramFunc(cpiCaller))
	h.accs[cpiCallerID] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true}
	runtimetest.WantErr(t, h.createMint22(nil, 0), success)
	h.createAccount22(aliceTA, alice.PublicKey(), []token.ExtensionType{token.ExtCpiGuard})
	h.createAccount22(bobTA, bob.PublicKey(), nil)
	h.ok([]core.Instruction{token.MintTo(t22, mintKP.PublicKey(), aliceTA.PublicKey(), alice.PublicKey(), nil, 50)}, alice)
	transfer := token.TransferChecked(t22, aliceTA.PublicKey(), mintKP.PublicKey(), bobTA.PublicKey(), alice.PublicKey(), nil, 5, 2)
	// Before the guard, a program may move the owner's tokens.
	h.ok([]core.Instruction{viaCPI(transfer)}, alice)
	wantCode(t, h.exec([]core.Instruction{viaCPI(token.EnableCpiGuard(aliceTA.PublicKey(), alice.PublicKey(), nil))}, alice),
		custom(0, token.CpiGuardSettingsLocked), "CPI Guard status cannot be changed in CPI")
	h.ok([]core.Instruction{token.EnableCpiGuard(aliceTA.PublicKey(), alice.PublicKey(), nil)}, alice)
	wantCode(t, h.exec([]core.Instruction{viaCPI(transfer)}, alice), custom(0, token.CpiGuardTransferBlocked),
		"CPI Guard is enabled, and a program attempted to transfer user funds without using a delegate")
	wantCode(t, h.exec([]core.Instruction{viaCPI(token.Approve(t22, aliceTA.PublicKey(), carol.PublicKey(), alice.PublicKey(), nil, 1))}, alice),
		custom(0, token.CpiGuardApproveBlocked), "")
	wantCode(t, h.exec([]core.Instruction{token.SetAuthority(t22, aliceTA.PublicKey(), pk(bob), token.AuthorityAccountOwner, alice.PublicKey(), nil)}, alice),
		custom(0, token.CpiGuardOwnerChangeBlocked), "")
	// Directly, the owner still transfers.
	res := h.ok([]core.Instruction{transfer}, alice)
	if got := h.account(bobTA.PublicKey()).Amount; got != 10 {
		t.Fatalf("bob %d (%q)", got, res.Logs)
	}
	// The CPI is recorded with its stack height.
	res = h.exec([]core.Instruction{viaCPI(token.DisableCpiGuard(aliceTA.PublicKey(), alice.PublicKey(), nil))}, alice)
	if len(res.InnerInstructions) != 1 || res.InnerInstructions[0].Instructions[0].StackHeight != 2 {
		t.Fatalf("inner instructions %+v", res.InnerInstructions)
	}
	if !slices.Contains(res.Logs, "Program "+token22ID+" invoke [2]") {
		t.Fatalf("logs %q", res.Logs)
	}
}

func TestInterestBearing(t *testing.T) {
	t.Parallel()
	const year = 31_556_736
	h := newHarness(t)
	size, _ := token.MintExtensionLen(token.ExtInterestBearingConfig)
	h.ok([]core.Instruction{
		system.CreateAccount(payer.PublicKey(), mintKP.PublicKey(), h.rent(size), uint64(size), t22),
		token.InitializeInterestBearingConfig(mintKP.PublicKey(), pk(alice), 500),
		token.InitializeMint2(t22, mintKP.PublicKey(), alice.PublicKey(), nil, 18),
	}, payer, mintKP)
	h.env.Clock.UnixTimestamp = year
	res := h.ok([]core.Instruction{token.AmountToUiAmount(t22, mintKP.PublicKey(), 1_000_000_000_000_000_000)}, payer)
	if got := string(res.ReturnData.Data); got != "1.051271096376024117" {
		t.Errorf("ui amount %q", got)
	}
	res = h.ok([]core.Instruction{token.UiAmountToAmount(t22, mintKP.PublicKey(), "1.0512710963760241")}, payer)
	if got := binary.LittleEndian.Uint64(res.ReturnData.Data); got != 1_000_000_000_000_000_000 {
		t.Errorf("amount %d", got)
	}
	wantCode(t, h.exec([]core.Instruction{token.UiAmountToAmount(t22, mintKP.PublicKey(), "inf")}, payer),
		ixErr(0, "InvalidArgument"), "Error: InvalidArgument")
	wantCode(t, h.exec([]core.Instruction{token.UpdateInterestBearingConfigRate(mintKP.PublicKey(), bob.PublicKey(), nil, 100)}, bob),
		custom(0, token.OwnerMismatch), "Error: owner does not match")
	h.env.Clock.UnixTimestamp = 2 * year
	h.ok([]core.Instruction{token.UpdateInterestBearingConfigRate(mintKP.PublicKey(), alice.PublicKey(), nil, -500)}, alice)
	cfg := h.extension(mintKP.PublicKey(), token.ExtInterestBearingConfig).(*token.InterestBearingConfig)
	if cfg.PreUpdateAverageRate != 500 || cfg.CurrentRate != -500 || cfg.LastUpdateTimestamp != 2*year {
		t.Fatalf("config %+v", cfg)
	}
	h.env.Clock.UnixTimestamp = 4 * year
	res = h.ok([]core.Instruction{token.AmountToUiAmount(t22, mintKP.PublicKey(), 1_000_000_000_000_000_000)}, payer)
	if got := string(res.ReturnData.Data); got != "1" {
		t.Errorf("ui amount after netting out %q", got)
	}
}

func TestTransferFee(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtTransferFeeConfig}, 0,
		token.InitializeTransferFeeConfig(mintKP.PublicKey(), pk(alice), pk(carol), 100, 50)), success)
	if n := h.accountSize(); n != 178 {
		t.Fatalf("account size %d", n)
	}
	h.createAccount22(aliceTA, alice.PublicKey(), nil)
	h.createAccount22(bobTA, bob.PublicKey(), nil)
	h.createAccount22(carolTA, carol.PublicKey(), nil)
	m, a, b := mintKP.PublicKey(), aliceTA.PublicKey(), bobTA.PublicKey()
	h.ok([]core.Instruction{token.MintTo(t22, m, a, alice.PublicKey(), nil, 10_000)}, alice)

	wantCode(t, h.exec([]core.Instruction{token.Transfer(t22, a, b, alice.PublicKey(), nil, 1000)}, alice),
		custom(0, token.MintRequiredForTransfer), "Mint required for this account to transfer tokens, use `transfer_checked` or `transfer_checked_with_fee`")
	wantCode(t, h.exec([]core.Instruction{token.TransferCheckedWithFee(a, m, b, alice.PublicKey(), nil, 1000, 2, 5)}, alice),
		custom(0, token.FeeMismatch), "Calculated fee {calculated_fee}, received {fee}")
	res := h.ok([]core.Instruction{token.TransferCheckedWithFee(a, m, b, alice.PublicKey(), nil, 1000, 2, 10)}, alice)
	units := token.ComputeUnits(t22, []byte{byte(token.KindTransferFeeExtension), 1})
	runtimetest.WantLogs(t, res, programLogs(token22ID, units, 200_000, "", "TransferFeeInstruction: TransferCheckedWithFee")...)
	h.ok([]core.Instruction{token.TransferChecked(t22, a, m, b, alice.PublicKey(), nil, 9000, 2)}, alice) // fee capped at 50
	if got := h.account(b).Amount; got != 990+8950 {
		t.Fatalf("bob %d", got)
	}
	if v := h.extension(b, token.ExtTransferFeeAmount).(*token.TransferFeeAmount); v.WithheldAmount != 60 {
		t.Fatalf("withheld %d", v.WithheldAmount)
	}
	// An account with withheld fees cannot close; harvesting moves them to the mint, where
	// the withdraw authority collects them.
	h.ok([]core.Instruction{token.Burn(t22, b, m, bob.PublicKey(), nil, 9940)}, bob)
	wantCode(t, h.exec([]core.Instruction{token.CloseAccount(t22, b, bob.PublicKey(), bob.PublicKey(), nil)}, bob),
		custom(0, token.AccountHasWithheldTransferFees), "Error: An account can only be closed if its withheld fee balance is zero, harvest fees to the mint and try again")
	res = h.ok([]core.Instruction{token.HarvestWithheldTokensToMint(m, b, a, alice.PublicKey())}, payer)
	if !slices.Contains(res.Logs, "Program log: Error harvesting from "+alice.PublicKey().String()+": State is invalid for requested operation") {
		t.Fatalf("logs %q", res.Logs)
	}
	if v := h.extension(m, token.ExtTransferFeeConfig).(*token.TransferFeeConfig); v.WithheldAmount != 60 {
		t.Fatalf("mint withheld %d", v.WithheldAmount)
	}
	h.ok([]core.Instruction{token.CloseAccount(t22, b, bob.PublicKey(), bob.PublicKey(), nil)}, bob)
	wantCode(t, h.exec([]core.Instruction{token.WithdrawWithheldTokensFromMint(m, carolTA.PublicKey(), alice.PublicKey(), nil)}, alice),
		custom(0, token.OwnerMismatch), "")
	h.ok([]core.Instruction{token.WithdrawWithheldTokensFromMint(m, carolTA.PublicKey(), carol.PublicKey(), nil)}, carol)
	if got := h.account(carolTA.PublicKey()).Amount; got != 60 {
		t.Fatalf("carol %d", got)
	}
	// Withdrawing straight from accounts.
	h.ok([]core.Instruction{token.MintTo(t22, m, a, alice.PublicKey(), nil, 1000)}, alice)
	h.ok([]core.Instruction{token.TransferChecked(t22, a, m, carolTA.PublicKey(), alice.PublicKey(), nil, 1000, 2)}, alice)
	before := h.account(a).Amount
	h.ok([]core.Instruction{token.WithdrawWithheldTokensFromAccounts(m, a, carol.PublicKey(), nil, []core.Pubkey{carolTA.PublicKey()})}, carol)
	if got := h.account(a).Amount; got != before+10 {
		t.Fatalf("alice %d, want %d", got, before+10)
	}
	// A new fee takes effect two epochs later.
	h.env.Clock.Epoch = 7
	h.ok([]core.Instruction{token.SetTransferFee(m, alice.PublicKey(), nil, 200, 1000)}, alice)
	cfg := h.extension(m, token.ExtTransferFeeConfig).(*token.TransferFeeConfig)
	if cfg.NewerTransferFee != (token.TransferFee{Epoch: 9, MaximumFee: 1000, TransferFeeBasisPoints: 200}) ||
		cfg.OlderTransferFee.TransferFeeBasisPoints != 100 {
		t.Fatalf("fees %+v", cfg)
	}
	wantCode(t, h.exec([]core.Instruction{token.SetTransferFee(m, alice.PublicKey(), nil, 10_001, 1000)}, alice),
		custom(0, token.TransferFeeExceedsMaximum), "Error: Transfer fee exceeds maximum of 10,000 basis points")
	h2 := newHarness(t)
	wantCode(t, h2.createMint22([]token.ExtensionType{token.ExtTransferFeeConfig}, 0,
		token.InitializeTransferFeeConfig(mintKP.PublicKey(), nil, nil, 10_001, 5)),
		custom(1, token.TransferFeeExceedsMaximum), "")
}

func TestTokenMetadata(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	m := mintKP.PublicKey()
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtMetadataPointer}, 1e7,
		token.InitializeMetadataPointer(m, pk(alice), &m)), success)
	res := h.ok([]core.Instruction{token.InitializeTokenMetadata(m, alice.PublicKey(), alice.PublicKey(), "Gold", "GLD", "https://gold.example")}, alice)
	units := token.ComputeUnits(t22, token.InitializeTokenMetadata(m, alice.PublicKey(), alice.PublicKey(), "", "", "").Data)
	runtimetest.WantLogs(t, res, programLogs(token22ID, units, 200_000, "", "TokenMetadataInstruction: Initialize")...)
	md := h.extension(m, token.ExtTokenMetadata).(*token.TokenMetadata)
	if md.Name != "Gold" || md.Symbol != "GLD" || md.URI != "https://gold.example" || md.Mint != m || md.UpdateAuthority.Value != alice.PublicKey() {
		t.Fatalf("metadata %+v", md)
	}
	h.ok([]core.Instruction{token.UpdateTokenMetadataField(m, alice.PublicKey(), token.MetadataField{Kind: token.FieldKey, Key: "color"}, "blue")}, alice)
	h.ok([]core.Instruction{token.UpdateTokenMetadataField(m, alice.PublicKey(), token.MetadataField{Kind: token.FieldName}, "Golden")}, alice)
	md = h.extension(m, token.ExtTokenMetadata).(*token.TokenMetadata)
	if md.Name != "Golden" || len(md.AdditionalMetadata) != 1 || md.AdditionalMetadata[0] != [2]string{"color", "blue"} {
		t.Fatalf("metadata %+v", md)
	}
	if got, want := len(h.accs[m].Data), 234+4+len(md.Pack()); got != want {
		t.Fatalf("mint size %d, want %d", got, want)
	}
	res = h.ok([]core.Instruction{token.EmitTokenMetadata(m, nil, nil)}, payer)
	if res.ReturnData == nil || string(res.ReturnData.Data) != string(md.Pack()) {
		t.Fatalf("emitted %v", res.ReturnData)
	}
	wantCode(t, h.exec([]core.Instruction{token.RemoveTokenMetadataKey(m, alice.PublicKey(), "size", false)}, alice),
		`{"InstructionError":[0,{"Custom":901952962}]}`, "Error: Unknown")
	h.ok([]core.Instruction{token.RemoveTokenMetadataKey(m, alice.PublicKey(), "color", false)}, alice)
	wantCode(t, h.exec([]core.Instruction{token.UpdateTokenMetadataField(m, bob.PublicKey(), token.MetadataField{Kind: token.FieldURI}, "x")}, bob),
		`{"InstructionError":[0,{"Custom":901952960}]}`, "")
	h.ok([]core.Instruction{token.UpdateTokenMetadataUpdateAuthority(m, alice.PublicKey(), nil)}, alice)
	wantCode(t, h.exec([]core.Instruction{token.UpdateTokenMetadataField(m, alice.PublicKey(), token.MetadataField{Kind: token.FieldURI}, "x")}, alice),
		`{"InstructionError":[0,{"Custom":901952961}]}`, "")
	md = h.extension(m, token.ExtTokenMetadata).(*token.TokenMetadata)
	if got, want := len(h.accs[m].Data), 234+4+len(md.Pack()); got != want || md.UpdateAuthority.Some {
		t.Fatalf("mint size %d, want %d (%+v)", got, want, md)
	}
	// The metadata pointer is required, and only the mint authority may initialize.
	h2 := newHarness(t)
	runtimetest.WantErr(t, h2.createMint22([]token.ExtensionType{token.ExtMintCloseAuthority}, 1e7,
		token.InitializeMintCloseAuthority(m, pk(alice))), success)
	wantCode(t, h2.exec([]core.Instruction{token.InitializeTokenMetadata(m, alice.PublicKey(), alice.PublicKey(), "a", "b", "c")}, alice),
		custom(0, token.InvalidExtensionCombination), "A mint with metadata must have the metadata-pointer extension initialized")
	wantCode(t, h2.exec([]core.Instruction{token.InitializeTokenMetadata(m, alice.PublicKey(), bob.PublicKey(), "a", "b", "c")}, bob),
		`{"InstructionError":[0,{"Custom":901952959}]}`, "")
}

func TestReallocate(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	runtimetest.WantErr(t, h.createMint22(nil, 0), success)
	h.createAccount22(aliceTA, alice.PublicKey(), nil)
	a := aliceTA.PublicKey()
	res := h.ok([]core.Instruction{token.Reallocate(a, payer.PublicKey(), alice.PublicKey(), nil, token.ExtMemoTransfer)}, payer, alice)
	if len(h.accs[a].Data) != 171 || h.accs[a].Lamports != h.rent(171) {
		t.Fatalf("account %d bytes %d lamports", len(h.accs[a].Data), h.accs[a].Lamports)
	}
	if !slices.Contains(res.Logs, "Program log: account needs resize, +6 bytes") || len(res.InnerInstructions) != 1 {
		t.Fatalf("logs %q inner %+v", res.Logs, res.InnerInstructions)
	}
	h.ok([]core.Instruction{token.EnableRequiredMemoTransfers(a, alice.PublicKey(), nil)}, alice)
	if v := h.extension(a, token.ExtMemoTransfer).(*token.MemoTransfer); !v.RequireIncomingTransferMemos {
		t.Fatal("memo not required")
	}
	// Already large enough: nothing happens.
	h.ok([]core.Instruction{token.Reallocate(a, payer.PublicKey(), alice.PublicKey(), nil, token.ExtMemoTransfer)}, payer, alice)
	wantCode(t, h.exec([]core.Instruction{token.Reallocate(a, payer.PublicKey(), alice.PublicKey(), nil, token.ExtTransferFeeConfig)}, payer, alice),
		custom(0, token.InvalidState), "Error: Invalid account state for operation")
	wantCode(t, h.exec([]core.Instruction{token.GetAccountDataSize(t22, mintKP.PublicKey(), token.ExtMintCloseAuthority)}, payer),
		custom(0, token.ExtensionTypeMismatch), "Error: New extension type does not match already existing extensions")
}

func TestUnsupportedInstructions(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	runtimetest.WantErr(t, h.createMint22(nil, 0), success)
	for _, c := range []struct {
		data  []byte
		lines []string
	}{
		{[]byte{200, 1, 2, 3, 4, 5, 6, 7, 8}, nil},
		{nil, nil},
	} {
		ix := core.Instruction{ProgramID: t22, Data: c.data, Accounts: []core.AccountMeta{core.Writable(mintKP.PublicKey())}}
		res := h.exec([]core.Instruction{ix}, payer)
		runtimetest.WantErr(t, res, custom(0, token.InvalidInstruction))
		runtimetest.WantLogs(t, res, programLogs(token22ID, token.ComputeUnits(t22, c.data), 200_000, hexCode(token.InvalidInstruction),
			append(c.lines, "Error: Invalid instruction")...)...)
	}
	// Known instructions with data of the wrong length.
	res := h.exec([]core.Instruction{{ProgramID: t22, Data: []byte{byte(token.KindTransfer), 1}}}, payer)
	runtimetest.WantErr(t, res, ixErr(0, "InvalidInstructionData"))
	runtimetest.WantLogs(t, res, programLogs(token22ID, token.ComputeUnits(t22, []byte{3}), 200_000, "invalid instruction data",
		"Instruction: Transfer", "Error: InvalidInstructionData")...)
}
