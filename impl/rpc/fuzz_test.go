package rpc

import (
	"encoding/base64"
	"testing"

	"github.com/mr-tron/base58"

	"ledgerd/impl/core"
)

// FuzzDecodeWire feeds arbitrary parameter strings through the decoding sendTransaction and simulateTransaction
// do before anything else: text decoding with its size limits, the wire format, and sanitization. Every input
// must end in a transaction or an error, never a panic.
func FuzzDecodeWire(f *testing.F) {
	k := core.KeypairFromSeed([32]byte{1})
	tx := core.NewTransferTx(k, core.SystemProgramID, 5, core.Hash{9})
	wire := tx.Serialize()
	f.Add(base58.Encode(wire), "base58")
	f.Add(base64.StdEncoding.EncodeToString(wire), "base64")
	f.Add(base64.StdEncoding.EncodeToString(wire[:40]), "base64")
	f.Add("", "base58")
	f.Add("!!!", "base64")
	f.Add("AAAA", "json")
	f.Fuzz(func(t *testing.T, data, encoding string) {
		b, err := decodeWire(data, &encoding, "solana_transaction::versioned::VersionedTransaction")
		if err != nil {
			return
		}
		if len(b) > core.PacketDataSize {
			t.Fatalf("decodeWire let %d bytes through", len(b))
		}
		tx, err := core.DecodeTransaction(b)
		if err != nil {
			return
		}
		_ = tx.Message.Sanitize()
	})
}
