package zkproof

import (
	"fmt"

	"github.com/gtank/ristretto255"
)

// ProofType is the reference's ProofType: the kind of proof a context-state account holds
// (its byte 32). Its values are the Verify* instructions' discriminators.
type ProofType uint8

// The proof types, in the reference's order.
const (
	Uninitialized ProofType = iota
	ZeroCiphertext
	CiphertextCiphertextEquality
	CiphertextCommitmentEquality
	PubkeyValidity
	PercentageWithCap
	BatchedRangeProofU64
	BatchedRangeProofU128
	BatchedRangeProofU256
	GroupedCiphertext2HandlesValidity
	BatchedGroupedCiphertext2HandlesValidity
	GroupedCiphertext3HandlesValidity
	BatchedGroupedCiphertext3HandlesValidity
	numProofTypes
)

// proofKind is what the program knows of one proof type: its Verify instruction's name (the
// log line), cost, the sizes of its context and proof (the proof data is the context, then
// the proof), and its verifier.
type proofKind struct {
	name       string
	units      uint64
	contextLen int
	proofLen   int
	verify     func(context, proof []byte) error
}

// rangeContextLen is BatchedRangeProofContext: 8 commitments, then 8 bit lengths.
const (
	maxCommitments  = 8
	rangeContextLen = maxCommitments*commitmentLen + maxCommitments
)

var kinds = [numProofTypes]proofKind{
	ZeroCiphertext: {"VerifyZeroCiphertext", 6_000, pubkeyLen + ciphertextLen, 96, func(c, p []byte) error {
		return verifyZeroCiphertext(newTranscript("zero-ciphertext-instruction"), (*point)(c[:32]), c[32:], p)
	}},
	CiphertextCiphertextEquality: {"VerifyCiphertextCiphertextEquality", 8_000, 2*pubkeyLen + 2*ciphertextLen, 224, func(c, p []byte) error {
		return verifyCiphertextCiphertextEquality(newTranscript("ciphertext-ciphertext-equality-instruction"), c, p)
	}},
	CiphertextCommitmentEquality: {"VerifyCiphertextCommitmentEquality", 6_400, pubkeyLen + ciphertextLen + commitmentLen, 192, func(c, p []byte) error {
		return verifyCiphertextCommitmentEquality(newTranscript("ciphertext-commitment-equality-instruction"), c, p)
	}},
	PubkeyValidity: {"VerifyPubkeyValidity", 2_600, pubkeyLen, 64, func(c, p []byte) error {
		return verifyPubkeyValidity(newTranscript("pubkey-validity-instruction"), (*point)(c), p)
	}},
	PercentageWithCap: {"VerifyPercentageWithCap", 6_500, 3*commitmentLen + 8, 256, func(c, p []byte) error {
		return verifyPercentageWithCap(newTranscript("percentage-with-cap-instruction"), c, p)
	}},
	BatchedRangeProofU64:  {"VerifyBatchedRangeProofU64", 111_000, rangeContextLen, 672, rangeVerifier(64)},
	BatchedRangeProofU128: {"VerifyBatchedRangeProofU128", 200_000, rangeContextLen, 736, rangeVerifier(128)},
	BatchedRangeProofU256: {"VerifyBatchedRangeProofU256", 368_000, rangeContextLen, 800, rangeVerifier(256)},
	GroupedCiphertext2HandlesValidity: {"VerifyGroupedCiphertext2HandlesValidity", 6_400, 2*pubkeyLen + groupedLen(2), 160, func(c, p []byte) error {
		return verifyValidity(newTranscript("grouped-ciphertext-validity-2-handles-instruction"), c, p, 2, false)
	}},
	BatchedGroupedCiphertext2HandlesValidity: {"VerifyBatchedGroupedCiphertext2HandlesValidity", 13_000, 2*pubkeyLen + 2*groupedLen(2), 160, func(c, p []byte) error {
		return verifyValidity(newTranscript("batched-grouped-ciphertext-validity-2-handles-instruction"), c, p, 2, true)
	}},
	GroupedCiphertext3HandlesValidity: {"VerifyGroupedCiphertext3HandlesValidity", 8_100, 3*pubkeyLen + groupedLen(3), 192, func(c, p []byte) error {
		return verifyValidity(newTranscript("grouped-ciphertext-validity-3-handles-instruction"), c, p, 3, false)
	}},
	BatchedGroupedCiphertext3HandlesValidity: {"VerifyBatchedGroupedCiphertext3HandlesValidity", 16_400, 3*pubkeyLen + 2*groupedLen(3), 192, func(c, p []byte) error {
		return verifyValidity(newTranscript("batched-grouped-ciphertext-validity-3-handles-instruction"), c, p, 3, true)
	}},
}

// ContextLen is the size of the context of proofs of type t (what a context-state account
// holds after its 33-byte header), 0 for Uninitialized or an unknown type.
func ContextLen(t ProofType) int {
	if t == Uninitialized || t >= numProofTypes {
		return 0
	}
	return kinds[t].contextLen
}

// DataLen is the size of the proof data of type t: its context, then its proof.
func DataLen(t ProofType) int {
	if t == Uninitialized || t >= numProofTypes {
		return 0
	}
	return kinds[t].contextLen + kinds[t].proofLen
}

// Verify checks proof data of type t (exactly DataLen(t) bytes: context, then proof) and
// returns its context. A proof that does not verify gives a VerifyError.
func Verify(t ProofType, data []byte) ([]byte, error) {
	if t == Uninitialized || t >= numProofTypes {
		return nil, fmt.Errorf("zkproof: no proof type %d", t)
	}
	k := &kinds[t]
	if len(data) != k.contextLen+k.proofLen {
		return nil, fmt.Errorf("zkproof: %s proof data is %d bytes, not %d", k.name, len(data), k.contextLen+k.proofLen)
	}
	ctx := data[:k.contextLen]
	return ctx, k.verify(ctx, data[k.contextLen:])
}

// rangeVerifier verifies batched range proofs whose bit lengths sum to bits.
func rangeVerifier(bits int) func(context, proof []byte) error {
	return func(context, proof []byte) error {
		commitments, bitLengths, err := decodeRangeContext(context)
		if err != nil {
			return err
		}
		sum := 0
		for _, n := range bitLengths {
			sum += n
		}
		if sum != bits {
			return ErrIllegalCommitmentLength
		}
		t := newTranscript("batched-range-proof-instruction")
		t.appendMessage("commitments", context[:maxCommitments*commitmentLen])
		t.appendMessage("bit-lengths", context[maxCommitments*commitmentLen:])
		p, err := decodeRangeProof(proof)
		if err != nil {
			return rangeError(err)
		}
		return rangeError(p.verify(commitments, bitLengths, t))
	}
}

// decodeRangeContext reads the commitments up to the first all-zero one and as many bit
// lengths; everything after must be zero.
func decodeRangeContext(context []byte) ([]*ristretto255.Element, []int, error) {
	var commitments []*ristretto255.Element
	n := 0
	for ; n < maxCommitments; n++ {
		c := (*point)(context[32*n : 32*n+32])
		if *c == (point{}) {
			break
		}
		e, ok := decodePoint(c)
		if !ok {
			return nil, nil, ErrProofContext
		}
		commitments = append(commitments, e)
	}
	lengths := context[maxCommitments*commitmentLen:]
	bitLengths := make([]int, n)
	for i := range n {
		bitLengths[i] = int(lengths[i])
	}
	if n == 0 {
		return nil, nil, ErrIllegalCommitmentLength
	}
	for _, b := range bitLengths {
		if b == 0 || b > 64 {
			return nil, nil, ErrIllegalAmountBitLength
		}
	}
	for i := n; i < maxCommitments; i++ {
		if *(*point)(context[32*i : 32*i+32]) != (point{}) || lengths[i] != 0 {
			return nil, nil, ErrProofContext
		}
	}
	return commitments, bitLengths, nil
}

// ContextState is a context-state account's data: the authority that may close it, the type
// of the proof verified, and that proof's context.
type ContextState struct {
	Authority [32]byte
	ProofType ProofType
	Context   []byte
}

// contextStateHeader is the authority and the proof type.
const contextStateHeader = 33

// EncodeContextState lays out a context-state account's data.
func EncodeContextState(authority [32]byte, t ProofType, context []byte) []byte {
	out := make([]byte, 0, contextStateHeader+len(context))
	out = append(append(out, authority[:]...), byte(t))
	return append(out, context...)
}

// DecodeContextState reads a context-state account of proof type t: exactly the header and
// t's context. ok is false for any other size or type.
func DecodeContextState(data []byte, t ProofType) (ContextState, bool) {
	if len(data) != contextStateHeader+ContextLen(t) || ContextLen(t) == 0 || ProofType(data[32]) != t {
		return ContextState{}, false
	}
	var s ContextState
	copy(s.Authority[:], data)
	s.ProofType = t
	s.Context = data[contextStateHeader:]
	return s, true
}
