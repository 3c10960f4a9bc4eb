package token

import (
	"errors"

	"ledgerd/impl/core"
	"ledgerd/impl/programs/internal/jsonparsed"
	"ledgerd/impl/runtime"
)

// The SPL Token and Token-2022 state layouts, decoded as the reference decodes them
// (spl-token-2022's StateWithExtensions, which the reference uses for both programs): a fixed base (mint 82
// bytes, account 165, multisig 355), then for Token-2022 extended state zero padding up to byte 165, the
// account type at byte 165, and type-length-value extensions.

// Token layout sizes and the account type byte of extended state.
const (
	TokenMintLen     = 82
	TokenAccountLen  = 165
	TokenMultisigLen = 355

	accountTypeUninitialized = 0
	accountTypeMint          = 1
	accountTypeAccount       = 2
)

// Token account states.
const (
	TokenStateUninitialized = 0
	TokenStateInitialized   = 1
	TokenStateFrozen        = 2
)

var (
	errInvalidTokenData = errors.New("invalid token account data")
	errUninitialized    = errors.New("uninitialized token state")
	errNoMintData       = errors.New("no mint_decimals provided to parse spl-token account")
)

// TokenAccount is a token account of either program: the base state and its extension data.
type TokenAccount struct {
	Mint            core.Pubkey
	Owner           core.Pubkey
	Amount          uint64
	Delegate        *core.Pubkey
	State           uint8
	IsNative        *uint64 // the rent-exempt reserve of a wrapped SOL account
	DelegatedAmount uint64
	CloseAuthority  *core.Pubkey
	tlv             []byte
}

// MintView is a token mint of either program.
type MintView struct {
	MintAuthority   *core.Pubkey
	Supply          uint64
	Decimals        uint8
	IsInitialized   bool
	FreezeAuthority *core.Pubkey
	tlv             []byte
}

// MultisigView is a token multisig account.
type MultisigView struct {
	M, N          uint8
	IsInitialized bool
	Signers       [11]core.Pubkey
}

// DecodeTokenAccount reads an initialized token account (the reference's
// StateWithExtensions::<Account>::unpack).
func DecodeTokenAccount(data []byte) (*TokenAccount, error) {
	tlv, err := splitExtendedView(data, TokenAccountLen, accountTypeAccount)
	if err != nil {
		return nil, err
	}
	r := jsonparsed.Layout{B: data[:TokenAccountLen]}
	a := &TokenAccount{Mint: r.Pubkey(), Owner: r.Pubkey(), Amount: r.U64(), Delegate: r.OptPubkey(), State: r.U8(),
		IsNative: r.OptU64(), DelegatedAmount: r.U64(), CloseAuthority: r.OptPubkey(), tlv: tlv}
	if r.Bad || a.State > TokenStateFrozen {
		return nil, errInvalidTokenData
	}
	if a.State == TokenStateUninitialized {
		return nil, errUninitialized
	}
	return a, nil
}

// DecodeMint reads an initialized mint (the reference's StateWithExtensions::<Mint>::unpack).
func DecodeMint(data []byte) (*MintView, error) {
	tlv, err := splitExtendedView(data, TokenMintLen, accountTypeMint)
	if err != nil {
		return nil, err
	}
	r := jsonparsed.Layout{B: data[:TokenMintLen]}
	m := &MintView{MintAuthority: r.OptPubkey(), Supply: r.U64(), Decimals: r.U8(), IsInitialized: r.Boolean(),
		FreezeAuthority: r.OptPubkey(), tlv: tlv}
	if r.Bad {
		return nil, errInvalidTokenData
	}
	if !m.IsInitialized {
		return nil, errUninitialized
	}
	return m, nil
}

// DecodeMultisig reads an initialized multisig (exactly 355 bytes).
func DecodeMultisig(data []byte) (*MultisigView, error) {
	if len(data) != TokenMultisigLen {
		return nil, errInvalidTokenData
	}
	r := jsonparsed.Layout{B: data}
	m := &MultisigView{M: r.U8(), N: r.U8(), IsInitialized: r.Boolean()}
	for i := range m.Signers {
		m.Signers[i] = r.Pubkey()
	}
	if r.Bad {
		return nil, errInvalidTokenData
	}
	if !m.IsInitialized {
		return nil, errUninitialized
	}
	return m, nil
}

// splitExtendedView checks the length and extended-state framing of a base state of baseLen bytes and returns its
// TLV data (empty for plain state).
func splitExtendedView(data []byte, baseLen int, accountType byte) ([]byte, error) {
	if len(data) == TokenMultisigLen || len(data) < baseLen {
		return nil, errInvalidTokenData
	}
	rest := data[baseLen:]
	if len(rest) == 0 {
		return nil, nil
	}
	typeIndex := TokenAccountLen - baseLen
	if len(rest) < typeIndex+1 {
		return nil, errInvalidTokenData
	}
	for _, b := range rest[:typeIndex] {
		if b != 0 {
			return nil, errInvalidTokenData
		}
	}
	if rest[typeIndex] != accountType {
		return nil, errInvalidTokenData
	}
	return rest[typeIndex+1:], nil
}

// Amounts returns how amounts of this mint are shown: its decimals, and its interest-bearing or scaled-UI-amount
// configuration with the clock read through lookup when it has one.
func (m *MintView) Amounts(lookup runtime.AccountLookup) MintAmounts {
	out := MintAmounts{Decimals: m.Decimals}
	exts := extensionEntries(m.tlv)
	if b, ok := exts.get(extInterestBearingConfig, accountTypeMint); ok {
		if c, ok := DecodeInterestBearingConfig(b); ok {
			out.interest = &c
		}
	}
	if b, ok := exts.get(extScaledUiAmount, accountTypeMint); ok {
		out.scaled = decodeScaledUiAmount(b)
	}
	if (out.interest != nil || out.scaled != nil) && lookup != nil {
		out.unixTimestamp = clockTimestamp(lookup)
	}
	return out
}

// MintAmountsOf returns the amounts view of the mint at key, read through lookup, as the reference's
// get_mint_owner_and_additional_data does: wrapped SOL (SPL Token's native mint) has 9 decimals without being
// read. ok is false when the mint is missing or does not decode; owner is the mint account's owner.
func MintAmountsOf(key core.Pubkey, lookup runtime.AccountLookup) (m MintAmounts, owner core.Pubkey, found, ok bool) {
	if key == core.NativeMintID {
		return NativeMintAmounts(), core.TokenProgramID, true, true
	}
	a, exists := lookup(key)
	if !exists {
		return MintAmounts{}, core.Pubkey{}, false, false
	}
	mint, err := DecodeMint(a.Data)
	if err != nil {
		return MintAmounts{}, a.Owner, true, false
	}
	return mint.Amounts(lookup), a.Owner, true, true
}

// parseTokenAccount is the jsonParsed parser of both token programs (the reference's parse_token): an account (which
// needs its mint, through lookup), else a mint, else a multisig.
func parseTokenAccount(_ core.Pubkey, data []byte, lookup runtime.AccountLookup) (any, error) {
	if a, err := DecodeTokenAccount(data); err == nil {
		m, _, _, ok := MintAmountsOf(a.Mint, lookup)
		if !ok {
			return nil, errNoMintData
		}
		return jsonparsed.Typed("account", tokenAccountInfo(a, m)), nil
	}
	if m, err := DecodeMint(data); err == nil {
		info := map[string]any{
			"mintAuthority":   jsonparsed.OptPubkey(m.MintAuthority),
			"supply":          uintString(m.Supply),
			"decimals":        m.Decimals,
			"isInitialized":   m.IsInitialized,
			"freezeAuthority": jsonparsed.OptPubkey(m.FreezeAuthority),
		}
		if exts := parseExtensions(m.tlv, accountTypeMint); len(exts) > 0 {
			info["extensions"] = exts
		}
		return jsonparsed.Typed("mint", info), nil
	}
	if len(data) == TokenMultisigLen {
		ms, err := DecodeMultisig(data)
		if err != nil {
			return nil, err
		}
		signers := []string{}
		for _, s := range ms.Signers {
			if !s.IsZero() {
				signers = append(signers, s.String())
			}
		}
		return jsonparsed.Typed("multisig", map[string]any{
			"numRequiredSigners": ms.M,
			"numValidSigners":    ms.N,
			"isInitialized":      ms.IsInitialized,
			"signers":            signers,
		}), nil
	}
	return nil, errInvalidTokenData
}

// tokenAccountInfo is the reference's UiTokenAccount; optional keys are left out, not null.
func tokenAccountInfo(a *TokenAccount, m MintAmounts) map[string]any {
	info := map[string]any{
		"mint":        a.Mint.String(),
		"owner":       a.Owner.String(),
		"tokenAmount": m.UiAmount(a.Amount),
		"state":       tokenStateName(a.State),
		"isNative":    a.IsNative != nil,
	}
	if a.Delegate != nil {
		info["delegate"] = a.Delegate.String()
		info["delegatedAmount"] = m.UiAmount(a.DelegatedAmount)
	}
	if a.IsNative != nil {
		info["rentExemptReserve"] = m.UiAmount(*a.IsNative)
	}
	if a.CloseAuthority != nil {
		info["closeAuthority"] = a.CloseAuthority.String()
	}
	if exts := parseExtensions(a.tlv, accountTypeAccount); len(exts) > 0 {
		info["extensions"] = exts
	}
	return info
}

func tokenStateName(s uint8) string {
	switch s {
	case TokenStateInitialized:
		return "initialized"
	case TokenStateFrozen:
		return "frozen"
	default:
		return "uninitialized"
	}
}
