package loader

import (
	"encoding/binary"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/sbpf/sbpftest"
)

// fuzzCPIAsm copies its instruction data after the first 41 bytes into the heap and invokes
// sol_invoke_signed_c (data[0] odd) or sol_invoke_signed_rust with r1..r5 the five u64 at
// data[1..41]: whatever structures and pointers the fuzzer writes are read as the reference
// reads them.
const fuzzCPIAsm = `
	mov64 r9, r2
	ldxdw r3, [r9-8]
	jlt r3, 41, done
	sub64 r3, 41
	jgt r3, 4096, done
	lddw r1, 0x300000000
	mov64 r2, r9
	add64 r2, 41
	call sol_memcpy_
	ldxb r6, [r9+0]
	ldxdw r1, [r9+1]
	ldxdw r2, [r9+9]
	ldxdw r3, [r9+17]
	ldxdw r4, [r9+25]
	ldxdw r5, [r9+33]
	jset r6, 1, c
	call sol_invoke_signed_rust
	exit
c:
	call sol_invoke_signed_c
	exit
done:
	mov64 r0, 0
	exit
`

// FuzzCPI hands the CPI syscalls arbitrary instructions, account infos and seeds (laid out in
// the heap, pointing anywhere): every run ends with a result, never a Go panic, and the bank
// keeps working.
func FuzzCPI(f *testing.F) {
	elf := sbpftest.MustELF(fuzzCPIAsm, nil)
	b := newVMBank(f)
	payer := testKey(90)
	prog := testKey(91).PublicKey()
	other := testKey(92).PublicKey()
	b.addProgram(prog, core.BPFLoaderProgramID, elf, 0)
	b.accounts[payer.PublicKey()] = runtime.Account{Lamports: 1e15, Owner: core.SystemProgramID}
	b.accounts[other] = runtime.Account{Lamports: 1e9, Owner: prog, Data: make([]byte, 16)}
	const heap = 0x300000000
	seed := func(abi byte, args [5]uint64, payload []byte) []byte {
		d := []byte{abi}
		for _, a := range args {
			d = binary.LittleEndian.AppendUint64(d, a)
		}
		return append(d, payload...)
	}
	// A C instruction for the system program (zeros at heap+512) with no accounts and no data,
	// and a Rust one with one account meta and an account info pointing into the input.
	cIx := make([]byte, 64)
	binary.LittleEndian.PutUint64(cIx, heap+512)
	f.Add(seed(1, [5]uint64{heap, heap + 64, 0, 0, 0}, cIx))
	rIx := make([]byte, 256)
	binary.LittleEndian.PutUint64(rIx, heap+128)
	binary.LittleEndian.PutUint64(rIx[16:], 1)
	copy(rIx[128:], other[:])
	rIx[128+33] = 1
	f.Add(seed(0, [5]uint64{heap, heap + 160, 1, heap + 200, 1}, rIx))
	f.Add(seed(0, [5]uint64{0x400000000, 0x400000008, 3, 0x400000010, 17}, nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1000 {
			return
		}
		ix := core.Instruction{ProgramID: prog, Accounts: []core.AccountMeta{core.Writable(other), core.Readonly(core.SystemProgramID)}, Data: data}
		tx, err := core.NewTransaction(payer.PublicKey(), []core.Instruction{ix}, vmBlockhash, payer)
		if err != nil {
			t.Fatal(err)
		}
		res := b.execute(tx)
		for _, l := range res.Logs {
			if strings.Contains(l, "panicked:") {
				t.Fatalf("a Go panic: %s", l)
			}
		}
		if !res.Processed {
			t.Fatalf("not processed: %v", res.Err)
		}
	})
}
