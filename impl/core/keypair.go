package core

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Keypair is an Ed25519 signing key: the 32-byte seed followed by the 32-byte public key, the
// layout of the reference's keypair files. Its String form is the public key only, so a
// Keypair printed by accident does not leak the secret.
type Keypair struct {
	b [ed25519.PrivateKeySize]byte
}

// ErrKeypairMismatch is returned for 64 bytes whose second half is not the public key of the
// first half.
var ErrKeypairMismatch = errors.New("keypair bytes do not specify same pubkey as derived from their secret key")

// NewKeypair returns a fresh random keypair.
func NewKeypair() (Keypair, error) {
	var seed [ed25519.SeedSize]byte
	if _, err := rand.Read(seed[:]); err != nil {
		return Keypair{}, err
	}
	return KeypairFromSeed(seed), nil
}

// KeypairFromSeed derives the keypair of a 32-byte seed (deterministic; useful in tests).
func KeypairFromSeed(seed [ed25519.SeedSize]byte) Keypair {
	var k Keypair
	copy(k.b[:], ed25519.NewKeyFromSeed(seed[:]))
	return k
}

// KeypairFromBytes accepts the 64-byte seed||pubkey form and checks that the halves agree.
func KeypairFromBytes(b []byte) (Keypair, error) {
	if len(b) != ed25519.PrivateKeySize {
		return Keypair{}, fmt.Errorf("keypair must be %d bytes, got %d", ed25519.PrivateKeySize, len(b))
	}
	k := KeypairFromSeed([ed25519.SeedSize]byte(b[:ed25519.SeedSize]))
	if [32]byte(b[32:]) != [32]byte(k.b[32:]) {
		return Keypair{}, ErrKeypairMismatch
	}
	return k, nil
}

// PublicKey returns the keypair's address.
func (k Keypair) PublicKey() Pubkey { return Pubkey(k.b[32:]) }

// Seed returns the 32-byte secret seed.
func (k Keypair) Seed() [ed25519.SeedSize]byte { return [ed25519.SeedSize]byte(k.b[:32]) }

// Bytes returns the 64-byte seed||pubkey form.
func (k Keypair) Bytes() [ed25519.PrivateKeySize]byte { return k.b }

// IsZero reports whether k is the zero value (no key).
func (k Keypair) IsZero() bool { return k.b == [ed25519.PrivateKeySize]byte{} }

// Sign returns the Ed25519 signature of msg.
func (k Keypair) Sign(msg []byte) Signature {
	return Signature(ed25519.Sign(ed25519.PrivateKey(k.b[:]), msg))
}

// String returns the base58 public key.
func (k Keypair) String() string { return k.PublicKey().String() }

// MarshalJSON writes the keypair file form: a JSON array of 64 numbers, without spaces, as
// solana-keygen does.
func (k Keypair) MarshalJSON() ([]byte, error) {
	out := make([]byte, 0, 64*4+2)
	out = append(out, '[')
	for i, v := range k.b {
		if i > 0 {
			out = append(out, ',')
		}
		out = strconv.AppendUint(out, uint64(v), 10)
	}
	return append(out, ']'), nil
}

// UnmarshalJSON reads the keypair file form.
func (k *Keypair) UnmarshalJSON(data []byte) error {
	var nums []int
	if err := json.Unmarshal(data, &nums); err != nil {
		return fmt.Errorf("keypair: %w", err)
	}
	if len(nums) != ed25519.PrivateKeySize {
		return fmt.Errorf("keypair: expected %d numbers, got %d", ed25519.PrivateKeySize, len(nums))
	}
	var raw [ed25519.PrivateKeySize]byte
	for i, n := range nums {
		if n < 0 || n > 255 {
			return fmt.Errorf("keypair: byte %d out of range: %d", i, n)
		}
		raw[i] = byte(n)
	}
	v, err := KeypairFromBytes(raw[:])
	if err != nil {
		return err
	}
	*k = v
	return nil
}

// ReadKeypairFile loads a keypair file (a JSON array of 64 numbers).
func ReadKeypairFile(path string) (Keypair, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Keypair{}, err
	}
	var k Keypair
	if err := k.UnmarshalJSON(data); err != nil {
		return Keypair{}, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// WriteKeypairFile saves k in the keypair file format with owner-only permissions, creating
// parent directories. The file is written to a temporary name and renamed, so a crash never
// leaves a truncated key behind.
func WriteKeypairFile(path string, k Keypair) error {
	data, _ := k.MarshalJSON()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".keypair-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
