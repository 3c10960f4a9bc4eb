package core

import (
	"bytes"
	"encoding/base64"
	"errors"
	"reflect"
	"testing"
)

// Vectors derived independently with a from-scratch Python encoder and the `cryptography`
// package's Ed25519 (testdata/vectors.py): a legacy transfer of 1,000,000 lamports from
// the keypair of seed 1..32 to E645TckHQnDcavVv92Etc6xSWQaq8zzPtPRGBheviRAk, with blockhash
// SHA-256("blockhash").
const (
	transferPubkey  = "9C6hybhQ6Aycep9jaUnP6uL9ZYvDjUp1aSkFWPUFJtpj"
	transferTo      = "E645TckHQnDcavVv92Etc6xSWQaq8zzPtPRGBheviRAk"
	transferTxB64   = "AbeSlS3iuRRFzY+5cKD2ECMlrU3mCVTFd6UHC4gf6tQq6CxZbhV5jV08z5ktZGPR4V37+ozPCzF933E3y01lMAMBAAEDebVWLo/mVPlAeLES6KmLp5AfhTrmlb7X4OORC60ElmTCc1Ao7peFzHEC2mN/HAZblMSR8fphynz4/+MAHJ40bQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAOVv3J/mqxegJEVkQc/z5yCb0KIBBMcoIm+ujhpQhdJoBAgIAAQwCAAAAQEIPAAAAAAA="
	transferMsgB64  = "AQABA3m1Vi6P5lT5QHixEuipi6eQH4U65pW+1+DjkQutBJZkwnNQKO6XhcxxAtpjfxwGW5TEkfH6Ycp8+P/jAByeNG0AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADlb9yf5qsXoCRFZEHP8+cgm9CiAQTHKCJvro4aUIXSaAQICAAEMAgAAAEBCDwAAAAAA"
	transferSig     = "4fsZrArpDZYxPXXPtEPBxNjxSfEZwtjrcRUc8VUQ1Xmt4tmpkGYww8zdqkH8TFWk95Xrwn9wyTSUgTjyeHV7eRx6"
	transferLamport = 1_000_000
)

func seedKeypair(b byte) Keypair {
	var seed [32]byte
	for i := range seed {
		seed[i] = b + byte(i)
	}
	return KeypairFromSeed(seed)
}

func mustB64(t testing.TB, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestTransferVector(t *testing.T) {
	t.Parallel()
	kp := seedKeypair(1)
	if kp.PublicKey().String() != transferPubkey {
		t.Fatalf("pubkey = %s, want %s", kp.PublicKey(), transferPubkey)
	}
	tx := NewTransferTx(kp, MustParsePubkey(transferTo), transferLamport, HashBytes([]byte("blockhash")))
	if got := base64.StdEncoding.EncodeToString(tx.Serialize()); got != transferTxB64 {
		t.Fatalf("serialized transfer:\n got %s\nwant %s", got, transferTxB64)
	}
	if got := base64.StdEncoding.EncodeToString(tx.Message.Serialize()); got != transferMsgB64 {
		t.Fatalf("message bytes:\n got %s\nwant %s", got, transferMsgB64)
	}
	if tx.Signature().String() != transferSig {
		t.Fatalf("signature = %s", tx.Signature())
	}
	if tx.Size() != len(mustB64(t, transferTxB64)) || tx.Message.Size() != len(mustB64(t, transferMsgB64)) {
		t.Fatal("Size disagrees with Serialize")
	}

	dec, err := DecodeTransaction(mustB64(t, transferTxB64))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(dec, tx) {
		t.Fatalf("decoded transaction differs:\n got %+v\nwant %+v", dec, tx)
	}
	if err := dec.Sanitize(); err != nil {
		t.Fatal(err)
	}
	if !dec.VerifySignatures() {
		t.Fatal("signature does not verify")
	}
	m := &dec.Message
	if m.Version != VersionLegacy || m.Header != (MessageHeader{1, 0, 1}) {
		t.Fatalf("header = %+v", m.Header)
	}
	wantWritable := []bool{true, true, false}
	for i, w := range wantWritable {
		if m.IsWritable(i) != w || m.IsSigner(i) != (i == 0) {
			t.Errorf("account %d: writable %v signer %v", i, m.IsWritable(i), m.IsSigner(i))
		}
	}
}

func TestDecodeDoesNotAliasInput(t *testing.T) {
	t.Parallel()
	raw := mustB64(t, transferTxB64)
	tx, err := DecodeTransaction(raw)
	if err != nil {
		t.Fatal(err)
	}
	want := tx.Serialize()
	for i := range raw {
		raw[i] = 0xee
	}
	if !bytes.Equal(tx.Serialize(), want) {
		t.Fatal("decoded transaction changed when the input buffer was overwritten")
	}
	// Appending to a decoded slice must not clobber its neighbours.
	tx.Message.Instructions[0].Accounts = append(tx.Message.Instructions[0].Accounts, 9)
	if !bytes.Equal(tx.Message.Instructions[0].Data, mustB64(t, transferMsgB64)[len(mustB64(t, transferMsgB64))-12:]) {
		t.Fatal("append to Accounts overwrote Data")
	}
}

func TestDecodeTrailingBytes(t *testing.T) {
	t.Parallel()
	raw := append(mustB64(t, transferTxB64), 1, 2, 3)
	tx, n, err := DecodeTransactionPrefix(raw)
	if err != nil || n != len(raw)-3 {
		t.Fatalf("prefix decode: n=%d err=%v", n, err)
	}
	if _, err := DecodeTransaction(raw); err != nil {
		t.Fatalf("RPC decoding allows trailing bytes: %v", err)
	}
	var strict Transaction
	if err := strict.UnmarshalBinary(raw); err != ErrTrailingBytes {
		t.Fatalf("UnmarshalBinary = %v, want trailing-bytes error", err)
	}
	if err := strict.UnmarshalBinary(raw[:n]); err != nil || !reflect.DeepEqual(&strict, tx) {
		t.Fatalf("UnmarshalBinary exact: %v", err)
	}
	var m Message
	if err := m.UnmarshalBinary(append(mustB64(t, transferMsgB64), 0)); err != ErrTrailingBytes {
		t.Fatalf("Message.UnmarshalBinary = %v", err)
	}
	if _, err := DecodeMessage(append(mustB64(t, transferMsgB64), 0)); err != nil {
		t.Fatal(err)
	}
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	const eof = "io error: failed to fill whole buffer"
	good := mustB64(t, transferTxB64)
	sig := make([]byte, 64)
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, eof},
		{"signature count alias", []byte{0x80, 0x00}, "invalid value: alias encoding, expected strict form encoding"},
		{"signature count overflow", []byte{0x80, 0x80, 0x04}, "invalid value: integer `65536`, expected a value in the range [0, 65535]"},
		{"missing signatures", []byte{0x02, 1, 2, 3}, eof},
		{"many signatures, no data", []byte{0xff, 0xff, 0x03}, eof},
		{"no message", append([]byte{1}, sig...), eof},
		{"version 1", append(append([]byte{1}, sig...), 0x81), "invalid value: integer `1`, expected a valid transaction message version"},
		{"version 126", append(append([]byte{1}, sig...), 0xfe, 1, 0, 0), "invalid value: integer `126`, expected a valid transaction message version"},
		{"off-chain prefix", append(append([]byte{1}, sig...), 0xff), "off-chain messages are not accepted"},
		{"v0 without header", append(append([]byte{1}, sig...), 0x80), eof},
		{"truncated", good[:len(good)-1], eof},
		{"truncated in keys", good[:70], eof},
		{"alias key count", append(append([]byte{1}, sig...), 1, 0, 0, 0x81, 0x00), "invalid value: alias encoding, expected strict form encoding"},
		{"v0 missing lookups", append(append(append([]byte{1}, sig...), 0x80, 1, 0, 0, 0), append(make([]byte, 32), 0)...), eof},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeTransaction(tt.in)
			var de *DecodeError
			if !errors.As(err, &de) || err.Error() != tt.want {
				t.Fatalf("error = %v, want %q", err, tt.want)
			}
		})
	}
}

// v0Fixture builds a v0 transaction with one lookup table, signed by two keypairs.
func v0Fixture(t testing.TB) (*Transaction, []Keypair, AddressLookupTableAccount) {
	payer, other := seedKeypair(1), seedKeypair(50)
	keys := make([]Pubkey, 6)
	for i := range keys {
		keys[i] = HashBytes([]byte{byte(i)}).pubkey()
	}
	program := keys[5]
	table := AddressLookupTableAccount{Key: keys[0], Addresses: []Pubkey{keys[3], keys[4], program}}
	ixs := []Instruction{{
		ProgramID: program,
		Accounts: []AccountMeta{
			WritableSigner(payer.PublicKey()), ReadonlySigner(other.PublicKey()),
			Writable(keys[1]), Writable(keys[3]), Readonly(keys[4]), Readonly(keys[2]),
		},
		Data: []byte("hello"),
	}}
	m, err := CompileV0Message(payer.PublicKey(), ixs, []AddressLookupTableAccount{table, {Key: keys[1]}}, HashBytes([]byte("bh")))
	if err != nil {
		t.Fatal(err)
	}
	tx, err := NewSignedTransaction(m, other, payer)
	if err != nil {
		t.Fatal(err)
	}
	return tx, []Keypair{payer, other}, table
}

func (h Hash) pubkey() Pubkey { return Pubkey(h) }

func TestV0RoundTrip(t *testing.T) {
	t.Parallel()
	tx, kps, table := v0Fixture(t)
	m := &tx.Message
	if m.Version != Version0 || len(m.AddressTableLookups) != 1 {
		t.Fatalf("message = %+v", m)
	}
	if l := m.AddressTableLookups[0]; l.AccountKey != table.Key || !bytes.Equal(l.WritableIndexes, []byte{0}) || !bytes.Equal(l.ReadonlyIndexes, []byte{1}) {
		t.Fatalf("lookup = %+v", l)
	}
	raw := tx.Serialize()
	if raw[1+64*2] != 0x80 {
		t.Fatalf("v0 prefix missing: %x", raw[1+128])
	}
	dec, err := DecodeTransaction(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(dec, tx) {
		t.Fatalf("round trip differs:\n got %+v\nwant %+v", dec, tx)
	}
	if err := dec.Sanitize(); err != nil || !dec.VerifySignatures() {
		t.Fatalf("sanitize %v / verify %v", err, dec.VerifySignatures())
	}
	if dec.Message.Header != (MessageHeader{2, 1, 2}) {
		t.Fatalf("header = %+v", dec.Message.Header)
	}
	if dec.Message.AccountKeys[0] != kps[0].PublicKey() || dec.Message.AccountKeys[1] != kps[1].PublicKey() {
		t.Fatal("signers out of order")
	}
	w, r := dec.Message.NumLookupAddresses()
	if w != 1 || r != 1 {
		t.Fatalf("lookup addresses = %d, %d", w, r)
	}
}

func TestSanitizeLegacy(t *testing.T) {
	t.Parallel()
	k := func(n int) []Pubkey { return make([]Pubkey, n) }
	tests := []struct {
		name string
		m    Message
		want error
	}{
		{"ok", Message{Header: MessageHeader{1, 0, 0}, AccountKeys: k(1)}, nil},
		{"ok with instruction", Message{Header: MessageHeader{1, 0, 1}, AccountKeys: k(2), Instructions: []CompiledInstruction{{ProgramIDIndex: 1, Accounts: []uint8{0, 1}}}}, nil},
		{"no signer", Message{AccountKeys: k(1)}, SanitizeIndexOutOfBounds},
		{"no writable signer", Message{Header: MessageHeader{1, 1, 0}, AccountKeys: k(1)}, SanitizeIndexOutOfBounds},
		{"overlap", Message{Header: MessageHeader{1, 0, 1}, AccountKeys: k(1)}, SanitizeIndexOutOfBounds},
		{"program out of range", Message{Header: MessageHeader{1, 0, 0}, AccountKeys: k(1), Instructions: []CompiledInstruction{{ProgramIDIndex: 1}}}, SanitizeIndexOutOfBounds},
		{"payer as program", Message{Header: MessageHeader{1, 0, 0}, AccountKeys: k(2), Instructions: []CompiledInstruction{{ProgramIDIndex: 0}}}, SanitizeIndexOutOfBounds},
		{"account out of range", Message{Header: MessageHeader{1, 0, 0}, AccountKeys: k(2), Instructions: []CompiledInstruction{{ProgramIDIndex: 1, Accounts: []uint8{2}}}}, SanitizeIndexOutOfBounds},
	}
	for _, tt := range tests {
		if err := tt.m.Sanitize(); err != tt.want {
			t.Errorf("%s: Sanitize() = %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestSanitizeV0(t *testing.T) {
	t.Parallel()
	k := func(n int) []Pubkey { return make([]Pubkey, n) }
	seq := func(from, to, step int) []uint8 {
		var out []uint8
		for i := from; i <= to; i += step {
			out = append(out, uint8(i))
		}
		return out
	}
	lookup := func(w, r []uint8) []AddressTableLookup {
		return []AddressTableLookup{{WritableIndexes: w, ReadonlyIndexes: r}}
	}
	one := MessageHeader{1, 0, 0}
	tests := []struct {
		name string
		m    Message
		want error
	}{
		{"ok", Message{Header: one, AccountKeys: k(1)}, nil},
		{"ok with instruction", Message{Header: one, AccountKeys: k(2), Instructions: []CompiledInstruction{{ProgramIDIndex: 1, Accounts: []uint8{0}}}}, nil},
		{"ok with lookup", Message{Header: one, AccountKeys: k(1), AddressTableLookups: lookup([]uint8{1, 2, 3}, []uint8{0})}, nil},
		{"dynamic program id", Message{Header: one, AccountKeys: k(1), AddressTableLookups: lookup([]uint8{1, 2, 3}, []uint8{0}), Instructions: []CompiledInstruction{{ProgramIDIndex: 4, Accounts: []uint8{0, 1, 2, 3}}}}, SanitizeIndexOutOfBounds},
		{"static program, dynamic accounts", Message{Header: one, AccountKeys: k(2), AddressTableLookups: lookup([]uint8{1, 2, 3}, []uint8{0}), Instructions: []CompiledInstruction{{ProgramIDIndex: 1, Accounts: []uint8{2, 3, 4, 5}}}}, nil},
		{"no signer", Message{AccountKeys: k(1)}, SanitizeInvalidValue},
		{"no writable signer", Message{Header: MessageHeader{1, 1, 0}, AccountKeys: k(1)}, SanitizeInvalidValue},
		{"overlap", Message{Header: MessageHeader{1, 0, 1}, AccountKeys: k(1)}, SanitizeIndexOutOfBounds},
		{"empty lookup", Message{Header: one, AccountKeys: k(1), AddressTableLookups: lookup(nil, nil)}, SanitizeInvalidValue},
		{"256 static keys", Message{Header: one, AccountKeys: k(256)}, nil},
		{"257 static keys", Message{Header: one, AccountKeys: k(257)}, SanitizeIndexOutOfBounds},
		{"255 loaded keys", Message{Header: one, AccountKeys: k(1), AddressTableLookups: lookup(seq(0, 254, 2), seq(1, 254, 2))}, nil},
		{"256 loaded keys", Message{Header: one, AccountKeys: k(1), AddressTableLookups: lookup(seq(0, 255, 2), seq(1, 255, 2))}, SanitizeIndexOutOfBounds},
		{"program beyond statics", Message{Header: one, AccountKeys: k(1), AddressTableLookups: lookup([]uint8{0}, nil), Instructions: []CompiledInstruction{{ProgramIDIndex: 2}}}, SanitizeIndexOutOfBounds},
		{"account beyond all", Message{Header: one, AccountKeys: k(2), AddressTableLookups: lookup(nil, []uint8{0}), Instructions: []CompiledInstruction{{ProgramIDIndex: 1, Accounts: []uint8{3}}}}, SanitizeIndexOutOfBounds},
		{"payer as program", Message{Header: one, AccountKeys: k(2), Instructions: []CompiledInstruction{{ProgramIDIndex: 0}}}, SanitizeIndexOutOfBounds},
	}
	for _, tt := range tests {
		tt.m.Version = Version0
		if err := tt.m.Sanitize(); err != tt.want {
			t.Errorf("%s: Sanitize() = %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestTransactionSanitize(t *testing.T) {
	t.Parallel()
	tx := NewTransferTx(seedKeypair(1), MustParsePubkey(transferTo), 1, Hash{})
	if err := tx.Sanitize(); err != nil {
		t.Fatal(err)
	}
	check := func(name string, tx *Transaction, cause SanitizeError) {
		t.Helper()
		err := tx.Sanitize()
		if !errors.Is(err, ErrSanitizeFailure) || !errors.Is(err, cause) {
			t.Errorf("%s: %v, want sanitize failure caused by %v", name, err, cause)
		}
		if err != nil && err.Error() != "Transaction failed to sanitize accounts offsets correctly" {
			t.Errorf("%s: text %q", name, err)
		}
	}
	few := *tx
	few.Signatures = nil
	check("too few signatures", &few, SanitizeIndexOutOfBounds)
	many := *tx
	many.Signatures = append(append([]Signature{}, tx.Signatures...), Signature{})
	check("too many signatures", &many, SanitizeInvalidValue)
	bad := *tx
	bad.Message.Instructions = []CompiledInstruction{{ProgramIDIndex: 9}}
	check("bad message", &bad, SanitizeIndexOutOfBounds)
	if SanitizeValueOutOfBounds.Error() != "value out of bounds" || SanitizeInvalidValue.Error() != "invalid value" || SanitizeIndexOutOfBounds.Error() != "index out of bounds" {
		t.Error("SanitizeError texts")
	}
}

func TestIsWritable(t *testing.T) {
	t.Parallel()
	keys := make([]Pubkey, 6)
	for i := range keys {
		keys[i] = HashBytes([]byte{'k', byte(i)}).pubkey()
	}
	legacy := Message{Header: MessageHeader{3, 2, 1}, AccountKeys: keys}
	// Requested access by position: signers 0 (writable) 1-2 (read-only), unsigned 3-4
	// (writable) 5 (read-only).
	for i, want := range []bool{true, false, false, true, true, false, false} {
		if got := legacy.IsWritable(i); got != want {
			t.Errorf("legacy IsWritable(%d) = %v, want %v", i, got, want)
		}
	}
	// A reserved key is demoted.
	reserved := legacy
	reserved.AccountKeys = append([]Pubkey{}, keys...)
	reserved.AccountKeys[3] = SysvarClockID
	if reserved.IsWritable(3) || !reserved.IsWritableIndex(3) {
		t.Error("reserved key must be demoted")
	}
	// An invoked program is demoted unless the upgradeable loader is present.
	invoked := legacy
	invoked.Instructions = []CompiledInstruction{{ProgramIDIndex: 4}}
	if invoked.IsWritable(4) || !invoked.IsKeyCalledAsProgram(4) {
		t.Error("invoked program must be demoted")
	}
	withLoader := invoked
	withLoader.AccountKeys = append(append([]Pubkey{}, keys...), BPFLoaderUpgradeableProgramID)
	if !withLoader.IsWritable(4) {
		t.Error("invoked program stays writable when the upgradeable loader is present")
	}

	v0 := Message{Version: Version0, Header: MessageHeader{3, 2, 1}, AccountKeys: keys,
		AddressTableLookups: []AddressTableLookup{{WritableIndexes: []uint8{0}, ReadonlyIndexes: []uint8{1}}}}
	for i, want := range []bool{true, false, false, true, true, false, true, false, false} {
		if got := v0.IsWritable(i); got != want {
			t.Errorf("v0 IsWritable(%d) = %v, want %v", i, got, want)
		}
	}
	loaded := &LoadedAddresses{Writable: []Pubkey{SysvarRentID}, Readonly: []Pubkey{keys[0]}}
	if v0.IsWritableLoaded(6, loaded) {
		t.Error("a reserved key loaded as writable must be demoted")
	}
	loaded.Writable[0] = HashBytes([]byte("x")).pubkey()
	if !v0.IsWritableLoaded(6, loaded) || v0.IsWritableLoaded(7, loaded) || v0.IsWritableLoaded(8, loaded) {
		t.Error("loaded writability")
	}
	if got := v0.FullAccountKeys(loaded); len(got) != 8 || got[6] != loaded.Writable[0] || got[7] != keys[0] {
		t.Errorf("FullAccountKeys = %v", got)
	}
	// Saturating header arithmetic: nonsense headers never make anything writable wrongly.
	odd := Message{Header: MessageHeader{1, 2, 0}, AccountKeys: keys[:1]}
	if odd.IsWritableIndex(0) {
		t.Error("readonly signed > required must not be writable")
	}
	odd = Message{Header: MessageHeader{0, 0, 2}, AccountKeys: keys[:1]}
	if odd.IsWritableIndex(0) {
		t.Error("readonly unsigned > keys must not be writable")
	}
}

func TestAccountLocks(t *testing.T) {
	t.Parallel()
	a, b := HashBytes([]byte("a")).pubkey(), HashBytes([]byte("b")).pubkey()
	if err := ValidateAccountLocks([]Pubkey{a, b}, MaxTxAccountLocks); err != nil {
		t.Fatal(err)
	}
	if err := ValidateAccountLocks([]Pubkey{a, b, a}, MaxTxAccountLocks); err != ErrAccountLoadedTwice || err.Error() != "Account loaded twice" {
		t.Fatalf("dup: %v", err)
	}
	if err := ValidateAccountLocks([]Pubkey{a, b, a}, 2); err != ErrTooManyAccountLocks {
		t.Fatalf("limit: %v", err)
	}
	many := make([]Pubkey, 100)
	for i := range many {
		many[i] = HashBytes([]byte{byte(i)}).pubkey()
	}
	if HasDuplicateKeys(many) {
		t.Fatal("false duplicate")
	}
	many[99] = many[3]
	if !HasDuplicateKeys(many) {
		t.Fatal("missed duplicate")
	}
}

func TestVerify(t *testing.T) {
	t.Parallel()
	good := NewTransferTx(seedKeypair(1), MustParsePubkey(transferTo), 5, Hash{1})
	tampered := NewTransferTx(seedKeypair(1), MustParsePubkey(transferTo), 5, Hash{1})
	tampered.Message.Instructions[0].Data[4] ^= 1
	badSig := NewTransferTx(seedKeypair(1), MustParsePubkey(transferTo), 5, Hash{1})
	badSig.Signatures[0][63] ^= 0x10
	missing := NewTransferTx(seedKeypair(1), MustParsePubkey(transferTo), 5, Hash{1})
	missing.Signatures = nil
	v0, _, _ := v0Fixture(t)
	v0bad, _, _ := v0Fixture(t)
	v0bad.Signatures[1] = v0bad.Signatures[0]

	txs := []*Transaction{good, tampered, badSig, missing, v0, v0bad, nil}
	want := []bool{true, false, false, false, true, false, false}
	for i, tx := range txs {
		if tx != nil && tx.VerifySignatures() != want[i] {
			t.Errorf("tx %d: VerifySignatures = %v", i, !want[i])
		}
	}
	// Enough transactions to exercise every worker.
	var batch []*Transaction
	var batchWant []bool
	for range 20 {
		batch = append(batch, txs...)
		batchWant = append(batchWant, want...)
	}
	if got := VerifyBatch(batch); !reflect.DeepEqual(got, batchWant) {
		t.Fatalf("VerifyBatch = %v", got)
	}
	if got := VerifyBatch(txs[:1]); !reflect.DeepEqual(got, want[:1]) {
		t.Fatalf("VerifyBatch single = %v", got)
	}
	if got := v0bad.VerifyWithResults(); !reflect.DeepEqual(got, []bool{true, false}) {
		t.Fatalf("VerifyWithResults = %v", got)
	}
}

func TestSignErrors(t *testing.T) {
	t.Parallel()
	tx, kps, _ := v0Fixture(t)
	stranger := seedKeypair(99)
	for _, tt := range []struct {
		signers []Keypair
		want    error
	}{
		{kps[:1], ErrNotEnoughSigners},
		{append(kps, stranger), ErrTooManySigners},
		{[]Keypair{kps[0], stranger}, ErrKeypairPubkeyMismatch},
	} {
		if err := tx.Sign(tt.signers...); err != tt.want {
			t.Errorf("Sign = %v, want %v", err, tt.want)
		}
	}
	partial := &Transaction{Message: tx.Message}
	if err := partial.PartialSign(kps[1]); err != nil {
		t.Fatal(err)
	}
	if !partial.Signatures[0].IsZero() || partial.Signatures[1].IsZero() || partial.VerifySignatures() {
		t.Fatal("partial signing state")
	}
	if err := partial.PartialSign(kps[0]); err != nil || !partial.VerifySignatures() {
		t.Fatalf("completed partial signing: %v", err)
	}
	if err := partial.PartialSign(stranger); err != ErrKeypairPubkeyMismatch {
		t.Fatalf("stranger: %v", err)
	}
}

func TestDurableNonceDetection(t *testing.T) {
	t.Parallel()
	nonce, auth := HashBytes([]byte("nonce")).pubkey(), seedKeypair(3)
	advance := Instruction{ProgramID: SystemProgramID, Accounts: []AccountMeta{Writable(nonce), Readonly(SysvarRecentBlockhashesID), ReadonlySigner(auth.PublicKey())}, Data: []byte{4, 0, 0, 0}}
	m, err := CompileLegacyMessage(auth.PublicKey(), []Instruction{advance, TransferInstruction(auth.PublicKey(), nonce, 1)}, Hash{})
	if err != nil {
		t.Fatal(err)
	}
	if !m.UsesDurableNonce() {
		t.Fatal("advance-nonce first instruction not detected")
	}
	m.Instructions[0].Data = []byte{2, 0, 0, 0}
	if m.UsesDurableNonce() {
		t.Fatal("transfer detected as nonce advance")
	}
}

func FuzzDecodeTransaction(f *testing.F) {
	f.Add(mustB64(f, transferTxB64))
	v0, _, _ := v0Fixture(f)
	f.Add(v0.Serialize())
	f.Add([]byte{0x80, 0x00})
	f.Add([]byte{1})
	f.Fuzz(func(t *testing.T, b []byte) {
		tx, n, err := DecodeTransactionPrefix(b)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		// Strict decoding means one encoding per value: re-serializing gives the input back.
		if out := tx.Serialize(); !bytes.Equal(out, b[:n]) {
			t.Fatalf("round trip mismatch:\n in  %x\n out %x", b[:n], out)
		}
		if tx.Size() != n {
			t.Fatalf("Size() = %d, consumed %d", tx.Size(), n)
		}
		// Nothing below may panic on arbitrary decoded input.
		_ = tx.Sanitize()
		for i := range len(tx.Message.AccountKeys) + 3 {
			tx.Message.IsWritable(i)
			tx.Message.IsSigner(i)
		}
		tx.Message.UsesDurableNonce()
		tx.Message.ProgramIDs()
		if len(b) < 300 {
			tx.VerifySignatures()
		}
	})
}

func FuzzDecodeMessage(f *testing.F) {
	f.Add(mustB64(f, transferMsgB64))
	v0, _, _ := v0Fixture(f)
	f.Add(v0.Message.Serialize())
	f.Fuzz(func(t *testing.T, b []byte) {
		m, n, err := DecodeMessagePrefix(b)
		if err != nil {
			return
		}
		if out := m.Serialize(); !bytes.Equal(out, b[:n]) {
			t.Fatalf("round trip mismatch:\n in  %x\n out %x", b[:n], out)
		}
		_ = m.Sanitize()
	})
}

func BenchmarkDecodeTransfer(b *testing.B) {
	raw := mustB64(b, transferTxB64)
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		if _, err := DecodeTransaction(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSerializeTransfer(b *testing.B) {
	tx, _ := DecodeTransaction(mustB64(b, transferTxB64))
	buf := make([]byte, 0, PacketDataSize)
	b.ReportAllocs()
	for b.Loop() {
		buf = tx.AppendTo(buf[:0])
	}
}

func BenchmarkVerifySignatures(b *testing.B) {
	tx, _ := DecodeTransaction(mustB64(b, transferTxB64))
	b.ReportAllocs()
	for b.Loop() {
		if !tx.VerifySignatures() {
			b.Fatal("invalid")
		}
	}
}

func BenchmarkVerifyBatch(b *testing.B) {
	txs := make([]*Transaction, 256)
	to := MustParsePubkey(transferTo)
	for i := range txs {
		txs[i] = NewTransferTx(seedKeypair(byte(i)), to, uint64(i), Hash{byte(i)})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i, ok := range VerifyBatch(txs) {
			if !ok {
				b.Fatalf("tx %d invalid", i)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(txs))/b.Elapsed().Seconds(), "tx/s")
}
