package loader

import (
	"encoding/binary"
	"fmt"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/sbpf"
	"ledgerd/impl/sbpf/syscalls"
)

// Cross-program invocation from an sBPF program (sol_invoke_signed_rust / sol_invoke_signed_c),
// as the reference's cpi_common in copy mode: the instruction and the signer seeds are read from
// VM memory, the callee is checked against the caller's privileges, the caller's view of every
// account the callee gets (its AccountInfo: lamports, data as long as the info says, owner) is
// written into the transaction's accounts, the callee runs, and the writable accounts are copied
// back into the caller's memory (its AccountInfo and its serialized input).

// CPI limits and costs, as with SIMD-0339 (increase_cpi_account_info_limit, active in LiteSVM
// and the test validator): a lower base cost, but the account metas and account infos are
// charged by size, and up to 255 account infos.
const (
	invokeUnits        = 946
	cpiBytesPerUnit    = 250
	maxCPIDataLen      = 10 * 1024
	maxCPIAccounts     = 255
	maxCPIAccountInfos = 255
	maxSigners         = 16
	maxSeeds           = 16
	// accountMetaChargeSize is what each account meta of the instruction is charged as (the Rust
	// AccountMeta's size), and accountInfoChargeSize each account info (key, owner, lamports, data
	// length).
	accountMetaChargeSize = 34
	accountInfoChargeSize = 80
)

// Sizes and layouts of the structures the two ABIs pass.
const (
	rustInstructionSize = 80 // StableInstruction: accounts {ptr,cap,len}, data {ptr,cap,len}, program id
	rustAccountMetaSize = 34 // pubkey, is_signer, is_writable
	rustAccountInfoSize = 48
	cInstructionSize    = 40 // program_id_addr, accounts_addr, accounts_len, data_addr, data_len
	cAccountMetaSize    = 16 // pubkey_addr, is_writable, is_signer
	cAccountInfoSize    = 56
	vmSliceSize         = 16
)

func other(format string, args ...any) error {
	return &syscalls.Error{Kind: syscalls.ErrOther, Text: fmt.Sprintf(format, args...)}
}

// callerAccount is the caller's view of one account handed to the callee: host slices over VM
// memory.
type callerAccount struct {
	indexInCaller int
	writable      bool
	lamports      []byte // the u64 the AccountInfo points to
	owner         []byte // the Pubkey the AccountInfo points to
	originalLen   uint64 // the data length serialized before the caller ran
	data          []byte // the data as long as the AccountInfo says
	vmDataAddr    uint64
	lenRef        []byte // the AccountInfo's data length field
}

func (h *host) invoke(vm *sbpf.VM, abi syscalls.CPIABI, ixAddr, infosAddr, infosLen, seedsAddr, seedsLen uint64) (uint64, error) {
	ctx := h.ctx
	if err := vm.Consume(invokeUnits); err != nil {
		return 0, err
	}
	mem := syscalls.NewMemory(vm, h.aligned)
	ix, err := translateInstruction(vm, mem, abi, ixAddr)
	if err != nil {
		return 0, err
	}
	signers, err := translateSigners(mem, ctx.ProgramID(), seedsAddr, seedsLen)
	if err != nil {
		return 0, err
	}
	if err := checkAuthorizedProgram(ix.ProgramID, ix.Data); err != nil {
		return 0, err
	}
	inv, err := ctx.PrepareInvoke(ix, signers)
	if err != nil {
		return 0, err
	}
	accounts, err := h.translateAccounts(vm, mem, abi, inv, infosAddr, infosLen)
	if err != nil {
		return 0, err
	}
	h.sync(vm.Meter())
	err = inv.Run()
	vm.Meter().Remaining = ctx.Remaining()
	if err != nil {
		return 0, err
	}
	for i := range accounts {
		if accounts[i].writable {
			if err := h.updateCaller(mem, &accounts[i]); err != nil {
				return 0, err
			}
		}
	}
	return 0, nil
}

func translateInstruction(vm *sbpf.VM, mem *syscalls.Memory, abi syscalls.CPIABI, addr uint64) (core.Instruction, error) {
	le := binary.LittleEndian
	var ix core.Instruction
	if abi == syscalls.CPIRust {
		b, err := mem.Load(addr, rustInstructionSize, 8)
		if err != nil {
			return ix, err
		}
		metasAddr, metasLen := le.Uint64(b[0:]), le.Uint64(b[16:])
		dataAddr, dataLen := le.Uint64(b[24:]), le.Uint64(b[40:])
		ix.ProgramID = core.Pubkey(b[48:80])
		metas, err := mem.LoadSlice(metasAddr, metasLen, rustAccountMetaSize, 1)
		if err != nil {
			return ix, err
		}
		data, err := mem.LoadSlice(dataAddr, dataLen, 1, 1)
		if err != nil {
			return ix, err
		}
		if ix.Data, err = chargeInstruction(vm, metasLen, data); err != nil {
			return ix, err
		}
		ix.Accounts = make([]core.AccountMeta, metasLen)
		for i := range ix.Accounts {
			m := metas[i*rustAccountMetaSize:]
			if m[32] > 1 || m[33] > 1 {
				return ix, runtime.ErrInvalidArgument
			}
			ix.Accounts[i] = core.AccountMeta{Pubkey: core.Pubkey(m[:32]), IsSigner: m[32] == 1, IsWritable: m[33] == 1}
		}
		return ix, nil
	}
	b, err := mem.Load(addr, cInstructionSize, 8)
	if err != nil {
		return ix, err
	}
	pid, err := mem.Load(le.Uint64(b[0:]), 32, 1)
	if err != nil {
		return ix, err
	}
	ix.ProgramID = core.Pubkey(pid)
	metasLen, dataLen := le.Uint64(b[16:]), le.Uint64(b[32:])
	metas, err := mem.LoadSlice(le.Uint64(b[8:]), metasLen, cAccountMetaSize, 8)
	if err != nil {
		return ix, err
	}
	data, err := mem.LoadSlice(le.Uint64(b[24:]), dataLen, 1, 1)
	if err != nil {
		return ix, err
	}
	if ix.Data, err = chargeInstruction(vm, metasLen, data); err != nil {
		return ix, err
	}
	ix.Accounts = make([]core.AccountMeta, metasLen)
	for i := range ix.Accounts {
		m := metas[i*cAccountMetaSize:]
		writable, signer := m[8], m[9]
		if signer > 1 || writable > 1 {
			return ix, runtime.ErrInvalidArgument
		}
		k, err := mem.Load(le.Uint64(m), 32, 1)
		if err != nil {
			return ix, err
		}
		ix.Accounts[i] = core.AccountMeta{Pubkey: core.Pubkey(k), IsSigner: signer == 1, IsWritable: writable == 1}
	}
	return ix, nil
}

// chargeInstruction checks an invoked instruction's size against the limits and charges its data
// and account metas, as both ABIs do before reading the metas; it returns a copy of data.
func chargeInstruction(vm *sbpf.VM, metasLen uint64, data []byte) ([]byte, error) {
	dataLen := uint64(len(data))
	if dataLen > maxCPIDataLen {
		return nil, other("Invoked an instruction with data that is too large (%d > %d)", dataLen, maxCPIDataLen)
	}
	if metasLen > maxCPIAccounts {
		return nil, other("Invoked an instruction with too many accounts (%d > %d)", metasLen, maxCPIAccounts)
	}
	if err := vm.Consume(dataLen/cpiBytesPerUnit + metasLen*accountMetaChargeSize/cpiBytesPerUnit); err != nil {
		return nil, err
	}
	return append([]byte(nil), data...), nil
}

// translateSigners derives the program addresses that sign for the caller from its seeds (both
// ABIs pass slices of slices of byte slices, {ptr, len} each).
func translateSigners(mem *syscalls.Memory, program core.Pubkey, addr, n uint64) ([]core.Pubkey, error) {
	if n == 0 {
		return nil, nil
	}
	le := binary.LittleEndian
	sets, err := mem.LoadSlice(addr, n, vmSliceSize, 8)
	if err != nil {
		return nil, err
	}
	if n > maxSigners {
		return nil, &syscalls.Error{Kind: syscalls.ErrOther, Text: "Too many signers"}
	}
	signers := make([]core.Pubkey, 0, n)
	for i := range n {
		set := sets[i*vmSliceSize:]
		cnt := le.Uint64(set[8:])
		seedDescs, err := mem.LoadSlice(le.Uint64(set), cnt, vmSliceSize, 8)
		if err != nil {
			return nil, err
		}
		if cnt > maxSeeds {
			return nil, runtime.ErrMaxSeedLengthExceeded
		}
		seeds := make([][]byte, cnt)
		for j := range cnt {
			d := seedDescs[j*vmSliceSize:]
			s, err := mem.LoadSlice(le.Uint64(d), le.Uint64(d[8:]), 1, 1)
			if err != nil {
				return nil, err
			}
			seeds[j] = s
		}
		pda, err := core.CreateProgramAddress(seeds, program)
		if err != nil {
			return nil, &syscalls.Error{Kind: syscalls.ErrBadSeeds, Text: err.Error()}
		}
		signers = append(signers, pda)
	}
	return signers, nil
}

// checkAuthorizedProgram refuses callees that cannot run as inner instructions: the loaders
// (except the upgradeable loader's Upgrade, SetAuthority, SetAuthorityChecked, Close and
// ExtendProgramChecked) and the precompiles.
func checkAuthorizedProgram(id core.Pubkey, data []byte) error {
	refused := false
	switch id {
	case core.NativeLoaderProgramID, core.BPFLoaderProgramID, core.BPFLoaderDeprecatedProgramID,
		core.Ed25519ProgramID, core.Secp256k1ProgramID, core.Secp256r1ProgramID:
		refused = true
	case core.BPFLoaderUpgradeableProgramID:
		refused = true
		if len(data) > 0 && data[0] == 3 {
			refused = false // Upgrade: the reference checks the first byte only
		} else if len(data) >= 4 && data[1] == 0 && data[2] == 0 && data[3] == 0 {
			switch data[0] {
			case 4, 5, 7, 9:
				refused = false
			}
		}
	}
	if refused {
		return other("Program %s not supported by inner instructions", id)
	}
	return nil
}

// translateAccounts reads the caller's account infos and, for every account the callee gets,
// writes the caller's view of it into the transaction (the reference's translate_accounts with
// update_callee_account).
func (h *host) translateAccounts(vm *sbpf.VM, mem *syscalls.Memory, abi syscalls.CPIABI, inv *runtime.Invocation,
	infosAddr, infosLen uint64) ([]callerAccount, error) {
	ctx := h.ctx
	le := binary.LittleEndian
	infoSize := uint64(rustAccountInfoSize)
	if abi == syscalls.CPIC {
		infoSize = cAccountInfoSize
	}
	infos, err := mem.LoadSlice(infosAddr, infosLen, infoSize, 8)
	if err != nil {
		return nil, err
	}
	if infosLen > maxCPIAccountInfos {
		return nil, other("Invoked an instruction with too many account info's (%d > %d)", infosLen, maxCPIAccountInfos)
	}
	if err := vm.Consume(infosLen * accountInfoChargeSize / cpiBytesPerUnit); err != nil {
		return nil, err
	}
	keys := make([]core.Pubkey, infosLen)
	for i := range keys {
		k, err := mem.Load(le.Uint64(infos[uint64(i)*infoSize:]), 32, 1)
		if err != nil {
			return nil, err
		}
		keys[i] = core.Pubkey(k)
	}
	var out []callerAccount
	for i := range inv.NumAccounts() {
		txIndex, writable, dup := inv.Account(i)
		if dup {
			continue
		}
		indexInCaller, ok := ctx.IndexOfAccount(txIndex)
		if !ok {
			return nil, runtime.ErrMissingAccount
		}
		callee, err := ctx.Account(indexInCaller)
		if err != nil {
			return nil, err
		}
		if callee.Executable() {
			if err := vm.Consume(uint64(len(callee.Data())) / cpiBytesPerUnit); err != nil {
				return nil, err
			}
			continue
		}
		key := callee.Key()
		at := -1
		for j := range keys {
			if keys[j] == key {
				at = j
				break
			}
		}
		if at < 0 {
			ctx.Logf("Instruction references an unknown account %s", key)
			return nil, runtime.ErrMissingAccount
		}
		if indexInCaller >= len(h.in.metas) {
			ctx.Logf("Internal error: index mismatch for account %s", key)
			return nil, runtime.ErrMissingAccount
		}
		info := infos[uint64(at)*infoSize : uint64(at+1)*infoSize]
		infoAddr := infosAddr + uint64(at)*infoSize
		ca := callerAccount{indexInCaller: indexInCaller, writable: writable, originalLen: h.in.metas[indexInCaller].originalLen}
		if abi == syscalls.CPIRust {
			err = ca.fromRust(vm, mem, info)
		} else {
			err = ca.fromC(vm, mem, info, infoAddr)
		}
		if err != nil {
			return nil, err
		}
		if err := updateCallee(&ca, callee); err != nil {
			return nil, err
		}
		out = append(out, ca)
	}
	return out, nil
}

func store(mem *syscalls.Memory, addr, n, align uint64) ([]byte, error) {
	b, err := mem.Store(syscalls.Dest{Addr: addr, Count: 1, Size: n, Align: align})
	if err != nil {
		return nil, err
	}
	return b[0], nil
}

func storeSlice(mem *syscalls.Memory, addr, n uint64) ([]byte, error) {
	if n == 0 {
		return nil, nil
	}
	b, err := mem.Store(syscalls.Dest{Addr: addr, Count: n, Size: 1, Align: 1})
	if err != nil {
		return nil, err
	}
	return b[0], nil
}

// fromRust reads an AccountInfo: key @0, lamports Rc @8, data Rc @16, owner @24. The Rc boxes
// hold strong and weak counts and a RefCell flag before the value (at +24): a pointer to the
// lamports, and the data slice {ptr, len}.
func (ca *callerAccount) fromRust(vm *sbpf.VM, mem *syscalls.Memory, info []byte) error {
	le := binary.LittleEndian
	lp, err := mem.Load(le.Uint64(info[8:])+24, 8, 8)
	if err != nil {
		return err
	}
	if ca.lamports, err = store(mem, le.Uint64(lp), 8, 8); err != nil {
		return err
	}
	if ca.owner, err = store(mem, le.Uint64(info[24:]), 32, 1); err != nil {
		return err
	}
	sliceAddr := le.Uint64(info[16:]) + 24
	ds, err := mem.Load(sliceAddr, 16, 8)
	if err != nil {
		return err
	}
	dataAddr, dataLen := le.Uint64(ds), le.Uint64(ds[8:])
	if err := vm.Consume(dataLen / cpiBytesPerUnit); err != nil {
		return err
	}
	if ca.lenRef, err = store(mem, sliceAddr+8, 8, 1); err != nil {
		return err
	}
	ca.vmDataAddr = dataAddr
	ca.data, err = storeSlice(mem, dataAddr, dataLen)
	return err
}

// fromC reads a SolAccountInfo: key_addr @0, lamports_addr @8, data_len @16, data_addr @24,
// owner_addr @32.
func (ca *callerAccount) fromC(vm *sbpf.VM, mem *syscalls.Memory, info []byte, infoAddr uint64) error {
	le := binary.LittleEndian
	var err error
	if ca.lamports, err = store(mem, le.Uint64(info[8:]), 8, 8); err != nil {
		return err
	}
	if ca.owner, err = store(mem, le.Uint64(info[32:]), 32, 1); err != nil {
		return err
	}
	dataLen, dataAddr := le.Uint64(info[16:]), le.Uint64(info[24:])
	if err := vm.Consume(dataLen / cpiBytesPerUnit); err != nil {
		return err
	}
	if ca.data, err = storeSlice(mem, dataAddr, dataLen); err != nil {
		return err
	}
	ca.vmDataAddr = dataAddr
	ca.lenRef, err = store(mem, infoAddr+16, 8, 1)
	return err
}

// updateCallee writes the caller's view of an account into the transaction: lamports, data,
// then the owner.
func updateCallee(ca *callerAccount, callee runtime.BorrowedAccount) error {
	if l := binary.LittleEndian.Uint64(ca.lamports); l != callee.Lamports() {
		if err := callee.SetLamports(l); err != nil {
			return err
		}
	}
	if err := applyData(callee, ca.data); err != nil {
		return err
	}
	if owner := core.Pubkey(ca.owner); owner != callee.Owner() {
		return callee.SetOwner(owner)
	}
	return nil
}

// updateCaller copies what the callee left in a writable account back into the caller's memory:
// lamports, owner, and the data with its new length (at most MaxPermittedDataIncrease past what
// was serialized), written into both the AccountInfo and the serialized input.
func (h *host) updateCaller(mem *syscalls.Memory, ca *callerAccount) error {
	ctx := h.ctx
	callee, err := ctx.Account(ca.indexInCaller)
	if err != nil {
		return err
	}
	le := binary.LittleEndian
	le.PutUint64(ca.lamports, callee.Lamports())
	owner := callee.Owner()
	copy(ca.owner, owner[:])
	prevLen := le.Uint64(ca.lenRef)
	data := callee.Data()
	postLen := uint64(len(data))
	if postLen > ca.originalLen+MaxPermittedDataIncrease && prevLen != postLen {
		ctx.Logf("Account data size realloc limited to %d in inner instructions", MaxPermittedDataIncrease)
		return runtime.ErrInvalidRealloc
	}
	if prevLen != postLen {
		if postLen < prevLen {
			if postLen > uint64(len(ca.data)) {
				return runtime.ErrAccountDataTooSmall
			}
			clear(ca.data[postLen:])
		}
		if ca.data, err = storeSlice(mem, ca.vmDataAddr, postLen); err != nil {
			return err
		}
		le.PutUint64(ca.lenRef, postLen)
		serializedLen, err := store(mem, ca.vmDataAddr-8, 8, 8)
		if err != nil {
			return err
		}
		le.PutUint64(serializedLen, postLen)
	}
	if uint64(len(ca.data)) != postLen {
		return runtime.ErrAccountDataTooSmall
	}
	copy(ca.data, data)
	return nil
}
