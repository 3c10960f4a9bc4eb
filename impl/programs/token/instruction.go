package token

import (
	"crypto/sha256"
	"encoding/binary"
	"unicode/utf8"

	"ledgerd/impl/core"
)

// Kind identifies a token instruction. Values below 256 are the instruction tags (the first
// byte of the data); extension sub-instructions and the token-metadata interface have kinds
// from KindInitializeTransferFeeConfig on.
type Kind uint16

// The instruction tags, in spl-token-2022's order (SPL Token has 0 to 24).
const (
	KindInitializeMint Kind = iota
	KindInitializeAccount
	KindInitializeMultisig
	KindTransfer
	KindApprove
	KindRevoke
	KindSetAuthority
	KindMintTo
	KindBurn
	KindCloseAccount
	KindFreezeAccount
	KindThawAccount
	KindTransferChecked
	KindApproveChecked
	KindMintToChecked
	KindBurnChecked
	KindInitializeAccount2
	KindSyncNative
	KindInitializeAccount3
	KindInitializeMultisig2
	KindInitializeMint2
	KindGetAccountDataSize
	KindInitializeImmutableOwner
	KindAmountToUiAmount
	KindUiAmountToAmount
	KindInitializeMintCloseAuthority
	KindTransferFeeExtension
	KindConfidentialTransferExtension
	KindDefaultAccountStateExtension
	KindReallocate
	KindMemoTransferExtension
	KindCreateNativeMint
	KindInitializeNonTransferableMint
	KindInterestBearingMintExtension
	KindCpiGuardExtension
	KindInitializePermanentDelegate
	KindTransferHookExtension
	KindConfidentialTransferFeeExtension
	KindWithdrawExcessLamports
	KindMetadataPointerExtension
	KindGroupPointerExtension
	KindGroupMemberPointerExtension
	KindConfidentialMintBurnExtension
	KindScaledUiAmountExtension
	KindPausableExtension
	KindUnwrapLamports
	KindPermissionedBurnExtension
	numTags
)

// KindBatch is Token-2022's batch tag.
const KindBatch Kind = 255

// Extension sub-instructions and the token-metadata interface.
const (
	KindInitializeTransferFeeConfig Kind = 256 + iota
	KindTransferCheckedWithFee
	KindWithdrawWithheldTokensFromMint
	KindWithdrawWithheldTokensFromAccounts
	KindHarvestWithheldTokensToMint
	KindSetTransferFee
	KindInitializeDefaultAccountState
	KindUpdateDefaultAccountState
	KindEnableRequiredMemoTransfers
	KindDisableRequiredMemoTransfers
	KindInitializeInterestBearingConfig
	KindUpdateInterestBearingConfigRate
	KindEnableCpiGuard
	KindDisableCpiGuard
	KindInitializeMetadataPointer
	KindUpdateMetadataPointer
	KindInitializeTokenMetadata
	KindUpdateTokenMetadataField
	KindRemoveTokenMetadataKey
	KindUpdateTokenMetadataUpdateAuthority
	KindEmitTokenMetadata
	kindEnd
)

var tagNames = [numTags]string{
	"InitializeMint", "InitializeAccount", "InitializeMultisig", "Transfer", "Approve", "Revoke",
	"SetAuthority", "MintTo", "Burn", "CloseAccount", "FreezeAccount", "ThawAccount",
	"TransferChecked", "ApproveChecked", "MintToChecked", "BurnChecked", "InitializeAccount2",
	"SyncNative", "InitializeAccount3", "InitializeMultisig2", "InitializeMint2",
	"GetAccountDataSize", "InitializeImmutableOwner", "AmountToUiAmount", "UiAmountToAmount",
	"InitializeMintCloseAuthority", "TransferFeeExtension", "ConfidentialTransferExtension",
	"DefaultAccountStateExtension", "Reallocate", "MemoTransferExtension", "CreateNativeMint",
	"InitializeNonTransferableMint", "InterestBearingMintExtension", "CpiGuardExtension",
	"InitializePermanentDelegate", "TransferHookExtension", "ConfidentialTransferFeeExtension",
	"WithdrawExcessLamports", "MetadataPointerExtension", "GroupPointerExtension",
	"GroupMemberPointerExtension", "ConfidentialMintBurnExtension", "ScaledUiAmountExtension",
	"PausableExtension", "UnwrapLamports", "PermissionedBurnExtension",
}

var subNames = [kindEnd - KindInitializeTransferFeeConfig]string{
	"InitializeTransferFeeConfig", "TransferCheckedWithFee", "WithdrawWithheldTokensFromMint",
	"WithdrawWithheldTokensFromAccounts", "HarvestWithheldTokensToMint", "SetTransferFee",
	"InitializeDefaultAccountState", "UpdateDefaultAccountState", "EnableRequiredMemoTransfers",
	"DisableRequiredMemoTransfers", "InitializeInterestBearingConfig",
	"UpdateInterestBearingConfigRate", "EnableCpiGuard", "DisableCpiGuard",
	"InitializeMetadataPointer", "UpdateMetadataPointer", "InitializeTokenMetadata",
	"UpdateTokenMetadataField", "RemoveTokenMetadataKey", "UpdateTokenMetadataUpdateAuthority",
	"EmitTokenMetadata",
}

// String returns the instruction's name ("TransferChecked", "TransferCheckedWithFee").
func (k Kind) String() string {
	switch {
	case k < numTags:
		return tagNames[k]
	case k == KindBatch:
		return "Batch"
	case k >= KindInitializeTransferFeeConfig && k < kindEnd:
		return subNames[k-KindInitializeTransferFeeConfig]
	}
	return "Unknown"
}

// AuthorityType is the authority SetAuthority changes.
type AuthorityType uint8

// The authority types (SPL Token knows the first four).
const (
	AuthorityMintTokens AuthorityType = iota
	AuthorityFreezeAccount
	AuthorityAccountOwner
	AuthorityCloseAccount
	AuthorityTransferFeeConfig
	AuthorityWithheldWithdraw
	AuthorityCloseMint
	AuthorityInterestRate
	AuthorityPermanentDelegate
	AuthorityConfidentialTransferMint
	AuthorityTransferHookProgramID
	AuthorityConfidentialTransferFeeConfig
	AuthorityMetadataPointer
	AuthorityGroupPointer
	AuthorityGroupMemberPointer
	AuthorityScaledUiAmount
	AuthorityPause
	AuthorityPermissionedBurn
	numAuthorityTypes
)

var authorityTypeNames = [numAuthorityTypes]string{
	"mintTokens", "freezeAccount", "accountOwner", "closeAccount", "transferFeeConfig",
	"withheldWithdraw", "closeMint", "interestRate", "permanentDelegate",
	"confidentialTransferMint", "transferHookProgramId", "confidentialTransferFeeConfig",
	"metadataPointer", "groupPointer", "groupMemberPointer", "scaledUiAmount", "pause",
	"permissionedBurn",
}

// String returns the name jsonParsed uses ("mintTokens").
func (a AuthorityType) String() string {
	if a < numAuthorityTypes {
		return authorityTypeNames[a]
	}
	return "unknown"
}

// MetadataField is the field UpdateField writes: Name, Symbol, URI, or a key of the
// additional metadata.
type MetadataField struct {
	Kind uint8 // 0 name, 1 symbol, 2 uri, 3 key
	Key  string
}

// The metadata field kinds.
const (
	FieldName uint8 = iota
	FieldSymbol
	FieldURI
	FieldKey
)

// Instruction is a decoded token instruction. Which fields are meaningful depends on Kind:
//
//	InitializeMint(2)               Decimals, MintAuthority, FreezeAuthority
//	InitializeAccount2/3            Owner
//	InitializeMultisig(2)           M
//	Transfer, Approve, MintTo, Burn, AmountToUiAmount   Amount
//	*Checked                        Amount, Decimals
//	SetAuthority                    AuthorityType, NewAuthority
//	GetAccountDataSize, Reallocate  ExtensionTypes
//	UiAmountToAmount                UIAmount
//	InitializeMintCloseAuthority    NewAuthority (the close authority)
//	InitializePermanentDelegate     Delegate
//	InitializeTransferFeeConfig     TransferFeeConfigAuthority, WithdrawWithheldAuthority,
//	                                TransferFeeBasisPoints, MaximumFee
//	TransferCheckedWithFee          Amount, Decimals, Fee
//	WithdrawWithheldTokensFromAccounts  NumTokenAccounts
//	SetTransferFee                  TransferFeeBasisPoints, MaximumFee
//	Initialize/UpdateDefaultAccountState  State
//	InitializeInterestBearingConfig RateAuthority, Rate
//	UpdateInterestBearingConfigRate Rate
//	InitializeMetadataPointer       Authority, MetadataAddress
//	UpdateMetadataPointer           MetadataAddress
//	InitializeTokenMetadata         Name, Symbol, URI
//	UpdateTokenMetadataField        Field, Value
//	RemoveTokenMetadataKey          Idempotent, Key
//	UpdateTokenMetadataUpdateAuthority  NewAuthority
//	EmitTokenMetadata               Start, End
//	UnwrapLamports                  OptAmount
//	extensions ledgerd does not run Raw (the data after the tag)
type Instruction struct {
	Kind            Kind
	Amount          uint64
	Decimals        uint8
	Fee             uint64
	M               uint8
	MintAuthority   core.Pubkey
	FreezeAuthority COption[core.Pubkey]
	Owner           core.Pubkey
	AuthorityType   AuthorityType
	NewAuthority    COption[core.Pubkey]
	UIAmount        string
	ExtensionTypes  []ExtensionType
	Delegate        core.Pubkey

	TransferFeeConfigAuthority COption[core.Pubkey]
	WithdrawWithheldAuthority  COption[core.Pubkey]
	TransferFeeBasisPoints     uint16
	MaximumFee                 uint64
	NumTokenAccounts           uint8
	State                      AccountState
	RateAuthority              COption[core.Pubkey]
	Rate                       int16
	Authority                  COption[core.Pubkey]
	MetadataAddress            COption[core.Pubkey]

	Name, Symbol, URI string
	Field             MetadataField
	Value             string
	Idempotent        bool
	Key               string
	Start, End        COption[uint64]
	OptAmount         COption[uint64]

	Raw []byte
}

// The token-metadata interface's instruction discriminators: the first 8 bytes of
// sha256("spl_token_metadata_interface:<name>").
var (
	discInitializeMetadata  = metadataDiscriminator("initialize_account")
	discUpdateField         = metadataDiscriminator("updating_field")
	discRemoveKey           = metadataDiscriminator("remove_key_ix")
	discUpdateAuthority     = metadataDiscriminator("update_the_authority")
	discEmit                = metadataDiscriminator("emitter")
	tokenMetadataDiscrimLen = 8
)

func metadataDiscriminator(name string) [8]byte {
	h := sha256.Sum256([]byte("spl_token_metadata_interface:" + name))
	return [8]byte(h[:8])
}

// reader reads the fixed little-endian fields of instruction data; a short read fails with
// err (whichever error the decoder reports).
type reader struct {
	b  []byte
	ok bool
}

func (r *reader) take(n int) []byte {
	if !r.ok || len(r.b) < n {
		r.ok = false
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) u8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u16() uint16 {
	if b := r.take(2); b != nil {
		return binary.LittleEndian.Uint16(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *reader) pubkey() core.Pubkey {
	if b := r.take(32); b != nil {
		return core.Pubkey(b)
	}
	return core.Pubkey{}
}

// coptionPubkey reads the instruction encoding of COption<Pubkey>: a byte 0, or 1 and 32
// bytes.
func (r *reader) coptionPubkey() COption[core.Pubkey] {
	switch r.u8() {
	case 0:
		return COption[core.Pubkey]{}
	case 1:
		return Some(r.pubkey())
	}
	r.ok = false
	return COption[core.Pubkey]{}
}

// extensionTypesFrom reads a list of u16 extension types (GetAccountDataSize, Reallocate):
// an odd byte or an unknown type is InvalidAccountData.
func extensionTypesFrom(b []byte) ([]ExtensionType, error) {
	out := make([]ExtensionType, 0, len(b)/2)
	for len(b) > 0 {
		if len(b) < 2 {
			return nil, errInvalidAccountData
		}
		t, err := extensionTypeFromBytes(b)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
		b = b[2:]
	}
	return out, nil
}

// Decode decodes token instruction data as the programs' instruction unpackers read it (the
// interface's TokenInstruction::unpack, which tolerates trailing bytes), for parsers. Both
// programs share the encoding; SPL Token only knows tags 0 to 24. Errors are
// InvalidInstruction (custom 12) for malformed data, and InvalidAccountData for bad extension
// type lists.
func Decode(data []byte) (Instruction, error) {
	return decode(data, false)
}

func decode(data []byte, classic bool) (Instruction, error) {
	invalid := tokenErr(InvalidInstruction)
	if len(data) == 0 {
		return Instruction{}, invalid
	}
	if !classic && len(data) >= tokenMetadataDiscrimLen && data[0] >= byte(numTags) && data[0] != byte(KindBatch) {
		if ix, ok := decodeMetadataInstruction(data); ok {
			return ix, nil
		}
		return Instruction{}, invalid
	}
	ix := Instruction{Kind: Kind(data[0])}
	r := reader{b: data[1:], ok: true}
	switch ix.Kind {
	case KindInitializeMint, KindInitializeMint2:
		ix.Decimals = r.u8()
		ix.MintAuthority = r.pubkey()
		ix.FreezeAuthority = r.coptionPubkey()
	case KindInitializeAccount, KindRevoke, KindCloseAccount, KindFreezeAccount, KindThawAccount,
		KindSyncNative, KindInitializeImmutableOwner:
	case KindInitializeMultisig, KindInitializeMultisig2:
		ix.M = r.u8()
	case KindTransfer, KindApprove, KindMintTo, KindBurn, KindAmountToUiAmount:
		ix.Amount = r.u64()
	case KindSetAuthority:
		ix.AuthorityType = AuthorityType(r.u8())
		if r.ok && (ix.AuthorityType >= numAuthorityTypes || (classic && ix.AuthorityType > AuthorityCloseAccount)) {
			return Instruction{}, invalid
		}
		ix.NewAuthority = r.coptionPubkey()
	case KindTransferChecked, KindApproveChecked, KindMintToChecked, KindBurnChecked:
		ix.Amount = r.u64()
		ix.Decimals = r.u8()
	case KindInitializeAccount2, KindInitializeAccount3:
		ix.Owner = r.pubkey()
	case KindGetAccountDataSize:
		if !classic {
			types, err := extensionTypesFrom(r.b)
			if err != nil {
				return Instruction{}, err
			}
			ix.ExtensionTypes = types
		}
	case KindUiAmountToAmount:
		if !utf8.Valid(r.b) {
			return Instruction{}, invalid
		}
		ix.UIAmount = string(r.b)
	default:
		if classic {
			return Instruction{}, invalid
		}
		return decodeExtension(ix.Kind, r.b)
	}
	if !r.ok {
		return Instruction{}, invalid
	}
	return ix, nil
}

// decodeExtension decodes the Token-2022-only instructions leniently.
func decodeExtension(tag Kind, rest []byte) (Instruction, error) {
	invalid := tokenErr(InvalidInstruction)
	ix := Instruction{Kind: tag}
	r := reader{b: rest, ok: true}
	switch tag {
	case KindInitializeMintCloseAuthority:
		ix.NewAuthority = r.coptionPubkey()
	case KindInitializePermanentDelegate:
		ix.Delegate = r.pubkey()
	case KindReallocate:
		types, err := extensionTypesFrom(rest)
		if err != nil {
			return Instruction{}, err
		}
		ix.ExtensionTypes = types
	case KindCreateNativeMint, KindInitializeNonTransferableMint, KindWithdrawExcessLamports:
	case KindUnwrapLamports:
		switch r.u8() {
		case 0:
		case 1:
			ix.OptAmount = Some(r.u64())
		default:
			r.ok = false
		}
	case KindTransferFeeExtension:
		return decodeTransferFeeInstruction(rest)
	case KindDefaultAccountStateExtension:
		if len(rest) != 2 || rest[0] > 1 || rest[1] > byte(StateFrozen) {
			return Instruction{}, invalid
		}
		ix.Kind = KindInitializeDefaultAccountState + Kind(rest[0])
		ix.State = AccountState(rest[1])
	case KindMemoTransferExtension, KindCpiGuardExtension:
		if len(rest) == 0 {
			return Instruction{}, errInvalidInstructionData
		}
		if rest[0] > 1 {
			return Instruction{}, invalid
		}
		base := KindEnableRequiredMemoTransfers
		if tag == KindCpiGuardExtension {
			base = KindEnableCpiGuard
		}
		ix.Kind = base + Kind(rest[0])
	case KindInterestBearingMintExtension:
		if len(rest) == 0 {
			return Instruction{}, errInvalidInstructionData
		}
		switch rest[0] {
		case 0:
			if len(rest) != 1+34 {
				return Instruction{}, errInvalidInstructionData
			}
			ix.Kind = KindInitializeInterestBearingConfig
			ix.RateAuthority = optionalKey(rest[1:])
			ix.Rate = int16(binary.LittleEndian.Uint16(rest[33:]))
		case 1:
			if len(rest) != 1+2 {
				return Instruction{}, errInvalidInstructionData
			}
			ix.Kind = KindUpdateInterestBearingConfigRate
			ix.Rate = int16(binary.LittleEndian.Uint16(rest[1:]))
		default:
			return Instruction{}, invalid
		}
	case KindMetadataPointerExtension:
		if len(rest) == 0 {
			return Instruction{}, errInvalidInstructionData
		}
		switch rest[0] {
		case 0:
			if len(rest) != 1+64 {
				return Instruction{}, errInvalidInstructionData
			}
			ix.Kind = KindInitializeMetadataPointer
			ix.Authority, ix.MetadataAddress = optionalKey(rest[1:]), optionalKey(rest[33:])
		case 1:
			if len(rest) != 1+32 {
				return Instruction{}, errInvalidInstructionData
			}
			ix.Kind = KindUpdateMetadataPointer
			ix.MetadataAddress = optionalKey(rest[1:])
		default:
			return Instruction{}, invalid
		}
	case KindConfidentialTransferExtension, KindTransferHookExtension, KindConfidentialTransferFeeExtension,
		KindGroupPointerExtension, KindGroupMemberPointerExtension, KindConfidentialMintBurnExtension,
		KindScaledUiAmountExtension, KindPausableExtension, KindPermissionedBurnExtension, KindBatch:
		ix.Raw = append([]byte(nil), rest...)
	default:
		return Instruction{}, invalid
	}
	if !r.ok {
		return Instruction{}, invalid
	}
	return ix, nil
}

// decodeTransferFeeInstruction decodes TransferFeeInstruction::unpack (errors are InvalidInstruction).
func decodeTransferFeeInstruction(rest []byte) (Instruction, error) {
	invalid := tokenErr(InvalidInstruction)
	if len(rest) == 0 {
		return Instruction{}, invalid
	}
	r := reader{b: rest[1:], ok: true}
	var ix Instruction
	switch rest[0] {
	case 0:
		ix.Kind = KindInitializeTransferFeeConfig
		ix.TransferFeeConfigAuthority = r.coptionPubkey()
		ix.WithdrawWithheldAuthority = r.coptionPubkey()
		ix.TransferFeeBasisPoints = r.u16()
		ix.MaximumFee = r.u64()
	case 1:
		ix.Kind = KindTransferCheckedWithFee
		ix.Amount = r.u64()
		ix.Decimals = r.u8()
		ix.Fee = r.u64()
	case 2:
		ix.Kind = KindWithdrawWithheldTokensFromMint
	case 3:
		ix.Kind = KindWithdrawWithheldTokensFromAccounts
		ix.NumTokenAccounts = r.u8()
	case 4:
		ix.Kind = KindHarvestWithheldTokensToMint
	case 5:
		ix.Kind = KindSetTransferFee
		ix.TransferFeeBasisPoints = r.u16()
		ix.MaximumFee = r.u64()
	default:
		return Instruction{}, invalid
	}
	if !r.ok {
		return Instruction{}, invalid
	}
	return ix, nil
}

// decodeMetadataInstruction decodes a token-metadata interface instruction (8-byte discriminator
// and borsh data that must be consumed exactly).
func decodeMetadataInstruction(data []byte) (Instruction, bool) {
	disc := [8]byte(data[:8])
	r := borshReader{b: data[8:]}
	var ix Instruction
	switch disc {
	case discInitializeMetadata:
		ix.Kind = KindInitializeTokenMetadata
		ix.Name, ix.Symbol, ix.URI = r.str(), r.str(), r.str()
	case discUpdateField:
		ix.Kind = KindUpdateTokenMetadataField
		ix.Field.Kind = r.u8()
		switch {
		case ix.Field.Kind == FieldKey:
			ix.Field.Key = r.str()
		case ix.Field.Kind > FieldKey:
			return Instruction{}, false
		}
		ix.Value = r.str()
	case discRemoveKey:
		ix.Kind = KindRemoveTokenMetadataKey
		ix.Idempotent = r.boolean()
		ix.Key = r.str()
	case discUpdateAuthority:
		ix.Kind = KindUpdateTokenMetadataUpdateAuthority
		ix.NewAuthority = optionalKeyOf(r.pubkey())
	case discEmit:
		ix.Kind = KindEmitTokenMetadata
		ix.Start = r.optionU64()
		ix.End = r.optionU64()
	default:
		return Instruction{}, false
	}
	if r.err || len(r.b) != 0 {
		return Instruction{}, false
	}
	return ix, true
}
