package loader

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/runtimetest"
	"ledgerd/impl/sbpf/sbpftest"
)

// bank is a minimal chain for the loader's tests: accounts, a slot, and the loaders and the
// system program as modules.
type bank struct {
	t        *testing.T
	accounts runtime.MapSource
	env      *runtime.Env
}

var testBlockhash = core.HashBytes([]byte("loader bank"))

func newBank(t *testing.T, funded ...core.Pubkey) *bank {
	t.Helper()
	reg := runtime.NewRegistry(system.Module)
	for _, id := range []core.Pubkey{core.BPFLoaderUpgradeableProgramID, core.BPFLoaderProgramID, core.BPFLoaderDeprecatedProgramID} {
		reg.Add(runtime.Module{ID: id, Kind: runtime.Loader, Program: Program})
	}
	b := &bank{t: t, accounts: runtime.MapSource{}, env: runtime.DefaultEnv(testBlockhash, reg)}
	b.env.Clock.Slot = 10
	for _, id := range []core.Pubkey{core.SystemProgramID, core.BPFLoaderUpgradeableProgramID, core.BPFLoaderProgramID, core.BPFLoaderDeprecatedProgramID} {
		b.accounts[id] = runtime.Account{Lamports: 1, Owner: core.NativeLoaderProgramID, Executable: true, Data: []byte("loader")}
	}
	for _, k := range funded {
		b.accounts[k] = runtime.Account{Lamports: 1000e9, Owner: core.SystemProgramID}
	}
	return b
}

// run executes ixs paid by signers[0] and commits the result.
func (b *bank) run(ixs []core.Instruction, signers ...core.Keypair) *runtime.Result {
	b.t.Helper()
	tx, err := core.NewTransaction(signers[0].PublicKey(), ixs, testBlockhash, signers...)
	if err != nil {
		b.t.Fatal(err)
	}
	res := runtime.Execute(b.env, b.accounts, tx, runtime.Options{})
	b.accounts.Apply(res.Writes)
	return res
}

func (b *bank) rent(n int) uint64 { return b.env.Rent.MinimumBalance(uint64(n)) }

// testELF is a small program that logs and returns success.
var testELF = sbpftest.MustELF(`
entrypoint:
	lddw r1, rodata+0
	mov64 r2, 5
	call sol_log_
	mov64 r0, 0
	exit
`, []byte("hello"))

const sysLog = "Program 11111111111111111111111111111111 invoke [2]"

var (
	loaderID   = core.BPFLoaderUpgradeableProgramID.String()
	loaderLogs = struct{ invoke, success string }{"Program " + loaderID + " invoke [1]", "Program " + loaderID + " success"}
)

func systemLogs(depth int) []string {
	return []string{fmt.Sprintf("Program 11111111111111111111111111111111 invoke [%d]", depth), "Program 11111111111111111111111111111111 success"}
}

// createBuffer creates and fills a buffer with elf in the transactions the CLI sends.
func (b *bank) createBuffer(payer, buffer core.Keypair, authority core.Keypair, elf []byte, chunk int) {
	b.t.Helper()
	res := b.run([]core.Instruction{
		system.CreateAccount(payer.PublicKey(), buffer.PublicKey(), b.rent(BufferMetadataSize+len(elf)),
			uint64(BufferMetadataSize+len(elf)), core.BPFLoaderUpgradeableProgramID),
		InitializeBuffer(buffer.PublicKey(), authority.PublicKey()),
	}, payer, buffer)
	runtimetest.WantErr(b.t, res, "<nil>")
	if res.ComputeUnitsConsumed != 150+UpgradeableLoaderComputeUnits {
		b.t.Fatalf("units %d", res.ComputeUnitsConsumed)
	}
	for off := 0; off < len(elf); off += chunk {
		end := min(off+chunk, len(elf))
		signers := []core.Keypair{payer}
		if authority.PublicKey() != payer.PublicKey() {
			signers = append(signers, authority)
		}
		res := b.run([]core.Instruction{Write(buffer.PublicKey(), authority.PublicKey(), uint32(off), elf[off:end])}, signers...)
		runtimetest.WantErr(b.t, res, "<nil>")
	}
	if got := b.accounts[buffer.PublicKey()].Data; !bytes.Equal(got[BufferMetadataSize:], elf) {
		b.t.Fatal("buffer does not hold the program")
	}
}

// deploy sends the CLI's final deploy transaction.
func (b *bank) deploy(payer, program, buffer, authority core.Keypair, maxLen int) *runtime.Result {
	b.t.Helper()
	signers := []core.Keypair{payer, program}
	if authority.PublicKey() != payer.PublicKey() {
		signers = append(signers, authority)
	}
	return b.run([]core.Instruction{
		system.CreateAccount(payer.PublicKey(), program.PublicKey(), b.rent(ProgramSize), ProgramSize, core.BPFLoaderUpgradeableProgramID),
		DeployWithMaxDataLen(payer.PublicKey(), program.PublicKey(), buffer.PublicKey(), authority.PublicKey(), uint64(maxLen)),
	}, signers...)
}

func pk(k core.Keypair) []byte { p := k.PublicKey(); return p[:] }

// invoke runs the deployed program and checks it ran (or was not deployed yet).
func (b *bank) invoke(payer core.Keypair, program core.Pubkey, runs bool) {
	b.t.Helper()
	res := b.run([]core.Instruction{{ProgramID: program}}, payer)
	id := program.String()
	if !runs {
		runtimetest.WantErr(b.t, res, `{"InstructionError":[0,"UnsupportedProgramId"]}`)
		runtimetest.WantLogs(b.t, res, "Program "+id+" invoke [1]", "Program is not deployed",
			"Program "+id+" failed: Unsupported program id")
		return
	}
	runtimetest.WantErr(b.t, res, "<nil>")
	runtimetest.WantLogs(b.t, res, "Program "+id+" invoke [1]", "Program log: hello",
		"Program "+id+" consumed 105 of 200000 compute units", "Program "+id+" success")
}

func key(seed byte) core.Keypair { return core.KeypairFromSeed([32]byte{seed}) }

func TestDeployUpgradeExtendClose(t *testing.T) {
	t.Parallel()
	payer, buffer, program, other := key(1), key(2), key(3), key(4)
	b := newBank(t, payer.PublicKey(), other.PublicKey())
	b.createBuffer(payer, buffer, payer, testELF, 64)

	res := b.deploy(payer, program, buffer, payer, 2*len(testELF))
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res, slices.Concat(systemLogs(1), []string{loaderLogs.invoke}, systemLogs(2),
		[]string{"Deployed program " + program.PublicKey().String(), loaderLogs.success})...)
	if res.ComputeUnitsConsumed != 150+UpgradeableLoaderComputeUnits+150 {
		t.Errorf("deploy units %d, want 2670", res.ComputeUnitsConsumed)
	}
	pd, _ := ProgramDataAddress(program.PublicKey())
	prog := b.accounts[program.PublicKey()]
	if !prog.Executable || !bytes.Equal(prog.Data, State{Kind: StateProgram, ProgramData: pd}.Encode()) {
		t.Fatalf("program account %+v", prog)
	}
	pdAcct := b.accounts[pd]
	wantHeader := slices.Concat([]byte{3, 0, 0, 0}, binary.LittleEndian.AppendUint64(nil, 10), []byte{1}, pk(payer))
	if len(pdAcct.Data) != ProgramDataMetadataSize+2*len(testELF) || !bytes.Equal(pdAcct.Data[:45], wantHeader) ||
		!bytes.Equal(pdAcct.Data[45:45+len(testELF)], testELF) || pdAcct.Owner != core.BPFLoaderUpgradeableProgramID ||
		pdAcct.Lamports != b.rent(len(pdAcct.Data)) {
		t.Fatalf("program data header % x len %d lamports %d", pdAcct.Data[:45], len(pdAcct.Data), pdAcct.Lamports)
	}
	if _, ok := b.accounts[buffer.PublicKey()]; ok {
		t.Fatal("the buffer outlived the deploy")
	}
	// Deployed in slot 10: it runs from slot 11.
	b.invoke(payer, program.PublicKey(), false)

	// Upgrade: not in the deployment's slot.
	buf2 := key(5)
	b.createBuffer(payer, buf2, payer, testELF[:len(testELF)], 200)
	up := []core.Instruction{Upgrade(program.PublicKey(), buf2.PublicKey(), payer.PublicKey(), other.PublicKey())}
	res = b.run(up, payer)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"InvalidArgument"]}`)
	runtimetest.WantLogs(t, res, loaderLogs.invoke, "Program was deployed in this block already",
		"Program "+loaderID+" failed: invalid program argument")
	b.env.Clock.Slot = 11
	b.invoke(payer, program.PublicKey(), true)
	before := b.accounts[other.PublicKey()].Lamports
	bufLamports := b.accounts[buf2.PublicKey()].Lamports
	res = b.run(up, payer)
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res, loaderLogs.invoke, "Upgraded program "+program.PublicKey().String(), loaderLogs.success)
	if got := b.accounts[other.PublicKey()].Lamports - before; got != bufLamports {
		t.Errorf("spill got %d, want the buffer's %d", got, bufLamports)
	}
	if s, _ := DecodeState(b.accounts[pd].Data); s.Slot != 11 {
		t.Errorf("upgrade slot %d", s.Slot)
	}

	b.invoke(payer, program.PublicKey(), false) // upgraded in this slot
	// Extend: anyone pays; not twice in one slot.
	b.env.Clock.Slot = 12
	b.invoke(payer, program.PublicKey(), true)
	res = b.run([]core.Instruction{ExtendProgram(program.PublicKey(), other.PublicKey(), 1000)}, other)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"InvalidArgument"]}`)
	runtimetest.WantLogs(t, res, loaderLogs.invoke, "ExtendProgram requires a minimum of 10240 additional bytes "+
		"or to extend to maximum size, but only 1000 were requested", "Program "+loaderID+" failed: invalid program argument")
	res = b.run([]core.Instruction{ExtendProgram(program.PublicKey(), other.PublicKey(), 10240)}, other)
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res, slices.Concat([]string{loaderLogs.invoke}, systemLogs(2),
		[]string{"Extended ProgramData account by 10240 bytes", loaderLogs.success})...)
	if n := len(b.accounts[pd].Data); n != ProgramDataMetadataSize+2*len(testELF)+10240 {
		t.Errorf("extended length %d", n)
	}
	if l := b.accounts[pd].Lamports; l != b.rent(len(b.accounts[pd].Data)) {
		t.Errorf("extended lamports %d", l)
	}
	res = b.run([]core.Instruction{ExtendProgram(program.PublicKey(), other.PublicKey(), 10240)}, other)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"InvalidArgument"]}`)
	runtimetest.WantLogs(t, res, loaderLogs.invoke, "Program was extended in this block already",
		"Program "+loaderID+" failed: invalid program argument")

	b.invoke(payer, program.PublicKey(), false) // extended (and so redeployed) in this slot
	// SetAuthority, then the old authority no longer closes it.
	b.env.Clock.Slot = 13
	b.invoke(payer, program.PublicKey(), true)
	newAuth := other.PublicKey()
	res = b.run([]core.Instruction{SetAuthority(pd, payer.PublicKey(), &newAuth)}, payer)
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res, loaderLogs.invoke, "New authority Some("+newAuth.String()+")", loaderLogs.success)
	pid := program.PublicKey()
	res = b.run([]core.Instruction{Close(pd, payer.PublicKey(), payer.PublicKey(), &pid)}, payer)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"IncorrectAuthority"]}`)
	runtimetest.WantLogs(t, res, loaderLogs.invoke, "Incorrect authority provided",
		"Program "+loaderID+" failed: Incorrect authority provided")

	pdLamports := b.accounts[pd].Lamports
	before = b.accounts[payer.PublicKey()].Lamports
	res = b.run([]core.Instruction{Close(pd, payer.PublicKey(), other.PublicKey(), &pid)}, payer, other)
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res, loaderLogs.invoke, "Closed Program "+pid.String(), loaderLogs.success)
	if got := b.accounts[payer.PublicKey()].Lamports + res.Fee - before; got != pdLamports {
		t.Errorf("recipient got %d, want %d", got, pdLamports)
	}
	if _, ok := b.accounts[pd]; ok {
		t.Error("program data outlived its close")
	}
	if p := b.accounts[pid]; !p.Executable || len(p.Data) != ProgramSize {
		t.Error("the program account should stay")
	}
	b.env.Clock.Slot = 14
	b.invoke(payer, pid, false)
}

func TestDeployGarbageELF(t *testing.T) {
	t.Parallel()
	payer, buffer, program := key(1), key(2), key(3)
	b := newBank(t, payer.PublicKey())
	garbage := bytes.Repeat([]byte{0x7f}, 300)
	b.createBuffer(payer, buffer, payer, garbage, 1012)
	want := VerifyELF(garbage, DefaultFeatures())
	if want == nil {
		t.Fatal("garbage verified")
	}
	res := b.deploy(payer, program, buffer, payer, len(garbage))
	runtimetest.WantErr(t, res, `{"InstructionError":[1,"InvalidAccountData"]}`)
	runtimetest.WantLogs(t, res, slices.Concat(systemLogs(1), []string{loaderLogs.invoke}, systemLogs(2),
		[]string{want.Error(), "Program " + loaderID + " failed: invalid account data for instruction"})...)
	if _, ok := b.accounts[program.PublicKey()]; ok {
		t.Error("a failed deploy left the program account")
	}
}

func TestBufferErrors(t *testing.T) {
	t.Parallel()
	payer, buffer, other := key(1), key(2), key(4)
	b := newBank(t, payer.PublicKey(), other.PublicKey())
	b.createBuffer(payer, buffer, payer, testELF, 1012)
	bk := buffer.PublicKey()
	failed := func(msg string) string { return "Program " + loaderID + " failed: " + msg }
	tests := []struct {
		name    string
		ix      core.Instruction
		signers []core.Keypair
		err     string
		logs    []string
	}{
		{"initialize twice", InitializeBuffer(bk, payer.PublicKey()), []core.Keypair{payer},
			`{"InstructionError":[0,"AccountAlreadyInitialized"]}`,
			[]string{loaderLogs.invoke, "Buffer account already initialized", failed("instruction requires an uninitialized account")}},
		{"write wrong authority", Write(bk, other.PublicKey(), 0, []byte{1}), []core.Keypair{payer, other},
			`{"InstructionError":[0,"IncorrectAuthority"]}`,
			[]string{loaderLogs.invoke, "Incorrect buffer authority provided", failed("Incorrect authority provided")}},
		{"write overflow", Write(bk, payer.PublicKey(), uint32(len(testELF)-1), []byte{1, 2}), []core.Keypair{payer},
			`{"InstructionError":[0,"AccountDataTooSmall"]}`,
			[]string{loaderLogs.invoke, fmt.Sprintf("Write overflow: %d < %d", BufferMetadataSize+len(testELF), BufferMetadataSize+len(testELF)+1),
				failed("account data too small for instruction")}},
		{"buffer authority not optional", SetAuthority(bk, payer.PublicKey(), nil), []core.Keypair{payer},
			`{"InstructionError":[0,"IncorrectAuthority"]}`,
			[]string{loaderLogs.invoke, "Buffer authority is not optional", failed("Incorrect authority provided")}},
		{"checked new authority unsigned", core.Instruction{ProgramID: core.BPFLoaderUpgradeableProgramID,
			Data: []byte{7, 0, 0, 0}, Accounts: []core.AccountMeta{core.Writable(bk), core.ReadonlySigner(payer.PublicKey()), core.Readonly(other.PublicKey())}},
			[]core.Keypair{payer}, `{"InstructionError":[0,"MissingRequiredSignature"]}`,
			[]string{loaderLogs.invoke, "New authority did not sign", failed("missing required signature for instruction")}},
		{"extend checked is not enabled", core.Instruction{ProgramID: core.BPFLoaderUpgradeableProgramID,
			Data: []byte{9, 0, 0, 0, 1, 0, 0, 0}, Accounts: []core.AccountMeta{core.Writable(bk)}},
			[]core.Keypair{payer}, `{"InstructionError":[0,"InvalidInstructionData"]}`,
			[]string{loaderLogs.invoke, failed("invalid instruction data")}},
		{"migrate is not enabled", core.Instruction{ProgramID: core.BPFLoaderUpgradeableProgramID,
			Data: []byte{8, 0, 0, 0}, Accounts: []core.AccountMeta{core.Writable(bk)}},
			[]core.Keypair{payer}, `{"InstructionError":[0,"InvalidInstructionData"]}`,
			[]string{loaderLogs.invoke, failed("invalid instruction data")}},
		{"close to itself", Close(bk, bk, payer.PublicKey(), nil), []core.Keypair{payer},
			`{"InstructionError":[0,"InvalidArgument"]}`,
			[]string{loaderLogs.invoke, "Recipient is the same as the account being closed", failed("invalid program argument")}},
		{"v2 management", core.Instruction{ProgramID: core.BPFLoaderProgramID, Data: []byte{0}}, []core.Keypair{payer},
			`{"InstructionError":[0,"UnsupportedProgramId"]}`,
			[]string{"Program " + core.BPFLoaderProgramID.String() + " invoke [1]", "BPF loader management instructions are no longer supported",
				"Program " + core.BPFLoaderProgramID.String() + " failed: Unsupported program id"}},
		{"v1 management", core.Instruction{ProgramID: core.BPFLoaderDeprecatedProgramID, Data: []byte{0}}, []core.Keypair{payer},
			`{"InstructionError":[0,"UnsupportedProgramId"]}`,
			[]string{"Program " + core.BPFLoaderDeprecatedProgramID.String() + " invoke [1]", "Deprecated loader is no longer supported",
				"Program " + core.BPFLoaderDeprecatedProgramID.String() + " failed: Unsupported program id"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := b.run([]core.Instruction{tc.ix}, tc.signers...)
			runtimetest.WantErr(t, res, tc.err)
			runtimetest.WantLogs(t, res, tc.logs...)
		})
	}
	// The units of the refused v1 and v2 management instructions.
	for id, units := range map[core.Pubkey]uint64{core.BPFLoaderProgramID: LoaderV2ComputeUnits, core.BPFLoaderDeprecatedProgramID: DeprecatedLoaderComputeUnits} {
		res := b.run([]core.Instruction{{ProgramID: id}}, payer)
		if res.ComputeUnitsConsumed != units {
			t.Errorf("%s: %d units, want %d", id, res.ComputeUnitsConsumed, units)
		}
	}

	// A checked authority change, and the buffer is closed by its new authority.
	res := b.run([]core.Instruction{SetAuthorityChecked(bk, payer.PublicKey(), other.PublicKey())}, payer, other)
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res, loaderLogs.invoke, "New authority "+other.PublicKey().String(), loaderLogs.success)
	res = b.run([]core.Instruction{Close(bk, payer.PublicKey(), other.PublicKey(), nil)}, payer, other)
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res, loaderLogs.invoke, "Closed Buffer "+bk.String(), loaderLogs.success)
	if _, ok := b.accounts[bk]; ok {
		t.Error("closed buffer remains")
	}
}

func TestImmutableProgram(t *testing.T) {
	t.Parallel()
	payer, buffer, program := key(1), key(2), key(3)
	b := newBank(t, payer.PublicKey())
	b.createBuffer(payer, buffer, payer, testELF, 1012)
	runtimetest.WantErr(t, b.deploy(payer, program, buffer, payer, len(testELF)), "<nil>")
	pd, _ := ProgramDataAddress(program.PublicKey())
	b.env.Clock.Slot++
	res := b.run([]core.Instruction{SetAuthority(pd, payer.PublicKey(), nil)}, payer)
	runtimetest.WantErr(t, res, "<nil>")
	runtimetest.WantLogs(t, res, loaderLogs.invoke, "New authority None", loaderLogs.success)
	// bincode of ProgramData without an authority is 13 bytes: the old key stays behind it.
	d := b.accounts[pd].Data
	if d[12] != 0 || !bytes.Equal(d[13:45], pk(payer)) {
		t.Errorf("header % x", d[:45])
	}
	s, err := DecodeState(d)
	if err != nil || s.Authority != nil {
		t.Fatalf("state %+v %v", s, err)
	}
	b.env.Clock.Slot++
	res = b.run([]core.Instruction{ExtendProgram(program.PublicKey(), payer.PublicKey(), 10240)}, payer)
	runtimetest.WantErr(t, res, `{"InstructionError":[0,"Immutable"]}`)
	runtimetest.WantLogs(t, res, loaderLogs.invoke, "Cannot extend ProgramData accounts that are not upgradeable",
		"Program "+loaderID+" failed: Account is immutable")
}

func TestDecodeUpgradeable(t *testing.T) {
	t.Parallel()
	for _, ix := range []UpgradeableInstruction{
		{Tag: TagInitializeBuffer}, {Tag: TagWrite, Offset: 7, Bytes: []byte("abc")},
		{Tag: TagDeployWithMaxDataLen, MaxDataLen: 1 << 40}, {Tag: TagUpgrade}, {Tag: TagSetAuthority}, {Tag: TagClose},
		{Tag: TagExtendProgram, AdditionalBytes: 9}, {Tag: TagSetAuthorityChecked}, {Tag: TagMigrate},
		{Tag: TagExtendProgramChecked, AdditionalBytes: 3},
	} {
		got, err := DecodeUpgradeable(append(ix.Encode(), 1)) // newer clients append a flag
		if err != nil || got.Tag != ix.Tag || got.Offset != ix.Offset || !bytes.Equal(got.Bytes, ix.Bytes) ||
			got.MaxDataLen != ix.MaxDataLen || got.AdditionalBytes != ix.AdditionalBytes {
			t.Errorf("%+v: got %+v, %v", ix, got, err)
		}
	}
	long := UpgradeableInstruction{Tag: TagWrite, Bytes: make([]byte, packetDataSize-15)}.Encode()
	for _, bad := range [][]byte{nil, {1, 0, 0}, {10, 0, 0, 0}, {1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 1}, {2, 0, 0, 0, 1}, long} {
		if _, err := DecodeUpgradeable(bad); err == nil {
			t.Errorf("% x decoded", bad[:min(len(bad), 20)])
		}
	}
	if _, err := DecodeUpgradeable(long[:len(long)-1]); err == nil {
		// 1231 bytes of Write data reads 1232 bytes: within the limit.
		_ = err
	} else if !strings.Contains(err.Error(), "upgradeable") {
		t.Error(err)
	}
}

func FuzzDecodeUpgradeable(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 9})
	f.Add([]byte{3, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if ix, err := DecodeUpgradeable(data); err == nil {
			again, err := DecodeUpgradeable(ix.Encode())
			if err != nil || again.Tag != ix.Tag || !bytes.Equal(again.Bytes, ix.Bytes) {
				t.Fatalf("re-decode %+v: %+v %v", ix, again, err)
			}
		}
		if s, err := DecodeState(data); err == nil {
			again, err := DecodeState(s.Encode())
			if err != nil || again.Kind != s.Kind || again.Slot != s.Slot || (again.Authority == nil) != (s.Authority == nil) {
				t.Fatalf("state %+v: %+v %v", s, again, err)
			}
		}
	})
}

// SIMD-0431 lets an extend below the minimum through when it grows the program data exactly to the
// largest account size.
func TestExtendToMaximumSize(t *testing.T) {
	t.Parallel()
	payer, buffer, program := key(1), key(2), key(3)
	b := newBank(t, payer.PublicKey())
	b.createBuffer(payer, buffer, payer, testELF, 1012)
	maxLen := runtime.MaxPermittedDataLength - ProgramDataMetadataSize - 100
	runtimetest.WantErr(t, b.deploy(payer, program, buffer, payer, maxLen), "<nil>")
	b.env.Clock.Slot++
	for _, tc := range []struct {
		n    uint32
		want string
	}{{99, `{"InstructionError":[0,"InvalidArgument"]}`}, {101, `{"InstructionError":[0,"InvalidRealloc"]}`}, {100, "<nil>"}} {
		res := b.run([]core.Instruction{ExtendProgram(program.PublicKey(), payer.PublicKey(), tc.n)}, payer)
		runtimetest.WantErr(t, res, tc.want)
	}
	pd, _ := ProgramDataAddress(program.PublicKey())
	if n := len(b.accounts[pd].Data); n != runtime.MaxPermittedDataLength {
		t.Errorf("program data of %d bytes", n)
	}
}
