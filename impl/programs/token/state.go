package token

import (
	"encoding/binary"

	"ledgerd/impl/core"
)

// Program ids and well-known accounts.
var (
	// ProgramID is SPL Token (Tokenkeg...).
	ProgramID = core.TokenProgramID
	// Program2022ID is Token-2022 (Tokenz...).
	Program2022ID = core.Token2022ProgramID
	// NativeMint is SPL Token's wrapped SOL mint (So111...2).
	NativeMint = core.NativeMintID
	// NativeMint2022 is Token-2022's wrapped SOL mint (9pan9b...).
	NativeMint2022 = core.NativeMint2022ID
)

// Sizes and limits of the base state, shared by both programs.
const (
	MintSize     = 82
	AccountSize  = 165
	MultisigSize = 355
	// MinSigners and MaxSigners bound a multisig's N (and M).
	MinSigners = 1
	MaxSigners = 11
	// NativeDecimals is the decimals of the wrapped SOL mints.
	NativeDecimals = 9
)

// Offsets inside the base layouts.
const (
	mintAuthorityOff   = 0  // COption<Pubkey>: u32 tag + 32 bytes
	mintSupplyOff      = 36 // u64
	mintDecimalsOff    = 44
	mintInitializedOff = 45
	mintFreezeOff      = 46 // COption<Pubkey>

	accMintOff           = 0
	accOwnerOff          = 32
	accAmountOff         = 64
	accDelegateOff       = 72 // COption<Pubkey>
	accStateOff          = 108
	accIsNativeOff       = 109 // COption<u64>: u32 tag + 8 bytes
	accDelegatedAmtOff   = 121
	accCloseAuthorityOff = 129 // COption<Pubkey>
)

// IsProgramID reports whether id is one of the two token programs.
func IsProgramID(id core.Pubkey) bool { return id == ProgramID || id == Program2022ID }

// NativeMintOf returns the wrapped SOL mint of the token program programID.
func NativeMintOf(programID core.Pubkey) core.Pubkey {
	if programID == Program2022ID {
		return NativeMint2022
	}
	return NativeMint
}

// COption is Solana's C-compatible option: a u32 tag (0 none, 1 some) followed by the value,
// whose bytes are present (and kept) even when the tag says none.
type COption[T any] struct {
	Some  bool
	Value T
}

// Some returns a set COption.
func Some[T any](v T) COption[T] { return COption[T]{Some: true, Value: v} }

// Get returns the value and whether it is set.
func (o COption[T]) Get() (T, bool) { return o.Value, o.Some }

// AccountState is the state byte of a token account.
type AccountState uint8

// The account states.
const (
	StateUninitialized AccountState = iota
	StateInitialized
	StateFrozen
)

// String returns the reference's variant name.
func (s AccountState) String() string {
	switch s {
	case StateUninitialized:
		return "Uninitialized"
	case StateInitialized:
		return "Initialized"
	case StateFrozen:
		return "Frozen"
	}
	return "Unknown"
}

// Mint is a token mint's base state (82 bytes).
type Mint struct {
	MintAuthority   COption[core.Pubkey]
	Supply          uint64
	Decimals        uint8
	IsInitialized   bool
	FreezeAuthority COption[core.Pubkey]
}

// Account is a token account's base state (165 bytes).
type Account struct {
	Mint     core.Pubkey
	Owner    core.Pubkey
	Amount   uint64
	Delegate COption[core.Pubkey]
	State    AccountState
	// IsNative is set for wrapped SOL accounts and holds their rent-exempt reserve.
	IsNative        COption[uint64]
	DelegatedAmount uint64
	CloseAuthority  COption[core.Pubkey]
}

// IsFrozen reports whether the account is frozen.
func (a Account) IsFrozen() bool { return a.State == StateFrozen }

// Multisig is a multisignature authority (355 bytes).
type Multisig struct {
	M, N          uint8
	IsInitialized bool
	Signers       [MaxSigners]core.Pubkey
}

// MintData returns the 82 bytes of m.
func (m *Mint) MintData() []byte {
	b := make([]byte, MintSize)
	putCOptionKey(b[mintAuthorityOff:], m.MintAuthority, true)
	binary.LittleEndian.PutUint64(b[mintSupplyOff:], m.Supply)
	b[mintDecimalsOff] = m.Decimals
	if m.IsInitialized {
		b[mintInitializedOff] = 1
	}
	putCOptionKey(b[mintFreezeOff:], m.FreezeAuthority, true)
	return b
}

// AccountData returns the 165 bytes of a.
func (a *Account) AccountData() []byte {
	b := make([]byte, AccountSize)
	copy(b[accMintOff:], a.Mint[:])
	copy(b[accOwnerOff:], a.Owner[:])
	binary.LittleEndian.PutUint64(b[accAmountOff:], a.Amount)
	putCOptionKey(b[accDelegateOff:], a.Delegate, true)
	b[accStateOff] = byte(a.State)
	putCOptionU64(b[accIsNativeOff:], a.IsNative, true)
	binary.LittleEndian.PutUint64(b[accDelegatedAmtOff:], a.DelegatedAmount)
	putCOptionKey(b[accCloseAuthorityOff:], a.CloseAuthority, true)
	return b
}

// MultisigData returns the 355 bytes of m.
func (m *Multisig) MultisigData() []byte {
	b := make([]byte, MultisigSize)
	b[0], b[1] = m.M, m.N
	if m.IsInitialized {
		b[2] = 1
	}
	for i := range m.Signers {
		copy(b[3+32*i:], m.Signers[i][:])
	}
	return b
}

// NativeMintData returns the data of a wrapped SOL mint account as the programs create it:
// no authorities, no supply, 9 decimals, initialized.
func NativeMintData() []byte {
	m := Mint{Decimals: NativeDecimals, IsInitialized: true}
	return m.MintData()
}

// UnpackMint decodes an initialized mint of either program: 82 bytes, or a Token-2022 mint
// with extensions (the base, zero padding to 165 bytes, the Mint account type, TLV data).
// Errors are the programs' own (InvalidAccountData, UninitializedAccount).
func UnpackMint(data []byte) (Mint, error) {
	if len(data) != MintSize {
		if _, err := splitExtended(data, kindMint, true); err != nil {
			return Mint{}, err
		}
	}
	m, err := decodeMintStrict(data[:MintSize])
	if err != nil {
		return Mint{}, err
	}
	if !m.IsInitialized {
		return Mint{}, errUninitializedAccount
	}
	return m, nil
}

// UnpackAccount decodes an initialized token account of either program (165 bytes, or with
// the Account account type and extensions after them).
func UnpackAccount(data []byte) (Account, error) {
	if len(data) != AccountSize {
		if _, err := splitExtended(data, kindAccount, true); err != nil {
			return Account{}, err
		}
	}
	a, err := decodeAccountStrict(data[:AccountSize])
	if err != nil {
		return Account{}, err
	}
	if a.State == StateUninitialized {
		return Account{}, errUninitializedAccount
	}
	return a, nil
}

// UnpackMultisig decodes an initialized multisig (exactly 355 bytes).
func UnpackMultisig(data []byte) (Multisig, error) {
	m, err := decodeMultisigStrict(data)
	if err != nil {
		return Multisig{}, err
	}
	if !m.IsInitialized {
		return Multisig{}, errUninitializedAccount
	}
	return m, nil
}

// AccountMintOwner returns the mint and owner of an initialized token account of either
// program without decoding the rest (the reference's GenericTokenAccount: 165 bytes, or
// longer with the Account account type at byte 165), for indexes and balance extraction.
func AccountMintOwner(data []byte) (mint, owner core.Pubkey, ok bool) {
	if !IsInitializedAccountData(data) {
		return mint, owner, false
	}
	return core.Pubkey(data[accMintOff:accOwnerOff]), core.Pubkey(data[accOwnerOff:accAmountOff]), true
}

// IsInitializedAccountData reports whether data is an initialized token account as the
// reference's account indexes see it: 165 bytes, or longer (but not a multisig) with the
// Account account type byte, and a state other than Uninitialized.
func IsInitializedAccountData(data []byte) bool {
	switch {
	case len(data) == AccountSize:
	case len(data) > AccountSize && len(data) != MultisigSize && data[AccountSize] == byte(AccountTypeAccount):
	default:
		return false
	}
	return data[accStateOff] != byte(StateUninitialized)
}

// AccountAmount returns the token amount of account data without further checks (callers
// check the layout first).
func AccountAmount(data []byte) uint64 { return binary.LittleEndian.Uint64(data[accAmountOff:]) }

// AccountDelegate returns the delegate of account data, when one is set (callers check the layout
// first).
func AccountDelegate(data []byte) (core.Pubkey, bool) {
	if binary.LittleEndian.Uint32(data[accDelegateOff:]) != 1 {
		return core.Pubkey{}, false
	}
	return core.Pubkey(data[accDelegateOff+4 : accDelegateOff+36]), true
}

// MintDecimals returns the decimals of mint data: a mint of either program, extensions or not.
func MintDecimals(data []byte) (uint8, bool) {
	if len(data) < MintSize || data[mintInitializedOff] == 0 {
		return 0, false
	}
	return data[mintDecimalsOff], true
}

// decodeCOptionKeyStrict reads a COption<Pubkey> as SPL Token's Pack does: tags other than 0
// and 1 are InvalidAccountData.
func decodeCOptionKeyStrict(b []byte) (COption[core.Pubkey], error) {
	switch binary.LittleEndian.Uint32(b) {
	case 0:
		return COption[core.Pubkey]{}, nil
	case 1:
		return Some(core.Pubkey(b[4:36])), nil
	}
	return COption[core.Pubkey]{}, errInvalidAccountData
}

// readCOptionKey reads a COption<Pubkey> as Token-2022's Pod types do: set iff the tag is 1.
func readCOptionKey(b []byte) COption[core.Pubkey] {
	if binary.LittleEndian.Uint32(b) == 1 {
		return Some(core.Pubkey(b[4:36]))
	}
	return COption[core.Pubkey]{}
}

func readCOptionU64(b []byte) COption[uint64] {
	if binary.LittleEndian.Uint32(b) == 1 {
		return Some(binary.LittleEndian.Uint64(b[4:12]))
	}
	return COption[uint64]{}
}

// putCOptionKey writes o. SPL Token's pack writes only the tag for none and keeps the old
// value bytes; Token-2022's Pod none zeroes them (zeroNone).
func putCOptionKey(b []byte, o COption[core.Pubkey], zeroNone bool) {
	if o.Some {
		binary.LittleEndian.PutUint32(b, 1)
		copy(b[4:36], o.Value[:])
		return
	}
	binary.LittleEndian.PutUint32(b, 0)
	if zeroNone {
		clear(b[4:36])
	}
}

func putCOptionU64(b []byte, o COption[uint64], zeroNone bool) {
	if o.Some {
		binary.LittleEndian.PutUint32(b, 1)
		binary.LittleEndian.PutUint64(b[4:12], o.Value)
		return
	}
	binary.LittleEndian.PutUint32(b, 0)
	if zeroNone {
		clear(b[4:12])
	}
}

// decodeMintStrict is SPL Token's Mint::unpack_unchecked on exactly 82 bytes.
func decodeMintStrict(b []byte) (Mint, error) {
	if len(b) != MintSize {
		return Mint{}, errInvalidAccountData
	}
	var m Mint
	var err error
	if m.MintAuthority, err = decodeCOptionKeyStrict(b[mintAuthorityOff:]); err != nil {
		return Mint{}, err
	}
	m.Supply = binary.LittleEndian.Uint64(b[mintSupplyOff:])
	m.Decimals = b[mintDecimalsOff]
	switch b[mintInitializedOff] {
	case 0:
	case 1:
		m.IsInitialized = true
	default:
		return Mint{}, errInvalidAccountData
	}
	if m.FreezeAuthority, err = decodeCOptionKeyStrict(b[mintFreezeOff:]); err != nil {
		return Mint{}, err
	}
	return m, nil
}

// decodeAccountStrict is SPL Token's Account::unpack_unchecked on exactly 165 bytes.
func decodeAccountStrict(b []byte) (Account, error) {
	if len(b) != AccountSize {
		return Account{}, errInvalidAccountData
	}
	var a Account
	var err error
	a.Mint = core.Pubkey(b[accMintOff:accOwnerOff])
	a.Owner = core.Pubkey(b[accOwnerOff:accAmountOff])
	a.Amount = binary.LittleEndian.Uint64(b[accAmountOff:])
	if a.Delegate, err = decodeCOptionKeyStrict(b[accDelegateOff:]); err != nil {
		return Account{}, err
	}
	if b[accStateOff] > byte(StateFrozen) {
		return Account{}, errInvalidAccountData
	}
	a.State = AccountState(b[accStateOff])
	switch binary.LittleEndian.Uint32(b[accIsNativeOff:]) {
	case 0:
	case 1:
		a.IsNative = Some(binary.LittleEndian.Uint64(b[accIsNativeOff+4:]))
	default:
		return Account{}, errInvalidAccountData
	}
	a.DelegatedAmount = binary.LittleEndian.Uint64(b[accDelegatedAmtOff:])
	if a.CloseAuthority, err = decodeCOptionKeyStrict(b[accCloseAuthorityOff:]); err != nil {
		return Account{}, err
	}
	return a, nil
}

// decodeMultisigStrict is SPL Token's Multisig::unpack_unchecked on exactly 355 bytes.
func decodeMultisigStrict(b []byte) (Multisig, error) {
	if len(b) != MultisigSize {
		return Multisig{}, errInvalidAccountData
	}
	var m Multisig
	m.M, m.N = b[0], b[1]
	switch b[2] {
	case 0:
	case 1:
		m.IsInitialized = true
	default:
		return Multisig{}, errInvalidAccountData
	}
	for i := range m.Signers {
		m.Signers[i] = core.Pubkey(b[3+32*i : 35+32*i])
	}
	return m, nil
}

// encodeMint writes m into the 82 bytes at b with SPL Token's pack (none keeps old bytes).
func encodeMint(b []byte, m *Mint, zeroNone bool) {
	putCOptionKey(b[mintAuthorityOff:], m.MintAuthority, zeroNone)
	binary.LittleEndian.PutUint64(b[mintSupplyOff:], m.Supply)
	b[mintDecimalsOff] = m.Decimals
	b[mintInitializedOff] = 0
	if m.IsInitialized {
		b[mintInitializedOff] = 1
	}
	putCOptionKey(b[mintFreezeOff:], m.FreezeAuthority, zeroNone)
}

// encodeAccount writes a into the 165 bytes at b.
func encodeAccount(b []byte, a *Account, zeroNone bool) {
	copy(b[accMintOff:], a.Mint[:])
	copy(b[accOwnerOff:], a.Owner[:])
	binary.LittleEndian.PutUint64(b[accAmountOff:], a.Amount)
	putCOptionKey(b[accDelegateOff:], a.Delegate, zeroNone)
	b[accStateOff] = byte(a.State)
	putCOptionU64(b[accIsNativeOff:], a.IsNative, zeroNone)
	binary.LittleEndian.PutUint64(b[accDelegatedAmtOff:], a.DelegatedAmount)
	putCOptionKey(b[accCloseAuthorityOff:], a.CloseAuthority, zeroNone)
}

// Lenient readers of Token-2022's Pod base state (no validation, as bytemuck does).

func podMintInitialized(b []byte) bool { return b[mintInitializedOff] != 0 }

func podAccountState(b []byte) AccountState { return AccountState(b[accStateOff]) }

// readMintPod reads the base mint the way Token-2022's PodMint does.
func readMintPod(b []byte) Mint {
	return Mint{
		MintAuthority:   readCOptionKey(b[mintAuthorityOff:]),
		Supply:          binary.LittleEndian.Uint64(b[mintSupplyOff:]),
		Decimals:        b[mintDecimalsOff],
		IsInitialized:   b[mintInitializedOff] != 0,
		FreezeAuthority: readCOptionKey(b[mintFreezeOff:]),
	}
}

// readAccountPod reads the base account the way Token-2022's PodAccount does.
func readAccountPod(b []byte) Account {
	return Account{
		Mint:            core.Pubkey(b[accMintOff:accOwnerOff]),
		Owner:           core.Pubkey(b[accOwnerOff:accAmountOff]),
		Amount:          binary.LittleEndian.Uint64(b[accAmountOff:]),
		Delegate:        readCOptionKey(b[accDelegateOff:]),
		State:           AccountState(b[accStateOff]),
		IsNative:        readCOptionU64(b[accIsNativeOff:]),
		DelegatedAmount: binary.LittleEndian.Uint64(b[accDelegatedAmtOff:]),
		CloseAuthority:  readCOptionKey(b[accCloseAuthorityOff:]),
	}
}

// isOwnedBySystemOrIncinerator: accounts owned by these cannot sign, so anyone may burn
// from them or close them to the incinerator.
func isOwnedBySystemOrIncinerator(owner core.Pubkey) bool {
	return owner == core.SystemProgramID || owner == core.IncineratorID
}
