package suite

import (
	"encoding/base64"
	"fmt"
	"strings"

	"ledgerd/generated/rpcapi"
)

// Accounts: reading accounts, rent, supply and the faucet. {{wallet}} holds the airdrop, {{recipient}} received a
// transfer, {{fresh}} was never touched. Sysvars are used where a node's own accounts are needed, since every
// node has them (the Rent sysvar's burn percent, at offset 16, is 50 on a default cluster, whichever rent fields
// come before it: 3480 per byte-year and threshold 2, or since SIMD-0194 6960 and 1).

var (
	rentBurn = []byte{50}
	tooLong  = encode58(make([]byte, 129)) // a memcmp over the 128-byte limit
)

const oversized = "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding."

var accountCases = group(
	// getAccountInfo
	ok(rpcapi.MethodGetAccountInfo, `["{{fresh}}"]`, value(`null`)).named("a missing account is null"),
	ok(rpcapi.MethodGetAccountInfo, `["{{wallet}}"]`, at("value.data", `""`), at("value.owner", `"{{systemProgram}}"`),
		atLeast("value.lamports", "1"), at("value.space", `0`)).named("default encoding: binary, a bare base-58 string"),
	ok(rpcapi.MethodGetAccountInfo, `["{{wallet}}",{"encoding":"base64","commitment":"confirmed"}]`, at("value.data", `["","base64"]`)),
	ok(rpcapi.MethodGetAccountInfo, `["{{wallet}}",{"encoding":"base58","commitment":"processed"}]`, at("value.data", `["","base58"]`)),
	ok(rpcapi.MethodGetAccountInfo, `["{{wallet}}",{"encoding":"base64+zstd"}]`, at("value.data.1", `"base64+zstd"`)),
	ok(rpcapi.MethodGetAccountInfo, `["{{wallet}}",{"encoding":"jsonParsed"}]`, at("value.data", `["","base64"]`)).
		named("jsonParsed of a plain wallet falls back to base64"),
	ok(rpcapi.MethodGetAccountInfo, `["{{clockSysvar}}",{"encoding":"jsonParsed"}]`, at("value.data.program", `"sysvar"`),
		at("value.data.parsed.type", `"clock"`)),
	ok(rpcapi.MethodGetAccountInfo, `["{{clockSysvar}}",{"encoding":"base64","dataSlice":{"offset":8,"length":4}}]`,
		at("value.space", `40`), dataBytes("value.data.0", 4)),
	ok(rpcapi.MethodGetAccountInfo, `["{{slotHashesSysvar}}",{"encoding":"base58","dataSlice":{"offset":0,"length":16}}]`, dataBytes58("value.data.0", 16)).
		named("base58 of a large account is fine when the slice is small"),
	badKeys(rpcapi.MethodGetAccountInfo, `["%s"]`),
	minContextSlot(rpcapi.MethodGetAccountInfo, `["{{wallet}}",%s]`),
	badParams(rpcapi.MethodGetAccountInfo, `["{{wallet}}",{"encoding":"hex"}]`),
	badParams(rpcapi.MethodGetAccountInfo, `[]`).named("no params"),
	bad(rpcapi.MethodGetAccountInfo, `["{{slotHashesSysvar}}",{"encoding":"base58"}]`, -32600, oversized),

	// getBalance
	ok(rpcapi.MethodGetBalance, `["{{fresh}}"]`, value(`0`)),
	ok(rpcapi.MethodGetBalance, `["{{wallet}}"]`, atLeast("value", "1")),
	ok(rpcapi.MethodGetBalance, `["{{recipient}}",{"commitment":"confirmed"}]`, atLeast("value", fmt.Sprint(transferLamports))),
	ok(rpcapi.MethodGetBalance, `["{{wallet}}",{"commitment":"processed","minContextSlot":0}]`, atLeast("value", "1")),
	badKeys(rpcapi.MethodGetBalance, `["%s"]`),
	minContextSlot(rpcapi.MethodGetBalance, `["{{wallet}}",%s]`),
	badCommitment(rpcapi.MethodGetBalance, `["{{wallet}}",%s]`),
	badParams(rpcapi.MethodGetBalance, `["{{wallet}}",{},3]`).named("three params"),

	// getMultipleAccounts
	ok(rpcapi.MethodGetMultipleAccounts, `[["{{wallet}}","{{fresh}}"]]`, at("value.0.data", `["","base64"]`), at("value.1", `null`)).
		named("default encoding base64; a missing account is null"),
	ok(rpcapi.MethodGetMultipleAccounts, `[[]]`, value(`[]`)),
	ok(rpcapi.MethodGetMultipleAccounts, `[["{{clockSysvar}}","{{wallet}}"],{"encoding":"jsonParsed","commitment":"confirmed"}]`,
		at("value.0.data.program", `"sysvar"`), at("value.1.data", `["","base64"]`)),
	ok(rpcapi.MethodGetMultipleAccounts, "["+repeated("{{fresh}}", 100)+"]", length("value", 100)).named("100 keys, the limit"),
	bad(rpcapi.MethodGetMultipleAccounts, "["+repeated("{{fresh}}", 101)+"]", -32602, "Too many inputs provided; max 100").named("101 keys"),
	badKeys(rpcapi.MethodGetMultipleAccounts, `[["{{wallet}}","%s"]]`),
	minContextSlot(rpcapi.MethodGetMultipleAccounts, `[["{{wallet}}"],%s]`),
	bad(rpcapi.MethodGetMultipleAccounts, `[["{{slotHashesSysvar}}"],{"encoding":"base58"}]`, -32600, oversized),

	// getProgramAccounts (the sysvar owner: small and present on every node)
	ok(rpcapi.MethodGetProgramAccounts, `["{{sysvarOwner}}",{"encoding":"base64","dataSlice":{"offset":0,"length":0}}]`,
		contains("", "pubkey", "{{clockSysvar}}")).named("bare array by default"),
	ok(rpcapi.MethodGetProgramAccounts, `["{{sysvarOwner}}",{"encoding":"base64","withContext":true,"dataSlice":{"offset":0,"length":0}}]`,
		contains("value", "pubkey", "{{clockSysvar}}")).named("withContext wraps the list"),
	ok(rpcapi.MethodGetProgramAccounts, `["{{sysvarOwner}}",{"encoding":"base64","filters":[{"dataSize":40}]}]`,
		contains("", "pubkey", "{{clockSysvar}}")).named("dataSize filter"),
	ok(rpcapi.MethodGetProgramAccounts, `["{{sysvarOwner}}",{"encoding":"base64","filters":[{"memcmp":{"offset":16,"bytes":"`+encode58(rentBurn)+`"}}]}]`,
		contains("", "pubkey", "{{rentSysvar}}")).named("memcmp filter, base58 bytes"),
	ok(rpcapi.MethodGetProgramAccounts, `["{{sysvarOwner}}",{"encoding":"base64","filters":[{"memcmp":{"offset":16,"bytes":"`+base64.StdEncoding.EncodeToString(rentBurn)+`","encoding":"base64"}}]}]`,
		contains("", "pubkey", "{{rentSysvar}}")).named("memcmp filter, base64 bytes"),
	ok(rpcapi.MethodGetProgramAccounts, `["{{fresh}}"]`, exact(`[]`)).named("a program owning nothing"),
	badKeys(rpcapi.MethodGetProgramAccounts, `["%s"]`),
	bad(rpcapi.MethodGetProgramAccounts, `["{{sysvarOwner}}",{"filters":[`+strings.Repeat(`{"dataSize":1},`, 4)+`{"dataSize":1}]}]`,
		-32602, "Too many filters provided; max 4").named("five filters"),
	bad(rpcapi.MethodGetProgramAccounts, `["{{sysvarOwner}}",{"filters":[{"memcmp":{"offset":0,"bytes":"`+tooLong+`"}}]}]`,
		-32602, "Invalid param: DataTooLarge").named("memcmp bytes over 128"),
	bad(rpcapi.MethodGetProgramAccounts, `["{{sysvarOwner}}",{"encoding":"base58"}]`, -32600, oversized),
	minContextSlot(rpcapi.MethodGetProgramAccounts, `["{{sysvarOwner}}",%s]`),

	// getMinimumBalanceForRentExemption: (128 + len) × 6960 with the default Rent
	ok(rpcapi.MethodGetMinimumBalanceForRentExemption, `[0]`, exact(`890880`)),
	ok(rpcapi.MethodGetMinimumBalanceForRentExemption, `[165]`, exact(`2039280`)).named("a token account"),
	ok(rpcapi.MethodGetMinimumBalanceForRentExemption, `[82,{"commitment":"confirmed"}]`, exact(`1461600`)).named("a mint"),
	bad(rpcapi.MethodGetMinimumBalanceForRentExemption, `[10485761]`, -32600, "Invalid request").named("over 10 MiB"),
	badParams(rpcapi.MethodGetMinimumBalanceForRentExemption, `[-1]`),
	badParams(rpcapi.MethodGetMinimumBalanceForRentExemption, `["x"]`),

	// getLargestAccounts
	ok(rpcapi.MethodGetLargestAccounts, ``),
	ok(rpcapi.MethodGetLargestAccounts, `[{"filter":"circulating","commitment":"confirmed"}]`),
	ok(rpcapi.MethodGetLargestAccounts, `[{"filter":"nonCirculating"}]`),
	badParams(rpcapi.MethodGetLargestAccounts, `[{"filter":"bogus"}]`),
	badCommitment(rpcapi.MethodGetLargestAccounts, `[%s]`),

	// getSupply
	ok(rpcapi.MethodGetSupply, ``, atLeast("value.total", "1")),
	ok(rpcapi.MethodGetSupply, `[{"excludeNonCirculatingAccountsList":true}]`, at("value.nonCirculatingAccounts", `[]`)),
	badCommitment(rpcapi.MethodGetSupply, `[%s]`),
	badParams(rpcapi.MethodGetSupply, `[{"excludeNonCirculatingAccountsList":"yes"}]`),
)

// dataBytes: the base64 string at path decodes to n bytes.
func dataBytes(path string, n int) Check {
	return where(fmt.Sprintf("%s holds %d bytes", path, n), func(g *Got) error {
		s, err := g.Str(path)
		if err != nil {
			return err
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return fmt.Errorf("%s is not base64: %v", path, err)
		}
		if len(b) != n {
			return fmt.Errorf("%s holds %d bytes, want %d", path, len(b), n)
		}
		return nil
	})
}

// dataBytes58: the base58 string at path decodes to n bytes.
func dataBytes58(path string, n int) Check {
	return where(fmt.Sprintf("%s holds %d bytes", path, n), func(g *Got) error {
		s, err := g.Str(path)
		if err != nil {
			return err
		}
		b, err := decode58(s)
		if err != nil {
			return fmt.Errorf("%s is not base58: %v", path, err)
		}
		if len(b) != n {
			return fmt.Errorf("%s holds %d bytes, want %d", path, len(b), n)
		}
		return nil
	})
}
