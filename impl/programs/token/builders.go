package token

import (
	"encoding/binary"
	"math"

	"ledgerd/impl/core"
)

// Instruction builders for tests and clients. programID selects SPL Token or Token-2022.
// Where an authority may be a multisig, signers lists the multisig's signing members: the
// authority then does not sign itself.

func ix(programID core.Pubkey, data []byte, metas ...core.AccountMeta) core.Instruction {
	return core.Instruction{ProgramID: programID, Accounts: metas, Data: data}
}

// authorityMetas is the authority (signing unless signers are given) and the signers.
func authorityMetas(authority core.Pubkey, signers []core.Pubkey) []core.AccountMeta {
	metas := []core.AccountMeta{{Pubkey: authority, IsSigner: len(signers) == 0}}
	for _, s := range signers {
		metas = append(metas, core.ReadonlySigner(s))
	}
	return metas
}

func appendCOptionKey(b []byte, k *core.Pubkey) []byte {
	if k == nil {
		return append(b, 0)
	}
	return append(append(b, 1), k[:]...)
}

func amountData(tag Kind, amount uint64) []byte {
	return binary.LittleEndian.AppendUint64([]byte{byte(tag)}, amount)
}

func checkedData(tag Kind, amount uint64, decimals uint8) []byte {
	return append(amountData(tag, amount), decimals)
}

func mintData(tag Kind, mintAuthority core.Pubkey, freezeAuthority *core.Pubkey, decimals uint8) []byte {
	b := append([]byte{byte(tag), decimals}, mintAuthority[:]...)
	return appendCOptionKey(b, freezeAuthority)
}

// InitializeMintIx builds InitializeMint (with the Rent sysvar account).
func InitializeMintIx(programID, mint, mintAuthority core.Pubkey, freezeAuthority *core.Pubkey, decimals uint8) core.Instruction {
	return ix(programID, mintData(KindInitializeMint, mintAuthority, freezeAuthority, decimals),
		core.Writable(mint), core.Readonly(core.SysvarRentID))
}

// InitializeMint2 builds InitializeMint2.
func InitializeMint2(programID, mint, mintAuthority core.Pubkey, freezeAuthority *core.Pubkey, decimals uint8) core.Instruction {
	return ix(programID, mintData(KindInitializeMint2, mintAuthority, freezeAuthority, decimals), core.Writable(mint))
}

// InitializeAccount builds InitializeAccount (owner as an account, with the Rent sysvar).
func InitializeAccount(programID, account, mint, owner core.Pubkey) core.Instruction {
	return ix(programID, []byte{byte(KindInitializeAccount)}, core.Writable(account), core.Readonly(mint),
		core.Readonly(owner), core.Readonly(core.SysvarRentID))
}

// InitializeAccount2 builds InitializeAccount2 (owner in the data, with the Rent sysvar).
func InitializeAccount2(programID, account, mint, owner core.Pubkey) core.Instruction {
	return ix(programID, append([]byte{byte(KindInitializeAccount2)}, owner[:]...), core.Writable(account),
		core.Readonly(mint), core.Readonly(core.SysvarRentID))
}

// InitializeAccount3 builds InitializeAccount3.
func InitializeAccount3(programID, account, mint, owner core.Pubkey) core.Instruction {
	return ix(programID, append([]byte{byte(KindInitializeAccount3)}, owner[:]...), core.Writable(account),
		core.Readonly(mint))
}

// InitializeMultisig builds InitializeMultisig (with the Rent sysvar).
func InitializeMultisig(programID, multisig core.Pubkey, signers []core.Pubkey, m uint8) core.Instruction {
	metas := []core.AccountMeta{core.Writable(multisig), core.Readonly(core.SysvarRentID)}
	for _, s := range signers {
		metas = append(metas, core.Readonly(s))
	}
	return ix(programID, []byte{byte(KindInitializeMultisig), m}, metas...)
}

// InitializeMultisig2 builds InitializeMultisig2.
func InitializeMultisig2(programID, multisig core.Pubkey, signers []core.Pubkey, m uint8) core.Instruction {
	metas := []core.AccountMeta{core.Writable(multisig)}
	for _, s := range signers {
		metas = append(metas, core.Readonly(s))
	}
	return ix(programID, []byte{byte(KindInitializeMultisig2), m}, metas...)
}

// Transfer builds Transfer.
func Transfer(programID, source, destination, authority core.Pubkey, signers []core.Pubkey, amount uint64) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(source), core.Writable(destination)}, authorityMetas(authority, signers)...)
	return ix(programID, amountData(KindTransfer, amount), metas...)
}

// TransferChecked builds TransferChecked.
func TransferChecked(programID, source, mint, destination, authority core.Pubkey, signers []core.Pubkey, amount uint64, decimals uint8) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(source), core.Readonly(mint), core.Writable(destination)},
		authorityMetas(authority, signers)...)
	return ix(programID, checkedData(KindTransferChecked, amount, decimals), metas...)
}

// Approve builds Approve.
func Approve(programID, source, delegate, owner core.Pubkey, signers []core.Pubkey, amount uint64) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(source), core.Readonly(delegate)}, authorityMetas(owner, signers)...)
	return ix(programID, amountData(KindApprove, amount), metas...)
}

// ApproveChecked builds ApproveChecked.
func ApproveChecked(programID, source, mint, delegate, owner core.Pubkey, signers []core.Pubkey, amount uint64, decimals uint8) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(source), core.Readonly(mint), core.Readonly(delegate)},
		authorityMetas(owner, signers)...)
	return ix(programID, checkedData(KindApproveChecked, amount, decimals), metas...)
}

// Revoke builds Revoke.
func Revoke(programID, source, owner core.Pubkey, signers []core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(source)}, authorityMetas(owner, signers)...)
	return ix(programID, []byte{byte(KindRevoke)}, metas...)
}

// SetAuthority builds SetAuthority (newAuthority nil removes the authority).
func SetAuthority(programID, account core.Pubkey, newAuthority *core.Pubkey, authorityType AuthorityType, owner core.Pubkey, signers []core.Pubkey) core.Instruction {
	data := appendCOptionKey([]byte{byte(KindSetAuthority), byte(authorityType)}, newAuthority)
	metas := append([]core.AccountMeta{core.Writable(account)}, authorityMetas(owner, signers)...)
	return ix(programID, data, metas...)
}

// MintTo builds MintTo.
func MintTo(programID, mint, destination, authority core.Pubkey, signers []core.Pubkey, amount uint64) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(mint), core.Writable(destination)}, authorityMetas(authority, signers)...)
	return ix(programID, amountData(KindMintTo, amount), metas...)
}

// MintToChecked builds MintToChecked.
func MintToChecked(programID, mint, destination, authority core.Pubkey, signers []core.Pubkey, amount uint64, decimals uint8) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(mint), core.Writable(destination)}, authorityMetas(authority, signers)...)
	return ix(programID, checkedData(KindMintToChecked, amount, decimals), metas...)
}

// Burn builds Burn.
func Burn(programID, account, mint, authority core.Pubkey, signers []core.Pubkey, amount uint64) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account), core.Writable(mint)}, authorityMetas(authority, signers)...)
	return ix(programID, amountData(KindBurn, amount), metas...)
}

// BurnChecked builds BurnChecked.
func BurnChecked(programID, account, mint, authority core.Pubkey, signers []core.Pubkey, amount uint64, decimals uint8) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account), core.Writable(mint)}, authorityMetas(authority, signers)...)
	return ix(programID, checkedData(KindBurnChecked, amount, decimals), metas...)
}

// CloseAccount builds CloseAccount.
func CloseAccount(programID, account, destination, owner core.Pubkey, signers []core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account), core.Writable(destination)}, authorityMetas(owner, signers)...)
	return ix(programID, []byte{byte(KindCloseAccount)}, metas...)
}

// FreezeAccount builds FreezeAccount.
func FreezeAccount(programID, account, mint, authority core.Pubkey, signers []core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account), core.Readonly(mint)}, authorityMetas(authority, signers)...)
	return ix(programID, []byte{byte(KindFreezeAccount)}, metas...)
}

// ThawAccount builds ThawAccount.
func ThawAccount(programID, account, mint, authority core.Pubkey, signers []core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account), core.Readonly(mint)}, authorityMetas(authority, signers)...)
	return ix(programID, []byte{byte(KindThawAccount)}, metas...)
}

// SyncNative builds SyncNative.
func SyncNative(programID, account core.Pubkey) core.Instruction {
	return ix(programID, []byte{byte(KindSyncNative)}, core.Writable(account))
}

// GetAccountDataSize builds GetAccountDataSize (extension types are Token-2022's).
func GetAccountDataSize(programID, mint core.Pubkey, extensionTypes ...ExtensionType) core.Instruction {
	data := []byte{byte(KindGetAccountDataSize)}
	for _, t := range extensionTypes {
		data = binary.LittleEndian.AppendUint16(data, uint16(t))
	}
	return ix(programID, data, core.Readonly(mint))
}

// InitializeImmutableOwner builds InitializeImmutableOwner.
func InitializeImmutableOwner(programID, account core.Pubkey) core.Instruction {
	return ix(programID, []byte{byte(KindInitializeImmutableOwner)}, core.Writable(account))
}

// AmountToUiAmount builds AmountToUiAmount.
func AmountToUiAmount(programID, mint core.Pubkey, amount uint64) core.Instruction {
	return ix(programID, amountData(KindAmountToUiAmount, amount), core.Readonly(mint))
}

// UiAmountToAmount builds UiAmountToAmount.
func UiAmountToAmount(programID, mint core.Pubkey, uiAmount string) core.Instruction {
	return ix(programID, append([]byte{byte(KindUiAmountToAmount)}, uiAmount...), core.Readonly(mint))
}

// InitializeMintCloseAuthority builds Token-2022's InitializeMintCloseAuthority.
func InitializeMintCloseAuthority(mint core.Pubkey, closeAuthority *core.Pubkey) core.Instruction {
	return ix(Program2022ID, appendCOptionKey([]byte{byte(KindInitializeMintCloseAuthority)}, closeAuthority), core.Writable(mint))
}

// InitializeNonTransferableMint builds Token-2022's InitializeNonTransferableMint.
func InitializeNonTransferableMint(mint core.Pubkey) core.Instruction {
	return ix(Program2022ID, []byte{byte(KindInitializeNonTransferableMint)}, core.Writable(mint))
}

// InitializePermanentDelegate builds Token-2022's InitializePermanentDelegate.
func InitializePermanentDelegate(mint, delegate core.Pubkey) core.Instruction {
	return ix(Program2022ID, append([]byte{byte(KindInitializePermanentDelegate)}, delegate[:]...), core.Writable(mint))
}

// Reallocate builds Token-2022's Reallocate: grow account for the extension types, paid by
// payer through the system program.
func Reallocate(account, payer, owner core.Pubkey, signers []core.Pubkey, extensionTypes ...ExtensionType) core.Instruction {
	data := []byte{byte(KindReallocate)}
	for _, t := range extensionTypes {
		data = binary.LittleEndian.AppendUint16(data, uint16(t))
	}
	metas := append([]core.AccountMeta{core.Writable(account), core.WritableSigner(payer), core.Readonly(core.SystemProgramID)},
		authorityMetas(owner, signers)...)
	return ix(Program2022ID, data, metas...)
}

func optionalKeyBytes(k *core.Pubkey) []byte {
	if k == nil {
		return make([]byte, 32)
	}
	return k[:]
}

// InitializeTransferFeeConfig builds the TransferFee extension's initializer.
func InitializeTransferFeeConfig(mint core.Pubkey, configAuthority, withdrawAuthority *core.Pubkey, basisPoints uint16, maximumFee uint64) core.Instruction {
	data := []byte{byte(KindTransferFeeExtension), 0}
	data = appendCOptionKey(data, configAuthority)
	data = appendCOptionKey(data, withdrawAuthority)
	data = binary.LittleEndian.AppendUint16(data, basisPoints)
	data = binary.LittleEndian.AppendUint64(data, maximumFee)
	return ix(Program2022ID, data, core.Writable(mint))
}

// TransferCheckedWithFee builds TransferCheckedWithFee.
func TransferCheckedWithFee(source, mint, destination, authority core.Pubkey, signers []core.Pubkey, amount uint64, decimals uint8, fee uint64) core.Instruction {
	data := binary.LittleEndian.AppendUint64([]byte{byte(KindTransferFeeExtension), 1}, amount)
	data = binary.LittleEndian.AppendUint64(append(data, decimals), fee)
	metas := append([]core.AccountMeta{core.Writable(source), core.Readonly(mint), core.Writable(destination)},
		authorityMetas(authority, signers)...)
	return ix(Program2022ID, data, metas...)
}

// WithdrawWithheldTokensFromMint builds WithdrawWithheldTokensFromMint.
func WithdrawWithheldTokensFromMint(mint, destination, authority core.Pubkey, signers []core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(mint), core.Writable(destination)}, authorityMetas(authority, signers)...)
	return ix(Program2022ID, []byte{byte(KindTransferFeeExtension), 2}, metas...)
}

// WithdrawWithheldTokensFromAccounts builds WithdrawWithheldTokensFromAccounts.
func WithdrawWithheldTokensFromAccounts(mint, destination, authority core.Pubkey, signers, sources []core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Readonly(mint), core.Writable(destination)}, authorityMetas(authority, signers)...)
	for _, s := range sources {
		metas = append(metas, core.Writable(s))
	}
	return ix(Program2022ID, []byte{byte(KindTransferFeeExtension), 3, byte(len(sources))}, metas...)
}

// HarvestWithheldTokensToMint builds HarvestWithheldTokensToMint.
func HarvestWithheldTokensToMint(mint core.Pubkey, sources ...core.Pubkey) core.Instruction {
	metas := []core.AccountMeta{core.Writable(mint)}
	for _, s := range sources {
		metas = append(metas, core.Writable(s))
	}
	return ix(Program2022ID, []byte{byte(KindTransferFeeExtension), 4}, metas...)
}

// SetTransferFee builds SetTransferFee.
func SetTransferFee(mint, authority core.Pubkey, signers []core.Pubkey, basisPoints uint16, maximumFee uint64) core.Instruction {
	data := binary.LittleEndian.AppendUint16([]byte{byte(KindTransferFeeExtension), 5}, basisPoints)
	data = binary.LittleEndian.AppendUint64(data, maximumFee)
	metas := append([]core.AccountMeta{core.Writable(mint)}, authorityMetas(authority, signers)...)
	return ix(Program2022ID, data, metas...)
}

// InitializeDefaultAccountState builds the DefaultAccountState extension's initializer.
func InitializeDefaultAccountState(mint core.Pubkey, state AccountState) core.Instruction {
	return ix(Program2022ID, []byte{byte(KindDefaultAccountStateExtension), 0, byte(state)}, core.Writable(mint))
}

// UpdateDefaultAccountState builds UpdateDefaultAccountState (signed by the freeze authority).
func UpdateDefaultAccountState(mint, freezeAuthority core.Pubkey, signers []core.Pubkey, state AccountState) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(mint)}, authorityMetas(freezeAuthority, signers)...)
	return ix(Program2022ID, []byte{byte(KindDefaultAccountStateExtension), 1, byte(state)}, metas...)
}

// EnableRequiredMemoTransfers builds MemoTransfer's Enable.
func EnableRequiredMemoTransfers(account, owner core.Pubkey, signers []core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account)}, authorityMetas(owner, signers)...)
	return ix(Program2022ID, []byte{byte(KindMemoTransferExtension), 0}, metas...)
}

// DisableRequiredMemoTransfers builds MemoTransfer's Disable.
func DisableRequiredMemoTransfers(account, owner core.Pubkey, signers []core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account)}, authorityMetas(owner, signers)...)
	return ix(Program2022ID, []byte{byte(KindMemoTransferExtension), 1}, metas...)
}

// EnableCpiGuard builds CpiGuard's Enable.
func EnableCpiGuard(account, owner core.Pubkey, signers []core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account)}, authorityMetas(owner, signers)...)
	return ix(Program2022ID, []byte{byte(KindCpiGuardExtension), 0}, metas...)
}

// DisableCpiGuard builds CpiGuard's Disable.
func DisableCpiGuard(account, owner core.Pubkey, signers []core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(account)}, authorityMetas(owner, signers)...)
	return ix(Program2022ID, []byte{byte(KindCpiGuardExtension), 1}, metas...)
}

// InitializeInterestBearingConfig builds the InterestBearingConfig initializer (rate in basis
// points per year).
func InitializeInterestBearingConfig(mint core.Pubkey, rateAuthority *core.Pubkey, rate int16) core.Instruction {
	data := append([]byte{byte(KindInterestBearingMintExtension), 0}, optionalKeyBytes(rateAuthority)...)
	data = binary.LittleEndian.AppendUint16(data, uint16(rate))
	return ix(Program2022ID, data, core.Writable(mint))
}

// UpdateInterestBearingConfigRate builds UpdateRate.
func UpdateInterestBearingConfigRate(mint, rateAuthority core.Pubkey, signers []core.Pubkey, rate int16) core.Instruction {
	data := binary.LittleEndian.AppendUint16([]byte{byte(KindInterestBearingMintExtension), 1}, uint16(rate))
	metas := append([]core.AccountMeta{core.Writable(mint)}, authorityMetas(rateAuthority, signers)...)
	return ix(Program2022ID, data, metas...)
}

// InitializeMetadataPointer builds the MetadataPointer initializer.
func InitializeMetadataPointer(mint core.Pubkey, authority, metadataAddress *core.Pubkey) core.Instruction {
	data := append([]byte{byte(KindMetadataPointerExtension), 0}, optionalKeyBytes(authority)...)
	data = append(data, optionalKeyBytes(metadataAddress)...)
	return ix(Program2022ID, data, core.Writable(mint))
}

// UpdateMetadataPointer builds MetadataPointer's Update.
func UpdateMetadataPointer(mint, authority core.Pubkey, signers []core.Pubkey, metadataAddress *core.Pubkey) core.Instruction {
	data := append([]byte{byte(KindMetadataPointerExtension), 1}, optionalKeyBytes(metadataAddress)...)
	metas := append([]core.AccountMeta{core.Writable(mint)}, authorityMetas(authority, signers)...)
	return ix(Program2022ID, data, metas...)
}

// InitializeTokenMetadata builds the token-metadata Initialize, with the metadata in the mint.
func InitializeTokenMetadata(mint, updateAuthority, mintAuthority core.Pubkey, name, symbol, uri string) core.Instruction {
	data := append([]byte(nil), discInitializeMetadata[:]...)
	data = appendBorshString(appendBorshString(appendBorshString(data, name), symbol), uri)
	return ix(Program2022ID, data, core.Writable(mint), core.Readonly(updateAuthority), core.Readonly(mint),
		core.ReadonlySigner(mintAuthority))
}

// UpdateTokenMetadataField builds UpdateField.
func UpdateTokenMetadataField(mint, updateAuthority core.Pubkey, field MetadataField, value string) core.Instruction {
	data := append(append([]byte(nil), discUpdateField[:]...), field.Kind)
	if field.Kind == FieldKey {
		data = appendBorshString(data, field.Key)
	}
	data = appendBorshString(data, value)
	return ix(Program2022ID, data, core.Writable(mint), core.ReadonlySigner(updateAuthority))
}

// RemoveTokenMetadataKey builds RemoveKey.
func RemoveTokenMetadataKey(mint, updateAuthority core.Pubkey, key string, idempotent bool) core.Instruction {
	data := append([]byte(nil), discRemoveKey[:]...)
	if idempotent {
		data = append(data, 1)
	} else {
		data = append(data, 0)
	}
	return ix(Program2022ID, appendBorshString(data, key), core.Writable(mint), core.ReadonlySigner(updateAuthority))
}

// UpdateTokenMetadataUpdateAuthority builds UpdateAuthority (nil makes the metadata
// immutable).
func UpdateTokenMetadataUpdateAuthority(mint, updateAuthority core.Pubkey, newAuthority *core.Pubkey) core.Instruction {
	data := append(append([]byte(nil), discUpdateAuthority[:]...), optionalKeyBytes(newAuthority)...)
	return ix(Program2022ID, data, core.Writable(mint), core.ReadonlySigner(updateAuthority))
}

// EmitTokenMetadata builds Emit (start and end bound the returned byte range; nil for all).
func EmitTokenMetadata(mint core.Pubkey, start, end *uint64) core.Instruction {
	data := append([]byte(nil), discEmit[:]...)
	for _, v := range []*uint64{start, end} {
		if v == nil {
			data = append(data, 0)
		} else {
			data = binary.LittleEndian.AppendUint64(append(data, 1), *v)
		}
	}
	return ix(Program2022ID, data, core.Readonly(mint))
}

// CreateNativeMint builds Token-2022's CreateNativeMint, funded by payer.
func CreateNativeMint(payer core.Pubkey) core.Instruction {
	return ix(Program2022ID, []byte{byte(KindCreateNativeMint)}, core.WritableSigner(payer), core.Writable(NativeMint2022),
		core.Readonly(core.SystemProgramID))
}

// WithdrawExcessLamports builds Token-2022's WithdrawExcessLamports: what source holds above
// its rent-exempt reserve goes to destination.
func WithdrawExcessLamports(source, destination, authority core.Pubkey, signers []core.Pubkey) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(source), core.Writable(destination)}, authorityMetas(authority, signers)...)
	return ix(Program2022ID, []byte{byte(KindWithdrawExcessLamports)}, metas...)
}

// UnwrapLamports builds Token-2022's UnwrapLamports: amount (nil: all) of a wrapped SOL
// account's tokens to destination as lamports.
func UnwrapLamports(source, destination, authority core.Pubkey, signers []core.Pubkey, amount *uint64) core.Instruction {
	data := []byte{byte(KindUnwrapLamports), 0}
	if amount != nil {
		data = binary.LittleEndian.AppendUint64([]byte{byte(KindUnwrapLamports), 1}, *amount)
	}
	metas := append([]core.AccountMeta{core.Writable(source), core.Writable(destination)}, authorityMetas(authority, signers)...)
	return ix(Program2022ID, data, metas...)
}

// pointerTags are the instruction tags of the extensions initialized with an authority and an
// address.
var pointerTags = map[ExtensionType]Kind{
	ExtMetadataPointer: KindMetadataPointerExtension, ExtGroupPointer: KindGroupPointerExtension,
	ExtGroupMemberPointer: KindGroupMemberPointerExtension, ExtTransferHook: KindTransferHookExtension,
}

// InitializePointer builds the Initialize of the group pointer, group member pointer,
// transfer hook (address: the hook program) or metadata pointer extension t.
func InitializePointer(t ExtensionType, mint core.Pubkey, authority, address *core.Pubkey) core.Instruction {
	data := append([]byte{byte(pointerTags[t]), 0}, optionalKeyBytes(authority)...)
	return ix(Program2022ID, append(data, optionalKeyBytes(address)...), core.Writable(mint))
}

// UpdatePointer builds the Update of the pointer extension t.
func UpdatePointer(t ExtensionType, mint, authority core.Pubkey, signers []core.Pubkey, address *core.Pubkey) core.Instruction {
	data := append([]byte{byte(pointerTags[t]), 1}, optionalKeyBytes(address)...)
	metas := append([]core.AccountMeta{core.Writable(mint)}, authorityMetas(authority, signers)...)
	return ix(Program2022ID, data, metas...)
}

// InitializeTokenGroup builds the token-group interface's InitializeGroup, with the group in
// the mint.
func InitializeTokenGroup(mint, mintAuthority core.Pubkey, updateAuthority *core.Pubkey, maxSize uint64) core.Instruction {
	data := append(append([]byte(nil), discInitializeGroup...), optionalKeyBytes(updateAuthority)...)
	return ix(Program2022ID, binary.LittleEndian.AppendUint64(data, maxSize), core.Writable(mint), core.Readonly(mint),
		core.ReadonlySigner(mintAuthority))
}

// UpdateTokenGroupMaxSize builds UpdateGroupMaxSize.
func UpdateTokenGroupMaxSize(group, updateAuthority core.Pubkey, maxSize uint64) core.Instruction {
	data := binary.LittleEndian.AppendUint64(append([]byte(nil), discUpdateGroupMaxSize...), maxSize)
	return ix(Program2022ID, data, core.Writable(group), core.ReadonlySigner(updateAuthority))
}

// UpdateTokenGroupAuthority builds UpdateGroupAuthority (nil makes the group immutable).
func UpdateTokenGroupAuthority(group, updateAuthority core.Pubkey, newAuthority *core.Pubkey) core.Instruction {
	data := append(append([]byte(nil), discUpdateGroupAuthority...), optionalKeyBytes(newAuthority)...)
	return ix(Program2022ID, data, core.Writable(group), core.ReadonlySigner(updateAuthority))
}

// InitializeTokenGroupMember builds InitializeMember, with the member in its mint.
func InitializeTokenGroupMember(memberMint, memberMintAuthority, group, groupUpdateAuthority core.Pubkey) core.Instruction {
	return ix(Program2022ID, append([]byte(nil), discInitializeMember...), core.Writable(memberMint), core.Readonly(memberMint),
		core.ReadonlySigner(memberMintAuthority), core.Writable(group), core.ReadonlySigner(groupUpdateAuthority))
}

// InitializeScaledUiAmount builds the ScaledUiAmount extension's initializer.
func InitializeScaledUiAmount(mint core.Pubkey, authority *core.Pubkey, multiplier float64) core.Instruction {
	data := append([]byte{byte(KindScaledUiAmountExtension), 0}, optionalKeyBytes(authority)...)
	return ix(Program2022ID, binary.LittleEndian.AppendUint64(data, math.Float64bits(multiplier)), core.Writable(mint))
}

// UpdateScaledUiAmountMultiplier builds UpdateMultiplier: multiplier in force from
// effectiveTimestamp.
func UpdateScaledUiAmountMultiplier(mint, authority core.Pubkey, signers []core.Pubkey, multiplier float64, effectiveTimestamp int64) core.Instruction {
	data := binary.LittleEndian.AppendUint64([]byte{byte(KindScaledUiAmountExtension), 1}, math.Float64bits(multiplier))
	data = binary.LittleEndian.AppendUint64(data, uint64(effectiveTimestamp))
	metas := append([]core.AccountMeta{core.Writable(mint)}, authorityMetas(authority, signers)...)
	return ix(Program2022ID, data, metas...)
}

// InitializePausable builds the Pausable extension's initializer.
func InitializePausable(mint, authority core.Pubkey) core.Instruction {
	return ix(Program2022ID, append([]byte{byte(KindPausableExtension), 0}, authority[:]...), core.Writable(mint))
}

// Pause builds Pausable's Pause, or its Resume when pause is false.
func Pause(mint, authority core.Pubkey, signers []core.Pubkey, pause bool) core.Instruction {
	sub := byte(2)
	if pause {
		sub = 1
	}
	metas := append([]core.AccountMeta{core.Writable(mint)}, authorityMetas(authority, signers)...)
	return ix(Program2022ID, []byte{byte(KindPausableExtension), sub}, metas...)
}

// InitializePermissionedBurn builds the PermissionedBurn extension's initializer.
func InitializePermissionedBurn(mint, authority core.Pubkey) core.Instruction {
	return ix(Program2022ID, append([]byte{byte(KindPermissionedBurnExtension), 0}, authority[:]...), core.Writable(mint))
}

// PermissionedBurn builds PermissionedBurn's Burn, or its BurnChecked with decimals, which the
// mint's permissioned burn authority co-signs.
func PermissionedBurn(account, mint, burnAuthority, authority core.Pubkey, signers []core.Pubkey, amount uint64, decimals *uint8) core.Instruction {
	data := binary.LittleEndian.AppendUint64([]byte{byte(KindPermissionedBurnExtension), 1}, amount)
	if decimals != nil {
		data[1] = 2
		data = append(data, *decimals)
	}
	metas := append([]core.AccountMeta{core.Writable(account), core.Writable(mint), core.ReadonlySigner(burnAuthority)},
		authorityMetas(authority, signers)...)
	return ix(Program2022ID, data, metas...)
}

// Batch builds Token-2022's Batch of Token-2022 instructions: each entry's accounts and data
// (at most 255 accounts and bytes each), run in order with the accounts concatenated.
func Batch(instructions ...core.Instruction) core.Instruction {
	data := []byte{byte(KindBatch)}
	var metas []core.AccountMeta
	for _, in := range instructions {
		data = append(append(data, byte(len(in.Accounts)), byte(len(in.Data))), in.Data...)
		metas = append(metas, in.Accounts...)
	}
	return ix(Program2022ID, data, metas...)
}

// InitializeConfidentialTransferMint builds ConfidentialTransfer's InitializeMint: the
// authority that approves accounts and updates the mint, whether new accounts are approved
// automatically, and the auditor's ElGamal key (nil for none).
func InitializeConfidentialTransferMint(mint core.Pubkey, authority *core.Pubkey, autoApprove bool, auditor *[32]byte) core.Instruction {
	data := append([]byte{byte(KindConfidentialTransferExtension), 0}, optionalKeyBytes(authority)...)
	data = append(data, boolByte(autoApprove))
	return ix(Program2022ID, append(data, optionalBytes32(auditor)...), core.Writable(mint))
}

// UpdateConfidentialTransferMint builds ConfidentialTransfer's UpdateMint.
func UpdateConfidentialTransferMint(mint, authority core.Pubkey, autoApprove bool, auditor *[32]byte) core.Instruction {
	data := append([]byte{byte(KindConfidentialTransferExtension), 1, boolByte(autoApprove)}, optionalBytes32(auditor)...)
	return ix(Program2022ID, data, core.Writable(mint), core.ReadonlySigner(authority))
}

// ApproveConfidentialTransferAccount builds ConfidentialTransfer's ApproveAccount.
func ApproveConfidentialTransferAccount(account, mint, authority core.Pubkey) core.Instruction {
	return ix(Program2022ID, []byte{byte(KindConfidentialTransferExtension), 3}, core.Writable(account), core.Readonly(mint),
		core.ReadonlySigner(authority))
}

// ConfidentialCredits builds ConfidentialTransfer's Enable/DisableConfidentialCredits, or with
// nonConfidential its Enable/DisableNonConfidentialCredits.
func ConfidentialCredits(account, owner core.Pubkey, signers []core.Pubkey, nonConfidential, enable bool) core.Instruction {
	sub := byte(9)
	if nonConfidential {
		sub = 11
	}
	if !enable {
		sub++
	}
	metas := append([]core.AccountMeta{core.Writable(account)}, authorityMetas(owner, signers)...)
	return ix(Program2022ID, []byte{byte(KindConfidentialTransferExtension), sub}, metas...)
}

// InitializeConfidentialTransferFeeConfig builds ConfidentialTransferFee's initializer: its
// authority and the withdraw-withheld authority's ElGamal key.
func InitializeConfidentialTransferFeeConfig(mint core.Pubkey, authority *core.Pubkey, withdrawWithheldElGamal [32]byte) core.Instruction {
	data := append([]byte{byte(KindConfidentialTransferFeeExtension), 0}, optionalKeyBytes(authority)...)
	return ix(Program2022ID, append(data, withdrawWithheldElGamal[:]...), core.Writable(mint))
}

// HarvestToMint builds ConfidentialTransferFee's EnableHarvestToMint, or its
// DisableHarvestToMint.
func HarvestToMint(mint, authority core.Pubkey, signers []core.Pubkey, enable bool) core.Instruction {
	sub := byte(5)
	if enable {
		sub = 4
	}
	metas := append([]core.AccountMeta{core.Writable(mint)}, authorityMetas(authority, signers)...)
	return ix(Program2022ID, []byte{byte(KindConfidentialTransferFeeExtension), sub}, metas...)
}

// InitializeConfidentialMintBurn builds ConfidentialMintBurn's InitializeMint: the supply's
// ElGamal key and its decryptable (authenticated-encryption) form.
func InitializeConfidentialMintBurn(mint core.Pubkey, supplyElGamal [32]byte, decryptableSupply [36]byte) core.Instruction {
	data := append(append([]byte{byte(KindConfidentialMintBurnExtension), 0}, supplyElGamal[:]...), decryptableSupply[:]...)
	return ix(Program2022ID, data, core.Writable(mint))
}

// UpdateDecryptableSupply builds ConfidentialMintBurn's UpdateDecryptableSupply, signed by the
// mint authority.
func UpdateDecryptableSupply(mint, authority core.Pubkey, signers []core.Pubkey, decryptableSupply [36]byte) core.Instruction {
	metas := append([]core.AccountMeta{core.Writable(mint)}, authorityMetas(authority, signers)...)
	return ix(Program2022ID, append([]byte{byte(KindConfidentialMintBurnExtension), 2}, decryptableSupply[:]...), metas...)
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func optionalBytes32(b *[32]byte) []byte {
	if b == nil {
		return make([]byte, 32)
	}
	return b[:]
}
