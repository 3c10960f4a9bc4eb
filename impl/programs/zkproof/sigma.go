package zkproof

import "github.com/gtank/ristretto255"

// The sigma proofs. Each verifier hashes its public inputs into the transcript, adds its own
// domain separator, replays the prover's messages to derive the challenges, and checks one
// multiscalar equation that a valid proof sums to the identity. Points of the proof stay
// compressed until after the challenges, as the reference decompresses them there, so the
// failure reported for a bad proof (transcript, deserialization, relation) is the same.

// proofFields splits a proof into its compressed points and canonical scalars: kinds holds one
// byte per 32-byte field, 'P' for a point and 's' for a scalar.
func proofFields(proof []byte, kinds string) ([]*point, []*ristretto255.Scalar, error) {
	var points []*point
	var scalars []*ristretto255.Scalar
	for i, k := range []byte(kinds) {
		b := proof[32*i : 32*i+32]
		if k == 'P' {
			points = append(points, (*point)(b))
			continue
		}
		s, err := decodeScalar(b)
		if err != nil {
			return nil, nil, err
		}
		scalars = append(scalars, s)
	}
	return points, scalars, nil
}

// decompressAll decompresses the proof's points, in order.
func decompressAll(ps ...*point) ([]*ristretto255.Element, error) {
	out := make([]*ristretto255.Element, len(ps))
	for i, p := range ps {
		e, ok := decodePoint(p)
		if !ok {
			return nil, deserialization
		}
		out[i] = e
	}
	return out, nil
}

func anyIdentity(es ...*ristretto255.Element) bool {
	for _, e := range es {
		if isIdentity(e) {
			return true
		}
	}
	return false
}

func relation(m *msm) error {
	if m.isIdentity() {
		return nil
	}
	return algebraicRelation
}

// verifyZeroCiphertext checks that ciphertext (C, D) under pubkey P encrypts zero: a proof of
// knowledge of s with P = s*H and C = s*D.
func verifyZeroCiphertext(t *transcript, pubkey *point, ct []byte, proof []byte) error {
	P, err := decodePubkey(pubkey)
	if err != nil {
		return err
	}
	c, err := decodeCiphertext(ct)
	if err != nil {
		return err
	}
	ys, zs, err := proofFields(proof, "PPs")
	if err != nil {
		return sigmaError(sigmaZeroCiphertext, err)
	}
	return sigmaError(sigmaZeroCiphertext, func() error {
		if anyIdentity(P, c.c, c.d[0]) {
			return identityPoint
		}
		t.appendMessage("pubkey", pubkey[:])
		t.appendMessage("ciphertext", ct)
		t.domainSeparator("zero-ciphertext-proof")
		if err := t.validateAndAppendPoint("Y_P", ys[0]); err != nil {
			return err
		}
		t.appendMessage("Y_D", ys[1][:])
		ch := t.challengeScalar("c")
		z := zs[0]
		t.appendScalar("z", z)
		w := t.challengeScalar("w")
		Y, err := decompressAll(ys...)
		if err != nil {
			return err
		}
		var m msm
		m.add(z, P)
		m.add(neg(ch), pedersenH())
		m.add(neg(scalarOne), Y[0])
		m.add(mul(w, z), c.d[0])
		m.add(neg(mul(w, ch)), c.c)
		m.add(neg(w), Y[1])
		return relation(&m)
	}())
}

// verifyPubkeyValidity checks knowledge of the secret key s of P = s^-1 * H.
func verifyPubkeyValidity(t *transcript, pubkey *point, proof []byte) error {
	P, err := decodePubkey(pubkey)
	if err != nil {
		return err
	}
	ys, zs, err := proofFields(proof, "Ps")
	if err != nil {
		return sigmaError(sigmaPubkeyValidity, err)
	}
	return sigmaError(sigmaPubkeyValidity, func() error {
		t.appendMessage("pubkey", pubkey[:])
		t.domainSeparator("pubkey-proof")
		if isIdentity(P) {
			return identityPoint
		}
		if err := t.validateAndAppendPoint("Y", ys[0]); err != nil {
			return err
		}
		ch := t.challengeScalar("c")
		Y, err := decompressAll(ys...)
		if err != nil {
			return err
		}
		var m msm
		m.add(zs[0], pedersenH())
		m.add(neg(ch), P)
		m.add(neg(scalarOne), Y[0])
		return relation(&m)
	}())
}

// equalityChallenges replays what the two equality proofs share after their public inputs:
// the points ys (Y_0, Y_1, ...), the challenge c, the responses zs (z_s, z_x, z_r) and the
// challenge w. It returns the challenges and the points decompressed.
func equalityChallenges(t *transcript, ys []*point, zs []*ristretto255.Scalar) (ch, w *ristretto255.Scalar, Y []*ristretto255.Element, err error) {
	for i, label := range []string{"Y_0", "Y_1", "Y_2", "Y_3"}[:len(ys)] {
		if err := t.validateAndAppendPoint(label, ys[i]); err != nil {
			return nil, nil, nil, err
		}
	}
	ch = t.challengeScalar("c")
	t.appendScalar("z_s", zs[0])
	t.appendScalar("z_x", zs[1])
	t.appendScalar("z_r", zs[2])
	w = t.challengeScalar("w")
	if Y, err = decompressAll(ys...); err != nil {
		return nil, nil, nil, err
	}
	return ch, w, Y, nil
}

// addEqualityTerms adds the equations the two equality proofs share, of the ciphertext c under
// the key P and a commitment C to the same amount x (a Pedersen commitment, or a second
// ciphertext's): z_s*P = ch*H + Y_0 (the key's secret s), w*(z_x*G + z_s*D) = w*(ch*c.C + Y_1)
// (the ciphertext opens to x) and w^2*(z_x*G + z_r*H) = w^2*(ch*C + Y_2) (so does C).
func addEqualityTerms(m *msm, ch, w *ristretto255.Scalar, zs []*ristretto255.Scalar, P *ristretto255.Element, c groupedCiphertext, C *ristretto255.Element, Y []*ristretto255.Element) {
	zS, zX, zR := zs[0], zs[1], zs[2]
	ww := mul(w, w)
	G, H := basepoint, pedersenH()
	m.add(zS, P)
	m.add(neg(ch), H)
	m.add(neg(scalarOne), Y[0])
	m.add(mul(w, zX), G)
	m.add(mul(w, zS), c.d[0])
	m.add(neg(mul(w, ch)), c.c)
	m.add(neg(w), Y[1])
	m.add(mul(ww, zX), G)
	m.add(mul(ww, zR), H)
	m.add(neg(mul(ww, ch)), C)
	m.add(neg(ww), Y[2])
}

// verifyCiphertextCiphertextEquality checks that two ciphertexts under two keys encrypt the
// same amount.
func verifyCiphertextCiphertextEquality(t *transcript, ctx []byte, proof []byte) error {
	r := reader{b: ctx}
	pk1, pk2, ct1, ct2 := r.point(), r.point(), r.bytes(ciphertextLen), r.bytes(ciphertextLen)
	P1, err := decodePubkey(pk1)
	if err != nil {
		return err
	}
	P2, err := decodePubkey(pk2)
	if err != nil {
		return err
	}
	c1, err := decodeCiphertext(ct1)
	if err != nil {
		return err
	}
	c2, err := decodeCiphertext(ct2)
	if err != nil {
		return err
	}
	ys, zs, err := proofFields(proof, "PPPPsss")
	if err != nil {
		return sigmaError(sigmaEquality, err)
	}
	return sigmaError(sigmaEquality, func() error {
		// The second ciphertext may be the identity (an empty balance is).
		if anyIdentity(P1, P2, c1.c, c1.d[0]) {
			return identityPoint
		}
		t.appendMessage("first-pubkey", pk1[:])
		t.appendMessage("second-pubkey", pk2[:])
		t.appendMessage("first-ciphertext", ct1)
		t.appendMessage("second-ciphertext", ct2)
		t.domainSeparator("ciphertext-ciphertext-equality-proof")
		ch, w, Y, err := equalityChallenges(t, ys, zs)
		if err != nil {
			return err
		}
		var m msm
		addEqualityTerms(&m, ch, w, zs, P1, c1, c2.c, Y)
		// The second ciphertext's handle under the second key, with the same opening.
		zR := zs[2]
		www := mul(w, mul(w, w))
		m.add(mul(www, zR), P2)
		m.add(neg(mul(www, ch)), c2.d[0])
		m.add(neg(www), Y[3])
		return relation(&m)
	}())
}

// verifyCiphertextCommitmentEquality checks that a ciphertext and a Pedersen commitment hold
// the same amount.
func verifyCiphertextCommitmentEquality(t *transcript, ctx []byte, proof []byte) error {
	r := reader{b: ctx}
	pk, ct, cm := r.point(), r.bytes(ciphertextLen), r.point()
	P, err := decodePubkey(pk)
	if err != nil {
		return err
	}
	c, err := decodeCiphertext(ct)
	if err != nil {
		return err
	}
	C2, err := decodeCommitment(cm)
	if err != nil {
		return err
	}
	ys, zs, err := proofFields(proof, "PPPsss")
	if err != nil {
		return sigmaError(sigmaEquality, err)
	}
	return sigmaError(sigmaEquality, func() error {
		if anyIdentity(P, c.c, c.d[0], C2) {
			return identityPoint
		}
		t.appendMessage("pubkey", pk[:])
		t.appendMessage("ciphertext", ct)
		t.appendMessage("commitment", cm[:])
		t.domainSeparator("ciphertext-commitment-equality-proof")
		ch, w, Y, err := equalityChallenges(t, ys, zs)
		if err != nil {
			return err
		}
		var m msm
		addEqualityTerms(&m, ch, w, zs, P, c, C2, Y)
		return relation(&m)
	}())
}

// verifyPercentageWithCap checks that the claimed commitment is either the capped maximum or
// the percentage the delta commitment describes (a fee and its cap), one of the two proofs
// simulated.
func verifyPercentageWithCap(t *transcript, ctx []byte, proof []byte) error {
	r := reader{b: ctx}
	pc, dc, cc := r.point(), r.point(), r.point()
	maxRaw := r.bytes(8)
	Cmax, err := decodeCommitment(pc)
	if err != nil {
		return err
	}
	Cdelta, err := decodeCommitment(dc)
	if err != nil {
		return err
	}
	Cclaimed, err := decodeCommitment(cc)
	if err != nil {
		return err
	}
	maxValue := uint64(maxRaw[0]) | uint64(maxRaw[1])<<8 | uint64(maxRaw[2])<<16 | uint64(maxRaw[3])<<24 |
		uint64(maxRaw[4])<<32 | uint64(maxRaw[5])<<40 | uint64(maxRaw[6])<<48 | uint64(maxRaw[7])<<56
	ys, zs, err := proofFields(proof, "PssPPsss")
	if err != nil {
		return sigmaError(sigmaPercentageWithCap, err)
	}
	return sigmaError(sigmaPercentageWithCap, func() error {
		if anyIdentity(Cmax, Cdelta, Cclaimed) {
			return identityPoint
		}
		t.appendMessage("percentage-commitment", pc[:])
		t.appendMessage("delta-commitment", dc[:])
		t.appendMessage("claimed-commitment", cc[:])
		t.appendU64("max-value", maxValue)
		t.domainSeparator("percentage-with-cap-proof")
		for i, label := range []string{"Y_max_proof", "Y_delta", "Y_claimed"} {
			if err := t.validateAndAppendPoint(label, ys[i]); err != nil {
				return err
			}
		}
		Y, err := decompressAll(ys...)
		if err != nil {
			return err
		}
		zMax, cMax, zX, zDelta, zClaimed := zs[0], zs[1], zs[2], zs[3], zs[4]
		ch := t.challengeScalar("c")
		cEq := sub(ch, cMax)
		t.appendScalar("z_max", zMax)
		t.appendScalar("c_max_proof", cMax)
		t.appendScalar("z_x", zX)
		t.appendScalar("z_delta_real", zDelta)
		t.appendScalar("z_claimed", zClaimed)
		w := t.challengeScalar("w")
		ww := mul(w, w)
		G, H := basepoint, pedersenH()
		var m msm
		m.add(cMax, Cmax)
		m.add(neg(mul(cMax, scalarU64(maxValue))), G)
		m.add(neg(zMax), H)
		m.add(scalarOne, Y[0])
		m.add(mul(w, zX), G)
		m.add(mul(w, zDelta), H)
		m.add(neg(mul(w, cEq)), Cdelta)
		m.add(neg(w), Y[1])
		m.add(mul(ww, zX), G)
		m.add(mul(ww, zClaimed), H)
		m.add(neg(mul(ww, cEq)), Cclaimed)
		m.add(neg(ww), Y[2])
		return relation(&m)
	}())
}

// validityInputs are the public inputs of a grouped ciphertext validity proof: 2 or 3 keys
// and the ciphertext (or the batched lo/hi pair) encrypted under them.
type validityInputs struct {
	raw    []byte // the context as the transcript hashes it, field by field
	keys   []*point
	P      []*ristretto255.Element
	lo, hi groupedCiphertext
	loRaw  []byte
	hiRaw  []byte
}

// decodeValidity reads a validity context: handles keys, then one grouped ciphertext, or two
// (lo, hi) when batched.
func decodeValidity(ctx []byte, handles int, batched bool) (validityInputs, error) {
	r := reader{b: ctx}
	in := validityInputs{raw: ctx}
	for range handles {
		in.keys = append(in.keys, r.point())
	}
	in.loRaw = r.bytes(groupedLen(handles))
	if batched {
		in.hiRaw = r.bytes(groupedLen(handles))
	}
	for _, k := range in.keys {
		P, err := decodePubkey(k)
		if err != nil {
			return validityInputs{}, err
		}
		in.P = append(in.P, P)
	}
	var err error
	if in.lo, err = decodeCiphertext(in.loRaw); err != nil {
		return validityInputs{}, err
	}
	if batched {
		if in.hi, err = decodeCiphertext(in.hiRaw); err != nil {
			return validityInputs{}, err
		}
	}
	return in, nil
}

var keyLabels = []string{"first-pubkey", "second-pubkey", "third-pubkey"}

// verifyValidity checks that a grouped ciphertext's commitment and handles were made with one
// opening under the given keys. Every key but the last must be a real key (the last may be
// the identity: an absent auditor).
func verifyValidity(t *transcript, ctx []byte, proof []byte, handles int, batched bool) error {
	in, err := decodeValidity(ctx, handles, batched)
	if err != nil {
		return err
	}
	ys, zs, err := proofFields(proof, "PPPPPP"[:handles+1]+"ss")
	if err != nil {
		return sigmaError(sigmaValidity, err)
	}
	return sigmaError(sigmaValidity, func() error {
		checked := append(append([]*ristretto255.Element{}, in.P[:handles-1]...), in.lo.c)
		if batched {
			checked = append(checked, in.hi.c)
		}
		if anyIdentity(checked...) {
			return identityPoint
		}
		for i, k := range in.keys {
			t.appendMessage(keyLabels[i], k[:])
		}
		g := in.lo
		if batched {
			t.appendMessage("grouped-ciphertext-lo", in.loRaw)
			t.appendMessage("grouped-ciphertext-hi", in.hiRaw)
			t.domainSeparator("batched-validity-proof")
			t.appendU64("handles", uint64(handles))
			g = batch(in.lo, in.hi, t.challengeScalar("t"))
		} else {
			t.appendMessage("grouped-ciphertext", in.loRaw)
		}
		t.domainSeparator("validity-proof")
		t.appendU64("handles", uint64(handles))
		labels := []string{"Y_0", "Y_1", "Y_2", "Y_3"}
		for i := range handles {
			if err := t.validateAndAppendPoint(labels[i], ys[i]); err != nil {
				return err
			}
		}
		t.appendMessage(labels[handles], ys[handles][:])
		ch := t.challengeScalar("c")
		zR, zX := zs[0], zs[1]
		t.appendScalar("z_r", zR)
		t.appendScalar("z_x", zX)
		w := t.challengeScalar("w")
		Y, err := decompressAll(ys...)
		if err != nil {
			return err
		}
		var m msm
		m.add(zR, pedersenH())
		m.add(zX, basepoint)
		m.add(neg(ch), g.c)
		m.add(neg(scalarOne), Y[0])
		wi := scalarOne
		for i := range handles {
			wi = mul(wi, w)
			m.add(mul(wi, zR), in.P[i])
			m.add(neg(mul(wi, ch)), g.d[i])
			m.add(neg(wi), Y[i+1])
		}
		return relation(&m)
	}())
}
