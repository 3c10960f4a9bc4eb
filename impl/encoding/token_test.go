package encoding

import (
	"encoding/binary"
	"math"
	"strings"
	"testing"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/core"
	"ledgerd/impl/core/sysvar"
	"ledgerd/impl/runtime"
)

// Token state built byte by byte, as the token programs lay it out.

func putCOptionKey(b []byte, k *core.Pubkey) {
	if k != nil {
		b[0] = 1
		copy(b[4:36], k[:])
	}
}

func testMint(authority *core.Pubkey, supply uint64, decimals uint8, freeze *core.Pubkey) []byte {
	b := make([]byte, TokenMintLen)
	putCOptionKey(b[0:36], authority)
	binary.LittleEndian.PutUint64(b[36:], supply)
	b[44] = decimals
	b[45] = 1
	putCOptionKey(b[46:82], freeze)
	return b
}

type testAcct struct {
	mint, owner     core.Pubkey
	amount          uint64
	delegate        *core.Pubkey
	state           uint8
	native          *uint64
	delegatedAmount uint64
	closeAuthority  *core.Pubkey
}

func (a testAcct) bytes() []byte {
	b := make([]byte, TokenAccountLen)
	copy(b[0:], a.mint[:])
	copy(b[32:], a.owner[:])
	binary.LittleEndian.PutUint64(b[64:], a.amount)
	putCOptionKey(b[72:108], a.delegate)
	b[108] = a.state
	if a.native != nil {
		b[109] = 1
		binary.LittleEndian.PutUint64(b[113:], *a.native)
	}
	binary.LittleEndian.PutUint64(b[121:], a.delegatedAmount)
	putCOptionKey(b[129:165], a.closeAuthority)
	return b
}

type tlv struct {
	typ   uint16
	value []byte
}

// extended appends Token-2022 extensions to a base state: zero padding to 165 bytes, the account type, and the
// TLV entries.
func extended(base []byte, accountType byte, entries ...tlv) []byte {
	b := append([]byte(nil), base...)
	for len(b) < TokenAccountLen {
		b = append(b, 0)
	}
	b = append(b, accountType)
	for _, e := range entries {
		b = binary.LittleEndian.AppendUint16(b, e.typ)
		b = binary.LittleEndian.AppendUint16(b, uint16(len(e.value)))
		b = append(b, e.value...)
	}
	return b
}

func cat(parts ...[]byte) []byte {
	var b []byte
	for _, p := range parts {
		b = append(b, p...)
	}
	return b
}

func le64(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
func le16(v uint16) []byte { return binary.LittleEndian.AppendUint16(nil, v) }

func borshStr(s string) []byte {
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(s))), s...)
}

// expand replaces $name placeholders (longest names first) so expected texts can name addresses.
func expand(s string, vars map[string]string) string {
	var pairs []string
	for k, v := range vars {
		pairs = append(pairs, "$"+k, v)
	}
	for i := 0; i < len(pairs); i += 2 {
		for j := i + 2; j < len(pairs); j += 2 {
			if len(pairs[j]) > len(pairs[i]) {
				pairs[i], pairs[i+1], pairs[j], pairs[j+1] = pairs[j], pairs[j+1], pairs[i], pairs[i+1]
			}
		}
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// testLookup serves accounts from a map.
func testLookup(accounts map[core.Pubkey]runtime.Account) Lookup {
	return func(k core.Pubkey) (runtime.Account, bool) {
		a, ok := accounts[k]
		return a, ok
	}
}

const intSecondsPerYear = 6 * 6 * 24 * 36524

// TestTokenParsedShapes compares the jsonParsed form of token state with the reference's shapes
// (account-decoder parse_token.rs and parse_token_extension.rs; keys sorted as serde_json::Value sorts them).
func TestTokenParsedShapes(t *testing.T) {
	t.Parallel()
	mintKey, ownerKey, delegateKey, extMint := core.Pubkey(fill(2)), core.Pubkey(fill(3)), core.Pubkey(fill(4)), core.Pubkey(fill(5))
	onesKey := core.Pubkey(fill(1))
	interestMint, scaledMint := core.Pubkey(fill(6)), core.Pubkey(fill(7))
	vars := map[string]string{
		"mint": mintKey.String(), "owner": ownerKey.String(), "delegate": delegateKey.String(),
		"extMint": extMint.String(), "native": core.NativeMintID.String(), "ones": ones,
		"interestMint": interestMint.String(), "scaledMint": scaledMint.String(),
	}
	reserve := uint64(2039280)

	// Mints: plain (2 decimals); Token-2022 with several extensions; interest-bearing (constant 5%, one year
	// old); scaled (2x since timestamp 0).
	interest := cat(make([]byte, 32), le64(0), le16(500), le64(intSecondsPerYear), le16(500))
	scaled := cat(ownerKey[:], le64(math.Float64bits(1)), le64(0), le64(math.Float64bits(2)))
	metadata := cat(ownerKey[:], extMint[:], borshStr("Mega Token"), borshStr("MEGA"), borshStr("https://mega.com"),
		binary.LittleEndian.AppendUint32(nil, 1), borshStr("k"), borshStr("v"))
	transferFee := cat(ownerKey[:], make([]byte, 32), le64(7), le64(1), le64(100), le16(10), le64(2), le64(200), le16(20))
	accounts := map[core.Pubkey]runtime.Account{
		mintKey:            {Owner: core.TokenProgramID, Data: testMint(&ownerKey, 42, 2, nil)},
		interestMint:       {Owner: core.Token2022ProgramID, Data: extended(testMint(nil, 0, 18, nil), accountTypeMint, tlv{extInterestBearingConfig, interest})},
		scaledMint:         {Owner: core.Token2022ProgramID, Data: extended(testMint(nil, 0, 18, nil), accountTypeMint, tlv{extScaledUiAmount, scaled})},
		core.SysvarClockID: {Owner: core.SysvarOwnerID, Data: (&sysvar.Clock{UnixTimestamp: intSecondsPerYear}).Marshal()},
	}
	const one = 1_000_000_000_000_000_000

	tests := []struct {
		name  string
		owner core.Pubkey
		data  []byte
		want  string // the parsed value (without program and space)
	}{
		{"account", core.TokenProgramID,
			testAcct{mint: mintKey, owner: ownerKey, amount: 42, state: TokenStateInitialized, closeAuthority: &ownerKey}.bytes(),
			`{"info":{"closeAuthority":"$owner","isNative":false,"mint":"$mint","owner":"$owner","state":"initialized","tokenAmount":{"amount":"42","decimals":2,"uiAmount":0.42,"uiAmountString":"0.42"}},"type":"account"}`},
		{"frozen account with a delegate", core.TokenProgramID,
			testAcct{mint: mintKey, owner: ownerKey, amount: 100, delegate: &delegateKey, state: TokenStateFrozen, delegatedAmount: 50}.bytes(),
			`{"info":{"delegate":"$delegate","delegatedAmount":{"amount":"50","decimals":2,"uiAmount":0.5,"uiAmountString":"0.5"},"isNative":false,"mint":"$mint","owner":"$owner","state":"frozen","tokenAmount":{"amount":"100","decimals":2,"uiAmount":1.0,"uiAmountString":"1"}},"type":"account"}`},
		{"wrapped SOL without its mint account", core.TokenProgramID,
			testAcct{mint: core.NativeMintID, owner: ownerKey, amount: 1_000_000_000, state: TokenStateInitialized, native: &reserve}.bytes(),
			`{"info":{"isNative":true,"mint":"$native","owner":"$owner","rentExemptReserve":{"amount":"2039280","decimals":9,"uiAmount":0.00203928,"uiAmountString":"0.00203928"},"state":"initialized","tokenAmount":{"amount":"1000000000","decimals":9,"uiAmount":1.0,"uiAmountString":"1"}},"type":"account"}`},
		{"mint", core.TokenProgramID, testMint(&ownerKey, 42, 3, &ownerKey),
			`{"info":{"decimals":3,"freezeAuthority":"$owner","isInitialized":true,"mintAuthority":"$owner","supply":"42"},"type":"mint"}`},
		{"mint without authorities", core.TokenProgramID, testMint(nil, 18446744073709551615, 0, nil),
			`{"info":{"decimals":0,"freezeAuthority":null,"isInitialized":true,"mintAuthority":null,"supply":"18446744073709551615"},"type":"mint"}`},
		{"multisig", core.TokenProgramID,
			cat([]byte{2, 3, 1}, onesKey[:], mintKey[:], ownerKey[:], make([]byte, 32*8)),
			`{"info":{"isInitialized":true,"numRequiredSigners":2,"numValidSigners":3,"signers":["$ones","$mint","$owner"]},"type":"multisig"}`},
		{"token-2022 account with extensions", core.Token2022ProgramID,
			extended(testAcct{mint: mintKey, owner: ownerKey, amount: 42, state: TokenStateInitialized, closeAuthority: &ownerKey}.bytes(), accountTypeAccount,
				tlv{extImmutableOwner, nil}, tlv{extMemoTransfer, []byte{1}}, tlv{extTransferFeeAmount, le64(9)}, tlv{extCpiGuard, []byte{0}},
				tlv{extNonTransferableAccount, nil}, tlv{extTransferHookAccount, []byte{1}}, tlv{extPausableAccount, nil}),
			`{"info":{"closeAuthority":"$owner","extensions":[{"extension":"immutableOwner"},{"extension":"memoTransfer","state":{"requireIncomingTransferMemos":true}},` +
				`{"extension":"transferFeeAmount","state":{"withheldAmount":9}},{"extension":"cpiGuard","state":{"lockCpi":false}},{"extension":"nonTransferableAccount"},` +
				`{"extension":"transferHookAccount","state":{"transferring":true}},{"extension":"pausableAccount"}],` +
				`"isNative":false,"mint":"$mint","owner":"$owner","state":"initialized","tokenAmount":{"amount":"42","decimals":2,"uiAmount":0.42,"uiAmountString":"0.42"}},"type":"account"}`},
		{"token-2022 account type without extensions", core.Token2022ProgramID,
			extended(testAcct{mint: mintKey, owner: ownerKey, state: TokenStateInitialized}.bytes(), accountTypeAccount),
			`{"info":{"isNative":false,"mint":"$mint","owner":"$owner","state":"initialized","tokenAmount":{"amount":"0","decimals":2,"uiAmount":0.0,"uiAmountString":"0"}},"type":"account"}`},
		{"token-2022 mint with extensions", core.Token2022ProgramID,
			extended(testMint(&ownerKey, 5, 6, nil), accountTypeMint,
				tlv{extMintCloseAuthority, ownerKey[:]}, tlv{extTransferFeeConfig, transferFee}, tlv{extDefaultAccountState, []byte{2}},
				tlv{extNonTransferable, nil}, tlv{extInterestBearingConfig, interest}, tlv{extPermanentDelegate, make([]byte, 32)},
				tlv{extMetadataPointer, cat(ownerKey[:], extMint[:])}, tlv{extTokenMetadata, metadata},
				tlv{extGroupPointer, cat(make([]byte, 32), extMint[:])}, tlv{extGroupMemberPointer, cat(ownerKey[:], make([]byte, 32))},
				tlv{extTokenGroup, cat(ownerKey[:], extMint[:], le64(1), le64(10))}, tlv{extTokenGroupMember, cat(extMint[:], extMint[:], le64(1))},
				tlv{extScaledUiAmount, scaled}, tlv{extPausable, cat(ownerKey[:], []byte{1})}, tlv{extTransferHook, cat(make([]byte, 32), ownerKey[:])}),
			`{"info":{"decimals":6,"extensions":[` +
				`{"extension":"mintCloseAuthority","state":{"closeAuthority":"$owner"}},` +
				`{"extension":"transferFeeConfig","state":{"newerTransferFee":{"epoch":2,"maximumFee":200,"transferFeeBasisPoints":20},"olderTransferFee":{"epoch":1,"maximumFee":100,"transferFeeBasisPoints":10},"transferFeeConfigAuthority":"$owner","withdrawWithheldAuthority":null,"withheldAmount":7}},` +
				`{"extension":"defaultAccountState","state":{"accountState":"frozen"}},` +
				`{"extension":"nonTransferable"},` +
				`{"extension":"interestBearingConfig","state":{"currentRate":500,"initializationTimestamp":0,"lastUpdateTimestamp":31556736,"preUpdateAverageRate":500,"rateAuthority":null}},` +
				`{"extension":"permanentDelegate","state":{"delegate":null}},` +
				`{"extension":"metadataPointer","state":{"authority":"$owner","metadataAddress":"$extMint"}},` +
				`{"extension":"tokenMetadata","state":{"additionalMetadata":[["k","v"]],"mint":"$extMint","name":"Mega Token","symbol":"MEGA","updateAuthority":"$owner","uri":"https://mega.com"}},` +
				`{"extension":"groupPointer","state":{"authority":null,"groupAddress":"$extMint"}},` +
				`{"extension":"groupMemberPointer","state":{"authority":"$owner","memberAddress":null}},` +
				`{"extension":"tokenGroup","state":{"maxSize":10,"mint":"$extMint","size":1,"updateAuthority":"$owner"}},` +
				`{"extension":"tokenGroupMember","state":{"group":"$extMint","memberNumber":1,"mint":"$extMint"}},` +
				`{"extension":"scaledUiAmountConfig","state":{"authority":"$owner","multiplier":"1","newMultiplier":"2","newMultiplierEffectiveTimestamp":0}},` +
				`{"extension":"pausableConfig","state":{"authority":"$owner","paused":true}},` +
				`{"extension":"transferHook","state":{"authority":null,"programId":"$owner"}}` +
				`],"freezeAuthority":null,"isInitialized":true,"mintAuthority":"$owner","supply":"5"},"type":"mint"}`},
		{"confidential extensions", core.Token2022ProgramID,
			extended(testMint(nil, 0, 0, nil), accountTypeMint,
				tlv{extConfidentialTransferMint, cat(ownerKey[:], []byte{1}, make([]byte, 32))},
				tlv{extConfidentialTransferFeeConfig, cat(make([]byte, 32), onesKey[:], []byte{0}, make([]byte, 64))}),
			`{"info":{"decimals":0,"extensions":[` +
				`{"extension":"confidentialTransferMint","state":{"auditorElgamalPubkey":null,"authority":"$owner","autoApproveNewAccounts":true}},` +
				`{"extension":"confidentialTransferFeeConfig","state":{"authority":null,"harvestToMintEnabled":false,"withdrawWithheldAuthorityElgamalPubkey":"AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=","withheldAmount":"` + strings.Repeat("A", 86) + `=="}}` +
				`],"freezeAuthority":null,"isInitialized":true,"mintAuthority":null,"supply":"0"},"type":"mint"}`},
		{"unparseable extensions", core.Token2022ProgramID,
			extended(testAcct{mint: mintKey, owner: ownerKey, state: TokenStateInitialized}.bytes(), accountTypeAccount,
				tlv{extMemoTransfer, []byte{1, 0}}, tlv{extMintCloseAuthority, ownerKey[:]}, tlv{extImmutableOwner, nil}),
			`{"info":{"extensions":[{"extension":"unparseableExtension"},{"extension":"unparseableExtension"},{"extension":"immutableOwner"}],` +
				`"isNative":false,"mint":"$mint","owner":"$owner","state":"initialized","tokenAmount":{"amount":"0","decimals":2,"uiAmount":0.0,"uiAmountString":"0"}},"type":"account"}`},
		{"an unknown extension type hides all extensions", core.Token2022ProgramID,
			extended(testAcct{mint: mintKey, owner: ownerKey, state: TokenStateInitialized}.bytes(), accountTypeAccount,
				tlv{extImmutableOwner, nil}, tlv{999, []byte{1}}),
			`{"info":{"isNative":false,"mint":"$mint","owner":"$owner","state":"initialized","tokenAmount":{"amount":"0","decimals":2,"uiAmount":0.0,"uiAmountString":"0"}},"type":"account"}`},
		{"a trailing byte after the extensions", core.Token2022ProgramID,
			append(extended(testAcct{mint: mintKey, owner: ownerKey, state: TokenStateInitialized}.bytes(), accountTypeAccount, tlv{extImmutableOwner, nil}), 0),
			`{"info":{"extensions":[{"extension":"immutableOwner"}],"isNative":false,"mint":"$mint","owner":"$owner","state":"initialized","tokenAmount":{"amount":"0","decimals":2,"uiAmount":0.0,"uiAmountString":"0"}},"type":"account"}`},
		{"interest-bearing amounts at the clock", core.Token2022ProgramID,
			testAcct{mint: interestMint, owner: ownerKey, amount: one, state: TokenStateInitialized}.bytes(),
			`{"info":{"isNative":false,"mint":"$interestMint","owner":"$owner","state":"initialized","tokenAmount":{"amount":"1000000000000000000","decimals":18,"uiAmount":1.0512710963760241,"uiAmountString":"1.051271096376024117"}},"type":"account"}`},
		{"scaled amounts", core.Token2022ProgramID,
			testAcct{mint: scaledMint, owner: ownerKey, amount: one, state: TokenStateInitialized, delegate: &delegateKey, delegatedAmount: 3}.bytes(),
			`{"info":{"delegate":"$delegate","delegatedAmount":{"amount":"3","decimals":18,"uiAmount":6e-18,"uiAmountString":"0.000000000000000006"},"isNative":false,"mint":"$scaledMint","owner":"$owner","state":"initialized","tokenAmount":{"amount":"1000000000000000000","decimals":18,"uiAmount":2.0,"uiAmountString":"2"}},"type":"account"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			acct := runtime.Account{Lamports: 1, Owner: tt.owner, Data: tt.data}
			p, err := Parse(core.Pubkey{9}, acct, testLookup(accounts))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			program := "spl-token"
			if tt.owner == core.Token2022ProgramID {
				program = "spl-token-2022"
			}
			if p.Program != program || p.Space != uint64(len(tt.data)) {
				t.Errorf("program %q space %d, want %q %d", p.Program, p.Space, program, len(tt.data))
			}
			if got, want := mustJSON(t, p.Parsed), expand(tt.want, vars); got != want {
				t.Errorf("\n got %s\nwant %s", got, want)
			}
		})
	}
}

// TestTokenNotParsable lists token-owned data the reference does not parse; jsonParsed falls back to base64.
func TestTokenNotParsable(t *testing.T) {
	t.Parallel()
	mintKey, ownerKey, missing := core.Pubkey(fill(2)), core.Pubkey(fill(3)), core.Pubkey(fill(8))
	accounts := map[core.Pubkey]runtime.Account{
		mintKey: {Owner: core.TokenProgramID, Data: testMint(&ownerKey, 42, 2, nil)},
		missing: {Owner: core.TokenProgramID, Data: make([]byte, TokenMintLen)}, // an uninitialized mint
	}
	good := testAcct{mint: mintKey, owner: ownerKey, state: TokenStateInitialized}
	badState := good
	badState.state = 3
	badTag := good.bytes()
	badTag[72] = 2
	uninitMint := testMint(nil, 0, 0, nil)
	uninitMint[45] = 0
	badBoolMint := testMint(nil, 0, 0, nil)
	badBoolMint[45] = 2
	multisig := cat([]byte{1, 1, 0}, make([]byte, 32*11))
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"four bytes", make([]byte, 4)},
		{"uninitialized account", make([]byte, TokenAccountLen)},
		{"account with an unknown state", badState.bytes()},
		{"account with a bad option tag", badTag},
		{"account whose mint is missing", testAcct{mint: core.Pubkey{1}, owner: ownerKey, state: 1}.bytes()},
		{"account whose mint is uninitialized", testAcct{mint: missing, owner: ownerKey, state: 1}.bytes()},
		{"uninitialized mint", uninitMint},
		{"mint with a bad bool", badBoolMint},
		{"uninitialized multisig", multisig},
		{"account of multisig length", append(good.bytes(), make([]byte, TokenMultisigLen-TokenAccountLen)...)},
		{"extended account of the mint type", extended(good.bytes(), accountTypeMint)},
		{"extended mint with non-zero padding", func() []byte {
			b := extended(testMint(nil, 0, 0, nil), accountTypeMint)
			b[100] = 1
			return b
		}()},
		{"mint of 100 bytes", append(testMint(nil, 0, 0, nil), make([]byte, 18)...)},
	}
	for _, tt := range tests {
		for _, owner := range []core.Pubkey{core.TokenProgramID, core.Token2022ProgramID} {
			if p, err := Parse(core.Pubkey{9}, runtime.Account{Owner: owner, Data: tt.data}, testLookup(accounts)); err == nil {
				t.Errorf("%s: Parse = %s, want an error", tt.name, mustJSON(t, p))
			}
		}
	}
}

func TestTokenAmount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		amount   uint64
		decimals uint8
		want     string
	}{
		{1, 0, `{"amount":"1","decimals":0,"uiAmount":1.0,"uiAmountString":"1"}`},
		{10, 0, `{"amount":"10","decimals":0,"uiAmount":10.0,"uiAmountString":"10"}`},
		{1, 9, `{"amount":"1","decimals":9,"uiAmount":1e-9,"uiAmountString":"0.000000001"}`},
		{1_000_000_000, 9, `{"amount":"1000000000","decimals":9,"uiAmount":1.0,"uiAmountString":"1"}`},
		{1_234_567_890, 3, `{"amount":"1234567890","decimals":3,"uiAmount":1234567.89,"uiAmountString":"1234567.89"}`},
		{1_234_567_890, 20, `{"amount":"1234567890","decimals":20,"uiAmount":null,"uiAmountString":"0.0000000000123456789"}`},
		{0, 0, `{"amount":"0","decimals":0,"uiAmount":0.0,"uiAmountString":"0"}`},
		{0, 9, `{"amount":"0","decimals":9,"uiAmount":0.0,"uiAmountString":"0"}`},
		{0, 20, `{"amount":"0","decimals":20,"uiAmount":null,"uiAmountString":"0"}`},
		{math.MaxUint64, 19, `{"amount":"18446744073709551615","decimals":19,"uiAmount":1.8446744073709551,"uiAmountString":"1.8446744073709551615"}`},
		{55, 2, `{"amount":"55","decimals":2,"uiAmount":0.55,"uiAmountString":"0.55"}`},
	}
	for _, tt := range tests {
		if got := mustJSON(t, TokenAmount(tt.amount, tt.decimals)); got != tt.want {
			t.Errorf("TokenAmount(%d, %d) = %s, want %s", tt.amount, tt.decimals, got, tt.want)
		}
	}
	// Infinities are written null, as serde_json writes them (encoding/json would refuse them).
	inf := rpcapi.Float(math.Inf(1))
	if got := mustJSON(t, (UiTokenAmount{Amount: "1", UiAmount: &inf, UiAmountString: "inf"}).RPC()); got !=
		`{"amount":"1","decimals":0,"uiAmount":null,"uiAmountString":"inf"}` {
		t.Errorf("an infinite uiAmount: %s", got)
	}
	if r := TokenAmount(55, 2).RPC(); r.UiAmount == nil || *r.UiAmount != 0.55 || r.UiAmountString != "0.55" || r.Amount != "55" {
		t.Errorf("RPC = %+v", r)
	}
}

// TestInterestAndScaledAmounts checks the interest-bearing and scaled-UI-amount strings against the token
// program's own tests (interest_bearing_mint and scaled_ui_amount).
func TestRustF64Display(t *testing.T) {
	t.Parallel()
	for in, want := range map[float64]string{
		2: "2", 0.5: "0.5", 1e-7: "0.0000001", 1e21: "1000000000000000000000", 1.25: "1.25",
		0: "0", math.Copysign(0, -1): "-0", -3.5: "-3.5", math.Inf(1): "inf", math.Inf(-1): "-inf",
		123456789.125: "123456789.125",
	} {
		if got := RustF64Display(in); got != want {
			t.Errorf("RustF64Display(%v) = %q, want %q", in, got, want)
		}
	}
	if got := RustF64Display(math.NaN()); got != "NaN" {
		t.Errorf("NaN: %q", got)
	}
}
