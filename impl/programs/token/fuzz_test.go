package token_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
)

// fuzzSizes are the account sizes the fuzzer picks from: the base layouts, extended ones,
// and odd lengths around them.
var fuzzSizes = []int{0, 82, 165, 355, 166, 170, 171, 174, 178, 202, 234, 300, 83, 164, 357}

// fuzzAccounts builds up to six accounts from the fuzzer's bytes: sizes, owners, flags and
// contents all come from the input.
func fuzzAccounts(blob []byte, layout uint64) ([]core.Pubkey, runtime.MapSource, []core.AccountMeta) {
	accs := runtime.MapSource{}
	var keys []core.Pubkey
	var metas []core.AccountMeta
	n := int(layout%6) + 1
	layout /= 6
	for i := range n {
		k := key(byte(200 + i)).PublicKey()
		size := fuzzSizes[layout%uint64(len(fuzzSizes))]
		layout /= uint64(len(fuzzSizes))
		owner := []core.Pubkey{token.ProgramID, token.Program2022ID, core.SystemProgramID}[layout%3]
		layout /= 3
		flags := layout % 4
		layout /= 4
		data := make([]byte, size)
		for j := range data {
			if len(blob) > 0 {
				data[j] = blob[(i*31+j)%len(blob)]
			}
		}
		// Make the shapes the programs look at likely: initialized base states and account
		// types.
		if size >= 82 && flags&1 != 0 {
			data[45] = 1
		}
		if size >= 165 && flags&2 != 0 {
			data[108] = 1
		}
		accs[k] = runtime.Account{Lamports: 1e9 + uint64(i), Owner: owner, Data: data}
		keys = append(keys, k)
		metas = append(metas, core.AccountMeta{Pubkey: k, IsWritable: flags != 3, IsSigner: flags == 0})
	}
	// Repeat an account sometimes, as instructions may.
	if layout%3 == 0 && len(metas) > 1 {
		metas = append(metas, metas[0])
	}
	return keys, accs, metas
}

func FuzzPrograms(f *testing.F) {
	m, a, b, o := key(200).PublicKey(), key(201).PublicKey(), key(202).PublicKey(), key(203).PublicKey()
	seeds := []core.Instruction{
		token.Transfer(token.ProgramID, a, b, o, nil, 5),
		token.TransferChecked(token.Program2022ID, a, m, b, o, nil, 5, 2),
		token.MintTo(token.ProgramID, m, a, o, nil, 1),
		token.InitializeMint2(token.Program2022ID, m, o, nil, 2),
		token.InitializeAccount3(token.Program2022ID, a, m, o),
		token.SetAuthority(token.Program2022ID, m, &o, token.AuthorityCloseMint, o, nil),
		token.CloseAccount(token.Program2022ID, a, b, o, nil),
		token.InitializeTransferFeeConfig(m, &o, &o, 100, 5),
		token.TransferCheckedWithFee(a, m, b, o, nil, 10, 2, 1),
		token.HarvestWithheldTokensToMint(m, a, b),
		token.Reallocate(a, b, o, nil, token.ExtMemoTransfer),
		token.InitializeTokenMetadata(m, o, o, "n", "s", "u"),
		token.UpdateTokenMetadataField(m, o, token.MetadataField{Kind: token.FieldKey, Key: "k"}, "v"),
		token.GetAccountDataSize(token.Program2022ID, m, token.ExtImmutableOwner),
		token.InitializeMultisig2(token.ProgramID, m, []core.Pubkey{a, b}, 1),
		token.Batch(token.MintTo(token.Program2022ID, m, a, o, nil, 1), token.Transfer(token.Program2022ID, a, b, o, nil, 1)),
		token.InitializePointer(token.ExtGroupPointer, m, &o, &m),
		token.UpdatePointer(token.ExtTransferHook, m, o, nil, &a),
		token.InitializeTokenGroup(m, o, &o, 3),
		token.InitializeTokenGroupMember(a, o, m, o),
		token.UpdateTokenGroupMaxSize(m, o, 1),
		token.InitializeScaledUiAmount(m, &o, 2),
		token.UpdateScaledUiAmountMultiplier(m, o, nil, 3, 9),
		token.Pause(m, o, nil, true),
		token.PermissionedBurn(a, m, b, o, nil, 1, nil),
		token.WithdrawExcessLamports(a, b, o, nil),
		token.UnwrapLamports(a, b, o, nil, nil),
		token.CreateNativeMint(o),
		token.InitializeConfidentialTransferMint(m, &o, true, nil),
		token.ConfidentialCredits(a, o, nil, true, false),
		token.ApproveConfidentialTransferAccount(a, m, o),
		token.HarvestToMint(m, o, nil, true),
		token.UpdateDecryptableSupply(m, o, nil, [36]byte{1}),
		// The confidential instructions that read proofs (context-state accounts or the sysvar).
		token.ConfigureConfidentialAccount(a, m, o, nil, [36]byte{}, 9, 0, b),
		token.ConfigureConfidentialAccount(a, m, o, nil, [36]byte{}, 9, 1, core.SysvarInstructionsID),
		token.DepositConfidential(a, m, o, nil, 7, 2),
		token.ApplyPendingConfidentialBalance(a, o, nil, 1, [36]byte{}),
		token.WithdrawConfidential(a, m, o, nil, 7, 2, [36]byte{}, 0, 0, b, m),
		token.EmptyConfidentialAccount(a, o, nil, 0, b),
		token.TransferConfidential(a, m, b, o, nil, [36]byte{}, [64]byte{}, [64]byte{}, 0, 0, 0, a, b, m),
		token.TransferConfidentialWithFee(a, m, b, o, nil, [36]byte{}, [64]byte{}, [64]byte{}, [5]int8{0, 0, 0, 0, -1}, a, b, m, o,
			core.SysvarInstructionsID),
		token.WithdrawWithheldConfidentialFromMint(m, a, o, nil, [36]byte{}, 0, b),
		token.WithdrawWithheldConfidentialFromAccounts(m, a, o, nil, [36]byte{}, 0, []core.Pubkey{b}, a, m),
		token.HarvestWithheldConfidentialToMint(m, a, b, m),
		token.RotateSupplyElGamalPubkey(m, o, nil, [32]byte{}, 0, b),
		token.ConfidentialMintTo(a, m, o, nil, [36]byte{}, [64]byte{}, [64]byte{}, [3]int8{}, a, b, m),
		token.ConfidentialBurnFrom(a, m, o, nil, [36]byte{}, [64]byte{}, [64]byte{}, [3]int8{}, a, b, m),
		token.ApplyPendingBurn(m, o, nil),
	}
	for i, ix := range seeds {
		f.Add(ix.Data, []byte{1, 0, 0, 0, 7, 7, 7, 7, byte(i)}, uint64(i*977+12345))
	}
	f.Fuzz(func(t *testing.T, data, blob []byte, layout uint64) {
		for _, programID := range []core.Pubkey{token.ProgramID, token.Program2022ID} {
			h := newHarness(t)
			keys, accs, metas := fuzzAccounts(blob, layout)
			for k, v := range accs {
				h.accs[k] = v
			}
			_ = keys
			ix := core.Instruction{ProgramID: programID, Accounts: metas, Data: data}
			msg, err := core.CompileLegacyMessage(payer.PublicKey(), []core.Instruction{ix}, h.env.Blockhash)
			if err != nil {
				return
			}
			tx := &core.Transaction{Message: *msg, Signatures: make([]core.Signature, msg.Header.NumRequiredSignatures)}
			res := runtime.Execute(h.env, h.accs, tx, runtime.Options{})
			for _, l := range res.Logs {
				if strings.Contains(l, "panicked") {
					t.Fatalf("%s panicked on %x: %s", programID, data, l)
				}
			}
		}
	})
}

// FuzzDecoders feeds arbitrary bytes to the exported decoders.
func FuzzDecoders(f *testing.F) {
	f.Add([]byte{3, 1, 0, 0, 0, 0, 0, 0, 0})
	f.Add(token.InitializeTokenMetadata(core.Pubkey{}, core.Pubkey{}, core.Pubkey{}, "a", "b", "c").Data)
	ext := make([]byte, 202)
	ext[45], ext[165], ext[166], ext[168] = 1, 1, 3, 32
	f.Add(ext)
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = token.Decode(data)
		_, _ = token.UnpackMint(data)
		_, _ = token.UnpackAccount(data)
		_, _ = token.UnpackMultisig(data)
		_, _, _ = token.AccountMintOwner(data)
		if _, exts, err := token.ParseExtensions(data); err == nil {
			for _, e := range exts {
				_, _ = e.Value()
			}
		}
		if len(data) >= 8 {
			decimals := data[0]
			amount := binary.LittleEndian.Uint64(data)
			s := token.AmountToUIAmountString(amount, decimals)
			if got, err := token.UIAmountToAmount(s, decimals); err != nil || got != amount {
				t.Fatalf("round trip of %d with %d decimals: %q -> %d, %v", amount, decimals, s, got, err)
			}
		}
		_, _ = token.UIAmountToAmount(string(data), 9)
	})
}

// FuzzTransferHook runs a checked transfer of a hooked mint whose hook's validation account holds arbitrary bytes
// and whose extra accounts are arbitrary: the resolution must fail cleanly or invoke the hook, never panic.
func FuzzTransferHook(f *testing.F) {
	hookID := core.Pubkey{7, 7, 7}
	f.Add([]byte{105, 37, 101, 197, 75, 251, 102, 26, 39, 0, 0, 0, 1, 0, 0, 0, 1, 1, 2, 'h', 'k', 2, 8, 8, 4, 0, 32, 32, 3, 1,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, uint8(2))
	f.Add([]byte{105, 37, 101, 197, 75, 251, 102, 26, 39, 0, 0, 0, 1, 0, 0, 0, 2, 2, 2, 0}, uint8(1))
	f.Fuzz(func(t *testing.T, validationData []byte, extra uint8) {
		h := newHarness(t)
		h.env.Programs.RegisterOnChain(hookID, runtime.ProgramFunc(func(*runtime.InvokeContext) error { return nil }))
		h.accs[hookID] = runtime.Account{Lamports: 1, Owner: core.BPFLoaderUpgradeableProgramID, Executable: true}
		A, M, a, b := alice.PublicKey(), mintKP.PublicKey(), aliceTA.PublicKey(), bobTA.PublicKey()
		if res := h.createMint22([]token.ExtensionType{token.ExtTransferHook}, 0,
			token.InitializePointer(token.ExtTransferHook, M, &A, &hookID)); res.Err != nil {
			t.Fatal(res.Err)
		}
		h.createAccount22(aliceTA, A, nil)
		h.createAccount22(bobTA, bob.PublicKey(), nil)
		h.ok([]core.Instruction{token.MintTo(token.Program2022ID, M, a, A, nil, 100)}, alice)
		validation := token.ExtraAccountMetasAddress(M, hookID)
		h.accs[validation] = runtime.Account{Lamports: 1e9, Owner: hookID, Data: validationData}
		in := token.TransferChecked(token.Program2022ID, a, M, b, A, nil, 1, 2)
		in.Accounts = append(in.Accounts, core.Readonly(hookID), core.Readonly(validation))
		for i := range int(extra % 5) {
			in.Accounts = append(in.Accounts, core.Readonly(key(byte(100+i)).PublicKey()))
		}
		res := h.exec([]core.Instruction{in}, alice)
		for _, l := range res.Logs {
			if strings.Contains(l, "panicked") {
				t.Fatalf("panicked on %x: %s", validationData, l)
			}
		}
	})
}

// FuzzParseInstruction feeds arbitrary instruction data and account lists to the jsonParsed instruction parser, which
// must answer or refuse, never panic.
func FuzzParseInstruction(f *testing.F) {
	for _, d := range [][]byte{{27, 7}, {37, 2, 3}, {42, 3}, {46, 3}, {255, 1, 1, 3}, {26, 3, 2}, {121, 113, 108, 39, 54, 51, 0, 4}} {
		f.Add(d, uint8(5))
	}
	// Confidential payloads of their exact sizes, proofs in instructions and in context state accounts.
	for _, c := range []struct {
		prefix []byte
		size   int
	}{{[]byte{27, 2}, 45}, {[]byte{27, 6}, 47}, {[]byte{27, 7}, 167}, {[]byte{27, 13}, 169}, {[]byte{37, 1}, 37},
		{[]byte{37, 2}, 38}, {[]byte{42, 1}, 33}, {[]byte{42, 4}, 167}, {[]byte{46, 3}, 167}} {
		for _, fill := range []byte{0, 1} {
			d := append(append([]byte(nil), c.prefix...), make([]byte, c.size)...)
			d[len(d)-1], d[len(d)-2] = fill, fill
			f.Add(d, uint8(4+fill*5))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		keys := make([]core.Pubkey, 8)
		for i := range keys {
			keys[i] = key(byte(60 + i)).PublicKey()
		}
		accounts := make([]uint8, int(n%24))
		for i := range accounts {
			accounts[i] = uint8(i % len(keys))
		}
		_, _ = token.Modules[1].ParseInstruction.Parse(&runtime.InstructionView{ProgramID: token.Program2022ID, Accounts: accounts,
			Data: data, Keys: keys})
	})
}
