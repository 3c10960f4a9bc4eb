package core

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha512"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"filippo.io/edwards25519"
)

func TestKeypair(t *testing.T) {
	t.Parallel()
	k := seedKeypair(1)
	if k.PublicKey().String() != transferPubkey || k.String() != transferPubkey {
		t.Fatalf("pubkey %s", k.PublicKey())
	}
	msg := []byte("hello")
	sig := k.Sign(msg)
	if !sig.Verify(k.PublicKey(), msg) || sig.Verify(k.PublicKey(), []byte("hellO")) {
		t.Fatal("sign/verify")
	}
	raw := k.Bytes()
	back, err := KeypairFromBytes(raw[:])
	if err != nil || back != k {
		t.Fatalf("KeypairFromBytes: %v", err)
	}
	raw[40] ^= 1
	if _, err := KeypairFromBytes(raw[:]); err != ErrKeypairMismatch {
		t.Fatalf("mismatched halves: %v", err)
	}
	if _, err := KeypairFromBytes(raw[:63]); err == nil {
		t.Fatal("short keypair accepted")
	}
	n1, err := NewKeypair()
	if err != nil || n1.IsZero() {
		t.Fatal(err)
	}
	n2, _ := NewKeypair()
	if n1 == n2 {
		t.Fatal("NewKeypair repeated itself")
	}
	if seed := k.Seed(); KeypairFromSeed(seed) != k {
		t.Fatal("Seed round trip")
	}
}

func TestKeypairFile(t *testing.T) {
	t.Parallel()
	k := seedKeypair(7)
	path := filepath.Join(t.TempDir(), "sub", "id.json")
	if err := WriteKeypairFile(path, k); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "[7,8,9,") || strings.Contains(string(data), " ") || strings.Count(string(data), ",") != 63 {
		t.Fatalf("file form: %s", data)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("permissions %v", st.Mode().Perm())
	}
	back, err := ReadKeypairFile(path)
	if err != nil || back != k {
		t.Fatalf("ReadKeypairFile: %v", err)
	}
	// The file is exactly what solana-keygen writes: JSON numbers, seed then public key.
	var nums []int
	if err := json.Unmarshal(data, &nums); err != nil || len(nums) != 64 {
		t.Fatal(err)
	}
	pub := k.PublicKey()
	for i := range 32 {
		if nums[32+i] != int(pub[i]) {
			t.Fatal("second half must be the public key")
		}
	}
	for _, bad := range []string{`[1,2]`, `{}`, `[` + strings.Repeat("0,", 63) + `256]`, `[` + strings.Repeat("0,", 63) + `-1]`} {
		var k Keypair
		if err := json.Unmarshal([]byte(bad), &k); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	if _, err := ReadKeypairFile(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("missing file")
	}
}

// TestVerifyStrictAgreesWithStdlib: for honest signatures strict and cofactorless verification
// agree; they differ only on small-order keys and R values, which strict rejects.
func TestVerifyStrict(t *testing.T) {
	t.Parallel()
	for i := range 64 {
		pub, priv, _ := ed25519.GenerateKey(rand.Reader)
		msg := []byte{byte(i), 1, 2}
		sig := Signature(ed25519.Sign(priv, msg))
		if !VerifyStrict(Pubkey(pub), msg, sig) {
			t.Fatal("valid signature rejected")
		}
		sig[i%64] ^= 0x01
		if VerifyStrict(Pubkey(pub), msg, sig) != ed25519.Verify(pub, msg, sig[:]) {
			t.Fatal("disagrees with crypto/ed25519 on a corrupted signature")
		}
	}
	// Non-canonical S (S + l) is rejected.
	k := seedKeypair(2)
	msg := []byte("m")
	sig := k.Sign(msg)
	s, _ := new(edwards25519.Scalar).SetCanonicalBytes(sig[32:])
	var sPlusL [32]byte
	copy(sPlusL[:], s.Bytes())
	l := []byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10}
	carry := 0
	for i := range 32 {
		v := int(sPlusL[i]) + int(l[i]) + carry
		sPlusL[i], carry = byte(v), v>>8
	}
	// s < l, so s + l < 2^254 fits in 32 bytes without carry.
	bad := sig
	copy(bad[32:], sPlusL[:])
	if VerifyStrict(k.PublicKey(), msg, bad) {
		t.Fatal("non-canonical S accepted")
	}
	// A small-order public key (the identity) with R = identity and S = 0 passes cofactorless
	// verification for every message, but must fail strict verification.
	var identity Pubkey
	identity[0] = 1
	var weak Signature
	weak[0] = 1
	if !ed25519.Verify(identity[:], msg, weak[:]) {
		t.Skip("stdlib rejects the weak-key forgery; nothing to compare")
	}
	if VerifyStrict(identity, msg, weak) {
		t.Fatal("small-order key accepted")
	}
}

// verifyStrictReference is verify_strict written out with point arithmetic, as a test oracle
// for the faster VerifyStrict.
func verifyStrictReference(pub Pubkey, msg []byte, sig Signature) bool {
	isSmall := func(p *edwards25519.Point) bool {
		var q edwards25519.Point
		q.MultByCofactor(p)
		return q.Equal(edwards25519.NewIdentityPoint()) == 1
	}
	a, err := new(edwards25519.Point).SetBytes(pub[:])
	if err != nil || isSmall(a) {
		return false
	}
	r, err := new(edwards25519.Point).SetBytes(sig[:32])
	if err != nil || isSmall(r) {
		return false
	}
	s, err := new(edwards25519.Scalar).SetCanonicalBytes(sig[32:])
	if err != nil {
		return false
	}
	h := sha512.New()
	h.Write(sig[:32])
	h.Write(pub[:])
	h.Write(msg)
	k, _ := new(edwards25519.Scalar).SetUniformBytes(h.Sum(nil))
	check := new(edwards25519.Point).VarTimeDoubleScalarBaseMult(k, new(edwards25519.Point).Negate(a), s)
	return bytes.Equal(check.Bytes(), sig[:32])
}

func TestSmallOrderBlocklist(t *testing.T) {
	t.Parallel()
	// Every listed encoding, with either sign bit, decodes to a point of small order.
	for i, y := range smallOrderY {
		for _, sign := range []byte{0, 0x80} {
			enc := y
			enc[31] |= sign
			p, err := new(edwards25519.Point).SetBytes(enc[:])
			if err != nil {
				t.Fatalf("entry %d sign %x does not decode", i, sign)
			}
			var q edwards25519.Point
			q.MultByCofactor(p)
			if q.Equal(edwards25519.NewIdentityPoint()) != 1 {
				t.Fatalf("entry %d is not small order", i)
			}
		}
	}
	// And the eight small-order points are all covered: multiples of an order-8 generator.
	gen, _ := new(edwards25519.Point).SetBytes(smallOrderY[5][:])
	p := edwards25519.NewIdentityPoint()
	for range 8 {
		enc := [32]byte(p.Bytes())
		if !isSmallOrderEncoding(&enc) {
			t.Fatalf("small-order point %x not listed", enc)
		}
		p.Add(p, gen)
	}
}

func FuzzVerifyStrict(f *testing.F) {
	k := seedKeypair(5)
	msg := []byte("fuzz")
	sig := k.Sign(msg)
	pk := k.PublicKey()
	f.Add(pk[:], sig[:], msg)
	for _, y := range smallOrderY {
		weakSig := append(y[:], make([]byte, 32)...)
		f.Add(y[:], weakSig, msg)
		f.Add(pk[:], weakSig, msg)
	}
	f.Fuzz(func(t *testing.T, pub, sig, msg []byte) {
		if len(pub) != 32 || len(sig) != 64 {
			return
		}
		p, s := Pubkey(pub), Signature(sig)
		if got, want := VerifyStrict(p, msg, s), verifyStrictReference(p, msg, s); got != want {
			t.Fatalf("VerifyStrict = %v, reference %v", got, want)
		}
	})
}
