package loader

import (
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/core"
	"ledgerd/impl/sbpf/sbpftest"
)

// syscallCostPrelude leaves zero bytes at r6 (read-only), three slice descriptors at r7 (100,
// 32 and 32 of those bytes), and writable room at r8.
const syscallCostPrelude = `
entrypoint:
	lddw r6, zeros
	mov64 r7, r10
	sub64 r7, 1024
	mov64 r8, r10
	sub64 r8, 512
	stxdw [r7+0], r6
	stdw [r7+8], 100
	stxdw [r7+16], r6
	stdw [r7+24], 32
	stxdw [r7+32], r6
	stdw [r7+40], 32
`

// syscallCostEpilogue logs r0 (the syscall's result) and succeeds.
const syscallCostEpilogue = `
	mov64 r1, r0
	mov64 r2, 0
	mov64 r3, 0
	mov64 r4, 0
	mov64 r5, 0
	call sol_log_64_
	mov64 r0, 0
	exit
.rodata
zeros: .zero 512
`

// TestSyscallCostsEqualLiteSVM calls the syscalls whose compute costs few real builds in the parity
// corpus exercise (hashes, curve25519, poseidon, secp256k1_recover, program addresses, the memory
// operations, log_data, epoch stake), each from a program of its own, and holds the units, results
// and logs to LiteSVM's. sol_blake3, sol_big_mod_exp and sol_remaining_compute_units are left
// out: LiteSVM 1.5.0 does not register them (a call is "unsupported BPF instruction") while
// ledgerd's default features do.
func TestSyscallCostsEqualLiteSVM(t *testing.T) {
	hash := func(name string) string {
		return "mov64 r1, r7\nmov64 r2, 3\nmov64 r3, r8\ncall " + name
	}
	curveOp := func(curve, op string) string {
		return "mov64 r1, " + curve + "\nmov64 r2, " + op + "\nmov64 r3, r6\nmov64 r4, r6\nmov64 r5, r8\ncall sol_curve_group_op"
	}
	cases := []struct{ name, body string }{
		{"sha256", hash("sol_sha256")},
		{"keccak256", hash("sol_keccak256")},
		{"poseidon of two", "mov64 r1, 0\nmov64 r2, 0\nmov64 r3, r7\nadd64 r3, 16\nmov64 r4, 2\nmov64 r5, r8\ncall sol_poseidon"},
		{"secp256k1_recover", "mov64 r1, r6\nmov64 r2, 0\nmov64 r3, r6\nmov64 r4, r8\ncall sol_secp256k1_recover"},
		{"edwards validate", "mov64 r1, 0\nmov64 r2, r6\ncall sol_curve_validate_point"},
		{"ristretto validate", "mov64 r1, 1\nmov64 r2, r6\ncall sol_curve_validate_point"},
		{"edwards add", curveOp("0", "0")},
		{"edwards sub", curveOp("0", "1")},
		{"edwards mul", curveOp("0", "2")},
		{"ristretto add", curveOp("1", "0")},
		{"ristretto sub", curveOp("1", "1")},
		{"ristretto mul", curveOp("1", "2")},
		{"edwards multiscalar of two", "mov64 r1, 0\nmov64 r2, r6\nmov64 r3, r6\nmov64 r4, 2\nmov64 r5, r8\ncall sol_curve_multiscalar_mul"},
		{"ristretto multiscalar of two", "mov64 r1, 1\nmov64 r2, r6\nmov64 r3, r6\nmov64 r4, 2\nmov64 r5, r8\ncall sol_curve_multiscalar_mul"},
		{"create_program_address", "mov64 r1, r7\nadd64 r1, 16\nmov64 r2, 1\nmov64 r3, r6\nmov64 r4, r8\ncall sol_create_program_address"},
		{"try_find_program_address", "mov64 r1, r7\nadd64 r1, 16\nmov64 r2, 1\nmov64 r3, r6\nmov64 r4, r8\nmov64 r5, r8\nadd64 r5, 32\ncall sol_try_find_program_address"},
		{"memcpy 100", "mov64 r1, r8\nmov64 r2, r6\nmov64 r3, 100\ncall sol_memcpy_"},
		{"memmove 300 overlapping", "mov64 r1, r8\nmov64 r2, r8\nadd64 r2, 10\nmov64 r3, 300\ncall sol_memmove_"},
		{"memset 400", "mov64 r1, r8\nmov64 r2, 1\nmov64 r3, 400\ncall sol_memset_"},
		{"memcmp 250", "mov64 r1, r6\nmov64 r2, r6\nmov64 r3, 250\nmov64 r4, r8\ncall sol_memcmp_"},
		{"log_data of three", "mov64 r1, r7\nmov64 r2, 3\ncall sol_log_data"},
		{"epoch stake, total", "mov64 r1, 0\ncall sol_get_epoch_stake"},
		{"epoch stake of an address", "mov64 r1, r6\ncall sol_get_epoch_stake"},
	}
	payer := testKey(60)
	b := newVMBank(t)
	sc := realelf.Scenario{Name: "syscall costs", Accounts: []realelf.Account{fundedAccount(payer.PublicKey())}}
	for i, c := range cases {
		elf, err := sbpftest.ELF(syscallCostPrelude+c.body+syscallCostEpilogue, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		id := testKey(byte(61 + i)).PublicKey()
		sc.Programs = append(sc.Programs, realelf.Program{ID: id, Loader: core.BPFLoaderProgramID, ELF: elf})
		sc.Steps = append(sc.Steps, realelf.Step{Name: c.name, Tx: b.tx([]core.Instruction{{ProgramID: id}}, payer)})
	}
	compareWithOracle(t, sc)
}
