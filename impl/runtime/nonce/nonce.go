// Package nonce owns the durable transaction nonce account: its 80-byte bincode layout
// (Versions { Legacy | Current } of State { Uninitialized | Initialized(Data) }), the durable
// nonce value derived from a blockhash, and the checks a nonce must pass to stand in for a
// recent blockhash. The system program changes nonce accounts; the runtime reads them to
// accept durable-nonce transactions and to let nonce accounts pay fees, so the layout is a
// foundation of the runtime: it depends only on core, and the system program imports it.
package nonce

import (
	"encoding/binary"
	"errors"

	"ledgerd/impl/core"
)

// Size is the length of an initialized nonce account's data (State::size()).
const Size = 80

// uninitializedSize is the serialized length of an uninitialized Versions value.
const uninitializedSize = 8

// durableNoncePrefix separates the durable nonce domain from the blockhash domain.
var durableNoncePrefix = []byte("DURABLE_NONCE")

// Version is the outer enum tag of a nonce account.
type Version uint32

// The versions. Legacy nonces stored a blockhash directly and cannot back durable
// transactions; UpgradeNonceAccount turns them into Current ones.
const (
	Legacy  Version = 0
	Current Version = 1
)

// Data is the content of an initialized nonce account.
type Data struct {
	// Authority signs transactions that use the nonce, and its management instructions.
	Authority core.Pubkey
	// DurableNonce is the value a durable transaction puts in its recent blockhash field.
	DurableNonce core.Hash
	// LamportsPerSignature is the fee rate of the blockhash the nonce was derived from.
	LamportsPerSignature uint64
}

// Versions is the decoded account state.
type Versions struct {
	Version     Version
	Initialized bool
	Data        Data // meaningful only when Initialized
}

// ErrInvalidData is returned for data that does not decode as nonce state.
var ErrInvalidData = errors.New("invalid nonce account data")

// DurableNonceFromBlockhash returns sha256("DURABLE_NONCE" || blockhash).
func DurableNonceFromBlockhash(blockhash core.Hash) core.Hash {
	return core.HashBytes(durableNoncePrefix, blockhash[:])
}

// Decode reads nonce state from the start of data (bincode; trailing bytes are ignored, as
// bincode::deserialize does).
func Decode(data []byte) (Versions, error) {
	var v Versions
	if len(data) < uninitializedSize {
		return v, ErrInvalidData
	}
	ver := binary.LittleEndian.Uint32(data)
	state := binary.LittleEndian.Uint32(data[4:])
	if ver > uint32(Current) || state > 1 {
		return v, ErrInvalidData
	}
	v.Version = Version(ver)
	if state == 0 {
		return v, nil
	}
	if len(data) < Size {
		return Versions{}, ErrInvalidData
	}
	v.Initialized = true
	copy(v.Data.Authority[:], data[8:40])
	copy(v.Data.DurableNonce[:], data[40:72])
	v.Data.LamportsPerSignature = binary.LittleEndian.Uint64(data[72:80])
	return v, nil
}

// SerializedSize is the number of bytes Encode writes: 8 when uninitialized, else 80.
func (v Versions) SerializedSize() int {
	if v.Initialized {
		return Size
	}
	return uninitializedSize
}

// EncodeInto writes v at the start of dst, which must hold SerializedSize bytes; bytes after
// it are left alone (as bincode::serialize_into does).
func (v Versions) EncodeInto(dst []byte) {
	binary.LittleEndian.PutUint32(dst, uint32(v.Version))
	if !v.Initialized {
		binary.LittleEndian.PutUint32(dst[4:], 0)
		return
	}
	binary.LittleEndian.PutUint32(dst[4:], 1)
	copy(dst[8:40], v.Data.Authority[:])
	copy(dst[40:72], v.Data.DurableNonce[:])
	binary.LittleEndian.PutUint64(dst[72:80], v.Data.LamportsPerSignature)
}

// Encode returns the encoding of v.
func (v Versions) Encode() []byte {
	b := make([]byte, v.SerializedSize())
	v.EncodeInto(b)
	return b
}

// NewInitialized returns the Current, initialized state.
func NewInitialized(authority core.Pubkey, durableNonce core.Hash, lamportsPerSignature uint64) Versions {
	return Versions{Version: Current, Initialized: true, Data: Data{
		Authority: authority, DurableNonce: durableNonce, LamportsPerSignature: lamportsPerSignature,
	}}
}

// VerifyRecentBlockhash returns the nonce data if v can back a durable transaction whose
// recent blockhash field is recentBlockhash: Current, initialized, and holding that value.
func (v Versions) VerifyRecentBlockhash(recentBlockhash core.Hash) (Data, bool) {
	if v.Version != Current || !v.Initialized || v.Data.DurableNonce != recentBlockhash {
		return Data{}, false
	}
	return v.Data, true
}

// Upgrade moves an initialized Legacy nonce out of the blockhash domain, re-deriving its
// value. It reports false for anything else (nothing to upgrade).
func (v Versions) Upgrade() (Versions, bool) {
	if v.Version != Legacy || !v.Initialized {
		return v, false
	}
	v.Version = Current
	v.Data.DurableNonce = DurableNonceFromBlockhash(v.Data.DurableNonce)
	return v, true
}

// IsNonceAccount reports whether an account with this owner and data is an initialized nonce
// account, the reference's SystemAccountKind::Nonce (owned by the system program, exactly
// Size bytes, initialized).
func IsNonceAccount(owner core.Pubkey, data []byte) bool {
	if owner != core.SystemProgramID || len(data) != Size {
		return false
	}
	v, err := Decode(data)
	return err == nil && v.Initialized
}

// Verify checks an account against a durable transaction's recent blockhash as the
// reference's verify_nonce_account does: owned by the system program and a Current,
// initialized nonce holding that value.
func Verify(owner core.Pubkey, data []byte, recentBlockhash core.Hash) (Data, bool) {
	if owner != core.SystemProgramID {
		return Data{}, false
	}
	v, err := Decode(data)
	if err != nil {
		return Data{}, false
	}
	return v.VerifyRecentBlockhash(recentBlockhash)
}
