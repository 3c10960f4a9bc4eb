package token

import (
	"encoding/binary"

	"ledgerd/impl/core"
)

// The extension instruction processors of Token-2022. Each decodes its sub-instruction, logs
// "<Extension>Instruction::<Name>" (or "TransferFeeInstruction: <Name>") and runs it.

// subType is decode_instruction_type for a sub-instruction with n variants.
func subType(rest []byte, n byte) (byte, error) {
	if len(rest) == 0 {
		return 0, errInvalidInstructionData
	}
	if rest[0] >= n {
		return 0, tokenErr(InvalidInstruction)
	}
	return rest[0], nil
}

func (e *exec) processTransferFeeExtension(rest []byte) error {
	ix, err := decodeTransferFeeInstruction(rest)
	if err != nil {
		return err
	}
	if ix.Kind != KindInitializeTransferFeeConfig {
		e.ctx.ProgramLog("TransferFeeInstruction: " + ix.Kind.String())
	}
	switch ix.Kind {
	case KindInitializeTransferFeeConfig:
		return e.initializeMintExtension(ExtTransferFeeConfig, func(v []byte) error {
			if err := putOptionalKey(v, ix.TransferFeeConfigAuthority); err != nil {
				return err
			}
			if err := putOptionalKey(v[32:], ix.WithdrawWithheldAuthority); err != nil {
				return err
			}
			binary.LittleEndian.PutUint64(v[tfcWithheldOff:], 0)
			if ix.TransferFeeBasisPoints > MaxFeeBasisPoints {
				return tokenErr(TransferFeeExceedsMaximum)
			}
			fee := TransferFee{Epoch: e.ctx.Clock().Epoch, MaximumFee: ix.MaximumFee, TransferFeeBasisPoints: ix.TransferFeeBasisPoints}
			putTransferFee(v[tfcOlderOff:], fee)
			putTransferFee(v[tfcNewerOff:], fee)
			return nil
		})
	case KindTransferCheckedWithFee:
		return e.transfer2022(ix.Amount, transferMode{checked: true, decimals: ix.Decimals, withFee: true, fee: ix.Fee})
	case KindWithdrawWithheldTokensFromMint:
		return e.withdrawWithheldFromMint()
	case KindWithdrawWithheldTokensFromAccounts:
		return e.withdrawWithheldFromAccounts(int(ix.NumTokenAccounts))
	case KindHarvestWithheldTokensToMint:
		return e.harvestWithheldToMint()
	case KindSetTransferFee:
		return e.setTransferFee(ix.TransferFeeBasisPoints, ix.MaximumFee)
	}
	return tokenErr(InvalidInstruction)
}

// feeConfig returns the TransferFeeConfig of an initialized mint.
func feeConfig(ms *extState) ([]byte, error) { return ms.extension(ExtTransferFeeConfig) }

func (e *exec) withdrawWithheldFromMint() error {
	var mintRef, dst *acctRef
	err := e.accts(&mintRef, &dst)
	if err != nil {
		return err
	}
	if _, err := e.acct(2); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.mut(), kindMint)
	if err != nil {
		return err
	}
	cfg, err := feeConfig(&ms)
	if err != nil {
		return err
	}
	authority := optionalKey(cfg[32:])
	if !authority.Some {
		return tokenErr(NoAuthorityExists)
	}
	if err := e.validateOwner(authority.Value, 2); err != nil {
		return err
	}
	ds, err := unpackPod(dst.mut(), kindAccount)
	if err != nil {
		return err
	}
	dest := readAccountPod(ds.base())
	if dest.Mint != mintRef.key {
		return tokenErr(MintMismatch)
	}
	if dest.IsFrozen() {
		return tokenErr(AccountFrozen)
	}
	withheld := binary.LittleEndian.Uint64(cfg[tfcWithheldOff:])
	binary.LittleEndian.PutUint64(cfg[tfcWithheldOff:], 0)
	amount, err := addU64(dest.Amount, withheld)
	if err != nil {
		return err
	}
	setAccountAmount(ds.base(), amount)
	return nil
}

// harvestFromAccount empties the withheld fees of the token account at instruction index i;
// its errors are logged by the callers, which go on with the next account.
func (e *exec) harvestFromAccount(mint core.Pubkey, i int) (uint64, TokenError, bool) {
	r, err := e.acct(i)
	if err != nil {
		return 0, InvalidState, false
	}
	s, err := unpackPod(r.data, kindAccount)
	if err != nil {
		return 0, InvalidState, false
	}
	if readAccountPod(s.base()).Mint != mint {
		return 0, MintMismatch, false
	}
	if r.owner != Program2022ID {
		return 0, InvalidState, false
	}
	if _, err := s.extension(ExtTransferFeeAmount); err != nil {
		return 0, InvalidState, false
	}
	s, _ = unpackPod(r.mut(), kindAccount)
	v, _ := s.extension(ExtTransferFeeAmount)
	amount := binary.LittleEndian.Uint64(v)
	binary.LittleEndian.PutUint64(v, 0)
	return amount, 0, true
}

func (e *exec) logHarvestError(i int, err TokenError) {
	k := e.key(i)
	e.ctx.ProgramLog("Error harvesting from " + k.String() + ": " + err.Error())
}

func (e *exec) withdrawWithheldFromAccounts(numTokenAccounts int) error {
	var mintRef, dst *acctRef
	err := e.accts(&mintRef, &dst)
	if err != nil {
		return err
	}
	if _, err := e.acct(2); err != nil {
		return err
	}
	n := e.numAccounts()
	numSigners := max(n-3-numTokenAccounts, 0)
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.data, kindMint)
	if err != nil {
		return err
	}
	authority, err := withdrawWithheldAuthority(&ms)
	if err != nil {
		return err
	}
	if err := e.validateOwnerSigners(authority, 2, 3+numSigners); err != nil {
		return err
	}
	ds, err := unpackPod(dst.mut(), kindAccount)
	if err != nil {
		return err
	}
	dest := readAccountPod(ds.base())
	if dest.Mint != mintRef.key {
		return tokenErr(MintMismatch)
	}
	if dest.IsFrozen() {
		return tokenErr(AccountFrozen)
	}
	amount := dest.Amount
	for i := 3 + numSigners; i < n; i++ {
		k := e.key(i)
		if k == dst.key {
			v, err := ds.extension(ExtTransferFeeAmount)
			if err != nil {
				return tokenErr(InvalidState)
			}
			withheld := binary.LittleEndian.Uint64(v)
			binary.LittleEndian.PutUint64(v, 0)
			if amount, err = addU64(amount, withheld); err != nil {
				return err
			}
			setAccountAmount(ds.base(), amount)
			continue
		}
		withheld, herr, ok := e.harvestFromAccount(mintRef.key, i)
		if !ok {
			e.logHarvestError(i, herr)
			continue
		}
		if amount, err = addU64(amount, withheld); err != nil {
			return err
		}
		setAccountAmount(ds.base(), amount)
	}
	return nil
}

func (e *exec) harvestWithheldToMint() error {
	mintRef, err := e.acct(0)
	if err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.mut(), kindMint)
	if err != nil {
		return err
	}
	cfg, err := feeConfig(&ms)
	if err != nil {
		return err
	}
	for i := 1; i < e.numAccounts(); i++ {
		withheld, herr, ok := e.harvestFromAccount(mintRef.key, i)
		if !ok {
			e.logHarvestError(i, herr)
			continue
		}
		total, err := addU64(binary.LittleEndian.Uint64(cfg[tfcWithheldOff:]), withheld)
		if err != nil {
			return err
		}
		binary.LittleEndian.PutUint64(cfg[tfcWithheldOff:], total)
	}
	return nil
}

func (e *exec) setTransferFee(bps uint16, maximumFee uint64) error {
	mintRef, err := e.acct(0)
	if err != nil {
		return err
	}
	if _, err := e.acct(1); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.mut(), kindMint)
	if err != nil {
		return err
	}
	cfg, err := feeConfig(&ms)
	if err != nil {
		return err
	}
	authority := optionalKey(cfg)
	if !authority.Some {
		return tokenErr(NoAuthorityExists)
	}
	if err := e.validateOwner(authority.Value, 1); err != nil {
		return err
	}
	if bps > MaxFeeBasisPoints {
		return tokenErr(TransferFeeExceedsMaximum)
	}
	epoch := e.ctx.Clock().Epoch
	newer := decodeTransferFee(cfg[tfcNewerOff:])
	if newer.Epoch <= epoch {
		copy(cfg[tfcOlderOff:tfcNewerOff], cfg[tfcNewerOff:tfcNewerOff+18])
	}
	start := epoch + 2
	if start < epoch {
		start = ^uint64(0)
	}
	putTransferFee(cfg[tfcNewerOff:], TransferFee{Epoch: start, MaximumFee: maximumFee, TransferFeeBasisPoints: bps})
	return nil
}

func (e *exec) processDefaultAccountStateExtension(rest []byte) error {
	if len(rest) != 2 || rest[0] > 1 || rest[1] > byte(StateFrozen) {
		return tokenErr(InvalidInstruction)
	}
	state := AccountState(rest[1])
	if rest[0] == 0 {
		e.ctx.ProgramLog("DefaultAccountStateInstruction::Initialize")
		if state == StateUninitialized {
			return tokenErr(InvalidState)
		}
		mintRef, err := e.acct(0)
		if err != nil {
			return err
		}
		if err := e.checkOwnedByProgram(mintRef); err != nil {
			return err
		}
		return e.initializeMintExtension(ExtDefaultAccountState, func(v []byte) error {
			v[0] = byte(state)
			return nil
		})
	}
	e.ctx.ProgramLog("DefaultAccountStateInstruction::Update")
	if state == StateUninitialized {
		return tokenErr(InvalidState)
	}
	mintRef, err := e.acct(0)
	if err != nil {
		return err
	}
	if _, err := e.acct(1); err != nil {
		return err
	}
	if err := e.checkOwnedByProgram(mintRef); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.mut(), kindMint)
	if err != nil {
		return err
	}
	k, ok := readMintPod(ms.base()).FreezeAuthority.Get()
	if !ok {
		return tokenErr(NoAuthorityExists)
	}
	if err := e.validateOwner(k, 1); err != nil {
		return err
	}
	v, err := ms.extension(ExtDefaultAccountState)
	if err != nil {
		return err
	}
	v[0] = byte(state)
	return nil
}

// processToggleExtension runs MemoTransfer's and CpiGuard's Enable and Disable: the owner
// switches the account flag, adding the extension if the account has room for it.
func (e *exec) processToggleExtension(rest []byte, t ExtensionType) error {
	sub, err := subType(rest, 2)
	if err != nil {
		return err
	}
	enable := sub == 0
	name := "RequiredMemoTransfersInstruction::"
	if t == ExtCpiGuard {
		name = "CpiGuardInstruction::"
	}
	if enable {
		e.ctx.ProgramLog(name + "Enable")
	} else {
		e.ctx.ProgramLog(name + "Disable")
	}
	account, err := e.acct(0)
	if err != nil {
		return err
	}
	if _, err := e.acct(1); err != nil {
		return err
	}
	s, err := unpackPod(account.mut(), kindAccount)
	if err != nil {
		return err
	}
	if err := e.validateOwner(readAccountPod(s.base()).Owner, 1); err != nil {
		return err
	}
	if t == ExtCpiGuard && e.inCPI() {
		return tokenErr(CpiGuardSettingsLocked)
	}
	v, err := s.extension(t)
	if err != nil {
		if v, err = s.initExtension(t, true); err != nil {
			return err
		}
	}
	v[0] = 0
	if enable {
		v[0] = 1
	}
	return nil
}

func (e *exec) processInterestBearingExtension(rest []byte) error {
	sub, err := subType(rest, 2)
	if err != nil {
		return err
	}
	if sub == 0 {
		e.ctx.ProgramLog("InterestBearingMintInstruction::Initialize")
		if len(rest) != 1+34 {
			return errInvalidInstructionData
		}
		authority, rate := rest[1:33], rest[33:35]
		now := e.ctx.Clock().UnixTimestamp
		return e.initializeMintExtension(ExtInterestBearingConfig, func(v []byte) error {
			copy(v, authority)
			binary.LittleEndian.PutUint64(v[ibInitTsOff:], uint64(now))
			binary.LittleEndian.PutUint64(v[ibLastUpdateOff:], uint64(now))
			copy(v[ibPreRateOff:], rate)
			copy(v[ibCurRateOff:], rate)
			return nil
		})
	}
	e.ctx.ProgramLog("InterestBearingMintInstruction::UpdateRate")
	if len(rest) != 1+2 {
		return errInvalidInstructionData
	}
	mintRef, err := e.acct(0)
	if err != nil {
		return err
	}
	if _, err := e.acct(1); err != nil {
		return err
	}
	ms, err := unpackPod(mintRef.mut(), kindMint)
	if err != nil {
		return err
	}
	v, err := ms.extension(ExtInterestBearingConfig)
	if err != nil {
		return err
	}
	cfg := decodeInterestBearingConfig(v)
	k, ok := cfg.RateAuthority.Get()
	if !ok {
		return tokenErr(NoAuthorityExists)
	}
	if err := e.validateOwner(k, 1); err != nil {
		return err
	}
	now := e.ctx.Clock().UnixTimestamp
	avg, ok := cfg.timeWeightedAverageRate(now)
	if !ok {
		return tokenErr(Overflow)
	}
	binary.LittleEndian.PutUint16(v[ibPreRateOff:], uint16(avg))
	binary.LittleEndian.PutUint64(v[ibLastUpdateOff:], uint64(now))
	copy(v[ibCurRateOff:], rest[1:3])
	return nil
}
