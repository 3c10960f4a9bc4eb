package parse

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

// schemaTransfer is the transfer of the getTransaction and getBlock examples in
// schema/methods (the wire bytes of the base64 example), with the metadata shown there.
const schemaTransfer = "AdyGB7jDyywdszSbRZ2iufQ3v0Jzkst0gHqXxjXLjn5FnbFpRJpaeNNP7/2JBq+q39BwT7AlSQiU2i29aGnX5Q8BAAEDJPH/60hUCgcQhJzjVrBQ4wU8UTykX3wCeBdE8p5pZ0TAhUo6NQ6wZ3C0jZrHQ737PSwJrVe6vg0x68f0KOdsGgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA5cs0pH6ux1C8w7BNZNDL1Wr2TxOls50VknSkp3FHxM4BAgIAAQwCAAAAQEIPAAAAAAA="

func schemaTransferTx(t testing.TB) TxWithMeta {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(schemaTransfer)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := core.DecodeTransaction(b)
	if err != nil {
		t.Fatal(err)
	}
	return TxWithMeta{Tx: tx, Meta: &Meta{
		Fee:          5000,
		PreBalances:  []uint64{1000000000, 0, 1},
		PostBalances: []uint64{998995000, 1000000, 1},
		Logs: []string{
			"Program 11111111111111111111111111111111 invoke [1]",
			"Program 11111111111111111111111111111111 success",
		},
		ComputeUnitsConsumed: 150,
	}}
}

const schemaTransferMeta = `{
	"err": null,
	"status": {"Ok": null},
	"fee": 5000,
	"preBalances": [1000000000, 0, 1],
	"postBalances": [998995000, 1000000, 1],
	"innerInstructions": [],
	"logMessages": [
		"Program 11111111111111111111111111111111 invoke [1]",
		"Program 11111111111111111111111111111111 success"
	],
	"preTokenBalances": [],
	"postTokenBalances": [],
	"rewards": $rewards,
	$loaded
	"computeUnitsConsumed": 150
}`

// TestSchemaExampleTransfer checks the legacy transfer of the schema's examples in every
// encoding against the example texts.
func TestSchemaExampleTransfer(t *testing.T) {
	t.Parallel()
	raw, _ := base64.StdEncoding.DecodeString(schemaTransfer)
	vars := map[string]string{
		"sig":     "5QinPFPQoVoAn4jUHsuKhLoEfN3B9LY4MM86UY1pvuj2fgxrSAfhVj9VDBSJBE9Loys3pHwJw6ZkYoTTA5rXYqBt",
		"payer":   "3VDhmSiDtAWBa53PacShajbw7Xit5kCYAx3kGAZ6Qn2F",
		"dest":    "DxXAJBCy4NivEFsAgTTHYDDEdAE9by4dFFkc6f4yaJUH",
		"hash":    "GU25aMdyCJAPmBMKwQ97fRMSxL1c7eWwMLfojRJxSKZF",
		"b64":     schemaTransfer,
		"b58":     base58.Encode(raw),
		"rewards": "[]",
		"loaded":  `"loadedAddresses": {"writable": [], "readonly": []},`,
	}
	parsedVars := map[string]string{"loaded": ""}
	for k, v := range vars {
		if k != "loaded" {
			parsedVars[k] = v
		}
	}
	tests := []struct {
		encoding rpcapi.TransactionEncoding
		vars     map[string]string
		tx       string
	}{
		{rpcapi.TransactionEncodingJson, vars, `{
			"signatures": ["$sig"],
			"message": {
				"header": {"numRequiredSignatures": 1, "numReadonlySignedAccounts": 0, "numReadonlyUnsignedAccounts": 1},
				"accountKeys": ["$payer", "$dest", "11111111111111111111111111111111"],
				"recentBlockhash": "$hash",
				"instructions": [{"programIdIndex": 2, "accounts": [0, 1], "data": "3Bxs4Bc3VYuGVB19", "stackHeight": null}]
			}
		}`},
		{rpcapi.TransactionEncodingJsonParsed, parsedVars, `{
			"signatures": ["$sig"],
			"message": {
				"accountKeys": [
					{"pubkey": "$payer", "writable": true, "signer": true, "source": "transaction"},
					{"pubkey": "$dest", "writable": true, "signer": false, "source": "transaction"},
					{"pubkey": "11111111111111111111111111111111", "writable": false, "signer": false, "source": "transaction"}
				],
				"recentBlockhash": "$hash",
				"instructions": [{
					"program": "system",
					"programId": "11111111111111111111111111111111",
					"parsed": {"info": {"destination": "$dest", "lamports": 1000000, "source": "$payer"}, "type": "transfer"},
					"stackHeight": null
				}]
			}
		}`},
		{rpcapi.TransactionEncodingBase64, vars, `["$b64", "base64"]`},
		{rpcapi.TransactionEncodingBase58, vars, `["$b58", "base58"]`},
	}
	for _, tt := range tests {
		t.Run(string(tt.encoding), func(t *testing.T) {
			t.Parallel()
			got, err := EncodeTransaction(schemaTransferTx(t), tt.encoding, true, true)
			if err != nil {
				t.Fatal(err)
			}
			want := `{"transaction": ` + tt.tx + `, "meta": ` + schemaTransferMeta + `, "version": "legacy"}`
			wantJSON(t, got, want, tt.vars)
		})
	}
}

// TestEncodeOptions checks the request-dependent keys: version only when asked for, rewards
// null when rewards are off, an error for an unknown encoding.
func TestEncodeOptions(t *testing.T) {
	t.Parallel()
	tx := schemaTransferTx(t)
	got, err := EncodeTransaction(tx, rpcapi.TransactionEncodingBase64, false, false)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, got, `{"transaction": ["$b64", "base64"], "meta": `+schemaTransferMeta+`}`, map[string]string{
		"b64":     schemaTransfer,
		"rewards": "null",
		"loaded":  `"loadedAddresses": {"writable": [], "readonly": []},`,
	})

	for _, enc := range []string{"binary", "JSON", ""} {
		if _, err := EncodeTransaction(tx, rpcapi.TransactionEncoding(enc), false, true); err == nil {
			t.Errorf("encoding %q: no error", enc)
		}
	}

	tx.Meta = nil
	got, err = EncodeTransaction(tx, rpcapi.TransactionEncodingBase64, false, true)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, got, `{"transaction": ["$b64", "base64"], "meta": null}`, map[string]string{"b64": schemaTransfer})
}

// TestNewTransferTxBinary checks that the binary encodings of a built transfer decode back to it.
func TestNewTransferTxBinary(t *testing.T) {
	t.Parallel()
	tx := core.NewTransferTx(keypair(1), key(2), 42, core.HashBytes([]byte("blockhash")))
	for _, enc := range []rpcapi.TransactionEncoding{rpcapi.TransactionEncodingBase58, rpcapi.TransactionEncodingBase64} {
		got, err := EncodeTransaction(TxWithMeta{Tx: tx, Meta: &Meta{}}, enc, false, true)
		if err != nil {
			t.Fatal(err)
		}
		bin := got.Transaction.Binary
		if bin == nil || bin[1] != string(enc) {
			t.Fatalf("%s: transaction = %+v", enc, got.Transaction)
		}
		var raw []byte
		if enc == rpcapi.TransactionEncodingBase58 {
			raw, err = base58.Decode(bin[0])
		} else {
			raw, err = base64.StdEncoding.DecodeString(bin[0])
		}
		if err != nil {
			t.Fatal(err)
		}
		back, err := core.DecodeTransaction(raw)
		if err != nil || back.Signature() != tx.Signature() || string(back.Serialize()) != string(tx.Serialize()) {
			t.Errorf("%s: round trip failed (%v)", enc, err)
		}
	}
}

// v0Fixture is a v0 transaction that loads a writable and a read-only key from one lookup
// table: a transfer from payer to a loaded destination, and an instruction of an unknown
// program that passes a loaded read-only account.
func v0Fixture(t testing.TB) (TxWithMeta, map[string]string) {
	t.Helper()
	payer := keypair(1)
	dest, ro, table, program := key(10), key(11), key(12), key(13)
	ixs := []core.Instruction{
		system.Transfer(payer.PublicKey(), dest, 7),
		{ProgramID: program, Accounts: []core.AccountMeta{core.Readonly(ro), core.Writable(dest)}, Data: []byte{1, 2, 3}},
	}
	hash := core.HashBytes([]byte("v0"))
	m, err := core.CompileV0Message(payer.PublicKey(), ixs,
		[]core.AddressLookupTableAccount{{Key: table, Addresses: []core.Pubkey{key(99), ro, dest}}}, hash)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := core.NewSignedTransaction(m, payer)
	if err != nil {
		t.Fatal(err)
	}
	loaded := &core.LoadedAddresses{Writable: []core.Pubkey{dest}, Readonly: []core.Pubkey{ro}}
	meta := &Meta{
		Fee:                  5000,
		PreBalances:          []uint64{100000, 1, 2, 0, 3},
		PostBalances:         []uint64{94993, 1, 2, 7, 3},
		Logs:                 []string{"log"},
		ComputeUnitsConsumed: 300,
	}
	vars := map[string]string{
		"sig":     tx.Signature().String(),
		"payer":   payer.PublicKey().String(),
		"dest":    dest.String(),
		"ro":      ro.String(),
		"table":   table.String(),
		"program": program.String(),
		"hash":    hash.String(),
	}
	return TxWithMeta{Tx: tx, Loaded: loaded, Meta: meta}, vars
}

const v0Meta = `{
	"err": null,
	"status": {"Ok": null},
	"fee": 5000,
	"preBalances": [100000, 1, 2, 0, 3],
	"postBalances": [94993, 1, 2, 7, 3],
	"innerInstructions": [],
	"logMessages": ["log"],
	"preTokenBalances": [],
	"postTokenBalances": [],
	"rewards": [],
	$loaded
	"computeUnitsConsumed": 300
}`

// TestV0WithLookups checks a v0 message: json shows addressTableLookups and the meta's
// loadedAddresses; jsonParsed shows the loaded keys with source lookupTable and no
// loadedAddresses.
func TestV0WithLookups(t *testing.T) {
	t.Parallel()
	tx, vars := v0Fixture(t)
	// Static keys: payer, 11111111111111111111111111111111, program (sorted: 0x00.. < key(13)).
	vars["loaded"] = `"loadedAddresses": {"writable": ["` + vars["dest"] + `"], "readonly": ["` + vars["ro"] + `"]},`
	got, err := EncodeTransaction(tx, rpcapi.TransactionEncodingJson, true, true)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, got, `{
		"transaction": {
			"signatures": ["$sig"],
			"message": {
				"header": {"numRequiredSignatures": 1, "numReadonlySignedAccounts": 0, "numReadonlyUnsignedAccounts": 2},
				"accountKeys": ["$payer", "11111111111111111111111111111111", "$program"],
				"recentBlockhash": "$hash",
				"instructions": [
					{"programIdIndex": 1, "accounts": [0, 3], "data": "3Bxs422ZxaDKgeiB", "stackHeight": null},
					{"programIdIndex": 2, "accounts": [4, 3], "data": "Ldp", "stackHeight": null}
				],
				"addressTableLookups": [{"accountKey": "$table", "writableIndexes": [2], "readonlyIndexes": [1]}]
			}
		},
		"meta": `+v0Meta+`,
		"version": 0
	}`, vars)

	vars["loaded"] = ""
	got, err = EncodeTransaction(tx, rpcapi.TransactionEncodingJsonParsed, true, true)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, got, `{
		"transaction": {
			"signatures": ["$sig"],
			"message": {
				"accountKeys": [
					{"pubkey": "$payer", "writable": true, "signer": true, "source": "transaction"},
					{"pubkey": "11111111111111111111111111111111", "writable": false, "signer": false, "source": "transaction"},
					{"pubkey": "$program", "writable": false, "signer": false, "source": "transaction"},
					{"pubkey": "$dest", "writable": true, "signer": false, "source": "lookupTable"},
					{"pubkey": "$ro", "writable": false, "signer": false, "source": "lookupTable"}
				],
				"recentBlockhash": "$hash",
				"instructions": [
					{
						"program": "system",
						"programId": "11111111111111111111111111111111",
						"parsed": {"info": {"destination": "$dest", "lamports": 7, "source": "$payer"}, "type": "transfer"},
						"stackHeight": null
					},
					{"programId": "$program", "accounts": ["$ro", "$dest"], "data": "Ldp", "stackHeight": null}
				],
				"addressTableLookups": [{"accountKey": "$table", "writableIndexes": [2], "readonlyIndexes": [1]}]
			}
		},
		"meta": `+v0Meta+`,
		"version": 0
	}`, vars)

	// Without its loaded addresses the parsed form cannot name the accounts.
	tx.Loaded = nil
	if _, err := EncodeTransaction(tx, rpcapi.TransactionEncodingJsonParsed, true, true); !errors.Is(err, ErrInvalidAccountIndex) {
		t.Errorf("jsonParsed without loaded addresses: err = %v", err)
	}
}

// TestV0WithoutLookups checks that a v0 message without lookups still sends an empty
// addressTableLookups list.
func TestV0WithoutLookups(t *testing.T) {
	t.Parallel()
	payer := keypair(1)
	m, err := core.CompileV0Message(payer.PublicKey(), nil, nil, core.Hash{})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := core.NewSignedTransaction(m, payer)
	if err != nil {
		t.Fatal(err)
	}
	for _, enc := range []rpcapi.TransactionEncoding{rpcapi.TransactionEncodingJson, rpcapi.TransactionEncodingJsonParsed} {
		got, err := EncodeTransaction(TxWithMeta{Tx: tx}, enc, false, true)
		if err != nil {
			t.Fatal(err)
		}
		msg := got.Transaction.Json.Message
		var lookups *[]rpcapi.UiAddressTableLookup
		if msg.Raw != nil {
			lookups = msg.Raw.AddressTableLookups
		} else {
			lookups = msg.Parsed.AddressTableLookups
		}
		if lookups == nil || len(*lookups) != 0 {
			t.Errorf("%s: addressTableLookups = %v, want []", enc, lookups)
		}
		if s := marshal(t, msg); !strings.Contains(s, `"addressTableLookups":[]`) || !strings.Contains(s, `"instructions":[]`) {
			t.Errorf("%s: %s", enc, s)
		}
	}
}

// TestFailedMeta checks err and status of a failed transaction, and the null lists of one that
// only paid its fee.
func TestFailedMeta(t *testing.T) {
	t.Parallel()
	tx := schemaTransferTx(t)
	tx.Meta = &Meta{
		Err:                          runtime.InstructionErrorAt(0, runtime.CustomError(1)),
		Fee:                          5000,
		PreBalances:                  []uint64{10, 0, 1},
		PostBalances:                 []uint64{5, 0, 1},
		LogsNotRecorded:              true,
		InnerInstructionsNotRecorded: true,
	}
	got, err := EncodeTransaction(tx, rpcapi.TransactionEncodingJsonParsed, false, true)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, got.Meta, `{
		"err": {"InstructionError": [0, {"Custom": 1}]},
		"status": {"Err": {"InstructionError": [0, {"Custom": 1}]}},
		"fee": 5000,
		"preBalances": [10, 0, 1],
		"postBalances": [5, 0, 1],
		"innerInstructions": null,
		"logMessages": null,
		"preTokenBalances": [],
		"postTokenBalances": [],
		"rewards": [],
		"computeUnitsConsumed": 0
	}`, nil)

	tx.Meta.Err = runtime.NewTransactionError(runtime.TxInsufficientFundsForFee)
	got, err = EncodeTransaction(tx, rpcapi.TransactionEncodingJson, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if s := marshal(t, got.Meta); !strings.Contains(s, `"err":"InsufficientFundsForFee","status":{"Err":"InsufficientFundsForFee"}`) {
		t.Errorf("meta = %s", s)
	}
}

// TestInnerInstructions checks inner instructions in both JSON forms: compiled with their stack
// height (json), parsed or partially decoded (jsonParsed); empty groups are left out.
func TestInnerInstructions(t *testing.T) {
	t.Parallel()
	tx := schemaTransferTx(t)
	transfer := system.Transfer(core.Pubkey{}, core.Pubkey{}, 5).Data
	tx.Meta.InnerInstructions = []runtime.InnerInstructions{
		{Index: 0, Instructions: []runtime.InnerInstruction{
			{ProgramIDIndex: 2, Accounts: []uint8{0, 1}, Data: transfer, StackHeight: 2},
			{ProgramIDIndex: 2, Accounts: []uint8{1}, Data: transfer, StackHeight: 3},
			{ProgramIDIndex: 1, Data: nil, StackHeight: 0},
		}},
		{Index: 1},
	}
	vars := map[string]string{
		"payer": "3VDhmSiDtAWBa53PacShajbw7Xit5kCYAx3kGAZ6Qn2F",
		"dest":  "DxXAJBCy4NivEFsAgTTHYDDEdAE9by4dFFkc6f4yaJUH",
	}
	got, err := EncodeTransaction(tx, rpcapi.TransactionEncodingJson, false, true)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, got.Meta.InnerInstructions, `[{"index": 0, "instructions": [
		{"programIdIndex": 2, "accounts": [0, 1], "data": "3Bxs41hAcYbghSB9", "stackHeight": 2},
		{"programIdIndex": 2, "accounts": [1], "data": "3Bxs41hAcYbghSB9", "stackHeight": 3},
		{"programIdIndex": 1, "accounts": [], "data": "", "stackHeight": null}
	]}]`, vars)

	got, err = EncodeTransaction(tx, rpcapi.TransactionEncodingJsonParsed, false, true)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, got.Meta.InnerInstructions, `[{"index": 0, "instructions": [
		{
			"program": "system",
			"programId": "11111111111111111111111111111111",
			"parsed": {"info": {"destination": "$dest", "lamports": 5, "source": "$payer"}, "type": "transfer"},
			"stackHeight": 2
		},
		{"programId": "11111111111111111111111111111111", "accounts": ["$dest"], "data": "3Bxs41hAcYbghSB9", "stackHeight": 3},
		{"programId": "$dest", "accounts": [], "data": "", "stackHeight": null}
	]}]`, vars)
}

// TestReturnData checks returnData (base64, with the program that set it) and that it is left
// out when none or empty.
func TestReturnData(t *testing.T) {
	t.Parallel()
	tx := schemaTransferTx(t)
	tx.Meta.ReturnData = &runtime.ReturnData{ProgramID: core.MemoProgramID, Data: []byte("hello")}
	for _, enc := range []rpcapi.TransactionEncoding{rpcapi.TransactionEncodingJson, rpcapi.TransactionEncodingJsonParsed} {
		got, err := EncodeTransaction(tx, enc, false, true)
		if err != nil {
			t.Fatal(err)
		}
		if s := marshal(t, got.Meta); !strings.Contains(s, `"returnData":{"programId":"MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr","data":["aGVsbG8=","base64"]},"computeUnitsConsumed":150}`) {
			t.Errorf("%s: meta = %s", enc, s)
		}
	}
	tx.Meta.ReturnData.Data = nil
	got, err := EncodeTransaction(tx, rpcapi.TransactionEncodingJson, false, true)
	if err != nil {
		t.Fatal(err)
	}
	if s := marshal(t, got.Meta); strings.Contains(s, "returnData") {
		t.Errorf("empty return data sent: %s", s)
	}
}

// TestAccountsDetail checks transactionDetails "accounts" for a legacy and a v0 transaction.
func TestAccountsDetail(t *testing.T) {
	t.Parallel()
	legacy := schemaTransferTx(t)
	wantJSON(t, EncodeAccounts(legacy, true, true), `{
		"transaction": {
			"signatures": ["5QinPFPQoVoAn4jUHsuKhLoEfN3B9LY4MM86UY1pvuj2fgxrSAfhVj9VDBSJBE9Loys3pHwJw6ZkYoTTA5rXYqBt"],
			"accountKeys": [
				{"pubkey": "3VDhmSiDtAWBa53PacShajbw7Xit5kCYAx3kGAZ6Qn2F", "writable": true, "signer": true, "source": "transaction"},
				{"pubkey": "DxXAJBCy4NivEFsAgTTHYDDEdAE9by4dFFkc6f4yaJUH", "writable": true, "signer": false, "source": "transaction"},
				{"pubkey": "11111111111111111111111111111111", "writable": false, "signer": false, "source": "transaction"}
			]
		},
		"meta": {
			"err": null,
			"status": {"Ok": null},
			"fee": 5000,
			"preBalances": [1000000000, 0, 1],
			"postBalances": [998995000, 1000000, 1],
			"preTokenBalances": [],
			"postTokenBalances": [],
			"rewards": []
		},
		"version": "legacy"
	}`, nil)

	v0, vars := v0Fixture(t)
	v0.Meta.Err = runtime.NewTransactionError(runtime.TxAccountInUse)
	wantJSON(t, EncodeAccounts(v0, false, false), `{
		"transaction": {
			"signatures": ["$sig"],
			"accountKeys": [
				{"pubkey": "$payer", "writable": true, "signer": true, "source": "transaction"},
				{"pubkey": "11111111111111111111111111111111", "writable": false, "signer": false, "source": "transaction"},
				{"pubkey": "$program", "writable": false, "signer": false, "source": "transaction"},
				{"pubkey": "$dest", "writable": true, "signer": false, "source": "lookupTable"},
				{"pubkey": "$ro", "writable": false, "signer": false, "source": "lookupTable"}
			]
		},
		"meta": {
			"err": "AccountInUse",
			"status": {"Err": "AccountInUse"},
			"fee": 5000,
			"preBalances": [100000, 1, 2, 0, 3],
			"postBalances": [94993, 1, 2, 7, 3],
			"preTokenBalances": [],
			"postTokenBalances": []
		}
	}`, vars)

	v0.Meta = nil
	wantJSON(t, EncodeAccounts(v0, true, true).Meta, `null`, nil)
}

// TestAccountKeysWritable checks the writable flag's demotions: reserved keys and invoked
// programs are read-only whatever the header says, unless the upgradeable loader is present.
func TestAccountKeysWritable(t *testing.T) {
	t.Parallel()
	payer := key(1)
	program := key(2)
	m := &core.Message{
		Header:      core.MessageHeader{NumRequiredSignatures: 1},
		AccountKeys: []core.Pubkey{payer, core.SysvarClockID, program, core.Secp256r1ProgramID},
		Instructions: []core.CompiledInstruction{
			{ProgramIDIndex: 2},
		},
	}
	flags := func(m *core.Message) []bool {
		var out []bool
		for _, k := range AccountKeys(&core.Transaction{Message: *m}, nil) {
			out = append(out, k.Writable)
		}
		return out
	}
	if got, want := flags(m), []bool{true, false, false, false}; !equalBools(got, want) {
		t.Errorf("writable = %v, want %v", got, want)
	}
	m.AccountKeys = append(m.AccountKeys, core.BPFLoaderUpgradeableProgramID)
	if got, want := flags(m), []bool{true, false, true, false, false}; !equalBools(got, want) {
		t.Errorf("with upgradeable loader: writable = %v, want %v", got, want)
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestVersions checks Version, IsLegacy, CheckVersion and FirstSignature.
func TestVersions(t *testing.T) {
	t.Parallel()
	legacy := schemaTransferTx(t).Tx
	v0, _ := v0Fixture(t)
	zero := uint8(0)
	tests := []struct {
		tx      *core.Transaction
		max     *uint8
		version string
		wantErr string
	}{
		{legacy, nil, `"legacy"`, ""},
		{legacy, &zero, `"legacy"`, ""},
		{v0.Tx, nil, `0`, "Encoding does not support transaction version 0"},
		{v0.Tx, &zero, `0`, ""},
	}
	for i, tt := range tests {
		if got := marshal(t, Version(tt.tx)); got != tt.version {
			t.Errorf("%d: Version = %s, want %s", i, got, tt.version)
		}
		if IsLegacy(tt.tx) != (tt.version == `"legacy"`) {
			t.Errorf("%d: IsLegacy wrong", i)
		}
		err := CheckVersion(tt.tx, tt.max)
		var uv *UnsupportedVersionError
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%d: CheckVersion = %v", i, err)
		case tt.wantErr != "" && (!errors.As(err, &uv) || err.Error() != tt.wantErr || uv.Version != 0):
			t.Errorf("%d: CheckVersion = %v, want %s", i, err, tt.wantErr)
		}
	}
	if got := FirstSignature(legacy); got != "5QinPFPQoVoAn4jUHsuKhLoEfN3B9LY4MM86UY1pvuj2fgxrSAfhVj9VDBSJBE9Loys3pHwJw6ZkYoTTA5rXYqBt" {
		t.Errorf("FirstSignature = %s", got)
	}
}
