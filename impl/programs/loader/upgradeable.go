package loader

import (
	"fmt"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sat"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

// UpgradeableLoaderComputeUnits is what every upgradeable loader instruction costs before the
// system program instructions it invokes.
const UpgradeableLoaderComputeUnits = 2370

// Feature gates of the upgradeable loader's instructions, as they stand on the reference's
// mainnet: SetAuthorityChecked is enabled; ExtendProgramChecked and Migrate (to loader v4) are
// not (their features were reverted before activation), so they fail with
// InvalidInstructionData and ExtendProgram stays in use.
const (
	setAuthorityCheckedEnabled  = true
	extendProgramCheckedEnabled = false
	// minimumExtendEnabled is SIMD-0431 (loader_v3_minimum_extend_program_size), active on mainnet:
	// ExtendProgram grows a program by at least MinimumExtendProgramBytes, or exactly to the largest
	// account size, so that anyone's permissionless extend costs a real amount of rent.
	minimumExtendEnabled = true
)

// MinimumExtendProgramBytes is the smallest ExtendProgram (SIMD-0431).
const MinimumExtendProgramBytes = 10_240

// processUpgradeable runs one of the upgradeable loader's own instructions (the reference's
// process_loader_upgradeable_instruction), after charging its compute units.
func processUpgradeable(ctx *runtime.InvokeContext) error {
	if err := ctx.Consume(UpgradeableLoaderComputeUnits); err != nil {
		return err
	}
	ix, err := DecodeUpgradeable(ctx.Data())
	if err != nil {
		return runtime.ErrInvalidInstructionData
	}
	switch ix.Tag {
	case TagInitializeBuffer:
		return initializeBuffer(ctx)
	case TagWrite:
		return write(ctx, ix.Offset, ix.Bytes)
	case TagDeployWithMaxDataLen:
		return deploy(ctx, ix.MaxDataLen)
	case TagUpgrade:
		return upgrade(ctx)
	case TagSetAuthority:
		return setAuthority(ctx)
	case TagSetAuthorityChecked:
		if !setAuthorityCheckedEnabled {
			return runtime.ErrInvalidInstructionData
		}
		return setAuthorityChecked(ctx)
	case TagClose:
		return closeAccount(ctx)
	case TagExtendProgram:
		if extendProgramCheckedEnabled {
			ctx.Log("ExtendProgram was superseded by ExtendProgramChecked")
			return runtime.ErrInvalidInstructionData
		}
		return extendProgram(ctx, ix.AdditionalBytes, false)
	case TagExtendProgramChecked:
		if !extendProgramCheckedEnabled {
			return runtime.ErrInvalidInstructionData
		}
		return extendProgram(ctx, ix.AdditionalBytes, true)
	case TagMigrate:
		// Loader v4 is not enabled, so there is nothing to migrate to.
		return runtime.ErrInvalidInstructionData
	}
	return runtime.ErrInvalidInstructionData
}

// fail logs msg and returns err: the reference's ic_logger_msg! before an error.
func fail(ctx *runtime.InvokeContext, err error, msg string) error {
	ctx.Log(msg)
	return err
}

func initializeBuffer(ctx *runtime.InvokeContext) error {
	if err := ctx.CheckNumAccounts(2); err != nil {
		return err
	}
	buffer, _ := ctx.Account(0)
	st, err := getState(buffer)
	if err != nil {
		return err
	}
	if st.Kind != StateUninitialized {
		return fail(ctx, runtime.ErrAccountAlreadyInitialized, "Buffer account already initialized")
	}
	authority, _ := ctx.Key(1)
	return setState(buffer, State{Kind: StateBuffer, Authority: &authority})
}

func write(ctx *runtime.InvokeContext, offset uint32, bytes []byte) error {
	if err := ctx.CheckNumAccounts(2); err != nil {
		return err
	}
	buffer, _ := ctx.Account(0)
	st, err := getState(buffer)
	if err != nil {
		return err
	}
	if st.Kind != StateBuffer {
		return fail(ctx, runtime.ErrInvalidAccountData, "Invalid Buffer account")
	}
	if st.Authority == nil {
		return fail(ctx, runtime.ErrImmutable, "Buffer is immutable")
	}
	if k, _ := ctx.Key(1); *st.Authority != k {
		return fail(ctx, runtime.ErrIncorrectAuthority, "Incorrect buffer authority provided")
	}
	if s, _ := ctx.IsSigner(1); !s {
		return fail(ctx, runtime.ErrMissingRequiredSignature, "Buffer authority did not sign")
	}
	return writeAt(ctx, buffer, BufferMetadataSize+int(offset), bytes)
}

// writeAt is the reference's write_program_data.
func writeAt(ctx *runtime.InvokeContext, a runtime.BorrowedAccount, at int, bytes []byte) error {
	data, err := a.DataMut()
	if err != nil {
		return err
	}
	end := at + len(bytes)
	if len(data) < end {
		ctx.Logf("Write overflow: %d < %d", len(data), end)
		return runtime.ErrAccountDataTooSmall
	}
	copy(data[at:end], bytes)
	return nil
}

// sysvarsAt checks the Rent and Clock sysvar accounts at instruction positions rent and
// rent+1, as the reference's get_sysvar_with_account_check does.
func sysvarsAt(ctx *runtime.InvokeContext, rent int) error {
	if err := ctx.CheckSysvarAccount(rent, core.SysvarRentID); err != nil {
		return err
	}
	return ctx.CheckSysvarAccount(rent+1, core.SysvarClockID)
}

// checkBuffer is the buffer check deploy and upgrade share: a writable Buffer of the loader whose
// authority is the signing authority at position auth, holding at least one program byte. It returns the
// number of program bytes.
func checkBuffer(ctx *runtime.InvokeContext, buffer runtime.BorrowedAccount, authority core.Pubkey, auth int) (int, error) {
	if !buffer.IsWritable() {
		return 0, fail(ctx, runtime.ErrInvalidArgument, "Buffer account not writeable")
	}
	if buffer.Owner() != core.BPFLoaderUpgradeableProgramID {
		return 0, fail(ctx, runtime.ErrIncorrectProgramID, "Buffer account not owned by loader")
	}
	st, err := getState(buffer)
	if err != nil {
		return 0, err
	}
	if st.Kind != StateBuffer {
		return 0, fail(ctx, runtime.ErrInvalidArgument, "Invalid Buffer account")
	}
	if st.Authority == nil || *st.Authority != authority {
		return 0, fail(ctx, runtime.ErrIncorrectAuthority, "Buffer and upgrade authority don't match")
	}
	if s, _ := ctx.IsSigner(auth); !s {
		return 0, fail(ctx, runtime.ErrMissingRequiredSignature, "Upgrade authority did not sign")
	}
	n := len(buffer.Data()) - BufferMetadataSize
	if n <= 0 {
		return 0, fail(ctx, runtime.ErrInvalidAccountData, "Buffer account too small")
	}
	return n, nil
}

// deployELF loads and verifies elf in the deployment environment (the reference's
// deploy_program!): any failure is logged with the loader's or verifier's message and is
// InvalidAccountData. The program then runs from the slot after the current one: its program
// data records the current slot, and the cache does not serve a program before the slot after
// its deployment.
func deployELF(ctx *runtime.InvokeContext, elf []byte) error {
	if err := VerifyELF(elf, DefaultFeatures()); err != nil {
		ctx.Log(err.Error())
		return runtime.ErrInvalidAccountData
	}
	return nil
}

func deploy(ctx *runtime.InvokeContext, maxDataLen uint64) error {
	if err := ctx.CheckNumAccounts(4); err != nil {
		return err
	}
	payerKey, _ := ctx.Key(0)
	programDataKey, _ := ctx.Key(1)
	if err := sysvarsAt(ctx, 4); err != nil {
		return err
	}
	rent, clock := ctx.Rent(), ctx.Clock()
	if err := ctx.CheckNumAccounts(8); err != nil {
		return err
	}
	authority, _ := ctx.Key(7)

	program, _ := ctx.Account(2)
	st, err := getState(program)
	if err != nil {
		return err
	}
	if st.Kind != StateUninitialized {
		return fail(ctx, runtime.ErrAccountAlreadyInitialized, "Program account already initialized")
	}
	if len(program.Data()) < ProgramSize {
		return fail(ctx, runtime.ErrAccountDataTooSmall, "Program account too small")
	}
	if program.Lamports() < rent.MinimumBalance(uint64(len(program.Data()))) {
		return fail(ctx, runtime.ErrExecutableAccountNotRentExempt, "Program account not rent-exempt")
	}
	programKey := program.Key()

	buffer, _ := ctx.Account(3)
	n, err := checkBuffer(ctx, buffer, authority, 7)
	if err != nil {
		return err
	}
	bufferKey := buffer.Key()
	if maxDataLen < uint64(n) {
		return fail(ctx, runtime.ErrAccountDataTooSmall, "Max data length is too small to hold Buffer data")
	}
	if maxDataLen > runtime.MaxPermittedDataLength-ProgramDataMetadataSize {
		return fail(ctx, runtime.ErrInvalidArgument, "Max data length is too large")
	}
	programDataLen := ProgramDataMetadataSize + maxDataLen
	derived, bump := ProgramDataAddress(programKey)
	if derived != programDataKey {
		return fail(ctx, runtime.ErrInvalidArgument, "ProgramData address is not derived")
	}

	// The buffer's lamports go to the payer before it pays for the program data account.
	payer, _ := ctx.Account(0)
	if err := payer.CheckedAddLamports(buffer.Lamports()); err != nil {
		return err
	}
	if err := buffer.SetLamports(0); err != nil {
		return err
	}
	create := system.CreateAccount(payerKey, programDataKey, max(1, rent.MinimumBalance(programDataLen)),
		programDataLen, core.BPFLoaderUpgradeableProgramID)
	// The buffer rides along so the system program's instruction is not unbalanced.
	create.Accounts = append(create.Accounts, core.Writable(bufferKey))
	if err := ctx.Invoke(create, [][][]byte{{programKey[:], {bump}}}); err != nil {
		return err
	}

	if err := deployELF(ctx, buffer.Data()[BufferMetadataSize:]); err != nil {
		return err
	}

	programData, _ := ctx.Account(1)
	if err := setState(programData, State{Kind: StateProgramData, Slot: clock.Slot, Authority: &authority}); err != nil {
		return err
	}
	if err := writeProgram(programData, buffer.Data()[BufferMetadataSize:]); err != nil {
		return err
	}
	if err := buffer.SetDataLength(BufferMetadataSize); err != nil {
		return err
	}
	if err := setState(program, State{Kind: StateProgram, ProgramData: programDataKey}); err != nil {
		return err
	}
	if err := program.SetExecutable(true); err != nil {
		return err
	}
	Programs.Invalidate(programKey)
	ctx.Logf("Deployed program %s", programKey)
	return nil
}

// writeProgram copies elf to the program bytes of a program data account.
func writeProgram(programData runtime.BorrowedAccount, elf []byte) error {
	data, err := programData.DataMut()
	if err != nil {
		return err
	}
	if len(data) < ProgramDataMetadataSize+len(elf) {
		return runtime.ErrAccountDataTooSmall
	}
	copy(data[ProgramDataMetadataSize:], elf)
	return nil
}

func upgrade(ctx *runtime.InvokeContext) error {
	if err := ctx.CheckNumAccounts(3); err != nil {
		return err
	}
	programDataKey, _ := ctx.Key(0)
	if err := sysvarsAt(ctx, 4); err != nil {
		return err
	}
	rent, clock := ctx.Rent(), ctx.Clock()
	if err := ctx.CheckNumAccounts(7); err != nil {
		return err
	}
	authority, _ := ctx.Key(6)

	program, _ := ctx.Account(1)
	if !program.IsWritable() {
		return fail(ctx, runtime.ErrInvalidArgument, "Program account not writeable")
	}
	if program.Owner() != core.BPFLoaderUpgradeableProgramID {
		return fail(ctx, runtime.ErrIncorrectProgramID, "Program account not owned by loader")
	}
	st, err := getState(program)
	if err != nil {
		return err
	}
	if st.Kind != StateProgram {
		return fail(ctx, runtime.ErrInvalidAccountData, "Invalid Program account")
	}
	if st.ProgramData != programDataKey {
		return fail(ctx, runtime.ErrInvalidArgument, "Program and ProgramData account mismatch")
	}
	programKey := program.Key()

	buffer, _ := ctx.Account(2)
	n, err := checkBuffer(ctx, buffer, authority, 6)
	if err != nil {
		return err
	}
	bufferLamports := buffer.Lamports()

	programData, _ := ctx.Account(0)
	required := max(1, rent.MinimumBalance(uint64(len(programData.Data()))))
	if len(programData.Data()) < ProgramDataMetadataSize+n {
		return fail(ctx, runtime.ErrAccountDataTooSmall, "ProgramData account not large enough")
	}
	if sat.Add(programData.Lamports(), bufferLamports) < required {
		return fail(ctx, runtime.ErrInsufficientFunds, "Buffer account balance too low to fund upgrade")
	}
	pst, err := getState(programData)
	if err != nil {
		return err
	}
	if pst.Kind != StateProgramData {
		return fail(ctx, runtime.ErrInvalidAccountData, "Invalid ProgramData account")
	}
	if clock.Slot == pst.Slot {
		return fail(ctx, runtime.ErrInvalidArgument, "Program was deployed in this block already")
	}
	if pst.Authority == nil {
		return fail(ctx, runtime.ErrImmutable, "Program not upgradeable")
	}
	if *pst.Authority != authority {
		return fail(ctx, runtime.ErrIncorrectAuthority, "Incorrect upgrade authority provided")
	}
	if s, _ := ctx.IsSigner(6); !s {
		return fail(ctx, runtime.ErrMissingRequiredSignature, "Upgrade authority did not sign")
	}

	elf := buffer.Data()[BufferMetadataSize:]
	if err := deployELF(ctx, elf); err != nil {
		return err
	}
	if err := setState(programData, State{Kind: StateProgramData, Slot: clock.Slot, Authority: &authority}); err != nil {
		return err
	}
	if err := writeProgram(programData, elf); err != nil {
		return err
	}
	data, err := programData.DataMut()
	if err != nil {
		return err
	}
	clear(data[ProgramDataMetadataSize+n:])

	spill, _ := ctx.Account(3)
	if err := spill.CheckedAddLamports(sat.Sub(sat.Add(programData.Lamports(), bufferLamports), required)); err != nil {
		return err
	}
	if err := buffer.SetLamports(0); err != nil {
		return err
	}
	if err := programData.SetLamports(required); err != nil {
		return err
	}
	if err := buffer.SetDataLength(BufferMetadataSize); err != nil {
		return err
	}
	Programs.Invalidate(programKey)
	ctx.Logf("Upgraded program %s", programKey)
	return nil
}

// authorityChange is what SetAuthority and SetAuthorityChecked share: the account is a buffer or
// program data whose current authority signs at position 1.
func authorityChange(ctx *runtime.InvokeContext, newAuthority *core.Pubkey, checked bool) error {
	account, _ := ctx.Account(0)
	current, _ := ctx.Key(1)
	st, err := getState(account)
	if err != nil {
		return err
	}
	immutable, incorrect, unsigned := "Program not upgradeable", "Incorrect upgrade authority provided", "Upgrade authority did not sign"
	switch st.Kind {
	case StateBuffer:
		if newAuthority == nil {
			return fail(ctx, runtime.ErrIncorrectAuthority, "Buffer authority is not optional")
		}
		immutable, incorrect, unsigned = "Buffer is immutable", "Incorrect buffer authority provided", "Buffer authority did not sign"
	case StateProgramData:
	default:
		return fail(ctx, runtime.ErrInvalidArgument, "Account does not support authorities")
	}
	if st.Authority == nil {
		return fail(ctx, runtime.ErrImmutable, immutable)
	}
	if *st.Authority != current {
		return fail(ctx, runtime.ErrIncorrectAuthority, incorrect)
	}
	if s, _ := ctx.IsSigner(1); !s {
		return fail(ctx, runtime.ErrMissingRequiredSignature, unsigned)
	}
	if checked {
		if s, _ := ctx.IsSigner(2); !s {
			return fail(ctx, runtime.ErrMissingRequiredSignature, "New authority did not sign")
		}
	}
	st.Authority = newAuthority
	return setState(account, st)
}

func setAuthority(ctx *runtime.InvokeContext) error {
	if err := ctx.CheckNumAccounts(2); err != nil {
		return err
	}
	var newAuthority *core.Pubkey
	if k, err := ctx.Key(2); err == nil {
		newAuthority = &k
	}
	if err := authorityChange(ctx, newAuthority, false); err != nil {
		return err
	}
	if newAuthority == nil {
		ctx.Log("New authority None")
	} else {
		ctx.Logf("New authority Some(%s)", *newAuthority)
	}
	return nil
}

func setAuthorityChecked(ctx *runtime.InvokeContext) error {
	if err := ctx.CheckNumAccounts(3); err != nil {
		return err
	}
	newAuthority, _ := ctx.Key(2)
	if err := authorityChange(ctx, &newAuthority, true); err != nil {
		return err
	}
	ctx.Logf("New authority %s", newAuthority)
	return nil
}

func closeAccount(ctx *runtime.InvokeContext) error {
	if err := ctx.CheckNumAccounts(2); err != nil {
		return err
	}
	account, _ := ctx.Account(0)
	recipient, _ := ctx.Account(1)
	if account.IndexInTransaction() == recipient.IndexInTransaction() {
		return fail(ctx, runtime.ErrInvalidArgument, "Recipient is the same as the account being closed")
	}
	closeKey := account.Key()
	st, err := getState(account)
	if err != nil {
		return err
	}
	if err := account.SetDataLength(UninitializedSize); err != nil {
		return err
	}
	switch st.Kind {
	case StateUninitialized:
		if err := recipient.CheckedAddLamports(account.Lamports()); err != nil {
			return err
		}
		if err := account.SetLamports(0); err != nil {
			return err
		}
		ctx.Logf("Closed Uninitialized %s", closeKey)
	case StateBuffer:
		if err := ctx.CheckNumAccounts(3); err != nil {
			return err
		}
		if err := closeWithAuthority(ctx, st.Authority); err != nil {
			return err
		}
		ctx.Logf("Closed Buffer %s", closeKey)
	case StateProgramData:
		if err := ctx.CheckNumAccounts(4); err != nil {
			return err
		}
		program, _ := ctx.Account(3)
		programKey := program.Key()
		if !program.IsWritable() {
			return fail(ctx, runtime.ErrInvalidArgument, "Program account is not writable")
		}
		if program.Owner() != core.BPFLoaderUpgradeableProgramID {
			return fail(ctx, runtime.ErrIncorrectProgramID, "Program account not owned by loader")
		}
		if ctx.Clock().Slot == st.Slot {
			return fail(ctx, runtime.ErrInvalidArgument, "Program was deployed in this block already")
		}
		pst, err := getState(program)
		if err != nil {
			return err
		}
		if pst.Kind != StateProgram {
			return fail(ctx, runtime.ErrInvalidArgument, "Invalid Program account")
		}
		if pst.ProgramData != closeKey {
			return fail(ctx, runtime.ErrInvalidArgument, "ProgramData account does not match ProgramData account")
		}
		if err := closeWithAuthority(ctx, st.Authority); err != nil {
			return err
		}
		Programs.Invalidate(programKey)
		ctx.Logf("Closed Program %s", programKey)
	default:
		return fail(ctx, runtime.ErrInvalidArgument, "Account does not support closing")
	}
	return nil
}

// closeWithAuthority is the reference's common_close_account: the authority at position 2
// signs, the lamports go to the recipient, the account becomes Uninitialized.
func closeWithAuthority(ctx *runtime.InvokeContext, authority *core.Pubkey) error {
	if authority == nil {
		return fail(ctx, runtime.ErrImmutable, "Account is immutable")
	}
	if k, _ := ctx.Key(2); *authority != k {
		return fail(ctx, runtime.ErrIncorrectAuthority, "Incorrect authority provided")
	}
	if s, _ := ctx.IsSigner(2); !s {
		return fail(ctx, runtime.ErrMissingRequiredSignature, "Authority did not sign")
	}
	account, _ := ctx.Account(0)
	recipient, _ := ctx.Account(1)
	if err := recipient.CheckedAddLamports(account.Lamports()); err != nil {
		return err
	}
	if err := account.SetLamports(0); err != nil {
		return err
	}
	return setState(account, State{Kind: StateUninitialized})
}

// extendProgram is the reference's common_extend_program: ExtendProgram (anyone may extend,
// the payer at position 3) or ExtendProgramChecked (the authority at 2 signs, the payer is at 4).
func extendProgram(ctx *runtime.InvokeContext, additional uint32, checked bool) error {
	payerAt := 3
	if checked {
		payerAt = 4
	}
	if additional == 0 {
		return fail(ctx, runtime.ErrInvalidInstructionData, "Additional bytes must be greater than 0")
	}
	programData, err := ctx.Account(0)
	if err != nil {
		return err
	}
	programDataKey := programData.Key()
	if programData.Owner() != core.BPFLoaderUpgradeableProgramID {
		return fail(ctx, runtime.ErrInvalidAccountOwner, "ProgramData owner is invalid")
	}
	if !programData.IsWritable() {
		return fail(ctx, runtime.ErrInvalidArgument, "ProgramData is not writable")
	}
	program, err := ctx.Account(1)
	if err != nil {
		return err
	}
	if !program.IsWritable() {
		return fail(ctx, runtime.ErrInvalidArgument, "Program account is not writable")
	}
	if program.Owner() != core.BPFLoaderUpgradeableProgramID {
		return fail(ctx, runtime.ErrInvalidAccountOwner, "Program account not owned by loader")
	}
	programKey := program.Key()
	st, err := getState(program)
	if err != nil {
		return err
	}
	if st.Kind != StateProgram {
		return fail(ctx, runtime.ErrInvalidAccountData, "Invalid Program account")
	}
	if st.ProgramData != programDataKey {
		return fail(ctx, runtime.ErrInvalidArgument, "Program account does not match ProgramData account")
	}
	newLen := len(programData.Data()) + int(additional)
	if newLen > runtime.MaxPermittedDataLength {
		return fail(ctx, runtime.ErrInvalidRealloc, fmt.Sprintf(
			"Extended ProgramData length of %d bytes exceeds max account data length of %d bytes",
			newLen, runtime.MaxPermittedDataLength))
	}
	if minimumExtendEnabled && additional < MinimumExtendProgramBytes &&
		uint64(additional) != sat.Sub(runtime.MaxPermittedDataLength, uint64(len(programData.Data()))) {
		return fail(ctx, runtime.ErrInvalidArgument, fmt.Sprintf("ExtendProgram requires a minimum of %d additional "+
			"bytes or to extend to maximum size, but only %d were requested", MinimumExtendProgramBytes, additional))
	}
	slot := ctx.Clock().Slot
	pst, err := getState(programData)
	if err != nil {
		return err
	}
	if pst.Kind != StateProgramData {
		return fail(ctx, runtime.ErrInvalidAccountData, "ProgramData state is invalid")
	}
	if slot == pst.Slot {
		return fail(ctx, runtime.ErrInvalidArgument, "Program was extended in this block already")
	}
	if pst.Authority == nil {
		return fail(ctx, runtime.ErrImmutable, "Cannot extend ProgramData accounts that are not upgradeable")
	}
	if checked {
		if k, err := ctx.Key(2); err != nil {
			return err
		} else if *pst.Authority != k {
			return fail(ctx, runtime.ErrIncorrectAuthority, "Incorrect upgrade authority provided")
		}
		if s, _ := ctx.IsSigner(2); !s {
			return fail(ctx, runtime.ErrMissingRequiredSignature, "Upgrade authority did not sign")
		}
	}
	rent := ctx.Rent()
	required := sat.Sub(max(1, rent.MinimumBalance(uint64(newLen))), programData.Lamports())
	if required > 0 {
		payer, err := ctx.Key(payerAt)
		if err != nil {
			return err
		}
		if err := ctx.Invoke(system.Transfer(payer, programDataKey, required), nil); err != nil {
			return err
		}
	}
	if err := programData.SetDataLength(newLen); err != nil {
		return err
	}
	if err := deployELF(ctx, programData.Data()[ProgramDataMetadataSize:]); err != nil {
		return err
	}
	pst.Slot = slot
	if err := setState(programData, pst); err != nil {
		return err
	}
	Programs.Invalidate(programKey)
	ctx.Logf("Extended ProgramData account by %d bytes", additional)
	return nil
}
