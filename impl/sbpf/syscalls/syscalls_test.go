package syscalls

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/sbpf"
)

// The hashes the reference's programs call syscalls by (murmur3 of the name).
func TestRegisterNamesAndHashes(t *testing.T) {
	t.Parallel()
	hashes := map[string]uint32{
		"abort": 0xb6fc1a11, "sol_panic_": 0x686093bb, "sol_log_": 0x207559bd, "sol_log_64_": 0x5c2a3178,
		"sol_log_compute_units_": 0x52ba5096, "sol_log_pubkey": 0x7ef088ca, "sol_log_data": 0x7317b434,
		"sol_create_program_address": 0x9377323c, "sol_try_find_program_address": 0x48504a38,
		"sol_sha256": 0x11f49d86, "sol_keccak256": 0xd7793abb, "sol_blake3": 0x174c5122,
		"sol_secp256k1_recover": 0x17e40350, "sol_curve_validate_point": 0xaa2607ca,
		"sol_curve_group_op": 0xdd1c41a6, "sol_curve_multiscalar_mul": 0x60a40880,
		"sol_get_clock_sysvar": 0xd56b5fe9, "sol_get_epoch_schedule_sysvar": 0x23a29a61,
		"sol_get_rent_sysvar": 0xbf7188f6, "sol_get_fees_sysvar": 0x3b97b73c,
		"sol_get_last_restart_slot": 0x188a0031, "sol_get_epoch_rewards_sysvar": 0xfdba2b3b,
		"sol_get_sysvar": 0x13c1b505, "sol_get_epoch_stake": 0x5be92f4a, "sol_memcpy_": 0x717cc4a3,
		"sol_memmove_": 0x434371f8, "sol_memset_": 0x3770fb22, "sol_memcmp_": 0x5fdcde31,
		"sol_get_processed_sibling_instruction": 0xadb8efc8, "sol_get_stack_height": 0x85532d94,
		"sol_set_return_data": 0xa226d3eb, "sol_get_return_data": 0x5d2245e4,
		"sol_invoke_signed_c": 0xa22b9c85, "sol_invoke_signed_rust": 0xd7449092,
		"sol_alloc_free_": 0x83f00e8f, "sol_alt_bn128_group_op": 0xae0c318b,
		"sol_alt_bn128_compression": 0x334fd5ed, "sol_big_mod_exp": 0x780e4c15,
		"sol_poseidon": 0xc4947c21, "sol_remaining_compute_units": 0xedef5aee,
	}
	all := Names(AllFeatures(), false)
	if len(all) != len(hashes)-1 { // sol_get_fees_sysvar is gone once disable_fees_sysvar is on
		t.Errorf("all features register %d syscalls, want %d: %v", len(all), len(hashes)-1, all)
	}
	l := sbpf.NewLoader(sbpf.DefaultConfig())
	if err := Register(l, AllFeatures(), false); err != nil {
		t.Fatal(err)
	}
	for _, n := range all {
		e, ok := l.Lookup(hashes[n])
		if !ok || e.Name != n {
			t.Errorf("%s is not registered under %#x", n, hashes[n])
		}
	}
	if slices.Contains(all, "sol_get_fees_sysvar") {
		t.Error("fees getter registered with disable_fees_sysvar")
	}
	if slices.Contains(Names(AllFeatures(), true), "sol_alloc_free_") {
		t.Error("sol_alloc_free_ registered for deployment")
	}
	none := Names(Features{}, true)
	for _, gated := range []string{"sol_blake3", "sol_curve_group_op", "sol_alt_bn128_group_op",
		"sol_alt_bn128_compression", "sol_big_mod_exp", "sol_poseidon", "sol_remaining_compute_units",
		"sol_get_sysvar", "sol_get_epoch_stake", "sol_get_last_restart_slot"} {
		if slices.Contains(none, gated) {
			t.Errorf("%s registered without its feature", gated)
		}
	}
	for _, always := range []string{"sol_get_fees_sysvar", "sol_alloc_free_", "sol_log_data", "abort"} {
		if !slices.Contains(none, always) {
			t.Errorf("%s missing without features", always)
		}
	}
}

func TestLogging(t *testing.T) {
	t.Parallel()
	input := make([]byte, 256)
	copy(input, "Gaggablaghblagh!")
	e := newEnv(t, input, nil, 10_000)
	e.mustCall("sol_log_", logString, 100, in, 16)
	// The cost is the length once it passes the base cost.
	e.mustCall("sol_log_ 200", logString, 200, in, 200)
	e.mustCall("sol_log_64_", log64, 100, 1, 2, 3, 0xff, 0)
	pk := core.MustParsePubkey("MoqiU1vryuCGQSxFKA1SZ316JdLEFFhoAu6cKUNk7dN")
	copy(e.input[64:], pk[:])
	e.mustCall("sol_log_pubkey", logPubkey, 100, in+64)
	remainingBefore := e.meter.Remaining
	e.mustCall("sol_log_compute_units_", logComputeUnits, 100)
	want := []string{
		"Program log: Gaggablaghblagh!",
		"Program log: Gaggablaghblagh!" + strings.Repeat("\x00", 184),
		"Program log: 0x1, 0x2, 0x3, 0xff, 0x0",
		"Program log: MoqiU1vryuCGQSxFKA1SZ316JdLEFFhoAu6cKUNk7dN",
		"Program consumption: " + strconv.FormatUint(remainingBefore-100, 10) + " units remaining",
	}
	if !slices.Equal(e.host.logs, want) {
		t.Errorf("logs %q\nwant %q", e.host.logs, want)
	}

	// Failures: out of range, invalid UTF-8, budget.
	_, err, _ := e.call(logString, in+1, 256)
	wantVMKind(t, "log past the region", err, sbpf.ErrAccessViolation)
	e.input[0] = 0xff
	_, err, _ = e.call(logString, in, 3)
	if err == nil || err.Error() != "invalid utf-8 sequence of 1 bytes from index 0: [255, 97, 103]" {
		t.Errorf("invalid UTF-8: %v", err)
	}
	e.meter.Remaining = 99
	_, err, _ = e.call(logPubkey, 100)
	wantBudget(t, "log pubkey with 99 units", err)
	if e.meter.Remaining != 0 {
		t.Errorf("a failed charge leaves %d units, want 0", e.meter.Remaining)
	}
}

func TestLogData(t *testing.T) {
	t.Parallel()
	buf := putSlices(make([]byte, 128), 0, []byte("hello"), []byte{}, []byte{1, 2, 3})
	e := newEnv(t, buf, nil, 10_000)
	// 100 base + 100 per field + the bytes.
	e.mustCall("sol_log_data", logData, 100+300+8, in, 3)
	want := "Program data: " + base64.StdEncoding.EncodeToString([]byte("hello")) + "  " + base64.StdEncoding.EncodeToString([]byte{1, 2, 3})
	if len(e.host.logs) != 1 || e.host.logs[0] != want {
		t.Errorf("log %q, want %q", e.host.logs, want)
	}
	e.mustCall("sol_log_data none", logData, 100, in, 0)
	if e.host.logs[1] != "Program data: " {
		t.Errorf("empty log data %q", e.host.logs[1])
	}
	// Descriptors must be 8-aligned (unless the deprecated loader runs the program).
	_, err, _ := e.call(logData, in+1, 1)
	wantKind(t, "unaligned descriptors", err, ErrUnalignedPointer)
	odd := newEnv(t, putSlices(make([]byte, 64), 1, []byte("hi")), nil, 1000)
	odd.host.unaligned = true
	odd.mustCall("unaligned descriptors, deprecated loader", logData, 100+100+2, in+1, 1)
	if odd.host.logs[0] != "Program data: aGk=" {
		t.Errorf("log %q", odd.host.logs)
	}
}

func slices2(buf []byte, off int, parts ...[]byte) []byte { return putSlices(buf, off, parts...) }

func TestAbortAndPanic(t *testing.T) {
	t.Parallel()
	e := newEnv(t, []byte("src/lib.rs"), nil, 100)
	_, err, _ := e.call(abort)
	if err == nil || err.Error() != "SBF program panicked" {
		t.Errorf("abort: %v", err)
	}
	_, err, used := e.call(panic_, in, 10, 42, 84)
	if err == nil || err.Error() != "SBF program Panicked in src/lib.rs at 42:84" || used != 10 {
		t.Errorf("panic: %v (%d units)", err, used)
	}
	e.meter.Remaining = 9
	_, err, _ = e.call(panic_, in, 10, 42, 84)
	wantBudget(t, "panic short of units", err)
}

func TestMemOps(t *testing.T) {
	t.Parallel()
	input := make([]byte, 1024)
	for i := range input {
		input[i] = byte(i)
	}
	e := newEnv(t, input, []byte("read-only"), 100_000)
	e.mustCall("memcpy", memcpy, 10, in+100, in, 10)
	if !bytes.Equal(e.input[100:110], input[0:10]) {
		t.Errorf("memcpy result %v", e.input[100:110])
	}
	// 1000 bytes cost 1000/250 = 4 < 10.
	e.mustCall("memcpy 1000 bytes", memcpy, 10, in, in+1000, 0)
	e.mustCall("memmove 2500", memmove, 10, in, in, 0)

	_, err, used := e.call(memcpy, in+5, in, 10)
	wantKind(t, "overlapping memcpy", err, ErrCopyOverlapping)
	if used != 10 {
		t.Errorf("overlapping memcpy charged %d, want 10 (the charge comes first)", used)
	}
	_, err, _ = e.call(memcpy, in, in+5, 10)
	wantKind(t, "overlapping memcpy backwards", err, ErrCopyOverlapping)
	e.mustCall("adjacent memcpy", memcpy, 10, in, in+10, 10)

	copy(e.input, input)
	e.mustCall("overlapping memmove", memmove, 10, in+2, in, 8)
	if !bytes.Equal(e.input[2:10], input[0:8]) {
		t.Errorf("memmove result %v", e.input[:10])
	}
	_, err, _ = e.call(memmove, roAddr, in, 4)
	wantVMKind(t, "memmove into the read-only program", err, sbpf.ErrAccessViolation)
	e.mustCall("memmove from the program", memmove, 10, in, roAddr, 4)
	if string(e.input[:4]) != "read" {
		t.Errorf("memmove from program: %q", e.input[:4])
	}

	e.mustCall("memset", memset, 10, in+200, 0x1ab, 5)
	if !bytes.Equal(e.input[200:206], []byte{0xab, 0xab, 0xab, 0xab, 0xab, byte(205)}) {
		t.Errorf("memset result %v", e.input[200:206])
	}
	e.mustCall("memset nothing at an unmapped address", memset, 10, 8, 0, 0)

	copy(e.input[300:], []byte{1, 2, 3})
	copy(e.input[310:], []byte{1, 2, 9})
	e.mustCall("memcmp", memcmp, 10, in+300, in+310, 3, in+320)
	if got := int32(binary.LittleEndian.Uint32(e.input[320:])); got != -6 {
		t.Errorf("memcmp = %d, want -6", got)
	}
	e.mustCall("memcmp swapped", memcmp, 10, in+310, in+300, 3, in+320)
	if got := int32(binary.LittleEndian.Uint32(e.input[320:])); got != 6 {
		t.Errorf("memcmp = %d, want 6", got)
	}
	e.mustCall("memcmp equal", memcmp, 10, in+300, in+310, 2, in+320)
	if got := binary.LittleEndian.Uint32(e.input[320:]); got != 0 {
		t.Errorf("memcmp = %d, want 0", got)
	}
	_, err, _ = e.call(memcmp, in+300, in+310, 2, in+322)
	wantKind(t, "memcmp result not 4-aligned", err, ErrUnalignedPointer)
	_, err, _ = e.call(memcmp, in+300, in+1020, 8, in+320)
	wantVMKind(t, "memcmp past the input", err, sbpf.ErrAccessViolation)

	big := newEnv(t, make([]byte, 10_000), nil, 1000)
	big.mustCall("memset 10000", memset, 40, in, 0, 10_000)
}

func TestHashSyscalls(t *testing.T) {
	t.Parallel()
	b1, b2 := []byte("Gaggablaghblagh!"), []byte("flurbos")
	buf := putSlices(make([]byte, 256), 0, b1, b2)
	for _, kind := range []HashKind{SHA256, Keccak256, Blake3} {
		e := newEnv(t, buf, nil, 10_000)
		fn := hashSyscall(kind)
		// 85 + max(10, 16/2) + max(10, 7/2)
		e.mustCall(kind.String(), fn, 85+10+10, in, 2, in+128)
		if want := Hashv(kind, b1, b2); !bytes.Equal(e.input[128:160], want[:]) {
			t.Errorf("%v = %x, want %x", kind, e.input[128:160], want)
		}
		e.mustCall(kind.String()+" empty", fn, 85, 0, 0, in+128)
		if want := Hashv(kind); !bytes.Equal(e.input[128:160], want[:]) {
			t.Errorf("%v() = %x", kind, e.input[128:160])
		}
		_, err, _ := e.call(fn, in, 2, roAddr)
		wantVMKind(t, "hash into read-only memory", err, sbpf.ErrAccessViolation)
		_, err, _ = e.call(fn, in, 20_001, in+128)
		wantKind(t, "20001 slices", err, ErrTooManySlices)
		if last := e.host.logs[len(e.host.logs)-1]; last != kind.String()+" Hashing 20001 sequences in one syscall is over the limit 20000" {
			t.Errorf("too many slices log %q", last)
		}
	}
	// A long slice costs half its length.
	long := putSlices(make([]byte, 1200), 0, bytes.Repeat([]byte{7}, 1000))
	e := newEnv(t, long, nil, 10_000)
	e.mustCall("sha256 of 1000 bytes", hashSyscall(SHA256), 85+500, in, 1, in+1100)
}

func TestProgramAddresses(t *testing.T) {
	t.Parallel()
	pid := core.MustParsePubkey("BPFLoaderUpgradeab1e11111111111111111111111")
	seeds := [][]byte{[]byte("seed"), {1, 2, 3}}
	addr, bump, err := core.FindProgramAddress(seeds, pid)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 512)
	putSlices(buf, 0, seeds[0], seeds[1], []byte{bump})
	copy(buf[200:], pid[:])
	e := newEnv(t, buf, nil, 1_000_000)
	if r := e.mustCall("create", createProgramAddress, 1500, in, 3, in+200, in+300); r != 0 {
		t.Fatalf("create = %d", r)
	}
	if !bytes.Equal(e.input[300:332], addr[:]) {
		t.Errorf("created %x, want %x", e.input[300:332], addr)
	}
	cost := uint64(1500 * (1 + 255 - int(bump)))
	if r := e.mustCall("try_find", tryFindProgramAddress, cost, in, 2, in+200, in+340, in+380); r != 0 {
		t.Fatalf("try_find = %d", r)
	}
	if !bytes.Equal(e.input[340:372], addr[:]) || e.input[380] != bump {
		t.Errorf("found %x bump %d, want %x bump %d", e.input[340:372], e.input[380], addr, bump)
	}
	// The bump and the address must not overlap.
	_, err, _ = e.call(tryFindProgramAddress, in, 2, in+200, in+340, in+350)
	wantKind(t, "bump inside the address", err, ErrCopyOverlapping)

	// A seed that hashes onto the curve: find one with the same derivation.
	for b := 255; b >= 0; b-- {
		seed := []byte{byte(b)}
		if _, err := core.CreateProgramAddress([][]byte{seed}, pid); err != nil {
			one := make([]byte, 512)
			putSlices(one, 0, seed)
			copy(one[200:], pid[:])
			e2 := newEnv(t, one, nil, 10_000)
			if r := e2.mustCall("create on curve", createProgramAddress, 1500, in, 1, in+200, in+300); r != 1 {
				t.Errorf("on-curve seed gave %d, want 1", r)
			}
			break
		}
	}

	// 17 seeds, a 33-byte seed: errors; 16 seeds make try_find spend all 255 tries.
	many := make([][]byte, 17)
	for i := range many {
		many[i] = []byte{byte(i)}
	}
	big := make([]byte, 1024)
	putSlices(big, 0, many...)
	copy(big[800:], pid[:])
	e3 := newEnv(t, big, nil, 1_000_000)
	_, err, _ = e3.call(createProgramAddress, in, 17, in+800, in+900)
	wantKind(t, "17 seeds", err, ErrBadSeeds)
	if err != nil && err.Error() != "Could not create program address with signer seeds: Length of the seed is too long for address generation" {
		t.Errorf("17 seeds text %q", err.Error())
	}
	if r := e3.mustCall("try_find with 16 seeds", tryFindProgramAddress, 1500*256, in, 16, in+800, in+900, in+950); r != 1 {
		t.Errorf("try_find with 16 seeds = %d, want 1", r)
	}
	long := make([]byte, 256)
	putSlices(long, 0, make([]byte, 33))
	e4 := newEnv(t, long, nil, 10_000)
	_, err, _ = e4.call(createProgramAddress, in, 1, in+100, in+200)
	wantKind(t, "33-byte seed", err, ErrBadSeeds)
}

func putU64s(b []byte, vs ...uint64) {
	for i, v := range vs {
		binary.LittleEndian.PutUint64(b[8*i:], v)
	}
}

func TestSysvarGetters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, make([]byte, 512), nil, 100_000)
	clock := make([]byte, 40)
	putU64s(clock, 1, 2, 3, 4, 5)
	es := make([]byte, 33)
	putU64s(es, 432000, 432000)
	es[16] = 1
	putU64s(es[17:], 14, 524256)
	rent := make([]byte, 17)
	putU64s(rent, 3480, 0x4000000000000000)
	rent[16] = 50
	rewards := make([]byte, 81)
	putU64s(rewards, 42, 2)
	copy(rewards[16:48], bytes.Repeat([]byte{3}, 32))
	putU64s(rewards[48:], 4, 0, 100, 10)
	rewards[80] = 1
	e.host.sysvars[core.SysvarClockID] = clock
	e.host.sysvars[core.SysvarEpochScheduleID] = es
	e.host.sysvars[core.SysvarRentID] = rent
	e.host.sysvars[core.SysvarEpochRewardsID] = rewards
	e.host.sysvars[core.SysvarLastRestartSlotID] = []byte{9, 0, 0, 0, 0, 0, 0, 0}
	f := AllFeatures()
	get := func(id core.Pubkey, size, align uint64, dec sysvarStruct) sbpf.Syscall {
		return sysvarGetter(id, size, align, dec, f)
	}
	for i := range e.input {
		e.input[i] = 0xee // padding must come out zeroed
	}
	e.mustCall("clock", get(core.SysvarClockID, 40, 8, prefixStruct(40)), 140, in)
	if !bytes.Equal(e.input[:40], clock) {
		t.Errorf("clock %v", e.input[:40])
	}
	e.mustCall("epoch schedule", get(core.SysvarEpochScheduleID, 40, 8, epochScheduleStruct), 140, in+64)
	wantES := make([]byte, 40)
	putU64s(wantES, 432000, 432000, 1, 14, 524256)
	if !bytes.Equal(e.input[64:104], wantES) {
		t.Errorf("epoch schedule %v, want %v", e.input[64:104], wantES)
	}
	e.mustCall("rent", get(core.SysvarRentID, 24, 8, prefixStruct(17)), 124, in+104)
	if !bytes.Equal(e.input[104:128], append(append([]byte{}, rent...), 0, 0, 0, 0, 0, 0, 0)) {
		t.Errorf("rent %v", e.input[104:128])
	}
	e.mustCall("epoch rewards", get(core.SysvarEpochRewardsID, 96, 16, epochRewardsStruct), 196, in+128)
	if !bytes.Equal(e.input[128:128+81], rewards) || !allZero(e.input[128+81:224]) {
		t.Errorf("epoch rewards %v", e.input[128:224])
	}
	_, err, _ := e.call(get(core.SysvarEpochRewardsID, 96, 16, epochRewardsStruct), in+232)
	wantKind(t, "epoch rewards at an 8-aligned address", err, ErrUnalignedPointer)
	e.mustCall("last restart slot", get(core.SysvarLastRestartSlotID, 8, 8, prefixStruct(8)), 108, in+224)
	if e.input[224] != 9 {
		t.Errorf("last restart slot %v", e.input[224:232])
	}
	_, err, _ = e.call(get(core.SysvarFeesID, 8, 8, prefixStruct(8)), in+232)
	if !errors.Is(err, ErrUnsupportedSysvar) {
		t.Errorf("missing fees sysvar: %v", err)
	}
	_, err, _ = e.call(get(core.SysvarClockID, 40, 8, prefixStruct(40)), in+4)
	wantKind(t, "clock unaligned", err, ErrUnalignedPointer)
	_, err, _ = e.call(get(core.SysvarClockID, 40, 8, prefixStruct(40)), roAddr)
	wantVMKind(t, "clock into read-only memory", err, sbpf.ErrAccessViolation)
	strict := f
	strict.StricterABIAndRuntimeConstraints = true
	_, err, _ = e.call(sysvarGetter(core.SysvarClockID, 40, 8, prefixStruct(40), strict), in)
	wantKind(t, "clock into the input region under SIMD-0219", err, ErrInvalidPointer)
}

func TestGetSysvar(t *testing.T) {
	t.Parallel()
	e := newEnv(t, make([]byte, 512), nil, 100_000)
	clock := make([]byte, 40)
	putU64s(clock, 1, 2, 3, 4, 5)
	e.host.sysvars[core.SysvarClockID] = clock
	e.host.sysvars[core.SysvarFeesID] = make([]byte, 8)
	copy(e.input[400:], core.SysvarClockID[:])
	copy(e.input[440:], core.SysvarFeesID[:])
	copy(e.input[472:], core.SysvarRentID[:])
	fn := getSysvar(AllFeatures())
	if r := e.mustCall("clock bytes 8..24", fn, 110, in+400, in, 8, 16); r != 0 {
		t.Fatalf("get_sysvar = %d", r)
	}
	if !bytes.Equal(e.input[:16], clock[8:24]) {
		t.Errorf("got %v", e.input[:16])
	}
	if r := e.mustCall("past the end", fn, 110, in+400, in, 30, 11); r != GetSysvarOffsetLengthExceeds {
		t.Errorf("past the end = %d, want 1", r)
	}
	if r := e.mustCall("fees (not in the cache)", fn, 110, in+440, in, 0, 8); r != GetSysvarNotFound {
		t.Errorf("fees = %d, want 2", r)
	}
	if r := e.mustCall("rent (absent)", fn, 110, in+472, in, 0, 8); r != GetSysvarNotFound {
		t.Errorf("rent = %d, want 2", r)
	}
	_, err, _ := e.call(fn, in+400, in, ^uint64(0)-3, 8)
	if !errors.Is(err, ErrArithmeticOverflow) {
		t.Errorf("offset overflow: %v", err)
	}
	// 100 + max(2500/250, 10) = 110; 5000 bytes: 100 + 20.
	_, err, used := e.call(fn, in+400, in, 0, 5000)
	wantVMKind(t, "5000 bytes into 512", err, sbpf.ErrAccessViolation)
	if used != 120 {
		t.Errorf("5000-byte get_sysvar charged %d, want 120", used)
	}
}

func TestReturnData(t *testing.T) {
	t.Parallel()
	e := newEnv(t, make([]byte, 2048), nil, 100_000)
	e.host.programID = core.MustParsePubkey("MoqiU1vryuCGQSxFKA1SZ316JdLEFFhoAu6cKUNk7dN")
	copy(e.input, "hello return")
	e.mustCall("set", setReturnData, 100, in, 12)
	if string(e.host.retData) != "hello return" || e.host.retProgram != e.host.programID {
		t.Errorf("return data %q from %v", e.host.retData, e.host.retProgram)
	}
	e.mustCall("set 1000", setReturnData, 104, in, 1000)
	e.mustCall("set empty", setReturnData, 100, 0, 0)
	if e.host.retData != nil {
		t.Errorf("empty set left %q", e.host.retData)
	}
	_, err, _ := e.call(setReturnData, in, 1025)
	if err == nil || err.Error() != "Return data too large (1025 > 1024)" {
		t.Errorf("1025 bytes: %v", err)
	}

	e.host.retData = []byte("0123456789")
	n := e.mustCall("get 4", getReturnData, 100, in+100, 4, in+200)
	if n != 10 || string(e.input[100:104]) != "0123" || e.input[104] != 0 || core.Pubkey(e.input[200:232]) != e.host.retProgram {
		t.Errorf("get returned %d, %q, %x", n, e.input[100:105], e.input[200:232])
	}
	if n := e.mustCall("get 0", getReturnData, 100, 0, 0, 0); n != 10 {
		t.Errorf("get 0 = %d", n)
	}
	_, err, _ = e.call(getReturnData, in+100, 10, in+105)
	wantKind(t, "program id inside the data", err, ErrCopyOverlapping)
	e.host.retData = bytes.Repeat([]byte{1}, 1000)
	e.mustCall("get 1000", getReturnData, 100+(1000+32)/250, in+1000, 1000, in+200)
}

func TestSiblingInstructionAndStack(t *testing.T) {
	t.Parallel()
	a, b := core.MustParsePubkey("MoqiU1vryuCGQSxFKA1SZ316JdLEFFhoAu6cKUNk7dN"), core.SystemProgramID
	e := newEnv(t, make([]byte, 512), nil, 100_000)
	e.host.height = 2
	e.host.trace = []TracedInstruction{
		{StackHeight: 1, ProgramID: b},
		{StackHeight: 2, ProgramID: a, Data: []byte{1, 2}, Accounts: []AccountMeta{{Pubkey: b, IsSigner: true}}},
		{StackHeight: 3, ProgramID: b},
		{StackHeight: 2, ProgramID: b, Data: []byte{9}},
		{StackHeight: 2, ProgramID: a}, // the running instruction
	}
	if h := e.mustCall("stack height", stackHeight, 100); h != 2 {
		t.Errorf("stack height %d", h)
	}
	// Index 0 is the latest sibling; wrong lengths come back filled in.
	if r := e.mustCall("sibling 0 sizes", processedSiblingInstruction, 100, 0, in, in+16, in+48, in+64); r != 1 {
		t.Fatalf("sibling 0 = %d", r)
	}
	if binary.LittleEndian.Uint64(e.input) != 1 || binary.LittleEndian.Uint64(e.input[8:]) != 0 {
		t.Errorf("sibling 0 meta %v", e.input[:16])
	}
	putU64s(e.input, 2, 1)
	if r := e.mustCall("sibling 1", processedSiblingInstruction, 100, 1, in, in+16, in+48, in+64); r != 1 {
		t.Fatalf("sibling 1 = %d", r)
	}
	if core.Pubkey(e.input[16:48]) != a || !bytes.Equal(e.input[48:50], []byte{1, 2}) ||
		core.Pubkey(e.input[64:96]) != b || e.input[96] != 1 || e.input[97] != 0 {
		t.Errorf("sibling 1: %x", e.input[:100])
	}
	if r := e.mustCall("sibling 2 (stops at height 1)", processedSiblingInstruction, 100, 2, in, in+16, in+48, in+64); r != 0 {
		t.Errorf("sibling 2 = %d, want 0", r)
	}
	putU64s(e.input, 2, 1)
	_, err, _ := e.call(processedSiblingInstruction, 1, in, in+16, in+8, in+64)
	wantKind(t, "data over the meta", err, ErrCopyOverlapping)

	if r := e.mustCall("remaining", remainingComputeUnits, 100); r != e.meter.Remaining {
		t.Errorf("remaining %d, meter %d", r, e.meter.Remaining)
	}
	e.host.total = 1000
	e.host.stakes[a] = 7
	copy(e.input[200:], a[:])
	if r := e.mustCall("total stake", getEpochStake, 100, 0); r != 1000 {
		t.Errorf("total stake %d", r)
	}
	if r := e.mustCall("vote stake", getEpochStake, 110, in+200); r != 7 {
		t.Errorf("vote stake %d", r)
	}
	_, err, _ = e.call(getEpochStake, 8)
	wantVMKind(t, "vote address unmapped", err, sbpf.ErrAccessViolation)
}

func TestCryptoSyscalls(t *testing.T) {
	t.Parallel()
	f := AllFeatures()
	buf := make([]byte, 1024)
	copy(buf[0:], edLeft[:])
	copy(buf[32:], edRight[:])
	copy(buf[64:], edScalar[:])
	copy(buf[96:], badPoint[:])
	e := newEnv(t, buf, nil, 1_000_000)
	if r := e.mustCall("edwards validate", curveValidate(f), 159, CurveEdwards25519, in); r != 0 {
		t.Errorf("validate = %d", r)
	}
	if r := e.mustCall("ristretto validate bad", curveValidate(f), 169, CurveRistretto255, in+96); r != 1 {
		t.Errorf("validate bad = %d", r)
	}
	e.mustCall("edwards add", curveGroupOp(f), 473, CurveEdwards25519, CurveOpAdd, in, in+32, in+200)
	if [32]byte(e.input[200:232]) != edSum {
		t.Errorf("add = %v", e.input[200:232])
	}
	e.mustCall("edwards mul", curveGroupOp(f), 2177, CurveEdwards25519, CurveOpMul, in+64, in+32, in+200)
	if [32]byte(e.input[200:232]) != edProduct {
		t.Errorf("mul = %v", e.input[200:232])
	}
	if r := e.mustCall("edwards sub bad", curveGroupOp(f), 475, CurveEdwards25519, CurveOpSub, in+96, in+32, roAddr); r != 1 {
		t.Errorf("sub bad = %d (and no write into read-only memory)", r)
	}
	_, err, _ := e.call(curveGroupOp(f), 2, CurveOpAdd, in, in+32, in+200)
	wantKind(t, "unknown curve", err, ErrInvalidAttribute)
	old := f
	old.AbortOnInvalidCurve = false
	if r, err, used := e.call(curveGroupOp(old), 0, 3, in, in+32, in+200); r != 1 || err != nil || used != 0 {
		t.Errorf("unknown op without abort_on_invalid_curve = %d, %v, %d units", r, err, used)
	}
	_, err, _ = e.call(curveValidate(old), curveBLS12381G1LE, in)
	wantKind(t, "BLS12-381 id", err, ErrInvalidAttribute)
	// Multiscalar: the cost grows per point, 513 points are refused before anything else.
	copy(e.input[300:], edScalar[:])
	copy(e.input[332:], edScalar[:])
	copy(e.input[364:], edMsmX[:])
	copy(e.input[396:], edMsmY[:])
	e.mustCall("edwards msm", curveMultiscalarMul(f), 2273+758, CurveEdwards25519, in+300, in+364, 2, in+200)
	if [32]byte(e.input[200:232]) != edMsm {
		t.Errorf("msm = %v", e.input[200:232])
	}
	_, err, used := e.call(curveMultiscalarMul(f), CurveEdwards25519, in, in, 513, in+200)
	wantKind(t, "513 points", err, ErrInvalidLength)
	if used != 0 {
		t.Errorf("513 points charged %d", used)
	}

	// secp256k1 through the syscall.
	hash := unhex(t, "dea566b6943be0e96253c2215b1bac69e7a81edb41c5028b4f5c45c53b4954d0")
	sig := unhex(t, "97a4ee31fe8265729f4aa67d24d4a727f8c315a4c8f980eb4c4d4afa6ec942415d10d9c28a90e9929c524b2cfb65dfbcf68cfd68db17f95d235f96d8f072012d")
	copy(e.input[500:], hash)
	copy(e.input[532:], sig)
	if r := e.mustCall("secp256k1", secp256k1Recover, 25000, in+500, 1, in+532, in+600); r != 0 {
		t.Fatalf("secp256k1 = %d", r)
	}
	if !bytes.Equal(e.input[600:664], unhex(t, "42cd27e40fdf7c970aa2ca0b885b960f8b628a41a181e7e68e03ea0b8420589b3206bd662f7565d69dbd1d34296ad93538ed869e992043c3ebad6550a0116e5d")) {
		t.Errorf("recovered %x", e.input[600:664])
	}
	if r := e.mustCall("secp256k1 id 5", secp256k1Recover, 25000, in+500, 5, in+532, in+600); r != Secp256k1InvalidRecoveryID {
		t.Errorf("id 5 = %d", r)
	}
}

func TestAltBn128Syscalls(t *testing.T) {
	t.Parallel()
	f := AllFeatures()
	gen := make([]byte, 64)
	gen[31], gen[63] = 1, 2
	buf := make([]byte, 2048)
	copy(buf, gen)
	copy(buf[64:], gen)
	e := newEnv(t, buf, nil, 1_000_000)
	e.mustCall("G + G", altBn128GroupOp(f), 334, AltBn128G1Add, in, 128, in+1000)
	want, _ := AltBn128G1Addition(buf[:128], false)
	if !bytes.Equal(e.input[1000:1064], want) {
		t.Errorf("G + G = %x", e.input[1000:1064])
	}
	e.mustCall("2 * G", altBn128GroupOp(f), 3840, AltBn128G1Mul, in, 96, in+1100)
	// 36364 + 85 + 0 + 32 for no pairs; one pair: + 192 bytes.
	if r := e.mustCall("empty pairing", altBn128GroupOp(f), 36364+85+32, AltBn128Pairing, in, 0, in+1200); r != 0 || e.input[1231] != 1 {
		t.Errorf("empty pairing = %d, %v", r, e.input[1200:1232])
	}
	if r := e.mustCall("bad length pairing", altBn128GroupOp(f), 36364+85+100+32, AltBn128Pairing, in, 100, in+1200); r != 1 {
		t.Errorf("100-byte pairing = %d, want 1", r)
	}
	for _, op := range []uint64{AltBn128G1Sub, AltBn128G2Sub, 7, AltBn128G1Add | 0x100} {
		_, err, _ := e.call(altBn128GroupOp(f), op, in, 128, in+1000)
		wantKind(t, "group op "+strconv.FormatUint(op, 10), err, ErrInvalidAttribute)
	}
	noG2 := f
	noG2.AltBn128G2Syscalls = false
	for _, op := range []uint64{AltBn128G2Add, AltBn128G2Mul, AltBn128G2Add | AltBn128LittleEnd} {
		_, err, _ := e.call(altBn128GroupOp(noG2), op, in, 256, in+1000)
		wantKind(t, "G2 op before its feature "+strconv.FormatUint(op, 10), err, ErrInvalidAttribute)
	}
	// G2 operations cost their own units and take exact lengths.
	if r := e.mustCall("G2 add of zeros", altBn128GroupOp(f), 535, AltBn128G2Add, in+1600, 256, in+1000); r != 0 || !allZero(e.input[1000:1128]) {
		t.Errorf("O + O = %d, %x", r, e.input[1000:1128])
	}
	if r := e.mustCall("G2 mul short", altBn128GroupOp(f), 15670, AltBn128G2Mul, in+1600, 159, in+1000); r != 1 {
		t.Errorf("159-byte G2 mul = %d", r)
	}
	noLE := f
	noLE.AltBn128LittleEndian = false
	_, err, _ := e.call(altBn128GroupOp(noLE), AltBn128G1Add|AltBn128LittleEnd, in, 128, in+1000)
	wantKind(t, "little-endian add before its feature", err, ErrInvalidAttribute)
	if r := e.mustCall("G + off-curve", altBn128GroupOp(f), 334, AltBn128G1Add, in+1, 128, in+1000); r != 1 {
		t.Errorf("off-curve add = %d", r)
	}

	e.mustCall("compress G", altBn128Compression(f), 100+30, AltBn128OpG1Compress, in, 64, in+1300)
	e.mustCall("decompress G", altBn128Compression(f), 100+398, AltBn128OpG1Decompress, in+1300, 32, in+1400)
	if !bytes.Equal(e.input[1400:1464], gen) {
		t.Errorf("decompress(compress(G)) = %x", e.input[1400:1464])
	}
	if r := e.mustCall("compress 63 bytes", altBn128Compression(f), 130, AltBn128OpG1Compress, in, 63, in+1300); r != 1 {
		t.Errorf("63-byte compress = %d", r)
	}
	_, err, _ = e.call(altBn128Compression(f), 4, in, 64, in+1300)
	wantKind(t, "compression op 4", err, ErrInvalidAttribute)
}

func TestBigModExpAndPoseidonSyscalls(t *testing.T) {
	t.Parallel()
	buf := make([]byte, 1024)
	// 3^5 mod 7 = 5, modulus written as two bytes.
	buf[100], buf[110], buf[120], buf[121] = 3, 5, 0, 7
	putU64s(buf, in+100, 1, in+110, 1, in+120, 2)
	e := newEnv(t, buf, nil, 1_000_000)
	e.mustCall("big_mod_exp", bigModExp, 100+2*2/2+190, in, in+200)
	if !bytes.Equal(e.input[200:202], []byte{0, 5}) {
		t.Errorf("3^5 mod 7 = %v", e.input[200:202])
	}
	putU64s(e.input, in+100, 513)
	_, err, _ := e.call(bigModExp, in, in+200)
	wantKind(t, "513-byte base", err, ErrInvalidLength)
	_, err, _ = e.call(bigModExp, in+4, in+200)
	wantKind(t, "unaligned params", err, ErrUnalignedPointer)

	p := make([]byte, 512)
	putSlices(p, 0, bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32))
	e2 := newEnv(t, p, nil, 100_000)
	fn := poseidonSyscall(AllFeatures())
	if r := e2.mustCall("poseidon", fn, 61*4+542, PoseidonBn254X5, PoseidonBigEndian, in, 2, in+300); r != 0 {
		t.Fatalf("poseidon = %d", r)
	}
	if hexs := e2.input[300:332]; !bytes.Equal(hexs, unhex(t, "0d54e1938f8a8c1c7deb5e0355f26319207b84fe9ca2ce1b26e735c829821990")) {
		t.Errorf("poseidon = %x", hexs)
	}
	if r := e2.mustCall("poseidon of nothing", fn, 542, PoseidonBn254X5, PoseidonBigEndian, in, 0, in+300); r != 1 {
		t.Errorf("poseidon of nothing = %d", r)
	}
	_, err, _ = e2.call(fn, PoseidonBn254X5, PoseidonBigEndian, in, 13, in+300)
	wantKind(t, "13 inputs", err, ErrInvalidLength)
	_, err, _ = e2.call(fn, 1, PoseidonBigEndian, in, 1, in+300)
	if err == nil || err.Error() != "Invalid parameters." {
		t.Errorf("parameters 1: %v", err)
	}
	_, err, _ = e2.call(fn, 0, 2, in, 1, in+300)
	if err == nil || err.Error() != "Invalid endianness." {
		t.Errorf("endianness 2: %v", err)
	}
}

func TestAllocFreeAndInvoke(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil, nil, 1000)
	a1 := e.mustCall("alloc 1", allocFree, 0, 1, 0)
	a2 := e.mustCall("alloc 8", allocFree, 0, 8, 0)
	if a1 != heap || a2 != heap+8 {
		t.Errorf("allocations at %#x, %#x", a1, a2)
	}
	if r := e.mustCall("alloc the whole heap", allocFree, 0, sbpf.DefaultHeapSize, 0); r != 0 {
		t.Errorf("over-allocation = %#x, want 0", r)
	}
	if r := e.mustCall("free", allocFree, 0, 8, a2); r != 0 {
		t.Errorf("free = %d", r)
	}
	if r := e.mustCall("huge", allocFree, 0, ^uint64(0), 0); r != 0 {
		t.Errorf("huge = %d", r)
	}
	e.host.unaligned = true
	e.host.alloc = NewAllocator(100)
	e.mustCall("byte", allocFree, 0, 1, 0)
	if r := e.mustCall("unaligned", allocFree, 0, 1, 0); r != heap+1 {
		t.Errorf("deprecated-loader allocation at %#x, want heap+1", r)
	}

	if r := e.mustCall("invoke rust", invoke(CPIRust), 0, 1, 2, 3, 4, 5); r != 42 {
		t.Errorf("invoke = %d", r)
	}
	e.mustCall("invoke c", invoke(CPIC), 0, 6, 7, 8, 9, 10)
	if !slices.Equal(e.host.invoked, []uint64{0, 1, 2, 3, 4, 5, 1, 6, 7, 8, 9, 10}) {
		t.Errorf("invocations %v", e.host.invoked)
	}
}

func TestNoHost(t *testing.T) {
	t.Parallel()
	exe := sbpf.NewExecutableFromText(make([]byte, 8), sbpf.V0, nil)
	vm, err := sbpf.NewVM(exe, sbpf.NewLoader(sbpf.DefaultConfig()), sbpf.Params{Meter: &sbpf.Meter{Remaining: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := logString(vm, in, 0, 0, 0, 0); !errors.Is(err, ErrNoHost) {
		t.Errorf("no host: %v", err)
	}
}

// The getters read the account data the runtime keeps (impl/core/sysvar's encodings) and lay it
// out as the programs' repr(C) structs.
func TestSysvarGettersOnCoreEncodings(t *testing.T) {
	t.Parallel()
	es := sysvar.EpochSchedule{SlotsPerEpoch: 8192, LeaderScheduleSlotOffset: 8192, Warmup: true, FirstNormalEpoch: 8, FirstNormalSlot: 8160}
	rent := sysvar.DefaultRent()
	rewards := sysvar.EpochRewards{DistributionStartingBlockHeight: 7, NumPartitions: 3, TotalPoints: sysvar.Uint128{Lo: 5, Hi: 6}, TotalRewards: 9, DistributedRewards: 1, Active: true}
	e := newEnv(t, make([]byte, 256), nil, 10_000)
	e.host.sysvars[core.SysvarEpochScheduleID] = es.Marshal()
	e.host.sysvars[core.SysvarRentID] = rent.Marshal()
	e.host.sysvars[core.SysvarEpochRewardsID] = rewards.Marshal()
	f := AllFeatures()
	e.mustCall("epoch schedule", sysvarGetter(core.SysvarEpochScheduleID, 40, 8, epochScheduleStruct, f), 140, in)
	e.mustCall("rent", sysvarGetter(core.SysvarRentID, 24, 8, prefixStruct(17), f), 124, in+40)
	e.mustCall("rewards", sysvarGetter(core.SysvarEpochRewardsID, 96, 16, epochRewardsStruct, f), 196, in+64)
	u := func(off int) uint64 { return binary.LittleEndian.Uint64(e.input[off:]) }
	if u(0) != 8192 || u(8) != 8192 || e.input[16] != 1 || u(24) != 8 || u(32) != 8160 {
		t.Errorf("epoch schedule struct %v", e.input[:40])
	}
	if u(40) != 3480 || math.Float64frombits(u(48)) != 2.0 || e.input[56] != 50 {
		t.Errorf("rent struct %v", e.input[40:64])
	}
	if u(64) != 7 || u(72) != 3 || u(64+48) != 5 || u(64+56) != 6 || u(64+64) != 9 || u(64+72) != 1 || e.input[64+80] != 1 {
		t.Errorf("epoch rewards struct %v", e.input[64:160])
	}
}

func TestMemoryTranslation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, make([]byte, 64), []byte("ro"), 100)
	m := NewMemory(e.vm, true)
	if _, err := m.LoadSlice(in, 1<<62, 16, 8); !errors.Is(err, &Error{Kind: ErrInvalidLength}) {
		t.Errorf("huge slice: %v", err)
	}
	if b, err := m.LoadSlice(0, 0, 16, 8); b != nil || err != nil {
		t.Errorf("empty slice at 0: %v, %v", b, err)
	}
	if _, err := m.Load(in+4, 8, 8); !errors.Is(err, &Error{Kind: ErrUnalignedPointer}) {
		t.Errorf("unaligned u64: %v", err)
	}
	if _, err := NewMemory(e.vm, false).Load(in+4, 8, 8); err != nil {
		t.Errorf("unaligned u64 without the check: %v", err)
	}
	if _, err := m.Store(Dest{roAddr, 1, 2, 1}); sbpf.KindOf(err) != sbpf.ErrAccessViolation {
		t.Errorf("store into the program: %v", err)
	}
	if _, err := m.Store(Dest{in, 1, 8, 8}, Dest{in + 7, 1, 1, 1}); !errors.Is(err, &Error{Kind: ErrCopyOverlapping}) {
		t.Errorf("overlapping destinations: %v", err)
	}
	r, err := m.Store(Dest{in, 1, 8, 8}, Dest{in + 8, 0, 1, 1}, Dest{in + 8, 2, 4, 4})
	if err != nil || len(r[0]) != 8 || r[1] != nil || len(r[2]) != 8 {
		t.Errorf("adjacent destinations: %v, %v", r, err)
	}
}

// Rust's Utf8Error display, which the InvalidString failure log carries.
func TestUTF8ErrorText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   []byte
		want string
	}{
		{[]byte{0xff}, "invalid utf-8 sequence of 1 bytes from index 0"},
		{[]byte("ab\xe2\x82"), "incomplete utf-8 byte sequence from index 2"},
		{[]byte("a\xe2\x28\xa1"), "invalid utf-8 sequence of 1 bytes from index 1"},
		{[]byte("\xf0\x90\x28x"), "invalid utf-8 sequence of 2 bytes from index 0"},
		{[]byte("\xed\xa0\x80"), "invalid utf-8 sequence of 1 bytes from index 0"}, // a surrogate
		{[]byte("\xc0\x80"), "invalid utf-8 sequence of 1 bytes from index 0"},     // overlong
	} {
		if got := utf8Error(c.in); got != c.want {
			t.Errorf("utf8Error(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
