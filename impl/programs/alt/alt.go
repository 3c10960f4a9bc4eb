// Package alt is the Address Lookup Table program (AddressLookupTab1e1111111111111111111111111)
// and the resolution of v0 messages' lookups against it.
//
// The program behaves as the build that runs on mainnet and in LiteSVM: the Core BPF program
// that replaced the native builtin (feature migrate_address_lookup_table_program_to_core_bpf).
// That build logs through sol_log ("Program log: Instruction: ExtendLookupTable", "Program log:
// Error: InvalidArgument"), fails read-only writes with its own errors (Custom 10 and 11), and
// costs what its sBPF code executes. It is registered as an on-chain program, so the runtime
// logs "consumed N of M compute units", and it charges those units from a model of the build
// (cost.go) calibrated against LiteSVM, which testdata/litesvm_corpus.json replays.
//
// Lookups (LoadAddresses) follow the bank's rules: a table must exist and belong to the program,
// addresses appended in the current slot serve from the next, and a deactivated table serves
// until its deactivation slot leaves SlotHashes.
package alt

import (
	"encoding/binary"
	"strconv"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

// ProgramID is the program's address.
var ProgramID = core.AddressLookupTableProgramID

// Program is the Address Lookup Table program.
type Program struct{}

// Module is the address lookup table program as the node assembles it. It is an on-chain
// program of the upgradeable loader on current clusters, run natively.
var Module = runtime.Module{
	ID:               ProgramID,
	Name:             "address-lookup-table",
	Kind:             runtime.OnChain,
	Program:          Program{},
	Genesis:          runtime.Deployment{Loader: core.BPFLoaderUpgradeableProgramID, Data: "address_lookup_table (native)"},
	ParseAccount:     &runtime.AccountParser{Program: "address-lookup-table", Parse: parseLookupTable},
	ParseInstruction: &runtime.InstructionParser{Program: "address-lookup-table", Parse: parseAddressLookupTable},
}

// exec is one execution of the program: the compute units its on-chain build would have used so
// far and not yet charged. They are charged before a cross-program invocation and at the end.
type exec struct {
	ctx     *runtime.InvokeContext
	pending uint64
}

func (x *exec) add(units uint64) { x.pending += units }

func (x *exec) flush() error {
	units := x.pending
	x.pending = 0
	return x.ctx.Consume(units)
}

// fail ends the instruction with the program's error err after units more: the program logs msg
// (unless empty), and its entrypoint logs the error.
func (x *exec) fail(units uint64, msg string, err runtime.InstructionError) error {
	x.add(units)
	if ferr := x.flush(); ferr != nil {
		return ferr
	}
	if msg != "" {
		x.ctx.ProgramLog(msg)
	}
	x.ctx.ProgramLog(errorLog(err))
	return err
}

// abort ends the instruction with an error the runtime raised (an account rule, a failed
// invocation): the program logs nothing.
func (x *exec) abort(units uint64, err error) error {
	x.add(units)
	if ferr := x.flush(); ferr != nil {
		return ferr
	}
	return err
}

// account returns instruction account i, which the caller checked exists.
func (x *exec) account(i int) runtime.BorrowedAccount {
	a, _ := x.ctx.Account(i)
	return a
}

// Execute implements runtime.Program.
func (Program) Execute(ctx *runtime.InvokeContext) error {
	x := &exec{ctx: ctx}
	x.add(entrypointCost(ctx))
	ix, failure, read := decodeInstruction(ctx.Data())
	if failure != dataOK {
		return x.fail(instructionDataCost(failure, read), "", runtime.ErrInvalidInstructionData)
	}
	ctx.ProgramLog("Instruction: " + ix.Kind.String())
	var err error
	switch ix.Kind {
	case KindCreateLookupTable:
		err = x.create(ix.RecentSlot, ix.BumpSeed)
	case KindFreezeLookupTable:
		err = x.freeze()
	case KindExtendLookupTable:
		err = x.extend(ix.NewAddresses)
	case KindDeactivateLookupTable:
		err = x.deactivate()
	case KindCloseLookupTable:
		err = x.close()
	}
	if err != nil {
		return err
	}
	return x.flush()
}

// Messages the program logs.
const (
	msgWrongOwner       = "Lookup table owner should be the Address Lookup Table program"
	msgAuthorityNoSign  = "Authority account must be a signer"
	msgPayerNoSign      = "Payer account must be a signer"
	msgWrongAuthority   = "Incorrect lookup table authority"
	msgFrozen           = "Lookup table is frozen"
	msgAlreadyFrozen    = "Lookup table is already frozen"
	msgDeactivatedFrz   = "Deactivated tables cannot be frozen"
	msgEmptyFrz         = "Empty lookup tables cannot be frozen"
	msgDeactivatedExt   = "Deactivated tables cannot be extended"
	msgFull             = "Lookup table is full and cannot contain more addresses"
	msgNoAddresses      = "Must extend with at least one address"
	msgAlreadyDeact     = "Lookup table is already deactivated"
	msgRecipientIsTable = "Lookup table cannot be the recipient of reclaimed lamports"
	msgNotDeactivated   = "Lookup table is not deactivated"
)

// tableAndAuthority runs the checks every instruction but CreateLookupTable starts with: the
// table belongs to the program, the authority signs, and the table decodes. k gives the costs.
func (x *exec) tableAndAuthority(k *pathCosts) (table, authority runtime.BorrowedAccount, t *Table, err error) {
	if x.ctx.NumAccounts() < 1 {
		return table, authority, nil, x.fail(k.noTable, "", runtime.ErrNotEnoughAccountKeys)
	}
	table = x.account(0)
	if table.Owner() != ProgramID {
		return table, authority, nil, x.fail(k.wrongOwner, msgWrongOwner, runtime.ErrInvalidAccountOwner)
	}
	if x.ctx.NumAccounts() < 2 {
		return table, authority, nil, x.fail(k.noAuthority, "", runtime.ErrNotEnoughAccountKeys)
	}
	authority = x.account(1)
	if !authority.IsSigner() {
		return table, authority, nil, x.fail(k.notSigner, msgAuthorityNoSign, runtime.ErrMissingRequiredSignature)
	}
	if k.recipient {
		// CloseLookupTable takes its recipient before it reads the table.
		if x.ctx.NumAccounts() < 3 {
			return table, authority, nil, x.fail(k.noRecipient, "", runtime.ErrNotEnoughAccountKeys)
		}
		if x.account(2).Key() == table.Key() {
			return table, authority, nil, x.fail(k.recipientIsTable, msgRecipientIsTable, runtime.ErrInvalidArgument)
		}
	}
	t, f := decode(table.Data())
	if f != decodeOK {
		ierr := runtime.ErrInvalidAccountData
		if f == decodeUninitialized {
			ierr = runtime.ErrUninitializedAccount
		}
		return table, authority, nil, x.fail(k.decoded+tableDataCost[f], "", ierr)
	}
	return table, authority, t, nil
}

// checkAuthority fails unless authority may modify t; frozen is the program's message for a
// frozen table.
func (x *exec) checkAuthority(k *pathCosts, t *Table, authority runtime.BorrowedAccount, frozen string) error {
	if t.Meta.Authority == nil {
		return x.fail(k.frozen, frozen, runtime.ErrImmutable)
	}
	if *t.Meta.Authority != authority.Key() {
		return x.fail(k.wrongAuthority, msgWrongAuthority, runtime.ErrIncorrectAuthority)
	}
	return nil
}

func (x *exec) freeze() error {
	k := &freezeCosts
	table, authority, t, err := x.tableAndAuthority(k)
	if err != nil {
		return err
	}
	if err := x.checkAuthority(k, t, authority, msgAlreadyFrozen); err != nil {
		return err
	}
	if t.Meta.DeactivationSlot != Active {
		return x.fail(k.deactivated, msgDeactivatedFrz, runtime.ErrInvalidArgument)
	}
	if len(t.Addresses) == 0 {
		return x.fail(k.empty, msgEmptyFrz, runtime.ErrInvalidInstructionData)
	}
	meta := t.Meta
	meta.Authority = nil
	return x.writeMeta(k.done, table, meta)
}

func (x *exec) deactivate() error {
	k := &deactivateCosts
	table, authority, t, err := x.tableAndAuthority(k)
	if err != nil {
		return err
	}
	if err := x.checkAuthority(k, t, authority, msgFrozen); err != nil {
		return err
	}
	if t.Meta.DeactivationSlot != Active {
		return x.fail(k.deactivated, msgAlreadyDeact, runtime.ErrInvalidArgument)
	}
	meta := t.Meta
	meta.DeactivationSlot = x.ctx.Clock().Slot
	return x.writeMeta(k.done, table, meta)
}

// writeMeta stores meta in table. The on-chain build writes its copy of the account and the
// runtime refuses the change afterwards if the table is read-only.
func (x *exec) writeMeta(units uint64, table runtime.BorrowedAccount, meta Meta) error {
	data, err := table.DataMut()
	if err != nil {
		return x.abort(units, err)
	}
	putMeta(data, meta)
	x.add(units)
	return nil
}

func (x *exec) extend(addresses []core.Pubkey) error {
	k := &extendCosts
	// The instruction's addresses were decoded before any check.
	x.add(extendAddressCost * uint64(len(addresses)))
	table, authority, t, err := x.tableAndAuthority(k)
	if err != nil {
		return err
	}
	if err := x.checkAuthority(k, t, authority, msgFrozen); err != nil {
		return err
	}
	if t.Meta.DeactivationSlot != Active {
		return x.fail(k.deactivated, msgDeactivatedExt, runtime.ErrInvalidArgument)
	}
	old := len(t.Addresses)
	if old >= MaxAddresses {
		return x.fail(k.full, msgFull, runtime.ErrInvalidArgument)
	}
	if len(addresses) == 0 {
		return x.fail(k.noAddresses, msgNoAddresses, runtime.ErrInvalidInstructionData)
	}
	total := old + len(addresses)
	if total > MaxAddresses {
		return x.fail(k.overCapacity+formatCost(uint64(total))+formatCost(MaxAddresses),
			"Extended lookup table length "+strconv.Itoa(total)+" would exceed max capacity of "+strconv.Itoa(MaxAddresses),
			runtime.ErrInvalidInstructionData)
	}
	meta := t.Meta
	if slot := x.ctx.Clock().Slot; slot != meta.LastExtendedSlot {
		meta.LastExtendedSlot = slot
		meta.LastExtendedSlotStartIndex = uint8(old)
		x.add(extendNewSlotCost)
	}
	if !table.IsWritable() {
		return x.fail(k.readonly, "", ReadonlyDataModified.Instruction())
	}
	data := make([]byte, MetaSize+total*core.PubkeyLen)
	copy(data, table.Data())
	putMeta(data, meta)
	for i := range addresses {
		copy(data[MetaSize+(old+i)*core.PubkeyLen:], addresses[i][:])
	}
	if err := table.SetData(data); err != nil {
		return x.abort(k.written, err)
	}
	x.add(k.written + extendCopyCost(len(addresses)))

	required := x.rentShortfall(table, len(data))
	if required == 0 {
		return nil
	}
	if x.ctx.NumAccounts() < 3 {
		return x.fail(extendNoPayerCost, "", runtime.ErrNotEnoughAccountKeys)
	}
	payer := x.account(2)
	if !payer.IsSigner() {
		return x.fail(extendPayerNotSignerCost, msgPayerNoSign, runtime.ErrMissingRequiredSignature)
	}
	if x.ctx.NumAccounts() < 4 {
		return x.fail(extendNoSystemCost, "", runtime.ErrNotEnoughAccountKeys)
	}
	transfer := system.Transfer(payer.Key(), table.Key(), required)
	// The invocation translates both accounts' data, unless the privilege check fails first.
	translate := cpiDataCost(payer) + cpiDataCost(table)
	if !payer.IsWritable() {
		translate = 0
	}
	if err := x.invoke(transfer, nil, extendTransferCost, translate); err != nil {
		return err
	}
	x.add(extendAfterTransferCost)
	return nil
}

// rentShortfall is what table lacks to be rent exempt at dataLen bytes (at least 1 lamport).
func (x *exec) rentShortfall(table runtime.BorrowedAccount, dataLen int) uint64 {
	need := max(x.ctx.Rent().MinimumBalance(uint64(dataLen)), 1)
	if have := table.Lamports(); have < need {
		return need - have
	}
	return 0
}

// invoke charges units, the invocation itself and the account data it translates, then runs ix
// (signed for the table's seeds when given).
func (x *exec) invoke(ix core.Instruction, seeds [][]byte, units, translate uint64) error {
	x.add(units + runtime.InvokeUnits + translate)
	if !x.hasAccount(ix.ProgramID) {
		x.add(unknownProgramCost)
	}
	if err := x.flush(); err != nil {
		return err
	}
	var signers [][][]byte
	if seeds != nil {
		signers = [][][]byte{seeds}
	}
	return x.ctx.Invoke(ix, signers)
}

func (x *exec) hasAccount(k core.Pubkey) bool {
	for i := range x.ctx.NumAccounts() {
		if key, _ := x.ctx.Key(i); key == k {
			return true
		}
	}
	return false
}

func (x *exec) close() error {
	k := &closeCosts
	table, authority, t, err := x.tableAndAuthority(k)
	if err != nil {
		return err
	}
	if err := x.checkAuthority(k, t, authority, msgFrozen); err != nil {
		return err
	}
	slot := x.ctx.Clock().Slot
	switch deact := t.Meta.DeactivationSlot; {
	case deact == Active:
		return x.fail(k.active, msgNotDeactivated, runtime.ErrInvalidArgument)
	case deact == slot:
		return x.fail(closeDeactivatingNowCost+formatCost(slotHashesMaxEntries+1),
			coolingDown(slotHashesMaxEntries+1), runtime.ErrInvalidArgument)
	default:
		hashes, err := x.slotHashes()
		if err != nil {
			return x.fail(0, "", err.(runtime.InstructionError))
		}
		pos, found, left, right := hashes.search(deact)
		x.add(uint64(left)*closeSearchLeftCost + uint64(right)*closeSearchRightCost)
		if found {
			remaining := uint64(slotHashesMaxEntries - pos)
			return x.fail(closeDeactivatingCost+formatCost(remaining), coolingDown(remaining), runtime.ErrInvalidArgument)
		}
	}
	recipient := x.account(2)
	total := table.Lamports() + recipient.Lamports()
	if total < table.Lamports() {
		return x.fail(closeOverflowCost, "", runtime.ErrArithmeticOverflow)
	}
	if !recipient.IsWritable() {
		return x.fail(closeRecipientReadonlyCost, "", ReadonlyLamportsChanged.Instruction())
	}
	if !table.IsWritable() {
		return x.fail(closeTableReadonlyCost, "", ReadonlyDataModified.Instruction())
	}
	x.add(closeDoneCost)
	if err := recipient.SetLamports(total); err != nil {
		return x.abort(0, err)
	}
	if err := table.SetDataLength(0); err != nil {
		return x.abort(0, err)
	}
	if err := table.SetLamports(0); err != nil {
		return x.abort(0, err)
	}
	return nil
}

func coolingDown(blocks uint64) string {
	return "Table cannot be closed until it's fully deactivated in " + strconv.FormatUint(blocks, 10) + " blocks"
}

// slotHashes reads SlotHashes as the program does (UnsupportedSysvar when the bank has none).
func (x *exec) slotHashes() (*programSlotHashes, error) {
	data, err := x.ctx.Sysvar(core.SysvarSlotHashesID)
	if err != nil {
		return nil, err
	}
	return readProgramSlotHashes(data), nil
}

func (x *exec) create(recentSlot uint64, bump uint8) error {
	n := x.ctx.NumAccounts()
	if n < 3 {
		return x.fail(createFewAccountsCost[n], "", runtime.ErrNotEnoughAccountKeys)
	}
	table, authority, payer := x.account(0), x.account(1), x.account(2)
	if !payer.IsSigner() {
		return x.fail(createPayerNotSignerCost, msgPayerNoSign, runtime.ErrMissingRequiredSignature)
	}
	hashes, err := x.slotHashes()
	if err != nil {
		return x.fail(0, "", err.(runtime.InstructionError))
	}
	_, found, left, right := hashes.search(recentSlot)
	x.add(uint64(left)*createSearchLeftCost + uint64(right)*createSearchRightCost)
	if !found {
		return x.fail(createNotRecentCost+formatCost(recentSlot),
			strconv.FormatUint(recentSlot, 10)+" is not a recent slot", runtime.ErrInvalidInstructionData)
	}
	auth := authority.Key()
	seeds := [][]byte{auth[:], binary.LittleEndian.AppendUint64(nil, recentSlot), {bump}}
	derived, err := core.CreateProgramAddress(seeds, ProgramID)
	if err != nil {
		// The seeds are within the limits, so the hash fell on the curve.
		return x.fail(createBadSeedsCost, "", PubkeyErrorInvalidSeeds.Instruction())
	}
	if table.Key() != derived {
		return x.fail(uint64(createWrongAddressCost+base58Cost(derived)),
			"Table address must match derived address: "+derived.String(), runtime.ErrInvalidArgument)
	}
	if table.Owner() == ProgramID {
		// Created already (the reference's answer to a retried creation).
		x.add(createExistsCost)
		return nil
	}
	x.add(createRentCost)
	if required := x.rentShortfall(table, MetaSize); required > 0 {
		if err := x.invoke(system.Transfer(payer.Key(), table.Key(), required), nil, createTransferCost, 0); err != nil {
			return err
		}
		x.add(createAfterTransferCost)
	}
	if n < 4 {
		return x.fail(0, "", runtime.ErrNotEnoughAccountKeys) // counted in createRentCost
	}
	if err := x.invoke(system.Allocate(table.Key(), MetaSize), seeds, createAllocateCost, 0); err != nil {
		return err
	}
	if err := x.invoke(system.Assign(table.Key(), ProgramID), seeds, createAssignCost, 0); err != nil {
		return err
	}
	data, err := table.DataMut()
	if err != nil {
		return x.abort(createDoneCost, err)
	}
	putMeta(data, NewMeta(auth))
	x.add(createDoneCost)
	return nil
}
