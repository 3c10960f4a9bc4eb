package parse

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/programs/system"
	"ledgerd/impl/runtime"
)

var allEncodings = []rpcapi.TransactionEncoding{
	rpcapi.TransactionEncodingJson, rpcapi.TransactionEncodingJsonParsed,
	rpcapi.TransactionEncodingBase58, rpcapi.TransactionEncodingBase64,
}

// FuzzEncodeTransaction decodes arbitrary bytes as a transaction and, when they decode, encodes
// it in every encoding and form: nothing may panic, and whatever encodes must marshal. Its
// instructions are also replayed as inner instructions, so the parsers see arbitrary data at
// every place they run.
func FuzzEncodeTransaction(f *testing.F) {
	raw, _ := base64.StdEncoding.DecodeString(schemaTransfer)
	f.Add(raw)
	v0, _ := v0Fixture(f)
	f.Add(v0.Tx.Serialize())
	payer := keypair(1)
	for _, ixs := range [][]core.Instruction{
		{system.CreateAccountWithSeed(payer.PublicKey(), key(2), payer.PublicKey(), "seed", 1, 2, key(3))},
		{system.WithdrawNonceAccount(key(2), payer.PublicKey(), key(3), 5), system.AdvanceNonceAccount(key(2), payer.PublicKey())},
		{{ProgramID: core.MemoProgramID, Data: []byte("memo")}, {ProgramID: core.MemoV1ProgramID, Data: []byte{0xff}}},
	} {
		tx, err := core.NewTransaction(payer.PublicKey(), ixs, core.Hash{}, payer)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(tx.Serialize())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tx, err := core.DecodeTransaction(b)
		if err != nil {
			return
		}
		m := &tx.Message
		w, r := m.NumLookupAddresses()
		loaded := &core.LoadedAddresses{}
		for i := range w + r {
			k := key(byte(i))
			k[1] = 0xfe // distinct from the keys of the seeds
			if i < w {
				loaded.Writable = append(loaded.Writable, k)
			} else {
				loaded.Readonly = append(loaded.Readonly, k)
			}
		}
		inner := make([]runtime.InnerInstruction, len(m.Instructions))
		for i, ix := range m.Instructions {
			inner[i] = runtime.InnerInstruction{ProgramIDIndex: ix.ProgramIDIndex, Accounts: ix.Accounts, Data: ix.Data, StackHeight: uint8(i % 6)}
		}
		meta := &Meta{
			Err:               runtime.InstructionErrorAt(0, runtime.CustomError(7)),
			InnerInstructions: []runtime.InnerInstructions{{Index: 0, Instructions: inner}},
			ReturnData:        &runtime.ReturnData{Data: b[:min(len(b), 8)]},
		}
		twm := TxWithMeta{Tx: tx, Loaded: loaded, Meta: meta}
		for _, enc := range allEncodings {
			for _, withVersion := range []bool{false, true} {
				out, err := EncodeTransaction(twm, enc, withVersion, withVersion)
				if err != nil {
					if enc != rpcapi.TransactionEncodingJsonParsed {
						t.Fatalf("%s: %v", enc, err)
					}
					continue
				}
				if _, err := json.Marshal(out); err != nil {
					t.Fatalf("%s: marshal: %v", enc, err)
				}
			}
		}
		if _, err := json.Marshal(EncodeAccounts(twm, true, true)); err != nil {
			t.Fatalf("accounts: marshal: %v", err)
		}
		_ = ExtractMemo(tx, loaded)
		_ = ExtractMemo(tx, nil)
		_ = CheckVersion(tx, nil)
		_ = FirstSignature(tx)
	})
}

// FuzzParseInstruction runs the registered parsers on arbitrary data and account lists.
func FuzzParseInstruction(f *testing.F) {
	from, to := key(1), key(2)
	for _, ix := range []core.Instruction{
		system.Transfer(from, to, 1),
		system.CreateAccountWithSeed(from, to, from, "seed", 1, 2, to),
		system.TransferWithSeed(from, to, "s", to, from, 3),
		system.CreateAccountAllowPrefund(to, from, 1, 2, to),
		system.AuthorizeNonceAccount(from, to, from),
	} {
		f.Add(uint8(0), []byte{1, 2, 3, 4, 5}, ix.Data)
	}
	f.Add(uint8(1), []byte{1}, []byte("memo"))
	f.Add(uint8(2), []byte{}, []byte{0xc3, 0x28})
	keys := []core.Pubkey{core.SystemProgramID, core.MemoV1ProgramID, core.MemoProgramID, from, to, key(3)}
	f.Fuzz(func(t *testing.T, program uint8, accounts, data []byte) {
		ui, err := ParseInstruction(program%3, accounts, data, keys, nil)
		if err != nil {
			for _, a := range accounts {
				if int(a) >= len(keys) {
					return
				}
			}
			t.Fatalf("error with accounts in range: %v", err)
		}
		if _, err := json.Marshal(ui); err != nil {
			t.Fatalf("marshal: %v", err)
		}
	})
}
