package memo_test

import (
	"ledgerd/impl/runtime/runtimetest"
	"slices"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/memo"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

var blockhash = core.HashBytes([]byte("memo bank"))

func run(t *testing.T, ixs []core.Instruction, signers ...core.Keypair) *runtime.Result {
	t.Helper()
	reg := runtime.NewRegistry()
	reg.Add(system.Module)
	reg.Add(memo.Modules...)
	env := runtime.DefaultEnv(blockhash, reg)
	accs := runtime.MapSource{}
	for _, s := range signers {
		accs[s.PublicKey()] = runtime.Account{Lamports: 1e9, Owner: core.SystemProgramID}
	}
	for _, id := range []core.Pubkey{memo.ProgramIDV1, memo.ProgramIDV3} {
		accs[id] = runtime.Account{Lamports: 1e9, Owner: core.BPFLoaderProgramID, Executable: true}
	}
	msg, err := core.CompileLegacyMessage(signers[0].PublicKey(), ixs, blockhash)
	if err != nil {
		t.Fatal(err)
	}
	tx := &core.Transaction{Message: *msg, Signatures: make([]core.Signature, msg.Header.NumRequiredSignatures)}
	return runtime.Execute(env, accs, tx, runtime.Options{})
}

func TestMemoV3(t *testing.T) {
	t.Parallel()
	payer, other := core.KeypairFromSeed([32]byte{1}), core.KeypairFromSeed([32]byte{2})
	v3 := memo.ProgramIDV3.String()
	cu := memo.ComputeUnitsV3(2, 2, 9)
	tests := []struct {
		name    string
		ix      core.Instruction
		signers []core.Keypair
		err     string
		logs    []string
	}{
		{"signed", memo.Instruction("Test memo", payer.PublicKey(), other.PublicKey()), []core.Keypair{payer, other}, "<nil>", []string{
			"Program " + v3 + " invoke [1]",
			"Program log: Signed by " + payer.PublicKey().String(),
			"Program log: Signed by " + other.PublicKey().String(),
			`Program log: Memo (len 9): "Test memo"`,
			"Program " + v3 + " consumed " + itoa(cu) + " of 200000 compute units",
			"Program " + v3 + " success",
		}},
		{"unsigned", memo.Instruction(`quote " and é`), []core.Keypair{payer}, "<nil>", []string{
			"Program " + v3 + " invoke [1]",
			`Program log: Memo (len 14): "quote \" and é"`,
			"Program " + v3 + " consumed " + itoa(memo.ComputeUnitsV3(0, 0, 14)) + " of 200000 compute units",
			"Program " + v3 + " success",
		}},
		{"missing signature", core.Instruction{ProgramID: memo.ProgramIDV3, Data: []byte("hi"),
			Accounts: []core.AccountMeta{core.ReadonlySigner(payer.PublicKey()), core.Readonly(other.PublicKey())}},
			[]core.Keypair{payer}, `{"InstructionError":[0,"MissingRequiredSignature"]}`, []string{
				"Program " + v3 + " invoke [1]",
				"Program log: Signed by " + payer.PublicKey().String(),
				"Program " + v3 + " consumed " + itoa(memo.ComputeUnitsV3(2, 1, 2)) + " of 200000 compute units",
				"Program " + v3 + " failed: missing required signature for instruction",
			}},
		{"invalid utf-8", core.Instruction{ProgramID: memo.ProgramIDV3, Data: []byte{'o', 'k', 0xf0, 0x9f, 0x90, 0xff}},
			[]core.Keypair{payer}, `{"InstructionError":[0,"InvalidInstructionData"]}`, []string{
				"Program " + v3 + " invoke [1]",
				"Program log: Invalid UTF-8, from byte 2",
				"Program " + v3 + " consumed " + itoa(memo.ComputeUnitsV3(0, 0, 6)) + " of 200000 compute units",
				"Program " + v3 + " failed: invalid instruction data",
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := run(t, []core.Instruction{tc.ix}, tc.signers...)
			if got := runtimetest.ErrString(res.Err); got != tc.err {
				t.Fatalf("err %s, want %s", got, tc.err)
			}
			if !slices.Equal(res.Logs, tc.logs) {
				t.Fatalf("logs\n got %q\nwant %q", res.Logs, tc.logs)
			}
		})
	}
}

func TestMemoV1(t *testing.T) {
	t.Parallel()
	payer := core.KeypairFromSeed([32]byte{1})
	v1 := memo.ProgramIDV1.String()
	res := run(t, []core.Instruction{{ProgramID: memo.ProgramIDV1, Data: []byte(`hello "v1"`),
		Accounts: []core.AccountMeta{core.Readonly(core.SystemProgramID)}}}, payer)
	want := []string{"Program " + v1 + " invoke [1]", `Program log: hello "v1"`,
		"Program " + v1 + " consumed " + itoa(memo.ComputeUnitsV1(10)) + " of 200000 compute units", "Program " + v1 + " success"}
	if res.Err != nil || !slices.Equal(res.Logs, want) {
		t.Fatalf("err %v logs %q", res.Err, res.Logs)
	}
	res = run(t, []core.Instruction{{ProgramID: memo.ProgramIDV1, Data: []byte{0xff}}}, payer)
	if runtimetest.ErrString(res.Err) != `{"InstructionError":[0,"InvalidInstructionData"]}` {
		t.Fatalf("err %s", runtimetest.ErrString(res.Err))
	}
}

func TestDebugString(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"":                  `""`,
		"plain text":        `"plain text"`,
		"a\"b\\c":           `"a\"b\\c"`,
		"it's":              `"it's"`,
		"tab\tcr\rnl\n":     `"tab\tcr\rnl\n"`,
		"nul\x00":           `"nul\0"`,
		"del\x7f bell\x07":  `"del\u{7f} bell\u{7}"`,
		"é🐆":                `"é🐆"`,
		"e\u0301":           `"e\u{301}"`,
		"nbsp\u00a0":        `"nbsp\u{a0}"`,
		"zwj\u200d":         `"zwj\u{200d}"`,
		"中文":                `"中文"`,
		"private\ue000":     `"private\u{e000}"`,
		"line sep\u2028end": `"line sep\u{2028}end"`,
	}
	for in, want := range tests {
		if got := memo.DebugString(in); got != want {
			t.Errorf("DebugString(%q) = %s, want %s", in, got, want)
		}
	}
}

func itoa(v uint64) string {
	b := []byte{}
	if v == 0 {
		return "0"
	}
	for v > 0 {
		b = append([]byte{byte('0' + v%10)}, b...)
		v /= 10
	}
	return string(b)
}
