package syscalls

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sat"
	"ledgerd/impl/sbpf"
)

// Compute costs of the syscalls (the reference's SVMTransactionExecutionCost defaults). CPI's
// costs belong to Host.Invoke.
const (
	CostSyscallBase            = 100
	CostLog64                  = 100
	CostLogPubkey              = 100
	CostCreateProgramAddress   = 1500
	CostSHA256Base             = 85
	CostSHA256Byte             = 1
	MaxHashSlices              = 20000
	CostMemOpBase              = 10
	CPIBytesPerUnit            = 250
	CostSysvarBase             = 100
	CostSecp256k1Recover       = 25000
	CostEdwardsValidate        = 159
	CostEdwardsAdd             = 473
	CostEdwardsSub             = 475
	CostEdwardsMul             = 2177
	CostEdwardsMSMBase         = 2273
	CostEdwardsMSMIncrement    = 758
	CostRistrettoValidate      = 169
	CostRistrettoAdd           = 521
	CostRistrettoSub           = 519
	CostRistrettoMul           = 2208
	CostRistrettoMSMBase       = 2303
	CostRistrettoMSMIncrement  = 788
	CostAltBn128Add            = 334
	CostAltBn128Mul            = 3840
	CostAltBn128G2Add          = 535
	CostAltBn128G2Mul          = 15670
	CostAltBn128PairingFirst   = 36364
	CostAltBn128PairingOther   = 12121
	CostAltBn128G1Compress     = 30
	CostAltBn128G1Decompress   = 398
	CostAltBn128G2Compress     = 86
	CostAltBn128G2Decompress   = 13610
	CostBigModExpBase          = 190
	CostBigModExpDivisor       = 2
	CostPoseidonA              = 61
	CostPoseidonC              = 542
	MaxReturnData              = 1024
	bpfAlignOfU128             = 8 // sol_alloc_free_'s alignment on SBF
	curveBLS12381G1LE          = 5
	curveBLS12381G2LE          = 6
	curveBLS12381BigEndianFlag = 0x80
)

// Register adds to l every syscall the reference registers for the feature set (its
// create_program_runtime_environment_v1). deployment selects the stricter environment programs
// are verified in at deployment (reject_deployment_of_broken_elfs), which lacks sol_alloc_free_
// once DisableDeployOfAllocFree is active.
func Register(l *sbpf.Loader, f Features, deployment bool) error {
	type entry struct {
		name string
		on   bool
		fn   sbpf.Syscall
	}
	entries := []entry{
		{"abort", true, abort},
		{"sol_panic_", true, panic_},
		{"sol_log_", true, logString},
		{"sol_log_64_", true, log64},
		{"sol_log_pubkey", true, logPubkey},
		{"sol_log_compute_units_", true, logComputeUnits},
		{"sol_create_program_address", true, createProgramAddress},
		{"sol_try_find_program_address", true, tryFindProgramAddress},
		{"sol_sha256", true, hashSyscall(SHA256)},
		{"sol_keccak256", true, hashSyscall(Keccak256)},
		{"sol_secp256k1_recover", true, secp256k1Recover},
		{"sol_blake3", f.Blake3Syscall, hashSyscall(Blake3)},
		{"sol_curve_validate_point", f.Curve25519Syscall, curveValidate(f)},
		{"sol_curve_group_op", f.Curve25519Syscall, curveGroupOp(f)},
		{"sol_curve_multiscalar_mul", f.Curve25519Syscall, curveMultiscalarMul(f)},
		{"sol_get_clock_sysvar", true, sysvarGetter(core.SysvarClockID, 40, alignU64, prefixStruct(40), f)},
		{"sol_get_epoch_schedule_sysvar", true, sysvarGetter(core.SysvarEpochScheduleID, 40, alignU64, epochScheduleStruct, f)},
		{"sol_get_fees_sysvar", !f.DisableFeesSysvar, sysvarGetter(core.SysvarFeesID, 8, alignU64, prefixStruct(8), f)},
		{"sol_get_rent_sysvar", true, sysvarGetter(core.SysvarRentID, 24, alignU64, prefixStruct(17), f)},
		{"sol_get_last_restart_slot", f.LastRestartSlotSysvar, sysvarGetter(core.SysvarLastRestartSlotID, 8, alignU64, prefixStruct(8), f)},
		{"sol_get_epoch_rewards_sysvar", true, sysvarGetter(core.SysvarEpochRewardsID, 96, alignU128, epochRewardsStruct, f)},
		{"sol_memcpy_", true, memcpy},
		{"sol_memmove_", true, memmove},
		{"sol_memset_", true, memset},
		{"sol_memcmp_", true, memcmp},
		{"sol_get_processed_sibling_instruction", true, processedSiblingInstruction},
		{"sol_get_stack_height", true, stackHeight},
		{"sol_set_return_data", true, setReturnData},
		{"sol_get_return_data", true, getReturnData},
		{"sol_invoke_signed_c", true, invoke(CPIC)},
		{"sol_invoke_signed_rust", true, invoke(CPIRust)},
		{"sol_alloc_free_", !(deployment && f.DisableDeployOfAllocFree), allocFree},
		{"sol_alt_bn128_group_op", f.AltBn128Syscall, altBn128GroupOp(f)},
		{"sol_big_mod_exp", f.BigModExpSyscall, bigModExp},
		{"sol_poseidon", f.PoseidonSyscall, poseidonSyscall(f)},
		{"sol_remaining_compute_units", f.RemainingComputeUnits, remainingComputeUnits},
		{"sol_alt_bn128_compression", f.AltBn128CompressionSyscall, altBn128Compression(f)},
		{"sol_get_sysvar", f.GetSysvarSyscall, getSysvar(f)},
		{"sol_get_epoch_stake", f.GetEpochStakeSyscall, getEpochStake},
		{"sol_log_data", true, logData},
	}
	for _, e := range entries {
		if !e.on {
			continue
		}
		if err := l.Register(e.name, e.fn); err != nil {
			return fmt.Errorf("register %s: %w", e.name, err)
		}
	}
	return nil
}

// Names lists the syscalls Register registers for the feature set, in registration order.
func Names(f Features, deployment bool) []string {
	l := sbpf.NewLoader(sbpf.DefaultConfig())
	if err := Register(l, f, deployment); err != nil {
		return nil
	}
	var names []string
	for _, n := range allNames {
		if _, ok := l.Lookup(sbpf.HashSymbolName([]byte(n))); ok {
			names = append(names, n)
		}
	}
	return names
}

var allNames = []string{
	"abort", "sol_panic_", "sol_log_", "sol_log_64_", "sol_log_pubkey", "sol_log_compute_units_",
	"sol_create_program_address", "sol_try_find_program_address", "sol_sha256", "sol_keccak256",
	"sol_secp256k1_recover", "sol_blake3", "sol_curve_validate_point", "sol_curve_group_op",
	"sol_curve_multiscalar_mul", "sol_get_clock_sysvar", "sol_get_epoch_schedule_sysvar",
	"sol_get_fees_sysvar", "sol_get_rent_sysvar", "sol_get_last_restart_slot",
	"sol_get_epoch_rewards_sysvar", "sol_memcpy_", "sol_memmove_", "sol_memset_", "sol_memcmp_",
	"sol_get_processed_sibling_instruction", "sol_get_stack_height", "sol_set_return_data",
	"sol_get_return_data", "sol_invoke_signed_c", "sol_invoke_signed_rust", "sol_alloc_free_",
	"sol_alt_bn128_group_op", "sol_big_mod_exp", "sol_poseidon", "sol_remaining_compute_units",
	"sol_alt_bn128_compression", "sol_get_sysvar", "sol_get_epoch_stake", "sol_log_data",
}

func abort(*sbpf.VM, uint64, uint64, uint64, uint64, uint64) (uint64, error) {
	return 0, syscallErr(ErrAbort)
}

// translateString maps a UTF-8 string (the reference's translate_string_and_do).
func (c *call) translateString(addr, n uint64) (string, error) {
	b, err := c.loadSlice(addr, n, 1, alignU8)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", &Error{Kind: ErrInvalidString, Text: utf8Error(b), Bytes: append([]byte(nil), b...)}
	}
	return string(b), nil
}

func panic_(vm *sbpf.VM, file, n, line, column, _ uint64) (uint64, error) {
	c, err := newCharged(vm, n)
	if err != nil {
		return 0, err
	}
	s, err := c.translateString(file, n)
	if err != nil {
		return 0, err
	}
	return 0, &Error{Kind: ErrPanic, Text: s, A: line, B: column}
}

func logString(vm *sbpf.VM, addr, n, _, _, _ uint64) (uint64, error) {
	c, err := newCharged(vm, max(CostSyscallBase, n))
	if err != nil {
		return 0, err
	}
	s, err := c.translateString(addr, n)
	if err != nil {
		return 0, err
	}
	c.host.Log("Program log: " + s)
	return 0, nil
}

func log64(vm *sbpf.VM, a, b, c3, d, e uint64) (uint64, error) {
	c, err := newCharged(vm, CostLog64)
	if err != nil {
		return 0, err
	}
	c.host.Log(fmt.Sprintf("Program log: %#x, %#x, %#x, %#x, %#x", a, b, c3, d, e))
	return 0, nil
}

func logPubkey(vm *sbpf.VM, addr, _, _, _, _ uint64) (uint64, error) {
	c, err := newCharged(vm, CostLogPubkey)
	if err != nil {
		return 0, err
	}
	b, err := c.load(addr, core.PubkeyLen, alignU8)
	if err != nil {
		return 0, err
	}
	c.host.Log("Program log: " + core.Pubkey(b).String())
	return 0, nil
}

func logComputeUnits(vm *sbpf.VM, _, _, _, _, _ uint64) (uint64, error) {
	c, err := newCharged(vm, CostSyscallBase)
	if err != nil {
		return 0, err
	}
	c.host.Log(fmt.Sprintf("Program consumption: %d units remaining", vm.Remaining()))
	return 0, nil
}

func logData(vm *sbpf.VM, addr, n, _, _, _ uint64) (uint64, error) {
	c, err := newCharged(vm, CostSyscallBase)
	if err != nil {
		return 0, err
	}
	desc, err := c.loadSlice(addr, n, vmSliceLen, alignU64)
	if err != nil {
		return 0, err
	}
	if err := vm.Consume(sat.Mul(CostSyscallBase, n)); err != nil {
		return 0, err
	}
	var total uint64
	lens := vmSliceLens(desc)
	for _, l := range lens {
		total = sat.Add(total, l)
	}
	if err := vm.Consume(total); err != nil {
		return 0, err
	}
	fields := make([]string, len(lens))
	for i, l := range lens {
		b, err := c.loadSlice(binary.LittleEndian.Uint64(desc[i*vmSliceLen:]), l, 1, alignU8)
		if err != nil {
			return 0, err
		}
		fields[i] = base64.StdEncoding.EncodeToString(b)
	}
	c.host.Log("Program data: " + strings.Join(fields, " "))
	return 0, nil
}

// programAddressInputs maps the seeds (at most 16, each at most 32 bytes) and program id of the
// PDA syscalls.
func (c *call) programAddressInputs(seedsAddr, nSeeds, programIDAddr uint64) ([][]byte, core.Pubkey, error) {
	desc, err := c.loadSlice(seedsAddr, nSeeds, vmSliceLen, alignU64)
	if err != nil {
		return nil, core.Pubkey{}, err
	}
	badSeeds := &Error{Kind: ErrBadSeeds, Text: core.ErrMaxSeedLengthExceeded.Error()}
	if nSeeds > core.MaxSeeds {
		return nil, core.Pubkey{}, badSeeds
	}
	seeds := make([][]byte, nSeeds)
	for i, l := range vmSliceLens(desc) {
		if l > core.MaxSeedLen {
			return nil, core.Pubkey{}, badSeeds
		}
		if seeds[i], err = c.loadSlice(binary.LittleEndian.Uint64(desc[i*vmSliceLen:]), l, 1, alignU8); err != nil {
			return nil, core.Pubkey{}, err
		}
	}
	pid, err := c.load(programIDAddr, core.PubkeyLen, alignU8)
	if err != nil {
		return nil, core.Pubkey{}, err
	}
	return seeds, core.Pubkey(pid), nil
}

func createProgramAddress(vm *sbpf.VM, seedsAddr, nSeeds, programIDAddr, outAddr, _ uint64) (uint64, error) {
	c, err := newCharged(vm, CostCreateProgramAddress)
	if err != nil {
		return 0, err
	}
	seeds, pid, err := c.programAddressInputs(seedsAddr, nSeeds, programIDAddr)
	if err != nil {
		return 0, err
	}
	addr, err := core.CreateProgramAddress(seeds, pid)
	if err != nil {
		return 1, nil
	}
	dst, err := c.store1(outAddr, core.PubkeyLen, alignU8)
	if err != nil {
		return 0, err
	}
	copy(dst, addr[:])
	return 0, nil
}

func tryFindProgramAddress(vm *sbpf.VM, seedsAddr, nSeeds, programIDAddr, outAddr, bumpAddr uint64) (uint64, error) {
	c, err := newCharged(vm, CostCreateProgramAddress)
	if err != nil {
		return 0, err
	}
	seeds, pid, err := c.programAddressInputs(seedsAddr, nSeeds, programIDAddr)
	if err != nil {
		return 0, err
	}
	bump := []byte{255}
	withBump := append(seeds[:len(seeds):len(seeds)], bump)
	// 255 tries, bump 255 down to 1; each miss costs another create_program_address.
	for range 255 {
		if addr, err := core.CreateProgramAddress(withBump, pid); err == nil {
			r, err := c.store(Dest{bumpAddr, 1, 1, alignU8}, Dest{outAddr, 1, core.PubkeyLen, alignU8})
			if err != nil {
				return 0, err
			}
			r[0][0] = bump[0]
			copy(r[1], addr[:])
			return 0, nil
		}
		bump[0]--
		if err := vm.Consume(CostCreateProgramAddress); err != nil {
			return 0, err
		}
	}
	return 1, nil
}

func hashSyscall(kind HashKind) sbpf.Syscall {
	return func(vm *sbpf.VM, valsAddr, n, outAddr, _, _ uint64) (uint64, error) {
		c, err := newCall(vm)
		if err != nil {
			return 0, err
		}
		if n > MaxHashSlices {
			c.host.Log(fmt.Sprintf("%s Hashing %d sequences in one syscall is over the limit %d", kind, n, MaxHashSlices))
			return 0, syscallErr(ErrTooManySlices)
		}
		if err := vm.Consume(CostSHA256Base); err != nil {
			return 0, err
		}
		dst, err := c.store1(outAddr, 32, alignU8)
		if err != nil {
			return 0, err
		}
		h := kind.new()
		if n > 0 {
			desc, err := c.loadSlice(valsAddr, n, vmSliceLen, alignU64)
			if err != nil {
				return 0, err
			}
			for i, l := range vmSliceLens(desc) {
				b, err := c.loadSlice(binary.LittleEndian.Uint64(desc[i*vmSliceLen:]), l, 1, alignU8)
				if err != nil {
					return 0, err
				}
				if err := vm.Consume(max(CostMemOpBase, sat.Mul(CostSHA256Byte, l/2))); err != nil {
					return 0, err
				}
				h.Write(b)
			}
		}
		h.Sum(dst[:0])
		return 0, nil
	}
}

func secp256k1Recover(vm *sbpf.VM, hashAddr, recoveryID, sigAddr, outAddr, _ uint64) (uint64, error) {
	c, err := newCharged(vm, CostSecp256k1Recover)
	if err != nil {
		return 0, err
	}
	dst, err := c.store1(outAddr, 64, alignU8)
	if err != nil {
		return 0, err
	}
	hash, err := c.loadSlice(hashAddr, 32, 1, alignU8)
	if err != nil {
		return 0, err
	}
	sig, err := c.loadSlice(sigAddr, 64, 1, alignU8)
	if err != nil {
		return 0, err
	}
	key, code := Secp256k1Recover((*[32]byte)(hash), recoveryID, (*[64]byte)(sig))
	if code != 0 {
		return code, nil
	}
	copy(dst, key[:])
	return 0, nil
}

// isBLSCurve reports the BLS12-381 curve ids, which abort while their feature is off (ledgerd
// has no BLS12-381).
func isBLSCurve(id uint64) bool {
	id &^= curveBLS12381BigEndianFlag
	return id == curveBLS12381G1LE || id == curveBLS12381G2LE
}

func invalidCurve(f Features) (uint64, error) {
	if f.AbortOnInvalidCurve {
		return 0, syscallErr(ErrInvalidAttribute)
	}
	return 1, nil
}

func curveValidate(f Features) sbpf.Syscall {
	return func(vm *sbpf.VM, curve, pointAddr, _, _, _ uint64) (uint64, error) {
		c, err := newCall(vm)
		if err != nil {
			return 0, err
		}
		if isBLSCurve(curve) {
			return 0, syscallErr(ErrInvalidAttribute)
		}
		var cost uint64
		var valid func(*[32]byte) bool
		switch curve {
		case CurveEdwards25519:
			cost, valid = CostEdwardsValidate, EdwardsValidate
		case CurveRistretto255:
			cost, valid = CostRistrettoValidate, RistrettoValidate
		default:
			return invalidCurve(f)
		}
		if err := vm.Consume(cost); err != nil {
			return 0, err
		}
		p, err := c.load(pointAddr, 32, alignU8)
		if err != nil {
			return 0, err
		}
		if valid((*[32]byte)(p)) {
			return 0, nil
		}
		return 1, nil
	}
}

type curveOp struct {
	cost uint64
	fn   func(l, r *[32]byte) ([32]byte, bool)
}

var curveOps = map[[2]uint64]curveOp{
	{CurveEdwards25519, CurveOpAdd}: {CostEdwardsAdd, EdwardsAdd},
	{CurveEdwards25519, CurveOpSub}: {CostEdwardsSub, EdwardsSub},
	{CurveEdwards25519, CurveOpMul}: {CostEdwardsMul, EdwardsMul},
	{CurveRistretto255, CurveOpAdd}: {CostRistrettoAdd, RistrettoAdd},
	{CurveRistretto255, CurveOpSub}: {CostRistrettoSub, RistrettoSub},
	{CurveRistretto255, CurveOpMul}: {CostRistrettoMul, RistrettoMul},
}

func curveGroupOp(f Features) sbpf.Syscall {
	return func(vm *sbpf.VM, curve, op, leftAddr, rightAddr, outAddr uint64) (uint64, error) {
		c, err := newCall(vm)
		if err != nil {
			return 0, err
		}
		if isBLSCurve(curve) {
			return 0, syscallErr(ErrInvalidAttribute)
		}
		o, ok := curveOps[[2]uint64{curve, op}]
		if !ok {
			return invalidCurve(f)
		}
		if err := vm.Consume(o.cost); err != nil {
			return 0, err
		}
		l, err := c.load(leftAddr, 32, alignU8)
		if err != nil {
			return 0, err
		}
		r, err := c.load(rightAddr, 32, alignU8)
		if err != nil {
			return 0, err
		}
		res, ok := o.fn((*[32]byte)(l), (*[32]byte)(r))
		if !ok {
			return 1, nil
		}
		dst, err := c.store1(outAddr, 32, alignU8)
		if err != nil {
			return 0, err
		}
		copy(dst, res[:])
		return 0, nil
	}
}

func curveMultiscalarMul(f Features) sbpf.Syscall {
	return func(vm *sbpf.VM, curve, scalarsAddr, pointsAddr, n, outAddr uint64) (uint64, error) {
		c, err := newCall(vm)
		if err != nil {
			return 0, err
		}
		if n > MaxMultiscalarPoint {
			return 0, syscallErr(ErrInvalidLength)
		}
		var base, incr uint64
		var msm func(s, p [][32]byte) ([32]byte, bool)
		switch curve {
		case CurveEdwards25519:
			base, incr, msm = CostEdwardsMSMBase, CostEdwardsMSMIncrement, EdwardsMultiscalarMul
		case CurveRistretto255:
			base, incr, msm = CostRistrettoMSMBase, CostRistrettoMSMIncrement, RistrettoMultiscalarMul
		default:
			return invalidCurve(f)
		}
		if err := vm.Consume(sat.Add(base, sat.Mul(incr, sat.Sub(n, 1)))); err != nil {
			return 0, err
		}
		sb, err := c.loadSlice(scalarsAddr, n, 32, alignU8)
		if err != nil {
			return 0, err
		}
		pb, err := c.loadSlice(pointsAddr, n, 32, alignU8)
		if err != nil {
			return 0, err
		}
		scalars, points := make([][32]byte, n), make([][32]byte, n)
		for i := range scalars {
			scalars[i] = [32]byte(sb[i*32:])
			points[i] = [32]byte(pb[i*32:])
		}
		res, ok := msm(scalars, points)
		if !ok {
			return 1, nil
		}
		dst, err := c.store1(outAddr, 32, alignU8)
		if err != nil {
			return 0, err
		}
		copy(dst, res[:])
		return 0, nil
	}
}

func memOpCost(n uint64) uint64 { return max(CostMemOpBase, n/CPIBytesPerUnit) }

func memcpy(vm *sbpf.VM, dst, src, n, _, _ uint64) (uint64, error) {
	if err := vm.Consume(memOpCost(n)); err != nil {
		return 0, err
	}
	if overlaps(src, n, dst, n) {
		return 0, syscallErr(ErrCopyOverlapping)
	}
	return memmoveBody(vm, dst, src, n)
}

func memmove(vm *sbpf.VM, dst, src, n, _, _ uint64) (uint64, error) {
	if err := vm.Consume(memOpCost(n)); err != nil {
		return 0, err
	}
	return memmoveBody(vm, dst, src, n)
}

func memmoveBody(vm *sbpf.VM, dst, src, n uint64) (uint64, error) {
	c, err := newCall(vm)
	if err != nil {
		return 0, err
	}
	d, err := c.store1(dst, n, alignU8)
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, nil
	}
	s, err := c.loadSlice(src, n, 1, alignU8)
	if err != nil {
		return 0, err
	}
	copy(d, s) // copy handles overlapping host ranges like memmove
	return 0, nil
}

func memset(vm *sbpf.VM, dst, value, n, _, _ uint64) (uint64, error) {
	c, err := newCharged(vm, memOpCost(n))
	if err != nil {
		return 0, err
	}
	if n == 0 {
		return 0, nil
	}
	d, err := c.store1(dst, n, alignU8)
	if err != nil {
		return 0, err
	}
	for i := range d {
		d[i] = byte(value)
	}
	return 0, nil
}

func memcmp(vm *sbpf.VM, a, b, n, resultAddr, _ uint64) (uint64, error) {
	c, err := newCharged(vm, memOpCost(n))
	if err != nil {
		return 0, err
	}
	s1, err := c.loadSlice(a, n, 1, alignU8)
	if err != nil {
		return 0, err
	}
	s2, err := c.loadSlice(b, n, 1, alignU8)
	if err != nil {
		return 0, err
	}
	var diff int32
	for i := range s1 {
		if s1[i] != s2[i] {
			diff = int32(s1[i]) - int32(s2[i])
			break
		}
	}
	dst, err := c.store1(resultAddr, 4, alignI32)
	if err != nil {
		return 0, err
	}
	binary.LittleEndian.PutUint32(dst, uint32(diff))
	return 0, nil
}

// sysvarStruct turns a sysvar's account data (bincode) into the repr(C) struct the getter
// syscalls copy, padding zeroed; false when the data does not decode.
type sysvarStruct func(data []byte, out []byte) bool

// prefixStruct is the struct of a sysvar whose bincode encoding is its repr(C) struct's first n
// bytes (Clock, Fees, Rent, LastRestartSlot: no bool or option to check, padding after).
func prefixStruct(n int) sysvarStruct {
	return func(data, out []byte) bool {
		if len(data) < n {
			return false
		}
		copy(out[:n], data[:n])
		return true
	}
}

func boolByte(b byte) bool { return b <= 1 }

func epochScheduleStruct(data, out []byte) bool {
	if len(data) < 33 || !boolByte(data[16]) {
		return false
	}
	copy(out[0:17], data[0:17])
	copy(out[24:40], data[17:33])
	return true
}

func epochRewardsStruct(data, out []byte) bool {
	if len(data) < 81 || !boolByte(data[80]) {
		return false
	}
	copy(out[0:81], data[0:81])
	return true
}

func sysvarGetter(id core.Pubkey, size, align uint64, decode sysvarStruct, f Features) sbpf.Syscall {
	return func(vm *sbpf.VM, addr, _, _, _, _ uint64) (uint64, error) {
		c, err := newCall(vm)
		if err != nil {
			return 0, err
		}
		if err := vm.Consume(CostSysvarBase + size); err != nil {
			return 0, err
		}
		if addr >= sbpf.MMInputStart && f.StricterABIAndRuntimeConstraints {
			return 0, syscallErr(ErrInvalidPointer)
		}
		dst, err := c.store1(addr, size, align)
		if err != nil {
			return 0, err
		}
		data, ok := c.host.SysvarData(id)
		var v [96]byte
		if !ok || !decode(data, v[:size]) {
			return 0, ErrUnsupportedSysvar
		}
		copy(dst, v[:size])
		return 0, nil
	}
}

// sysvarsInCache are the sysvars sol_get_sysvar serves (the reference's sysvar_id_to_buffer).
var sysvarsInCache = map[core.Pubkey]bool{
	core.SysvarClockID: true, core.SysvarEpochScheduleID: true, core.SysvarEpochRewardsID: true,
	core.SysvarRentID: true, core.SysvarSlotHashesID: true, core.SysvarStakeHistoryID: true,
	core.SysvarLastRestartSlotID: true,
}

// Results of sol_get_sysvar besides 0.
const (
	GetSysvarOffsetLengthExceeds = 1
	GetSysvarNotFound            = 2
)

func getSysvar(f Features) sbpf.Syscall {
	return func(vm *sbpf.VM, idAddr, dstAddr, offset, length, _ uint64) (uint64, error) {
		c, err := newCall(vm)
		if err != nil {
			return 0, err
		}
		cost := CostSysvarBase + 32/CPIBytesPerUnit + max(length/CPIBytesPerUnit, CostMemOpBase)
		if err := vm.Consume(cost); err != nil {
			return 0, err
		}
		if dstAddr >= sbpf.MMInputStart && f.StricterABIAndRuntimeConstraints {
			return 0, syscallErr(ErrInvalidPointer)
		}
		r, err := c.store(Dest{dstAddr, length, 1, alignU8})
		if err != nil {
			return 0, err
		}
		idb, err := c.load(idAddr, core.PubkeyLen, alignU8)
		if err != nil {
			return 0, err
		}
		end := offset + length
		if end < offset || dstAddr+length < dstAddr {
			return 0, ErrArithmeticOverflow
		}
		id := core.Pubkey(idb)
		if !sysvarsInCache[id] {
			return GetSysvarNotFound, nil
		}
		data, ok := c.host.SysvarData(id)
		if !ok {
			return GetSysvarNotFound, nil
		}
		if end > uint64(len(data)) {
			return GetSysvarOffsetLengthExceeds, nil
		}
		copy(r[0], data[offset:end])
		return 0, nil
	}
}

func getEpochStake(vm *sbpf.VM, voteAddr, _, _, _, _ uint64) (uint64, error) {
	c, err := newCall(vm)
	if err != nil {
		return 0, err
	}
	if voteAddr == 0 {
		if err := vm.Consume(CostSyscallBase); err != nil {
			return 0, err
		}
		return c.host.EpochStake(nil), nil
	}
	if err := vm.Consume(CostSyscallBase + core.PubkeyLen/CPIBytesPerUnit + CostMemOpBase); err != nil {
		return 0, err
	}
	b, err := c.load(voteAddr, core.PubkeyLen, alignU8)
	if err != nil {
		return 0, err
	}
	vote := core.Pubkey(b)
	return c.host.EpochStake(&vote), nil
}

func setReturnData(vm *sbpf.VM, addr, n, _, _, _ uint64) (uint64, error) {
	c, err := newCharged(vm, sat.Add(n/CPIBytesPerUnit, CostSyscallBase))
	if err != nil {
		return 0, err
	}
	if n > MaxReturnData {
		return 0, &Error{Kind: ErrReturnDataTooLarge, A: n, B: MaxReturnData}
	}
	var data []byte
	if n > 0 {
		b, err := c.loadSlice(addr, n, 1, alignU8)
		if err != nil {
			return 0, err
		}
		data = append([]byte(nil), b...)
	}
	if err := c.host.SetReturnData(data); err != nil {
		return 0, err
	}
	return 0, nil
}

func getReturnData(vm *sbpf.VM, dstAddr, n, programIDAddr, _, _ uint64) (uint64, error) {
	c, err := newCharged(vm, CostSyscallBase)
	if err != nil {
		return 0, err
	}
	pid, data := c.host.ReturnData()
	n = min(n, uint64(len(data)))
	if n != 0 {
		if err := vm.Consume((n + core.PubkeyLen) / CPIBytesPerUnit); err != nil {
			return 0, err
		}
		r, err := c.store(Dest{dstAddr, n, 1, alignU8}, Dest{programIDAddr, 1, core.PubkeyLen, alignU8})
		if err != nil {
			return 0, err
		}
		copy(r[0], data[:n])
		copy(r[1], pid[:])
	}
	return uint64(len(data)), nil
}

func processedSiblingInstruction(vm *sbpf.VM, index, metaAddr, programIDAddr, dataAddr, accountsAddr uint64) (uint64, error) {
	c, err := newCharged(vm, CostSyscallBase)
	if err != nil {
		return 0, err
	}
	height := c.host.StackHeight()
	var found *TracedInstruction
	var seen uint64
	for i := c.host.InstructionTraceLength() - 1; i >= 0; i-- {
		ti := c.host.TracedInstruction(i)
		if ti.StackHeight < height {
			break
		}
		if ti.StackHeight == height {
			// Entry 0 at this height is the running instruction itself.
			if sat.Add(index, 1) == seen {
				found = &ti
				break
			}
			seen++
		}
	}
	if found == nil {
		return 0, nil
	}
	meta, err := c.store1(metaAddr, 16, alignU64)
	if err != nil {
		return 0, err
	}
	dataLen := binary.LittleEndian.Uint64(meta)
	accountsLen := binary.LittleEndian.Uint64(meta[8:])
	if dataLen != uint64(len(found.Data)) || accountsLen != uint64(len(found.Accounts)) {
		binary.LittleEndian.PutUint64(meta, uint64(len(found.Data)))
		binary.LittleEndian.PutUint64(meta[8:], uint64(len(found.Accounts)))
		return 1, nil
	}
	r, err := c.store(
		Dest{programIDAddr, 1, core.PubkeyLen, alignU8},
		Dest{dataAddr, dataLen, 1, alignU8},
		Dest{accountsAddr, accountsLen, 34, alignU8},
		Dest{metaAddr, 1, 16, alignU64},
	)
	if err != nil {
		return 0, err
	}
	copy(r[0], found.ProgramID[:])
	copy(r[1], found.Data)
	for i, a := range found.Accounts {
		m := r[2][i*34 : (i+1)*34]
		copy(m, a.Pubkey[:])
		m[32], m[33] = b2u8(a.IsSigner), b2u8(a.IsWritable)
	}
	return 1, nil
}

func b2u8(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func stackHeight(vm *sbpf.VM, _, _, _, _, _ uint64) (uint64, error) {
	c, err := newCharged(vm, CostSyscallBase)
	if err != nil {
		return 0, err
	}
	return c.host.StackHeight(), nil
}

func remainingComputeUnits(vm *sbpf.VM, _, _, _, _, _ uint64) (uint64, error) {
	if err := vm.Consume(CostSyscallBase); err != nil {
		return 0, err
	}
	return vm.Remaining(), nil
}

func invoke(abi CPIABI) sbpf.Syscall {
	return func(vm *sbpf.VM, a1, a2, a3, a4, a5 uint64) (uint64, error) {
		c, err := newCall(vm)
		if err != nil {
			return 0, err
		}
		return c.host.Invoke(vm, abi, a1, a2, a3, a4, a5)
	}
}

func allocFree(vm *sbpf.VM, size, freeAddr, _, _, _ uint64) (uint64, error) {
	c, err := newCall(vm)
	if err != nil {
		return 0, err
	}
	align := uint64(1)
	if c.aligned {
		align = bpfAlignOfU128
	}
	// Layout::from_size_align: the size rounded up to the alignment must fit isize.
	if sat.Add(size, align-1) > 1<<63-1 {
		return 0, nil
	}
	if freeAddr != 0 {
		return 0, nil
	}
	a := c.host.Allocator()
	if a == nil {
		return 0, nil
	}
	addr, ok := a.Alloc(size, align)
	if !ok {
		return 0, nil
	}
	return addr, nil
}

func altBn128GroupOp(f Features) sbpf.Syscall {
	return func(vm *sbpf.VM, op, inputAddr, inputLen, outAddr, _ uint64) (uint64, error) {
		c, err := newCall(vm)
		if err != nil {
			return 0, err
		}
		le := op&AltBn128LittleEnd != 0
		base := op &^ AltBn128LittleEnd
		var cost, outLen uint64
		switch {
		case op>>8 != 0:
			return 0, syscallErr(ErrInvalidAttribute)
		case le && !f.AltBn128LittleEndian && (base == AltBn128G1Add || base == AltBn128G1Mul || base == AltBn128Pairing):
			return 0, syscallErr(ErrInvalidAttribute)
		case !f.AltBn128G2Syscalls && (base == AltBn128G2Add || base == AltBn128G2Mul):
			return 0, syscallErr(ErrInvalidAttribute)
		}
		switch base {
		case AltBn128G1Add:
			cost, outLen = CostAltBn128Add, bn254G1Size
		case AltBn128G1Mul:
			cost, outLen = CostAltBn128Mul, bn254G1Size
		case AltBn128G2Add:
			cost, outLen = CostAltBn128G2Add, bn254G2Size
		case AltBn128G2Mul:
			cost, outLen = CostAltBn128G2Mul, bn254G2Size
		case AltBn128Pairing:
			pairs := inputLen / bn254PairingElemSize
			cost = sat.Add(sat.Add(sat.Add(sat.Add(CostAltBn128PairingFirst,
				sat.Mul(CostAltBn128PairingOther, sat.Sub(pairs, 1))), CostSHA256Base), inputLen), 32)
			outLen = 32
		default:
			// G1 and G2 subtraction and unknown operations.
			return 0, syscallErr(ErrInvalidAttribute)
		}
		if err := vm.Consume(cost); err != nil {
			return 0, err
		}
		dst, err := c.store1(outAddr, outLen, alignU8)
		if err != nil {
			return 0, err
		}
		in, err := c.loadSlice(inputAddr, inputLen, 1, alignU8)
		if err != nil {
			return 0, err
		}
		var res []byte
		switch base {
		case AltBn128G1Add:
			res, err = AltBn128G1Addition(in, le)
		case AltBn128G1Mul:
			res, err = AltBn128G1Multiplication(in, le)
		case AltBn128G2Add:
			res, err = AltBn128G2Addition(in, le)
		case AltBn128G2Mul:
			res, err = AltBn128G2Multiplication(in, le)
		case AltBn128Pairing:
			res, err = AltBn128PairingCheck(in, le, le || f.FixAltBn128PairingLengthCheck)
		}
		if err != nil {
			return 1, nil
		}
		copy(dst, res)
		return 0, nil
	}
}

func altBn128Compression(f Features) sbpf.Syscall {
	return func(vm *sbpf.VM, op, inputAddr, inputLen, outAddr, _ uint64) (uint64, error) {
		c, err := newCall(vm)
		if err != nil {
			return 0, err
		}
		le := op&AltBn128LittleEnd != 0
		base := op &^ AltBn128LittleEnd
		if op>>8 != 0 || base > AltBn128OpG2Decompress || (le && !f.AltBn128LittleEndian) {
			return 0, syscallErr(ErrInvalidAttribute)
		}
		var cost, outLen uint64
		var fn func([]byte, bool) ([]byte, error)
		switch base {
		case AltBn128OpG1Compress:
			cost, outLen, fn = CostAltBn128G1Compress, bn254FieldSize, AltBn128G1Compress
		case AltBn128OpG1Decompress:
			cost, outLen, fn = CostAltBn128G1Decompress, bn254G1Size, AltBn128G1Decompress
		case AltBn128OpG2Compress:
			cost, outLen, fn = CostAltBn128G2Compress, 2*bn254FieldSize, AltBn128G2Compress
		case AltBn128OpG2Decompress:
			cost, outLen, fn = CostAltBn128G2Decompress, bn254G2Size, AltBn128G2Decompress
		}
		if err := vm.Consume(CostSyscallBase + cost); err != nil {
			return 0, err
		}
		dst, err := c.store1(outAddr, outLen, alignU8)
		if err != nil {
			return 0, err
		}
		in, err := c.loadSlice(inputAddr, inputLen, 1, alignU8)
		if err != nil {
			return 0, err
		}
		res, err := fn(in, le)
		if err != nil {
			return 1, nil
		}
		copy(dst, res)
		return 0, nil
	}
}

func bigModExp(vm *sbpf.VM, paramsAddr, outAddr, _, _, _ uint64) (uint64, error) {
	c, err := newCall(vm)
	if err != nil {
		return 0, err
	}
	p, err := c.loadSlice(paramsAddr, 1, 48, alignU64)
	if err != nil {
		return 0, err
	}
	var v [6]uint64
	for i := range v {
		v[i] = binary.LittleEndian.Uint64(p[i*8:])
	}
	baseAddr, baseLen, expAddr, expLen, modAddr, modLen := v[0], v[1], v[2], v[3], v[4], v[5]
	if baseLen > MaxBigModExpLen || expLen > MaxBigModExpLen || modLen > MaxBigModExpLen {
		return 0, syscallErr(ErrInvalidLength)
	}
	n := max(baseLen, expLen, modLen)
	if err := vm.Consume(CostSyscallBase + n*n/CostBigModExpDivisor + CostBigModExpBase); err != nil {
		return 0, err
	}
	base, err := c.loadSlice(baseAddr, baseLen, 1, alignU8)
	if err != nil {
		return 0, err
	}
	exp, err := c.loadSlice(expAddr, expLen, 1, alignU8)
	if err != nil {
		return 0, err
	}
	mod, err := c.loadSlice(modAddr, modLen, 1, alignU8)
	if err != nil {
		return 0, err
	}
	res := BigModExp(base, exp, mod)
	r, err := c.store(Dest{outAddr, modLen, 1, alignU8})
	if err != nil {
		return 0, err
	}
	copy(r[0], res)
	return 0, nil
}

func poseidonSyscall(f Features) sbpf.Syscall {
	return func(vm *sbpf.VM, params, endianness, valsAddr, n, outAddr uint64) (uint64, error) {
		c, err := newCall(vm)
		if err != nil {
			return 0, err
		}
		if params != PoseidonBn254X5 {
			return 0, &Error{Kind: ErrOther, Text: "Invalid parameters."}
		}
		if endianness != PoseidonBigEndian && endianness != PoseidonLittleEndian {
			return 0, &Error{Kind: ErrOther, Text: "Invalid endianness."}
		}
		if n > PoseidonMaxInputs {
			c.host.Log(fmt.Sprintf("Poseidon hashing %d sequences is not supported", n))
			return 0, syscallErr(ErrInvalidLength)
		}
		if err := vm.Consume(CostPoseidonA*n*n + CostPoseidonC); err != nil {
			return 0, err
		}
		dst, err := c.store1(outAddr, 32, alignU8)
		if err != nil {
			return 0, err
		}
		inputs, err := c.vmSlices(valsAddr, n, nil)
		if err != nil {
			return 0, err
		}
		h, err := Poseidon(inputs, endianness == PoseidonLittleEndian, f.PoseidonEnforcePadding)
		if err != nil {
			return 1, nil
		}
		copy(dst, h[:])
		return 0, nil
	}
}
