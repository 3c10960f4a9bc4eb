package token

import (
	"encoding/binary"
	"errors"
	"math"
	"math/bits"
	"unicode/utf8"

	"ledgerd/impl/core"
)

// Typed values of the extensions, for parsers. Optional keys (OptionalNonZeroPubkey in the
// reference) are COptions that are unset when the stored key is all zeros.

// TransferFee is one fee schedule of a TransferFeeConfig.
type TransferFee struct {
	Epoch                  uint64
	MaximumFee             uint64
	TransferFeeBasisPoints uint16
}

// MaxFeeBasisPoints is 100%.
const MaxFeeBasisPoints = 10_000

// Fee returns the fee on a transfer of amount: ceil(amount * bps / 10000), capped at the
// maximum fee; ok is false when the uncapped fee overflows u64 (only possible with more than
// 10,000 basis points).
func (f TransferFee) Fee(amount uint64) (fee uint64, ok bool) {
	if f.TransferFeeBasisPoints == 0 || amount == 0 {
		return 0, true
	}
	hi, lo := bits.Mul64(amount, uint64(f.TransferFeeBasisPoints))
	lo, carry := bits.Add64(lo, MaxFeeBasisPoints-1, 0)
	hi += carry
	if hi >= MaxFeeBasisPoints {
		return 0, false
	}
	q, _ := bits.Div64(hi, lo, MaxFeeBasisPoints)
	return min(q, f.MaximumFee), true
}

// TransferFeeConfig is the mint's transfer fee extension.
type TransferFeeConfig struct {
	TransferFeeConfigAuthority COption[core.Pubkey]
	WithdrawWithheldAuthority  COption[core.Pubkey]
	WithheldAmount             uint64
	OlderTransferFee           TransferFee
	NewerTransferFee           TransferFee
}

// EpochFee returns the fee schedule in force in epoch.
func (c *TransferFeeConfig) EpochFee(epoch uint64) TransferFee {
	if epoch >= c.NewerTransferFee.Epoch {
		return c.NewerTransferFee
	}
	return c.OlderTransferFee
}

// TransferFeeAmount is an account's withheld fees.
type TransferFeeAmount struct{ WithheldAmount uint64 }

// MintCloseAuthority is the authority that may close the mint.
type MintCloseAuthority struct{ CloseAuthority COption[core.Pubkey] }

// DefaultAccountState is the state new accounts of the mint start in.
type DefaultAccountState struct{ State AccountState }

// MemoTransfer says whether incoming transfers need a memo.
type MemoTransfer struct{ RequireIncomingTransferMemos bool }

// CpiGuard says whether privileged operations are locked from CPI.
type CpiGuard struct{ LockCpi bool }

// PermanentDelegate is the mint's permanent delegate.
type PermanentDelegate struct{ Delegate COption[core.Pubkey] }

// MetadataPointer points at the account holding the mint's metadata.
type MetadataPointer struct {
	Authority       COption[core.Pubkey]
	MetadataAddress COption[core.Pubkey]
}

// GroupPointer points at the account holding the mint's group configuration.
type GroupPointer struct {
	Authority    COption[core.Pubkey]
	GroupAddress COption[core.Pubkey]
}

// GroupMemberPointer points at the account holding the mint's group membership.
type GroupMemberPointer struct {
	Authority     COption[core.Pubkey]
	MemberAddress COption[core.Pubkey]
}

// TransferHook names the program a transfer must invoke.
type TransferHook struct {
	Authority COption[core.Pubkey]
	ProgramID COption[core.Pubkey]
}

// TransferHookAccount flags an account being transferred.
type TransferHookAccount struct{ Transferring bool }

// TokenGroup is a group's configuration.
type TokenGroup struct {
	UpdateAuthority COption[core.Pubkey]
	Mint            core.Pubkey
	Size            uint64
	MaxSize         uint64
}

// TokenGroupMember is a member's place in its group.
type TokenGroupMember struct {
	Mint         core.Pubkey
	Group        core.Pubkey
	MemberNumber uint64
}

// ScaledUiAmountConfig scales UI amounts by a multiplier.
type ScaledUiAmountConfig struct {
	Authority                       COption[core.Pubkey]
	Multiplier                      float64
	NewMultiplierEffectiveTimestamp int64
	NewMultiplier                   float64
}

// PausableConfig is the mint's pause switch.
type PausableConfig struct {
	Authority COption[core.Pubkey]
	Paused    bool
}

// PermissionedBurnConfig names the authority that co-signs every burn of the mint.
type PermissionedBurnConfig struct{ Authority COption[core.Pubkey] }

// TokenMetadata is the token-metadata interface's state, stored in the mint.
type TokenMetadata struct {
	UpdateAuthority    COption[core.Pubkey]
	Mint               core.Pubkey
	Name, Symbol, URI  string
	AdditionalMetadata [][2]string
}

// ErrUnparseableExtension is returned for an extension whose value does not decode.
var ErrUnparseableExtension = errors.New("token: unparseable extension")

// Value decodes the extension's value: a *TransferFeeConfig, *TokenMetadata, ... for the
// extensions with fields, nil for the markers (ImmutableOwner, NonTransferable,
// NonTransferableAccount, PausableAccount), and ErrUnparseableExtension for confidential
// extensions (kept raw) and malformed values.
func (e Extension) Value() (any, error) {
	b := e.Data
	if e.Type == ExtTokenMetadata {
		m, err := decodeTokenMetadata(b)
		if err != nil {
			return nil, ErrUnparseableExtension
		}
		return &m, nil
	}
	if n, ok := e.Type.Size(); !ok || n != len(b) {
		return nil, ErrUnparseableExtension
	}
	switch e.Type {
	case ExtTransferFeeConfig:
		c := decodeTransferFeeConfig(b)
		return &c, nil
	case ExtTransferFeeAmount:
		return &TransferFeeAmount{WithheldAmount: binary.LittleEndian.Uint64(b)}, nil
	case ExtMintCloseAuthority:
		return &MintCloseAuthority{CloseAuthority: optionalKey(b)}, nil
	case ExtDefaultAccountState:
		return &DefaultAccountState{State: AccountState(b[0])}, nil
	case ExtMemoTransfer:
		return &MemoTransfer{RequireIncomingTransferMemos: b[0] != 0}, nil
	case ExtInterestBearingConfig:
		c := decodeInterestBearingConfig(b)
		return &c, nil
	case ExtCpiGuard:
		return &CpiGuard{LockCpi: b[0] != 0}, nil
	case ExtPermanentDelegate:
		return &PermanentDelegate{Delegate: optionalKey(b)}, nil
	case ExtMetadataPointer:
		return &MetadataPointer{Authority: optionalKey(b), MetadataAddress: optionalKey(b[32:])}, nil
	case ExtGroupPointer:
		return &GroupPointer{Authority: optionalKey(b), GroupAddress: optionalKey(b[32:])}, nil
	case ExtGroupMemberPointer:
		return &GroupMemberPointer{Authority: optionalKey(b), MemberAddress: optionalKey(b[32:])}, nil
	case ExtTransferHook:
		return &TransferHook{Authority: optionalKey(b), ProgramID: optionalKey(b[32:])}, nil
	case ExtTransferHookAccount:
		return &TransferHookAccount{Transferring: b[0] != 0}, nil
	case ExtTokenGroup:
		return &TokenGroup{UpdateAuthority: optionalKey(b), Mint: core.Pubkey(b[32:64]),
			Size: binary.LittleEndian.Uint64(b[64:]), MaxSize: binary.LittleEndian.Uint64(b[72:])}, nil
	case ExtTokenGroupMember:
		return &TokenGroupMember{Mint: core.Pubkey(b[:32]), Group: core.Pubkey(b[32:64]),
			MemberNumber: binary.LittleEndian.Uint64(b[64:])}, nil
	case ExtScaledUiAmount:
		return &ScaledUiAmountConfig{Authority: optionalKey(b),
			Multiplier:                      math.Float64frombits(binary.LittleEndian.Uint64(b[32:])),
			NewMultiplierEffectiveTimestamp: int64(binary.LittleEndian.Uint64(b[40:])),
			NewMultiplier:                   math.Float64frombits(binary.LittleEndian.Uint64(b[48:]))}, nil
	case ExtPausable:
		return &PausableConfig{Authority: optionalKey(b), Paused: b[32] != 0}, nil
	case ExtPermissionedBurn:
		return &PermissionedBurnConfig{Authority: optionalKey(b)}, nil
	case ExtImmutableOwner, ExtNonTransferable, ExtNonTransferableAccount, ExtPausableAccount:
		return nil, nil
	}
	return nil, ErrUnparseableExtension
}

func decodeTransferFee(b []byte) TransferFee {
	return TransferFee{
		Epoch:                  binary.LittleEndian.Uint64(b),
		MaximumFee:             binary.LittleEndian.Uint64(b[8:]),
		TransferFeeBasisPoints: binary.LittleEndian.Uint16(b[16:]),
	}
}

func putTransferFee(b []byte, f TransferFee) {
	binary.LittleEndian.PutUint64(b, f.Epoch)
	binary.LittleEndian.PutUint64(b[8:], f.MaximumFee)
	binary.LittleEndian.PutUint16(b[16:], f.TransferFeeBasisPoints)
}

// TransferFeeConfig layout offsets.
const (
	tfcWithheldOff = 64
	tfcOlderOff    = 72
	tfcNewerOff    = 90
)

func decodeTransferFeeConfig(b []byte) TransferFeeConfig {
	return TransferFeeConfig{
		TransferFeeConfigAuthority: optionalKey(b),
		WithdrawWithheldAuthority:  optionalKey(b[32:]),
		WithheldAmount:             binary.LittleEndian.Uint64(b[tfcWithheldOff:]),
		OlderTransferFee:           decodeTransferFee(b[tfcOlderOff:]),
		NewerTransferFee:           decodeTransferFee(b[tfcNewerOff:]),
	}
}

// InterestBearingConfig accrues continuously compounded interest on UI amounts.
type InterestBearingConfig struct {
	RateAuthority           COption[core.Pubkey]
	InitializationTimestamp int64
	PreUpdateAverageRate    int16
	LastUpdateTimestamp     int64
	CurrentRate             int16
}

// InterestBearingConfig layout offsets.
const (
	ibInitTsOff     = 32
	ibPreRateOff    = 40
	ibLastUpdateOff = 42
	ibCurRateOff    = 50
)

// DecodeInterestBearingConfig reads the extension's 52 bytes; ok is false for any other length.
func DecodeInterestBearingConfig(b []byte) (c InterestBearingConfig, ok bool) {
	if len(b) != interestBearingConfigLen {
		return c, false
	}
	return decodeInterestBearingConfig(b), true
}

const interestBearingConfigLen = 52

func decodeInterestBearingConfig(b []byte) InterestBearingConfig {
	return InterestBearingConfig{
		RateAuthority:           optionalKey(b),
		InitializationTimestamp: int64(binary.LittleEndian.Uint64(b[ibInitTsOff:])),
		PreUpdateAverageRate:    int16(binary.LittleEndian.Uint16(b[ibPreRateOff:])),
		LastUpdateTimestamp:     int64(binary.LittleEndian.Uint64(b[ibLastUpdateOff:])),
		CurrentRate:             int16(binary.LittleEndian.Uint16(b[ibCurRateOff:])),
	}
}

// borshReader reads the borsh encodings of the token-metadata interface.
type borshReader struct {
	b   []byte
	err bool
}

func (r *borshReader) take(n int) []byte {
	if r.err || n < 0 || len(r.b) < n {
		r.err = true
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *borshReader) u8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *borshReader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *borshReader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (r *borshReader) pubkey() core.Pubkey {
	if b := r.take(32); b != nil {
		return core.Pubkey(b)
	}
	return core.Pubkey{}
}

// str reads a borsh String: u32 length and UTF-8 bytes.
func (r *borshReader) str() string {
	n := r.u32()
	if r.err || uint64(n) > uint64(len(r.b)) {
		r.err = true
		return ""
	}
	b := r.take(int(n))
	if !utf8.Valid(b) {
		r.err = true
		return ""
	}
	return string(b)
}

// boolean reads a borsh bool (0 or 1).
func (r *borshReader) boolean() bool {
	switch r.u8() {
	case 0:
		return false
	case 1:
		return true
	}
	r.err = true
	return false
}

// optionU64 reads a borsh Option<u64>.
func (r *borshReader) optionU64() COption[uint64] {
	if r.boolean() {
		return Some(r.u64())
	}
	return COption[uint64]{}
}

func appendBorshString(b []byte, s string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
	return append(b, s...)
}

func decodeTokenMetadata(b []byte) (TokenMetadata, error) {
	r := borshReader{b: b}
	m := TokenMetadata{UpdateAuthority: optionalKeyOf(r.pubkey()), Mint: r.pubkey()}
	m.Name, m.Symbol, m.URI = r.str(), r.str(), r.str()
	n := r.u32()
	if !r.err && uint64(n) > uint64(len(r.b))/8 {
		r.err = true
	}
	for i := uint32(0); i < n && !r.err; i++ {
		m.AdditionalMetadata = append(m.AdditionalMetadata, [2]string{r.str(), r.str()})
	}
	if r.err {
		return TokenMetadata{}, errBorshIoError
	}
	return m, nil
}

func (m *TokenMetadata) packedLen() int {
	n := 32 + 32 + 4 + len(m.Name) + 4 + len(m.Symbol) + 4 + len(m.URI) + 4
	for _, kv := range m.AdditionalMetadata {
		n += 8 + len(kv[0]) + len(kv[1])
	}
	return n
}

// Pack returns the borsh encoding stored in the TLV entry (and returned by Emit).
func (m *TokenMetadata) Pack() []byte {
	b := make([]byte, 0, m.packedLen())
	var authority core.Pubkey
	if m.UpdateAuthority.Some {
		authority = m.UpdateAuthority.Value
	}
	b = append(b, authority[:]...)
	b = append(b, m.Mint[:]...)
	b = appendBorshString(b, m.Name)
	b = appendBorshString(b, m.Symbol)
	b = appendBorshString(b, m.URI)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(m.AdditionalMetadata)))
	for _, kv := range m.AdditionalMetadata {
		b = appendBorshString(b, kv[0])
		b = appendBorshString(b, kv[1])
	}
	return b
}

func optionalKeyOf(k core.Pubkey) COption[core.Pubkey] {
	return COption[core.Pubkey]{Some: k != core.Pubkey{}, Value: k}
}
