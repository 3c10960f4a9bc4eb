package token_test

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
)

// The Token-2022 instructions ledgerd's program refused as InvalidInstruction before: each runs, fails as the real
// program fails, and shows in jsonParsed (instructions and the accounts they leave) as the reference does.
// conformance/parity's TestToken2022More holds the same instructions to the real build byte for byte.

// parsedIx is the jsonParsed form of a Token-2022 instruction, as JSON.
func parsedIx(t *testing.T, in core.Instruction) string {
	t.Helper()
	msg, err := core.CompileLegacyMessage(payer.PublicKey(), []core.Instruction{in}, blockhash)
	if err != nil {
		t.Fatal(err)
	}
	ci := msg.Instructions[0]
	v, err := token.Modules[1].ParseInstruction.Parse(&runtime.InstructionView{ProgramID: t22, Accounts: ci.Accounts,
		Data: ci.Data, Keys: msg.AccountKeys})
	if err != nil {
		t.Fatalf("parse %x: %v", in.Data, err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// parsedAccount is the jsonParsed "parsed" value of account k, as JSON.
func (h *harness) parsedAccount(k core.Pubkey) string {
	h.t.Helper()
	lookup := func(k core.Pubkey) (runtime.Account, bool) { a, ok := h.accs[k]; return a, ok }
	v, err := token.Modules[1].ParseAccount.Parse(k, h.accs[k].Data, lookup)
	if err != nil {
		h.t.Fatalf("parse account %s: %v", k, err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		h.t.Fatal(err)
	}
	return string(b)
}

func wantJSON(t *testing.T, got string, want ...string) {
	t.Helper()
	w := strings.Join(want, "")
	if got != w {
		t.Fatalf("jsonParsed\n got %s\nwant %s", got, w)
	}
}

func wantLogLines(t *testing.T, res *runtime.Result, lines ...string) {
	t.Helper()
	for _, l := range lines {
		if !slices.Contains(res.Logs, "Program log: "+l) {
			t.Fatalf("logs %q lack %q", res.Logs, l)
		}
	}
}

func TestCreateNativeMint(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	delete(h.accs, token.NativeMint2022)
	h.fund(token.NativeMint2022, 1_000) // lamports sent to the address before it existed
	res := h.ok([]core.Instruction{token.CreateNativeMint(payer.PublicKey())}, payer)
	wantLogLines(t, res, "Instruction: CreateNativeMint")
	a := h.accs[token.NativeMint2022]
	if a.Owner != t22 || a.Lamports != h.rent(token.MintSize) || !slices.Equal(a.Data, token.NativeMintData()) {
		t.Fatalf("native mint %+v", a)
	}
	if len(res.InnerInstructions) != 1 || len(res.InnerInstructions[0].Instructions) != 3 {
		t.Fatalf("inner instructions %+v", res.InnerInstructions)
	}
	// A second time the system program refuses to allocate it.
	runtimetest.WantErr(t, h.exec([]core.Instruction{token.CreateNativeMint(payer.PublicKey())}, payer), `{"InstructionError":[0,{"Custom":0}]}`)
	in := token.CreateNativeMint(payer.PublicKey())
	in.Accounts[1] = core.Writable(bob.PublicKey())
	wantCode(t, h.exec([]core.Instruction{in}, payer), custom(0, token.InvalidMint), "Error: Invalid Mint")
	wantJSON(t, parsedIx(t, token.CreateNativeMint(payer.PublicKey())),
		`{"info":{"nativeMint":"`, token.NativeMint2022.String(), `","payer":"`, payer.PublicKey().String(),
		`","systemProgram":"11111111111111111111111111111111"},"type":"createNativeMint"}`)
}

func TestWithdrawExcessLamports(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	h.setup(t22, 0)
	a, m := aliceTA.PublicKey(), mintKP.PublicKey()
	h.ok([]core.Instruction{system.Transfer(payer.PublicKey(), a, 777), system.Transfer(payer.PublicKey(), m, 555)}, payer)
	before := h.accs[carol.PublicKey()].Lamports
	wantCode(t, h.exec([]core.Instruction{token.WithdrawExcessLamports(a, carol.PublicKey(), bob.PublicKey(), nil)}, bob),
		custom(0, token.OwnerMismatch), "Error: owner does not match")
	res := h.ok([]core.Instruction{token.WithdrawExcessLamports(a, carol.PublicKey(), alice.PublicKey(), nil),
		token.WithdrawExcessLamports(m, carol.PublicKey(), alice.PublicKey(), nil)}, alice)
	wantLogLines(t, res, "Instruction: WithdrawExcessLamports")
	if got := h.accs[carol.PublicKey()].Lamports - before; got != 777+555 || h.accs[a].Lamports != h.rent(token.AccountSize) {
		t.Fatalf("withdrew %d, account keeps %d", got, h.accs[a].Lamports)
	}
	wantCode(t, h.exec([]core.Instruction{token.WithdrawExcessLamports(bob.PublicKey(), carol.PublicKey(), bob.PublicKey(), nil)}, bob),
		ixErr(0, "IncorrectProgramId"), "Error: IncorrectProgramId")
	wantJSON(t, parsedIx(t, token.WithdrawExcessLamports(a, carol.PublicKey(), alice.PublicKey(), nil)),
		`{"info":{"authority":"`, alice.PublicKey().String(), `","destination":"`, carol.PublicKey().String(),
		`","source":"`, a.String(), `"},"type":"withdrawExcessLamports"}`)
}

func TestUnwrapLamports(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	w := aliceTA.PublicKey()
	h.ok([]core.Instruction{system.CreateAccount(payer.PublicKey(), w, h.rent(token.AccountSize)+2e9, token.AccountSize, t22),
		token.InitializeAccount3(t22, w, token.NativeMint2022, alice.PublicKey())}, payer, aliceTA)
	bobBefore := h.accs[bob.PublicKey()].Lamports
	amount := uint64(5e8)
	res := h.ok([]core.Instruction{token.UnwrapLamports(w, bob.PublicKey(), alice.PublicKey(), nil, &amount)}, alice)
	wantLogLines(t, res, "Instruction: UnwrapLamports")
	if h.account(w).Amount != 15e8 || h.accs[bob.PublicKey()].Lamports-bobBefore != 5e8 {
		t.Fatalf("amount %d, bob got %d", h.account(w).Amount, h.accs[bob.PublicKey()].Lamports-bobBefore)
	}
	much := uint64(2e9)
	wantCode(t, h.exec([]core.Instruction{token.UnwrapLamports(w, bob.PublicKey(), alice.PublicKey(), nil, &much)}, alice),
		custom(0, token.InsufficientFunds), "Error: insufficient funds")
	h.ok([]core.Instruction{token.UnwrapLamports(w, bob.PublicKey(), alice.PublicKey(), nil, nil)}, alice)
	if h.account(w).Amount != 0 || h.accs[w].Lamports != h.rent(token.AccountSize) {
		t.Fatalf("after unwrapping all: %d tokens, %d lamports", h.account(w).Amount, h.accs[w].Lamports)
	}
	wantJSON(t, parsedIx(t, token.UnwrapLamports(w, bob.PublicKey(), alice.PublicKey(), nil, &amount)),
		`{"info":{"amount":"500000000","authority":"`, alice.PublicKey().String(), `","destination":"`,
		bob.PublicKey().String(), `","source":"`, w.String(), `"},"type":"unwrapLamports"}`)
	wantJSON(t, parsedIx(t, token.UnwrapLamports(w, bob.PublicKey(), alice.PublicKey(), nil, nil)),
		`{"info":{"authority":"`, alice.PublicKey().String(), `","destination":"`,
		bob.PublicKey().String(), `","source":"`, w.String(), `"},"type":"unwrapLamports"}`)
}

func TestTokenGroups(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	A, M := alice.PublicKey(), mintKP.PublicKey()
	res := h.createMint22([]token.ExtensionType{token.ExtGroupPointer}, 10_000_000,
		token.InitializePointer(token.ExtGroupPointer, M, &A, &M))
	runtimetest.WantErr(t, res, success)
	wantLogLines(t, res, "GroupPointerInstruction::Initialize")
	res = h.ok([]core.Instruction{token.InitializeTokenGroup(M, A, &A, 5)}, alice)
	wantLogLines(t, res, "TokenGroupInstruction: InitializeGroup")
	// The member mint is another key; the harness's createMint22 makes mintKP, so this one is built by hand.
	mm := mint2KP.PublicKey()
	size, _ := token.MintExtensionLen(token.ExtGroupMemberPointer)
	h.ok([]core.Instruction{system.CreateAccount(payer.PublicKey(), mm, h.rent(size)+10_000_000, uint64(size), t22),
		token.InitializePointer(token.ExtGroupMemberPointer, mm, &A, &mm),
		token.InitializeMint2(t22, mm, A, nil, 0)}, payer, mint2KP)
	res = h.ok([]core.Instruction{token.InitializeTokenGroupMember(mm, A, M, A)}, alice)
	wantLogLines(t, res, "TokenGroupInstruction: InitializeMember")
	wantCode(t, h.exec([]core.Instruction{token.UpdateTokenGroupMaxSize(M, A, 0)}, alice),
		`{"InstructionError":[0,{"Custom":3406457176}]}`, "Error: Unknown")
	h.ok([]core.Instruction{token.UpdateTokenGroupAuthority(M, A, nil)}, alice)
	wantCode(t, h.exec([]core.Instruction{token.UpdateTokenGroupMaxSize(M, A, 9)}, alice),
		`{"InstructionError":[0,{"Custom":3406457178}]}`, "Error: Unknown")

	ext := func(s string) string { return strings.ReplaceAll(s, "'", `"`) }
	got := h.parsedAccount(M)
	if want := ext(`"extensions":[{'extension':'groupPointer','state':{'authority':'` + A.String() + `','groupAddress':'` + M.String() +
		`'}},{'extension':'tokenGroup','state':{'maxSize':5,'mint':'` + M.String() + `','size':1,'updateAuthority':null}}]`); !strings.Contains(got, want) {
		t.Fatalf("group mint %s\nlacks %s", got, want)
	}
	got = h.parsedAccount(mm)
	if want := ext(`"extensions":[{'extension':'groupMemberPointer','state':{'authority':'` + A.String() + `','memberAddress':'` + mm.String() +
		`'}},{'extension':'tokenGroupMember','state':{'group':'` + M.String() + `','memberNumber':1,'mint':'` + mm.String() + `'}}]`); !strings.Contains(got, want) {
		t.Fatalf("member mint %s\nlacks %s", got, want)
	}
	wantJSON(t, parsedIx(t, token.InitializeTokenGroup(M, A, &A, 5)), ext(`{'info':{'group':'`+M.String()+`','maxSize':5,'mint':'`+
		M.String()+`','mintAuthority':'`+A.String()+`','updateAuthority':'`+A.String()+`'},'type':'initializeTokenGroup'}`))
	wantJSON(t, parsedIx(t, token.InitializeTokenGroupMember(mm, A, M, A)), ext(`{'info':{'group':'`+M.String()+
		`','groupUpdateAuthority':'`+A.String()+`','member':'`+mm.String()+`','memberMint':'`+mm.String()+
		`','memberMintAuthority':'`+A.String()+`'},'type':'initializeTokenGroupMember'}`))
	wantJSON(t, parsedIx(t, token.UpdatePointer(token.ExtGroupMemberPointer, mm, A, nil, nil)), ext(`{'info':{'authority':'`+
		A.String()+`','mint':'`+mm.String()+`'},'type':'updateGroupMemberPointer'}`))
}

func TestScaledUiAmount(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	A, M := alice.PublicKey(), mintKP.PublicKey()
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtScaledUiAmount}, 0, token.InitializeScaledUiAmount(M, &A, 0)),
		custom(1, token.InvalidScale))
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtScaledUiAmount}, 0, token.InitializeScaledUiAmount(M, &A, 2.5)), success)
	res := h.ok([]core.Instruction{token.AmountToUiAmount(t22, M, 1234)}, payer)
	if got := string(res.ReturnData.Data); got != "30.85" {
		t.Fatalf("AmountToUiAmount %q", got)
	}
	res = h.ok([]core.Instruction{token.UiAmountToAmount(t22, M, "30.85")}, payer)
	if got := binary.LittleEndian.Uint64(res.ReturnData.Data); got != 1234 {
		t.Fatalf("UiAmountToAmount %d", got)
	}
	res = h.ok([]core.Instruction{token.UpdateScaledUiAmountMultiplier(M, A, nil, 4, 0)}, alice)
	wantLogLines(t, res, "Instruction: ScaledUiAmountExtension", "ScaledUiAmountMintInstruction::UpdateScale")
	wantCode(t, h.exec([]core.Instruction{token.UpdateScaledUiAmountMultiplier(M, A, nil, math.NaN(), 0)}, alice),
		custom(0, token.InvalidScale), "Invalid scale for scaled ui amount")
	h.createAccount22(aliceTA, A, nil)
	h.ok([]core.Instruction{token.MintTo(t22, M, aliceTA.PublicKey(), A, nil, 250)}, alice)
	if got := h.parsedAccount(aliceTA.PublicKey()); !strings.Contains(got, `"tokenAmount":{"amount":"250","decimals":2,"uiAmount":10.0,"uiAmountString":"10"}`) {
		t.Fatalf("scaled account %s", got)
	}
	if got := h.parsedAccount(M); !strings.Contains(got, `{"extension":"scaledUiAmountConfig","state":{"authority":"`+A.String()+
		`","multiplier":"4","newMultiplier":"4","newMultiplierEffectiveTimestamp":0}}`) {
		t.Fatalf("scaled mint %s", got)
	}
	wantJSON(t, parsedIx(t, token.InitializeScaledUiAmount(M, &A, 2.5)), `{"info":{"authority":"`, A.String(), `","mint":"`,
		M.String(), `","multiplier":"2.5"},"type":"initializeScaledUiAmountConfig"}`)
	wantJSON(t, parsedIx(t, token.UpdateScaledUiAmountMultiplier(M, A, nil, 4, 77)), `{"info":{"authority":"`, A.String(),
		`","mint":"`, M.String(), `","newMultiplier":"4","newMultiplierTimestamp":77},"type":"updateMultiplier"}`)
}

func TestPausable(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	A, M := alice.PublicKey(), mintKP.PublicKey()
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtPausable}, 0, token.InitializePausable(M, A)), success)
	h.createAccount22(aliceTA, A, nil)
	h.createAccount22(bobTA, bob.PublicKey(), nil)
	a, b := aliceTA.PublicKey(), bobTA.PublicKey()
	h.ok([]core.Instruction{token.MintTo(t22, M, a, A, nil, 100)}, alice)
	res := h.ok([]core.Instruction{token.Pause(M, A, nil, true)}, alice)
	wantLogLines(t, res, "Instruction: PausableExtension", "PausableInstruction::Pause")
	for _, in := range []core.Instruction{token.TransferChecked(t22, a, M, b, A, nil, 1, 2), token.MintTo(t22, M, a, A, nil, 1),
		token.Burn(t22, a, M, A, nil, 1)} {
		wantCode(t, h.exec([]core.Instruction{in}, alice), custom(0, token.MintPaused),
			"Transferring, minting, and burning is paused on this mint")
	}
	wantCode(t, h.exec([]core.Instruction{token.Transfer(t22, a, b, A, nil, 1)}, alice), custom(0, token.MintRequiredForTransfer), "")
	if got := h.parsedAccount(M); !strings.Contains(got, `{"extension":"pausableConfig","state":{"authority":"`+A.String()+`","paused":true}}`) {
		t.Fatalf("paused mint %s", got)
	}
	if got := h.parsedAccount(a); !strings.Contains(got, `"extensions":[{"extension":"pausableAccount"}]`) {
		t.Fatalf("pausable account %s", got)
	}
	h.ok([]core.Instruction{token.Pause(M, A, nil, false), token.TransferChecked(t22, a, M, b, A, nil, 1, 2)}, alice)
	wantJSON(t, parsedIx(t, token.InitializePausable(M, A)), `{"info":{"authority":"`, A.String(), `","mint":"`, M.String(),
		`"},"type":"initializePausableConfig"}`)
	wantJSON(t, parsedIx(t, token.Pause(M, A, nil, false)), `{"info":{"authority":"`, A.String(), `","mint":"`, M.String(),
		`"},"type":"resume"}`)
}

func TestPermissionedBurn(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	A, C, M := alice.PublicKey(), carol.PublicKey(), mintKP.PublicKey()
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtPermissionedBurn}, 0, token.InitializePermissionedBurn(M, C)), success)
	h.createAccount22(aliceTA, A, nil)
	a := aliceTA.PublicKey()
	h.ok([]core.Instruction{token.MintTo(t22, M, a, A, nil, 100)}, alice)
	wantCode(t, h.exec([]core.Instruction{token.Burn(t22, a, M, A, nil, 1)}, alice), custom(0, token.InvalidInstruction), "Error: Invalid instruction")
	d := uint8(2)
	res := h.ok([]core.Instruction{token.PermissionedBurn(a, M, C, A, nil, 30, &d)}, alice, carol)
	wantLogLines(t, res, "Instruction: PermissionedBurnExtension", "PermissionedBurnInstruction::BurnChecked")
	if h.account(a).Amount != 70 || h.mint(M).Supply != 70 {
		t.Fatalf("after the burn: %d held, supply %d", h.account(a).Amount, h.mint(M).Supply)
	}
	wantCode(t, h.exec([]core.Instruction{token.PermissionedBurn(a, M, bob.PublicKey(), A, nil, 1, nil)}, alice, bob),
		ixErr(0, "InvalidAccountData"), "Error: InvalidAccountData")
	if got := h.parsedAccount(M); !strings.Contains(got, `{"extension":"permissionedBurnConfig","state":{"authority":"`+C.String()+`"}}`) {
		t.Fatalf("mint %s", got)
	}
	wantJSON(t, parsedIx(t, token.PermissionedBurn(a, M, C, A, nil, 30, &d)), `{"info":{"account":"`, a.String(), `","authority":"`,
		A.String(), `","mint":"`, M.String(), `","permissionedBurnAuthority":"`, C.String(),
		`","tokenAmount":{"amount":"30","decimals":2,"uiAmount":0.3,"uiAmountString":"0.3"}},"type":"permissionedBurnChecked"}`)
	wantJSON(t, parsedIx(t, token.InitializePermissionedBurn(M, C)), `{"info":{"authority":"`, C.String(), `","mint":"`, M.String(),
		`"},"type":"initializePermissionedBurnConfig"}`)
}

func TestBatch(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	A, M, a, b := alice.PublicKey(), mintKP.PublicKey(), aliceTA.PublicKey(), bobTA.PublicKey()
	h.ok([]core.Instruction{system.CreateAccount(payer.PublicKey(), M, h.rent(token.MintSize), token.MintSize, t22),
		system.CreateAccount(payer.PublicKey(), a, h.rent(token.AccountSize), token.AccountSize, t22),
		system.CreateAccount(payer.PublicKey(), b, h.rent(token.AccountSize), token.AccountSize, t22)}, payer, mintKP, aliceTA, bobTA)
	batch := token.Batch(token.InitializeMint2(t22, M, A, nil, 2), token.InitializeAccount3(t22, a, M, A),
		token.InitializeAccount3(t22, b, M, bob.PublicKey()), token.MintTo(t22, M, a, A, nil, 50),
		token.Transfer(t22, a, b, A, nil, 20))
	res := h.ok([]core.Instruction{batch}, alice)
	wantLogLines(t, res, "Instruction: Batch", "Instruction: InitializeMint2", "Instruction: MintTo", "Instruction: Transfer")
	if h.account(a).Amount != 30 || h.account(b).Amount != 20 || h.mint(M).Supply != 50 {
		t.Fatalf("after the batch: %d, %d, supply %d", h.account(a).Amount, h.account(b).Amount, h.mint(M).Supply)
	}
	// The whole batch fails with its failing entry, and nothing of it stays.
	wantCode(t, h.exec([]core.Instruction{token.Batch(token.Transfer(t22, a, b, A, nil, 1), token.Transfer(t22, a, b, A, nil, 100))}, alice),
		custom(0, token.InsufficientFunds), "Error: insufficient funds")
	if h.account(a).Amount != 30 {
		t.Fatal("a failed batch left a change")
	}
	wantCode(t, h.exec([]core.Instruction{token.Batch(token.Batch(token.Transfer(t22, a, b, A, nil, 1)))}, alice),
		custom(0, token.InvalidInstruction), "Error: Invalid instruction")
	got := parsedIx(t, token.Batch(token.MintTo(t22, M, a, A, nil, 5), token.Transfer(t22, a, b, A, nil, 2)))
	wantJSON(t, got, `{"info":{"instructions":[{"info":{"account":"`, a.String(), `","amount":"5","mint":"`, M.String(),
		`","mintAuthority":"`, A.String(), `"},"type":"mintTo"},{"info":{"amount":"2","authority":"`, A.String(),
		`","destination":"`, b.String(), `","source":"`, a.String(), `"},"type":"transfer"}]},"type":"batch"}`)
}

func TestTransferHookConfiguration(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	A, M := alice.PublicKey(), mintKP.PublicKey()
	hook := other.PublicKey()
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtTransferHook}, 0,
		token.InitializePointer(token.ExtTransferHook, M, &A, &t22)), ixErr(1, "IncorrectProgramId"))
	res := h.createMint22([]token.ExtensionType{token.ExtTransferHook}, 0, token.InitializePointer(token.ExtTransferHook, M, &A, nil))
	runtimetest.WantErr(t, res, success)
	wantLogLines(t, res, "TransferHookInstruction::Initialize")
	res = h.ok([]core.Instruction{token.UpdatePointer(token.ExtTransferHook, M, A, nil, &hook)}, alice)
	wantLogLines(t, res, "TransferHookInstruction::Update")
	if got := h.parsedAccount(M); !strings.Contains(got, `{"extension":"transferHook","state":{"authority":"`+A.String()+
		`","programId":"`+hook.String()+`"}}`) {
		t.Fatalf("hooked mint %s", got)
	}
	wantJSON(t, parsedIx(t, token.UpdatePointer(token.ExtTransferHook, M, A, nil, &hook)), `{"info":{"authority":"`, A.String(),
		`","mint":"`, M.String(), `","programId":"`, hook.String(), `"},"type":"updateTransferHook"}`)
}

// TestTransferHookExecution runs a checked transfer of a hooked mint against a hook program written here: it is
// invoked with Execute's data and the transfer's accounts, the validation account and the extra accounts it lists
// (resolved: a fixed address, a program address of the hook from the amount and the source's owner), none signing,
// while both token accounts are marked as transferring; the marks are cleared after it returns.
func TestTransferHookExecution(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	hookID := core.Pubkey{7, 7, 7}
	A, C, M, a, b := alice.PublicKey(), carol.PublicKey(), mintKP.PublicKey(), aliceTA.PublicKey(), bobTA.PublicKey()
	pdaSeeds := []byte{1, 2, 'h', 'k', 2, 8, 8, 4, 0, 32, 32} // "hk", the amount, the source's owner
	pda, _, _ := core.FindProgramAddress([][]byte{[]byte("hk"), binary.LittleEndian.AppendUint64(nil, 40), A[:]}, hookID)
	validation := token.ExtraAccountMetasAddress(M, hookID)
	var metas []byte
	for _, m := range []struct {
		disc     byte
		config   []byte
		writable bool
	}{{0, C[:], true}, {1, pdaSeeds, false}} {
		var e [35]byte
		e[0] = m.disc
		copy(e[1:33], m.config)
		if m.writable {
			e[34] = 1
		}
		metas = append(metas, e[:]...)
	}
	list := append(binary.LittleEndian.AppendUint32(nil, 2), metas...)
	data := append([]byte{105, 37, 101, 197, 75, 251, 102, 26}, binary.LittleEndian.AppendUint32(nil, uint32(len(list)))...)
	h.accs[validation] = runtime.Account{Lamports: 1e9, Owner: hookID, Data: append(data, list...)}

	var calls int
	hook := runtime.ProgramFunc(func(ctx *runtime.InvokeContext) error {
		calls++
		want := []core.Pubkey{a, M, b, A, validation, carol.PublicKey(), pda}
		if ctx.NumAccounts() != len(want) {
			return runtime.ErrNotEnoughAccountKeys
		}
		for i, k := range want {
			got, _ := ctx.Key(i)
			signer, _ := ctx.IsSigner(i)
			writable, _ := ctx.IsWritable(i)
			if got != k || signer || writable != (i == 5) {
				t.Errorf("hook account %d: %s signer %v writable %v, want %s", i, got, signer, writable, k)
			}
		}
		if d := ctx.Data(); !slices.Equal(d[:8], []byte{105, 37, 101, 197, 75, 251, 102, 26}) || binary.LittleEndian.Uint64(d[8:]) != 40 {
			t.Errorf("hook data %x", d)
		}
		for _, i := range []int{0, 2} {
			acct, _ := ctx.Account(i)
			_, exts, _ := token.ParseExtensions(acct.Data())
			for _, e := range exts {
				if e.Type == token.ExtTransferHookAccount && e.Data[0] != 1 {
					t.Errorf("account %d not transferring during the hook", i)
				}
			}
		}
		return nil
	})
	h.env.Programs.RegisterOnChain(hookID, hook)
	h.accs[hookID] = runtime.Account{Lamports: 1, Owner: core.BPFLoaderUpgradeableProgramID, Executable: true}

	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtTransferHook}, 0,
		token.InitializePointer(token.ExtTransferHook, M, &A, &hookID)), success)
	h.createAccount22(aliceTA, A, nil)
	h.createAccount22(bobTA, bob.PublicKey(), nil)
	h.ok([]core.Instruction{token.MintTo(t22, M, a, A, nil, 100)}, alice)
	in := token.TransferChecked(t22, a, M, b, A, nil, 40, 2)
	in.Accounts = append(in.Accounts, core.Readonly(hookID), core.Readonly(validation), core.Writable(carol.PublicKey()), core.Readonly(pda))
	h.ok([]core.Instruction{in}, alice)
	if calls != 1 || h.account(a).Amount != 60 || h.account(b).Amount != 40 {
		t.Fatalf("hook called %d times; balances %d, %d", calls, h.account(a).Amount, h.account(b).Amount)
	}
	for _, k := range []core.Pubkey{a, b} {
		if v := h.extension(k, token.ExtTransferHookAccount).(*token.TransferHookAccount); v.Transferring {
			t.Fatalf("%s still transferring", k)
		}
	}
	// Without the program address among the accounts, the resolution fails in the token program.
	in.Accounts = in.Accounts[:len(in.Accounts)-1]
	wantCode(t, h.exec([]core.Instruction{in}, alice), `{"InstructionError":[0,{"Custom":2724315840}]}`, "Error: Unknown")
	if calls != 1 {
		t.Fatal("the hook ran without its accounts")
	}
}

// TestConfidentialWithoutProofs runs the confidential extensions' instructions that need no proof (the mints'
// configuration, approval, the credit switches) and pins their jsonParsed forms and the extensions they leave; the
// ones that need the ZK ElGamal proof program are named and refused.
func TestConfidentialWithoutProofs(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	A, B, M := alice.PublicKey(), bob.PublicKey(), mintKP.PublicKey()
	auditor := [32]byte{1, 2, 3}
	runtimetest.WantErr(t, h.createMint22([]token.ExtensionType{token.ExtConfidentialTransferMint, token.ExtConfidentialMintBurn}, 0,
		token.InitializeConfidentialTransferMint(M, &A, false, &auditor),
		token.InitializeConfidentialMintBurn(M, [32]byte{7}, [36]byte{8})), success)
	res := h.ok([]core.Instruction{token.UpdateConfidentialTransferMint(M, A, true, nil),
		token.UpdateDecryptableSupply(M, A, nil, [36]byte{9})}, alice)
	wantLogLines(t, res, "ConfidentialTransferInstruction::UpdateMint", "Instruction: ConfidentialMintBurnExtension",
		"ConfidentialMintBurnInstruction::UpdateDecryptableSupply")
	wantCode(t, h.exec([]core.Instruction{token.UpdateConfidentialTransferMint(M, B, true, nil)}, bob),
		custom(0, token.OwnerMismatch), "Error: owner does not match")
	got := h.parsedAccount(M)
	for _, want := range []string{
		`{"extension":"confidentialTransferMint","state":{"auditorElgamalPubkey":null,"authority":"` + A.String() + `","autoApproveNewAccounts":true}}`,
		`{"extension":"confidentialMintBurn","state":{"confidentialSupply":"` + strings.Repeat("A", 86) + `==","decryptableSupply":"CQ` +
			strings.Repeat("A", 46) + `","pendingBurn":"` + strings.Repeat("A", 86) + `==","supplyElgamalPubkey":"Bw` + strings.Repeat("A", 41) + `="}}`,
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("mint %s\nlacks %s", got, want)
		}
	}

	// An account as ConfigureAccount leaves it (set up here: configuring needs a proof).
	size, _ := token.AccountExtensionLen(token.ExtConfidentialTransferAccount)
	d := make([]byte, size)
	copy(d, M[:])
	copy(d[32:], B[:])
	d[108], d[165], d[166], d[168], d[169] = 1, 2, 5, 0x27, 1
	d[170+261], d[170+262] = 1, 1
	a := aliceTA.PublicKey()
	h.accs[a] = runtime.Account{Lamports: h.rent(size), Owner: t22, Data: d}
	h.ok([]core.Instruction{token.ApproveConfidentialTransferAccount(a, M, A)}, alice)
	h.ok([]core.Instruction{token.ConfidentialCredits(a, B, nil, true, false)}, bob)
	v := h.accs[a].Data[170:]
	if v[0] != 1 || v[261] != 1 || v[262] != 0 {
		t.Fatalf("approved %d, credits %d, non-confidential credits %d", v[0], v[261], v[262])
	}
	wantCode(t, h.exec([]core.Instruction{token.ConfidentialCredits(a, A, nil, false, false)}, alice), custom(0, token.OwnerMismatch), "")

	wantJSON(t, parsedIx(t, token.InitializeConfidentialTransferMint(M, &A, false, &auditor)), `{"info":{"auditorElGamalPubkey":"AQID`,
		strings.Repeat("A", 39), `=","authority":"`, A.String(), `","autoApproveNewAccounts":false,"mint":"`, M.String(),
		`"},"type":"initializeConfidentialTransferMint"}`)
	wantJSON(t, parsedIx(t, token.ApproveConfidentialTransferAccount(a, M, A)), `{"info":{"account":"`, a.String(),
		`","confidentialTransferAuditorAuthority":"`, A.String(), `","mint":"`, M.String(), `"},"type":"approveConfidentialTransferAccount"}`)
	wantJSON(t, parsedIx(t, token.ConfidentialCredits(a, B, nil, true, false)), `{"info":{"account":"`, a.String(), `","owner":"`,
		B.String(), `"},"type":"disableConfidentialTransferNonConfidentialCredits"}`)
	wantJSON(t, parsedIx(t, token.InitializeConfidentialTransferFeeConfig(M, nil, [32]byte{})), `{"info":{"mint":"`, M.String(),
		`","withdrawWithheldAuthorityElGamalPubkey":"`, strings.Repeat("A", 43), `="},"type":"initializeConfidentialTransferFeeConfig"}`)
	wantJSON(t, parsedIx(t, token.HarvestToMint(M, A, nil, false)), `{"info":{"account":"`, M.String(), `","owner":"`, A.String(),
		`"},"type":"disableConfidentialTransferFeeHarvestToMint"}`)
	wantJSON(t, parsedIx(t, token.UpdateDecryptableSupply(M, A, nil, [36]byte{9})), `{"info":{"mint":"`, M.String(),
		`","newDecryptableSupply":"CQ`, strings.Repeat("A", 46), `","owner":"`, A.String(), `"},"type":"updateConfidentialMintBurnDecryptableSupply"}`)

	// A confidential transfer with its proofs in context state accounts: the accounts are named after the proofs.
	ctx1, ctx2, ctx3 := key(40).PublicKey(), key(41).PublicKey(), key(42).PublicKey()
	transfer := core.Instruction{ProgramID: t22, Data: append(append([]byte{27, 7}, make([]byte, 164)...), 0, 0, 0),
		Accounts: []core.AccountMeta{core.Writable(a), core.Readonly(M), core.Writable(bobTA.PublicKey()), core.Readonly(ctx1),
			core.Readonly(ctx2), core.Readonly(ctx3), core.ReadonlySigner(B)}}
	wantJSON(t, parsedIx(t, transfer), `{"info":{"ciphertextValidityProofContextStateAccount":"`, ctx2.String(),
		`","ciphertextValidityProofInstructionOffset":0,"destination":"`, bobTA.PublicKey().String(),
		`","equalityProofContextStateAccount":"`, ctx1.String(), `","equalityProofInstructionOffset":0,"mint":"`, M.String(),
		`","newSourceDecryptableAvailableBalance":"`, strings.Repeat("A", 48), `","owner":"`, B.String(),
		`","rangeProofContextStateAccount":"`, ctx3.String(), `","rangeProofInstructionOffset":0,"source":"`, a.String(),
		`"},"type":"confidentialTransfer"}`)
	// The context state accounts must be the ZK ElGamal proof program's.
	res = h.exec([]core.Instruction{transfer}, bob)
	runtimetest.WantErr(t, res, ixErr(0, "IncorrectProgramId"))
	wantLogLines(t, res, "ConfidentialTransferInstruction::Transfer", "Error: IncorrectProgramId")
}
