package zkproof

// failure is why a sigma or range proof failed, named as the reference names the variants of
// its SigmaProofVerificationError and RangeProofVerificationError.
type failure string

const (
	algebraicRelation      failure = "AlgebraicRelation"
	deserialization        failure = "Deserialization"
	multiscalarMul         failure = "MultiscalarMul"
	identityPoint          failure = "IdentityPoint"
	invalidBitSize         failure = "InvalidBitSize"
	lrVectorLengthMismatch failure = "LRVectorLengthMismatch"
	// errTranscript is a proof point encoded as the identity where the transcript refuses it.
	errTranscript failure = "Transcript(ValidationError)"
)

func (f failure) Error() string { return string(f) }

// VerifyError is a proof that does not verify: the reference's ProofVerificationError, whose
// Debug formatting (what Error returns) the program writes to the log.
type VerifyError string

func (e VerifyError) Error() string { return string(e) }

// The sigma proof families of SigmaProof(family, failure).
const (
	sigmaZeroCiphertext    = "ZeroCiphertext"
	sigmaEquality          = "Equality"
	sigmaPubkeyValidity    = "PubkeyValidity"
	sigmaPercentageWithCap = "PercentageWithCap"
	sigmaValidity          = "ValidityProof"
)

// The ProofVerificationError values that carry no failure.
const (
	ErrProofContext              VerifyError = "ProofContext"
	ErrIllegalCommitmentLength   VerifyError = "IllegalCommitmentLength"
	ErrIllegalAmountBitLength    VerifyError = "IllegalAmountBitLength"
	errPubkeyDeserialization     VerifyError = "ElGamal(PubkeyDeserialization)"
	errCiphertextDeserialization VerifyError = "ElGamal(CiphertextDeserialization)"
)

// sigmaError wraps a sigma proof's failure as the reference's SigmaProof(family, failure).
func sigmaError(family string, err error) error {
	if err == nil {
		return nil
	}
	return VerifyError("SigmaProof(" + family + ", " + err.Error() + ")")
}

// rangeError wraps a range proof's failure as the reference's RangeProof(failure).
func rangeError(err error) error {
	if err == nil {
		return nil
	}
	return VerifyError("RangeProof(" + err.Error() + ")")
}
