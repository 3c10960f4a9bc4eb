package token

import (
	"encoding/binary"

	"ledgerd/impl/core"
)

// AccountType is the byte Token-2022 writes right after the 165-byte base area of a mint or
// account that has extensions. Plain 82-byte mints and 165-byte accounts have none: their
// kind follows from their size.
type AccountType uint8

// The account types.
const (
	AccountTypeUninitialized AccountType = iota
	AccountTypeMint
	AccountTypeAccount
)

// ExtensionType is the u16 type of a TLV entry.
type ExtensionType uint16

// The extension types, numbered as in spl-token-2022.
const (
	ExtUninitialized ExtensionType = iota
	ExtTransferFeeConfig
	ExtTransferFeeAmount
	ExtMintCloseAuthority
	ExtConfidentialTransferMint
	ExtConfidentialTransferAccount
	ExtDefaultAccountState
	ExtImmutableOwner
	ExtMemoTransfer
	ExtNonTransferable
	ExtInterestBearingConfig
	ExtCpiGuard
	ExtPermanentDelegate
	ExtNonTransferableAccount
	ExtTransferHook
	ExtTransferHookAccount
	ExtConfidentialTransferFeeConfig
	ExtConfidentialTransferFeeAmount
	ExtMetadataPointer
	ExtTokenMetadata
	ExtGroupPointer
	ExtTokenGroup
	ExtGroupMemberPointer
	ExtTokenGroupMember
	ExtConfidentialMintBurn
	ExtScaledUiAmount
	ExtPausable
	ExtPausableAccount
	ExtPermissionedBurn
	numExtensionTypes
)

// variableSize marks an extension whose length depends on its content.
const variableSize = -1

var extensionInfo = [numExtensionTypes]struct {
	name string
	size int
	acct AccountType
}{
	ExtUninitialized:                 {"Uninitialized", 0, AccountTypeUninitialized},
	ExtTransferFeeConfig:             {"TransferFeeConfig", 108, AccountTypeMint},
	ExtTransferFeeAmount:             {"TransferFeeAmount", 8, AccountTypeAccount},
	ExtMintCloseAuthority:            {"MintCloseAuthority", 32, AccountTypeMint},
	ExtConfidentialTransferMint:      {"ConfidentialTransferMint", 65, AccountTypeMint},
	ExtConfidentialTransferAccount:   {"ConfidentialTransferAccount", 295, AccountTypeAccount},
	ExtDefaultAccountState:           {"DefaultAccountState", 1, AccountTypeMint},
	ExtImmutableOwner:                {"ImmutableOwner", 0, AccountTypeAccount},
	ExtMemoTransfer:                  {"MemoTransfer", 1, AccountTypeAccount},
	ExtNonTransferable:               {"NonTransferable", 0, AccountTypeMint},
	ExtInterestBearingConfig:         {"InterestBearingConfig", 52, AccountTypeMint},
	ExtCpiGuard:                      {"CpiGuard", 1, AccountTypeAccount},
	ExtPermanentDelegate:             {"PermanentDelegate", 32, AccountTypeMint},
	ExtNonTransferableAccount:        {"NonTransferableAccount", 0, AccountTypeAccount},
	ExtTransferHook:                  {"TransferHook", 64, AccountTypeMint},
	ExtTransferHookAccount:           {"TransferHookAccount", 1, AccountTypeAccount},
	ExtConfidentialTransferFeeConfig: {"ConfidentialTransferFeeConfig", 129, AccountTypeMint},
	ExtConfidentialTransferFeeAmount: {"ConfidentialTransferFeeAmount", 64, AccountTypeAccount},
	ExtMetadataPointer:               {"MetadataPointer", 64, AccountTypeMint},
	ExtTokenMetadata:                 {"TokenMetadata", variableSize, AccountTypeMint},
	ExtGroupPointer:                  {"GroupPointer", 64, AccountTypeMint},
	ExtTokenGroup:                    {"TokenGroup", 80, AccountTypeMint},
	ExtGroupMemberPointer:            {"GroupMemberPointer", 64, AccountTypeMint},
	ExtTokenGroupMember:              {"TokenGroupMember", 72, AccountTypeMint},
	ExtConfidentialMintBurn:          {"ConfidentialMintBurn", 196, AccountTypeMint},
	ExtScaledUiAmount:                {"ScaledUiAmount", 56, AccountTypeMint},
	ExtPausable:                      {"Pausable", 33, AccountTypeMint},
	ExtPausableAccount:               {"PausableAccount", 0, AccountTypeAccount},
	ExtPermissionedBurn:              {"PermissionedBurn", 32, AccountTypeMint},
}

// SupportedExtensions are the extensions ledgerd's Token-2022 initializes and enforces, in
// type order: every extension. The confidential ones run with the ZK ElGamal proof program's
// contexts (t22_confidential.go, t22_confidential_more.go).
var SupportedExtensions = []ExtensionType{
	ExtTransferFeeConfig, ExtTransferFeeAmount, ExtMintCloseAuthority, ExtConfidentialTransferMint,
	ExtConfidentialTransferAccount, ExtDefaultAccountState, ExtImmutableOwner, ExtMemoTransfer, ExtNonTransferable,
	ExtInterestBearingConfig, ExtCpiGuard, ExtPermanentDelegate, ExtNonTransferableAccount, ExtTransferHook,
	ExtTransferHookAccount, ExtConfidentialTransferFeeConfig, ExtConfidentialTransferFeeAmount, ExtMetadataPointer,
	ExtTokenMetadata, ExtGroupPointer, ExtTokenGroup, ExtGroupMemberPointer, ExtTokenGroupMember,
	ExtConfidentialMintBurn, ExtScaledUiAmount, ExtPausable, ExtPausableAccount, ExtPermissionedBurn,
}

// Valid reports whether t is a known extension type.
func (t ExtensionType) Valid() bool { return t < numExtensionTypes }

// String returns the reference's variant name ("TransferFeeConfig").
func (t ExtensionType) String() string {
	if t.Valid() {
		return extensionInfo[t].name
	}
	return "Unknown"
}

// AccountType returns the kind of account the extension belongs to (Uninitialized for
// unknown types).
func (t ExtensionType) AccountType() AccountType {
	if t.Valid() {
		return extensionInfo[t].acct
	}
	return AccountTypeUninitialized
}

// Size returns the fixed length of the extension's value; ok is false for TokenMetadata
// (variable) and unknown types.
func (t ExtensionType) Size() (n int, ok bool) {
	if !t.Valid() || extensionInfo[t].size == variableSize {
		return 0, false
	}
	return extensionInfo[t].size, true
}

// requiredAccountExtensions are the account extensions InitializeAccount adds for a mint
// extension.
func requiredAccountExtensions(t ExtensionType) []ExtensionType {
	switch t {
	case ExtTransferFeeConfig:
		return []ExtensionType{ExtTransferFeeAmount}
	case ExtNonTransferable:
		return []ExtensionType{ExtNonTransferableAccount, ExtImmutableOwner}
	case ExtTransferHook:
		return []ExtensionType{ExtTransferHookAccount}
	case ExtPausable:
		return []ExtensionType{ExtPausableAccount}
	}
	return nil
}

// baseKind is the base state a TLV area extends.
type baseKind struct {
	size int
	acct AccountType
}

var (
	kindMint    = baseKind{MintSize, AccountTypeMint}
	kindAccount = baseKind{AccountSize, AccountTypeAccount}
)

// baseAccountAndTypeLen is where TLV data starts: after the 165-byte base area (a mint is
// padded to it, so that a mint with extensions is never mistaken for an account) and the
// account type byte.
const baseAccountAndTypeLen = AccountSize + 1

// tlvHeaderLen is the type and length of a TLV entry.
const tlvHeaderLen = 4

// adjustLenForMultisig pads a length that would equal a multisig's, which is never extended.
func adjustLenForMultisig(n int) int {
	if n == MultisigSize {
		return n + 2
	}
	return n
}

// extState is an account's data split as Token-2022 sees it: the base, the account type byte
// (typeIdx, -1 when the data has no room for it) and the TLV area from tlvStart.
type extState struct {
	data     []byte
	kind     baseKind
	typeIdx  int
	tlvStart int
}

func (s *extState) base() []byte { return s.data[:s.kind.size] }
func (s *extState) tlv() []byte  { return s.data[s.tlvStart:] }

// checkMinLenAndNotMultisig is the first check of every unpack.
func checkMinLenAndNotMultisig(data []byte, min int) error {
	if len(data) == MultisigSize || len(data) < min {
		return errInvalidAccountData
	}
	return nil
}

// split finds the account type and TLV area after the base (type_and_tlv_indices): none when
// the data is only the base; otherwise the padding of a mint must be zero and the data must
// reach the account type.
func split(data []byte, kind baseKind) (extState, error) {
	s := extState{data: data, kind: kind, typeIdx: -1, tlvStart: len(data)}
	rest := data[kind.size:]
	if len(rest) == 0 {
		return s, nil
	}
	typeIdx := AccountSize - kind.size
	if len(rest) < typeIdx+1 {
		return s, errInvalidAccountData
	}
	for _, b := range rest[:typeIdx] {
		if b != 0 {
			return s, errInvalidAccountData
		}
	}
	s.typeIdx = kind.size + typeIdx
	s.tlvStart = s.typeIdx + 1
	return s, nil
}

// splitExtended checks the layout of data with extensions: initialized requires the base's
// account type, otherwise Uninitialized.
func splitExtended(data []byte, kind baseKind, initialized bool) (extState, error) {
	if err := checkMinLenAndNotMultisig(data, kind.size); err != nil {
		return extState{}, err
	}
	s, err := split(data, kind)
	if err != nil || s.typeIdx < 0 {
		return s, err
	}
	t := AccountType(data[s.typeIdx])
	if t > AccountTypeAccount {
		return s, errInvalidAccountData
	}
	want := kind.acct
	if !initialized {
		want = AccountTypeUninitialized
	}
	if t != want {
		return s, errInvalidAccountData
	}
	return s, nil
}

// unpackPod is PodStateWithExtensions::unpack: the base must be initialized (as the Pod types
// read it) and the account type must match.
func unpackPod(data []byte, kind baseKind) (extState, error) {
	if err := checkMinLenAndNotMultisig(data, kind.size); err != nil {
		return extState{}, err
	}
	if !podInitialized(data, kind) {
		return extState{}, errUninitializedAccount
	}
	return splitExtended(data, kind, true)
}

// unpackPodUninitialized is PodStateWithExtensionsMut::unpack_uninitialized.
func unpackPodUninitialized(data []byte, kind baseKind) (extState, error) {
	if err := checkMinLenAndNotMultisig(data, kind.size); err != nil {
		return extState{}, err
	}
	if podInitialized(data, kind) {
		return extState{}, tokenErr(AlreadyInUse)
	}
	s, err := splitExtended(data, kind, false)
	if err != nil {
		return s, err
	}
	first, ok, err := firstExtensionType(s.tlv())
	if err != nil {
		return s, err
	}
	if ok && first.AccountType() != kind.acct {
		return s, tokenErr(ExtensionBaseMismatch)
	}
	return s, nil
}

func podInitialized(data []byte, kind baseKind) bool {
	if kind.acct == AccountTypeMint {
		return podMintInitialized(data)
	}
	return podAccountState(data) != StateUninitialized
}

// extensionTypeFromBytes is ExtensionType::try_from(&[u8]): unknown types are
// InvalidAccountData.
func extensionTypeFromBytes(b []byte) (ExtensionType, error) {
	t := ExtensionType(binary.LittleEndian.Uint16(b))
	if !t.Valid() {
		return 0, errInvalidAccountData
	}
	return t, nil
}

// firstExtensionType returns the type of the first TLV entry, if any.
func firstExtensionType(tlv []byte) (ExtensionType, bool, error) {
	if len(tlv) <= 2 {
		return 0, false, nil
	}
	t, err := extensionTypeFromBytes(tlv)
	if err != nil || t == ExtUninitialized {
		return 0, false, err
	}
	return t, true, nil
}

// forEachExtension walks the TLV entries up to the first Uninitialized one (or the end, where
// fewer than two bytes remain) and returns the bytes they use.
func forEachExtension(tlv []byte, f func(t ExtensionType, value []byte)) (int, error) {
	start := 0
	for start < len(tlv) {
		if len(tlv) < start+2 {
			return start, nil
		}
		t, err := extensionTypeFromBytes(tlv[start:])
		if err != nil {
			return 0, err
		}
		if t == ExtUninitialized {
			return start, nil
		}
		if len(tlv) < start+tlvHeaderLen {
			return 0, errInvalidAccountData
		}
		end := start + tlvHeaderLen + int(binary.LittleEndian.Uint16(tlv[start+2:]))
		if end > len(tlv) {
			return 0, errInvalidAccountData
		}
		if f != nil {
			f(t, tlv[start+tlvHeaderLen:end])
		}
		start = end
	}
	return start, nil
}

// extensionTypes lists the extensions in the TLV area.
func extensionTypes(tlv []byte) ([]ExtensionType, error) {
	var out []ExtensionType
	_, err := forEachExtension(tlv, func(t ExtensionType, _ []byte) { out = append(out, t) })
	return out, err
}

// extensionIndex finds the entry of type t (get_extension_indices): its start, or with init
// the first Uninitialized entry. Searching without init past the last entry is
// ExtensionNotFound when an Uninitialized entry ends the data, InvalidAccountData otherwise.
func extensionIndex(tlv []byte, t ExtensionType, init bool) (int, error) {
	start := 0
	for start < len(tlv) {
		if len(tlv) < start+tlvHeaderLen {
			return 0, errInvalidAccountData
		}
		got := ExtensionType(binary.LittleEndian.Uint16(tlv[start:]))
		switch {
		case got == t:
			return start, nil
		case got == ExtUninitialized:
			if init {
				return start, nil
			}
			return 0, tokenErr(ExtensionNotFound)
		}
		start += tlvHeaderLen + int(binary.LittleEndian.Uint16(tlv[start+2:]))
	}
	return 0, errInvalidAccountData
}

// extensionBytes returns the value of the extension t (get_extension_bytes).
func (s *extState) extensionBytes(t ExtensionType) ([]byte, error) {
	if t.AccountType() != s.kind.acct {
		return nil, errInvalidAccountData
	}
	tlv := s.tlv()
	i, err := extensionIndex(tlv, t, false)
	if err != nil {
		return nil, err
	}
	end := i + tlvHeaderLen + int(binary.LittleEndian.Uint16(tlv[i+2:]))
	if end > len(tlv) {
		return nil, errInvalidAccountData
	}
	return tlv[i+tlvHeaderLen : end], nil
}

// extension returns the value of the fixed-size extension t, which must have exactly its
// size (a Pod cast fails otherwise, as InvalidArgument).
func (s *extState) extension(t ExtensionType) ([]byte, error) {
	b, err := s.extensionBytes(t)
	if err != nil {
		return nil, err
	}
	if n, _ := t.Size(); len(b) != n {
		return nil, errInvalidArgument
	}
	return b, nil
}

// has reports whether the fixed-size extension t is present and well formed.
func (s *extState) has(t ExtensionType) bool {
	_, err := s.extension(t)
	return err == nil
}

// alloc reserves length bytes for t in the TLV area (alloc): in place of an existing entry
// of t when overwrite is set (with the same length), else in the first free entry.
func (s *extState) alloc(t ExtensionType, length int, overwrite bool) ([]byte, error) {
	if t.AccountType() != s.kind.acct {
		return nil, errInvalidAccountData
	}
	tlv := s.tlv()
	i, err := extensionIndex(tlv, t, true)
	if err != nil {
		return nil, err
	}
	if len(tlv[i:]) < tlvHeaderLen+length {
		return nil, errInvalidAccountData
	}
	existing, err := extensionTypeFromBytes(tlv[i:])
	if err != nil {
		return nil, err
	}
	if existing != ExtUninitialized && !overwrite {
		return nil, tokenErr(ExtensionAlreadyInitialized)
	}
	binary.LittleEndian.PutUint16(tlv[i:], uint16(t))
	if overwrite && existing == t && int(binary.LittleEndian.Uint16(tlv[i+2:])) != length {
		return nil, tokenErr(InvalidLengthForAlloc)
	}
	if length > 0xffff {
		return nil, errAccountDataTooSmall
	}
	binary.LittleEndian.PutUint16(tlv[i+2:], uint16(length))
	return tlv[i+tlvHeaderLen : i+tlvHeaderLen+length], nil
}

// initExtension allocates t with its fixed size and zeroes it (init_extension).
func (s *extState) initExtension(t ExtensionType, overwrite bool) ([]byte, error) {
	n, _ := t.Size()
	b, err := s.alloc(t, n, overwrite)
	if err != nil {
		return nil, err
	}
	clear(b)
	return b, nil
}

// realloc resizes the existing entry of t to length bytes, moving the entries after it and
// zeroing what is freed or added (realloc).
func (s *extState) realloc(t ExtensionType, length int) ([]byte, error) {
	tlv := s.tlv()
	i, err := extensionIndex(tlv, t, false)
	if err != nil {
		return nil, err
	}
	used, err := forEachExtension(tlv, nil)
	if err != nil {
		return nil, err
	}
	old := int(binary.LittleEndian.Uint16(tlv[i+2:]))
	if old < length && used+length-old > len(tlv) {
		return nil, errInvalidAccountData
	}
	if length > 0xffff {
		return nil, errAccountDataTooSmall
	}
	binary.LittleEndian.PutUint16(tlv[i+2:], uint16(length))
	valueStart := i + tlvHeaderLen
	oldEnd, newEnd := valueStart+old, valueStart+length
	if oldEnd > used { // a malformed entry; the reference would panic in copy_within
		return nil, errInvalidAccountData
	}
	copy(tlv[newEnd:], tlv[oldEnd:used])
	switch {
	case old > length:
		clear(tlv[used-(old-length) : used])
	case old < length:
		clear(tlv[oldEnd:newEnd])
	}
	return tlv[valueStart:newEnd], nil
}

// initAccountType writes the base's account type when the data has room for it, after
// checking that the first extension belongs to the base.
func (s *extState) initAccountType() error {
	first, ok, err := firstExtensionType(s.tlv())
	if err != nil {
		return err
	}
	if s.typeIdx < 0 {
		return nil
	}
	if ok && first.AccountType() != s.kind.acct {
		return tokenErr(ExtensionBaseMismatch)
	}
	s.data[s.typeIdx] = byte(s.kind.acct)
	return nil
}

// calculateAccountLen is ExtensionType::try_calculate_account_len: the base size without
// extensions, else 166 plus every distinct extension's entry (multisig length padded).
// Variable-size extensions cannot be sized (InvalidArgument).
func calculateAccountLen(kind baseKind, types []ExtensionType) (int, error) {
	var seen [numExtensionTypes]bool
	total, n := 0, 0
	for _, t := range types {
		if !t.Valid() {
			return 0, errInvalidAccountData
		}
		if seen[t] {
			continue
		}
		size, ok := t.Size()
		if !ok {
			return 0, errInvalidArgument
		}
		seen[t] = true
		n++
		total += tlvHeaderLen + size
	}
	if n == 0 {
		return kind.size, nil
	}
	return adjustLenForMultisig(baseAccountAndTypeLen + total), nil
}

// newAccountLenFor is the account length after giving the extension t a value of valueLen
// bytes (try_get_new_account_len_for_extension_len).
func (s *extState) newAccountLenFor(t ExtensionType, valueLen int) (int, error) {
	used, err := forEachExtension(s.tlv(), nil)
	if err != nil {
		return 0, err
	}
	current := used + baseAccountAndTypeLen
	if b, err := s.extensionBytes(t); err == nil {
		current -= tlvHeaderLen + len(b)
	}
	return adjustLenForMultisig(current + tlvHeaderLen + valueLen), nil
}

// setAccountType writes the account type of data that just grew past the base
// (set_account_type): an account must be initialized, and an existing type must match.
func setAccountType(data []byte, kind baseKind) error {
	if err := checkMinLenAndNotMultisig(data, kind.size); err != nil {
		return err
	}
	if kind.acct == AccountTypeAccount && data[accStateOff] == 0 {
		return errInvalidAccountData
	}
	s, err := split(data, kind)
	if err != nil {
		return err
	}
	if s.typeIdx < 0 {
		return errInvalidAccountData
	}
	t := AccountType(data[s.typeIdx])
	if t > AccountTypeAccount {
		return errInvalidAccountData
	}
	if t == AccountTypeUninitialized {
		data[s.typeIdx] = byte(kind.acct)
		t = kind.acct
	}
	if t != kind.acct {
		return errInvalidAccountData
	}
	return nil
}

// Extension is one TLV entry of a Token-2022 mint or account.
type Extension struct {
	Type ExtensionType
	// Data is the entry's value (aliases the account data).
	Data []byte
}

// ParseExtensions splits Token-2022 account data into its account type and extensions. A
// plain mint or account (82 or 165 bytes) has AccountTypeUninitialized and no extensions.
// The layout checks are the program's (InvalidAccountData for a malformed area).
func ParseExtensions(data []byte) (AccountType, []Extension, error) {
	if len(data) <= AccountSize {
		if len(data) == MintSize || len(data) == AccountSize {
			return AccountTypeUninitialized, nil, nil
		}
		return 0, nil, errInvalidAccountData
	}
	if len(data) == MultisigSize {
		return 0, nil, errInvalidAccountData
	}
	t := AccountType(data[AccountSize])
	var kind baseKind
	switch t {
	case AccountTypeMint:
		kind = kindMint
	case AccountTypeAccount:
		kind = kindAccount
	default:
		return 0, nil, errInvalidAccountData
	}
	s, err := splitExtended(data, kind, true)
	if err != nil {
		return 0, nil, err
	}
	var out []Extension
	if _, err := forEachExtension(s.tlv(), func(t ExtensionType, v []byte) {
		out = append(out, Extension{Type: t, Data: v})
	}); err != nil {
		return 0, nil, err
	}
	return t, out, nil
}

// MintExtensionLen returns the space a mint with the given (fixed-size) extensions needs
// (ExtensionType::try_calculate_account_len::<Mint>), for clients creating mints.
func MintExtensionLen(types ...ExtensionType) (int, error) {
	return calculateAccountLen(kindMint, types)
}

// AccountExtensionLen returns the space a token account with the given extensions needs.
func AccountExtensionLen(types ...ExtensionType) (int, error) {
	return calculateAccountLen(kindAccount, types)
}

// optionalKey reads an OptionalNonZeroPubkey: the zero key means none.
func optionalKey(b []byte) COption[core.Pubkey] {
	k := core.Pubkey(b[:32])
	return COption[core.Pubkey]{Some: k != core.Pubkey{}, Value: k}
}
