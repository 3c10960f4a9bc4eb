package core

import (
	"errors"
	"reflect"
	"testing"
)

// orderedKeys returns n keys whose byte order is their index order (like the SDK's new_unique).
func orderedKeys(n int) []Pubkey {
	out := make([]Pubkey, n)
	for i := range out {
		out[i][0] = byte(i + 1)
		out[i][31] = 0xaa
	}
	return out
}

func TestCompileLegacyKitchenSink(t *testing.T) {
	t.Parallel()
	k := orderedKeys(3)
	program0, program1 := k[1], k[2]
	id0 := Pubkey{} // sorts before everything
	id1 := k[0]
	m, err := CompileLegacyMessage(id1, []Instruction{
		{ProgramID: program0, Accounts: []AccountMeta{Writable(id0)}},
		{ProgramID: program1, Accounts: []AccountMeta{WritableSigner(id1)}},
		{ProgramID: program0, Accounts: []AccountMeta{Writable(id1)}},
	}, Hash{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.AccountKeys, []Pubkey{id1, id0, program0, program1}) {
		t.Fatalf("keys = %v", m.AccountKeys)
	}
	want := []CompiledInstruction{
		{ProgramIDIndex: 2, Accounts: []uint8{1}},
		{ProgramIDIndex: 3, Accounts: []uint8{0}},
		{ProgramIDIndex: 2, Accounts: []uint8{0}},
	}
	for i := range want {
		if m.Instructions[i].ProgramIDIndex != want[i].ProgramIDIndex || !reflect.DeepEqual(m.Instructions[i].Accounts, want[i].Accounts) {
			t.Errorf("instruction %d = %+v, want %+v", i, m.Instructions[i], want[i])
		}
	}
	if m.Header != (MessageHeader{1, 0, 2}) {
		t.Errorf("header %+v", m.Header)
	}
}

func TestCompileOrdering(t *testing.T) {
	t.Parallel()
	k := orderedKeys(9)
	payer := k[8] // sorts last, but the payer always comes first
	program := k[0]
	m, err := CompileLegacyMessage(payer, []Instruction{{
		ProgramID: program,
		Accounts: []AccountMeta{
			Readonly(k[7]), Writable(k[6]), ReadonlySigner(k[5]), WritableSigner(k[4]),
			Readonly(k[3]), Writable(k[2]), ReadonlySigner(k[1]),
			// Duplicates upgrade access: k[7] becomes writable, k[3] a signer.
			Writable(k[7]), ReadonlySigner(k[3]),
		},
	}}, Hash{})
	if err != nil {
		t.Fatal(err)
	}
	wantKeys := []Pubkey{payer, k[4], k[1], k[3], k[5], k[2], k[6], k[7], program}
	if !reflect.DeepEqual(m.AccountKeys, wantKeys) {
		t.Fatalf("keys:\n got %v\nwant %v", m.AccountKeys, wantKeys)
	}
	if m.Header != (MessageHeader{5, 3, 1}) {
		t.Fatalf("header %+v", m.Header)
	}
	if err := m.Sanitize(); err != nil {
		t.Fatal(err)
	}
	if m.IsWritable(8) {
		t.Fatal("program must be read-only")
	}
}

func TestCompilePayerFirst(t *testing.T) {
	t.Parallel()
	k := orderedKeys(3)
	program, payer, id0 := k[0], k[1], k[2]
	m, _ := CompileLegacyMessage(payer, []Instruction{{ProgramID: program, Accounts: []AccountMeta{Writable(id0)}}}, Hash{})
	if m.Header.NumRequiredSignatures != 1 {
		t.Fatal("payer must sign")
	}
	m, _ = CompileLegacyMessage(payer, []Instruction{{ProgramID: program, Accounts: []AccountMeta{WritableSigner(id0)}}}, Hash{})
	if m.Header.NumRequiredSignatures != 2 || m.AccountKeys[0] != payer {
		t.Fatal("payer then signer")
	}
	m, _ = CompileLegacyMessage(payer, []Instruction{{ProgramID: program, Accounts: []AccountMeta{Readonly(payer), WritableSigner(id0)}}}, Hash{})
	if m.Header.NumRequiredSignatures != 2 || !m.IsWritable(0) {
		t.Fatal("a payer listed read-only is still a writable signer")
	}
}

// TestCompileV0 mirrors the SDK's v0 try_compile test.
func TestCompileV0(t *testing.T) {
	t.Parallel()
	keys := orderedKeys(7)
	payer, program := keys[0], keys[6]
	ixs := []Instruction{{
		ProgramID: program,
		Accounts: []AccountMeta{
			WritableSigner(keys[1]), ReadonlySigner(keys[2]), Writable(keys[3]),
			Writable(keys[4]), Readonly(keys[5]),
		},
	}}
	tables := []AddressLookupTableAccount{
		{Key: HashBytes([]byte("t0")).pubkey(), Addresses: []Pubkey{keys[4], keys[5], keys[6]}},
		{Key: HashBytes([]byte("t1")).pubkey()},
	}
	bh := HashBytes([]byte("bh"))
	m, err := CompileV0Message(payer, ixs, tables, bh)
	if err != nil {
		t.Fatal(err)
	}
	want := &Message{
		Version:         Version0,
		Header:          MessageHeader{3, 1, 1},
		AccountKeys:     []Pubkey{keys[0], keys[1], keys[2], keys[3], program},
		RecentBlockhash: bh,
		Instructions:    []CompiledInstruction{{ProgramIDIndex: 4, Accounts: []uint8{1, 2, 3, 5, 6}}},
		AddressTableLookups: []AddressTableLookup{{
			AccountKey: tables[0].Key, WritableIndexes: []uint8{0}, ReadonlyIndexes: []uint8{1},
		}},
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("compiled:\n got %+v\nwant %+v", m, want)
	}
	if err := m.Sanitize(); err != nil {
		t.Fatal(err)
	}
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	payer := seedKeypair(1).PublicKey()
	var accts []AccountMeta
	for i := range 300 {
		accts = append(accts, Readonly(HashBytes([]byte{byte(i), byte(i >> 8)}).pubkey()))
	}
	_, err := CompileLegacyMessage(payer, []Instruction{{ProgramID: SystemProgramID, Accounts: accts}}, Hash{})
	var ce *CompileError
	if !errors.As(err, &ce) || err != ErrAccountIndexOverflow {
		t.Fatalf("300 accounts: %v", err)
	}
	_, err = CompileLegacyMessage(payer, []Instruction{{ProgramID: SystemProgramID, Data: make([]byte, 70000)}}, Hash{})
	if err != ErrInstructionTooLarge {
		t.Fatalf("huge data: %v", err)
	}
	// Keys may come from a table past index 255 only as an error.
	big := AddressLookupTableAccount{Key: Pubkey{9}, Addresses: make([]Pubkey, 300)}
	target := HashBytes([]byte("far")).pubkey()
	big.Addresses[299] = target
	_, err = CompileV0Message(payer, []Instruction{{ProgramID: SystemProgramID, Accounts: []AccountMeta{Writable(target)}}}, []AddressLookupTableAccount{big}, Hash{})
	if err != ErrAddressTableLookupIndexOverflow {
		t.Fatalf("lookup overflow: %v", err)
	}
}

func TestNewTransaction(t *testing.T) {
	t.Parallel()
	payer, other := seedKeypair(1), seedKeypair(2)
	ix := Instruction{ProgramID: MemoProgramID, Accounts: []AccountMeta{ReadonlySigner(other.PublicKey())}, Data: []byte("memo")}
	tx, err := NewTransaction(payer.PublicKey(), []Instruction{ix}, Hash{3}, other, payer)
	if err != nil {
		t.Fatal(err)
	}
	if !tx.VerifySignatures() || tx.Sanitize() != nil {
		t.Fatal("built transaction invalid")
	}
	if _, err := NewTransaction(payer.PublicKey(), []Instruction{ix}, Hash{3}, payer); err != ErrNotEnoughSigners {
		t.Fatalf("missing signer: %v", err)
	}
}
