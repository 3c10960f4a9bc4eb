package sbpf_test

import (
	"testing"

	"ledgerd/conformance/realelf"
	"ledgerd/impl/sbpf"
)

// referenceSyscalls are the names the reference registers for programs (every feature of mainnet on); the
// deployment environment drops sol_alloc_free_.
var referenceSyscalls = []string{
	"abort", "sol_panic_", "sol_log_", "sol_log_64_", "sol_log_pubkey", "sol_log_compute_units_",
	"sol_create_program_address", "sol_try_find_program_address", "sol_sha256", "sol_keccak256",
	"sol_secp256k1_recover", "sol_blake3", "sol_curve_validate_point", "sol_curve_group_op",
	"sol_curve_multiscalar_mul", "sol_get_clock_sysvar", "sol_get_epoch_schedule_sysvar", "sol_get_fees_sysvar",
	"sol_get_rent_sysvar", "sol_get_last_restart_slot", "sol_get_epoch_rewards_sysvar", "sol_memcpy_",
	"sol_memmove_", "sol_memset_", "sol_memcmp_", "sol_get_processed_sibling_instruction", "sol_get_stack_height",
	"sol_set_return_data", "sol_get_return_data", "sol_invoke_signed_c", "sol_invoke_signed_rust",
	"sol_alloc_free_", "sol_alt_bn128_group_op", "sol_big_mod_exp", "sol_poseidon", "sol_remaining_compute_units",
	"sol_alt_bn128_compression", "sol_get_sysvar", "sol_get_epoch_stake", "sol_log_data",
}

func referenceLoader(t testing.TB, deploy bool) *sbpf.Loader {
	cfg := sbpf.DefaultConfig()
	cfg.RejectBrokenELFs = deploy
	l := sbpf.NewLoader(cfg)
	for _, n := range referenceSyscalls {
		if deploy && n == "sol_alloc_free_" {
			continue
		}
		if err := l.Register(n, func(*sbpf.VM, uint64, uint64, uint64, uint64, uint64) (uint64, error) { return 0, nil }); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// TestLoadRealPrograms loads and verifies every program build LiteSVM bundles, as a deployment and as an
// execution would.
func TestLoadRealPrograms(t *testing.T) {
	progs := realelf.Programs(t)
	for _, name := range realelf.Names() {
		p := progs[name]
		for _, deploy := range []bool{true, false} {
			loader := referenceLoader(t, deploy)
			exe, err := sbpf.LoadELF(p.ELF, loader)
			if deploy && name == realelf.Memo1 {
				// Built before the allocator syscall was retired: it still runs, but a deployment refuses it.
				want := "Unresolved symbol (sol_alloc_free_) at instruction #759 (ELF file offset 0x17b8)"
				if err == nil || err.Error() != want {
					t.Errorf("%s (deploy): got %v, want %s", name, err, want)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s (deploy %v): %v", name, deploy, err)
				continue
			}
			if err := sbpf.Verify(exe, loader); err != nil {
				t.Errorf("%s (deploy %v): verify: %v", name, deploy, err)
			}
			if exe.Version != sbpf.V0 || exe.EntryPC*8 >= uint64(len(exe.Text)) || len(exe.RO) > len(p.ELF) {
				t.Errorf("%s: version %v, entry %d of %d instructions, RO %d bytes of a %d-byte file", name,
					exe.Version, exe.EntryPC, len(exe.Text)/8, len(exe.RO), len(p.ELF))
			}
			for _, k := range exe.SyscallKeys {
				if _, ok := loader.Lookup(k); !ok {
					t.Errorf("%s: syscall %#x is not one the reference registers", name, k)
				}
			}
			if deploy {
				t.Logf("%s: %d bytes, %d instructions, %d functions, %d syscalls", name, len(p.ELF), len(exe.Text)/8,
					len(exe.Functions), len(exe.SyscallKeys))
			}
		}
	}
}
