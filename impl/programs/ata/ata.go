// Package ata runs the Associated Token Account program
// (ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL) natively, as an on-chain program of the
// runtime, behaving as its current on-chain build (solana-program/associated-token-account):
//
//   - Create (empty data or 0), CreateIdempotent (1) and RecoverNested (2); any other data is
//     InvalidInstructionData;
//   - addresses derived from [wallet, token program, mint] under the program id, and a
//     mismatch is InvalidSeeds after "Error: ... does not match seed derivation";
//   - the account is made through the system program (CreateAccount, or Transfer when short
//     of rent plus Allocate and Assign when it already holds lamports) signed with the derived
//     address's seeds, then initialized through the token program given (GetAccountDataSize
//     for its size, InitializeImmutableOwner, InitializeAccount3): all cross-program
//     invocations, so the runtime records them as inner instructions;
//   - its own error, InvalidOwner (custom 0), and the checks and log lines of each step.
//
// The program has no state of its own. Compute units follow a model of the on-chain build
// (compute.go).
package ata

import (
	"encoding/binary"
	"errors"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/programs/token"
	"ledgerd/impl/runtime"
)

// ProgramID is the program's address.
var ProgramID = core.AssociatedTokenProgramID

// Program is the Associated Token Account program.
type Program struct{}

// Module is the associated token account program as the node assembles it: an on-chain
// program (owned by BPF loader 2 on mainnet) run natively.
var Module = runtime.Module{
	ID:               ProgramID,
	Name:             "spl-associated-token-account",
	Kind:             runtime.OnChain,
	Program:          Program{},
	Genesis:          runtime.Deployment{Loader: core.BPFLoaderProgramID, Data: "spl_associated_token_account-1.1.1 (native)"},
	ParseInstruction: &runtime.InstructionParser{Program: "spl-associated-token-account", Parse: parseAssociatedToken},
}

// ErrInvalidOwner is the program's only error (AssociatedTokenAccountError::InvalidOwner):
// an account at a derived address belongs to another wallet.
var ErrInvalidOwner = runtime.CustomError(0)

// invalidOwnerText is InvalidOwner's Display text, which the program logs.
const invalidOwnerText = "Associated token account owner does not match address derivation"

// Execute implements runtime.Program.
func (Program) Execute(ctx *runtime.InvokeContext) error {
	x := &exec{ctx: ctx}
	err := x.run()
	// Units not yet charged are charged whatever happened; a failure of the compute meter
	// wins, as the VM stops there.
	if ferr := x.flush(); ferr != nil {
		return ferr
	}
	return err
}

// exec is one execution: the compute units the on-chain build would have used so far and
// not charged yet (they are charged before each invocation and at the end).
type exec struct {
	ctx     *runtime.InvokeContext
	pending uint64
}

func (x *exec) add(u uint64) { x.pending += u }

func (x *exec) flush() error {
	u := x.pending
	x.pending = 0
	return x.ctx.Consume(u)
}

// invoke charges the pending units and runs ix, signed by the derived address of seeds when
// given.
func (x *exec) invoke(ix core.Instruction, seeds [][]byte) error {
	if err := x.flush(); err != nil {
		return err
	}
	var signers [][][]byte
	if seeds != nil {
		signers = [][][]byte{seeds}
	}
	return x.ctx.Invoke(ix, signers)
}

func (x *exec) run() error {
	kind, err := Decode(x.ctx.Data())
	switch {
	case errors.Is(err, ErrUnknownVariant):
		x.add(unitsUnknownVariant)
		return runtime.ErrInvalidInstructionData
	case err != nil:
		x.add(unitsTrailingData)
		return runtime.ErrInvalidInstructionData
	}
	x.ctx.ProgramLog(kind.String())
	if len(x.ctx.Data()) == 0 {
		x.add(unitsStart - unitsEmptyData)
	} else {
		x.add(unitsStart)
	}
	if kind == KindRecoverNested {
		return x.recoverNested()
	}
	return x.create(kind == KindCreateIdempotent)
}

// account returns instruction account i; a missing one is NotEnoughAccountKeys, as
// next_account_info reports it.
func (x *exec) account(i int) (runtime.BorrowedAccount, error) {
	a, err := x.ctx.Account(i)
	if err != nil {
		return a, runtime.ErrNotEnoughAccountKeys
	}
	return a, nil
}

func (x *exec) accounts(n int) ([]runtime.BorrowedAccount, error) {
	out := make([]runtime.BorrowedAccount, n)
	for i := range out {
		a, err := x.account(i)
		if err != nil {
			return nil, err
		}
		out[i] = a
	}
	return out, nil
}

// derive finds the associated token account of wallet for mint under tokenProgram, charging
// work units and 1,500 for every bump tried.
func (x *exec) derive(wallet, mint, tokenProgram core.Pubkey, work uint64) (core.Pubkey, uint8, error) {
	addr, bump, err := core.FindProgramAddress([][]byte{wallet[:], tokenProgram[:], mint[:]}, ProgramID)
	if err != nil {
		// find_program_address panics when no bump works.
		x.add(work + 255*unitsPerBump)
		return core.Pubkey{}, 0, runtime.ErrProgramFailedToComplete
	}
	x.add(work + uint64(256-int(bump))*unitsPerBump)
	return addr, bump, nil
}

// checkDerived fails with InvalidSeeds, after msg, when key is not want.
func (x *exec) checkDerived(key, want core.Pubkey, msg string) error {
	if key == want {
		return nil
	}
	x.add(unitsSeedsMismatch)
	x.ctx.ProgramLog(msg)
	return runtime.ErrInvalidSeeds
}

// Create's accounts.
const (
	createFunder = iota
	createAccount
	createWallet
	createMint
	createSystemProgram
	createTokenProgram
	numCreateAccounts
)

func (x *exec) create(idempotent bool) error {
	accts, err := x.accounts(numCreateAccounts)
	if err != nil {
		return err
	}
	funder, ata, wallet, mint := accts[createFunder].Key(), accts[createAccount], accts[createWallet].Key(), accts[createMint].Key()
	tokenProgram := accts[createTokenProgram].Key()
	is2022 := tokenProgram == token.Program2022ID

	addr, bump, err := x.derive(wallet, mint, tokenProgram, unitsDerive)
	if err != nil {
		return err
	}
	if err := x.checkDerived(ata.Key(), addr, "Error: Associated address does not match seed derivation"); err != nil {
		return err
	}

	if idempotent && ata.Owner() == tokenProgram {
		if acct, err := unpackAccount(ata.Data()); err == nil {
			x.add(units(is2022, unitsIdempotentExisting, unitsIdempotentExisting2022))
			if acct.Owner != wallet {
				x.add(unitsInvalidOwnerLog)
				x.ctx.ProgramLog(invalidOwnerText)
				return ErrInvalidOwner
			}
			if acct.Mint != mint {
				x.add(unitsInvalidMint)
				return runtime.ErrInvalidAccountData
			}
			return nil
		}
		x.add(unitsIdempotentNotAccount)
	}
	x.add(unitsIllegalOwner)
	if ata.Owner() != core.SystemProgramID {
		return runtime.ErrIllegalOwner
	}

	seeds := [][]byte{wallet[:], tokenProgram[:], mint[:], {bump}}

	// The account's size, as the token program computes it for the mint with ImmutableOwner.
	x.add(units(is2022, unitsGetAccountLen, unitsGetAccountLen2022))
	if !token.IsProgramID(tokenProgram) {
		return runtime.ErrIncorrectProgramID // the instruction builder's check
	}
	if err := x.invoke(token.GetAccountDataSize(tokenProgram, mint, token.ExtImmutableOwner), nil); err != nil {
		return err
	}
	from, ret := x.ctx.ReturnData()
	if len(ret) == 0 {
		return runtime.ErrInvalidInstructionData
	}
	if from != tokenProgram {
		return runtime.ErrIncorrectProgramID
	}
	if len(ret) != 8 {
		return runtime.ErrInvalidInstructionData
	}
	space := binary.LittleEndian.Uint64(ret)

	if err := x.createPDA(funder, ata, space, tokenProgram, seeds); err != nil {
		return err
	}

	x.ctx.ProgramLog("Initialize the associated token account")
	x.add(units(is2022, unitsImmutableOwner, unitsImmutableOwner2022))
	if err := x.invoke(token.InitializeImmutableOwner(tokenProgram, ata.Key()), nil); err != nil {
		return err
	}
	x.add(units(is2022, unitsInitializeAccount, unitsInitializeAccount2022))
	return x.invoke(token.InitializeAccount3(tokenProgram, ata.Key(), mint, wallet), nil)
}

// createPDA makes the derived account hold space bytes owned by owner, rent exempt: created
// by the system program when it holds nothing, else topped up, allocated and assigned (anyone
// may send lamports to an address before it is created).
func (x *exec) createPDA(funder core.Pubkey, acct runtime.BorrowedAccount, space uint64, owner core.Pubkey, seeds [][]byte) error {
	rent := x.ctx.Rent()
	need := max(rent.MinimumBalance(space), 1)
	key := acct.Key()
	if acct.Lamports() == 0 {
		x.add(unitsCreateAccount)
		return x.invoke(system.CreateAccount(funder, key, need, space, owner), seeds)
	}
	if need > acct.Lamports() {
		x.add(unitsTopUp)
		if err := x.invoke(system.Transfer(funder, key, need-acct.Lamports()), nil); err != nil {
			return err
		}
	}
	x.add(unitsAllocateAssign)
	if err := x.invoke(system.Allocate(key, space), seeds); err != nil {
		return err
	}
	return x.invoke(system.Assign(key, owner), seeds)
}

// RecoverNested's accounts.
const (
	nestedAccount = iota
	nestedMint
	nestedDestination
	nestedOwnerAccount
	nestedOwnerMint
	nestedWallet
	nestedTokenProgram
	numNestedAccounts
)

func (x *exec) recoverNested() error {
	accts, err := x.accounts(numNestedAccounts)
	if err != nil {
		return err
	}
	nested, nestedMintAcct, dest := accts[nestedAccount], accts[nestedMint], accts[nestedDestination]
	ownerATA, ownerMint, wallet := accts[nestedOwnerAccount], accts[nestedOwnerMint], accts[nestedWallet]
	tokenProgram := accts[nestedTokenProgram].Key()
	is2022 := tokenProgram == token.Program2022ID

	ownerAddr, bump, err := x.derive(wallet.Key(), ownerMint.Key(), tokenProgram, unitsDeriveNested)
	if err != nil {
		return err
	}
	if err := x.checkDerived(ownerATA.Key(), ownerAddr, "Error: Owner associated address does not match seed derivation"); err != nil {
		return err
	}
	nestedAddr, _, err := x.derive(ownerATA.Key(), nestedMintAcct.Key(), tokenProgram, unitsDeriveNested)
	if err != nil {
		return err
	}
	if err := x.checkDerived(nested.Key(), nestedAddr, "Error: Nested associated address does not match seed derivation"); err != nil {
		return err
	}
	destAddr, _, err := x.derive(wallet.Key(), nestedMintAcct.Key(), tokenProgram, unitsDeriveNested)
	if err != nil {
		return err
	}
	if err := x.checkDerived(dest.Key(), destAddr, "Error: Destination associated address does not match seed derivation"); err != nil {
		return err
	}

	if !wallet.IsSigner() {
		return x.failCheck("Wallet of the owner associated token account must sign", runtime.ErrMissingRequiredSignature)
	}
	x.add(unitsCheckOwnerMint)
	if ownerMint.Owner() != tokenProgram {
		return x.failCheck("Owner mint not owned by provided token program", runtime.ErrIllegalOwner)
	}

	x.add(unitsUnpackAccount)
	if ownerATA.Owner() != tokenProgram {
		return x.failCheck("Owner associated token account not owned by provided token program, recreate the owner associated token account first", runtime.ErrIllegalOwner)
	}
	ownerState, err := unpackAccount(ownerATA.Data())
	if err != nil {
		return err
	}
	if ownerState.Owner != wallet.Key() {
		return x.failCheck("Owner associated token account not owned by provided wallet", ErrInvalidOwner)
	}

	x.add(unitsUnpackAccount)
	if nested.Owner() != tokenProgram {
		return x.failCheck("Nested associated token account not owned by provided token program", runtime.ErrIllegalOwner)
	}
	nestedState, err := unpackAccount(nested.Data())
	if err != nil {
		return err
	}
	if nestedState.Owner != ownerATA.Key() {
		return x.failCheck("Nested associated token account not owned by provided associated token account", ErrInvalidOwner)
	}

	x.add(unitsUnpackMint)
	if nestedMintAcct.Owner() != tokenProgram {
		return x.failCheck("Nested mint account not owned by provided token program", runtime.ErrIllegalOwner)
	}
	mintState, err := unpackMint(nestedMintAcct.Data())
	if err != nil {
		return err
	}

	walletKey, ownerMintKey := wallet.Key(), ownerMint.Key()
	seeds := [][]byte{walletKey[:], tokenProgram[:], ownerMintKey[:], {bump}}
	x.add(units(is2022, unitsTransfer, unitsTransfer2022))
	if !token.IsProgramID(tokenProgram) {
		return runtime.ErrIncorrectProgramID // the instruction builder's check
	}
	transfer := token.TransferChecked(tokenProgram, nested.Key(), nestedMintAcct.Key(), dest.Key(), ownerATA.Key(), nil,
		nestedState.Amount, mintState.Decimals)
	if err := x.invoke(transfer, seeds); err != nil {
		return err
	}
	x.add(units(is2022, unitsCloseNested, unitsCloseNested2022))
	return x.invoke(token.CloseAccount(tokenProgram, nested.Key(), wallet.Key(), ownerATA.Key(), nil), seeds)
}

// failCheck ends RecoverNested at a failed check, which the program explains in the log.
func (x *exec) failCheck(msg string, err runtime.InstructionError) error {
	x.add(unitsCheckFailedLog)
	x.ctx.ProgramLog(msg)
	return err
}

// unpackAccount and unpackMint are StateWithExtensions::unpack of either token program's
// account and mint: the length (at least the base, never a multisig's), then the base with the
// strict Pack rules and its initialized flag, then the extensions.
func unpackAccount(data []byte) (token.Account, error) {
	if len(data) < token.AccountSize || len(data) == token.MultisigSize {
		return token.Account{}, runtime.ErrInvalidAccountData
	}
	if _, err := token.UnpackAccount(data[:token.AccountSize]); err != nil {
		return token.Account{}, err
	}
	return token.UnpackAccount(data)
}

func unpackMint(data []byte) (token.Mint, error) {
	if len(data) < token.MintSize || len(data) == token.MultisigSize {
		return token.Mint{}, runtime.ErrInvalidAccountData
	}
	if _, err := token.UnpackMint(data[:token.MintSize]); err != nil {
		return token.Mint{}, err
	}
	return token.UnpackMint(data)
}
