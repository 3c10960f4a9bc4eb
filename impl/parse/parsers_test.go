package parse

import (
	"errors"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
)

// parseOne compiles ix into a legacy message paid by payer and returns its jsonParsed form.
func parseOne(t *testing.T, payer core.Pubkey, ix core.Instruction) string {
	t.Helper()
	m, err := core.CompileLegacyMessage(payer, []core.Instruction{ix}, core.Hash{})
	if err != nil {
		t.Fatal(err)
	}
	c := m.Instructions[0]
	got, err := ParseInstruction(c.ProgramIDIndex, c.Accounts, c.Data, m.AccountKeys, nil)
	if err != nil {
		t.Fatal(err)
	}
	return marshal(t, got)
}

func TestSystemInstructions(t *testing.T) {
	t.Parallel()
	from, to, owner, base, nonce, auth, newAuth := key(1), key(2), key(3), key(4), key(5), key(6), key(7)
	vars := map[string]string{
		"from": from.String(), "to": to.String(), "owner": owner.String(), "base": base.String(),
		"nonce": nonce.String(), "auth": auth.String(), "newAuth": newAuth.String(),
		"recent": core.SysvarRecentBlockhashesID.String(), "rent": core.SysvarRentID.String(),
	}
	tests := []struct {
		name string
		ix   core.Instruction
		want string // the parsed value
	}{
		{"createAccount", system.CreateAccount(from, to, 55, 128, owner),
			`{"info": {"lamports": 55, "newAccount": "$to", "owner": "$owner", "source": "$from", "space": 128}, "type": "createAccount"}`},
		{"assign", system.Assign(from, owner),
			`{"info": {"account": "$from", "owner": "$owner"}, "type": "assign"}`},
		{"transfer", system.Transfer(from, to, 18446744073709551615),
			`{"info": {"destination": "$to", "lamports": 18446744073709551615, "source": "$from"}, "type": "transfer"}`},
		{"createAccountWithSeed", system.CreateAccountWithSeed(from, to, base, "seed ✓", 55, 128, owner),
			`{"info": {"base": "$base", "lamports": 55, "newAccount": "$to", "owner": "$owner", "seed": "seed ✓", "source": "$from", "space": 128}, "type": "createAccountWithSeed"}`},
		{"advanceNonce", system.AdvanceNonceAccount(nonce, auth),
			`{"info": {"nonceAccount": "$nonce", "nonceAuthority": "$auth", "recentBlockhashesSysvar": "$recent"}, "type": "advanceNonce"}`},
		{"withdrawFromNonce", system.WithdrawNonceAccount(nonce, auth, to, 55),
			`{"info": {"destination": "$to", "lamports": 55, "nonceAccount": "$nonce", "nonceAuthority": "$auth", "recentBlockhashesSysvar": "$recent", "rentSysvar": "$rent"}, "type": "withdrawFromNonce"}`},
		{"initializeNonce", system.InitializeNonceAccount(nonce, auth),
			`{"info": {"nonceAccount": "$nonce", "nonceAuthority": "$auth", "recentBlockhashesSysvar": "$recent", "rentSysvar": "$rent"}, "type": "initializeNonce"}`},
		{"authorizeNonce", system.AuthorizeNonceAccount(nonce, auth, newAuth),
			`{"info": {"newAuthorized": "$newAuth", "nonceAccount": "$nonce", "nonceAuthority": "$auth"}, "type": "authorizeNonce"}`},
		{"upgradeNonce", system.UpgradeNonceAccount(nonce),
			`{"info": {"nonceAccount": "$nonce"}, "type": "upgradeNonce"}`},
		{"allocate", system.Allocate(from, 128),
			`{"info": {"account": "$from", "space": 128}, "type": "allocate"}`},
		{"allocateWithSeed", system.AllocateWithSeed(to, base, "s", 128, owner),
			`{"info": {"account": "$to", "base": "$base", "owner": "$owner", "seed": "s", "space": 128}, "type": "allocateWithSeed"}`},
		{"assignWithSeed", system.AssignWithSeed(to, base, "", owner),
			`{"info": {"account": "$to", "base": "$base", "owner": "$owner", "seed": ""}, "type": "assignWithSeed"}`},
		{"transferWithSeed", system.TransferWithSeed(from, base, "seed", owner, to, 55),
			`{"info": {"destination": "$to", "lamports": 55, "source": "$from", "sourceBase": "$base", "sourceOwner": "$owner", "sourceSeed": "seed"}, "type": "transferWithSeed"}`},
		{"createAccountAllowPrefund", system.CreateAccountAllowPrefund(to, from, 55, 128, owner),
			`{"info": {"lamports": 55, "newAccount": "$to", "owner": "$owner", "source": "$from", "space": 128}, "type": "createAccountAllowPrefund"}`},
		{"createAccountAllowPrefund without payer", system.CreateAccountAllowPrefund(to, from, 0, 128, owner),
			`{"info": {"newAccount": "$to", "owner": "$owner", "space": 128}, "type": "createAccountAllowPrefund"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseOne(t, from, tt.ix)
			want := compact(t, `{"program": "system", "programId": "11111111111111111111111111111111", "parsed": `+tt.want+`, "stackHeight": null}`, vars)
			if got != want {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		})
	}
}

// TestSystemNotParsable checks that system instructions the reference cannot parse stay
// partially decoded: bad data, too few accounts, an instruction without accounts.
func TestSystemNotParsable(t *testing.T) {
	t.Parallel()
	from, to, base, owner := key(1), key(2), key(4), key(3)
	withAccounts := func(ix core.Instruction, n int) core.Instruction {
		ix.Accounts = ix.Accounts[:n]
		return ix
	}
	badSeed := system.AssignWithSeed(to, base, "xx", owner)
	badSeed.Data[4+8+32] = 0xff // the seed's first byte: not UTF-8
	tests := []struct {
		name string
		ix   core.Instruction
	}{
		{"truncated data", core.Instruction{ProgramID: core.SystemProgramID, Accounts: []core.AccountMeta{core.WritableSigner(from)}, Data: []byte{2, 0, 0, 0}}},
		{"unknown tag", core.Instruction{ProgramID: core.SystemProgramID, Accounts: []core.AccountMeta{core.WritableSigner(from)}, Data: []byte{99, 0, 0, 0}}},
		{"empty data", core.Instruction{ProgramID: core.SystemProgramID, Accounts: []core.AccountMeta{core.WritableSigner(from)}}},
		{"transfer with one account", withAccounts(system.Transfer(from, to, 1), 1)},
		{"upgradeNonce without accounts", withAccounts(system.UpgradeNonceAccount(to), 0)},
		{"allocateWithSeed without base", withAccounts(system.AllocateWithSeed(to, base, "s", 1, owner), 1)},
		{"withdrawFromNonce with four accounts", withAccounts(system.WithdrawNonceAccount(to, base, from, 1), 4)},
		{"seed not UTF-8", badSeed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseOne(t, from, tt.ix)
			if !startsWith(got, `{"programId":"11111111111111111111111111111111","accounts":[`) {
				t.Errorf("not partially decoded: %s", got)
			}
		})
	}

	// Trailing bytes are ignored, as bincode does.
	ix := system.Transfer(from, to, 9)
	ix.Data = append(ix.Data, 1, 2, 3)
	if got := parseOne(t, from, ix); !startsWith(got, `{"program":"system"`) {
		t.Errorf("trailing bytes: %s", got)
	}

	// An account index outside the keys cannot be shown at all.
	keys := []core.Pubkey{from, core.SystemProgramID}
	data := system.Transfer(from, to, 1).Data
	if _, err := ParseInstruction(1, []uint8{0, 2}, data, keys, nil); !errors.Is(err, ErrInvalidAccountIndex) {
		t.Errorf("account out of range: err = %v", err)
	}
	if _, err := ParseInstruction(2, nil, data, keys, nil); !errors.Is(err, ErrInvalidAccountIndex) {
		t.Errorf("program out of range: err = %v", err)
	}
}

func startsWith(s, prefix string) bool { return len(s) >= len(prefix) && s[:len(prefix)] == prefix }

func TestMemoInstructions(t *testing.T) {
	t.Parallel()
	payer := key(1)
	signer := key(2)
	tests := []struct {
		program core.Pubkey
		data    []byte
		want    string
	}{
		{core.MemoV1ProgramID, []byte("🦖"), `{"program":"spl-memo","programId":"Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo","parsed":"🦖","stackHeight":null}`},
		{core.MemoProgramID, []byte(`a "quoted" memo`), `{"program":"spl-memo","programId":"MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr","parsed":"a \"quoted\" memo","stackHeight":null}`},
		{core.MemoProgramID, nil, `{"program":"spl-memo","programId":"MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr","parsed":"","stackHeight":null}`},
		{core.MemoProgramID, []byte{0xf0, 0x9f}, `{"programId":"MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr","accounts":["` + signer.String() + `"],"data":"KK4","stackHeight":null}`},
	}
	for _, tt := range tests {
		ix := core.Instruction{ProgramID: tt.program, Accounts: []core.AccountMeta{core.ReadonlySigner(signer)}, Data: tt.data}
		if got := parseOne(t, payer, ix); got != tt.want {
			t.Errorf("memo %q:\n got %s\nwant %s", tt.data, got, tt.want)
		}
	}
}

func TestExtractMemo(t *testing.T) {
	t.Parallel()
	payer := keypair(1)
	memo := func(program core.Pubkey, data string) core.Instruction {
		return core.Instruction{ProgramID: program, Data: []byte(data)}
	}
	other := core.Instruction{ProgramID: key(9), Data: []byte("not a memo")}
	tests := []struct {
		name string
		ixs  []core.Instruction
		want *string
	}{
		{"none", []core.Instruction{system.Transfer(payer.PublicKey(), key(2), 1)}, nil},
		{"no instructions", nil, nil},
		{"utf8", []core.Instruction{memo(core.MemoProgramID, "Test memo")}, ptr("[9] Test memo")},
		{"non-utf8", []core.Instruction{memo(core.MemoV1ProgramID, "\xf0\x9f")}, ptr("[2] (unparsable)")},
		{"empty", []core.Instruction{memo(core.MemoProgramID, "")}, ptr("[0] ")},
		{"several", []core.Instruction{
			memo(core.MemoV1ProgramID, "Test memo"), other, memo(core.MemoProgramID, "🦖"), memo(core.MemoV1ProgramID, "\xff"),
		}, ptr("[9] Test memo; [4] 🦖; [1] (unparsable)")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := core.CompileLegacyMessage(payer.PublicKey(), tt.ixs, core.Hash{})
			if err != nil {
				t.Fatal(err)
			}
			got := ExtractMemo(&core.Transaction{Message: *m}, nil)
			switch {
			case got == nil && tt.want == nil:
			case got == nil || tt.want == nil || *got != *tt.want:
				t.Errorf("memo = %v, want %v", deref(got), deref(tt.want))
			}
		})
	}

	// A v0 transaction: the memo program is a static key, loaded keys are counted in indexes.
	m, err := core.CompileV0Message(payer.PublicKey(), []core.Instruction{
		{ProgramID: core.MemoProgramID, Accounts: []core.AccountMeta{core.Readonly(key(20))}, Data: []byte("v0")},
	}, []core.AddressLookupTableAccount{{Key: key(21), Addresses: []core.Pubkey{key(20)}}}, core.Hash{})
	if err != nil {
		t.Fatal(err)
	}
	loaded := &core.LoadedAddresses{Readonly: []core.Pubkey{key(20)}}
	if got := ExtractMemo(&core.Transaction{Message: *m}, loaded); got == nil || *got != "[2] v0" {
		t.Errorf("v0 memo = %v", deref(got))
	}
	// A corrupt program index is skipped, not a panic.
	m.Instructions[0].ProgramIDIndex = 200
	if got := ExtractMemo(&core.Transaction{Message: *m}, loaded); got != nil {
		t.Errorf("out-of-range program: memo = %q", *got)
	}
}

func ptr(s string) *string { return &s }

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func TestModuleParsers(t *testing.T) {
	t.Parallel()
	for _, id := range []core.Pubkey{core.SystemProgramID, core.MemoV1ProgramID, core.MemoProgramID} {
		if _, ok := instructionParsers().InstructionParser(id); !ok {
			t.Errorf("no parser for %s", id)
		}
	}
	// The reference's 2.x line has no compute budget parser: its instructions stay raw.
	if _, ok := instructionParsers().InstructionParser(core.ComputeBudgetProgramID); ok {
		t.Error("compute budget has a parser")
	}
}
