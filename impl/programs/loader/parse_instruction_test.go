package loader

import (
	"encoding/json"
	"errors"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
)

// view compiles ix alone into a message paid by payer and returns its parser view.
func view(t *testing.T, payer core.Pubkey, ix core.Instruction) *runtime.InstructionView {
	t.Helper()
	m, err := core.CompileLegacyMessage(payer, []core.Instruction{ix}, core.Hash{})
	if err != nil {
		t.Fatal(err)
	}
	c := m.Instructions[0]
	return &runtime.InstructionView{ProgramID: ix.ProgramID, Accounts: c.Accounts, Data: c.Data, Keys: m.AccountKeys}
}

func TestParseUpgradeableInstruction(t *testing.T) {
	t.Parallel()
	payer, buffer, program, auth := core.Pubkey{1}, core.Pubkey{2}, core.Pubkey{3}, core.Pubkey{4}
	pd, _ := ProgramDataAddress(program)
	s := func(k core.Pubkey) string { return `"` + k.String() + `"` }
	sys, rent, clock := s(core.SystemProgramID), s(core.SysvarRentID), s(core.SysvarClockID)
	tests := []struct {
		name string
		ix   core.Instruction
		want string
	}{
		{"initializeBuffer", InitializeBuffer(buffer, auth),
			`{"info":{"account":` + s(buffer) + `,"authority":` + s(auth) + `},"type":"initializeBuffer"}`},
		{"write", Write(buffer, auth, 4242, []byte{8, 8, 8}),
			`{"info":{"account":` + s(buffer) + `,"authority":` + s(auth) + `,"bytes":"CAgI","offset":4242},"type":"write"}`},
		{"deploy", DeployWithMaxDataLen(payer, program, buffer, auth, 54321),
			`{"info":{"authority":` + s(auth) + `,"bufferAccount":` + s(buffer) + `,"clockSysvar":` + clock +
				`,"maxDataLen":54321,"payerAccount":` + s(payer) + `,"programAccount":` + s(program) +
				`,"programDataAccount":` + s(pd) + `,"rentSysvar":` + rent + `,"systemProgram":` + sys + `},"type":"deployWithMaxDataLen"}`},
		{"upgrade", Upgrade(program, buffer, auth, payer),
			`{"info":{"authority":` + s(auth) + `,"bufferAccount":` + s(buffer) + `,"clockSysvar":` + clock +
				`,"programAccount":` + s(program) + `,"programDataAccount":` + s(pd) + `,"rentSysvar":` + rent +
				`,"spillAccount":` + s(payer) + `},"type":"upgrade"}`},
		{"setAuthority final", SetAuthority(pd, auth, nil),
			`{"info":{"account":` + s(pd) + `,"authority":` + s(auth) + `,"newAuthority":null},"type":"setAuthority"}`},
		{"setAuthority", SetAuthority(buffer, auth, &payer),
			`{"info":{"account":` + s(buffer) + `,"authority":` + s(auth) + `,"newAuthority":` + s(payer) + `},"type":"setAuthority"}`},
		{"setAuthorityChecked", SetAuthorityChecked(buffer, auth, payer),
			`{"info":{"account":` + s(buffer) + `,"authority":` + s(auth) + `,"newAuthority":` + s(payer) + `},"type":"setAuthorityChecked"}`},
		{"close buffer", Close(buffer, payer, auth, nil),
			`{"info":{"account":` + s(buffer) + `,"authority":` + s(auth) + `,"programAccount":null,"recipient":` + s(payer) + `},"type":"close"}`},
		{"close program", Close(pd, payer, auth, &program),
			`{"info":{"account":` + s(pd) + `,"authority":` + s(auth) + `,"programAccount":` + s(program) + `,"recipient":` + s(payer) + `},"type":"close"}`},
		{"extendProgram", ExtendProgram(program, payer, 1000),
			`{"info":{"additionalBytes":1000,"payerAccount":` + s(payer) + `,"programAccount":` + s(program) +
				`,"programDataAccount":` + s(pd) + `,"systemProgram":` + sys + `},"type":"extendProgram"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseUpgradeableInstruction(view(t, payer, tc.ix))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(got)
			if string(b) != tc.want {
				t.Errorf("got  %s\nwant %s", b, tc.want)
			}
		})
	}

	// Too few accounts, an account out of range, and data that is no instruction.
	short := view(t, payer, Write(buffer, auth, 0, nil))
	short.Accounts = short.Accounts[:1]
	if _, err := parseUpgradeableInstruction(short); !errors.Is(err, runtime.ErrKeyMismatch) {
		t.Errorf("short: %v", err)
	}
	out := view(t, payer, InitializeBuffer(buffer, auth))
	out.Accounts = append(out.Accounts, 200)
	if _, err := parseUpgradeableInstruction(out); !errors.Is(err, runtime.ErrKeyMismatch) {
		t.Errorf("out of range: %v", err)
	}
	for _, data := range [][]byte{{9, 0, 0, 0, 1, 0, 0, 0}, {10, 0, 0, 0}, {1, 0, 0, 0}} {
		v := view(t, payer, InitializeBuffer(buffer, auth))
		v.Data = data
		if _, err := parseUpgradeableInstruction(v); !errors.Is(err, runtime.ErrNotParsable) {
			t.Errorf("% x: %v", data, err)
		}
	}
}

func TestParseLoaderV2Instruction(t *testing.T) {
	t.Parallel()
	payer, account := core.Pubkey{1}, core.Pubkey{2}
	write := core.Instruction{ProgramID: core.BPFLoaderProgramID, Accounts: []core.AccountMeta{core.WritableSigner(account)},
		Data: []byte{0, 0, 0, 0, 0x92, 0x10, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 8, 8}}
	got, err := parseLoaderV2Instruction(view(t, payer, write))
	b, _ := json.Marshal(got)
	if want := `{"info":{"account":"` + account.String() + `","bytes":"CAg=","offset":4242},"type":"write"}`; err != nil || string(b) != want {
		t.Errorf("write: %s %v, want %s", b, err, want)
	}
	finalize := core.Instruction{ProgramID: core.BPFLoaderProgramID, Data: []byte{1, 0, 0, 0},
		Accounts: []core.AccountMeta{core.WritableSigner(account), core.Readonly(core.SysvarRentID)}}
	got, err = parseLoaderV2Instruction(view(t, payer, finalize))
	b, _ = json.Marshal(got)
	if want := `{"info":{"account":"` + account.String() + `"},"type":"finalize"}`; err != nil || string(b) != want {
		t.Errorf("finalize: %s %v", b, err)
	}
	finalize.Accounts = finalize.Accounts[:1]
	if _, err := parseLoaderV2Instruction(view(t, payer, finalize)); !errors.Is(err, runtime.ErrKeyMismatch) {
		t.Errorf("finalize with one account: %v", err)
	}
	bad := view(t, payer, finalize)
	bad.Data = []byte{2, 0, 0, 0}
	if _, err := parseLoaderV2Instruction(bad); !errors.Is(err, runtime.ErrNotParsable) {
		t.Errorf("tag 2: %v", err)
	}
}

// The parsers read untrusted instruction data and account indexes: no input panics them.
func FuzzParseLoaderInstructions(f *testing.F) {
	f.Add(UpgradeableInstruction{Tag: TagWrite, Offset: 3, Bytes: []byte("abc")}.Encode(), []byte{0, 1})
	f.Add(UpgradeableInstruction{Tag: TagDeployWithMaxDataLen, MaxDataLen: 9}.Encode(), []byte{0, 1, 2, 0, 1, 2, 0, 1})
	f.Add([]byte{0, 0, 0, 0, 1, 0, 0, 0, 200, 0, 0, 0, 0, 0, 0, 0}, []byte{2})
	keys := []core.Pubkey{{1}, {2}, {3}}
	f.Fuzz(func(t *testing.T, data, accounts []byte) {
		ix := &runtime.InstructionView{ProgramID: core.BPFLoaderUpgradeableProgramID, Data: data, Accounts: accounts, Keys: keys}
		if v, err := parseUpgradeableInstruction(ix); err == nil {
			if _, err := json.Marshal(v); err != nil {
				t.Fatal(err)
			}
		}
		ix.ProgramID = core.BPFLoaderProgramID
		if v, err := parseLoaderV2Instruction(ix); err == nil {
			if _, err := json.Marshal(v); err != nil {
				t.Fatal(err)
			}
		}
	})
}
