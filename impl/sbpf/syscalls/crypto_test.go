package syscalls

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc/bn254"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

func TestHashv(t *testing.T) {
	t.Parallel()
	cases := []struct {
		kind  HashKind
		parts []string
		want  string
	}{
		{SHA256, nil, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{SHA256, []string{"a", "bc"}, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		// Keccak-256 with the original padding (SHA3-256("") would be a7ffc6f8...).
		{Keccak256, nil, "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"},
		{Keccak256, []string{"ab", "c"}, "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45"},
		{Blake3, nil, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"},
		{Blake3, []string{"abc"}, "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85"},
	}
	for _, c := range cases {
		var parts [][]byte
		for _, p := range c.parts {
			parts = append(parts, []byte(p))
		}
		got := Hashv(c.kind, parts...)
		if hex.EncodeToString(got[:]) != c.want {
			t.Errorf("%v(%q) = %x, want %s", c.kind, c.parts, got, c.want)
		}
	}
}

// The vectors of the reference's secp256k1_recover test program.
func TestSecp256k1Recover(t *testing.T) {
	t.Parallel()
	hash := [32]byte(unhex(t, "dea566b6943be0e96253c2215b1bac69e7a81edb41c5028b4f5c45c53b4954d0"))
	sig := [64]byte(unhex(t, "97a4ee31fe8265729f4aa67d24d4a727f8c315a4c8f980eb4c4d4afa6ec942415d10d9c28a90e9929c524b2cfb65dfbcf68cfd68db17f95d235f96d8f072012d"))
	want := unhex(t, "42cd27e40fdf7c970aa2ca0b885b960f8b628a41a181e7e68e03ea0b8420589b3206bd662f7565d69dbd1d34296ad93538ed869e992043c3ebad6550a0116e5d")
	got, code := Secp256k1Recover(&hash, 1, &sig)
	if code != 0 || !bytes.Equal(got[:], want) {
		t.Fatalf("recover = %x, %d; want %x, 0", got, code, want)
	}

	// Malleability: the reference accepts high-s signatures (s -> n-s with the parity flipped).
	mhash := [32]byte(unhex(t, "47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad"))
	msig := [64]byte(unhex(t, "9392c46c42f6317381d4b244e92ffce3f457dd50b3a520263be7ef8ab069bbde2f901293d73fa0290c464b97c500adea6a644dc38d2524ef976dc6d71d9f5a26"))
	mwant := unhex(t, "9bee7c1834e018217b40149b842efa8096001a9b17880180a8469909e9c4736e390b94009768c228b555d30c0c4243c1eea50dc04862d3aeb03da220ac1185ee")
	got, code = Secp256k1Recover(&mhash, 0, &msig)
	if code != 0 || !bytes.Equal(got[:], mwant) {
		t.Fatalf("malleability base = %x, %d", got, code)
	}
	high := msig
	n := unhex(t, "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")
	subBE(high[32:], n, msig[32:])
	got, code = Secp256k1Recover(&mhash, 1, &high)
	if code != 0 || !bytes.Equal(got[:], mwant) {
		t.Fatalf("high-s = %x, %d; want the same key", got, code)
	}

	for _, c := range []struct {
		name string
		id   uint64
		sig  [64]byte
		want uint64
	}{
		{"id 4", 4, sig, Secp256k1InvalidRecoveryID},
		{"id 256", 256, sig, Secp256k1InvalidRecoveryID},
		{"zero sig", 0, [64]byte{}, Secp256k1InvalidSignature},
		{"r = n", 0, [64]byte(append(append([]byte{}, n...), sig[32:]...)), Secp256k1InvalidSignature},
		{"s = n", 0, [64]byte(append(append([]byte{}, sig[:32]...), n...)), Secp256k1InvalidSignature},
	} {
		if _, code := Secp256k1Recover(&hash, c.id, &c.sig); code != c.want {
			t.Errorf("%s: code %d, want %d", c.name, code, c.want)
		}
	}
}

// subBE sets out = a - b for big-endian byte strings of equal length (a >= b).
func subBE(out, a, b []byte) {
	borrow := 0
	for i := len(a) - 1; i >= 0; i-- {
		d := int(a[i]) - int(b[i]) - borrow
		borrow = 0
		if d < 0 {
			d += 256
			borrow = 1
		}
		out[i] = byte(d)
	}
}

func b32(v ...byte) [32]byte { return [32]byte(v) }

// The vectors of the reference's curve25519 syscall tests.
var (
	edLeft    = b32(33, 124, 71, 170, 117, 69, 151, 247, 59, 12, 95, 125, 133, 166, 64, 5, 2, 27, 90, 27, 200, 167, 59, 164, 52, 54, 52, 200, 29, 13, 34, 213)
	edRight   = b32(70, 222, 137, 221, 253, 204, 71, 51, 78, 8, 124, 1, 67, 200, 102, 225, 122, 228, 111, 183, 129, 14, 131, 210, 212, 95, 109, 246, 55, 10, 159, 91)
	edScalar  = b32(254, 198, 23, 138, 67, 243, 184, 110, 236, 115, 236, 205, 205, 215, 79, 114, 45, 250, 78, 137, 3, 107, 136, 237, 49, 126, 117, 223, 37, 191, 88, 6)
	badPoint  = b32(120, 140, 152, 233, 41, 227, 203, 27, 87, 115, 25, 251, 219, 5, 84, 148, 117, 38, 84, 60, 87, 144, 161, 146, 42, 34, 91, 155, 158, 189, 121, 79)
	edValid   = b32(201, 179, 241, 122, 180, 185, 239, 50, 183, 52, 221, 0, 153, 195, 43, 18, 22, 38, 187, 206, 179, 192, 210, 58, 53, 45, 150, 98, 89, 17, 158, 11)
	edSum     = b32(7, 251, 187, 86, 186, 232, 57, 242, 193, 236, 49, 200, 90, 29, 254, 82, 46, 80, 83, 70, 244, 153, 23, 156, 2, 138, 207, 51, 165, 38, 200, 85)
	edDiff    = b32(60, 87, 90, 68, 232, 25, 7, 172, 247, 120, 158, 104, 52, 127, 94, 244, 5, 79, 253, 15, 48, 69, 82, 134, 155, 70, 188, 81, 108, 95, 212, 9)
	edProduct = b32(64, 150, 40, 55, 80, 49, 217, 209, 105, 229, 181, 65, 241, 68, 2, 106, 220, 234, 211, 71, 159, 76, 156, 114, 242, 68, 147, 31, 243, 211, 191, 124)
	edMsmX    = b32(252, 31, 230, 46, 173, 95, 144, 148, 158, 157, 63, 10, 8, 68, 58, 176, 142, 192, 168, 53, 61, 105, 194, 166, 43, 56, 246, 236, 28, 146, 114, 133)
	edMsmY    = b32(10, 111, 8, 236, 97, 189, 124, 69, 89, 176, 222, 39, 199, 253, 111, 11, 248, 186, 128, 90, 120, 128, 248, 210, 232, 183, 93, 104, 111, 150, 7, 241)
	edMsm     = b32(30, 174, 168, 34, 160, 70, 63, 166, 236, 18, 74, 144, 185, 222, 208, 243, 5, 54, 223, 172, 185, 75, 244, 26, 70, 18, 248, 46, 207, 184, 235, 60)
	edMsm512  = b32(20, 146, 226, 37, 22, 61, 86, 249, 208, 40, 38, 11, 126, 101, 10, 82, 81, 77, 88, 209, 15, 76, 82, 251, 180, 133, 84, 243, 162, 0, 11, 145)

	riLeft    = b32(208, 165, 125, 204, 2, 100, 218, 17, 170, 194, 23, 9, 102, 156, 134, 136, 217, 190, 98, 34, 183, 194, 228, 153, 92, 11, 108, 103, 28, 57, 88, 15)
	riRight   = b32(208, 241, 72, 163, 73, 53, 32, 174, 54, 194, 71, 8, 70, 181, 244, 199, 93, 147, 99, 231, 162, 127, 25, 40, 39, 19, 140, 132, 112, 212, 145, 108)
	riValid   = b32(226, 242, 174, 10, 106, 188, 78, 113, 168, 132, 169, 97, 197, 0, 81, 95, 88, 227, 11, 106, 165, 130, 221, 141, 182, 166, 89, 69, 224, 141, 45, 118)
	riSum     = b32(78, 173, 9, 241, 180, 224, 31, 107, 176, 210, 144, 240, 118, 73, 70, 191, 128, 119, 141, 113, 125, 215, 161, 71, 49, 176, 87, 38, 180, 177, 39, 78)
	riDiff    = b32(150, 72, 222, 61, 148, 79, 96, 130, 151, 176, 29, 217, 231, 211, 0, 215, 76, 86, 212, 146, 110, 128, 24, 151, 187, 144, 108, 233, 221, 208, 157, 52)
	riProduct = b32(4, 16, 46, 2, 53, 151, 201, 133, 117, 149, 232, 164, 119, 109, 136, 20, 153, 24, 124, 21, 101, 124, 80, 19, 119, 100, 77, 108, 65, 187, 228, 5)
	riMsmX    = b32(130, 35, 97, 25, 18, 199, 33, 239, 85, 143, 119, 111, 49, 51, 224, 40, 167, 185, 240, 179, 25, 194, 213, 41, 14, 155, 104, 18, 181, 197, 15, 112)
	riMsmY    = b32(152, 156, 155, 197, 152, 232, 92, 206, 219, 159, 193, 134, 121, 128, 139, 36, 56, 191, 51, 143, 72, 204, 87, 76, 110, 124, 101, 96, 238, 158, 42, 108)
	riMsm     = b32(78, 120, 86, 111, 152, 64, 146, 84, 14, 236, 77, 147, 237, 190, 251, 241, 136, 167, 21, 94, 84, 118, 92, 140, 120, 81, 30, 246, 173, 140, 195, 86)
	riMsm512  = b32(146, 224, 127, 193, 252, 64, 196, 181, 246, 104, 27, 116, 183, 52, 200, 239, 2, 108, 21, 27, 97, 44, 95, 65, 26, 218, 223, 39, 197, 132, 51, 49)
)

func TestCurve25519(t *testing.T) {
	t.Parallel()
	check := func(name string, got [32]byte, ok bool, want [32]byte) {
		t.Helper()
		if !ok || got != want {
			t.Errorf("%s = %v, %v; want %v", name, got, ok, want)
		}
	}
	fails := func(name string, _ [32]byte, ok bool) {
		t.Helper()
		if ok {
			t.Errorf("%s succeeded, want failure", name)
		}
	}
	if !EdwardsValidate(&edValid) || EdwardsValidate(&badPoint) {
		t.Error("edwards validation")
	}
	if !RistrettoValidate(&riValid) || RistrettoValidate(&badPoint) {
		t.Error("ristretto validation")
	}
	r, ok := EdwardsAdd(&edLeft, &edRight)
	check("edwards add", r, ok, edSum)
	r, ok = EdwardsSub(&edLeft, &edRight)
	check("edwards sub", r, ok, edDiff)
	r, ok = EdwardsMul(&edScalar, &edRight)
	check("edwards mul", r, ok, edProduct)
	r, ok = EdwardsAdd(&badPoint, &edRight)
	fails("edwards add invalid", r, ok)
	r, ok = EdwardsMul(&edScalar, &badPoint)
	fails("edwards mul invalid", r, ok)
	r, ok = EdwardsMultiscalarMul([][32]byte{edScalar, edScalar}, [][32]byte{edMsmX, edMsmY})
	check("edwards msm", r, ok, edMsm)

	r, ok = RistrettoAdd(&riLeft, &riRight)
	check("ristretto add", r, ok, riSum)
	r, ok = RistrettoSub(&riLeft, &riRight)
	check("ristretto sub", r, ok, riDiff)
	r, ok = RistrettoMul(&edScalar, &riRight)
	check("ristretto mul", r, ok, riProduct)
	r, ok = RistrettoSub(&badPoint, &riRight)
	fails("ristretto sub invalid", r, ok)
	r, ok = RistrettoMultiscalarMul([][32]byte{edScalar, edScalar}, [][32]byte{riMsmX, riMsmY})
	check("ristretto msm", r, ok, riMsm)

	scalars := make([][32]byte, 512)
	edPoints := make([][32]byte, 512)
	riPoints := make([][32]byte, 512)
	for i := range scalars {
		scalars[i], edPoints[i], riPoints[i] = edScalar, edMsmX, riMsmX
	}
	r, ok = EdwardsMultiscalarMul(scalars, edPoints)
	check("edwards msm 512", r, ok, edMsm512)
	r, ok = RistrettoMultiscalarMul(scalars, riPoints)
	check("ristretto msm 512", r, ok, riMsm512)

	// A scalar not below the group order is refused (dalek's from_canonical_bytes).
	var big [32]byte
	for i := range big {
		big[i] = 0xff
	}
	big[31] = 0x10
	r, ok = EdwardsMul(&big, &edRight)
	fails("edwards mul non-canonical scalar", r, ok)
	r, ok = RistrettoMul(&big, &riRight)
	fails("ristretto mul non-canonical scalar", r, ok)
	// Empty multiscalar multiplications give the identity.
	r, ok = EdwardsMultiscalarMul(nil, nil)
	check("edwards msm empty", r, ok, [32]byte{1})
	r, ok = RistrettoMultiscalarMul(nil, nil)
	check("ristretto msm empty", r, ok, [32]byte{})
}

type bn254Case struct {
	Input, Expected, Name string
}

func loadCases[T any](t *testing.T, file string) []T {
	t.Helper()
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var cs []T
	if err := json.Unmarshal(data, &cs); err != nil {
		t.Fatal(err)
	}
	if len(cs) == 0 {
		t.Fatal("no cases")
	}
	return cs
}

// The reference's bn254 vectors (go-ethereum's precompile cases), in both endiannesses.
func TestAltBn128Vectors(t *testing.T) {
	t.Parallel()
	for _, c := range loadCases[bn254Case](t, "bn254_addition_cases.json") {
		in, want := unhex(t, c.Input), unhex(t, c.Expected)
		got, err := AltBn128G1Addition(in, false)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("add %s = %x, %v; want %x", c.Name, got, err, want)
		}
		padded := make([]byte, 128)
		copy(padded, in)
		got, err = AltBn128G1Addition(swapChunks(padded, 32), true)
		if err != nil || !bytes.Equal(got, swapChunks(want, 32)) {
			t.Errorf("add LE %s = %x, %v", c.Name, got, err)
		}
		if len(in) < 128 {
			if _, err := AltBn128G1Addition(swapChunks(in, 32), true); err == nil {
				t.Errorf("add LE %s: short input accepted", c.Name)
			}
		}
	}
	for _, c := range loadCases[bn254Case](t, "bn254_multiplication_cases.json") {
		in, want := unhex(t, c.Input), unhex(t, c.Expected)
		got, err := AltBn128G1Multiplication(in, false)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("mul %s = %x, %v; want %x", c.Name, got, err, want)
		}
		got, err = AltBn128G1Multiplication(swapChunks(in, 32), true)
		if err != nil || !bytes.Equal(got, swapChunks(want, 32)) {
			t.Errorf("mul LE %s = %x, %v", c.Name, got, err)
		}
	}
	for _, c := range loadCases[bn254Case](t, "bn254_pairing_cases.json") {
		in, want := unhex(t, c.Input), unhex(t, c.Expected)
		got, err := AltBn128PairingCheck(in, false, true)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("pairing %s = %x, %v; want %x", c.Name, got, err, want)
		}
		le := make([]byte, 0, len(in))
		for i := 0; i < len(in); i += 192 {
			le = append(le, swapChunks(in[i:i+64], 32)...)
			le = append(le, swapChunks(in[i+64:i+192], 64)...)
		}
		got, err = AltBn128PairingCheck(le, true, true)
		if err != nil || !bytes.Equal(got, reversed(want)) {
			t.Errorf("pairing LE %s = %x, %v", c.Name, got, err)
		}
		// The compressed forms of every pairing input round-trip (the reference's test).
		for i := 0; i < len(in); i += 192 {
			g1, g2 := in[i:i+64], in[i+64:i+192]
			c1, err := AltBn128G1Compress(g1, false)
			if err != nil {
				t.Fatalf("%s: g1 compress: %v", c.Name, err)
			}
			d1, err := AltBn128G1Decompress(c1, false)
			if err != nil || !bytes.Equal(d1, g1) {
				t.Errorf("%s: g1 round trip %x -> %x -> %x (%v)", c.Name, g1, c1, d1, err)
			}
			c2, err := AltBn128G2Compress(g2, false)
			if err != nil {
				t.Fatalf("%s: g2 compress: %v", c.Name, err)
			}
			d2, err := AltBn128G2Decompress(c2, false)
			if err != nil || !bytes.Equal(d2, g2) {
				t.Errorf("%s: g2 round trip %x -> %x -> %x (%v)", c.Name, g2, c2, d2, err)
			}
			c1le, _ := AltBn128G1Compress(swapChunks(g1, 32), true)
			if !bytes.Equal(c1le, reversed(c1)) {
				t.Errorf("%s: g1 LE compress %x, want %x", c.Name, c1le, reversed(c1))
			}
			c2le, _ := AltBn128G2Compress(swapChunks(g2, 64), true)
			if !bytes.Equal(c2le, reversed(c2)) {
				t.Errorf("%s: g2 LE compress %x, want %x", c.Name, c2le, reversed(c2))
			}
		}
	}
}

// The reference's G2 vectors (SIMD-0302), in both endiannesses.
func TestAltBn128G2Vectors(t *testing.T) {
	t.Parallel()
	for _, c := range loadCases[bn254Case](t, "bn254_addition_g2_cases.json") {
		in, want := unhex(t, c.Input), unhex(t, c.Expected)
		got, err := AltBn128G2Addition(in, false)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("G2 add %s = %x, %v; want %x", c.Name, got, err, want)
		}
		got, err = AltBn128G2Addition(swapChunks(in, 64), true)
		if err != nil || !bytes.Equal(got, swapChunks(want, 64)) {
			t.Errorf("G2 add LE %s = %x, %v", c.Name, got, err)
		}
		if _, err := AltBn128G2Addition(in[:255], false); err == nil {
			t.Errorf("G2 add %s: 255 bytes accepted", c.Name)
		}
	}
	for _, c := range loadCases[bn254Case](t, "bn254_multiplication_g2_cases.json") {
		in, want := unhex(t, c.Input), unhex(t, c.Expected)
		got, err := AltBn128G2Multiplication(in, false)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("G2 mul %s = %x, %v; want %x", c.Name, got, err, want)
		}
		le := append(swapChunks(in[:128], 64), reversed(in[128:])...)
		got, err = AltBn128G2Multiplication(le, true)
		if err != nil || !bytes.Equal(got, swapChunks(want, 64)) {
			t.Errorf("G2 mul LE %s = %x, %v", c.Name, got, err)
		}
	}
	// A point on the twist but outside the subgroup adds (on-curve check only) but does not
	// multiply (subgroup check). Find one: x with x^3 + b' a square, and check it is outside.
	var x, rhs, bt, y bn254.E2
	bt.SetOne()
	bt.MulBybTwistCurveCoeff(&bt)
	for i := uint64(1); ; i++ {
		x.A0.SetUint64(i)
		rhs.Square(&x).Mul(&rhs, &x).Add(&rhs, &bt)
		if rhs.Legendre() != 1 {
			continue
		}
		y.Sqrt(&rhs)
		p := bn254.G2Affine{X: x, Y: y}
		if !p.IsOnCurve() || p.IsInSubGroup() {
			continue
		}
		enc := g2Encode(&p)
		if _, err := AltBn128G2Addition(append(append([]byte{}, enc...), enc...), false); err != nil {
			t.Errorf("G2 add of an on-curve point outside the subgroup: %v", err)
		}
		if _, err := AltBn128G2Multiplication(append(enc, make([]byte, 32)...), false); err == nil {
			t.Error("G2 mul accepted a point outside the subgroup")
		}
		if _, err := AltBn128PairingCheck(append(make([]byte, 64), enc...), false, true); err == nil {
			t.Error("pairing accepted a G2 point outside the subgroup")
		}
		break
	}
}

func TestAltBn128Edges(t *testing.T) {
	t.Parallel()
	// The generator (1, 2): 2 is the smaller root, so no flag; its negation sets bit 7.
	gen := make([]byte, 64)
	gen[31], gen[63] = 1, 2
	c, err := AltBn128G1Compress(gen, false)
	if err != nil || !bytes.Equal(c, append(make([]byte, 31), 1)) {
		t.Errorf("compress G = %x, %v", c, err)
	}
	neg, _ := AltBn128G1Multiplication(append(append([]byte{}, gen...), unhex(t, "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000000")...), false)
	c, _ = AltBn128G1Compress(neg, false)
	want := append([]byte{0x80}, append(make([]byte, 30), 1)...)
	if !bytes.Equal(c, want) {
		t.Errorf("compress -G = %x, want %x", c, want)
	}
	if d, err := AltBn128G1Decompress(want, false); err != nil || !bytes.Equal(d, neg) {
		t.Errorf("decompress -G = %x, %v", d, err)
	}

	// arkworks' flags on the last coordinate: bit 6 alone makes the point infinity, so G + G' = G.
	inf := append([]byte{}, gen...)
	inf[32] |= 0x40
	sum, err := AltBn128G1Addition(append(append([]byte{}, gen...), inf...), false)
	if err != nil || !bytes.Equal(sum, gen) {
		t.Errorf("G + flagged infinity = %x, %v; want G", sum, err)
	}
	both := append([]byte{}, gen...)
	both[32] |= 0xc0
	if _, err := AltBn128G1Addition(append(append([]byte{}, gen...), both...), false); err == nil {
		t.Error("both flags accepted")
	}
	// Bit 7 alone is ignored.
	negFlag := append([]byte{}, gen...)
	negFlag[32] |= 0x80
	if sum, err := AltBn128G1Addition(negFlag, false); err != nil || !bytes.Equal(sum, gen) {
		t.Errorf("G(bit 7) + 0 = %x, %v", sum, err)
	}
	// x not below p, a point off the curve, and (0, 0) with a flag are refused.
	bad := append([]byte{}, gen...)
	copy(bad[:32], unhex(t, "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd48"))
	if _, err := AltBn128G1Addition(bad, false); err == nil {
		t.Error("x = p accepted")
	}
	off := append([]byte{}, gen...)
	off[63] = 3
	if _, err := AltBn128G1Addition(off, false); err == nil {
		t.Error("off-curve point accepted")
	}
	zeroFlag := make([]byte, 64)
	zeroFlag[32] = 0x80
	if _, err := AltBn128G1Addition(zeroFlag, false); err == nil {
		t.Error("(0, 0) with bit 7 accepted")
	}
	// Lengths.
	if _, err := AltBn128G1Addition(make([]byte, 129), false); err == nil {
		t.Error("129-byte addition accepted")
	}
	if _, err := AltBn128G1Multiplication(make([]byte, 97), false); err == nil {
		t.Error("97-byte multiplication accepted")
	}
	if _, err := AltBn128PairingCheck(make([]byte, 193), false, true); err == nil {
		t.Error("193-byte pairing accepted with the strict length check")
	}
	if got, err := AltBn128PairingCheck(make([]byte, 193), false, false); err != nil || got[31] != 1 {
		t.Errorf("193-byte pairing without the check = %x, %v (trailing byte ignored)", got, err)
	}
	if got, err := AltBn128PairingCheck(nil, false, true); err != nil || got[31] != 1 {
		t.Errorf("empty pairing = %x, %v; want 1", got, err)
	}
	// Decompressing an x that is no abscissa fails; infinity and zero decompress to zeros.
	if _, err := AltBn128G1Decompress(append(make([]byte, 31), 4), false); err == nil {
		t.Error("x = 4 decompressed (4^3 + 3 = 67 is no square mod p)")
	}
	flagged := make([]byte, 32)
	flagged[0] = 0x40
	if d, err := AltBn128G1Decompress(flagged, false); err != nil || !allZero(d) {
		t.Errorf("decompress infinity = %x, %v", d, err)
	}
	for _, n := range []int{31, 33} {
		if _, err := AltBn128G1Decompress(make([]byte, n), false); err == nil {
			t.Errorf("decompress of %d bytes accepted", n)
		}
	}
}

func TestBigModExp(t *testing.T) {
	t.Parallel()
	type bmeCase struct{ Base, Exponent, Modulus, Expected string }
	for _, c := range loadCases[bmeCase](t, "big_mod_exp_cases.json") {
		got := BigModExp(unhex(t, c.Base), unhex(t, c.Exponent), unhex(t, c.Modulus))
		if want := unhex(t, c.Expected); !bytes.Equal(got, want) {
			t.Errorf("%s^%s mod %s = %x, want %x", c.Base, c.Exponent, c.Modulus, got, want)
		}
	}
	if got := BigModExp([]byte{3}, []byte{0}, []byte{0, 1}); !bytes.Equal(got, []byte{0, 0}) {
		t.Errorf("mod 1 = %x, want zeros", got)
	}
	if got := BigModExp([]byte{3}, nil, []byte{0, 7}); !bytes.Equal(got, []byte{0, 1}) {
		t.Errorf("3^0 mod 7 = %x, want 0001", got)
	}
}

// The reference's poseidon vectors (solana-poseidon's tests).
func TestPoseidon(t *testing.T) {
	t.Parallel()
	ones, twos := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32)
	check := func(name string, in [][]byte, le bool, want string) {
		t.Helper()
		got, err := Poseidon(in, le, false)
		if err != nil || hex.EncodeToString(got[:]) != want {
			t.Errorf("%s = %x, %v; want %s", name, got, err, want)
		}
	}
	check("ones BE", [][]byte{ones}, false, "05bface581ee6177cc19c6c56363a68882f11e8407ac639db991e0d27f1b75e6")
	check("ones LE", [][]byte{ones}, true, "e6751b7fd2e091b99d63ac07841ef18288a66363c5c619cc7761ee81e5acbf05")
	check("ones twos BE", [][]byte{ones, twos}, false, "0d54e1938f8a8c1c7deb5e0355f26319207b84fe9ca2ce1b26e735c829821990")
	check("ones twos LE", [][]byte{ones, twos}, true, "90198229c835e7261bcea29cfe847b201963f255035eeb7d1c8c8a8f93e1540d")
	one := append(make([]byte, 31), 1)
	wantOne := []string{
		"29176100eaa962bdc1fe6c654d6a3c130e96a4d1168b33848b897dc502820133",
		"007af346e2d304279e79e0a9f3023f771294a78acb70e73f90afe27cad401e81",
		"02c0066e10a72abd2b33c3b214cb3e81bcb1b6e30961cd23c202b18673bf2543",
		"082c9c370a0d24f4416fbc414a37681f78442d27d86385991c17d6fc0c4b7d71",
		"10389605ae688d4f14db853122c47d66a803c72b41589cb1bf868741b206b9bb",
		"2a73f679328c3eab724aa3e5bdbf50b39035d7729f135b9709890f85c5dc5e76",
		"2276310aa7f3343a284214139d9da959be2a31b2c708a5f81954b265e53a30b8",
		"177e1453c446e1b07d2b4233425147095c4fcabb233d230b6d46a214d95b2884",
		"0e8fee2fe49da30fdeeb48c42ebb44cc6ee7055f61fbca5e313b8a5fca834c47",
		"2ec4c65e6378ab8c7330854f4a7077c1ff9260e44885c4b81dd131ad3a86cd96",
		"00713d41eca635f117d4ecbceb5f3a66dc4142eb70b56765bc358f1bec40bb9b",
		"14390be0baef249bd47c65ddac65c2e52e8513c081c1cd72c98006098e9a8fbe",
	}
	for i, w := range wantOne {
		in := make([][]byte, i+1)
		for j := range in {
			in[j] = one
		}
		check("ones of 1", in, false, w)
	}
	// A short input is a number (legacy light-poseidon): [1] hashes as 0...01.
	got, err := Poseidon([][]byte{{1}}, false, false)
	if err != nil || hex.EncodeToString(got[:]) != wantOne[0] {
		t.Errorf("short input = %x, %v", got, err)
	}
	p := unhex(t, "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001")
	for _, c := range []struct {
		name   string
		in     [][]byte
		le     bool
		padded bool
	}{
		{"no inputs", nil, false, false},
		{"13 inputs", make([][]byte, 13), false, false},
		{"empty input", [][]byte{{}}, false, false},
		{"33 bytes", [][]byte{make([]byte, 33)}, false, false},
		{"modulus", [][]byte{p}, false, false},
		{"modulus LE", [][]byte{reversed(p)}, true, false},
		{"short with padding enforced", [][]byte{{1}}, false, true},
	} {
		if _, err := Poseidon(c.in, c.le, c.padded); err == nil {
			t.Errorf("%s accepted", c.name)
		}
	}
}

// Independent checks of the group law and of arkworks' G2 sign convention (Fq2 ordered by c1,
// then c0), which the compression round trips alone would not pin.
func TestAltBn128Consistency(t *testing.T) {
	t.Parallel()
	gen := make([]byte, 64)
	gen[31], gen[63] = 1, 2
	twoG, err := AltBn128G1Addition(append(append([]byte{}, gen...), gen...), false)
	if err != nil {
		t.Fatal(err)
	}
	two := make([]byte, 32)
	two[31] = 2
	mul, err := AltBn128G1Multiplication(append(append([]byte{}, gen...), two...), false)
	if err != nil || !bytes.Equal(twoG, mul) {
		t.Errorf("G + G = %x, 2 * G = %x (%v)", twoG, mul, err)
	}
	neg := append([]byte{}, gen...)
	copy(neg[32:], unhex(t, "30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd45"))
	if sum, err := AltBn128G1Addition(append(append([]byte{}, gen...), neg...), false); err != nil || !allZero(sum) {
		t.Errorf("G + (-G) = %x, %v", sum, err)
	}

	var g2 bn254.G2Affine
	_, _, _, g2 = bn254.Generators()
	var k big.Int
	found := false
	for i := int64(1); i < 64 && !found; i++ {
		var p bn254.G2Affine
		p.ScalarMultiplication(&g2, k.SetInt64(i))
		var negY bn254.E2
		negY.Neg(&p.Y)
		byC1 := p.Y.A1.Cmp(&negY.A1) > 0
		byC0 := p.Y.A0.Cmp(&negY.A0) > 0
		if byC1 == byC0 {
			continue
		}
		found = true
		c, err := AltBn128G2Compress(g2Encode(&p), false)
		if err != nil {
			t.Fatal(err)
		}
		if got := c[0]&0x80 != 0; got != byC1 {
			t.Errorf("%d*G2: compressed sign bit %v, want %v (y.c1 decides)", i, got, byC1)
		}
	}
	if !found {
		t.Fatal("no multiple of G2 where c0 and c1 disagree")
	}
}
