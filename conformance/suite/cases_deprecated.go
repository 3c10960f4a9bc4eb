package suite

// Deprecated methods: still served (clients older than their replacements call them), with the old shapes.

var deprecatedCases = group(
	// getConfirmedBlock (getBlock)
	ok("getConfirmedBlock", `[{{transferSlot}}]`, blockHas("{{transferSig}}")),
	ok("getConfirmedBlock", `[{{transferSlot}},{"encoding":"base64","transactionDetails":"signatures","rewards":false}]`,
		contains("signatures", "", "{{transferSig}}")),
	processedRejected("getConfirmedBlock", `[{{transferSlot}},%s]`),
	badParams("getConfirmedBlock", `["x"]`),

	// getConfirmedBlocks (getBlocks)
	ok("getConfirmedBlocks", `[{{airdropSlot}},{{transferSlot}}]`, contains("", "", "{{transferSlot}}")),
	processedRejected("getConfirmedBlocks", `[{{transferSlot}},{{transferSlot}},%s]`),
	badParams("getConfirmedBlocks", `["x"]`),

	// getConfirmedBlocksWithLimit (getBlocksWithLimit)
	ok("getConfirmedBlocksWithLimit", `[{{transferSlot}},1]`, exact(`[{{transferSlot}}]`)),
	bad("getConfirmedBlocksWithLimit", `[0,500001]`, -32602, "Limit too large; max 500000"),
	processedRejected("getConfirmedBlocksWithLimit", `[0,1,%s]`),

	// getConfirmedSignaturesForAddress2 (getSignaturesForAddress)
	ok("getConfirmedSignaturesForAddress2", `["{{wallet}}"]`, contains("", "signature", "{{transferSig}}")),
	ok("getConfirmedSignaturesForAddress2", `["{{wallet}}",{"limit":1}]`, length("", 1)),
	bad("getConfirmedSignaturesForAddress2", `["{{wallet}}",{"limit":1001}]`, -32602, "Invalid limit; max 1000"),
	badKeys("getConfirmedSignaturesForAddress2", `["%s"]`),

	// getConfirmedTransaction (getTransaction)
	ok("getConfirmedTransaction", `["{{transferSig}}"]`, at("slot", `{{transferSlot}}`), at("meta.fee", `5000`)),
	ok("getConfirmedTransaction", `["{{freshSig}}"]`, exact(`null`)),
	processedRejected("getConfirmedTransaction", `["{{transferSig}}",%s]`),
	badKeys("getConfirmedTransaction", `["%s"]`),

	// getFeeCalculatorForBlockhash (isBlockhashValid / getFeeForMessage)
	ok("getFeeCalculatorForBlockhash", `["{{blockhash}}"]`, at("value.feeCalculator.lamportsPerSignature", `5000`)),
	ok("getFeeCalculatorForBlockhash", `["{{freshHash}}"]`, value(`null`)).named("an unknown blockhash gives null"),
	badKeys("getFeeCalculatorForBlockhash", `["%s"]`),
	minContextSlot("getFeeCalculatorForBlockhash", `["{{blockhash}}",%s]`),

	// getFeeRateGovernor
	ok("getFeeRateGovernor", ``, at("value.feeRateGovernor.targetLamportsPerSignature", `10000`),
		at("value.feeRateGovernor.burnPercent", `50`)),
	noParams("getFeeRateGovernor"),

	// getFees (getFeeForMessage)
	ok("getFees", ``, at("value.feeCalculator.lamportsPerSignature", `5000`), atLeast("value.lastValidBlockHeight", "1")),
	ok("getFees", `[{"commitment":"processed"}]`),
	badCommitment("getFees", `[%s]`),

	// getRecentBlockhash (getLatestBlockhash)
	ok("getRecentBlockhash", ``, at("value.feeCalculator.lamportsPerSignature", `5000`)),
	ok("getRecentBlockhash", `[{"commitment":"confirmed"}]`),
	badCommitment("getRecentBlockhash", `[%s]`),
)
