package parse

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"testing"

	"ledgerd/impl/core"
)

// ixKeys are the account keys of the parser tests: index 0 is the program, index i (1…12) is key(i).
func ixKeys(program core.Pubkey) []core.Pubkey {
	keys := []core.Pubkey{program}
	for i := byte(1); i <= 12; i++ {
		keys = append(keys, key(i))
	}
	return keys
}

// ixVars names the keys in expected texts: $k1 … $k12.
func ixVars() map[string]string {
	vars := map[string]string{}
	for i := byte(1); i <= 12; i++ {
		vars["k"+strconv.Itoa(int(i))] = key(i).String()
	}
	return vars
}

// parseIx parses data of program with the accounts at the given key indexes, as the top-level instruction.
func parseIx(t *testing.T, program core.Pubkey, data []byte, accounts ...uint8) string {
	t.Helper()
	got, err := ParseInstruction(0, accounts, data, ixKeys(program), nil)
	if err != nil {
		t.Fatal(err)
	}
	return marshal(t, got)
}

func bs(parts ...any) []byte {
	var b []byte
	for _, p := range parts {
		switch v := p.(type) {
		case int:
			b = append(b, byte(v))
		case byte:
			b = append(b, v)
		case []byte:
			b = append(b, v...)
		case core.Pubkey:
			b = append(b, v[:]...)
		case string:
			b = append(b, v...)
		case u16:
			b = binary.LittleEndian.AppendUint16(b, uint16(v))
		case u32:
			b = binary.LittleEndian.AppendUint32(b, uint32(v))
		case u64:
			b = binary.LittleEndian.AppendUint64(b, uint64(v))
		default:
			panic("bs: unknown part")
		}
	}
	return b
}

type (
	u16 uint16
	u32 uint32
	u64 uint64
)

func bstr(s string) []byte { return bs(u32(len(s)), s) }

var zeroKey core.Pubkey

func TestTokenInstructions(t *testing.T) {
	t.Parallel()
	k := key
	amount := func(a uint64, d int, ui, s string) string {
		return `{"amount":"` + strconv.FormatUint(a, 10) + `","decimals":` + strconv.Itoa(d) + `,"uiAmount":` + ui + `,"uiAmountString":"` + s + `"}`
	}
	batch := bs(255, 3, 9, bs(3, u64(7)), 1, 1, 17)
	tests := []struct {
		name     string
		data     []byte
		accounts []uint8
		want     string // the parsed value
	}{
		{"initializeMint", bs(0, 2, k(3), 1, k(4)), []uint8{1, 2},
			`{"info":{"decimals":2,"freezeAuthority":"$k4","mint":"$k1","mintAuthority":"$k3","rentSysvar":"$k2"},"type":"initializeMint"}`},
		{"initializeMint without freeze authority", bs(0, 2, k(3), 0), []uint8{1, 2},
			`{"info":{"decimals":2,"mint":"$k1","mintAuthority":"$k3","rentSysvar":"$k2"},"type":"initializeMint"}`},
		{"initializeMint2", bs(20, 9, k(3), 1, k(4), "trailing"), []uint8{1},
			`{"info":{"decimals":9,"freezeAuthority":"$k4","mint":"$k1","mintAuthority":"$k3"},"type":"initializeMint2"}`},
		{"initializeAccount", bs(1), []uint8{1, 2, 3, 4},
			`{"info":{"account":"$k1","mint":"$k2","owner":"$k3","rentSysvar":"$k4"},"type":"initializeAccount"}`},
		{"initializeAccount2", bs(16, k(5)), []uint8{1, 2, 3},
			`{"info":{"account":"$k1","mint":"$k2","owner":"$k5","rentSysvar":"$k3"},"type":"initializeAccount2"}`},
		{"initializeAccount3", bs(18, k(5)), []uint8{1, 2},
			`{"info":{"account":"$k1","mint":"$k2","owner":"$k5"},"type":"initializeAccount3"}`},
		{"initializeMultisig", bs(2, 2), []uint8{1, 2, 3, 4, 5},
			`{"info":{"m":2,"multisig":"$k1","rentSysvar":"$k2","signers":["$k3","$k4","$k5"]},"type":"initializeMultisig"}`},
		{"initializeMultisig2", bs(19, 1), []uint8{1, 3, 4},
			`{"info":{"m":1,"multisig":"$k1","signers":["$k3","$k4"]},"type":"initializeMultisig2"}`},
		{"transfer", bs(3, u64(math.MaxUint64)), []uint8{1, 2, 3},
			`{"info":{"amount":"18446744073709551615","authority":"$k3","destination":"$k2","source":"$k1"},"type":"transfer"}`},
		{"transfer by multisig", bs(3, u64(42)), []uint8{1, 2, 3, 4, 5},
			`{"info":{"amount":"42","destination":"$k2","multisigAuthority":"$k3","signers":["$k4","$k5"],"source":"$k1"},"type":"transfer"}`},
		{"approve", bs(4, u64(42)), []uint8{1, 2, 3},
			`{"info":{"amount":"42","delegate":"$k2","owner":"$k3","source":"$k1"},"type":"approve"}`},
		{"approve by multisig", bs(4, u64(42)), []uint8{1, 2, 3, 4},
			`{"info":{"amount":"42","delegate":"$k2","multisigOwner":"$k3","signers":["$k4"],"source":"$k1"},"type":"approve"}`},
		{"revoke", bs(5), []uint8{1, 2},
			`{"info":{"owner":"$k2","source":"$k1"},"type":"revoke"}`},
		{"setAuthority of a mint", bs(6, 0, 1, k(5)), []uint8{1, 2},
			`{"info":{"authority":"$k2","authorityType":"mintTokens","mint":"$k1","newAuthority":"$k5"},"type":"setAuthority"}`},
		{"setAuthority of an account to none", bs(6, 3, 0), []uint8{1, 2, 3},
			`{"info":{"account":"$k1","authorityType":"closeAccount","multisigAuthority":"$k2","newAuthority":null,"signers":["$k3"]},"type":"setAuthority"}`},
		{"setAuthority owner", bs(6, 2, 1, k(5)), []uint8{1, 2},
			`{"info":{"account":"$k1","authority":"$k2","authorityType":"accountOwner","newAuthority":"$k5"},"type":"setAuthority"}`},
		{"setAuthority pause", bs(6, 16, 0), []uint8{1, 2},
			`{"info":{"authority":"$k2","authorityType":"pause","mint":"$k1","newAuthority":null},"type":"setAuthority"}`},
		{"mintTo", bs(7, u64(42)), []uint8{1, 2, 3},
			`{"info":{"account":"$k2","amount":"42","mint":"$k1","mintAuthority":"$k3"},"type":"mintTo"}`},
		{"mintTo by multisig", bs(7, u64(42)), []uint8{1, 2, 3, 4},
			`{"info":{"account":"$k2","amount":"42","mint":"$k1","multisigMintAuthority":"$k3","signers":["$k4"]},"type":"mintTo"}`},
		{"burn", bs(8, u64(42)), []uint8{1, 2, 3},
			`{"info":{"account":"$k1","amount":"42","authority":"$k3","mint":"$k2"},"type":"burn"}`},
		{"closeAccount", bs(9), []uint8{1, 2, 3},
			`{"info":{"account":"$k1","destination":"$k2","owner":"$k3"},"type":"closeAccount"}`},
		{"closeAccount by multisig", bs(9), []uint8{1, 2, 3, 4},
			`{"info":{"account":"$k1","destination":"$k2","multisigOwner":"$k3","signers":["$k4"]},"type":"closeAccount"}`},
		{"freezeAccount", bs(10), []uint8{1, 2, 3},
			`{"info":{"account":"$k1","freezeAuthority":"$k3","mint":"$k2"},"type":"freezeAccount"}`},
		{"thawAccount by multisig", bs(11), []uint8{1, 2, 3, 4},
			`{"info":{"account":"$k1","mint":"$k2","multisigFreezeAuthority":"$k3","signers":["$k4"]},"type":"thawAccount"}`},
		{"transferChecked", bs(12, u64(55), 2), []uint8{1, 2, 3, 4},
			`{"info":{"authority":"$k4","destination":"$k3","mint":"$k2","source":"$k1","tokenAmount":` + amount(55, 2, "0.55", "0.55") + `},"type":"transferChecked"}`},
		{"transferChecked by multisig", bs(12, u64(100), 2), []uint8{1, 2, 3, 4, 5, 6},
			`{"info":{"destination":"$k3","mint":"$k2","multisigAuthority":"$k4","signers":["$k5","$k6"],"source":"$k1","tokenAmount":` + amount(100, 2, "1.0", "1") + `},"type":"transferChecked"}`},
		{"approveChecked", bs(13, u64(1), 9), []uint8{1, 2, 3, 4},
			`{"info":{"delegate":"$k3","mint":"$k2","owner":"$k4","source":"$k1","tokenAmount":` + amount(1, 9, "1e-9", "0.000000001") + `},"type":"approveChecked"}`},
		{"mintToChecked", bs(14, u64(42), 0), []uint8{1, 2, 3},
			`{"info":{"account":"$k2","mint":"$k1","mintAuthority":"$k3","tokenAmount":` + amount(42, 0, "42.0", "42") + `},"type":"mintToChecked"}`},
		{"burnChecked with 20 decimals", bs(15, u64(42), 20), []uint8{1, 2, 3},
			`{"info":{"account":"$k1","authority":"$k3","mint":"$k2","tokenAmount":` + amount(42, 20, "null", "0.00000000000000000042") + `},"type":"burnChecked"}`},
		{"syncNative", bs(17), []uint8{1},
			`{"info":{"account":"$k1"},"type":"syncNative"}`},
		{"getAccountDataSize", bs(21), []uint8{1},
			`{"info":{"mint":"$k1"},"type":"getAccountDataSize"}`},
		{"getAccountDataSize with extensions", bs(21, u16(7), u16(8), u16(25), u16(0)), []uint8{1},
			`{"info":{"extensionTypes":["immutableOwner","memoTransfer","scaledUiAmount","uninitialized"],"mint":"$k1"},"type":"getAccountDataSize"}`},
		{"initializeImmutableOwner", bs(22), []uint8{1},
			`{"info":{"account":"$k1"},"type":"initializeImmutableOwner"}`},
		{"amountToUiAmount", bs(23, u64(42)), []uint8{1},
			`{"info":{"amount":"42","mint":"$k1"},"type":"amountToUiAmount"}`},
		{"uiAmountToAmount", bs(24, "0.42"), []uint8{1},
			`{"info":{"mint":"$k1","uiAmount":"0.42"},"type":"uiAmountToAmount"}`},
		{"initializeMintCloseAuthority", bs(25, 1, k(5)), []uint8{1},
			`{"info":{"mint":"$k1","newAuthority":"$k5"},"type":"initializeMintCloseAuthority"}`},
		{"initializeMintCloseAuthority without authority", bs(25, 0), []uint8{1},
			`{"info":{"mint":"$k1","newAuthority":null},"type":"initializeMintCloseAuthority"}`},
		{"initializeTransferFeeConfig", bs(26, 0, 1, k(5), 1, k(6), u16(42), u64(2121)), []uint8{1},
			`{"info":{"maximumFee":2121,"mint":"$k1","transferFeeBasisPoints":42,"transferFeeConfigAuthority":"$k5","withdrawWithheldAuthority":"$k6"},"type":"initializeTransferFeeConfig"}`},
		{"initializeTransferFeeConfig without authorities", bs(26, 0, 0, 0, u16(42), u64(2121)), []uint8{1},
			`{"info":{"maximumFee":2121,"mint":"$k1","transferFeeBasisPoints":42},"type":"initializeTransferFeeConfig"}`},
		{"transferCheckedWithFee", bs(26, 1, u64(55), 2, u64(5)), []uint8{1, 2, 3, 4},
			`{"info":{"authority":"$k4","destination":"$k3","feeAmount":` + amount(5, 2, "0.05", "0.05") + `,"mint":"$k2","source":"$k1","tokenAmount":` + amount(55, 2, "0.55", "0.55") + `},"type":"transferCheckedWithFee"}`},
		{"withdrawWithheldTokensFromMint", bs(26, 2), []uint8{1, 2, 3},
			`{"info":{"feeRecipient":"$k2","mint":"$k1","withdrawWithheldAuthority":"$k3"},"type":"withdrawWithheldTokensFromMint"}`},
		{"withdrawWithheldTokensFromAccounts", bs(26, 3, 2), []uint8{1, 2, 3, 7, 8},
			`{"info":{"feeRecipient":"$k2","mint":"$k1","sourceAccounts":["$k7","$k8"],"withdrawWithheldAuthority":"$k3"},"type":"withdrawWithheldTokensFromAccounts"}`},
		{"withdrawWithheldTokensFromAccounts by multisig", bs(26, 3, 1), []uint8{1, 2, 3, 4, 5, 7},
			`{"info":{"feeRecipient":"$k2","mint":"$k1","multisigWithdrawWithheldAuthority":"$k3","signers":["$k4","$k5"],"sourceAccounts":["$k7"]},"type":"withdrawWithheldTokensFromAccounts"}`},
		{"harvestWithheldTokensToMint", bs(26, 4), []uint8{1, 7, 8},
			`{"info":{"mint":"$k1","sourceAccounts":["$k7","$k8"]},"type":"harvestWithheldTokensToMint"}`},
		{"setTransferFee by multisig", bs(26, 5, u16(1), u64(2)), []uint8{1, 2, 3},
			`{"info":{"maximumFee":2,"mint":"$k1","multisigtransferFeeConfigAuthority":"$k2","signers":["$k3"],"transferFeeBasisPoints":1},"type":"setTransferFee"}`},
		{"initializeDefaultAccountState", bs(28, 0, 2), []uint8{1},
			`{"info":{"accountState":"frozen","mint":"$k1"},"type":"initializeDefaultAccountState"}`},
		{"updateDefaultAccountState", bs(28, 1, 1), []uint8{1, 2},
			`{"info":{"accountState":"initialized","freezeAuthority":"$k2","mint":"$k1"},"type":"updateDefaultAccountState"}`},
		{"reallocate", bs(29, u16(2), u16(8)), []uint8{1, 2, 3, 4},
			`{"info":{"account":"$k1","extensionTypes":["transferFeeAmount","memoTransfer"],"owner":"$k4","payer":"$k2","systemProgram":"$k3"},"type":"reallocate"}`},
		{"enableRequiredMemoTransfers", bs(30, 0), []uint8{1, 2},
			`{"info":{"account":"$k1","owner":"$k2"},"type":"enableRequiredMemoTransfers"}`},
		{"disableRequiredMemoTransfers by multisig", bs(30, 1, "x"), []uint8{1, 2, 3, 4},
			`{"info":{"account":"$k1","multisigOwner":"$k2","signers":["$k3","$k4"]},"type":"disableRequiredMemoTransfers"}`},
		{"createNativeMint", bs(31), []uint8{1, 2, 3},
			`{"info":{"nativeMint":"$k2","payer":"$k1","systemProgram":"$k3"},"type":"createNativeMint"}`},
		{"initializeNonTransferableMint", bs(32), []uint8{1},
			`{"info":{"mint":"$k1"},"type":"initializeNonTransferableMint"}`},
		{"initializeInterestBearingConfig", bs(33, 0, k(5), u16(math.MaxUint16)), []uint8{1},
			`{"info":{"mint":"$k1","rate":-1,"rateAuthority":"$k5"},"type":"initializeInterestBearingConfig"}`},
		{"initializeInterestBearingConfig without authority", bs(33, 0, zeroKey, u16(500)), []uint8{1},
			`{"info":{"mint":"$k1","rate":500,"rateAuthority":null},"type":"initializeInterestBearingConfig"}`},
		{"updateInterestBearingConfigRate", bs(33, 1, u16(300)), []uint8{1, 2},
			`{"info":{"mint":"$k1","newRate":300,"rateAuthority":"$k2"},"type":"updateInterestBearingConfigRate"}`},
		{"enableCpiGuard", bs(34, 0), []uint8{1, 2},
			`{"info":{"account":"$k1","owner":"$k2"},"type":"enableCpiGuard"}`},
		{"disableCpiGuard", bs(34, 1), []uint8{1, 2},
			`{"info":{"account":"$k1","owner":"$k2"},"type":"disableCpiGuard"}`},
		{"initializePermanentDelegate", bs(35, k(5)), []uint8{1},
			`{"info":{"delegate":"$k5","mint":"$k1"},"type":"initializePermanentDelegate"}`},
		{"initializeTransferHook", bs(36, 0, k(5), k(6)), []uint8{1},
			`{"info":{"authority":"$k5","mint":"$k1","programId":"$k6"},"type":"initializeTransferHook"}`},
		{"initializeTransferHook without keys", bs(36, 0, zeroKey, zeroKey), []uint8{1},
			`{"info":{"mint":"$k1"},"type":"initializeTransferHook"}`},
		{"updateTransferHook", bs(36, 1, k(6)), []uint8{1, 2},
			`{"info":{"authority":"$k2","mint":"$k1","programId":"$k6"},"type":"updateTransferHook"}`},
		{"withdrawExcessLamports", bs(38), []uint8{1, 2, 3},
			`{"info":{"authority":"$k3","destination":"$k2","source":"$k1"},"type":"withdrawExcessLamports"}`},
		{"initializeMetadataPointer", bs(39, 0, k(5), k(6)), []uint8{1},
			`{"info":{"authority":"$k5","metadataAddress":"$k6","mint":"$k1"},"type":"initializeMetadataPointer"}`},
		{"updateMetadataPointer by multisig", bs(39, 1, k(6)), []uint8{1, 2, 3, 4},
			`{"info":{"metadataAddress":"$k6","mint":"$k1","multisigAuthority":"$k2","signers":["$k3","$k4"]},"type":"updateMetadataPointer"}`},
		{"initializeGroupPointer", bs(40, 0, zeroKey, k(6)), []uint8{1},
			`{"info":{"groupAddress":"$k6","mint":"$k1"},"type":"initializeGroupPointer"}`},
		{"updateGroupPointer", bs(40, 1, k(6)), []uint8{1, 2},
			`{"info":{"authority":"$k2","groupAddress":"$k6","mint":"$k1"},"type":"updateGroupPointer"}`},
		{"initializeGroupMemberPointer", bs(41, 0, k(5), k(6)), []uint8{1},
			`{"info":{"authority":"$k5","memberAddress":"$k6","mint":"$k1"},"type":"initializeGroupMemberPointer"}`},
		{"updateGroupMemberPointer", bs(41, 1, zeroKey), []uint8{1, 2},
			`{"info":{"authority":"$k2","mint":"$k1"},"type":"updateGroupMemberPointer"}`},
		{"initializeScaledUiAmountConfig", bs(43, 0, k(5), u64(math.Float64bits(1.5))), []uint8{1},
			`{"info":{"authority":"$k5","mint":"$k1","multiplier":"1.5"},"type":"initializeScaledUiAmountConfig"}`},
		{"updateMultiplier", bs(43, 1, u64(math.Float64bits(2)), u64(1700000000)), []uint8{1, 2},
			`{"info":{"authority":"$k2","mint":"$k1","newMultiplier":"2","newMultiplierTimestamp":1700000000},"type":"updateMultiplier"}`},
		{"initializePausableConfig", bs(44, 0, zeroKey), []uint8{1},
			`{"info":{"authority":null,"mint":"$k1"},"type":"initializePausableConfig"}`},
		{"pause", bs(44, 1), []uint8{1, 2},
			`{"info":{"authority":"$k2","mint":"$k1"},"type":"pause"}`},
		{"resume", bs(44, 2), []uint8{1, 2},
			`{"info":{"authority":"$k2","mint":"$k1"},"type":"resume"}`},
		{"unwrapLamports", bs(45, 1, u64(5)), []uint8{1, 2, 3},
			`{"info":{"amount":"5","authority":"$k3","destination":"$k2","source":"$k1"},"type":"unwrapLamports"}`},
		{"unwrapLamports of everything", bs(45, 0), []uint8{1, 2, 3},
			`{"info":{"authority":"$k3","destination":"$k2","source":"$k1"},"type":"unwrapLamports"}`},
		{"batch", batch, []uint8{1, 2, 3, 4},
			`{"info":{"instructions":[{"info":{"amount":"7","authority":"$k3","destination":"$k2","source":"$k1"},"type":"transfer"},{"info":{"account":"$k4"},"type":"syncNative"}]},"type":"batch"}`},
		// The token group and token metadata interfaces.
		{"initializeTokenGroup", bs(discInitializeGroup, k(5), u64(300)), []uint8{1, 2, 3},
			`{"info":{"group":"$k1","maxSize":300,"mint":"$k2","mintAuthority":"$k3","updateAuthority":"$k5"},"type":"initializeTokenGroup"}`},
		{"updateTokenGroupMaxSize", bs(discUpdateGroupMaxSize, u64(500)), []uint8{1, 2},
			`{"info":{"group":"$k1","maxSize":500,"updateAuthority":"$k2"},"type":"updateTokenGroupMaxSize"}`},
		{"updateTokenGroupAuthority to none", bs(discUpdateGroupAuthority, zeroKey), []uint8{1, 2},
			`{"info":{"group":"$k1","newAuthority":null,"updateAuthority":"$k2"},"type":"updateTokenGroupAuthority"}`},
		{"initializeTokenGroupMember", bs(discInitializeMember), []uint8{1, 2, 3, 4, 5},
			`{"info":{"group":"$k4","groupUpdateAuthority":"$k5","member":"$k1","memberMint":"$k2","memberMintAuthority":"$k3"},"type":"initializeTokenGroupMember"}`},
		{"initializeTokenMetadata", bs(discMetadataInitialize, bstr("Mega Token"), bstr("MEGA"), bstr("https://mega.com")), []uint8{1, 2, 3, 4},
			`{"info":{"metadata":"$k1","mint":"$k3","mintAuthority":"$k4","name":"Mega Token","symbol":"MEGA","updateAuthority":"$k2","uri":"https://mega.com"},"type":"initializeTokenMetadata"}`},
		{"updateTokenMetadataField uri", bs(discMetadataUpdateField, 2, bstr("https://ultra-mega.com")), []uint8{1, 2},
			`{"info":{"field":"uri","metadata":"$k1","updateAuthority":"$k2","value":"https://ultra-mega.com"},"type":"updateTokenMetadataField"}`},
		{"updateTokenMetadataField key", bs(discMetadataUpdateField, 3, bstr("new_field"), bstr("new_value")), []uint8{1, 2},
			`{"info":{"field":"new_field","metadata":"$k1","updateAuthority":"$k2","value":"new_value"},"type":"updateTokenMetadataField"}`},
		{"removeTokenMetadataKey", bs(discMetadataRemoveKey, 0, bstr("new_field")), []uint8{1, 2},
			`{"info":{"idempotent":false,"key":"new_field","metadata":"$k1","updateAuthority":"$k2"},"type":"removeTokenMetadataKey"}`},
		{"updateTokenMetadataAuthority", bs(discMetadataUpdateAuthority, k(6)), []uint8{1, 2},
			`{"info":{"metadata":"$k1","newAuthority":"$k6","updateAuthority":"$k2"},"type":"updateTokenMetadataAuthority"}`},
		{"emitTokenMetadata", bs(discMetadataEmit, 1, u64(1), 1, u64(2)), []uint8{1},
			`{"info":{"end":2,"metadata":"$k1","start":1},"type":"emitTokenMetadata"}`},
		{"emitTokenMetadata without range", bs(discMetadataEmit, 0, 0), []uint8{1},
			`{"info":{"metadata":"$k1"},"type":"emitTokenMetadata"}`},
	}
	vars := ixVars()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, program := range []core.Pubkey{core.TokenProgramID, core.Token2022ProgramID} {
				got := parseIx(t, program, tt.data, tt.accounts...)
				want := compact(t, `{"program":"spl-token","programId":"`+program.String()+`","parsed":`+tt.want+`,"stackHeight":null}`, vars)
				if got != want {
					t.Errorf("%s:\n got %s\nwant %s", program, got, want)
				}
			}
		})
	}
}

// TestTokenNotParsable: data TokenInstruction::unpack refuses (and that is no group or metadata instruction),
// or too few accounts, leave the instruction partially decoded.
func TestTokenNotParsable(t *testing.T) {
	t.Parallel()
	k := key
	tests := []struct {
		name     string
		data     []byte
		accounts []uint8
	}{
		{"empty data", nil, []uint8{1}},
		{"unknown tag", bs(99), []uint8{1}},
		{"short amount", bs(3, 1, 2, 3), []uint8{1, 2, 3}},
		{"transferChecked without decimals", bs(12, u64(1)), []uint8{1, 2, 3, 4}},
		{"transfer with two accounts", bs(3, u64(1)), []uint8{1, 2}},
		{"no accounts", bs(17), nil},
		{"initializeMint without the option tag", bs(0, 2, k(3)), []uint8{1, 2}},
		{"initializeMint with a bad option tag", bs(0, 2, k(3), 2), []uint8{1, 2}},
		{"setAuthority with an unknown type", bs(6, 18, 0), []uint8{1, 2}},
		{"uiAmountToAmount not UTF-8", bs(24, 0xff), []uint8{1}},
		{"getAccountDataSize odd byte", bs(21, u16(7), 1), []uint8{1}},
		{"getAccountDataSize unknown type", bs(21, u16(200)), []uint8{1}},
		{"default account state too long", bs(28, 0, 1, 0), []uint8{1}},
		{"default account state unknown state", bs(28, 0, 3), []uint8{1}},
		{"memo transfer without type", bs(30), []uint8{1, 2}},
		{"memo transfer one account", bs(30, 0), []uint8{1}},
		{"interest bearing short", bs(33, 0, k(5)), []uint8{1}},
		{"pointer trailing", bs(39, 1, k(6), 0), []uint8{1, 2}},
		{"confidential transfer", bs(27, 0), []uint8{1}},
		{"transfer fee unknown", bs(26, 9), []uint8{1}},
		{"withdraw withheld from too few accounts", bs(26, 3, 5), []uint8{1, 2, 3, 4}},
		{"nested batch", bs(255, 1, 1, 255), []uint8{1}},
		{"batch past its accounts", bs(255, 3, 1, 17), []uint8{1}},
		{"metadata trailing byte", bs(discMetadataEmit, 0, 0, 0), []uint8{1}},
		{"metadata bad bool", bs(discMetadataRemoveKey, 2, bstr("k")), []uint8{1, 2}},
		{"group short", bs(discUpdateGroupMaxSize, u32(1)), []uint8{1, 2}},
	}
	for _, tt := range tests {
		got := parseIx(t, core.TokenProgramID, tt.data, tt.accounts...)
		if !strings.HasPrefix(got, `{"programId":"`+core.TokenProgramID.String()+`","accounts":[`) {
			t.Errorf("%s: not partially decoded: %s", tt.name, got)
		}
	}
}

func TestAssociatedTokenInstructions(t *testing.T) {
	t.Parallel()
	vars := ixVars()
	prog := core.AssociatedTokenProgramID.String()
	tests := []struct {
		data     []byte
		accounts []uint8
		want     string
	}{
		{nil, []uint8{1, 2, 3, 4, 5, 6},
			`{"info":{"account":"$k2","mint":"$k4","source":"$k1","systemProgram":"$k5","tokenProgram":"$k6","wallet":"$k3"},"type":"create"}`},
		{nil, []uint8{1, 2, 3, 4, 5, 6, 7}, // the deprecated form with the rent sysvar
			`{"info":{"account":"$k2","mint":"$k4","source":"$k1","systemProgram":"$k5","tokenProgram":"$k6","wallet":"$k3"},"type":"create"}`},
		{[]byte{0}, []uint8{1, 2, 3, 4, 5, 6},
			`{"info":{"account":"$k2","mint":"$k4","source":"$k1","systemProgram":"$k5","tokenProgram":"$k6","wallet":"$k3"},"type":"create"}`},
		{[]byte{1}, []uint8{1, 2, 3, 4, 5, 6},
			`{"info":{"account":"$k2","mint":"$k4","source":"$k1","systemProgram":"$k5","tokenProgram":"$k6","wallet":"$k3"},"type":"createIdempotent"}`},
		{[]byte{2}, []uint8{1, 2, 3, 4, 5, 6, 7},
			`{"info":{"destination":"$k3","nestedMint":"$k2","nestedOwner":"$k4","nestedSource":"$k1","ownerMint":"$k5","tokenProgram":"$k7","wallet":"$k6"},"type":"recoverNested"}`},
	}
	for _, tt := range tests {
		got := parseIx(t, core.AssociatedTokenProgramID, tt.data, tt.accounts...)
		if want := compact(t, `{"program":"spl-associated-token-account","programId":"`+prog+`","parsed":`+tt.want+`,"stackHeight":null}`, vars); got != want {
			t.Errorf("data %v:\n got %s\nwant %s", tt.data, got, want)
		}
	}
	for _, bad := range []struct {
		data     []byte
		accounts []uint8
	}{
		{nil, []uint8{1, 2, 3, 4, 5}},
		{[]byte{2}, []uint8{1, 2, 3, 4, 5, 6}},
		{[]byte{3}, []uint8{1, 2, 3, 4, 5, 6}},
		{[]byte{1, 0}, []uint8{1, 2, 3, 4, 5, 6}},
		{nil, nil},
	} {
		if got := parseIx(t, core.AssociatedTokenProgramID, bad.data, bad.accounts...); !strings.HasPrefix(got, `{"programId":`) {
			t.Errorf("data %v accounts %v: parsed %s", bad.data, bad.accounts, got)
		}
	}
}

func TestAddressLookupTableInstructions(t *testing.T) {
	t.Parallel()
	vars := ixVars()
	prog := core.AddressLookupTableProgramID.String()
	tests := []struct {
		data     []byte
		accounts []uint8
		want     string
	}{
		{bs(u32(0), u64(42), 254), []uint8{1, 2, 3, 4},
			`{"info":{"bumpSeed":254,"lookupTableAccount":"$k1","lookupTableAuthority":"$k2","payerAccount":"$k3","recentSlot":42,"systemProgram":"$k4"},"type":"createLookupTable"}`},
		{bs(u32(1)), []uint8{1, 2},
			`{"info":{"lookupTableAccount":"$k1","lookupTableAuthority":"$k2"},"type":"freezeLookupTable"}`},
		{bs(u32(2), u64(0)), []uint8{1, 2},
			`{"info":{"lookupTableAccount":"$k1","lookupTableAuthority":"$k2","newAddresses":[]},"type":"extendLookupTable"}`},
		{bs(u32(2), u64(2), key(7), key(8)), []uint8{1, 2, 3, 4},
			`{"info":{"lookupTableAccount":"$k1","lookupTableAuthority":"$k2","newAddresses":["$k7","$k8"],"payerAccount":"$k3","systemProgram":"$k4"},"type":"extendLookupTable"}`},
		{bs(u32(2), u64(1), key(7)), []uint8{1, 2, 3},
			`{"info":{"lookupTableAccount":"$k1","lookupTableAuthority":"$k2","newAddresses":["$k7"]},"type":"extendLookupTable"}`},
		{bs(u32(3), "trailing"), []uint8{1, 2},
			`{"info":{"lookupTableAccount":"$k1","lookupTableAuthority":"$k2"},"type":"deactivateLookupTable"}`},
		{bs(u32(4)), []uint8{1, 2, 3},
			`{"info":{"lookupTableAccount":"$k1","lookupTableAuthority":"$k2","recipient":"$k3"},"type":"closeLookupTable"}`},
	}
	for _, tt := range tests {
		got := parseIx(t, core.AddressLookupTableProgramID, tt.data, tt.accounts...)
		if want := compact(t, `{"program":"address-lookup-table","programId":"`+prog+`","parsed":`+tt.want+`,"stackHeight":null}`, vars); got != want {
			t.Errorf("data %v:\n got %s\nwant %s", tt.data, got, want)
		}
	}
	for _, bad := range []struct {
		data     []byte
		accounts []uint8
	}{
		{bs(u32(0), u64(42), 254), []uint8{1, 2, 3}},
		{bs(u32(0), u64(42)), []uint8{1, 2, 3, 4}},
		{bs(u32(2), u64(2), key(7)), []uint8{1, 2}},
		{bs(u32(4)), []uint8{1, 2}},
		{bs(u32(5)), []uint8{1, 2, 3}},
		{bs(1, 0, 0), []uint8{1, 2}},
		{bs(u32(1)), nil},
	} {
		if got := parseIx(t, core.AddressLookupTableProgramID, bad.data, bad.accounts...); !strings.HasPrefix(got, `{"programId":`) {
			t.Errorf("data %v accounts %v: parsed %s", bad.data, bad.accounts, got)
		}
	}
}
