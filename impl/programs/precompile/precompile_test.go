package precompile

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/hex"
	"math/big"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	secpecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"golang.org/x/crypto/sha3"

	"ledgerd/impl/core"
)

type verifyCase struct {
	name  string
	data  []byte
	datas [][]byte // nil: just data, as instruction 0
	want  error
}

func runCases(t *testing.T, verify Verifier, cases []verifyCase) {
	t.Helper()
	for _, c := range cases {
		datas := c.datas
		if datas == nil {
			datas = [][]byte{c.data}
		}
		if got := verify(c.data, datas); got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

// set returns a copy of b with b[i] = v.
func set(b []byte, i int, v ...byte) []byte {
	out := append([]byte(nil), b...)
	copy(out[i:], v)
	return out
}

func u16(v uint16) []byte { return []byte{byte(v), byte(v >> 8)} }

var edKey = ed25519.NewKeyFromSeed(make([]byte, 32))

func edInstruction(msg []byte) []byte {
	var pub core.Pubkey
	copy(pub[:], edKey.Public().(ed25519.PublicKey))
	return NewEd25519Instruction(pub, core.Signature(ed25519.Sign(edKey, msg)), msg)
}

func TestVerifyEd25519(t *testing.T) {
	t.Parallel()
	msg := []byte("hello")
	valid := edInstruction(msg)
	// The same signature, key and message kept in another instruction (index 1) and named from an
	// instruction that holds only the offsets.
	other := valid[OffsetsStart+OffsetsSize:]
	const keyAt, sigAt, msgAt = 0, 32, 96
	remote := Offsets{sigAt, 1, keyAt, 1, msgAt, uint16(len(msg)), 1}.Encode([]byte{1, 0})
	// Mixed: the signature here (u16::MAX), the key and message in instruction 1.
	mixed := Offsets{OffsetsStart + OffsetsSize, currentInstruction, keyAt, 1, msgAt, uint16(len(msg)), 1}.Encode([]byte{1, 0})
	mixed = append(mixed, valid[OffsetsStart+OffsetsSize+32:OffsetsStart+OffsetsSize+96]...)

	// The C2SP ed25519 vector with R = 0 (small order): crypto/ed25519 accepts it, verify_strict
	// does not.
	weakPub, _ := hex.DecodeString("10eb7c3acfb2bed3e0d6ab89bf5a3d6afddd1176ce4812e38d9fd485058fdb1f")
	weakSig, _ := hex.DecodeString("00000000000000000000000000000000000000000000000000000000000000009472a69cd9a701a50d130ed52189e2455b23767db52cacb8716fb896ffeeac09")
	weakMsg := []byte("ed25519vectors 3")
	if !ed25519.Verify(weakPub, weakMsg, weakSig) {
		t.Fatal("crypto/ed25519 no longer accepts the small-order R vector; the case below proves nothing")
	}
	weak := NewEd25519Instruction(core.Pubkey(weakPub), core.Signature(weakSig), weakMsg)
	// S + L: the same signature with a non-canonical S.
	sig := ed25519.Sign(edKey, msg)
	s := new(big.Int).SetBytes(reverse(sig[32:]))
	l, _ := new(big.Int).SetString("7237005577332262213973186563042994240857116359379907606001950938285454250989", 10)
	s.Add(s, l)
	var sBig [32]byte
	s.FillBytes(sBig[:])
	nonCanonical := set(valid, OffsetsStart+OffsetsSize+32+32, reverse(sBig[:])...)
	// A key that is not a point: y = 2 has no x.
	badKey := set(valid, OffsetsStart+OffsetsSize, 2)
	for i := 1; i < 32; i++ {
		badKey[OffsetsStart+OffsetsSize+i] = 0
	}
	// The identity as the key (small order, a valid encoding).
	identity := set(valid, OffsetsStart+OffsetsSize, append([]byte{1}, make([]byte, 31)...)...)

	runCases(t, VerifyEd25519, []verifyCase{
		{"valid, inline (u16::MAX)", valid, nil, nil},
		{"valid, data in another instruction", remote, [][]byte{remote, other}, nil},
		{"valid, mixed", mixed, [][]byte{mixed, other}, nil},
		{"no signatures, count and padding only", []byte{0, 0}, nil, nil},
		{"padding byte ignored", set(valid, 1, 0xff), nil, nil},
		{"empty", []byte{}, nil, InvalidInstructionDataSize},
		{"count only", []byte{1}, nil, InvalidInstructionDataSize},
		{"zero count with data", []byte{0, 0, 0}, nil, InvalidInstructionDataSize},
		{"offsets cut short", valid[:OffsetsStart+OffsetsSize-1], nil, InvalidInstructionDataSize},
		{"two signatures announced, one record", set(valid, 0, 2)[:OffsetsStart+OffsetsSize+10], nil, InvalidInstructionDataSize},
		{"signature instruction out of range", set(valid, 4, u16(1)...), nil, InvalidDataOffsets},
		{"key instruction out of range", set(valid, 8, u16(5)...), nil, InvalidDataOffsets},
		{"message instruction out of range", set(valid, 14, u16(1)...), nil, InvalidDataOffsets},
		{"signature past the end", set(valid, 2, u16(uint16(len(valid)-63))...), nil, InvalidDataOffsets},
		{"key past the end", set(valid, 6, u16(0xffff)...), nil, InvalidDataOffsets},
		{"message past the end", set(valid, 12, u16(uint16(len(msg)+1))...), nil, InvalidDataOffsets},
		{"remote message past the end", remote, [][]byte{remote, other[:len(other)-1]}, InvalidDataOffsets},
		{"key not a point", badKey, nil, InvalidPublicKey},
		{"key of small order", identity, nil, InvalidSignature},
		{"R of small order (verify_strict)", weak, nil, InvalidSignature},
		{"non-canonical S", nonCanonical, nil, InvalidSignature},
		{"wrong message", set(valid, len(valid)-1, 'O'), nil, InvalidSignature},
		{"second signature bad", twoEd(valid, msg, true), nil, InvalidSignature},
		{"two signatures", twoEd(valid, msg, false), nil, nil},
	})
}

// twoEd returns an instruction with two records naming the same inline signature; with broken,
// the second names a message one byte shorter.
func twoEd(valid, msg []byte, broken bool) []byte {
	o := Offsets{OffsetsStart + 2*OffsetsSize + 32, currentInstruction, OffsetsStart + 2*OffsetsSize, currentInstruction,
		OffsetsStart + 2*OffsetsSize + 96, uint16(len(msg)), currentInstruction}
	b := o.Encode([]byte{2, 0})
	if broken {
		o.MessageDataSize--
	}
	b = o.Encode(b)
	return append(b, valid[OffsetsStart+OffsetsSize:]...)
}

func reverse(b []byte) []byte {
	out := make([]byte, len(b))
	for i := range b {
		out[len(b)-1-i] = b[i]
	}
	return out
}

var k1Key = secp256k1.PrivKeyFromBytes([]byte("ledgerd precompile test key 0001"))

func k1Sign(msg []byte) (sig [64]byte, recoveryID byte) {
	h := sha3.NewLegacyKeccak256()
	h.Write(msg)
	compact := secpecdsa.SignCompact(k1Key, h.Sum(nil), false)
	copy(sig[:], compact[1:])
	return sig, compact[0] - 27
}

func TestVerifySecp256k1(t *testing.T) {
	t.Parallel()
	msg := []byte("hello secp256k1")
	addr := EthAddress(k1Key.PubKey().SerializeUncompressed()[1:])
	sig, rid := k1Sign(msg)
	valid := NewSecp256k1Instruction(addr, sig, rid, msg, 0)
	// The precompile as instruction 1 of a transaction, reading from its own data by index 1.
	second := NewSecp256k1Instruction(addr, sig, rid, msg, 1)
	// Everything in instruction 0, the offsets in instruction 1.
	const dataAt = 1 + Secp256k1OffsetsSize
	other := valid[dataAt:]
	remote := Secp256k1Offsets{20, 0, 0, 0, 20 + 65, uint16(len(msg)), 0}.Encode([]byte{1})
	const sigAt = dataAt + EthAddressSize
	// r = n, the group order: refused while the signature is parsed, before the recovery id.
	n := secp256k1.S256().N.Bytes()
	rTooBig := set(valid, sigAt, n...)
	rTooBig[sigAt+64] = 9

	runCases(t, VerifySecp256k1, []verifyCase{
		{"valid, own index", valid, nil, nil},
		{"valid, own index 1", second, [][]byte{{9}, second}, nil},
		{"valid, data in another instruction", remote, [][]byte{other, remote}, nil},
		{"trailing bytes are allowed", append(append([]byte(nil), valid...), 1, 2, 3), nil, nil},
		{"no signatures", []byte{0}, nil, nil},
		{"empty", []byte{}, nil, InvalidInstructionDataSize},
		{"zero count with data", []byte{0, 0}, nil, InvalidInstructionDataSize},
		{"offsets cut short", valid[:Secp256k1OffsetsSize], nil, InvalidInstructionDataSize},
		{"signature instruction out of range", set(valid, 3, 1), nil, InvalidInstructionDataSize},
		{"u16::MAX means nothing here", set(valid, 3, 0xff), nil, InvalidInstructionDataSize},
		{"recovery id is the last byte", valid[:sigAt+64], nil, InvalidSignature},
		{"signature past the end", set(valid, 1, u16(0xffff)...), nil, InvalidSignature},
		{"r not below the order", rTooBig, nil, InvalidSignature},
		{"recovery id 4", set(valid, sigAt+64, 4), nil, InvalidRecoveryID},
		{"address instruction out of range", set(valid, 6, 1), nil, InvalidDataOffsets},
		{"address past the end", set(valid, 4, u16(0xfff0)...), nil, InvalidSignature},
		{"message instruction out of range", set(valid, 11, 2), nil, InvalidDataOffsets},
		{"message past the end", set(valid, 9, u16(uint16(len(msg)+1))...), nil, InvalidSignature},
		{"wrong address", set(valid, dataAt, addr[0]^1), nil, InvalidSignature},
		{"wrong message", set(valid, len(valid)-1, 'X'), nil, InvalidSignature},
		{"other recovery id", set(valid, sigAt+64, rid^1), nil, InvalidSignature},
		{"r zero", set(valid, sigAt, make([]byte, 32)...), nil, InvalidSignature},
	})
}

var r1Key = func() *ecdsa.PrivateKey {
	k, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), sha256Bytes("ledgerd precompile p256"))
	if err != nil {
		panic(err)
	}
	return k
}()

func sha256Bytes(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }

// r1SignB is r1Sign with a low S, for benchmarks.
func r1SignB(b *testing.B, msg []byte) [64]byte { return r1Sign(b, msg, false) }

// r1Sign signs msg, returning r||s with s low (high when high is set).
func r1Sign(t testing.TB, msg []byte, high bool) [64]byte {
	t.Helper()
	d := sha256.Sum256(msg)
	r, s, err := ecdsa.Sign(nil, r1Key, d[:])
	if err != nil {
		t.Fatal(err)
	}
	if (s.Cmp(p256HalfOrder) > 0) != high {
		s.Sub(p256Order, s)
	}
	var out [64]byte
	r.FillBytes(out[:32])
	s.FillBytes(out[32:])
	return out
}

func r1Compressed() [33]byte {
	var k [33]byte
	copy(k[:], elliptic.MarshalCompressed(elliptic.P256(), r1Key.X, r1Key.Y))
	return k
}

func TestVerifySecp256r1(t *testing.T) {
	t.Parallel()
	msg := []byte("hello p256")
	key := r1Compressed()
	valid := NewSecp256r1Instruction(key, r1Sign(t, msg, false), msg)
	high := NewSecp256r1Instruction(key, r1Sign(t, msg, true), msg)
	const keyAt = OffsetsStart + OffsetsSize
	other := valid[keyAt:]
	remote := Offsets{33, 1, 0, 1, 33 + 64, uint16(len(msg)), 1}.Encode([]byte{1, 0})
	sigAt := keyAt + 33
	n := p256Order.Bytes()
	badKey := set(valid, keyAt, 4) // uncompressed prefix on 33 bytes
	// The first small x with no point on P-256.
	offCurve := set(valid, keyAt+1, make([]byte, 32)...)
	for x := byte(1); ; x++ {
		offCurve[keyAt+32] = x
		if px, _ := elliptic.UnmarshalCompressed(elliptic.P256(), offCurve[keyAt:keyAt+33]); px == nil {
			break
		}
	}

	nine := []byte{9, 0}
	for range 9 {
		nine = Offsets{}.Encode(nine)
	}
	runCases(t, VerifySecp256r1, []verifyCase{
		{"valid, inline (u16::MAX)", valid, nil, nil},
		{"valid, data in another instruction", remote, [][]byte{remote, other}, nil},
		{"empty", []byte{}, nil, InvalidInstructionDataSize},
		{"count only", []byte{1}, nil, InvalidInstructionDataSize},
		{"zero signatures", []byte{0, 0}, nil, InvalidInstructionDataSize},
		{"more than eight signatures", nine, nil, InvalidInstructionDataSize},
		{"offsets cut short", valid[:keyAt-1], nil, InvalidInstructionDataSize},
		{"signature instruction out of range", set(valid, 4, u16(1)...), nil, InvalidDataOffsets},
		{"key instruction out of range", set(valid, 8, u16(7)...), nil, InvalidDataOffsets},
		{"message instruction out of range", set(valid, 14, u16(1)...), nil, InvalidDataOffsets},
		{"message past the end", set(valid, 12, u16(uint16(len(msg)+1))...), nil, InvalidDataOffsets},
		{"high S", high, nil, InvalidSignature},
		{"r zero", set(valid, sigAt, make([]byte, 32)...), nil, InvalidSignature},
		{"r the order", set(valid, sigAt, n...), nil, InvalidSignature},
		{"key not compressed", badKey, nil, InvalidPublicKey},
		{"key not on the curve", offCurve, nil, InvalidPublicKey},
		{"wrong message", set(valid, len(valid)-1, 'X'), nil, InvalidSignature},
	})
}

func TestErrorText(t *testing.T) {
	t.Parallel()
	for e, want := range map[Error]string{InvalidPublicKey: "public key is not valid", InvalidRecoveryID: "id is not valid",
		InvalidSignature: "signature is not valid", InvalidDataOffsets: "offset not valid",
		InvalidInstructionDataSize: "instruction is incorrect size"} {
		if e.Error() != want {
			t.Errorf("%d: %q", e, e.Error())
		}
	}
}
