package zkproof

import (
	"crypto/sha3"
	"sync"

	"github.com/gtank/ristretto255"
)

// The batched range proof: a Bulletproofs aggregated range proof that commitments V_j hold
// amounts of n_j bits each (sum n_j a power of two, at most 256 here), verified with one
// multiscalar multiplication that folds the polynomial and inner-product checks together.

// maxGenerators is the most bits a proof of this program covers (the U256 proofs).
const maxGenerators = 256

// generatorChain returns the first n points of the chain labelled label: SHAKE256 of
// "GeneratorsChain" || label, read 64 bytes at a time, each mapped to the group.
func generatorChain(label string, n int) []*ristretto255.Element {
	h := sha3.NewSHAKE256()
	h.Write([]byte("GeneratorsChain"))
	h.Write([]byte(label))
	out := make([]*ristretto255.Element, n)
	var buf [64]byte
	for i := range out {
		h.Read(buf[:])
		out[i] = ristretto255.NewElement().FromUniformBytes(buf[:])
	}
	return out
}

// rangeGenerators are the vector bases G_i and H_i, computed once.
var rangeGenerators = sync.OnceValues(func() (g, h []*ristretto255.Element) {
	return generatorChain("G", maxGenerators), generatorChain("H", maxGenerators)
})

// rangeProof is a decoded range proof: A, S, T_1, T_2 compressed, t_x, its blinding and
// e_blinding, then the inner-product proof (L_i, R_i interleaved, a, b).
type rangeProof struct {
	A, S, T1, T2              *point
	tX, tXBlinding, eBlinding *ristretto255.Scalar
	L, R                      []*point
	a, b                      *ristretto255.Scalar
}

// decodeRangeProof reads a range proof of any of the program's sizes (672, 736 or 800 bytes:
// 6, 7 or 8 inner-product rounds).
func decodeRangeProof(b []byte) (*rangeProof, error) {
	if len(b)%32 != 0 || len(b) < 7*32 {
		return nil, deserialization
	}
	p := &rangeProof{A: (*point)(b[0:32]), S: (*point)(b[32:64]), T1: (*point)(b[64:96]), T2: (*point)(b[96:128])}
	var err error
	if p.tX, err = decodeScalar(b[128:160]); err != nil {
		return nil, err
	}
	if p.tXBlinding, err = decodeScalar(b[160:192]); err != nil {
		return nil, err
	}
	if p.eBlinding, err = decodeScalar(b[192:224]); err != nil {
		return nil, err
	}
	ipp := b[224:]
	elements := len(ipp) / 32
	if elements < 2 || (elements-2)%2 != 0 || (elements-2)/2 >= 32 {
		return nil, deserialization
	}
	lgN := (elements - 2) / 2
	for i := range lgN {
		p.L = append(p.L, (*point)(ipp[64*i:64*i+32]))
		p.R = append(p.R, (*point)(ipp[64*i+32:64*i+64]))
	}
	if p.a, err = decodeScalar(ipp[64*lgN : 64*lgN+32]); err != nil {
		return nil, err
	}
	if p.b, err = decodeScalar(ipp[64*lgN+32 : 64*lgN+64]); err != nil {
		return nil, err
	}
	return p, nil
}

// sumOfPowers is 1 + x + ... + x^(n-1).
func sumOfPowers(x *ristretto255.Scalar, n int) *ristretto255.Scalar {
	sum, pow := ristretto255.NewScalar(), scalarOne
	for range n {
		sum = add(sum, pow)
		pow = mul(pow, x)
	}
	return sum
}

// delta is the part of t(x) the verifier computes itself:
// (z - z^2) * <1, y^nm> - sum_j z^(j+3) * <1, 2^n_j>.
func delta(bitLengths []int, nm int, y, z *ristretto255.Scalar) *ristretto255.Scalar {
	d := mul(sub(z, mul(z, z)), sumOfPowers(y, nm))
	expZ := mul(mul(z, z), z)
	two := scalarU64(2)
	for _, n := range bitLengths {
		d = sub(d, mul(expZ, sumOfPowers(two, n)))
		expZ = mul(expZ, z)
	}
	return d
}

// verify checks the proof against the commitments and their bit lengths, continuing t (which
// already holds the instruction's context).
func (p *rangeProof) verify(commitments []*ristretto255.Element, bitLengths []int, t *transcript) error {
	for _, c := range commitments {
		if isIdentity(c) {
			return algebraicRelation
		}
	}
	nm := 0
	for _, n := range bitLengths {
		nm += n
	}
	if nm == 0 || nm&(nm-1) != 0 {
		return invalidBitSize
	}
	if nm > maxGenerators {
		return invalidBitSize // unreachable: the program's contexts sum to 64, 128 or 256 bits
	}
	t.domainSeparator("range-proof")
	t.appendU64("n", uint64(nm))
	for _, f := range []struct {
		label string
		p     *point
	}{{"A", p.A}, {"S", p.S}} {
		if err := t.validateAndAppendPoint(f.label, f.p); err != nil {
			return err
		}
	}
	y := t.challengeScalar("y")
	z := t.challengeScalar("z")
	if err := t.validateAndAppendPoint("T_1", p.T1); err != nil {
		return err
	}
	if err := t.validateAndAppendPoint("T_2", p.T2); err != nil {
		return err
	}
	x := t.challengeScalar("x")
	t.appendScalar("t_x", p.tX)
	t.appendScalar("t_x_blinding", p.tXBlinding)
	t.appendScalar("e_blinding", p.eBlinding)
	w := t.challengeScalar("w")
	t.challengeScalar("c") // kept in the transcript by the reference for compatibility; unused

	// The inner-product proof's challenges u_i and the s vector built from them.
	lgN := len(p.L)
	if lgN != len(p.R) {
		return lrVectorLengthMismatch
	}
	if lgN == 0 || lgN >= 32 || nm != 1<<lgN {
		return invalidBitSize
	}
	t.domainSeparator("inner-product")
	t.appendU64("n", uint64(nm))
	uSq := make([]*ristretto255.Scalar, lgN)
	uInvSq := make([]*ristretto255.Scalar, lgN)
	allInv := scalarOne
	for i := range lgN {
		if err := t.validateAndAppendPoint("L", p.L[i]); err != nil {
			return err
		}
		if err := t.validateAndAppendPoint("R", p.R[i]); err != nil {
			return err
		}
		u := t.challengeScalar("u")
		uInv := ristretto255.NewScalar().Invert(u)
		allInv = mul(allInv, uInv)
		uSq[i] = mul(u, u)
		uInvSq[i] = mul(uInv, uInv)
	}
	s := make([]*ristretto255.Scalar, nm)
	s[0] = allInv
	for i := 1; i < nm; i++ {
		lgI := 0
		for 1<<(lgI+1) <= i {
			lgI++
		}
		s[i] = mul(s[i-(1<<lgI)], uSq[lgN-1-lgI])
	}
	t.appendScalar("ipp_a", p.a)
	t.appendScalar("ipp_b", p.b)
	d := t.challengeScalar("d")

	// The one equation: every term below sums to the identity for a valid proof.
	points, err := decompressAll(append([]*point{p.A, p.S, p.T1, p.T2}, append(append([]*point{}, p.L...), p.R...)...)...)
	if err != nil {
		return multiscalarMul
	}
	zz := mul(z, z)
	var m msm
	m.add(scalarOne, points[0])
	m.add(x, points[1])
	m.add(mul(d, x), points[2])
	m.add(mul(mul(d, x), x), points[3])
	m.add(sub(neg(p.eBlinding), mul(d, p.tXBlinding)), pedersenH())
	m.add(add(mul(w, sub(p.tX, mul(p.a, p.b))), mul(d, sub(delta(bitLengths, nm, y, z), p.tX))), basepoint)
	for i := range lgN {
		m.add(uSq[i], points[4+i])
	}
	for i := range lgN {
		m.add(uInvSq[i], points[4+lgN+i])
	}
	gens, hens := rangeGenerators()
	for i := range nm {
		m.add(sub(neg(z), mul(p.a, s[i])), gens[i])
	}
	// h_i = z + y^-i * (z^2 * z^j * 2^k - b * s_(nm-1-i)), where bit i is bit k of amount j.
	yInv := ristretto255.NewScalar().Invert(y)
	expYInv := scalarOne
	expZ := scalarOne
	two := scalarU64(2)
	i := 0
	for _, n := range bitLengths {
		exp2 := scalarOne
		for range n {
			zAnd2 := mul(exp2, expZ)
			m.add(add(z, mul(expYInv, sub(mul(zz, zAnd2), mul(p.b, s[nm-1-i])))), hens[i])
			exp2 = mul(exp2, two)
			expYInv = mul(expYInv, yInv)
			i++
		}
		expZ = mul(expZ, z)
	}
	expZ = scalarOne
	for _, c := range commitments {
		m.add(mul(mul(d, zz), expZ), c)
		expZ = mul(expZ, z)
	}
	return relation(&m)
}
