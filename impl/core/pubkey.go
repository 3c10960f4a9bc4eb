package core

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"

	"github.com/mr-tron/base58"
)

// Sizes of the fixed-width primitives.
const (
	PubkeyLen    = 32
	SignatureLen = 64
	HashLen      = 32

	// The longest base58 strings that can denote a 32-byte or 64-byte value; longer input is
	// rejected as WrongSize before decoding, as the reference does.
	maxBase58PubkeyLen    = 44
	maxBase58SignatureLen = 88
)

// Parse errors. Their texts are the Debug forms of the reference's ParsePubkeyError,
// ParseSignatureError and ParseHashError, which the RPC layer puts into its messages verbatim
// (`Invalid param: WrongSize`).
var (
	ErrWrongSize = errors.New("WrongSize")
	ErrInvalid   = errors.New("Invalid")
)

// Pubkey is an account address: an Ed25519 public key or a program-derived address.
type Pubkey [PubkeyLen]byte

// Signature is an Ed25519 signature.
type Signature [SignatureLen]byte

// Hash is a SHA-256 digest, used for blockhashes.
type Hash [HashLen]byte

// ---------------------------------------------------------------------------------------------
// base58

// base58Digit maps an ASCII byte to its base58 value, or 0xff.
var base58Digit = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
	for i := 0; i < len(alphabet); i++ {
		t[alphabet[i]] = byte(i)
	}
	return t
}()

// decodeBase58Fixed decodes s into out, which must be filled exactly. The order of checks
// matches the reference: an over-long string is WrongSize, a bad character is Invalid, and a
// decoded length other than len(out) is WrongSize.
func decodeBase58Fixed(s string, maxLen int, out []byte) error {
	if len(s) > maxLen {
		return ErrWrongSize
	}
	for i := 0; i < len(s); i++ {
		if base58Digit[s[i]] == 0xff {
			return ErrInvalid
		}
	}
	if s == "" {
		return ErrWrongSize
	}
	// Decode into a fixed buffer with big-endian base-256 arithmetic: len(s) <= 88, so the
	// value fits in 88*log(58)/log(256) < 65 bytes plus leading zeros.
	var buf [96]byte
	n := 0 // number of significant bytes in buf[len(buf)-n:]
	for i := 0; i < len(s); i++ {
		carry := uint32(base58Digit[s[i]])
		for j := len(buf) - 1; j >= len(buf)-n; j-- {
			carry += uint32(buf[j]) * 58
			buf[j] = byte(carry)
			carry >>= 8
		}
		for carry > 0 {
			n++
			if n > len(buf) {
				return ErrWrongSize
			}
			buf[len(buf)-n] = byte(carry)
			carry >>= 8
		}
	}
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	if zeros+n != len(out) {
		return ErrWrongSize
	}
	clear(out[:zeros])
	copy(out[zeros:], buf[len(buf)-n:])
	return nil
}

func appendQuotedBase58(dst []byte, b []byte) []byte {
	dst = append(dst, '"')
	dst = append(dst, base58.Encode(b)...)
	return append(dst, '"')
}

// unquoteJSONString accepts only a plain JSON string; base58 never needs escapes, so an escape
// is an error rather than something to interpret.
func unquoteJSONString(data []byte) (string, bool) {
	if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
		return "", false
	}
	inner := data[1 : len(data)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return "", false
		}
		return s, true
	}
	return string(inner), true
}

var errNotJSONString = errors.New("expected a JSON string")

// ---------------------------------------------------------------------------------------------
// Pubkey

// ParsePubkey decodes a base58 address. Errors are ErrWrongSize or ErrInvalid.
func ParsePubkey(s string) (Pubkey, error) {
	var p Pubkey
	err := decodeBase58Fixed(s, maxBase58PubkeyLen, p[:])
	return p, err
}

// MustParsePubkey is ParsePubkey for constants; it panics on bad input.
func MustParsePubkey(s string) Pubkey {
	p, err := ParsePubkey(s)
	if err != nil {
		panic("core: bad pubkey " + s + ": " + err.Error())
	}
	return p
}

// PubkeyFromBytes copies a 32-byte slice into a Pubkey.
func PubkeyFromBytes(b []byte) (Pubkey, error) {
	var p Pubkey
	if len(b) != PubkeyLen {
		return p, ErrWrongSize
	}
	copy(p[:], b)
	return p, nil
}

// String returns the base58 form.
func (p Pubkey) String() string { return base58.Encode(p[:]) }

// IsZero reports whether p is the all-zero key (the system program's address).
func (p Pubkey) IsZero() bool { return p == Pubkey{} }

// Compare orders keys by their bytes, the order the reference's BTreeMap uses.
func (p Pubkey) Compare(q Pubkey) int { return bytes.Compare(p[:], q[:]) }

// MarshalText implements encoding.TextMarshaler (base58), which also makes Pubkey usable as a
// JSON map key.
func (p Pubkey) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *Pubkey) UnmarshalText(b []byte) error {
	v, err := ParsePubkey(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// MarshalJSON encodes the key as a base58 JSON string.
func (p Pubkey) MarshalJSON() ([]byte, error) { return appendQuotedBase58(nil, p[:]), nil }

// UnmarshalJSON decodes a base58 JSON string; null leaves p unchanged.
func (p *Pubkey) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	s, ok := unquoteJSONString(data)
	if !ok {
		return errNotJSONString
	}
	return p.UnmarshalText([]byte(s))
}

// ---------------------------------------------------------------------------------------------
// Signature

// ParseSignature decodes a base58 signature. Errors are ErrWrongSize or ErrInvalid.
func ParseSignature(s string) (Signature, error) {
	var sig Signature
	err := decodeBase58Fixed(s, maxBase58SignatureLen, sig[:])
	return sig, err
}

// MustParseSignature is ParseSignature for tests and constants; it panics on bad input.
func MustParseSignature(s string) Signature {
	sig, err := ParseSignature(s)
	if err != nil {
		panic("core: bad signature " + s + ": " + err.Error())
	}
	return sig
}

// String returns the base58 form.
func (s Signature) String() string { return base58.Encode(s[:]) }

// IsZero reports whether s is all zeros (the placeholder of an unsigned transaction).
func (s Signature) IsZero() bool { return s == Signature{} }

// Verify checks s over msg against pub with the reference's strict Ed25519 rules.
func (s Signature) Verify(pub Pubkey, msg []byte) bool { return VerifyStrict(pub, msg, s) }

// MarshalText implements encoding.TextMarshaler (base58).
func (s Signature) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *Signature) UnmarshalText(b []byte) error {
	v, err := ParseSignature(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// MarshalJSON encodes the signature as a base58 JSON string.
func (s Signature) MarshalJSON() ([]byte, error) { return appendQuotedBase58(nil, s[:]), nil }

// UnmarshalJSON decodes a base58 JSON string; null leaves s unchanged.
func (s *Signature) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	str, ok := unquoteJSONString(data)
	if !ok {
		return errNotJSONString
	}
	return s.UnmarshalText([]byte(str))
}

// ---------------------------------------------------------------------------------------------
// Hash

// ParseHash decodes a base58 hash. Errors are ErrWrongSize or ErrInvalid.
func ParseHash(s string) (Hash, error) {
	var h Hash
	err := decodeBase58Fixed(s, maxBase58PubkeyLen, h[:])
	return h, err
}

// MustParseHash is ParseHash for tests and constants; it panics on bad input.
func MustParseHash(s string) Hash {
	h, err := ParseHash(s)
	if err != nil {
		panic("core: bad hash " + s + ": " + err.Error())
	}
	return h
}

// HashBytes returns SHA-256 over the concatenation of parts (the reference's hashv).
func HashBytes(parts ...[]byte) Hash {
	if len(parts) == 1 {
		return sha256.Sum256(parts[0])
	}
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	var out Hash
	h.Sum(out[:0])
	return out
}

// String returns the base58 form.
func (h Hash) String() string { return base58.Encode(h[:]) }

// IsZero reports whether h is all zeros.
func (h Hash) IsZero() bool { return h == Hash{} }

// MarshalText implements encoding.TextMarshaler (base58).
func (h Hash) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (h *Hash) UnmarshalText(b []byte) error {
	v, err := ParseHash(string(b))
	if err != nil {
		return err
	}
	*h = v
	return nil
}

// MarshalJSON encodes the hash as a base58 JSON string.
func (h Hash) MarshalJSON() ([]byte, error) { return appendQuotedBase58(nil, h[:]), nil }

// UnmarshalJSON decodes a base58 JSON string; null leaves h unchanged.
func (h *Hash) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil
	}
	s, ok := unquoteJSONString(data)
	if !ok {
		return errNotJSONString
	}
	return h.UnmarshalText([]byte(s))
}
