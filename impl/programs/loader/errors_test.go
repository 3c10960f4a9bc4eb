package loader

import (
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/sbpf/sbpftest"
)

// probeAsm is a program that does one thing picked by the first byte of its instruction data
// (r2 points at the data): the failures a deployed program can end with, and a few successes
// that change its first account. The first account's entry in the aligned input starts at 8:
// key at 16, owner at 48, lamports at 80, data length at 88, data at 96.
const probeAsm = `
entrypoint:
	ldxb r3, [r2+0]
	jeq r3, 0, oob
	jeq r3, 1, spin
	jeq r3, 2, recurse
	jeq r3, 3, aborts
	jeq r3, 4, panics
	jeq r3, 5, unresolved
	jeq r3, 6, grow_too_much
	jeq r3, 7, grow_most
	jeq r3, 8, write_data
	jeq r3, 9, write_owner
	jeq r3, 10, custom
	jeq r3, 11, builtin
	jeq r3, 12, spend
	jeq r3, 13, returns
	jeq r3, 14, heap_end
	jeq r3, 15, shrink
	jeq r3, 16, custom_zero
	jeq r3, 17, invalid_error
	jeq r3, 18, div_zero
	jeq r3, 19, log
	jeq r3, 20, return_too_large
	jeq r3, 21, log_too_long
	jeq r3, 22, set_owner
	jeq r3, 23, stack_height
	jeq r3, 24, sibling
	mov64 r0, 0
	exit
oob:
	lddw r4, 0x500000000
	ldxdw r0, [r4+0]
	exit
spin:
	ja spin
recurse:
	call recurse
	exit
aborts:
	call abort
	exit
panics:
	lddw r1, file
	mov64 r2, 7
	mov64 r3, 12
	mov64 r4, 5
	call sol_panic_
	exit
unresolved:
	call sol_no_such_syscall
	mov64 r0, 0
	exit
grow_too_much:
	ldxdw r4, [r1+88]
	add64 r4, 10241
	stxdw [r1+88], r4
	mov64 r0, 0
	exit
grow_most:
	ldxdw r4, [r1+88]
	add64 r4, 10240
	stxdw [r1+88], r4
	stb [r1+100], 9
	mov64 r0, 0
	exit
write_data:
	stb [r1+96], 1
	mov64 r0, 0
	exit
write_owner:
	stb [r1+48], 7
	mov64 r0, 0
	exit
custom:
	mov64 r0, 42
	exit
builtin:
	lddw r0, 0x400000000
	exit
spend:
	ldxdw r4, [r1+80]
	sub64 r4, 1
	stxdw [r1+80], r4
	mov64 r0, 0
	exit
returns:
	lddw r1, msg
	mov64 r2, 5
	call sol_set_return_data
	mov64 r1, 1
	mov64 r2, 2
	mov64 r3, 3
	mov64 r4, 4
	mov64 r5, 5
	call sol_log_64_
	call sol_log_compute_units_
	mov64 r0, 0
	exit
heap_end:
	lddw r4, 0x300000000
	ldxdw r5, [r2+1]
	add64 r4, r5
	stb [r4+0], 1
	mov64 r0, 0
	exit
shrink:
	stdw [r1+88], 0
	mov64 r0, 0
	exit
custom_zero:
	lddw r0, 0x100000000
	exit
invalid_error:
	lddw r0, 0x1b00000000
	exit
div_zero:
	mov64 r4, 0
	mov64 r5, 7
	div64 r5, r4
	mov64 r0, 0
	exit
log:
	lddw r1, msg
	mov64 r2, 5
	call sol_log_
	mov64 r0, 0
	exit
return_too_large:
	lddw r1, msg
	mov64 r2, 1025
	call sol_set_return_data
	mov64 r0, 0
	exit
log_too_long:
	lddw r1, msg
	mov64 r2, 250000
	call sol_log_
	mov64 r0, 0
	exit
set_owner:
	stb [r1+48], 7
	stdw [r1+88], 0
	mov64 r0, 0
	exit
stack_height:
	call sol_get_stack_height
	mov64 r1, r0
	mov64 r2, 0
	mov64 r3, 0
	mov64 r4, 0
	mov64 r5, 0
	call sol_log_64_
	mov64 r0, 0
	exit
sibling:
	lddw r6, 0x300000000
	mov64 r1, 0
	mov64 r2, r6
	mov64 r3, r6
	add64 r3, 64
	mov64 r4, r6
	add64 r4, 128
	mov64 r5, r6
	add64 r5, 256
	call sol_get_processed_sibling_instruction
	mov64 r1, 0
	mov64 r2, r6
	mov64 r3, r6
	add64 r3, 64
	mov64 r4, r6
	add64 r4, 128
	mov64 r5, r6
	add64 r5, 256
	call sol_get_processed_sibling_instruction
	mov64 r1, r0
	ldxdw r2, [r6+0]
	ldxdw r3, [r6+8]
	ldxb r4, [r6+128]
	ldxb r5, [r6+288]
	call sol_log_64_
	mov64 r1, r6
	add64 r1, 64
	call sol_log_pubkey
	mov64 r1, r6
	add64 r1, 256
	call sol_log_pubkey
	mov64 r0, 0
	exit
.rodata
file: .ascii "main.rs"
msg: .ascii "hello"
`

// TestErrorPathsEqualLiteSVM runs each failure a deployed program can end with (an
// out-of-bounds read, an endless loop, too deep a recursion, abort and panic, an unresolved
// syscall, data grown past the limit, writes to a read-only or foreign account, an illegal owner
// change, error return values, an unbalanced lamport change, a division by zero, syscalls failing
// or running out of units) in ledgerd and in LiteSVM: the same errors, logs, units and account
// bytes. Successes (data growth at the limit, shrinking, return data, a heap write at its end
// under a requested heap frame) are compared the same way, and the bank keeps serving after
// every failure.
func TestErrorPathsEqualLiteSVM(t *testing.T) {
	elf, err := sbpftest.ELF(probeAsm, nil)
	if err != nil {
		t.Fatal(err)
	}
	prog := realelf.Program{Name: "probe", ID: testKey(40).PublicKey(), Loader: core.BPFLoaderProgramID, ELF: elf}
	payer := testKey(41)
	own, ownRO, foreign := testKey(42).PublicKey(), testKey(43).PublicKey(), testKey(44).PublicKey()
	data := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	accounts := []realelf.Account{
		fundedAccount(payer.PublicKey()),
		{Address: own, Lamports: 1_000_000_000, Owner: prog.ID, Data: data},
		{Address: ownRO, Lamports: 1_000_000_000, Owner: prog.ID, Data: data},
		{Address: foreign, Lamports: 1_000_000_000, Owner: core.SystemProgramID, Data: data},
	}
	b := newVMBank(t)
	ix := func(op byte, first core.Pubkey, writable bool, extra ...byte) core.Instruction {
		meta := core.AccountMeta{Pubkey: first, IsWritable: writable}
		return core.Instruction{ProgramID: prog.ID, Accounts: []core.AccountMeta{meta}, Data: append([]byte{op}, extra...)}
	}
	step := func(name string, ixs ...core.Instruction) realelf.Step {
		return realelf.Step{Name: name, Tx: b.tx(ixs, payer)}
	}
	heapFrame := func(n uint32) core.Instruction {
		return core.Instruction{ProgramID: core.ComputeBudgetProgramID, Data: []byte{1, byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)}}
	}
	le64 := func(v uint64) []byte {
		return []byte{byte(v), byte(v >> 8), byte(v >> 16), byte(v >> 24), byte(v >> 32), byte(v >> 40), byte(v >> 48), byte(v >> 56)}
	}
	steps := []realelf.Step{
		step("out-of-bounds read", ix(0, own, true)),
		step("endless loop", ix(1, own, true)),
		step("recursion", ix(2, own, true)),
		step("abort", ix(3, own, true)),
		step("panic", ix(4, own, true)),
		step("unresolved syscall", ix(5, own, true)),
		step("grow past the limit", ix(6, own, true)),
		step("grow to the limit", ix(7, own, true)),
		step("write a read-only account", ix(8, ownRO, false)),
		step("write a foreign account", ix(8, foreign, true)),
		step("write an own account", ix(8, own, true)),
		step("change the owner of an account with data", ix(9, own, true)),
		step("change the owner of a foreign account", ix(22, foreign, true)),
		step("custom error", ix(10, own, true)),
		step("builtin error", ix(11, own, true)),
		step("spend a foreign account", ix(12, foreign, true)),
		step("spend an own account, unbalanced", ix(12, own, true)),
		step("return data and logs", ix(13, own, true)),
		step("heap end, default heap", ix(14, own, true, le64(32*1024-1)...)),
		step("heap past the end", ix(14, own, true, le64(32*1024)...)),
		step("heap end, 64 KiB frame", heapFrame(64*1024), ix(14, own, true, le64(64*1024-1)...)),
		step("shrink", ix(15, own, true)),
		step("custom zero", ix(16, own, true)),
		step("invalid error", ix(17, own, true)),
		step("divide by zero", ix(18, own, true)),
		step("log", ix(19, own, true)),
		step("return data too large", ix(20, own, true)),
		step("log beyond the meter", ix(21, own, true)),
		step("give an empty own account away", ix(22, own, true)),
		step("stack height", ix(23, own, true)),
		step("processed sibling", ix(19, foreign, false), ix(24, own, true)),
		step("no sibling", ix(24, own, true)),
		step("256 instruction accounts", func() core.Instruction {
			i := ix(19, own, true)
			for len(i.Accounts) < 256 {
				i.Accounts = append(i.Accounts, core.Readonly(ownRO))
			}
			return i
		}()),
		step("255 instruction accounts", func() core.Instruction {
			i := ix(19, own, true)
			for len(i.Accounts) < 255 {
				i.Accounts = append(i.Accounts, core.Readonly(ownRO))
			}
			return i
		}()),
		step("still serving", ix(19, own, true)),
	}
	compareWithOracle(t, realelf.Scenario{Name: "probe", Programs: []realelf.Program{prog}, Accounts: accounts, Steps: steps})
}
