package loader

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/sbpf/sbpftest"
)

// Addresses the CPI test program builds its structures at: the heap (zeroed, writable) and the
// input, whose first account entry starts at 8 (key +8, owner +40, lamports +72, data +88).
const (
	heapBase  = 0x300000000
	inputBase = 0x400000000
	// entrySize is an aligned input entry of an account without data.
	entrySize = 96 + MaxPermittedDataIncrease
)

// asmBuilder writes the stores that lay out CPI structures in the heap: r6 holds heapBase.
type asmBuilder struct{ strings.Builder }

func (a *asmBuilder) line(format string, args ...any) {
	fmt.Fprintf(&a.Builder, "\t"+format+"\n", args...)
}

// u64 stores v at heap offset off.
func (a *asmBuilder) u64(off int, v uint64) {
	a.line("lddw r7, %#x", v)
	a.line("stxdw [r6+%d], r7", off)
}

func (a *asmBuilder) u8(off int, v byte) { a.line("stb [r6+%d], %d", off, v) }

// copyIn copies n bytes from VM address src to heap offset off.
func (a *asmBuilder) copyIn(off int, src uint64, n int) {
	a.line("lddw r1, %#x", heapBase+uint64(off))
	a.line("lddw r2, %#x", src)
	a.line("mov64 r3, %d", n)
	a.line("call sol_memcpy_")
}

// inputLayout gives the VM addresses of the fields of the i-th account of the input, when every
// account before it has no data: aligned for loaders 2 and 3, unaligned for the deprecated one.
type inputLayout struct{ aligned bool }

func (l inputLayout) entry(i int) uint64 {
	if l.aligned {
		return inputBase + 8 + uint64(i)*entrySize
	}
	return inputBase + 8 + uint64(i)*92
}

func (l inputLayout) key(i int) uint64 {
	if l.aligned {
		return l.entry(i) + 8
	}
	return l.entry(i) + 3
}

func (l inputLayout) owner(i int) uint64 {
	if l.aligned {
		return l.entry(i) + 40
	}
	return l.entry(i) + 51 // after no data
}

func (l inputLayout) lamports(i int) uint64 {
	if l.aligned {
		return l.entry(i) + 72
	}
	return l.entry(i) + 35
}

func (l inputLayout) data(i int) uint64 {
	if l.aligned {
		return l.entry(i) + 88
	}
	return l.entry(i) + 51
}

const manyMetas, manyInfos = 40, 30

// cpiProgram returns the test caller: op = data[0], r2 points at the instruction data.
//
//	0: a system transfer (C ABI) of data[2..10] lamports from account 0, a PDA of seeds
//	   ["vault", data[1]], to account 1; account 2 is the system program.
//	1: the same through the Rust ABI.
//	2: (C ABI) invoke account 1 (the probe) on account 0 with op 8 (write its data), then op 13
//	   (set return data), then read the return data and log it.
//	3: invoke the probe with op 7 (grow account 0 by 10 KiB) twice: past what the caller's
//	   input has room for.
//	4: a system transfer from account 1, which does not sign: privilege escalation.
//	5: invoke itself (account 0) with the same data, over and over: the stack depth limit.
//	6: invoke BPF loader 2: not allowed as an inner instruction.
//	7: op 0 with manyMetas account metas and manyInfos account infos.
//	8: invoke the probe (op 23: log the stack height) 70 times: past the instruction trace limit.
//	9: invoke the probe with op 0: the callee faults (an out-of-bounds read).
//	10: invoke an instruction with 10 KiB + 1 of data; 11: one with 256 account metas.
func cpiProgram(t *testing.T, L inputLayout) []byte {
	var a asmBuilder
	a.line("mov64 r9, r2") // the instruction data
	a.line("lddw r6, %#x", heapBase)
	a.line("ldxb r3, [r9+0]")
	for op, label := range []string{"c_transfer", "rust_transfer", "probe_twice", "grow_twice", "escalate", "recurse", "loader", "many", "trace", "probe_fault", "data_too_large", "metas_too_many"} {
		a.line("jeq r3, %d, %s", op, label)
	}
	a.line("mov64 r0, 0")
	a.line("exit")

	// C ABI structures: SolInstruction at 0, SolAccountMeta[2] at 64, data at 128, SolAccountInfo[2]
	// at 160, SolSignerSeeds at 320, SolSignerSeed[2] at 336, the system program id (zeros) at 448.
	cInstruction := func(programIDAddr uint64, nMetas int, dataLen int) {
		a.u64(0, programIDAddr)
		a.u64(8, heapBase+64)
		a.u64(16, uint64(nMetas))
		a.u64(24, heapBase+128)
		a.u64(32, uint64(dataLen))
	}
	cMeta := func(i int, keyAddr uint64, writable, signer byte) {
		a.u64(64+16*i, keyAddr)
		a.u8(64+16*i+8, writable)
		a.u8(64+16*i+9, signer)
	}
	cInfo := func(i, account int, dataLen uint64, signer, writable byte) {
		o := 160 + 56*i
		a.u64(o, L.key(account))
		a.u64(o+8, L.lamports(account))
		a.u64(o+16, dataLen)
		a.u64(o+24, L.data(account))
		a.u64(o+32, L.owner(account))
		a.u8(o+48, signer)
		a.u8(o+49, writable)
	}
	transferDataAt := func(off int) {
		a.line("stw [r6+%d], 2", off)
		a.line("ldxdw r7, [r9+2]")
		a.line("stxdw [r6+%d], r7", off+4)
	}
	transferData := func() { transferDataAt(128) }
	vaultSeeds := func() {
		a.u64(320, heapBase+336)
		a.u64(328, 2)
		a.line("lddw r7, vault")
		a.line("stxdw [r6+336], r7")
		a.u64(344, 5)
		a.line("mov64 r7, r9")
		a.line("add64 r7, 1")
		a.line("stxdw [r6+352], r7")
		a.u64(360, 1)
	}
	invokeC := func(nInfos int, seeds int) {
		a.line("lddw r1, %#x", heapBase)
		a.line("lddw r2, %#x", heapBase+160)
		a.line("mov64 r3, %d", nInfos)
		a.line("lddw r4, %#x", heapBase+320)
		a.line("mov64 r5, %d", seeds)
		a.line("call sol_invoke_signed_c")
	}

	a.WriteString("c_transfer:\n")
	cInstruction(heapBase+448, 2, 12)
	cMeta(0, L.key(0), 1, 1)
	cMeta(1, L.key(1), 1, 0)
	transferData()
	cInfo(0, 0, 0, 1, 1)
	cInfo(1, 1, 0, 0, 1)
	vaultSeeds()
	invokeC(2, 1)
	a.line("exit")

	// Rust ABI: StableInstruction at 0 (accounts at 576, data at 512, the program id inline),
	// AccountMeta[2] (34 bytes) at 576, data at 512, AccountInfo[2] (48 bytes) at 160, Rc boxes
	// for lamports at 272 and 304 and for data at 336 and 376, seeds at 420 (outer) and 436.
	a.WriteString("rust_transfer:\n")
	a.u64(0, heapBase+576)
	a.u64(8, 2)
	a.u64(16, 2)
	a.u64(24, heapBase+512)
	a.u64(32, 12)
	a.u64(40, 12)
	// program id at 48: the system program, zeros already.
	a.copyIn(576, L.key(0), 32)
	a.u8(576+32, 1)
	a.u8(576+33, 1)
	a.copyIn(610, L.key(1), 32)
	a.u8(610+33, 1)
	transferDataAt(512)
	for i := range 2 {
		o := 160 + 48*i
		lamBox, dataBox := 272+32*i, 336+40*i
		a.u64(o, L.key(i))
		a.u64(o+8, heapBase+uint64(lamBox))
		a.u64(o+16, heapBase+uint64(dataBox))
		a.u64(o+24, L.owner(i))
		a.u8(o+40, byte(1-i))
		a.u8(o+41, 1)
		a.u64(lamBox+24, L.lamports(i))
		a.u64(dataBox+24, L.data(i))
		a.u64(dataBox+32, 0)
	}
	a.u64(424, heapBase+440)
	a.u64(432, 2)
	a.line("lddw r7, vault")
	a.line("stxdw [r6+440], r7")
	a.u64(448, 5)
	a.line("mov64 r7, r9")
	a.line("add64 r7, 1")
	a.line("stxdw [r6+456], r7")
	a.u64(464, 1)
	a.line("lddw r1, %#x", heapBase)
	a.line("lddw r2, %#x", heapBase+160)
	a.line("mov64 r3, 2")
	a.line("lddw r4, %#x", heapBase+424)
	a.line("mov64 r5, 1")
	a.line("call sol_invoke_signed_rust")
	a.line("exit")

	// The probe gets account 0 (11 bytes of data, so account 1's entry starts 11 + 5 bytes of
	// padding further).
	probeKey := L.key(1) + 16
	if !L.aligned {
		probeKey = L.key(1) + 11
	}
	probeCall := func(op byte) {
		a.u8(128, op)
		a.line("lddw r1, %#x", heapBase)
		a.line("lddw r2, %#x", heapBase+160)
		a.line("mov64 r3, 1")
		a.line("mov64 r4, 0")
		a.line("mov64 r5, 0")
		a.line("call sol_invoke_signed_c")
		a.line("jne r0, 0, fail")
	}
	a.WriteString("probe_twice:\n")
	cInstruction(probeKey, 1, 1)
	cMeta(0, L.key(0), 1, 0)
	cInfo(0, 0, 11, 0, 1)
	probeCall(8)
	probeCall(13)
	a.line("lddw r1, %#x", heapBase+1024)
	a.line("mov64 r2, 64")
	a.line("lddw r3, %#x", heapBase+2048)
	a.line("call sol_get_return_data")
	a.line("mov64 r2, r0")
	a.line("lddw r1, %#x", heapBase+1024)
	a.line("call sol_log_")
	a.line("mov64 r0, 0")
	a.line("exit")

	a.WriteString("grow_twice:\n")
	cInstruction(probeKey, 1, 1)
	cMeta(0, L.key(0), 1, 0)
	cInfo(0, 0, 11, 0, 1)
	probeCall(7)
	probeCall(7)
	a.line("mov64 r0, 0")
	a.line("exit")

	a.WriteString("escalate:\n")
	cInstruction(heapBase+448, 2, 12)
	cMeta(0, L.key(1), 1, 1)
	cMeta(1, L.key(0), 1, 0)
	transferData()
	cInfo(0, 0, 0, 0, 1)
	cInfo(1, 1, 0, 0, 1)
	invokeC(2, 0)
	a.line("exit")

	a.WriteString("recurse:\n")
	cInstruction(L.key(0), 1, 1)
	cMeta(0, L.key(0), 0, 0)
	a.u8(128, 5)
	invokeC(0, 0)
	a.line("exit")

	a.WriteString("loader:\n")
	a.line("lddw r8, loader_id")
	cInstruction(0, 0, 1)
	a.line("stxdw [r6+0], r8")
	invokeC(0, 0)
	a.line("exit")

	// Many metas and account infos (the vault and the destination, repeated): they are charged
	// by number. Metas at 1024, data at 768, infos at 2048.
	a.WriteString("many:\n")
	a.u64(0, heapBase+448)
	a.u64(8, heapBase+1024)
	a.u64(16, manyMetas)
	a.u64(24, heapBase+768)
	a.u64(32, 12)
	for i := range manyMetas {
		a.u64(1024+16*i, L.key(i%2))
		a.u8(1024+16*i+8, 1)
		a.u8(1024+16*i+9, byte(1-i%2))
	}
	a.line("stw [r6+768], 2")
	a.line("ldxdw r7, [r9+2]")
	a.line("stxdw [r6+772], r7")
	for i := range manyInfos {
		o := 2048 + 56*i
		a.u64(o, L.key(i%2))
		a.u64(o+8, L.lamports(i%2))
		a.u64(o+24, L.data(i%2))
		a.u64(o+32, L.owner(i%2))
		a.u8(o+48, byte(1-i%2))
		a.u8(o+49, 1)
	}
	vaultSeeds()
	a.line("lddw r1, %#x", heapBase)
	a.line("lddw r2, %#x", heapBase+2048)
	a.line("mov64 r3, %d", manyInfos)
	a.line("lddw r4, %#x", heapBase+320)
	a.line("mov64 r5, 1")
	a.line("call sol_invoke_signed_c")
	a.line("exit")

	// Past the limits of an invoked instruction, checked before its accounts are read.
	a.WriteString("data_too_large:\n")
	cInstruction(heapBase+448, 0, 10*1024+1)
	invokeC(0, 0)
	a.line("exit")
	a.WriteString("metas_too_many:\n")
	cInstruction(heapBase+448, 256, 0)
	invokeC(0, 0)
	a.line("exit")

	a.WriteString("trace:\n")
	cInstruction(probeKey, 1, 1)
	cMeta(0, L.key(0), 1, 0)
	cInfo(0, 0, 11, 0, 1)
	a.u8(128, 23)
	a.line("mov64 r8, 70")
	a.WriteString("trace_loop:\n")
	a.line("lddw r1, %#x", heapBase)
	a.line("lddw r2, %#x", heapBase+160)
	a.line("mov64 r3, 1")
	a.line("mov64 r4, 0")
	a.line("mov64 r5, 0")
	a.line("call sol_invoke_signed_c")
	a.line("sub64 r8, 1")
	a.line("jne r8, 0, trace_loop")
	a.line("mov64 r0, 0")
	a.line("exit")

	a.WriteString("probe_fault:\n")
	cInstruction(probeKey, 1, 1)
	cMeta(0, L.key(0), 1, 0)
	cInfo(0, 0, 11, 0, 1)
	probeCall(0)
	a.line("mov64 r0, 0")
	a.line("exit")

	a.WriteString("fail:\n\texit\n")
	loader := core.BPFLoaderProgramID
	a.WriteString(".rodata\nvault: .ascii \"vault\"\nloader_id: .byte ")
	for i, c := range loader {
		if i > 0 {
			a.WriteString(", ")
		}
		fmt.Fprintf(&a.Builder, "%d", c)
	}
	a.WriteString("\n")
	elf, err := sbpftest.ELF(a.String(), nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, a.String())
	}
	return elf
}

// TestCPIEqualLiteSVM runs cross-program invocations from an sBPF program in ledgerd and in
// LiteSVM: into the system program with a PDA signing (C and Rust ABIs), into another sBPF
// program that writes the caller's account and sets return data the caller reads, a callee
// growing an account past what the caller's input can hold, a privilege escalation, recursion
// past the stack depth limit, and an invocation of a loader.
func TestCPIEqualLiteSVM(t *testing.T) {
	probeELF, err := sbpftest.ELF(probeAsm, nil)
	if err != nil {
		t.Fatal(err)
	}
	caller := realelf.Program{Name: "cpi", ID: testKey(50).PublicKey(), Loader: core.BPFLoaderProgramID, ELF: cpiProgram(t, inputLayout{aligned: true})}
	probe := realelf.Program{Name: "probe", ID: testKey(51).PublicKey(), Loader: core.BPFLoaderProgramID, ELF: probeELF}
	payer := testKey(52)
	vault, bump, err := core.FindProgramAddress([][]byte{[]byte("vault")}, caller.ID)
	if err != nil {
		t.Fatal(err)
	}
	dest := testKey(53).PublicKey()
	probed := testKey(54).PublicKey()
	accounts := []realelf.Account{
		fundedAccount(payer.PublicKey()),
		{Address: vault, Lamports: 5_000_000_000, Owner: core.SystemProgramID},
		{Address: dest, Lamports: 1_000_000_000, Owner: core.SystemProgramID},
		{Address: probed, Lamports: 1_000_000_000, Owner: probe.ID, Data: []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
	}
	b := newVMBank(t)
	transfer := func(op byte, amount uint64) []byte {
		d := []byte{op, bump}
		return binary.LittleEndian.AppendUint64(d, amount)
	}
	ix := func(data []byte, metas ...core.AccountMeta) core.Instruction {
		return core.Instruction{ProgramID: caller.ID, Accounts: metas, Data: data}
	}
	w, r := core.Writable, core.Readonly
	step := func(name string, ixs ...core.Instruction) realelf.Step {
		return realelf.Step{Name: name, Tx: b.tx(ixs, payer)}
	}
	steps := []realelf.Step{
		step("C ABI: system transfer signed by a PDA", ix(transfer(0, 1_000_000), w(vault), w(dest), r(core.SystemProgramID))),
		step("Rust ABI: system transfer signed by a PDA", ix(transfer(1, 2_000_000), w(vault), w(dest), r(core.SystemProgramID))),
		step("sBPF to sBPF: account write and return data", ix([]byte{2}, w(probed), r(probe.ID))),
		step("callee grows past the caller's room", ix([]byte{3}, w(probed), r(probe.ID))),
		step("privilege escalation", ix(transfer(4, 1), w(vault), w(dest), r(core.SystemProgramID))),
		step("recursion past the stack depth", ix([]byte{5}, r(caller.ID))),
		step("invoke a loader", ix([]byte{6})),
		step("many metas and account infos", ix(transfer(7, 4), w(vault), w(dest), r(core.SystemProgramID))),
		step("instruction trace limit", ix([]byte{8}, w(probed), r(probe.ID))),
		step("the callee faults", ix([]byte{9}, w(probed), r(probe.ID))),
		step("still serving", ix(transfer(0, 3), w(vault), w(dest), r(core.SystemProgramID))),
		step("instruction data past 10 KiB", ix([]byte{10})),
		step("256 account metas", ix([]byte{11})),
	}
	res := compareWithOracle(t, realelf.Scenario{Name: "cpi", Programs: []realelf.Program{caller, probe}, Accounts: accounts, Steps: steps})
	// The equal results include the successes the cases are written for.
	for _, i := range []int{0, 1, 2, 7, 10} {
		if r := res[i][0].(*runtime.Result); r.Err != nil {
			t.Errorf("%s: %v, want success; logs %q", steps[i].Name, r.Err, r.Logs)
		}
	}
}

// TestCPIDeprecatedLoaderEqualLiteSVM runs the PDA-signed system transfers and the privilege
// escalation from a program of the deprecated loader, whose input is unaligned and whose
// pointers are not checked for alignment.
func TestCPIDeprecatedLoaderEqualLiteSVM(t *testing.T) {
	caller := realelf.Program{Name: "cpi v1", ID: testKey(55).PublicKey(), Loader: core.BPFLoaderDeprecatedProgramID,
		ELF: cpiProgram(t, inputLayout{aligned: false})}
	payer := testKey(56)
	vault, bump, err := core.FindProgramAddress([][]byte{[]byte("vault")}, caller.ID)
	if err != nil {
		t.Fatal(err)
	}
	dest := testKey(57).PublicKey()
	accounts := []realelf.Account{
		fundedAccount(payer.PublicKey()),
		{Address: vault, Lamports: 5_000_000_000, Owner: core.SystemProgramID},
		{Address: dest, Lamports: 1_000_000_000, Owner: core.SystemProgramID},
	}
	b := newVMBank(t)
	ix := func(op byte, amount uint64) core.Instruction {
		return core.Instruction{ProgramID: caller.ID, Data: binary.LittleEndian.AppendUint64([]byte{op, bump}, amount),
			Accounts: []core.AccountMeta{core.Writable(vault), core.Writable(dest), core.Readonly(core.SystemProgramID)}}
	}
	steps := []realelf.Step{
		{Name: "C ABI transfer", Tx: b.tx([]core.Instruction{ix(0, 1_000)}, payer)},
		{Name: "Rust ABI transfer", Tx: b.tx([]core.Instruction{ix(1, 2_000)}, payer)},
		{Name: "privilege escalation", Tx: b.tx([]core.Instruction{ix(4, 1)}, payer)},
		{Name: "many metas and infos", Tx: b.tx([]core.Instruction{ix(7, 3)}, payer)},
	}
	res := compareWithOracle(t, realelf.Scenario{Name: "cpi v1", Programs: []realelf.Program{caller}, Accounts: accounts, Steps: steps})
	for _, i := range []int{0, 1, 3} {
		if r := res[i][0].(*runtime.Result); r.Err != nil {
			t.Errorf("%s: %v, want success; logs %q", steps[i].Name, r.Err, r.Logs)
		}
	}
}
