package core

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Transaction is a message and the signatures of its required signers, in key order.
type Transaction struct {
	Signatures []Signature
	Message    Message
}

// Signature returns the first signature, which identifies the transaction, or the zero
// signature when there is none.
func (tx *Transaction) Signature() Signature {
	if len(tx.Signatures) == 0 {
		return Signature{}
	}
	return tx.Signatures[0]
}

// Size returns the length of the serialized transaction.
func (tx *Transaction) Size() int {
	return shortVecSize(len(tx.Signatures)) - len(tx.Signatures) + len(tx.Signatures)*SignatureLen + tx.Message.Size()
}

// AppendTo appends the wire form of tx to dst.
func (tx *Transaction) AppendTo(dst []byte) []byte {
	dst = AppendShortU16(dst, mustShortLen(len(tx.Signatures), "signatures"))
	for i := range tx.Signatures {
		dst = append(dst, tx.Signatures[i][:]...)
	}
	return tx.Message.AppendTo(dst)
}

// Serialize returns the wire form of tx. It does not enforce PacketDataSize; callers that send
// transactions check Size against it.
func (tx *Transaction) Serialize() []byte { return tx.AppendTo(make([]byte, 0, tx.Size())) }

// MarshalBinary implements encoding.BinaryMarshaler.
func (tx *Transaction) MarshalBinary() ([]byte, error) { return tx.Serialize(), nil }

// DecodeTransaction decodes a transaction from its wire form, ignoring any bytes after it, as
// the reference's RPC decoding does (bincode with allow_trailing_bytes). Errors are
// *DecodeError values whose text follows `failed to deserialize {type}: `. The result owns its
// memory; b may be reused afterwards.
func DecodeTransaction(b []byte) (*Transaction, error) {
	tx, _, err := DecodeTransactionPrefix(b)
	return tx, err
}

// DecodeTransactionPrefix decodes a transaction from the start of b and also returns how many
// bytes it took.
func DecodeTransactionPrefix(b []byte) (*Transaction, int, error) {
	tx := new(Transaction)
	n, err := tx.decode(b)
	if err != nil {
		return nil, 0, err
	}
	return tx, n, nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler; unlike DecodeTransaction it requires
// that b hold exactly one transaction.
func (tx *Transaction) UnmarshalBinary(b []byte) error {
	n, err := tx.decode(b)
	if err != nil {
		return err
	}
	if n != len(b) {
		return ErrTrailingBytes
	}
	return nil
}

func (tx *Transaction) decode(b []byte) (int, error) {
	d := decoder{b: b}
	n, err := d.shortLen()
	if err != nil {
		return 0, err
	}
	if n*SignatureLen > d.remaining() {
		return 0, ErrUnexpectedEOF
	}
	tx.Signatures = nil
	if n > 0 {
		tx.Signatures = make([]Signature, n)
		for i := range tx.Signatures {
			copy(tx.Signatures[i][:], b[d.off:d.off+SignatureLen])
			d.off += SignatureLen
		}
	}
	start := d.off
	if err := d.message(&tx.Message); err != nil {
		return 0, err
	}
	d.finish(&tx.Message, start)
	return d.off, nil
}

// DecodeMessage decodes a message (legacy or versioned) from its wire form, ignoring trailing
// bytes as the reference's getFeeForMessage does.
func DecodeMessage(b []byte) (*Message, error) {
	m, _, err := DecodeMessagePrefix(b)
	return m, err
}

// DecodeMessagePrefix decodes a message from the start of b and returns how many bytes it took.
func DecodeMessagePrefix(b []byte) (*Message, int, error) {
	m := new(Message)
	d := decoder{b: b}
	if err := d.message(m); err != nil {
		return nil, 0, err
	}
	d.finish(m, 0)
	return m, d.off, nil
}

// UnmarshalBinary implements encoding.BinaryUnmarshaler; b must hold exactly one message.
func (m *Message) UnmarshalBinary(b []byte) error {
	d := decoder{b: b}
	if err := d.message(m); err != nil {
		return err
	}
	d.finish(m, 0)
	if d.off != len(b) {
		return ErrTrailingBytes
	}
	return nil
}

// ---------------------------------------------------------------------------------------------
// Signing and verification

// SignerError is a failure to sign a message with a set of keypairs. The texts are the
// reference's SignerError Display forms.
type SignerError struct{ msg string }

func (e *SignerError) Error() string { return e.msg }

// Signing errors.
var (
	ErrNotEnoughSigners      = &SignerError{"not enough signers"}
	ErrTooManySigners        = &SignerError{"too many signers"}
	ErrKeypairPubkeyMismatch = &SignerError{"keypair-pubkey mismatch"}
	ErrInvalidSignerMessage  = &SignerError{"invalid input: invalid message"}
)

// NewSignedTransaction signs m with exactly its required signers, given in any order.
func NewSignedTransaction(m *Message, signers ...Keypair) (*Transaction, error) {
	tx := &Transaction{Message: *m}
	if err := tx.Sign(signers...); err != nil {
		return nil, err
	}
	return tx, nil
}

// Sign replaces the signatures with those of signers over the current message. The signers
// must be exactly the message's required signers, in any order.
func (tx *Transaction) Sign(signers ...Keypair) error {
	m := &tx.Message
	required := int(m.Header.NumRequiredSignatures)
	if len(m.AccountKeys) < required {
		return ErrInvalidSignerMessage
	}
	switch {
	case len(signers) > required:
		return ErrTooManySigners
	case len(signers) < required:
		return ErrNotEnoughSigners
	}
	order := make([]int, required)
	for i := 0; i < required; i++ {
		order[i] = -1
		for j := range signers {
			if signers[j].PublicKey() == m.AccountKeys[i] {
				order[i] = j
				break
			}
		}
		if order[i] < 0 {
			return ErrKeypairPubkeyMismatch
		}
	}
	msg := m.Serialize()
	sigs := make([]Signature, required)
	for i, j := range order {
		sigs[i] = signers[j].Sign(msg)
	}
	tx.Signatures = sigs
	return nil
}

// PartialSign sets the signatures of the given signers, leaving the others as they are (zero
// when unset). Signers that are not required signers of the message are an error.
func (tx *Transaction) PartialSign(signers ...Keypair) error {
	m := &tx.Message
	required := int(m.Header.NumRequiredSignatures)
	if len(m.AccountKeys) < required {
		return ErrInvalidSignerMessage
	}
	if len(tx.Signatures) != required {
		sigs := make([]Signature, required)
		copy(sigs, tx.Signatures)
		tx.Signatures = sigs
	}
	msg := m.Serialize()
	for _, k := range signers {
		pk := k.PublicKey()
		found := false
		for i := 0; i < required; i++ {
			if m.AccountKeys[i] == pk {
				tx.Signatures[i] = k.Sign(msg)
				found = true
			}
		}
		if !found {
			return ErrKeypairPubkeyMismatch
		}
	}
	return nil
}

var messageBufPool = sync.Pool{New: func() any { b := make([]byte, 0, PacketDataSize); return &b }}

// VerifySignatures reports whether tx carries exactly one valid signature per required signer,
// each by the key at the same index (the reference's sigverify; strict Ed25519).
func (tx *Transaction) VerifySignatures() bool {
	bufp := messageBufPool.Get().(*[]byte)
	ok := tx.verifyWith(bufp)
	messageBufPool.Put(bufp)
	return ok
}

// VerifyWithResults reports, per required signer, whether its signature is present and valid.
func (tx *Transaction) VerifyWithResults() []bool {
	msg := tx.Message.Serialize()
	required := int(tx.Message.Header.NumRequiredSignatures)
	out := make([]bool, required)
	for i := range out {
		out[i] = i < len(tx.Signatures) && i < len(tx.Message.AccountKeys) &&
			VerifyStrict(tx.Message.AccountKeys[i], msg, tx.Signatures[i])
	}
	return out
}

func (tx *Transaction) verifyWith(bufp *[]byte) bool {
	m := &tx.Message
	required := int(m.Header.NumRequiredSignatures)
	if len(tx.Signatures) != required || required > len(m.AccountKeys) {
		return false
	}
	msg := m.AppendTo((*bufp)[:0])
	*bufp = msg
	for i := range tx.Signatures {
		if !VerifyStrict(m.AccountKeys[i], msg, tx.Signatures[i]) {
			return false
		}
	}
	return true
}

// VerifyBatch verifies the signatures of every transaction, spreading the work over
// runtime.NumCPU() goroutines, and reports per transaction what VerifySignatures would.
// A nil transaction is reported invalid.
func VerifyBatch(txs []*Transaction) []bool {
	out := make([]bool, len(txs))
	workers := min(runtime.NumCPU(), len(txs))
	if workers <= 1 {
		bufp := messageBufPool.Get().(*[]byte)
		for i, tx := range txs {
			out[i] = tx != nil && tx.verifyWith(bufp)
		}
		messageBufPool.Put(bufp)
		return out
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for range workers {
		go func() {
			defer wg.Done()
			bufp := messageBufPool.Get().(*[]byte)
			defer messageBufPool.Put(bufp)
			for {
				i := int(next.Add(1) - 1)
				if i >= len(txs) {
					return
				}
				if tx := txs[i]; tx != nil {
					out[i] = tx.verifyWith(bufp)
				}
			}
		}()
	}
	wg.Wait()
	return out
}
