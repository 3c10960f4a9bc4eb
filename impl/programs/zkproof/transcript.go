package zkproof

import (
	"encoding/binary"

	"github.com/gtank/merlin"
	"github.com/gtank/ristretto255"
)

// transcriptDomain opens every transcript of the program, so its proofs cannot be replayed
// against another protocol built on the same primitives.
const transcriptDomain = "solana-zk-elgamal-proof-program-v1"

// transcript is a Merlin transcript with the operations the proofs use.
type transcript struct{ m *merlin.Transcript }

// newTranscript starts a transcript for one instruction's proof: the program's domain, then
// the instruction's own label under "dom-sep".
func newTranscript(label string) *transcript {
	t := &transcript{m: merlin.NewTranscript(transcriptDomain)}
	t.appendMessage("dom-sep", []byte(label))
	return t
}

func (t *transcript) appendMessage(label string, msg []byte) {
	t.m.AppendMessage([]byte(label), msg)
}

func (t *transcript) appendU64(label string, v uint64) {
	t.appendMessage(label, binary.LittleEndian.AppendUint64(nil, v))
}

func (t *transcript) appendScalar(label string, s *ristretto255.Scalar) {
	t.appendMessage(label, s.Encode(nil))
}

// validateAndAppendPoint appends a compressed point, refusing the identity's encoding (all
// zero bytes) as the reference's transcript does.
func (t *transcript) validateAndAppendPoint(label string, p *[32]byte) error {
	if *p == ([32]byte{}) {
		return errTranscript
	}
	t.appendMessage(label, p[:])
	return nil
}

func (t *transcript) domainSeparator(name string) { t.appendMessage("dom-sep", []byte(name)) }

// challengeScalar derives a scalar from 64 transcript bytes reduced modulo the group order.
func (t *transcript) challengeScalar(label string) *ristretto255.Scalar {
	return ristretto255.NewScalar().FromUniformBytes(t.m.ExtractBytes([]byte(label), 64))
}
