package token

import (
	"encoding/base64"
	"encoding/binary"
	"math"
	"strconv"
	"unicode/utf8"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/internal/jsonparsed"
)

// Token-2022 extension types, by their on-chain number.
const (
	extUninitialized                 = 0
	extTransferFeeConfig             = 1
	extTransferFeeAmount             = 2
	extMintCloseAuthority            = 3
	extConfidentialTransferMint      = 4
	extConfidentialTransferAccount   = 5
	extDefaultAccountState           = 6
	extImmutableOwner                = 7
	extMemoTransfer                  = 8
	extNonTransferable               = 9
	extInterestBearingConfig         = 10
	extCpiGuard                      = 11
	extPermanentDelegate             = 12
	extNonTransferableAccount        = 13
	extTransferHook                  = 14
	extTransferHookAccount           = 15
	extConfidentialTransferFeeConfig = 16
	extConfidentialTransferFeeAmount = 17
	extMetadataPointer               = 18
	extTokenMetadata                 = 19
	extGroupPointer                  = 20
	extTokenGroup                    = 21
	extGroupMemberPointer            = 22
	extTokenGroupMember              = 23
	extConfidentialMintBurn          = 24
	extScaledUiAmount                = 25
	extPausable                      = 26
	extPausableAccount               = 27
	extPermissionedBurn              = 28
	numExtensionViews                = 29
)

// extensionView is what the reference knows of each extension type: its camelCase name (in parsed accounts
// and instructions), the account type that holds it, the size of its fixed value (-1: variable, 0: none read),
// and how its value is shown (nil: no state).
type extensionView struct {
	name        string
	accountType byte
	size        int
	state       func(b []byte) any
}

var extensionViews = [numExtensionViews]extensionView{
	extUninitialized:                 {"uninitialized", accountTypeUninitialized, 0, nil},
	extTransferFeeConfig:             {"transferFeeConfig", accountTypeMint, 108, transferFeeConfigState},
	extTransferFeeAmount:             {"transferFeeAmount", accountTypeAccount, 8, transferFeeAmountState},
	extMintCloseAuthority:            {"mintCloseAuthority", accountTypeMint, 32, pubkeyState("closeAuthority")},
	extConfidentialTransferMint:      {"confidentialTransferMint", accountTypeMint, 65, confidentialTransferMintState},
	extConfidentialTransferAccount:   {"confidentialTransferAccount", accountTypeAccount, 295, confidentialTransferAccountState},
	extDefaultAccountState:           {"defaultAccountState", accountTypeMint, 1, defaultAccountStateState},
	extImmutableOwner:                {"immutableOwner", accountTypeAccount, 0, nil},
	extMemoTransfer:                  {"memoTransfer", accountTypeAccount, 1, boolState("requireIncomingTransferMemos")},
	extNonTransferable:               {"nonTransferable", accountTypeMint, 0, nil},
	extInterestBearingConfig:         {"interestBearingConfig", accountTypeMint, 52, interestBearingState},
	extCpiGuard:                      {"cpiGuard", accountTypeAccount, 1, boolState("lockCpi")},
	extPermanentDelegate:             {"permanentDelegate", accountTypeMint, 32, pubkeyState("delegate")},
	extNonTransferableAccount:        {"nonTransferableAccount", accountTypeAccount, 0, nil},
	extTransferHook:                  {"transferHook", accountTypeMint, 64, pubkeyPairState("authority", "programId")},
	extTransferHookAccount:           {"transferHookAccount", accountTypeAccount, 1, boolState("transferring")},
	extConfidentialTransferFeeConfig: {"confidentialTransferFeeConfig", accountTypeMint, 129, confidentialTransferFeeConfigState},
	extConfidentialTransferFeeAmount: {"confidentialTransferFeeAmount", accountTypeAccount, 64, confidentialTransferFeeAmountState},
	extMetadataPointer:               {"metadataPointer", accountTypeMint, 64, pubkeyPairState("authority", "metadataAddress")},
	extTokenMetadata:                 {"tokenMetadata", accountTypeMint, -1, nil},
	extGroupPointer:                  {"groupPointer", accountTypeMint, 64, pubkeyPairState("authority", "groupAddress")},
	extTokenGroup:                    {"tokenGroup", accountTypeMint, 80, tokenGroupState},
	extGroupMemberPointer:            {"groupMemberPointer", accountTypeMint, 64, pubkeyPairState("authority", "memberAddress")},
	extTokenGroupMember:              {"tokenGroupMember", accountTypeMint, 72, tokenGroupMemberState},
	extConfidentialMintBurn:          {"confidentialMintBurn", accountTypeMint, 196, confidentialMintBurnState},
	extScaledUiAmount:                {"scaledUiAmountConfig", accountTypeMint, 56, scaledUiAmountState},
	extPausable:                      {"pausableConfig", accountTypeMint, 33, pausableState},
	extPausableAccount:               {"pausableAccount", accountTypeAccount, 0, nil},
	extPermissionedBurn:              {"permissionedBurnConfig", accountTypeMint, 32, pubkeyState("authority")},
}

// ExtensionTypeName is the camelCase name parsed token instructions give an extension type number (the
// reference's UiExtensionType, which names ScaledUiAmount "scaledUiAmount", Pausable "pausable" and
// PermissionedBurn "permissionedBurn", unlike the account view's "...Config"); ok is false for a number the
// reference does not know.
func ExtensionTypeName(t uint16) (string, bool) {
	switch t {
	case extScaledUiAmount:
		return "scaledUiAmount", true
	case extPausable:
		return "pausable", true
	case extPermissionedBurn:
		return "permissionedBurn", true
	}
	if int(t) >= numExtensionViews {
		return "", false
	}
	return extensionViews[t].name, true
}

// tlvEntries is the TLV data after a token base state.
type tlvEntries []byte

func extensionEntries(tlv []byte) tlvEntries { return tlvEntries(tlv) }

// types lists the extension types in order, as get_extension_types does; it fails on an unknown type or an
// entry running past the data (the reference then shows no extensions at all).
func (t tlvEntries) types() ([]uint16, bool) {
	var out []uint16
	for start := 0; start < len(t); {
		if len(t) < start+2 {
			break
		}
		typ := binary.LittleEndian.Uint16(t[start:])
		if typ == extUninitialized {
			break
		}
		if len(t) < start+4 || int(typ) >= numExtensionViews {
			return nil, false
		}
		out = append(out, typ)
		end := start + 4 + int(binary.LittleEndian.Uint16(t[start+2:]))
		if end > len(t) {
			return nil, false
		}
		start = end
	}
	return out, true
}

// get returns the value of the first entry of type typ in state of baseType, as get_extension_bytes finds it:
// the type must belong to baseType, and every entry before it must be a known type of the same account type.
func (t tlvEntries) get(typ uint16, baseType byte) ([]byte, bool) {
	want := extensionViews[typ].accountType
	if want != baseType {
		return nil, false
	}
	for start := 0; start < len(t); {
		if len(t) < start+4 {
			return nil, false
		}
		cur := binary.LittleEndian.Uint16(t[start:])
		if int(cur) >= numExtensionViews {
			return nil, false
		}
		length := int(binary.LittleEndian.Uint16(t[start+2:]))
		switch {
		case cur == typ:
			if start+4+length > len(t) {
				return nil, false
			}
			return t[start+4 : start+4+length], true
		case cur == extUninitialized || extensionViews[cur].accountType != want:
			return nil, false
		}
		start += 4 + length
	}
	return nil, false
}

// getFixed is get for an extension of fixed size: the value must have exactly that size.
func (t tlvEntries) getFixed(typ uint16, baseType byte) ([]byte, bool) {
	b, ok := t.get(typ, baseType)
	if !ok || len(b) != extensionViews[typ].size {
		return nil, false
	}
	return b, true
}

// parseExtensions is the reference's list of UiExtension values of a base state: one entry per TLV entry, an
// extension whose value cannot be read shown as unparseableExtension.
func parseExtensions(tlv []byte, baseType byte) []any {
	entries := extensionEntries(tlv)
	types, ok := entries.types()
	if !ok || len(types) == 0 {
		return nil
	}
	out := make([]any, 0, len(types))
	for _, typ := range types {
		out = append(out, parseExtension(entries, typ, baseType))
	}
	return out
}

func parseExtension(entries tlvEntries, typ uint16, baseType byte) any {
	info := extensionViews[typ]
	unparseable := map[string]any{"extension": "unparseableExtension"}
	switch {
	case info.size == 0: // the reference shows these without reading them
		return map[string]any{"extension": info.name}
	case typ == extTokenMetadata:
		b, ok := entries.get(typ, baseType)
		if !ok {
			return unparseable
		}
		state, ok := tokenMetadataState(b)
		if !ok {
			return unparseable
		}
		return map[string]any{"extension": info.name, "state": state}
	}
	b, ok := entries.getFixed(typ, baseType)
	if !ok {
		return unparseable
	}
	return map[string]any{"extension": info.name, "state": info.state(b)}
}

// ---------------------------------------------------------------------------------------------------------------
// Extension states, in the reference's shapes (Option<String> as null, u64 as numbers unless noted)

func uintString(v uint64) string { return strconv.FormatUint(v, 10) }

func pubkeyState(key string) func([]byte) any {
	return func(b []byte) any {
		r := jsonparsed.Layout{B: b}
		return map[string]any{key: jsonparsed.OptPubkey(r.NonZeroPubkey())}
	}
}

func pubkeyPairState(first, second string) func([]byte) any {
	return func(b []byte) any {
		r := jsonparsed.Layout{B: b}
		return map[string]any{first: jsonparsed.OptPubkey(r.NonZeroPubkey()), second: jsonparsed.OptPubkey(r.NonZeroPubkey())}
	}
}

// boolState shows a one-byte PodBool (any non-zero byte is true).
func boolState(key string) func([]byte) any {
	return func(b []byte) any { return map[string]any{key: b[0] != 0} }
}

func transferFee(r *jsonparsed.Layout) map[string]any {
	return map[string]any{"epoch": r.U64(), "maximumFee": r.U64(), "transferFeeBasisPoints": r.U16()}
}

func transferFeeConfigState(b []byte) any {
	r := jsonparsed.Layout{B: b}
	return map[string]any{
		"transferFeeConfigAuthority": jsonparsed.OptPubkey(r.NonZeroPubkey()),
		"withdrawWithheldAuthority":  jsonparsed.OptPubkey(r.NonZeroPubkey()),
		"withheldAmount":             r.U64(),
		"olderTransferFee":           transferFee(&r),
		"newerTransferFee":           transferFee(&r),
	}
}

func transferFeeAmountState(b []byte) any {
	return map[string]any{"withheldAmount": binary.LittleEndian.Uint64(b)}
}

// optElGamal is an OptionalNonZeroElGamalPubkey: base64 of the 32 bytes, null when all zero.
func optElGamal(b []byte) any {
	for _, c := range b {
		if c != 0 {
			return base64.StdEncoding.EncodeToString(b)
		}
	}
	return nil
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func confidentialTransferMintState(b []byte) any {
	r := jsonparsed.Layout{B: b}
	return map[string]any{
		"authority":              jsonparsed.OptPubkey(r.NonZeroPubkey()),
		"autoApproveNewAccounts": r.U8() != 0,
		"auditorElgamalPubkey":   optElGamal(r.Take(32)),
	}
}

func confidentialTransferAccountState(b []byte) any {
	r := jsonparsed.Layout{B: b}
	return map[string]any{
		"approved":                            r.U8() != 0,
		"elgamalPubkey":                       b64(r.Take(32)),
		"pendingBalanceLo":                    b64(r.Take(64)),
		"pendingBalanceHi":                    b64(r.Take(64)),
		"availableBalance":                    b64(r.Take(64)),
		"decryptableAvailableBalance":         b64(r.Take(36)),
		"allowConfidentialCredits":            r.U8() != 0,
		"allowNonConfidentialCredits":         r.U8() != 0,
		"pendingBalanceCreditCounter":         r.U64(),
		"maximumPendingBalanceCreditCounter":  r.U64(),
		"expectedPendingBalanceCreditCounter": r.U64(),
		"actualPendingBalanceCreditCounter":   r.U64(),
	}
}

func confidentialTransferFeeConfigState(b []byte) any {
	r := jsonparsed.Layout{B: b}
	return map[string]any{
		"authority": jsonparsed.OptPubkey(r.NonZeroPubkey()),
		// A plain key in the extension (not an optional one): the reference shows zeros as base64 too.
		"withdrawWithheldAuthorityElgamalPubkey": b64(r.Take(32)),
		"harvestToMintEnabled":                   r.U8() != 0,
		"withheldAmount":                         b64(r.Take(64)),
	}
}

func confidentialTransferFeeAmountState(b []byte) any {
	return map[string]any{"withheldAmount": b64(b)}
}

func confidentialMintBurnState(b []byte) any {
	r := jsonparsed.Layout{B: b}
	return map[string]any{
		"confidentialSupply":  b64(r.Take(64)),
		"decryptableSupply":   b64(r.Take(36)),
		"supplyElgamalPubkey": b64(r.Take(32)),
		"pendingBurn":         b64(r.Take(64)),
	}
}

// defaultAccountStateState: a state byte the reference does not know shows as uninitialized.
func defaultAccountStateState(b []byte) any {
	return map[string]any{"accountState": tokenStateName(b[0])}
}

func interestBearingState(b []byte) any {
	c, _ := DecodeInterestBearingConfig(b) // the extension table checked the length
	var authority *core.Pubkey
	if c.RateAuthority.Some {
		authority = &c.RateAuthority.Value
	}
	return map[string]any{
		"rateAuthority":           jsonparsed.OptPubkey(authority),
		"initializationTimestamp": c.InitializationTimestamp,
		"preUpdateAverageRate":    c.PreUpdateAverageRate,
		"lastUpdateTimestamp":     c.LastUpdateTimestamp,
		"currentRate":             c.CurrentRate,
	}
}

func decodeScaledUiAmount(b []byte) *scaledUiAmountConfig {
	if len(b) != 56 {
		return nil
	}
	r := jsonparsed.Layout{B: b}
	return &scaledUiAmountConfig{
		authority:                       r.NonZeroPubkey(),
		multiplier:                      math.Float64frombits(r.U64()),
		newMultiplierEffectiveTimestamp: r.I64(),
		newMultiplier:                   math.Float64frombits(r.U64()),
	}
}

// scaledUiAmountState shows the multipliers as Rust displays an f64 ("2", "0.5").
func scaledUiAmountState(b []byte) any {
	c := decodeScaledUiAmount(b)
	return map[string]any{
		"authority":                       jsonparsed.OptPubkey(c.authority),
		"multiplier":                      RustF64Display(c.multiplier),
		"newMultiplierEffectiveTimestamp": c.newMultiplierEffectiveTimestamp,
		"newMultiplier":                   RustF64Display(c.newMultiplier),
	}
}

func pausableState(b []byte) any {
	r := jsonparsed.Layout{B: b}
	return map[string]any{"authority": jsonparsed.OptPubkey(r.NonZeroPubkey()), "paused": r.U8() != 0}
}

func tokenGroupState(b []byte) any {
	r := jsonparsed.Layout{B: b}
	return map[string]any{
		"updateAuthority": jsonparsed.OptPubkey(r.NonZeroPubkey()),
		"mint":            r.Pubkey().String(),
		"size":            r.U64(),
		"maxSize":         r.U64(),
	}
}

func tokenGroupMemberState(b []byte) any {
	r := jsonparsed.Layout{B: b}
	return map[string]any{"mint": r.Pubkey().String(), "group": r.Pubkey().String(), "memberNumber": r.U64()}
}

// MetadataView is the variable-length token metadata of a mint (borsh: update authority, mint, name, symbol,
// uri, additional key-value pairs).
type MetadataView struct {
	UpdateAuthority    *core.Pubkey
	Mint               core.Pubkey
	Name, Symbol, URI  string
	AdditionalMetadata [][2]string
}

// decodeMetadataView reads the borsh form, which must be consumed exactly.
func decodeMetadataView(b []byte) (*MetadataView, bool) {
	r := borshView{Layout: jsonparsed.Layout{B: b}}
	m := &MetadataView{UpdateAuthority: r.NonZeroPubkey(), Mint: r.Pubkey(), Name: r.str(), Symbol: r.str(), URI: r.str()}
	n := r.U32()
	for i := uint32(0); i < n && !r.Bad; i++ {
		m.AdditionalMetadata = append(m.AdditionalMetadata, [2]string{r.str(), r.str()})
	}
	if r.Bad || r.Off != len(b) {
		return nil, false
	}
	return m, true
}

func tokenMetadataState(b []byte) (any, bool) {
	m, ok := decodeMetadataView(b)
	if !ok {
		return nil, false
	}
	pairs := make([][2]string, len(m.AdditionalMetadata))
	copy(pairs, m.AdditionalMetadata)
	return map[string]any{
		"updateAuthority":    jsonparsed.OptPubkey(m.UpdateAuthority),
		"mint":               m.Mint.String(),
		"name":               m.Name,
		"symbol":             m.Symbol,
		"uri":                m.URI,
		"additionalMetadata": pairs,
	}, true
}

// borshView adds borsh strings (u32 length, UTF-8) to layout.
type borshView struct{ jsonparsed.Layout }

func (r *borshView) str() string {
	n := r.U32()
	if r.Bad || uint64(n) > uint64(len(r.B)-r.Off) {
		r.Bad = true
		return ""
	}
	s := r.Take(int(n))
	if !utf8.Valid(s) {
		r.Bad = true
		return ""
	}
	return string(s)
}
