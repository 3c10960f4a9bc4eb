package suite

import "ledgerd/generated/rpcapi"

// Tokens (SPL Token and Token-2022). {{mint}}, {{tokenAccount}}, {{tokenOwner}} and {{tokenDelegate}} come from
// the "token mint and account" fixture, a hook the programs issue fills in; until then those cases are reported
// as not covered. A wallet is a valid key that is no token account or mint.

var tokenCases = group(
	// getTokenAccountBalance
	ok(rpcapi.MethodGetTokenAccountBalance, `["{{tokenAccount}}"]`),
	badKeys(rpcapi.MethodGetTokenAccountBalance, `["%s"]`),
	bad(rpcapi.MethodGetTokenAccountBalance, `["{{wallet}}"]`, -32602, "Invalid param: not a Token account"),
	bad(rpcapi.MethodGetTokenAccountBalance, `["{{fresh}}"]`, -32602, "Invalid param: could not find account"),

	// getTokenSupply
	ok(rpcapi.MethodGetTokenSupply, `["{{mint}}"]`),
	badKeys(rpcapi.MethodGetTokenSupply, `["%s"]`),
	bad(rpcapi.MethodGetTokenSupply, `["{{wallet}}"]`, -32602, "Invalid param: not a Token mint"),

	// getTokenLargestAccounts
	ok(rpcapi.MethodGetTokenLargestAccounts, `["{{mint}}"]`, contains("value", "address", "{{tokenAccount}}")),
	badKeys(rpcapi.MethodGetTokenLargestAccounts, `["%s"]`),
	// The reference unpacks the mint without checking its owner first (get_mint_decimals).
	bad(rpcapi.MethodGetTokenLargestAccounts, `["{{wallet}}"]`, -32602, "Invalid param: Token mint could not be unpacked"),

	// getTokenAccountsByOwner
	ok(rpcapi.MethodGetTokenAccountsByOwner, `["{{fresh}}",{"programId":"{{tokenProgram}}"}]`, value(`[]`)).named("an owner without token accounts"),
	ok(rpcapi.MethodGetTokenAccountsByOwner, `["{{tokenOwner}}",{"mint":"{{mint}}"},{"encoding":"jsonParsed"}]`,
		contains("value", "pubkey", "{{tokenAccount}}")),
	bad(rpcapi.MethodGetTokenAccountsByOwner, `["{{fresh}}",{"programId":"{{systemProgram}}"}]`, -32602, "Invalid param: unrecognized Token program id"),
	bad(rpcapi.MethodGetTokenAccountsByOwner, `["{{fresh}}",{"mint":"{{unfunded}}"}]`, -32602, "Invalid param: could not find mint"),
	badKeys(rpcapi.MethodGetTokenAccountsByOwner, `["{{fresh}}",{"mint":"%s"}]`),
	badParams(rpcapi.MethodGetTokenAccountsByOwner, `["{{fresh}}"]`).named("no filter"),

	// getTokenAccountsByDelegate
	ok(rpcapi.MethodGetTokenAccountsByDelegate, `["{{fresh}}",{"programId":"{{token2022Program}}"}]`, value(`[]`)).named("a delegate of nothing"),
	ok(rpcapi.MethodGetTokenAccountsByDelegate, `["{{tokenDelegate}}",{"mint":"{{mint}}"},{"encoding":"base64"}]`, contains("value", "pubkey", "{{tokenAccount}}")),
	bad(rpcapi.MethodGetTokenAccountsByDelegate, `["{{fresh}}",{"programId":"{{systemProgram}}"}]`, -32602, "Invalid param: unrecognized Token program id"),
	badKeys(rpcapi.MethodGetTokenAccountsByDelegate, `["%s",{"programId":"{{tokenProgram}}"}]`),
)
