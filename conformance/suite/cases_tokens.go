package suite

// Tokens (SPL Token and Token-2022). {{mint}}, {{tokenAccount}}, {{tokenOwner}} and {{tokenDelegate}} come from
// the "token mint and account" fixture, a hook the programs issue fills in; until then those cases are reported
// as not covered. A wallet is a valid key that is no token account or mint.

var tokenCases = group(
	// getTokenAccountBalance
	ok("getTokenAccountBalance", `["{{tokenAccount}}"]`),
	badKeys("getTokenAccountBalance", `["%s"]`),
	bad("getTokenAccountBalance", `["{{wallet}}"]`, -32602, "Invalid param: not a Token account"),
	bad("getTokenAccountBalance", `["{{fresh}}"]`, -32602, "Invalid param: could not find account"),

	// getTokenSupply
	ok("getTokenSupply", `["{{mint}}"]`),
	badKeys("getTokenSupply", `["%s"]`),
	bad("getTokenSupply", `["{{wallet}}"]`, -32602, "Invalid param: not a Token mint"),

	// getTokenLargestAccounts
	ok("getTokenLargestAccounts", `["{{mint}}"]`, contains("value", "address", "{{tokenAccount}}")),
	badKeys("getTokenLargestAccounts", `["%s"]`),
	// The reference unpacks the mint without checking its owner first (get_mint_decimals).
	bad("getTokenLargestAccounts", `["{{wallet}}"]`, -32602, "Invalid param: Token mint could not be unpacked"),

	// getTokenAccountsByOwner
	ok("getTokenAccountsByOwner", `["{{fresh}}",{"programId":"{{tokenProgram}}"}]`, value(`[]`)).named("an owner without token accounts"),
	ok("getTokenAccountsByOwner", `["{{tokenOwner}}",{"mint":"{{mint}}"},{"encoding":"jsonParsed"}]`,
		contains("value", "pubkey", "{{tokenAccount}}")),
	bad("getTokenAccountsByOwner", `["{{fresh}}",{"programId":"{{systemProgram}}"}]`, -32602, "Invalid param: unrecognized Token program id"),
	bad("getTokenAccountsByOwner", `["{{fresh}}",{"mint":"{{unfunded}}"}]`, -32602, "Invalid param: could not find mint"),
	badKeys("getTokenAccountsByOwner", `["{{fresh}}",{"mint":"%s"}]`),
	badParams("getTokenAccountsByOwner", `["{{fresh}}"]`).named("no filter"),

	// getTokenAccountsByDelegate
	ok("getTokenAccountsByDelegate", `["{{fresh}}",{"programId":"{{token2022Program}}"}]`, value(`[]`)).named("a delegate of nothing"),
	ok("getTokenAccountsByDelegate", `["{{tokenDelegate}}",{"mint":"{{mint}}"},{"encoding":"base64"}]`, contains("value", "pubkey", "{{tokenAccount}}")),
	bad("getTokenAccountsByDelegate", `["{{fresh}}",{"programId":"{{systemProgram}}"}]`, -32602, "Invalid param: unrecognized Token program id"),
	badKeys("getTokenAccountsByDelegate", `["%s",{"programId":"{{tokenProgram}}"}]`),
)
