// Package system is the native system program (11111111111111111111111111111111): creating,
// funding, allocating and assigning accounts, with or without derived addresses, and durable
// transaction nonces. It follows the reference's system_processor: the same bincode
// instructions, checks in the same order, SystemError codes and log lines (written without the
// "Program log: " prefix, as builtins do), and 150 compute units per instruction.
package system

import (
	"errors"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/runtime/nonce"
)

// ProgramID is the system program's address.
var ProgramID = core.SystemProgramID

// DefaultComputeUnits is what every system instruction costs.
const DefaultComputeUnits = 150

// MaxPermittedDataLength is the largest account the system program allocates (10 MiB).
const MaxPermittedDataLength = runtime.MaxPermittedDataLength

// NonceAccountSize is the data length of a nonce account.
const NonceAccountSize = nonce.Size

// Program is the system program.
type Program struct{}

// Module is the system program as the node assembles it.
var Module = runtime.Module{
	ID:      ProgramID,
	Name:    "system",
	Kind:    runtime.Builtin,
	Program: Program{},
	Genesis: runtime.Deployment{Loader: core.NativeLoaderProgramID, Data: "system_program"},
	// The system program's accounts show as nonce accounts when they hold one.
	ParseAccount:     &runtime.AccountParser{Program: "nonce", Parse: parseNonce},
	ParseInstruction: &runtime.InstructionParser{Program: "system", Parse: parseSystem},
}

// address is an account address, possibly derived from a base with a seed; the base must
// sign in place of the address. Its Debug form appears in log lines.
type address struct {
	address core.Pubkey
	base    *core.Pubkey
}

func (a address) debug() string {
	base := "None"
	if a.base != nil {
		base = "Some(" + a.base.String() + ")"
	}
	return "Address { address: " + a.address.String() + ", base: " + base + " }"
}

func (a address) isSigner(ctx *runtime.InvokeContext) bool {
	if a.base != nil {
		return ctx.IsSignerKey(*a.base)
	}
	return ctx.IsSignerKey(a.address)
}

// newAddress re-derives a seeded address and checks that it matches.
func newAddress(ctx *runtime.InvokeContext, addr core.Pubkey, seeded bool, base core.Pubkey, seed string, owner core.Pubkey) (address, error) {
	if !seeded {
		return address{address: addr}, nil
	}
	derived, err := createWithSeed(base, seed, owner)
	if err != nil {
		return address{}, err
	}
	if derived != addr {
		ctx.Logf("Create: address %s does not match derived address %s", addr, derived)
		return address{}, AddressWithSeedMismatch.Instruction()
	}
	return address{address: addr, base: &base}, nil
}

// createWithSeed derives a seeded address, mapping errors as the reference's
// From<PubkeyError> for InstructionError does.
func createWithSeed(base core.Pubkey, seed string, owner core.Pubkey) (core.Pubkey, error) {
	k, err := core.CreateWithSeed(base, seed, owner)
	switch {
	case err == nil:
		return k, nil
	case errors.Is(err, core.ErrMaxSeedLengthExceeded):
		return k, runtime.ErrMaxSeedLengthExceeded
	case errors.Is(err, core.ErrIllegalOwner):
		return k, runtime.ErrIllegalOwner
	}
	return k, runtime.ErrInvalidSeeds
}

// Execute implements runtime.Program.
func (Program) Execute(ctx *runtime.InvokeContext) error {
	if err := ctx.Consume(DefaultComputeUnits); err != nil {
		return err
	}
	ix, err := Decode(ctx.Data())
	if err != nil {
		return runtime.ErrInvalidInstructionData
	}
	switch ix.Kind {
	case KindCreateAccount, KindCreateAccountWithSeed:
		if err := ctx.CheckNumAccounts(2); err != nil {
			return err
		}
		key, _ := ctx.Key(1)
		to, err := newAddress(ctx, key, ix.Kind == KindCreateAccountWithSeed, ix.Base, ix.Seed, ix.Owner)
		if err != nil {
			return err
		}
		return createAccount(ctx, 0, 1, to, ix.Lamports, ix.Space, ix.Owner)

	case KindAssign, KindAssignWithSeed:
		if err := ctx.CheckNumAccounts(1); err != nil {
			return err
		}
		acct, _ := ctx.Account(0)
		addr, err := newAddress(ctx, acct.Key(), ix.Kind == KindAssignWithSeed, ix.Base, ix.Seed, ix.Owner)
		if err != nil {
			return err
		}
		return assign(ctx, acct, addr, ix.Owner)

	case KindTransfer:
		if err := ctx.CheckNumAccounts(2); err != nil {
			return err
		}
		return transfer(ctx, 0, 1, ix.Lamports)

	case KindTransferWithSeed:
		if err := ctx.CheckNumAccounts(3); err != nil {
			return err
		}
		return transferWithSeed(ctx, ix.Seed, ix.Owner, ix.Lamports)

	case KindAdvanceNonceAccount:
		if err := ctx.CheckNumAccounts(1); err != nil {
			return err
		}
		if err := ctx.CheckSysvarAccount(1, core.SysvarRecentBlockhashesID); err != nil {
			return err
		}
		if len(ctx.RecentBlockhashes()) == 0 {
			ctx.Log("Advance nonce account: recent blockhash list is empty")
			return NonceNoRecentBlockhashes.Instruction()
		}
		acct, _ := ctx.Account(0)
		return advanceNonceAccount(ctx, acct)

	case KindWithdrawNonceAccount:
		if err := ctx.CheckNumAccounts(2); err != nil {
			return err
		}
		if err := ctx.CheckSysvarAccount(2, core.SysvarRecentBlockhashesID); err != nil {
			return err
		}
		if err := ctx.CheckSysvarAccount(3, core.SysvarRentID); err != nil {
			return err
		}
		return withdrawNonceAccount(ctx, ix.Lamports)

	case KindInitializeNonceAccount:
		if err := ctx.CheckNumAccounts(1); err != nil {
			return err
		}
		if err := ctx.CheckSysvarAccount(1, core.SysvarRecentBlockhashesID); err != nil {
			return err
		}
		if len(ctx.RecentBlockhashes()) == 0 {
			ctx.Log("Initialize nonce account: recent blockhash list is empty")
			return NonceNoRecentBlockhashes.Instruction()
		}
		if err := ctx.CheckSysvarAccount(2, core.SysvarRentID); err != nil {
			return err
		}
		acct, _ := ctx.Account(0)
		return initializeNonceAccount(ctx, acct, ix.Authority)

	case KindAuthorizeNonceAccount:
		if err := ctx.CheckNumAccounts(1); err != nil {
			return err
		}
		acct, _ := ctx.Account(0)
		return authorizeNonceAccount(ctx, acct, ix.Authority)

	case KindUpgradeNonceAccount:
		if err := ctx.CheckNumAccounts(1); err != nil {
			return err
		}
		acct, _ := ctx.Account(0)
		if acct.Owner() != core.SystemProgramID {
			return runtime.ErrInvalidAccountOwner
		}
		if !acct.IsWritable() {
			return runtime.ErrInvalidArgument
		}
		state, err := nonce.Decode(acct.Data())
		if err != nil {
			return runtime.ErrInvalidAccountData
		}
		upgraded, ok := state.Upgrade()
		if !ok {
			return runtime.ErrInvalidArgument
		}
		return setState(acct, upgraded)

	case KindAllocate, KindAllocateWithSeed:
		if err := ctx.CheckNumAccounts(1); err != nil {
			return err
		}
		acct, _ := ctx.Account(0)
		addr, err := newAddress(ctx, acct.Key(), ix.Kind == KindAllocateWithSeed, ix.Base, ix.Seed, ix.Owner)
		if err != nil {
			return err
		}
		if ix.Kind == KindAllocate {
			return allocate(ctx, acct, addr, ix.Space)
		}
		return allocateAndAssign(ctx, acct, addr, ix.Space, ix.Owner)

	case KindCreateAccountAllowPrefund:
		if !ctx.Features().CreateAccountAllowPrefund {
			return runtime.ErrInvalidInstructionData
		}
		n := 1
		if ix.Lamports > 0 {
			n = 2
		}
		if err := ctx.CheckNumAccounts(n); err != nil {
			return err
		}
		to, _ := ctx.Account(0)
		if err := allocateAndAssign(ctx, to, address{address: to.Key()}, ix.Space, ix.Owner); err != nil {
			return err
		}
		if ix.Lamports > 0 {
			return transfer(ctx, 1, 0, ix.Lamports)
		}
		return nil
	}
	return runtime.ErrInvalidInstructionData
}

func allocate(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, addr address, space uint64) error {
	if !addr.isSigner(ctx) {
		ctx.Logf("Allocate: 'to' account %s must sign", addr.debug())
		return runtime.ErrMissingRequiredSignature
	}
	if len(acct.Data()) != 0 || acct.Owner() != core.SystemProgramID {
		ctx.Logf("Allocate: account %s already in use", addr.debug())
		return AccountAlreadyInUse.Instruction()
	}
	if space > MaxPermittedDataLength {
		ctx.Logf("Allocate: requested %d, max allowed %d", space, MaxPermittedDataLength)
		return InvalidAccountDataLength.Instruction()
	}
	return acct.SetDataLength(int(space))
}

func assign(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, addr address, owner core.Pubkey) error {
	if acct.Owner() == owner {
		return nil
	}
	if !addr.isSigner(ctx) {
		ctx.Logf("Assign: account %s must sign", addr.debug())
		return runtime.ErrMissingRequiredSignature
	}
	return acct.SetOwner(owner)
}

func allocateAndAssign(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, addr address, space uint64, owner core.Pubkey) error {
	if err := allocate(ctx, acct, addr, space); err != nil {
		return err
	}
	return assign(ctx, acct, addr, owner)
}

func createAccount(ctx *runtime.InvokeContext, from, to int, toAddr address, lamports, space uint64, owner core.Pubkey) error {
	acct, err := ctx.Account(to)
	if err != nil {
		return err
	}
	if acct.Lamports() > 0 {
		ctx.Logf("Create Account: account %s already in use", toAddr.debug())
		return AccountAlreadyInUse.Instruction()
	}
	if err := allocateAndAssign(ctx, acct, toAddr, space, owner); err != nil {
		return err
	}
	return transfer(ctx, from, to, lamports)
}

func transfer(ctx *runtime.InvokeContext, from, to int, lamports uint64) error {
	signer, err := ctx.IsSigner(from)
	if err != nil {
		return err
	}
	if !signer {
		key, _ := ctx.Key(from)
		ctx.Logf("Transfer: `from` account %s must sign", key)
		return runtime.ErrMissingRequiredSignature
	}
	return transferVerified(ctx, from, to, lamports)
}

func transferVerified(ctx *runtime.InvokeContext, from, to int, lamports uint64) error {
	src, err := ctx.Account(from)
	if err != nil {
		return err
	}
	if len(src.Data()) != 0 {
		ctx.Log("Transfer: `from` must not carry data")
		return runtime.ErrInvalidArgument
	}
	if lamports > src.Lamports() {
		ctx.Logf("Transfer: insufficient lamports %d, need %d", src.Lamports(), lamports)
		return ResultWithNegativeLamports.Instruction()
	}
	if err := src.CheckedSubLamports(lamports); err != nil {
		return err
	}
	dst, err := ctx.Account(to)
	if err != nil {
		return err
	}
	return dst.CheckedAddLamports(lamports)
}

func transferWithSeed(ctx *runtime.InvokeContext, fromSeed string, fromOwner core.Pubkey, lamports uint64) error {
	base, _ := ctx.Key(1)
	if signer, _ := ctx.IsSigner(1); !signer {
		ctx.Logf("Transfer: 'from' account %s must sign", base)
		return runtime.ErrMissingRequiredSignature
	}
	derived, err := createWithSeed(base, fromSeed, fromOwner)
	if err != nil {
		return err
	}
	from, _ := ctx.Key(0)
	if from != derived {
		ctx.Logf("Transfer: 'from' address %s does not match derived address %s", from, derived)
		return AddressWithSeedMismatch.Instruction()
	}
	return transferVerified(ctx, 0, 2, lamports)
}

// setState writes nonce state into the account, which must be writable by the system program
// and large enough (the reference's BorrowedAccount::set_state).
func setState(acct runtime.BorrowedAccount, v nonce.Versions) error {
	data, err := acct.DataMut()
	if err != nil {
		return err
	}
	if v.SerializedSize() > len(data) {
		return runtime.ErrAccountDataTooSmall
	}
	v.EncodeInto(data)
	return nil
}

func advanceNonceAccount(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount) error {
	if !acct.IsWritable() {
		ctx.Logf("Advance nonce account: Account %s must be writeable", acct.Key())
		return runtime.ErrInvalidArgument
	}
	state, err := nonce.Decode(acct.Data())
	if err != nil {
		return runtime.ErrInvalidAccountData
	}
	if !state.Initialized {
		ctx.Logf("Advance nonce account: Account %s state is invalid", acct.Key())
		return runtime.ErrInvalidAccountData
	}
	if !ctx.IsSignerKey(state.Data.Authority) {
		ctx.Logf("Advance nonce account: Account %s must be a signer", state.Data.Authority)
		return runtime.ErrMissingRequiredSignature
	}
	next := nonce.DurableNonceFromBlockhash(ctx.Blockhash())
	if state.Data.DurableNonce == next {
		ctx.Log("Advance nonce account: nonce can only advance once per slot")
		return NonceBlockhashNotExpired.Instruction()
	}
	return setState(acct, nonce.NewInitialized(state.Data.Authority, next, ctx.LamportsPerSignature()))
}

func withdrawNonceAccount(ctx *runtime.InvokeContext, lamports uint64) error {
	from, _ := ctx.Account(0)
	if !from.IsWritable() {
		ctx.Logf("Withdraw nonce account: Account %s must be writeable", from.Key())
		return runtime.ErrInvalidArgument
	}
	state, err := nonce.Decode(from.Data())
	if err != nil {
		return runtime.ErrInvalidAccountData
	}
	var signer core.Pubkey
	if !state.Initialized {
		if lamports > from.Lamports() {
			ctx.Logf("Withdraw nonce account: insufficient lamports %d, need %d", from.Lamports(), lamports)
			return runtime.ErrInsufficientFunds
		}
		signer = from.Key()
	} else {
		if lamports == from.Lamports() {
			if state.Data.DurableNonce == nonce.DurableNonceFromBlockhash(ctx.Blockhash()) {
				ctx.Log("Withdraw nonce account: nonce can only advance once per slot")
				return NonceBlockhashNotExpired.Instruction()
			}
			if err := setState(from, nonce.Versions{Version: nonce.Current}); err != nil {
				return err
			}
		} else {
			minBalance := ctx.Rent().MinimumBalance(uint64(len(from.Data())))
			amount := lamports + minBalance
			if amount < lamports {
				return runtime.ErrInsufficientFunds
			}
			if amount > from.Lamports() {
				ctx.Logf("Withdraw nonce account: insufficient lamports %d, need %d", from.Lamports(), amount)
				return runtime.ErrInsufficientFunds
			}
		}
		signer = state.Data.Authority
	}
	if !ctx.IsSignerKey(signer) {
		ctx.Logf("Withdraw nonce account: Account %s must sign", signer)
		return runtime.ErrMissingRequiredSignature
	}
	if err := from.CheckedSubLamports(lamports); err != nil {
		return err
	}
	to, err := ctx.Account(1)
	if err != nil {
		return err
	}
	return to.CheckedAddLamports(lamports)
}

func initializeNonceAccount(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, authority core.Pubkey) error {
	if !acct.IsWritable() {
		ctx.Logf("Initialize nonce account: Account %s must be writeable", acct.Key())
		return runtime.ErrInvalidArgument
	}
	state, err := nonce.Decode(acct.Data())
	if err != nil {
		return runtime.ErrInvalidAccountData
	}
	if state.Initialized {
		ctx.Logf("Initialize nonce account: Account %s state is invalid", acct.Key())
		return runtime.ErrInvalidAccountData
	}
	minBalance := ctx.Rent().MinimumBalance(uint64(len(acct.Data())))
	if acct.Lamports() < minBalance {
		ctx.Logf("Initialize nonce account: insufficient lamports %d, need %d", acct.Lamports(), minBalance)
		return runtime.ErrInsufficientFunds
	}
	durable := nonce.DurableNonceFromBlockhash(ctx.Blockhash())
	return setState(acct, nonce.NewInitialized(authority, durable, ctx.LamportsPerSignature()))
}

func authorizeNonceAccount(ctx *runtime.InvokeContext, acct runtime.BorrowedAccount, newAuthority core.Pubkey) error {
	if !acct.IsWritable() {
		ctx.Logf("Authorize nonce account: Account %s must be writeable", acct.Key())
		return runtime.ErrInvalidArgument
	}
	state, err := nonce.Decode(acct.Data())
	if err != nil {
		return runtime.ErrInvalidAccountData
	}
	if !state.Initialized {
		ctx.Logf("Authorize nonce account: Account %s state is invalid", acct.Key())
		return runtime.ErrInvalidAccountData
	}
	if !ctx.IsSignerKey(state.Data.Authority) {
		ctx.Logf("Authorize nonce account: Account %s must sign", state.Data.Authority)
		return runtime.ErrMissingRequiredSignature
	}
	state.Data.Authority = newAuthority
	return setState(acct, state)
}
