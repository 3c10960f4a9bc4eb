package rpc

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/programs/system"
)

// ---------------------------------------------------------------------------------------------------------------
// Test helpers of the account and chain tests (with an st prefix, apart from the other files' helpers).

// stServer starts a ledger like newTestServer's, with its own genesis options and clock.
func stServer(t *testing.T, opts ledger.GenesisOptions, now func() time.Time) (*Server, *ledger.Ledger) {
	t.Helper()
	l, err := ledger.Open(ledger.Config{Dir: t.TempDir(), SlotDuration: 10 * time.Millisecond, FinalityDepth: 2,
		Genesis: opts, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	g := l.Genesis
	return NewServer(Node{Identity: g.IdentityPubkey(), GenesisHash: g.HashString(), Ledger: l}), l
}

// stRun executes ixs paid by payer in the working bank and returns the slot; the transaction must succeed.
func stRun(t *testing.T, l *ledger.Ledger, payer core.Keypair, ixs []core.Instruction, signers ...core.Keypair) (uint64, *ledger.Executed) {
	t.Helper()
	tx, err := core.NewTransaction(payer.PublicKey(), ixs, stRecentHash(l), append([]core.Keypair{payer}, signers...)...)
	if err != nil {
		t.Fatal(err)
	}
	ex, err := l.Execute(context.Background(), tx)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Result.Err != nil {
		t.Fatalf("transaction failed: %v (logs %q)", ex.Result.Err, ex.Result.Logs)
	}
	return ex.Slot, ex
}

// stRecentHash is the newest blockhash of a completely frozen bank. The processed bank's LastBlockhash is not
// used: while a slot freezes, that bank shows its own hash before its blockhash queue holds it.
func stRecentHash(l *ledger.Ledger) core.Hash { return l.Bank(ledger.Confirmed).LastBlockhash() }

// stWaitFrozen waits until slot is frozen (confirmed, in this ledger).
func stWaitFrozen(t *testing.T, l *ledger.Ledger, slot uint64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, c, _ := l.Slots(); c >= slot {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for slot %d to freeze", slot)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// stFund returns a new keypair holding lamports (processed), sent by a transfer from the faucet. It
// stands in for funded: Ledger.Airdrop reads a bank's blockhash queue unlocked while the producer may be
// freezing that bank, which the race detector reports.
func stFund(t *testing.T, l *ledger.Ledger, lamports uint64) core.Keypair {
	t.Helper()
	k := stKeypair(t)
	stRun(t, l, l.Genesis.Faucet, []core.Instruction{system.Transfer(l.Genesis.Faucet.PublicKey(), k.PublicKey(), lamports)})
	return k
}

func stKeypair(t *testing.T) core.Keypair {
	t.Helper()
	k, err := core.NewKeypair()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// stSameJSON reports whether got marshals to the JSON value want (numbers compared exactly).
func stSameJSON(t *testing.T, got any, want string) bool {
	t.Helper()
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	decode := func(s []byte) any {
		d := json.NewDecoder(bytes.NewReader(s))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("bad JSON %s: %v", s, err)
		}
		return v
	}
	return reflect.DeepEqual(decode(b), decode([]byte(want)))
}

func stCheckJSON(t *testing.T, what string, got any, want string) {
	t.Helper()
	if !stSameJSON(t, got, want) {
		b, _ := json.Marshal(got)
		t.Errorf("%s:\n got %s\nwant %s", what, b, want)
	}
}

// stRPCError returns err as an *rpcapi.Error, failing the test if it is not one.
func stRPCError(t *testing.T, err error) *rpcapi.Error {
	t.Helper()
	var e *rpcapi.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %v (%T) is not an *rpcapi.Error", err, err)
	}
	return e
}

// stWantError checks the code and message of a handler error.
func stWantError(t *testing.T, what string, err error, code int, message string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %d %q", what, code, message)
		return
	}
	e := stRPCError(t, err)
	if e.Code != code || e.Message != message {
		t.Errorf("%s: error %d %q, want %d %q", what, e.Code, e.Message, code, message)
	}
}

// stWantMinContextSlot checks a -32016 whose data names a context slot below minSlot.
func stWantMinContextSlot(t *testing.T, what string, err error, minSlot uint64) {
	t.Helper()
	stWantError(t, what, err, -32016, "Minimum context slot has not been reached")
	if err == nil {
		return
	}
	b, _ := json.Marshal(stRPCError(t, err).Data)
	var data struct {
		ContextSlot *uint64 `json:"contextSlot"`
	}
	if json.Unmarshal(b, &data) != nil || data.ContextSlot == nil || *data.ContextSlot >= minSlot {
		t.Errorf("%s: data %s, want {\"contextSlot\": <slot below %d>}", what, b, minSlot)
	}
}

func stPtr[T any](v T) *T { return &v }

// ---------------------------------------------------------------------------------------------------------------

func TestGetBalanceAcrossCommitments(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	k := stKeypair(t)
	faucet := l.Genesis.Faucet
	airdropSlot, _ := stRun(t, l, faucet, []core.Instruction{system.Transfer(faucet.PublicKey(), k.PublicKey(), 7*ledger.LamportsPerSOL)})

	balance := func(c string) rpcapi.GetBalanceResult {
		t.Helper()
		r, err := s.GetBalance(ctx, &rpcapi.GetBalanceParams{Pubkey: k.PublicKey(), Config: rpcapi.Some(rpcapi.ContextConfig{Commitment: stPtr(rpcapi.Commitment(c))})})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	// A bank sees the airdrop exactly when its slot is at or after the airdrop's.
	for _, c := range []string{"finalized", "confirmed", "processed"} {
		r := balance(c)
		want := uint64(0)
		if r.Context.Slot >= airdropSlot {
			want = 7 * ledger.LamportsPerSOL
		}
		if r.Value != want {
			t.Errorf("%s balance at slot %d (airdrop in %d) = %d, want %d", c, r.Context.Slot, airdropSlot, r.Value, want)
		}
		if r.Context.ApiVersion == nil || *r.Context.ApiVersion != Version {
			t.Errorf("%s context %+v lacks apiVersion", c, r.Context)
		}
	}
	if r := balance("processed"); r.Value != 7*ledger.LamportsPerSOL {
		t.Errorf("processed balance = %d right after the airdrop", r.Value)
	}
	waitFinalized(t, l)
	if r := balance("finalized"); r.Value != 7*ledger.LamportsPerSOL {
		t.Errorf("finalized balance = %d once the airdrop is final", r.Value)
	}

	// Missing accounts have no lamports; parse errors and minContextSlot come with the reference's errors.
	if r, err := s.GetBalance(ctx, &rpcapi.GetBalanceParams{Pubkey: stKeypair(t).PublicKey()}); err != nil || r.Value != 0 {
		t.Errorf("unknown account: %+v, %v", r, err)
	}
	_, err := viaJSON(s.GetBalance, "0OIl")
	stWantError(t, "bad pubkey", err, -32602, "Invalid param: Invalid")
	_, err = viaJSON(s.GetBalance, strings.Repeat("1", 45))
	stWantError(t, "long pubkey", err, -32602, "Invalid param: WrongSize")
	processed, _, _ := l.Slots()
	_, err = s.GetBalance(ctx, &rpcapi.GetBalanceParams{Pubkey: k.PublicKey(),
		Config: rpcapi.Some(rpcapi.ContextConfig{MinContextSlot: stPtr(processed + 10_000)})})
	stWantMinContextSlot(t, "minContextSlot", err, processed+10_000)
}

func TestGetAccountInfo(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, 10*ledger.LamportsPerSOL)
	small, large := stKeypair(t), stKeypair(t)
	owner := stKeypair(t).PublicKey()
	rent := l.Rent()
	slot, _ := stRun(t, l, payer, []core.Instruction{
		system.CreateAccount(payer.PublicKey(), small.PublicKey(), rent.MinimumBalance(10), 10, owner),
		system.CreateAccount(payer.PublicKey(), large.PublicKey(), rent.MinimumBalance(200), 200, owner),
	}, small, large)

	info := func(k core.Keypair, cfg *rpcapi.AccountInfoConfig) (rpcapi.GetAccountInfoResult, error) {
		return s.GetAccountInfo(ctx, &rpcapi.GetAccountInfoParams{Pubkey: k.PublicKey(), Config: rpcapi.OptOf(cfg)})
	}
	processed := &rpcapi.AccountInfoConfig{Commitment: stPtr(rpcapi.CommitmentProcessed)}
	account := func(lamports uint64, data string, space int) string {
		return fmt.Sprintf(`{"lamports":%d,"owner":%q,"data":%s,"executable":false,"rentEpoch":18446744073709551615,"space":%d}`,
			lamports, owner.String(), data, space)
	}
	smallLamports := rent.MinimumBalance(10)
	for _, tc := range []struct {
		name string
		cfg  *rpcapi.AccountInfoConfig
		want string
	}{
		{"default binary", processed, account(smallLamports, `"1111111111"`, 10)},
		{"base58", &rpcapi.AccountInfoConfig{Commitment: stPtr(rpcapi.CommitmentProcessed), Encoding: stPtr(rpcapi.AccountEncodingBase58)}, account(smallLamports, `["1111111111","base58"]`, 10)},
		{"base64", &rpcapi.AccountInfoConfig{Commitment: stPtr(rpcapi.CommitmentProcessed), Encoding: stPtr(rpcapi.AccountEncodingBase64)}, account(smallLamports, `["AAAAAAAAAAAAAA==","base64"]`, 10)},
		{"slice", &rpcapi.AccountInfoConfig{Commitment: stPtr(rpcapi.CommitmentProcessed), DataSlice: &rpcapi.DataSlice{Offset: 8, Length: 5}}, account(smallLamports, `"11"`, 10)},
		{"jsonParsed falls back", &rpcapi.AccountInfoConfig{Commitment: stPtr(rpcapi.CommitmentProcessed), Encoding: stPtr(rpcapi.AccountEncodingJsonParsed)}, account(smallLamports, `["AAAAAAAAAAAAAA==","base64"]`, 10)},
	} {
		r, err := info(small, tc.cfg)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.Context.Slot < slot {
			t.Fatalf("%s: processed context %d is before the creating slot %d", tc.name, r.Context.Slot, slot)
		}
		stCheckJSON(t, tc.name, r.Value, tc.want)
	}

	// A system wallet with jsonParsed: the system parser only knows nonce accounts.
	r, err := s.GetAccountInfo(ctx, &rpcapi.GetAccountInfoParams{Pubkey: payer.PublicKey(),
		Config: rpcapi.Some(rpcapi.AccountInfoConfig{Commitment: stPtr(rpcapi.CommitmentProcessed), Encoding: stPtr(rpcapi.AccountEncodingJsonParsed)})})
	if err != nil {
		t.Fatal(err)
	}
	if !stSameJSON(t, r.Value.Data, `["","base64"]`) {
		t.Errorf("wallet jsonParsed data = %+v", r.Value.Data)
	}

	// 200 bytes cannot go out as base58, unless a slice brings it under 128.
	_, err = info(large, processed)
	stWantError(t, "binary of 200 bytes", err, -32600, "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.")
	if r, err := info(large, &rpcapi.AccountInfoConfig{Commitment: stPtr(rpcapi.CommitmentProcessed), Encoding: stPtr(rpcapi.AccountEncodingBase58),
		DataSlice: &rpcapi.DataSlice{Offset: 100, Length: 1000}}); err != nil || r.Value.Space != 200 {
		t.Errorf("base58 of a 100-byte slice: %+v, %v", r.Value, err)
	}

	// Not there yet at finalized, unless the slot is already final.
	if r, err := info(small, nil); err != nil || (r.Value == nil) != (r.Context.Slot < slot) {
		t.Errorf("finalized view at %d (created in %d): %+v, %v", r.Context.Slot, slot, r.Value, err)
	}
	r, err = info(stKeypair(t), processed)
	if err != nil || !stSameJSON(t, r, fmt.Sprintf(`{"context":{"slot":%d,"apiVersion":%q},"value":null}`, r.Context.Slot, Version)) {
		t.Errorf("missing account: %+v, %v", r, err)
	}
	_, err = info(small, &rpcapi.AccountInfoConfig{MinContextSlot: stPtr(slot + 10_000)})
	stWantMinContextSlot(t, "minContextSlot", err, slot+10_000)
}

func TestGetMultipleAccounts(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, 10*ledger.LamportsPerSOL)
	big := stKeypair(t)
	stRun(t, l, payer, []core.Instruction{
		system.CreateAccount(payer.PublicKey(), big.PublicKey(), l.Rent().MinimumBalance(300), 300, core.SystemProgramID),
	}, big)
	missing := stKeypair(t).PublicKey().String()

	keys := []string{payer.PublicKey().String(), missing, big.PublicKey().String()}
	r, err := s.GetMultipleAccounts(ctx, &rpcapi.GetMultipleAccountsParams{Pubkeys: mustPubkeys(keys...),
		Config: rpcapi.Some(rpcapi.AccountInfoConfig{Commitment: stPtr(rpcapi.CommitmentProcessed), DataSlice: &rpcapi.DataSlice{Offset: 0, Length: 2}})})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Value) != 3 || r.Value[0] == nil || r.Value[1] != nil || r.Value[2] == nil {
		t.Fatalf("values = %+v, want [account, null, account]", r.Value)
	}
	// base64 is this method's default encoding.
	stCheckJSON(t, "sliced big account", r.Value[2], fmt.Sprintf(
		`{"lamports":%d,"owner":"11111111111111111111111111111111","data":["AAA=","base64"],"executable":false,"rentEpoch":18446744073709551615,"space":300}`,
		l.Rent().MinimumBalance(300)))
	// The payer paid the new account's balance and two signatures.
	if want := 10*ledger.LamportsPerSOL - 2*5000 - l.Rent().MinimumBalance(300); r.Value[0].Lamports != want {
		t.Errorf("payer lamports = %d, want %d", r.Value[0].Lamports, want)
	}

	// One account too large for base58 fails the whole call.
	_, err = s.GetMultipleAccounts(ctx, &rpcapi.GetMultipleAccountsParams{Pubkeys: mustPubkeys(keys...),
		Config: rpcapi.Some(rpcapi.AccountInfoConfig{Commitment: stPtr(rpcapi.CommitmentProcessed), Encoding: stPtr(rpcapi.AccountEncodingBase58)})})
	stWantError(t, "base58 of 300 bytes", err, -32600, "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.")

	many := make([]string, 101)
	for i := range many {
		many[i] = missing
	}
	_, err = viaJSON(s.GetMultipleAccounts, many)
	stWantError(t, "101 keys", err, -32602, "Too many inputs provided; max 100")
	if r, err := viaJSON(s.GetMultipleAccounts, many[:100]); err != nil || len(r.Value) != 100 {
		t.Errorf("100 keys: %d values, %v", len(r.Value), err)
	}
	_, err = viaJSON(s.GetMultipleAccounts, []string{missing, "abc"})
	stWantError(t, "short key", err, -32602, "Invalid param: WrongSize")
	processed, _, _ := l.Slots()
	_, err = s.GetMultipleAccounts(ctx, &rpcapi.GetMultipleAccountsParams{Pubkeys: mustPubkeys(keys...),
		Config: rpcapi.Some(rpcapi.AccountInfoConfig{Commitment: stPtr(rpcapi.CommitmentConfirmed), MinContextSlot: stPtr(processed + 10_000)})})
	stWantMinContextSlot(t, "minContextSlot", err, processed+10_000)
	if r, err := viaJSON(s.GetMultipleAccounts, []string{}); err != nil || !stSameJSON(t, r.Value, `[]`) {
		t.Errorf("no keys: %+v, %v", r.Value, err)
	}
}

func TestGetProgramAccounts(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, 100*ledger.LamportsPerSOL)
	rent := l.Rent()

	// Accounts of a made-up program, with different sizes (all data zero, as CreateAccount leaves it).
	program := stKeypair(t).PublicKey()
	sizes := []uint64{0, 16, 32, 16}
	owned := make([]core.Keypair, len(sizes))
	var ixs []core.Instruction
	for i, size := range sizes {
		owned[i] = stKeypair(t)
		ixs = append(ixs, system.CreateAccount(payer.PublicKey(), owned[i].PublicKey(), rent.MinimumBalance(size), size, program))
	}
	stRun(t, l, payer, ixs, owned...)

	// Nonce accounts (system owned, 80 bytes, the authority at offset 8), two for alice and one for bob.
	alice, bob := stKeypair(t), stKeypair(t)
	nonces := []core.Keypair{stKeypair(t), stKeypair(t), stKeypair(t)}
	ixs = nil
	for i, n := range nonces {
		authority := alice.PublicKey()
		if i == 2 {
			authority = bob.PublicKey()
		}
		ixs = append(ixs, system.CreateNonceAccount(payer.PublicKey(), n.PublicKey(), authority, rent.MinimumBalance(80))...)
	}
	slot, _ := stRun(t, l, payer, ixs, nonces...)

	// A zeroed account owned by the token program: it does not parse as a token account.
	tokenAcct := stKeypair(t)
	stRun(t, l, payer, []core.Instruction{
		system.CreateAccount(payer.PublicKey(), tokenAcct.PublicKey(), rent.MinimumBalance(165), 165, core.TokenProgramID),
	}, tokenAcct)

	sortedKeys := func(ks ...core.Keypair) []string {
		var out []string
		for _, k := range ks {
			out = append(out, k.PublicKey().String())
		}
		slices.SortFunc(out, func(a, b string) int {
			return core.MustParsePubkey(a).Compare(core.MustParsePubkey(b))
		})
		return out
	}
	memcmp := func(offset uint64, b string, enc *string) rpcapi.ProgramAccountsFilter {
		return rpcapi.ProgramAccountsFilter{Memcmp: &rpcapi.ProgramAccountsFilterMemcmp{Memcmp: rpcapi.MemcmpFilter{Offset: offset, Bytes: b, Encoding: enc}}}
	}
	dataSize := func(n uint64) rpcapi.ProgramAccountsFilter {
		return rpcapi.ProgramAccountsFilter{DataSize: &rpcapi.ProgramAccountsFilterDataSize{DataSize: n}}
	}
	query := func(program core.Pubkey, cfg rpcapi.ProgramAccountsConfig) ([]rpcapi.KeyedAccount, error) {
		t.Helper()
		cfg.Commitment = stPtr(rpcapi.CommitmentProcessed)
		r, err := s.GetProgramAccounts(ctx, &rpcapi.GetProgramAccountsParams{ProgramId: program, Config: rpcapi.Some(cfg)})
		if err != nil {
			return nil, err
		}
		if r.Accounts == nil {
			t.Fatalf("result is not a bare array: %+v", r)
		}
		return *r.Accounts, nil
	}
	alicePk := alice.PublicKey()
	aliceB58, aliceB64 := alicePk.String(), base64.StdEncoding.EncodeToString(alicePk[:])

	for _, tc := range []struct {
		name    string
		program core.Pubkey
		filters []rpcapi.ProgramAccountsFilter
		want    []string
	}{
		{"all of the program", program, nil, sortedKeys(owned...)},
		{"dataSize 16", program, []rpcapi.ProgramAccountsFilter{dataSize(16)}, sortedKeys(owned[1], owned[3])},
		{"zeros at the end", program, []rpcapi.ProgramAccountsFilter{memcmp(12, "1111", nil)}, sortedKeys(owned[1], owned[2], owned[3])},
		{"compare past the end", program, []rpcapi.ProgramAccountsFilter{memcmp(14, "1111", nil)}, sortedKeys(owned[2])},
		{"empty bytes at the end", program, []rpcapi.ProgramAccountsFilter{memcmp(16, "", nil)}, sortedKeys(owned[1], owned[2], owned[3])},
		{"alice's nonces, base58", core.SystemProgramID, []rpcapi.ProgramAccountsFilter{dataSize(80), memcmp(8, aliceB58, nil)}, sortedKeys(nonces[0], nonces[1])},
		{"alice's nonces, base64", core.SystemProgramID, []rpcapi.ProgramAccountsFilter{memcmp(8, aliceB64, stPtr("base64")), dataSize(80)}, sortedKeys(nonces[0], nonces[1])},
		{"all nonces", core.SystemProgramID, []rpcapi.ProgramAccountsFilter{dataSize(80)}, sortedKeys(nonces...)},
		{"four filters", core.SystemProgramID, []rpcapi.ProgramAccountsFilter{dataSize(80), memcmp(8, aliceB58, nil), memcmp(0, "2", nil), memcmp(72, "", nil)}, sortedKeys(nonces[0], nonces[1])},
		{"uninitialized token account", core.TokenProgramID, []rpcapi.ProgramAccountsFilter{{TokenAccountState: stPtr("tokenAccountState")}}, nil},
		{"token program, 165 bytes", core.TokenProgramID, []rpcapi.ProgramAccountsFilter{dataSize(165)}, sortedKeys(tokenAcct)},
	} {
		got, err := query(tc.program, rpcapi.ProgramAccountsConfig{Filters: &tc.filters, Encoding: stPtr(rpcapi.AccountEncodingBase64)})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		var keys []string
		for _, k := range got {
			keys = append(keys, k.Pubkey)
		}
		if !slices.Equal(keys, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, keys, tc.want)
		}
	}

	// Full shapes: the default binary encoding and withContext.
	got, err := query(program, rpcapi.ProgramAccountsConfig{Filters: &[]rpcapi.ProgramAccountsFilter{dataSize(0)}})
	if err != nil {
		t.Fatal(err)
	}
	stCheckJSON(t, "binary", got, fmt.Sprintf(`[{"pubkey":%q,"account":{"lamports":%d,"owner":%q,"data":"","executable":false,"rentEpoch":18446744073709551615,"space":0}}]`,
		owned[0].PublicKey().String(), rent.MinimumBalance(0), program.String()))
	r, err := s.GetProgramAccounts(ctx, &rpcapi.GetProgramAccountsParams{ProgramId: program,
		Config: rpcapi.Some(rpcapi.ProgramAccountsConfig{Commitment: stPtr(rpcapi.CommitmentProcessed), WithContext: stPtr(true), Filters: &[]rpcapi.ProgramAccountsFilter{dataSize(7)}})})
	if err != nil || r.WithContext == nil || r.WithContext.Context.Slot < slot || !stSameJSON(t, r.WithContext.Value, `[]`) {
		t.Errorf("withContext: %+v, %v", r, err)
	}
	if r, err := s.GetProgramAccounts(ctx, &rpcapi.GetProgramAccountsParams{ProgramId: stKeypair(t).PublicKey()}); err != nil ||
		!stSameJSON(t, r, `[]`) {
		t.Errorf("unknown program: %+v, %v", r, err)
	}

	// jsonParsed: nonce accounts parse; token accounts that do not parse are dropped, others fall back.
	got, err = query(core.SystemProgramID, rpcapi.ProgramAccountsConfig{Encoding: stPtr(rpcapi.AccountEncodingJsonParsed),
		Filters: &[]rpcapi.ProgramAccountsFilter{dataSize(80), memcmp(8, bob.PublicKey().String(), nil)}})
	if err != nil || len(got) != 1 || got[0].Account.Data.Parsed == nil || got[0].Account.Data.Parsed.Program != "nonce" {
		t.Errorf("jsonParsed nonce: %+v, %v", got, err)
	}
	if got, err := query(core.TokenProgramID, rpcapi.ProgramAccountsConfig{Encoding: stPtr(rpcapi.AccountEncodingJsonParsed),
		Filters: &[]rpcapi.ProgramAccountsFilter{dataSize(165)}}); err != nil || len(got) != 0 {
		t.Errorf("jsonParsed unparsable token account: %+v, %v", got, err)
	}
	if got, err := query(program, rpcapi.ProgramAccountsConfig{Encoding: stPtr(rpcapi.AccountEncodingJsonParsed), DataSlice: &rpcapi.DataSlice{Offset: 0, Length: 1},
		Filters: &[]rpcapi.ProgramAccountsFilter{dataSize(32)}}); err != nil || len(got) != 1 || !stSameJSON(t, got[0].Account.Data, `["AA==","base64"]`) {
		t.Errorf("jsonParsed fallback: %+v, %v", got, err)
	}

	// One account over 128 bytes fails a binary (or base58) listing, but not a sliced one.
	bigProgram, big := stKeypair(t).PublicKey(), stKeypair(t)
	stRun(t, l, payer, []core.Instruction{
		system.CreateAccount(payer.PublicKey(), big.PublicKey(), rent.MinimumBalance(129), 129, bigProgram),
	}, big)
	_, err = query(bigProgram, rpcapi.ProgramAccountsConfig{})
	stWantError(t, "binary of 129 bytes", err, -32600, "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.")
	if got, err := query(bigProgram, rpcapi.ProgramAccountsConfig{Encoding: stPtr(rpcapi.AccountEncodingBase58), DataSlice: &rpcapi.DataSlice{Offset: 1, Length: 200}}); err != nil ||
		len(got) != 1 || got[0].Account.Space != 129 {
		t.Errorf("base58 of 128 sliced bytes: %+v, %v", got, err)
	}

	processed, _, _ := l.Slots()
	_, err = s.GetProgramAccounts(ctx, &rpcapi.GetProgramAccountsParams{ProgramId: program,
		Config: rpcapi.Some(rpcapi.ProgramAccountsConfig{MinContextSlot: stPtr(processed + 10_000)})})
	stWantMinContextSlot(t, "minContextSlot", err, processed+10_000)
}

func TestGetProgramAccountsFilterErrors(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t)
	memcmp := func(b string, enc string) rpcapi.ProgramAccountsFilter {
		f := rpcapi.MemcmpFilter{Bytes: b}
		if enc != "" {
			f.Encoding = &enc
		}
		return rpcapi.ProgramAccountsFilter{Memcmp: &rpcapi.ProgramAccountsFilterMemcmp{Memcmp: f}}
	}
	size := rpcapi.ProgramAccountsFilter{DataSize: &rpcapi.ProgramAccountsFilterDataSize{DataSize: 1}}
	valid129 := base64.StdEncoding.EncodeToString(make([]byte, 129))
	for _, tc := range []struct {
		name    string
		filters []rpcapi.ProgramAccountsFilter
		message string
	}{
		{"five filters", []rpcapi.ProgramAccountsFilter{size, size, size, size, size}, "Too many filters provided; max 4"},
		{"base58 character", []rpcapi.ProgramAccountsFilter{memcmp("abc0", "")}, "Invalid param: Base58DecodeError(InvalidCharacter { character: '0', index: 3 })"},
		{"base58 quote", []rpcapi.ProgramAccountsFilter{memcmp("'", "base58")}, `Invalid param: Base58DecodeError(InvalidCharacter { character: '\'', index: 0 })`},
		{"base58 newline", []rpcapi.ProgramAccountsFilter{memcmp("2\n", "")}, `Invalid param: Base58DecodeError(InvalidCharacter { character: '\n', index: 1 })`},
		{"base58 non-ASCII", []rpcapi.ProgramAccountsFilter{memcmp("2é", "")}, "Invalid param: Base58DecodeError(NonAsciiCharacter { index: 1 })"},
		{"base58 176 characters", []rpcapi.ProgramAccountsFilter{memcmp(strings.Repeat("2", 176), "")}, "Invalid param: DataTooLarge"},
		{"base58 of 129 bytes", []rpcapi.ProgramAccountsFilter{memcmp(strings.Repeat("1", 129), "")}, "Invalid param: DataTooLarge"},
		{"base64 173 characters", []rpcapi.ProgramAccountsFilter{memcmp(strings.Repeat("A", 173), "base64")}, "Invalid param: DataTooLarge"},
		{"base64 of 129 bytes", []rpcapi.ProgramAccountsFilter{memcmp(valid129, "base64")}, "Invalid param: DataTooLarge"},
		{"base64 trailing bits", []rpcapi.ProgramAccountsFilter{memcmp("AB==", "base64")}, "Invalid param: Base64DecodeError(InvalidLastSymbol(1, 66))"},
		{"base64 short padding", []rpcapi.ProgramAccountsFilter{memcmp("AA=", "base64")}, "Invalid param: Base64DecodeError(InvalidPadding)"},
		{"base64 unpadded", []rpcapi.ProgramAccountsFilter{memcmp("AAA", "base64")}, "Invalid param: Base64DecodeError(InvalidPadding)"},
		{"base64 one symbol", []rpcapi.ProgramAccountsFilter{memcmp("AAAAA", "base64")}, "Invalid param: Base64DecodeError(InvalidLength(5))"},
		{"base64 trailing newline", []rpcapi.ProgramAccountsFilter{memcmp("AAAA\n", "base64")}, "Invalid param: Base64DecodeError(InvalidByte(4, 10))"},
		{"base64 bad symbol", []rpcapi.ProgramAccountsFilter{memcmp("AAAAA!AA", "base64")}, "Invalid param: Base64DecodeError(InvalidByte(5, 33))"},
		{"base64 early padding", []rpcapi.ProgramAccountsFilter{memcmp("AA==AAAA", "base64")}, "Invalid param: Base64DecodeError(InvalidByte(2, 61))"},
		{"base64 padding then data", []rpcapi.ProgramAccountsFilter{memcmp("AA=A", "base64")}, "Invalid param: Base64DecodeError(InvalidByte(2, 61))"},
		{"base64 lone padding", []rpcapi.ProgramAccountsFilter{memcmp("A===", "base64")}, "Invalid param: Base64DecodeError(InvalidByte(1, 61))"},
	} {
		_, err := s.GetProgramAccounts(context.Background(), &rpcapi.GetProgramAccountsParams{ProgramId: core.SystemProgramID,
			Config: rpcapi.Some(rpcapi.ProgramAccountsConfig{Filters: &tc.filters})})
		stWantError(t, tc.name, err, -32602, tc.message)
	}
	// Valid edge cases decode.
	for _, b := range []struct{ bytes, enc string }{{"", ""}, {"", "base64"}, {"AA==", "base64"}, {"AAA=", "base64"}, {"AAAA", "base64"},
		{base64.StdEncoding.EncodeToString(make([]byte, 128)), "base64"}, {strings.Repeat("1", 128), ""}} {
		f := []rpcapi.ProgramAccountsFilter{memcmp(b.bytes, b.enc)}
		if _, err := s.GetProgramAccounts(context.Background(), &rpcapi.GetProgramAccountsParams{ProgramId: core.SystemProgramID,
			Config: rpcapi.Some(rpcapi.ProgramAccountsConfig{Filters: &f, Encoding: stPtr(rpcapi.AccountEncodingBase64)})}); err != nil {
			t.Errorf("memcmp %q (%s): %v", b.bytes, b.enc, err)
		}
	}
}

func TestGetMinimumBalanceForRentExemption(t *testing.T) {
	t.Parallel()
	s, _ := newTestServer(t)
	for _, tc := range []struct {
		len  uint64
		want uint64
	}{{0, 890_880}, {82, 1_461_600}, {165, 2_039_280}, {10 * 1024 * 1024, (128 + 10*1024*1024) * 6960}} {
		got, err := s.GetMinimumBalanceForRentExemption(context.Background(), &rpcapi.GetMinimumBalanceForRentExemptionParams{DataLength: tc.len,
			Config: rpcapi.Some(rpcapi.RequiredCommitmentConfig{Commitment: "processed"})})
		if err != nil || got != tc.want {
			t.Errorf("len %d: %d, %v; want %d", tc.len, got, err, tc.want)
		}
	}
	_, err := s.GetMinimumBalanceForRentExemption(context.Background(), &rpcapi.GetMinimumBalanceForRentExemptionParams{DataLength: 10*1024*1024 + 1})
	stWantError(t, "over 10 MiB", err, -32600, "Invalid request")
}

func TestGetLargestAccounts(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	whale := stFund(t, l, 5_000*ledger.LamportsPerSOL)
	largest := func(cfg *rpcapi.GetLargestAccountsConfig) rpcapi.GetLargestAccountsResult {
		t.Helper()
		r, err := s.GetLargestAccounts(ctx, &rpcapi.GetLargestAccountsParams{Config: rpcapi.OptOf(cfg)})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := largest(&rpcapi.GetLargestAccountsConfig{Commitment: stPtr(rpcapi.CommitmentProcessed)})
	if len(r.Value) != 20 {
		t.Fatalf("%d accounts, want 20", len(r.Value))
	}
	// The faucet, the bootstrap stake account and the airdropped whale lead; ties rank by address, descending,
	// as the reference's heap does.
	if r.Value[0].Address != l.Genesis.Faucet.PublicKey().String() || r.Value[1].Address != l.StakeAccount().String() ||
		r.Value[2].Address != whale.PublicKey().String() || r.Value[2].Lamports != 5_000*ledger.LamportsPerSOL {
		t.Errorf("leaders = %+v", r.Value[:3])
	}
	for i := 1; i < len(r.Value); i++ {
		a, b := r.Value[i-1], r.Value[i]
		if a.Lamports < b.Lamports || a.Lamports == b.Lamports && core.MustParsePubkey(a.Address).Compare(core.MustParsePubkey(b.Address)) <= 0 {
			t.Errorf("entries %d and %d out of order: %+v %+v", i-1, i, a, b)
		}
	}
	if c := largest(&rpcapi.GetLargestAccountsConfig{Commitment: stPtr(rpcapi.CommitmentProcessed), Filter: stPtr("circulating")}); len(c.Value) != 20 || c.Value[0] != r.Value[0] {
		t.Errorf("circulating = %+v", c.Value)
	}
	if n := largest(&rpcapi.GetLargestAccountsConfig{Filter: stPtr("nonCirculating")}); !stSameJSON(t, n.Value, `[]`) {
		t.Errorf("nonCirculating = %+v, want []", n.Value)
	}
}

func TestGetSupply(t *testing.T) {
	t.Parallel()
	s, l := newTestServer(t)
	ctx := context.Background()
	payer := stFund(t, l, 10*ledger.LamportsPerSOL)
	processed, _, _ := l.Slots()
	stWaitFrozen(t, l, processed) // the airdrop's fee is burned when its slot freezes

	supply := func(cfg *rpcapi.GetSupplyConfig) rpcapi.GetSupplyResult {
		t.Helper()
		r, err := s.GetSupply(ctx, &rpcapi.GetSupplyParams{Config: rpcapi.OptOf(cfg)})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	before := supply(&rpcapi.GetSupplyConfig{Commitment: stPtr(rpcapi.CommitmentConfirmed)})
	// The reference's fixed mainnet-beta list is listed on every chain; none of those accounts exists here.
	if before.Value.Total < ledger.DefaultFaucetLamports || before.Value.Circulating != before.Value.Total ||
		len(before.Value.NonCirculatingAccounts) != len(nonCirculatingAddresses) || before.Value.NonCirculating != 0 {
		t.Errorf("supply = %+v", before.Value)
	}
	// Every transaction (the transfer, and the node's votes, signed by the identity and the vote account) burns
	// half of its fee, 5000 lamports a signature.
	slot, _ := stRun(t, l, payer, []core.Instruction{system.Transfer(payer.PublicKey(), stKeypair(t).PublicKey(), ledger.LamportsPerSOL)})
	stWaitFrozen(t, l, slot)
	after := supply(&rpcapi.GetSupplyConfig{Commitment: stPtr(rpcapi.CommitmentConfirmed), ExcludeNonCirculatingAccountsList: stPtr(true)})
	var txs, sigs uint64
	for s := before.Context.Slot + 1; s <= after.Context.Slot; s++ {
		b, found, err := l.Block(s, ledger.Confirmed)
		if err != nil || !found {
			t.Fatalf("block %d: %v", s, err)
		}
		recs, err := l.BlockTransactions(b)
		if err != nil {
			t.Fatal(err)
		}
		txs += uint64(len(recs))
		for _, rec := range recs {
			sigs += uint64(len(rec.Tx.Signatures))
		}
	}
	if burned := before.Value.Total - after.Value.Total; burned != 2500*sigs || txs < 2 {
		t.Errorf("total went from %d (slot %d) to %d (slot %d): %d burned for %d transactions, %d signatures",
			before.Value.Total, before.Context.Slot, after.Value.Total, after.Context.Slot, burned, txs, sigs)
	}
	stCheckJSON(t, "supply shape", after, fmt.Sprintf(`{"context":{"slot":%d,"apiVersion":%q},"value":{"total":%d,"circulating":%d,"nonCirculating":0,"nonCirculatingAccounts":[]}}`,
		after.Context.Slot, Version, after.Value.Total, after.Value.Total))
}

// largest keeps the top numLargestAccounts by amount, the larger address first among equal amounts, whatever the
// order it is fed in.
func TestLargestKeepsTheTopInOrder(t *testing.T) {
	t.Parallel()
	var l largest
	for i := range 3 * numLargestAccounts {
		amount := uint64(i % numLargestAccounts) // each amount three times, from three addresses
		l.add(core.Pubkey{byte(i)}, amount)
	}
	if len(l.ranked) != numLargestAccounts {
		t.Fatalf("kept %d, want %d", len(l.ranked), numLargestAccounts)
	}
	for i, got := range l.ranked {
		// Amount a is held by addresses a, a+20 and a+40; the top 20 are 19, 19, 19, 18, ..., each amount's
		// addresses from the largest.
		amount := uint64(numLargestAccounts - 1 - i/3)
		want := core.Pubkey{byte(int(amount) + 2*numLargestAccounts - (i%3)*numLargestAccounts)}
		if got.amount != amount || got.key != want {
			t.Errorf("entry %d = %d at %s, want %d at %s", i, got.amount, got.key, amount, want)
		}
	}
}
