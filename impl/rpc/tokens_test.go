package rpc

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mr-tron/base58"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/ledger"
	"ledgerd/impl/parse"
)

// ---------------------------------------------------------------------------------------------------------------
// Token state laid out byte by byte (the token programs' layouts), as genesis accounts.

// tkKey is a fixed address whose first byte orders it among the others.
func tkKey(n byte) core.Pubkey {
	var k core.Pubkey
	k[0], k[31] = n, 0xcc
	return k
}

func tkOption(b []byte, k *core.Pubkey) {
	if k != nil {
		b[0] = 1
		copy(b[4:36], k[:])
	}
}

func tkMint(authority *core.Pubkey, supply uint64, decimals uint8) []byte {
	b := make([]byte, 82)
	tkOption(b[0:36], authority)
	binary.LittleEndian.PutUint64(b[36:], supply)
	b[44], b[45] = decimals, 1
	return b
}

type tkAccount struct {
	mint, owner core.Pubkey
	amount      uint64
	delegate    *core.Pubkey
	state       byte
	native      *uint64
}

func (a tkAccount) data() []byte {
	b := make([]byte, 165)
	copy(b[0:], a.mint[:])
	copy(b[32:], a.owner[:])
	binary.LittleEndian.PutUint64(b[64:], a.amount)
	tkOption(b[72:108], a.delegate)
	if a.delegate != nil {
		binary.LittleEndian.PutUint64(b[121:], a.amount)
	}
	b[108] = a.state
	if a.native != nil {
		b[109] = 1
		binary.LittleEndian.PutUint64(b[113:], *a.native)
	}
	return b
}

// tkExtended appends Token-2022 extension framing: padding to 165 bytes, the account type, TLV entries.
func tkExtended(base []byte, accountType byte, entries ...[]byte) []byte {
	b := append([]byte(nil), base...)
	for len(b) < 165 {
		b = append(b, 0)
	}
	b = append(b, accountType)
	for _, e := range entries {
		b = append(b, e...)
	}
	return b
}

func tkTLV(typ uint16, value []byte) []byte {
	b := binary.LittleEndian.AppendUint16(nil, typ)
	b = binary.LittleEndian.AppendUint16(b, uint16(len(value)))
	return append(b, value...)
}

func tkGenesis(key core.Pubkey, owner core.Pubkey, data []byte) ledger.GenesisAccount {
	return ledger.GenesisAccount{Pubkey: key, Lamports: 2_039_280, Owner: owner, RentEpoch: math.MaxUint64, Data: data}
}

// tkFixture is a chain with mints and token accounts of both programs laid out at genesis.
type tkFixture struct {
	s                                  *Server
	l                                  *ledger.Ledger
	vars                               map[string]string
	mintA, mintB, mintScaled           core.Pubkey
	mintC, missingMint, badMint, fake  core.Pubkey
	owner1, owner2, owner3, delegate   core.Pubkey
	acct1, acct2, acct3, acct4, acct5  core.Pubkey
	wsol, frozen, uninit, scaled, sysA core.Pubkey
	badMintAcct                        core.Pubkey
	cAccounts                          []core.Pubkey
}

func newTokenFixture(t *testing.T) *tkFixture {
	t.Helper()
	f := &tkFixture{
		mintA: tkKey(0x10), mintB: tkKey(0x11), mintScaled: tkKey(0x12), mintC: tkKey(0x13),
		missingMint: tkKey(0x14), badMint: tkKey(0x15), fake: tkKey(0x16),
		owner1: tkKey(0x20), owner2: tkKey(0x21), owner3: tkKey(0x22), delegate: tkKey(0x23),
		acct1: tkKey(0x31), acct2: tkKey(0x32), acct3: tkKey(0x33), acct4: tkKey(0x34), acct5: tkKey(0x35),
		wsol: tkKey(0x36), frozen: tkKey(0x37), uninit: tkKey(0x38), scaled: tkKey(0x39), sysA: tkKey(0x3a),
		badMintAcct: tkKey(0x3b),
	}
	reserve := uint64(2_039_280)
	scaledConfig := make([]byte, 56)
	binary.LittleEndian.PutUint64(scaledConfig[32:], math.Float64bits(1))
	binary.LittleEndian.PutUint64(scaledConfig[48:], math.Float64bits(2)) // 2x from timestamp 0
	accounts := []ledger.GenesisAccount{
		tkGenesis(f.mintA, core.TokenProgramID, tkMint(&f.owner1, 1000, 2)),
		tkGenesis(f.mintB, core.Token2022ProgramID, tkExtended(tkMint(nil, 7, 6), 1, tkTLV(3, f.owner1[:]))),
		tkGenesis(f.mintScaled, core.Token2022ProgramID, tkExtended(tkMint(nil, 100, 0), 1, tkTLV(25, scaledConfig))),
		tkGenesis(f.mintC, core.TokenProgramID, tkMint(nil, 0, 0)),
		tkGenesis(f.badMint, core.TokenProgramID, make([]byte, 82)),
		tkGenesis(f.fake, core.SystemProgramID, tkMint(nil, 5, 5)), // a mint layout not owned by a token program
		tkGenesis(f.acct1, core.TokenProgramID, tkAccount{mint: f.mintA, owner: f.owner1, amount: 500, delegate: &f.delegate, state: 1}.data()),
		tkGenesis(f.acct2, core.TokenProgramID, tkAccount{mint: f.mintA, owner: f.owner1, amount: 300, state: 1}.data()),
		tkGenesis(f.acct3, core.TokenProgramID, tkAccount{mint: f.mintA, owner: f.owner2, amount: 500, state: 1}.data()),
		tkGenesis(f.acct4, core.Token2022ProgramID, tkExtended(tkAccount{mint: f.mintB, owner: f.owner1, amount: 7, state: 1}.data(), 2, tkTLV(7, nil))),
		tkGenesis(f.acct5, core.TokenProgramID, tkAccount{mint: f.missingMint, owner: f.owner1, amount: 1, state: 1}.data()),
		tkGenesis(f.wsol, core.TokenProgramID, tkAccount{mint: core.NativeMintID, owner: f.owner1, amount: 1_000_000_000, state: 1, native: &reserve}.data()),
		tkGenesis(f.frozen, core.TokenProgramID, tkAccount{mint: f.mintA, owner: f.owner3, state: 2}.data()),
		tkGenesis(f.uninit, core.TokenProgramID, make([]byte, 165)),
		tkGenesis(f.scaled, core.Token2022ProgramID, tkAccount{mint: f.mintScaled, owner: f.owner2, amount: 100, state: 1}.data()),
		tkGenesis(f.sysA, core.SystemProgramID, nil),
		tkGenesis(f.badMintAcct, core.TokenProgramID, tkAccount{mint: f.badMint, owner: tkKey(0x24), state: 1}.data()),
	}
	// 25 accounts of mint C with amounts 1…25, for the top 20.
	for i := range 25 {
		k := tkKey(0x80 + byte(i))
		f.cAccounts = append(f.cAccounts, k)
		accounts = append(accounts, tkGenesis(k, core.TokenProgramID, tkAccount{mint: f.mintC, owner: f.owner3, amount: uint64(i + 1), state: 1}.data()))
	}
	l, err := ledger.Open(ledger.Config{Dir: t.TempDir(), SlotDuration: 10 * time.Millisecond, FinalityDepth: 2,
		Genesis: ledger.GenesisOptions{Accounts: accounts}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	g := l.Genesis
	f.s, f.l = NewServer(Node{Identity: g.IdentityPubkey(), GenesisHash: g.HashString(), Ledger: l}), l
	f.vars = map[string]string{"token": core.TokenProgramID.String(), "token22": core.Token2022ProgramID.String(),
		"native": core.NativeMintID.String()}
	for name, k := range map[string]core.Pubkey{"mintA": f.mintA, "mintB": f.mintB, "owner1": f.owner1, "owner2": f.owner2,
		"delegate": f.delegate, "acct1": f.acct1, "acct2": f.acct2, "acct4": f.acct4, "wsol": f.wsol, "missing": f.missingMint} {
		f.vars[name] = k.String()
	}
	return f
}

func (f *tkFixture) expand(s string) string {
	// $token22 goes first, so it is not read as $token followed by 22 (Replacer tries olds in argument order).
	pairs := []string{"$token22", f.vars["token22"]}
	for k, v := range f.vars {
		if k != "token22" {
			pairs = append(pairs, "$"+k, v)
		}
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

func tkJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func tkWantError(t *testing.T, what string, err error, code int, message string) {
	t.Helper()
	var e *rpcapi.Error
	if !errors.As(err, &e) {
		t.Errorf("%s: error %v, want %d %q", what, err, code, message)
		return
	}
	if e.Code != code || e.Message != message {
		t.Errorf("%s: error %d %q, want %d %q", what, e.Code, e.Message, code, message)
	}
}

func tkPtr[T any](v T) *T { return &v }

func keysOf(list []rpcapi.KeyedAccount) []string {
	out := []string{}
	for _, k := range list {
		out = append(out, k.Pubkey)
	}
	return out
}

func keyStrings(keys ...core.Pubkey) []string {
	out := []string{}
	for _, k := range keys {
		out = append(out, k.String())
	}
	return out
}

// ---------------------------------------------------------------------------------------------------------------

func TestGetTokenAccountBalance(t *testing.T) {
	t.Parallel()
	f := newTokenFixture(t)
	balance := func(k string) (string, error) {
		r, err := viaJSON(f.s.GetTokenAccountBalance, k, rpcapi.RequiredCommitmentConfig{Commitment: "processed"})
		if err != nil {
			return "", err
		}
		return tkJSON(t, r.Value), nil
	}
	for _, tt := range []struct {
		account core.Pubkey
		want    string
	}{
		{f.acct1, `{"amount":"500","decimals":2,"uiAmount":5.0,"uiAmountString":"5"}`},
		{f.acct2, `{"amount":"300","decimals":2,"uiAmount":3.0,"uiAmountString":"3"}`},
		{f.acct4, `{"amount":"7","decimals":6,"uiAmount":7e-6,"uiAmountString":"0.000007"}`},
		{f.wsol, `{"amount":"1000000000","decimals":9,"uiAmount":1.0,"uiAmountString":"1"}`},
		{f.frozen, `{"amount":"0","decimals":2,"uiAmount":0.0,"uiAmountString":"0"}`},
		{f.scaled, `{"amount":"100","decimals":0,"uiAmount":200.0,"uiAmountString":"200"}`},
	} {
		got, err := balance(tt.account.String())
		if err != nil || got != tt.want {
			t.Errorf("%s: %s, %v; want %s", tt.account, got, err, tt.want)
		}
	}
	for _, tt := range []struct {
		what, account, message string
	}{
		{"missing", tkKey(0x7f).String(), "Invalid param: could not find account"},
		{"system account", f.sysA.String(), "Invalid param: not a Token account"},
		{"uninitialized", f.uninit.String(), "Invalid param: not a Token account"},
		{"a mint", f.mintA.String(), "Invalid param: not a Token account"},
		{"missing mint", f.acct5.String(), "Invalid param: could not find mint"},
		{"mint that does not unpack", f.badMintAcct.String(), "Invalid param: Token mint could not be unpacked"},
		{"bad pubkey", "xyz", "Invalid param: WrongSize"},
	} {
		_, err := balance(tt.account)
		tkWantError(t, tt.what, err, -32602, tt.message)
	}

}

func TestGetTokenSupply(t *testing.T) {
	t.Parallel()
	f := newTokenFixture(t)
	supply := func(k string) (string, error) {
		r, err := viaJSON(f.s.GetTokenSupply, k)
		if err != nil {
			return "", err
		}
		return tkJSON(t, r.Value), nil
	}
	for _, tt := range []struct {
		mint core.Pubkey
		want string
	}{
		{f.mintA, `{"amount":"1000","decimals":2,"uiAmount":10.0,"uiAmountString":"10"}`},
		{f.mintB, `{"amount":"7","decimals":6,"uiAmount":7e-6,"uiAmountString":"0.000007"}`},
		{f.mintScaled, `{"amount":"100","decimals":0,"uiAmount":200.0,"uiAmountString":"200"}`},
	} {
		if got, err := supply(tt.mint.String()); err != nil || got != tt.want {
			t.Errorf("%s: %s, %v; want %s", tt.mint, got, err, tt.want)
		}
	}
	for _, tt := range []struct {
		what, mint, message string
	}{
		{"missing", f.missingMint.String(), "Invalid param: could not find account"},
		{"not token owned", f.fake.String(), "Invalid param: not a Token mint"},
		{"uninitialized mint", f.badMint.String(), "Invalid param: mint could not be unpacked"},
		{"a token account", f.acct1.String(), "Invalid param: mint could not be unpacked"},
	} {
		_, err := supply(tt.mint)
		tkWantError(t, tt.what, err, -32602, tt.message)
	}
}

func TestGetTokenLargestAccounts(t *testing.T) {
	t.Parallel()
	f := newTokenFixture(t)
	largest := func(k string) (rpcapi.GetTokenLargestAccountsResult, error) {
		return viaJSON(f.s.GetTokenLargestAccounts, k)
	}
	r, err := largest(f.mintA.String())
	if err != nil {
		t.Fatal(err)
	}
	// Equal amounts: the larger address first (acct3 > acct1).
	want := `[{"address":"` + f.acct3.String() + `","amount":"500","decimals":2,"uiAmount":5.0,"uiAmountString":"5"},` +
		`{"address":"` + f.acct1.String() + `","amount":"500","decimals":2,"uiAmount":5.0,"uiAmountString":"5"},` +
		`{"address":"` + f.acct2.String() + `","amount":"300","decimals":2,"uiAmount":3.0,"uiAmountString":"3"},` +
		`{"address":"` + f.frozen.String() + `","amount":"0","decimals":2,"uiAmount":0.0,"uiAmountString":"0"}]`
	if got := tkJSON(t, r.Value); got != want {
		t.Errorf("mint A:\n got %s\nwant %s", got, want)
	}
	r, err = largest(f.mintC.String())
	if err != nil || len(r.Value) != 20 {
		t.Fatalf("mint C: %d entries, %v", len(r.Value), err)
	}
	for i, e := range r.Value {
		if want := f.cAccounts[24-i].String(); e.Address != want || e.Amount != itoaU(uint64(25-i)) {
			t.Errorf("mint C entry %d: %+v, want %s with %d", i, e, want, 25-i)
		}
	}
	if r, err := largest(core.NativeMintID.String()); err != nil || tkJSON(t, r.Value) !=
		`[{"address":"`+f.wsol.String()+`","amount":"1000000000","decimals":9,"uiAmount":1.0,"uiAmountString":"1"}]` {
		t.Errorf("wrapped SOL: %s, %v", tkJSON(t, r.Value), err)
	}
	for _, tt := range []struct {
		what, mint, message string
	}{
		{"missing", f.missingMint.String(), "Invalid param: could not find mint"},
		{"not token owned", f.fake.String(), "Invalid param: not a Token mint"},
		{"uninitialized mint", f.badMint.String(), "Invalid param: Token mint could not be unpacked"},
	} {
		_, err := largest(tt.mint)
		tkWantError(t, tt.what, err, -32602, tt.message)
	}
}

func TestGetTokenAccountsByOwnerAndDelegate(t *testing.T) {
	t.Parallel()
	f := newTokenFixture(t)
	ctx := context.Background()
	mint := func(k core.Pubkey) rpcapi.TokenAccountsFilter {
		return rpcapi.TokenAccountsFilter{Mint: &rpcapi.TokenAccountsFilterMint{Mint: k.String()}}
	}
	program := func(k core.Pubkey) rpcapi.TokenAccountsFilter {
		return rpcapi.TokenAccountsFilter{ProgramId: &rpcapi.TokenAccountsFilterProgramId{ProgramId: k.String()}}
	}
	base64 := &rpcapi.AccountInfoConfig{Encoding: tkPtr(rpcapi.AccountEncodingBase64), Commitment: tkPtr(rpcapi.CommitmentProcessed)}
	parsed := &rpcapi.AccountInfoConfig{Encoding: tkPtr(rpcapi.AccountEncodingJsonParsed), Commitment: tkPtr(rpcapi.CommitmentProcessed)}
	byOwner := func(owner core.Pubkey, filter rpcapi.TokenAccountsFilter, cfg *rpcapi.AccountInfoConfig) ([]rpcapi.KeyedAccount, error) {
		r, err := f.s.GetTokenAccountsByOwner(ctx, &rpcapi.GetTokenAccountsByOwnerParams{Owner: owner, Filter: filter, Config: rpcapi.OptOf(cfg)})
		return r.Value, err
	}
	byDelegate := func(d core.Pubkey, filter rpcapi.TokenAccountsFilter, cfg *rpcapi.AccountInfoConfig) ([]rpcapi.KeyedAccount, error) {
		r, err := f.s.GetTokenAccountsByDelegate(ctx, &rpcapi.GetTokenAccountsByDelegateParams{Delegate: d, Filter: filter, Config: rpcapi.OptOf(cfg)})
		return r.Value, err
	}
	lists := []struct {
		what string
		call func() ([]rpcapi.KeyedAccount, error)
		want []string
	}{
		{"owner 1, SPL Token", func() ([]rpcapi.KeyedAccount, error) { return byOwner(f.owner1, program(core.TokenProgramID), base64) },
			keyStrings(f.acct1, f.acct2, f.acct5, f.wsol)},
		{"owner 1, SPL Token, jsonParsed drops the account without a mint", func() ([]rpcapi.KeyedAccount, error) {
			return byOwner(f.owner1, program(core.TokenProgramID), parsed)
		}, keyStrings(f.acct1, f.acct2, f.wsol)},
		{"owner 1, mint A", func() ([]rpcapi.KeyedAccount, error) { return byOwner(f.owner1, mint(f.mintA), base64) },
			keyStrings(f.acct1, f.acct2)},
		{"owner 1, Token-2022", func() ([]rpcapi.KeyedAccount, error) {
			return byOwner(f.owner1, program(core.Token2022ProgramID), base64)
		},
			keyStrings(f.acct4)},
		{"owner 1, mint B (Token-2022 through the mint)", func() ([]rpcapi.KeyedAccount, error) { return byOwner(f.owner1, mint(f.mintB), base64) },
			keyStrings(f.acct4)},
		{"owner 1, wrapped SOL", func() ([]rpcapi.KeyedAccount, error) { return byOwner(f.owner1, mint(core.NativeMintID), parsed) },
			keyStrings(f.wsol)},
		{"unknown owner", func() ([]rpcapi.KeyedAccount, error) { return byOwner(tkKey(0x7f), program(core.TokenProgramID), nil) },
			keyStrings()},
		{"the frozen account's owner", func() ([]rpcapi.KeyedAccount, error) { return byOwner(f.owner3, mint(f.mintA), base64) },
			keyStrings(f.frozen)},
		{"delegate", func() ([]rpcapi.KeyedAccount, error) {
			return byDelegate(f.delegate, program(core.TokenProgramID), base64)
		},
			keyStrings(f.acct1)},
		{"delegate, mint A", func() ([]rpcapi.KeyedAccount, error) { return byDelegate(f.delegate, mint(f.mintA), parsed) },
			keyStrings(f.acct1)},
		{"delegate, mint B", func() ([]rpcapi.KeyedAccount, error) { return byDelegate(f.delegate, mint(f.mintB), base64) },
			keyStrings()},
		{"delegate, Token-2022", func() ([]rpcapi.KeyedAccount, error) {
			return byDelegate(f.delegate, program(core.Token2022ProgramID), base64)
		},
			keyStrings()},
	}
	for _, tt := range lists {
		got, err := tt.call()
		if err != nil {
			t.Errorf("%s: %v", tt.what, err)
			continue
		}
		if !slices.Equal(keysOf(got), tt.want) {
			t.Errorf("%s: %v, want %v", tt.what, keysOf(got), tt.want)
		}
	}

	// The shapes: base64 and jsonParsed of the delegated account; Token-2022 with its extension.
	got, _ := byDelegate(f.delegate, mint(f.mintA), parsed)
	want := f.expand(`[{"pubkey":"$acct1","account":{"lamports":2039280,"owner":"$token","data":{"program":"spl-token","parsed":{"info":{` +
		`"delegate":"$delegate","delegatedAmount":{"amount":"500","decimals":2,"uiAmount":5.0,"uiAmountString":"5"},"isNative":false,"mint":"$mintA",` +
		`"owner":"$owner1","state":"initialized","tokenAmount":{"amount":"500","decimals":2,"uiAmount":5.0,"uiAmountString":"5"}},"type":"account"},"space":165},` +
		`"executable":false,"rentEpoch":18446744073709551615,"space":165}}]`)
	if s := tkJSON(t, got); s != want {
		t.Errorf("jsonParsed by delegate:\n got %s\nwant %s", s, want)
	}
	got, _ = byOwner(f.owner1, mint(f.mintB), parsed)
	want = f.expand(`[{"pubkey":"$acct4","account":{"lamports":2039280,"owner":"$token22","data":{"program":"spl-token-2022","parsed":{"info":{` +
		`"extensions":[{"extension":"immutableOwner"}],"isNative":false,"mint":"$mintB","owner":"$owner1","state":"initialized",` +
		`"tokenAmount":{"amount":"7","decimals":6,"uiAmount":7e-6,"uiAmountString":"0.000007"}},"type":"account"},"space":170},` +
		`"executable":false,"rentEpoch":18446744073709551615,"space":170}}]`)
	if s := tkJSON(t, got); s != want {
		t.Errorf("jsonParsed Token-2022:\n got %s\nwant %s", s, want)
	}

	// The default encoding is binary, which refuses 165-byte accounts unless sliced.
	_, err := byOwner(f.owner1, mint(f.mintA), nil)
	tkWantError(t, "binary default", err, -32600, "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.")
	got, err = byOwner(f.owner1, mint(f.mintA), &rpcapi.AccountInfoConfig{DataSlice: &rpcapi.DataSlice{Offset: 0, Length: 32}})
	if err != nil || len(got) != 2 || got[0].Account.Data.Binary == nil || *got[0].Account.Data.Binary != base58.Encode(f.mintA[:]) {
		t.Errorf("binary slice: %s, %v", tkJSON(t, got), err)
	}

	// Errors, in the reference's texts.
	for _, tt := range []struct {
		what    string
		call    func() ([]rpcapi.KeyedAccount, error)
		code    int
		message string
	}{
		{"unrecognized program", func() ([]rpcapi.KeyedAccount, error) { return byOwner(f.owner1, program(core.SystemProgramID), base64) },
			-32602, "Invalid param: unrecognized Token program id"},
		{"missing mint", func() ([]rpcapi.KeyedAccount, error) { return byOwner(f.owner1, mint(f.missingMint), base64) },
			-32602, "Invalid param: could not find mint"},
		{"mint not owned by a token program", func() ([]rpcapi.KeyedAccount, error) { return byOwner(f.owner1, mint(f.fake), base64) },
			-32602, "Invalid param: not a Token mint"},
		{"mint that does not unpack", func() ([]rpcapi.KeyedAccount, error) { return byDelegate(f.delegate, mint(f.badMint), base64) },
			-32602, "Invalid param: Token mint could not be unpacked"},
		{"bad owner", func() ([]rpcapi.KeyedAccount, error) {
			r, err := viaJSON(f.s.GetTokenAccountsByOwner, "0OIl", program(core.TokenProgramID))
			return r.Value, err
		}, -32602, "Invalid param: Invalid"},
		{"bad mint", func() ([]rpcapi.KeyedAccount, error) {
			return byOwner(f.owner1, rpcapi.TokenAccountsFilter{Mint: &rpcapi.TokenAccountsFilterMint{Mint: "abc"}}, base64)
		}, -32602, "Invalid param: WrongSize"},
	} {
		_, err := tt.call()
		tkWantError(t, tt.what, err, tt.code, tt.message)
	}
	// minContextSlot past the bank: -32016, before the filter is looked at.
	_, err = byOwner(f.owner1, mint(f.missingMint), &rpcapi.AccountInfoConfig{MinContextSlot: tkPtr(uint64(1 << 40))})
	tkWantError(t, "minContextSlot", err, -32016, "Minimum context slot has not been reached")
	_, err = byDelegate(f.delegate, program(core.TokenProgramID), &rpcapi.AccountInfoConfig{Encoding: tkPtr(rpcapi.AccountEncodingBase64), MinContextSlot: tkPtr(uint64(1 << 40))})
	tkWantError(t, "minContextSlot by delegate", err, -32016, "Minimum context slot has not been reached")
}

// TestTokenProgramAccounts checks getProgramAccounts on both token programs: the owner memcmp served by the
// token index returns what a full scan filtered the same way returns, and tokenAccountState, dataSize and the
// mint memcmp behave as filters.
func TestTokenProgramAccounts(t *testing.T) {
	t.Parallel()
	f := newTokenFixture(t)
	ctx := context.Background()
	memcmp := func(offset uint64, b []byte) rpcapi.ProgramAccountsFilter {
		return rpcapi.ProgramAccountsFilter{Memcmp: &rpcapi.ProgramAccountsFilterMemcmp{Memcmp: rpcapi.MemcmpFilter{Offset: offset, Bytes: base58.Encode(b)}}}
	}
	dataSize := func(n uint64) rpcapi.ProgramAccountsFilter {
		return rpcapi.ProgramAccountsFilter{DataSize: &rpcapi.ProgramAccountsFilterDataSize{DataSize: n}}
	}
	state := rpcapi.ProgramAccountsFilter{TokenAccountState: tkPtr("tokenAccountState")}
	query := func(program core.Pubkey, enc rpcapi.AccountEncoding, filters ...rpcapi.ProgramAccountsFilter) []rpcapi.KeyedAccount {
		t.Helper()
		r, err := f.s.GetProgramAccounts(ctx, &rpcapi.GetProgramAccountsParams{ProgramId: program,
			Config: rpcapi.Some(rpcapi.ProgramAccountsConfig{Encoding: &enc, Filters: &filters, Commitment: tkPtr(rpcapi.CommitmentProcessed)})})
		if err != nil {
			t.Fatalf("getProgramAccounts: %v", err)
		}
		return *r.Accounts
	}
	// A full scan of the program, filtered here by the owner bytes.
	scanByOwner := func(program, owner core.Pubkey) []string {
		out := []string{}
		for _, k := range query(program, "base64") {
			d, err := base64Decode(k.Account.Data.Encoded[0])
			if err != nil {
				t.Fatal(err)
			}
			if len(d) >= 64 && string(d[32:64]) == string(owner[:]) {
				out = append(out, k.Pubkey)
			}
		}
		return out
	}
	tests := []struct {
		what    string
		program core.Pubkey
		enc     string
		filters []rpcapi.ProgramAccountsFilter
		want    []string
	}{
		{"owner memcmp", core.TokenProgramID, "base64", []rpcapi.ProgramAccountsFilter{memcmp(32, f.owner1[:])},
			scanByOwner(core.TokenProgramID, f.owner1)},
		{"owner memcmp, dataSize", core.TokenProgramID, "base64", []rpcapi.ProgramAccountsFilter{dataSize(165), memcmp(32, f.owner1[:])},
			keyStrings(f.acct1, f.acct2, f.acct5, f.wsol)},
		{"owner memcmp, jsonParsed", core.TokenProgramID, "jsonParsed", []rpcapi.ProgramAccountsFilter{memcmp(32, f.owner1[:]), state},
			keyStrings(f.acct1, f.acct2, f.wsol)},
		{"owner memcmp and amount", core.TokenProgramID, "base64", []rpcapi.ProgramAccountsFilter{memcmp(32, f.owner1[:]), memcmp(64, binary.LittleEndian.AppendUint64(nil, 300))},
			keyStrings(f.acct2)},
		{"owner memcmp, Token-2022", core.Token2022ProgramID, "base64", []rpcapi.ProgramAccountsFilter{memcmp(32, f.owner1[:])},
			scanByOwner(core.Token2022ProgramID, f.owner1)},
		{"owner memcmp, Token-2022 account type", core.Token2022ProgramID, "base64", []rpcapi.ProgramAccountsFilter{memcmp(32, f.owner2[:]), memcmp(165, []byte{2})},
			keyStrings()},
		{"Token-2022 account type", core.Token2022ProgramID, "base64", []rpcapi.ProgramAccountsFilter{memcmp(165, []byte{2})},
			keyStrings(f.acct4)},
		{"mint memcmp of token accounts", core.TokenProgramID, "base64", []rpcapi.ProgramAccountsFilter{memcmp(0, f.mintA[:]), dataSize(165)},
			keyStrings(f.acct1, f.acct2, f.acct3, f.frozen)},
		{"mint memcmp alone (scanned)", core.TokenProgramID, "base64", []rpcapi.ProgramAccountsFilter{memcmp(0, f.mintA[:])},
			keyStrings(f.acct1, f.acct2, f.acct3, f.frozen)},
		{"tokenAccountState", core.Token2022ProgramID, "base64", []rpcapi.ProgramAccountsFilter{state},
			keyStrings(f.acct4, f.scaled)},
		{"mints by size (wrapped SOL's is at genesis)", core.TokenProgramID, "base64", []rpcapi.ProgramAccountsFilter{dataSize(82)},
			sortedKeyStrings(core.NativeMintID, f.mintA, f.mintC, f.badMint)},
		{"uninitialized accounts are not token accounts", core.TokenProgramID, "base64", []rpcapi.ProgramAccountsFilter{dataSize(165), memcmp(108, []byte{0})},
			keyStrings(f.uninit)},
	}
	for _, tt := range tests {
		if got := keysOf(query(tt.program, rpcapi.AccountEncoding(tt.enc), tt.filters...)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.what, got, tt.want)
		}
	}
	if want := keyStrings(f.acct1, f.acct2, f.acct5, f.wsol); !slices.Equal(tests[0].want, want) {
		t.Errorf("full scan by owner 1: %v, want %v", tests[0].want, want)
	}

	// jsonParsed of a mint through getProgramAccounts, dataSlice ignored.
	r, err := f.s.GetProgramAccounts(ctx, &rpcapi.GetProgramAccountsParams{ProgramId: core.Token2022ProgramID,
		Config: rpcapi.Some(rpcapi.ProgramAccountsConfig{Encoding: tkPtr(rpcapi.AccountEncodingJsonParsed), DataSlice: &rpcapi.DataSlice{Length: 1},
			Filters: &[]rpcapi.ProgramAccountsFilter{memcmp(36, binary.LittleEndian.AppendUint64(nil, 7))}})})
	if err != nil {
		t.Fatal(err)
	}
	want := f.expand(`[{"pubkey":"$mintB","account":{"lamports":2039280,"owner":"$token22","data":{"program":"spl-token-2022","parsed":{"info":{` +
		`"decimals":6,"extensions":[{"extension":"mintCloseAuthority","state":{"closeAuthority":"$owner1"}}],"freezeAuthority":null,"isInitialized":true,` +
		`"mintAuthority":null,"supply":"7"},"type":"mint"},"space":202},"executable":false,"rentEpoch":18446744073709551615,"space":202}}]`)
	if s := tkJSON(t, *r.Accounts); s != want {
		t.Errorf("jsonParsed mint:\n got %s\nwant %s", s, want)
	}
}

func sortedKeyStrings(keys ...core.Pubkey) []string {
	slices.SortFunc(keys, func(a, b core.Pubkey) int { return a.Compare(b) })
	return keyStrings(keys...)
}

func base64Decode(s string) ([]byte, error) {
	b, reason := rustBase64Decode(s)
	if reason != "" {
		return nil, errors.New(reason)
	}
	return b, nil
}

// TestTokenBalancesMeta checks the transaction meta token balances: owner and programId present, amounts with
// the mint's decimals only.
func TestTokenBalancesMeta(t *testing.T) {
	t.Parallel()
	mint, owner := tkKey(1), tkKey(2)
	m := parse.StoredMeta(&ledger.TxMeta{
		PreTokenBalances: []ledger.TokenBalance{{AccountIndex: 1, Mint: mint, Owner: owner, ProgramID: core.TokenProgramID, Amount: 150, Decimals: 2}},
		PostTokenBalances: []ledger.TokenBalance{
			{AccountIndex: 1, Mint: mint, Owner: owner, ProgramID: core.TokenProgramID, Amount: 50, Decimals: 2},
			{AccountIndex: 3, Mint: mint, Owner: owner, ProgramID: core.Token2022ProgramID, Amount: 100, Decimals: 20},
		},
	})
	vars := strings.NewReplacer("$mint", mint.String(), "$owner", owner.String(), "$token22", core.Token2022ProgramID.String(), "$token", core.TokenProgramID.String())
	want := vars.Replace(`[{"accountIndex":1,"mint":"$mint","owner":"$owner","programId":"$token","uiTokenAmount":{"amount":"150","decimals":2,"uiAmount":1.5,"uiAmountString":"1.5"}}]`)
	if s := tkJSON(t, m.PreTokenBalances); s != want {
		t.Errorf("pre:\n got %s\nwant %s", s, want)
	}
	want = vars.Replace(`[{"accountIndex":1,"mint":"$mint","owner":"$owner","programId":"$token","uiTokenAmount":{"amount":"50","decimals":2,"uiAmount":0.5,"uiAmountString":"0.5"}},` +
		`{"accountIndex":3,"mint":"$mint","owner":"$owner","programId":"$token22","uiTokenAmount":{"amount":"100","decimals":20,"uiAmount":null,"uiAmountString":"0.000000000000000001"}}]`)
	if s := tkJSON(t, m.PostTokenBalances); s != want {
		t.Errorf("post:\n got %s\nwant %s", s, want)
	}
	// Without token accounts the lists are empty, not null.
	m = parse.StoredMeta(&ledger.TxMeta{})
	out, err := parse.EncodeTransaction(parse.TxWithMeta{Tx: core.NewTransferTx(core.KeypairFromSeed([32]byte{1}), tkKey(3), 1, core.Hash{}), Meta: m},
		rpcapi.TransactionEncodingJson, true, true)
	if err != nil {
		t.Fatal(err)
	}
	if s := tkJSON(t, out); !strings.Contains(s, `"preTokenBalances":[],"postTokenBalances":[]`) {
		t.Errorf("empty balances: %s", s)
	}
}
