//go:build unix

package zkproof

import (
	"encoding/hex"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"ledgerd/conformance/npmdeps"
)

// vector is one proof the reference's zk-sdk made, with the reference verifier's verdict on
// copies of it with one bit flipped.
type vector struct {
	Name     string
	Data     string
	Tampered [][2]any
	data     []byte
}

var proofTypeByName = map[string]ProofType{
	"ZeroCiphertext": ZeroCiphertext, "CiphertextCiphertextEquality": CiphertextCiphertextEquality,
	"CiphertextCommitmentEquality": CiphertextCommitmentEquality, "PubkeyValidity": PubkeyValidity,
	"PercentageWithCap": PercentageWithCap, "PercentageWithCapAtMax": PercentageWithCap,
	"BatchedRangeProofU64": BatchedRangeProofU64, "BatchedRangeProofU128": BatchedRangeProofU128,
	"BatchedRangeProofU256":             BatchedRangeProofU256,
	"GroupedCiphertext2HandlesValidity": GroupedCiphertext2HandlesValidity, "BatchedGroupedCiphertext2HandlesValidity": BatchedGroupedCiphertext2HandlesValidity,
	"GroupedCiphertext3HandlesValidity": GroupedCiphertext3HandlesValidity, "BatchedGroupedCiphertext3HandlesValidity": BatchedGroupedCiphertext3HandlesValidity,
}

var (
	vectorsOnce sync.Once
	vectorsList []vector
	vectorsErr  error
)

// freshVectors runs testdata/zksdk/gen.mjs (installing the zk-sdk its lockfile pins) once per
// test binary; it skips the test when node or npm is missing.
func freshVectors(t testing.TB) []vector {
	t.Helper()
	npmdeps.Require(t, "the zk-sdk makes the proofs")
	dir := filepath.Join("testdata", "zksdk")
	npmdeps.Install(t, dir, filepath.Join(dir, ".npm-ci.lock"))
	vectorsOnce.Do(func() {
		cmd := exec.Command("node", "gen.mjs")
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			vectorsErr = err
			return
		}
		if vectorsErr = json.Unmarshal(out, &vectorsList); vectorsErr != nil {
			return
		}
		for i := range vectorsList {
			vectorsList[i].data, vectorsErr = hex.DecodeString(vectorsList[i].Data)
			if vectorsErr != nil {
				return
			}
		}
	})
	if vectorsErr != nil {
		t.Fatal(vectorsErr)
	}
	return vectorsList
}

// display is the reference's Display text of a ProofVerificationError (what its WASM verifier
// throws), from the Debug form VerifyError holds.
func display(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	for prefix, text := range map[string]string{
		"SigmaProof(": "sigma proof verification failed", "RangeProof(": "range proof verification failed",
		"ElGamal(": "ElGamal ciphertext or public key error", "ProofContext": "Invalid proof context",
		"IllegalCommitmentLength": "illegal commitment length", "IllegalAmountBitLength": "illegal amount bit length",
	} {
		if strings.HasPrefix(s, prefix) {
			return text
		}
	}
	return "unexpected error " + s
}

// TestRealProofs verifies a fresh proof of every type made by the reference's zk-sdk, then
// copies with one bit flipped, each of which must fail (or pass) as the reference's verifier
// says, with the same error.
func TestRealProofs(t *testing.T) {
	for _, v := range freshVectors(t) {
		t.Run(v.Name, func(t *testing.T) {
			typ, ok := proofTypeByName[v.Name]
			if !ok {
				t.Fatalf("unknown vector %s", v.Name)
			}
			ctx, err := Verify(typ, v.data)
			if err != nil {
				t.Fatalf("valid proof: %v", err)
			}
			if len(ctx) != ContextLen(typ) {
				t.Fatalf("context is %d bytes, want %d", len(ctx), ContextLen(typ))
			}
			for _, tp := range v.Tampered {
				pos, want := int(tp[0].(float64)), tp[1].(string)
				b := append([]byte(nil), v.data...)
				b[pos] ^= 1
				_, err := Verify(typ, b)
				if got := display(err); got != want {
					t.Errorf("byte %d flipped: got %q (%v), the reference %q", pos, got, err, want)
				}
			}
		})
	}
}
