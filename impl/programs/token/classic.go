package token

import (
	"encoding/binary"

	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
)

// processClassic is SPL Token's Processor::process: the instruction is decoded first (any
// malformed data is InvalidInstruction, before any log line), then the program logs
// "Instruction: <Name>" and runs it.
func (e *exec) processClassic() error {
	ix, err := decode(e.ctx.Data(), true)
	if err != nil {
		return err
	}
	e.ctx.ProgramLog("Instruction: " + ix.Kind.String())
	switch ix.Kind {
	case KindInitializeMint:
		return e.classicInitializeMint(&ix, true)
	case KindInitializeMint2:
		return e.classicInitializeMint(&ix, false)
	case KindInitializeAccount:
		return e.classicInitializeAccount(nil, true)
	case KindInitializeAccount2:
		return e.classicInitializeAccount(&ix.Owner, true)
	case KindInitializeAccount3:
		return e.classicInitializeAccount(&ix.Owner, false)
	case KindInitializeMultisig:
		return e.classicInitializeMultisig(ix.M, true)
	case KindInitializeMultisig2:
		return e.classicInitializeMultisig(ix.M, false)
	case KindTransfer:
		return e.classicTransfer(ix.Amount, nil)
	case KindTransferChecked:
		return e.classicTransfer(ix.Amount, &ix.Decimals)
	case KindApprove:
		return e.classicApprove(ix.Amount, nil)
	case KindApproveChecked:
		return e.classicApprove(ix.Amount, &ix.Decimals)
	case KindRevoke:
		return e.classicRevoke()
	case KindSetAuthority:
		return e.classicSetAuthority(ix.AuthorityType, ix.NewAuthority)
	case KindMintTo:
		return e.classicMintTo(ix.Amount, nil)
	case KindMintToChecked:
		return e.classicMintTo(ix.Amount, &ix.Decimals)
	case KindBurn:
		return e.classicBurn(ix.Amount, nil)
	case KindBurnChecked:
		return e.classicBurn(ix.Amount, &ix.Decimals)
	case KindCloseAccount:
		return e.classicCloseAccount()
	case KindFreezeAccount:
		return e.classicToggleFreeze(true)
	case KindThawAccount:
		return e.classicToggleFreeze(false)
	case KindSyncNative:
		return e.classicSyncNative()
	case KindGetAccountDataSize:
		return e.classicGetAccountDataSize()
	case KindInitializeImmutableOwner:
		return e.classicInitializeImmutableOwner()
	case KindAmountToUiAmount:
		return e.classicAmountToUiAmount(ix.Amount)
	case KindUiAmountToAmount:
		return e.classicUiAmountToAmount(ix.UIAmount)
	}
	return tokenErr(InvalidInstruction)
}

// unpackAccountClassic is Account::unpack: strict layout, and initialized.
func unpackAccountClassic(r *acctRef) (Account, error) {
	a, err := decodeAccountStrict(r.data)
	if err != nil {
		return Account{}, err
	}
	if a.State == StateUninitialized {
		return Account{}, errUninitializedAccount
	}
	return a, nil
}

// unpackMintClassic is Mint::unpack.
func unpackMintClassic(r *acctRef) (Mint, error) {
	m, err := decodeMintStrict(r.data)
	if err != nil {
		return Mint{}, err
	}
	if !m.IsInitialized {
		return Mint{}, errUninitializedAccount
	}
	return m, nil
}

func (e *exec) rent(withAccount bool, i int) (sysvar.Rent, error) {
	if withAccount {
		return e.rentFromAccount(i)
	}
	return e.ctx.Rent(), nil
}

func (e *exec) classicInitializeMint(ix *Instruction, rentAccount bool) error {
	mint, err := e.acct(0)
	if err != nil {
		return err
	}
	rent, err := e.rent(rentAccount, 1)
	if err != nil {
		return err
	}
	m, err := decodeMintStrict(mint.data)
	if err != nil {
		return err
	}
	if m.IsInitialized {
		return tokenErr(AlreadyInUse)
	}
	if !rent.IsExempt(mint.lamports, uint64(len(mint.data))) {
		return tokenErr(NotRentExempt)
	}
	m.MintAuthority = Some(ix.MintAuthority)
	m.Decimals = ix.Decimals
	m.IsInitialized = true
	m.FreezeAuthority = ix.FreezeAuthority
	encodeMint(mint.mut(), &m, false)
	return nil
}

// classicInitializeAccount: owner is nil for InitializeAccount, which takes it as account 2.
func (e *exec) classicInitializeAccount(ownerArg *core.Pubkey, rentAccount bool) error {
	var account, mint *acctRef
	err := e.accts(&account, &mint)
	if err != nil {
		return err
	}
	next := 2
	var owner core.Pubkey
	if ownerArg != nil {
		owner = *ownerArg
	} else {
		o, err := e.acct(2)
		if err != nil {
			return err
		}
		owner = o.key
		next = 3
	}
	rent, err := e.rent(rentAccount, next)
	if err != nil {
		return err
	}
	a, err := decodeAccountStrict(account.data)
	if err != nil {
		return err
	}
	if a.State != StateUninitialized {
		return tokenErr(AlreadyInUse)
	}
	if !rent.IsExempt(account.lamports, uint64(len(account.data))) {
		return tokenErr(NotRentExempt)
	}
	isNative := mint.key == NativeMint
	if !isNative {
		if err := e.checkOwnedByProgram(mint); err != nil {
			return err
		}
		if _, err := unpackMintClassic(mint); err != nil {
			return tokenErr(InvalidMint)
		}
	}
	a.Mint = mint.key
	a.Owner = owner
	a.CloseAuthority = COption[core.Pubkey]{}
	a.Delegate = COption[core.Pubkey]{}
	a.DelegatedAmount = 0
	a.State = StateInitialized
	if isNative {
		reserve := rent.MinimumBalance(uint64(len(account.data)))
		a.IsNative = Some(reserve)
		if a.Amount, err = subU64(account.lamports, reserve); err != nil {
			return err
		}
	} else {
		a.IsNative = COption[uint64]{}
		a.Amount = 0
	}
	encodeAccount(account.mut(), &a, false)
	return nil
}

func (e *exec) classicInitializeMultisig(m uint8, rentAccount bool) error {
	ms, err := e.acct(0)
	if err != nil {
		return err
	}
	firstSigner := 1
	rent, err := e.rent(rentAccount, 1)
	if err != nil {
		return err
	}
	if rentAccount {
		firstSigner = 2
	}
	state, err := decodeMultisigStrict(ms.data)
	if err != nil {
		return err
	}
	if state.IsInitialized {
		return tokenErr(AlreadyInUse)
	}
	if !rent.IsExempt(ms.lamports, uint64(len(ms.data))) {
		return tokenErr(NotRentExempt)
	}
	n := uint8(max(e.numAccounts()-firstSigner, 0))
	if !isValidSignerIndex(int(n)) {
		return tokenErr(InvalidNumberOfProvidedSigners)
	}
	if !isValidSignerIndex(int(m)) {
		return tokenErr(InvalidNumberOfRequiredSigners)
	}
	d := ms.mut()
	d[0], d[1], d[2] = m, n, 1
	for i := range int(n) {
		k := e.key(firstSigner + i)
		copy(d[3+32*i:], k[:])
	}
	return nil
}

// classicTransfer is process_transfer; decimals is set for TransferChecked, which takes the
// mint as account 1.
func (e *exec) classicTransfer(amount uint64, decimals *uint8) error {
	src, err := e.acct(0)
	if err != nil {
		return err
	}
	next := 1
	var mintRef *acctRef
	if decimals != nil {
		if mintRef, err = e.acct(1); err != nil {
			return err
		}
		next = 2
	}
	dst, err := e.acct(next)
	if err != nil {
		return err
	}
	authIdx := next + 1
	auth, err := e.acct(authIdx)
	if err != nil {
		return err
	}
	source, err := unpackAccountClassic(src)
	if err != nil {
		return err
	}
	dest, err := unpackAccountClassic(dst)
	if err != nil {
		return err
	}
	if source.IsFrozen() || dest.IsFrozen() {
		return tokenErr(AccountFrozen)
	}
	if source.Amount < amount {
		return tokenErr(InsufficientFunds)
	}
	if source.Mint != dest.Mint {
		return tokenErr(MintMismatch)
	}
	if decimals != nil {
		if mintRef.key != source.Mint {
			return tokenErr(MintMismatch)
		}
		m, err := unpackMintClassic(mintRef)
		if err != nil {
			return err
		}
		if *decimals != m.Decimals {
			return tokenErr(MintDecimalsMismatch)
		}
	}
	selfTransfer := src.key == dst.key
	if d, ok := source.Delegate.Get(); ok && auth.key == d {
		if err := e.validateOwner(d, authIdx); err != nil {
			return err
		}
		if source.DelegatedAmount < amount {
			return tokenErr(InsufficientFunds)
		}
		if !selfTransfer {
			source.DelegatedAmount -= amount
			if source.DelegatedAmount == 0 {
				source.Delegate.Some = false
			}
		}
	} else if err := e.validateOwner(source.Owner, authIdx); err != nil {
		return err
	}
	if selfTransfer || amount == 0 {
		if err := e.checkOwnedByProgram(src); err != nil {
			return err
		}
		if err := e.checkOwnedByProgram(dst); err != nil {
			return err
		}
	}
	if selfTransfer {
		return nil
	}
	source.Amount -= amount
	if dest.Amount, err = addU64(dest.Amount, amount); err != nil {
		return err
	}
	if source.IsNative.Some {
		if src.lamports, err = subU64(src.lamports, amount); err != nil {
			return err
		}
		if dst.lamports, err = addU64(dst.lamports, amount); err != nil {
			return err
		}
	}
	encodeAccount(src.mut(), &source, false)
	encodeAccount(dst.mut(), &dest, false)
	return nil
}

func (e *exec) classicApprove(amount uint64, decimals *uint8) error {
	src, err := e.acct(0)
	if err != nil {
		return err
	}
	next := 1
	var mintRef *acctRef
	if decimals != nil {
		if mintRef, err = e.acct(1); err != nil {
			return err
		}
		next = 2
	}
	delegate, err := e.acct(next)
	if err != nil {
		return err
	}
	ownerIdx := next + 1
	if _, err := e.acct(ownerIdx); err != nil {
		return err
	}
	source, err := unpackAccountClassic(src)
	if err != nil {
		return err
	}
	if source.IsFrozen() {
		return tokenErr(AccountFrozen)
	}
	if decimals != nil {
		if mintRef.key != source.Mint {
			return tokenErr(MintMismatch)
		}
		m, err := unpackMintClassic(mintRef)
		if err != nil {
			return err
		}
		if *decimals != m.Decimals {
			return tokenErr(MintDecimalsMismatch)
		}
	}
	if err := e.validateOwner(source.Owner, ownerIdx); err != nil {
		return err
	}
	source.Delegate = Some(delegate.key)
	source.DelegatedAmount = amount
	encodeAccount(src.mut(), &source, false)
	return nil
}

func (e *exec) classicRevoke() error {
	src, err := e.acct(0)
	if err != nil {
		return err
	}
	source, err := unpackAccountClassic(src)
	if err != nil {
		return err
	}
	if _, err := e.acct(1); err != nil {
		return err
	}
	if source.IsFrozen() {
		return tokenErr(AccountFrozen)
	}
	if err := e.validateOwner(source.Owner, 1); err != nil {
		return err
	}
	source.Delegate.Some = false
	source.DelegatedAmount = 0
	encodeAccount(src.mut(), &source, false)
	return nil
}

func (e *exec) classicSetAuthority(typ AuthorityType, newAuthority COption[core.Pubkey]) error {
	target, err := e.acct(0)
	if err != nil {
		return err
	}
	if _, err := e.acct(1); err != nil {
		return err
	}
	switch len(target.data) {
	case AccountSize:
		a, err := unpackAccountClassic(target)
		if err != nil {
			return err
		}
		if a.IsFrozen() {
			return tokenErr(AccountFrozen)
		}
		switch typ {
		case AuthorityAccountOwner:
			if err := e.validateOwner(a.Owner, 1); err != nil {
				return err
			}
			k, ok := newAuthority.Get()
			if !ok {
				return tokenErr(InvalidInstruction)
			}
			a.Owner = k
			a.Delegate.Some = false
			a.DelegatedAmount = 0
			if a.IsNative.Some {
				a.CloseAuthority.Some = false
			}
		case AuthorityCloseAccount:
			authority := a.Owner
			if k, ok := a.CloseAuthority.Get(); ok {
				authority = k
			}
			if err := e.validateOwner(authority, 1); err != nil {
				return err
			}
			a.CloseAuthority = setCOption(a.CloseAuthority, newAuthority)
		default:
			return tokenErr(AuthorityTypeNotSupported)
		}
		encodeAccount(target.mut(), &a, false)
	case MintSize:
		m, err := unpackMintClassic(target)
		if err != nil {
			return err
		}
		switch typ {
		case AuthorityMintTokens:
			k, ok := m.MintAuthority.Get()
			if !ok {
				return tokenErr(FixedSupply)
			}
			if err := e.validateOwner(k, 1); err != nil {
				return err
			}
			m.MintAuthority = setCOption(m.MintAuthority, newAuthority)
		case AuthorityFreezeAccount:
			k, ok := m.FreezeAuthority.Get()
			if !ok {
				return tokenErr(MintCannotFreeze)
			}
			if err := e.validateOwner(k, 1); err != nil {
				return err
			}
			m.FreezeAuthority = setCOption(m.FreezeAuthority, newAuthority)
		default:
			return tokenErr(AuthorityTypeNotSupported)
		}
		encodeMint(target.mut(), &m, false)
	default:
		return errInvalidArgument
	}
	return nil
}

// setCOption assigns v to an option field: a none keeps the old value bytes, which SPL
// Token's pack leaves in place.
func setCOption(old, v COption[core.Pubkey]) COption[core.Pubkey] {
	if !v.Some {
		old.Some = false
		return old
	}
	return v
}

func (e *exec) classicMintTo(amount uint64, decimals *uint8) error {
	var mintRef, dst *acctRef
	err := e.accts(&mintRef, &dst)
	if err != nil {
		return err
	}
	if _, err := e.acct(2); err != nil {
		return err
	}
	dest, err := unpackAccountClassic(dst)
	if err != nil {
		return err
	}
	if dest.IsFrozen() {
		return tokenErr(AccountFrozen)
	}
	if dest.IsNative.Some {
		return tokenErr(NativeNotSupported)
	}
	if mintRef.key != dest.Mint {
		return tokenErr(MintMismatch)
	}
	m, err := unpackMintClassic(mintRef)
	if err != nil {
		return err
	}
	if decimals != nil && *decimals != m.Decimals {
		return tokenErr(MintDecimalsMismatch)
	}
	k, ok := m.MintAuthority.Get()
	if !ok {
		return tokenErr(FixedSupply)
	}
	if err := e.validateOwner(k, 2); err != nil {
		return err
	}
	if amount == 0 {
		if err := e.checkOwnedByProgram(mintRef); err != nil {
			return err
		}
		if err := e.checkOwnedByProgram(dst); err != nil {
			return err
		}
	}
	if dest.Amount, err = addU64(dest.Amount, amount); err != nil {
		return err
	}
	if m.Supply, err = addU64(m.Supply, amount); err != nil {
		return err
	}
	encodeAccount(dst.mut(), &dest, false)
	encodeMint(mintRef.mut(), &m, false)
	return nil
}

func (e *exec) classicBurn(amount uint64, decimals *uint8) error {
	var src, mintRef, auth *acctRef
	err := e.accts(&src, &mintRef, &auth)
	if err != nil {
		return err
	}
	source, err := unpackAccountClassic(src)
	if err != nil {
		return err
	}
	m, err := unpackMintClassic(mintRef)
	if err != nil {
		return err
	}
	if source.IsFrozen() {
		return tokenErr(AccountFrozen)
	}
	if source.IsNative.Some {
		return tokenErr(NativeNotSupported)
	}
	if source.Amount < amount {
		return tokenErr(InsufficientFunds)
	}
	if mintRef.key != source.Mint {
		return tokenErr(MintMismatch)
	}
	if decimals != nil && *decimals != m.Decimals {
		return tokenErr(MintDecimalsMismatch)
	}
	if !isOwnedBySystemOrIncinerator(source.Owner) {
		if d, ok := source.Delegate.Get(); ok && auth.key == d {
			if err := e.validateOwner(d, 2); err != nil {
				return err
			}
			if source.DelegatedAmount < amount {
				return tokenErr(InsufficientFunds)
			}
			source.DelegatedAmount -= amount
			if source.DelegatedAmount == 0 {
				source.Delegate.Some = false
			}
		} else if err := e.validateOwner(source.Owner, 2); err != nil {
			return err
		}
	}
	if amount == 0 {
		if err := e.checkOwnedByProgram(src); err != nil {
			return err
		}
		if err := e.checkOwnedByProgram(mintRef); err != nil {
			return err
		}
	}
	source.Amount -= amount
	if m.Supply, err = subU64(m.Supply, amount); err != nil {
		return err
	}
	encodeAccount(src.mut(), &source, false)
	encodeMint(mintRef.mut(), &m, false)
	return nil
}

func (e *exec) classicCloseAccount() error {
	var src, dst *acctRef
	err := e.accts(&src, &dst)
	if err != nil {
		return err
	}
	if _, err := e.acct(2); err != nil {
		return err
	}
	if src.key == dst.key {
		return errInvalidAccountData
	}
	source, err := unpackAccountClassic(src)
	if err != nil {
		return err
	}
	if !source.IsNative.Some && source.Amount != 0 {
		return tokenErr(NonNativeHasBalance)
	}
	authority := source.Owner
	if k, ok := source.CloseAuthority.Get(); ok {
		authority = k
	}
	if !isOwnedBySystemOrIncinerator(source.Owner) {
		if err := e.validateOwner(authority, 2); err != nil {
			return err
		}
	} else if dst.key != core.IncineratorID {
		return errInvalidAccountData
	}
	return e.closeInto(src, dst)
}

// closeInto moves every lamport of src to dst and deletes src: assigned to the system
// program with no data.
func (e *exec) closeInto(src, dst *acctRef) error {
	total, err := addU64(dst.lamports, src.lamports)
	if err != nil {
		return err
	}
	dst.lamports = total
	src.lamports = 0
	src.owner = core.SystemProgramID
	src.mut()
	src.data = src.data[:0]
	return nil
}

func (e *exec) classicToggleFreeze(freeze bool) error {
	var src, mintRef *acctRef
	err := e.accts(&src, &mintRef)
	if err != nil {
		return err
	}
	if _, err := e.acct(2); err != nil {
		return err
	}
	source, err := unpackAccountClassic(src)
	if err != nil {
		return err
	}
	if freeze == source.IsFrozen() {
		return tokenErr(InvalidState)
	}
	if source.IsNative.Some {
		return tokenErr(NativeNotSupported)
	}
	if mintRef.key != source.Mint {
		return tokenErr(MintMismatch)
	}
	m, err := unpackMintClassic(mintRef)
	if err != nil {
		return err
	}
	k, ok := m.FreezeAuthority.Get()
	if !ok {
		return tokenErr(MintCannotFreeze)
	}
	if err := e.validateOwner(k, 2); err != nil {
		return err
	}
	source.State = StateInitialized
	if freeze {
		source.State = StateFrozen
	}
	encodeAccount(src.mut(), &source, false)
	return nil
}

func (e *exec) classicSyncNative() error {
	native, err := e.acct(0)
	if err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(native); err != nil {
		return err
	}
	a, err := unpackAccountClassic(native)
	if err != nil {
		return err
	}
	reserve, ok := a.IsNative.Get()
	if !ok {
		return tokenErr(NonNativeNotSupported)
	}
	amount, err := subU64(native.lamports, reserve)
	if err != nil {
		return err
	}
	if amount < a.Amount {
		return tokenErr(InvalidState)
	}
	a.Amount = amount
	encodeAccount(native.mut(), &a, false)
	return nil
}

// classicMint is the mint of GetAccountDataSize and the UI amount conversions: owned by the
// program and initialized (InvalidMint otherwise).
func (e *exec) classicMint() (Mint, error) {
	mintRef, err := e.acct(0)
	if err != nil {
		return Mint{}, err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return Mint{}, err
	}
	m, err := unpackMintClassic(mintRef)
	if err != nil {
		return Mint{}, tokenErr(InvalidMint)
	}
	return m, nil
}

func (e *exec) classicGetAccountDataSize() error {
	if _, err := e.classicMint(); err != nil {
		return err
	}
	return e.setReturnData(binary.LittleEndian.AppendUint64(nil, AccountSize))
}

func (e *exec) classicInitializeImmutableOwner() error {
	account, err := e.acct(0)
	if err != nil {
		return err
	}
	a, err := decodeAccountStrict(account.data)
	if err != nil {
		return err
	}
	if a.State != StateUninitialized {
		return tokenErr(AlreadyInUse)
	}
	e.ctx.ProgramLog("Please upgrade to SPL Token 2022 for immutable owner support")
	return nil
}

func (e *exec) classicAmountToUiAmount(amount uint64) error {
	m, err := e.classicMint()
	if err != nil {
		return err
	}
	return e.setReturnData([]byte(AmountToUIAmountStringTrimmed(amount, m.Decimals)))
}

func (e *exec) classicUiAmountToAmount(ui string) error {
	m, err := e.classicMint()
	if err != nil {
		return err
	}
	amount, err := UIAmountToAmount(ui, m.Decimals)
	if err != nil {
		return err
	}
	return e.setReturnData(binary.LittleEndian.AppendUint64(nil, amount))
}

// setReturnData is set_return_data: more than 1024 bytes aborts the program.
func (e *exec) setReturnData(b []byte) error {
	if err := e.ctx.SetReturnData(b); err != nil {
		return runtimeError{err}
	}
	return nil
}
