// Package jsonparsed holds what the programs' jsonParsed parsers share: a reader of the
// little-endian fixed layouts that on-chain state uses, and the small value shapes the
// reference's account decoder repeats (tagged enums, optional addresses, fee calculators).
// Parsers build trees of map[string]any, so keys marshal sorted as the reference's serde_json
// values (a BTreeMap) sort them.
package jsonparsed

import (
	"encoding/binary"
	"strconv"

	"ledgerd/impl/core"
)

// Typed is the {"type", "info"} shape of the reference's tagged enums.
func Typed(kind string, info any) map[string]any {
	return map[string]any{"type": kind, "info": info}
}

// OptPubkey is an Option<String> of the reference: the address, or null.
func OptPubkey(k *core.Pubkey) any {
	if k == nil {
		return nil
	}
	return k.String()
}

// FeeCalculator is the reference's UiFeeCalculator: the amount as a decimal string.
func FeeCalculator(lamportsPerSignature uint64) map[string]any {
	return map[string]any{"lamportsPerSignature": strconv.FormatUint(lamportsPerSignature, 10)}
}

// Layout reads little-endian fields; any short read or invalid tag sets Bad, and the reads
// after it return zeros, so a parser reads a whole layout and checks Bad once.
type Layout struct {
	B   []byte
	Off int
	Bad bool
}

// Take returns the next n bytes (zeros once Bad).
func (r *Layout) Take(n int) []byte {
	if r.Bad || n < 0 || len(r.B)-r.Off < n {
		r.Bad = true
		return make([]byte, max(n, 0))
	}
	s := r.B[r.Off : r.Off+n]
	r.Off += n
	return s
}

// U8, U16, U32, U64 and I64 read little-endian integers; Pubkey reads 32 bytes.
func (r *Layout) U8() uint8   { return r.Take(1)[0] }
func (r *Layout) U16() uint16 { return binary.LittleEndian.Uint16(r.Take(2)) }
func (r *Layout) U32() uint32 { return binary.LittleEndian.Uint32(r.Take(4)) }
func (r *Layout) U64() uint64 { return binary.LittleEndian.Uint64(r.Take(8)) }
func (r *Layout) I64() int64  { return int64(r.U64()) }

func (r *Layout) Pubkey() (k core.Pubkey) {
	copy(k[:], r.Take(32))
	return k
}

// Boolean is a Rust bool: 0 or 1, anything else is invalid.
func (r *Layout) Boolean() bool {
	v := r.U8()
	if v > 1 {
		r.Bad = true
	}
	return v == 1
}

// COptionTag reads the 4-byte tag of a Solana COption: [0,0,0,0] or [1,0,0,0].
func (r *Layout) COptionTag() bool {
	switch r.U32() {
	case 0:
		return false
	case 1:
		return true
	default:
		r.Bad = true
		return false
	}
}

// OptPubkey reads a COption<Pubkey>.
func (r *Layout) OptPubkey() *core.Pubkey {
	some := r.COptionTag()
	k := r.Pubkey()
	if !some {
		return nil
	}
	return &k
}

// OptU64 reads a COption<u64>.
func (r *Layout) OptU64() *uint64 {
	some := r.COptionTag()
	v := r.U64()
	if !some {
		return nil
	}
	return &v
}

// NonZeroPubkey reads an OptionalNonZeroPubkey: all zeros is none.
func (r *Layout) NonZeroPubkey() *core.Pubkey {
	k := r.Pubkey()
	if k.IsZero() {
		return nil
	}
	return &k
}
