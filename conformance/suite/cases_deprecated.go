package suite

import "ledgerd/generated/rpcapi"

// Deprecated methods: still served (clients older than their replacements call them), with the old shapes.

var deprecatedCases = group(
	// getConfirmedBlock (getBlock)
	ok(rpcapi.MethodGetConfirmedBlock, `[{{transferSlot}}]`, blockHas("{{transferSig}}")),
	ok(rpcapi.MethodGetConfirmedBlock, `[{{transferSlot}},{"encoding":"base64","transactionDetails":"signatures","rewards":false}]`,
		contains("signatures", "", "{{transferSig}}")),
	processedRejected(rpcapi.MethodGetConfirmedBlock, `[{{transferSlot}},%s]`),
	badParams(rpcapi.MethodGetConfirmedBlock, `["x"]`),

	// getConfirmedBlocks (getBlocks)
	ok(rpcapi.MethodGetConfirmedBlocks, `[{{airdropSlot}},{{transferSlot}}]`, contains("", "", "{{transferSlot}}")),
	processedRejected(rpcapi.MethodGetConfirmedBlocks, `[{{transferSlot}},{{transferSlot}},%s]`),
	badParams(rpcapi.MethodGetConfirmedBlocks, `["x"]`),

	// getConfirmedBlocksWithLimit (getBlocksWithLimit)
	ok(rpcapi.MethodGetConfirmedBlocksWithLimit, `[{{transferSlot}},1]`, exact(`[{{transferSlot}}]`)),
	bad(rpcapi.MethodGetConfirmedBlocksWithLimit, `[0,500001]`, -32602, "Limit too large; max 500000"),
	processedRejected(rpcapi.MethodGetConfirmedBlocksWithLimit, `[0,1,%s]`),

	// getConfirmedSignaturesForAddress2 (getSignaturesForAddress)
	ok(rpcapi.MethodGetConfirmedSignaturesForAddress2, `["{{wallet}}"]`, contains("", "signature", "{{transferSig}}")),
	ok(rpcapi.MethodGetConfirmedSignaturesForAddress2, `["{{wallet}}",{"limit":1}]`, length("", 1)),
	bad(rpcapi.MethodGetConfirmedSignaturesForAddress2, `["{{wallet}}",{"limit":1001}]`, -32602, "Invalid limit; max 1000"),
	badKeys(rpcapi.MethodGetConfirmedSignaturesForAddress2, `["%s"]`),

	// getConfirmedTransaction (getTransaction)
	ok(rpcapi.MethodGetConfirmedTransaction, `["{{transferSig}}"]`, at("slot", `{{transferSlot}}`), at("meta.fee", `5000`)),
	ok(rpcapi.MethodGetConfirmedTransaction, `["{{freshSig}}"]`, exact(`null`)),
	processedRejected(rpcapi.MethodGetConfirmedTransaction, `["{{transferSig}}",%s]`),
	badKeys(rpcapi.MethodGetConfirmedTransaction, `["%s"]`),

	// getFeeCalculatorForBlockhash (isBlockhashValid / getFeeForMessage)
	ok(rpcapi.MethodGetFeeCalculatorForBlockhash, `["{{blockhash}}"]`, at("value.feeCalculator.lamportsPerSignature", `5000`)),
	ok(rpcapi.MethodGetFeeCalculatorForBlockhash, `["{{freshHash}}"]`, value(`null`)).named("an unknown blockhash gives null"),
	badKeys(rpcapi.MethodGetFeeCalculatorForBlockhash, `["%s"]`),
	minContextSlot(rpcapi.MethodGetFeeCalculatorForBlockhash, `["{{blockhash}}",%s]`),

	// getFeeRateGovernor
	ok(rpcapi.MethodGetFeeRateGovernor, ``, at("value.feeRateGovernor.targetLamportsPerSignature", `10000`),
		at("value.feeRateGovernor.burnPercent", `50`)),
	noParams(rpcapi.MethodGetFeeRateGovernor),

	// getFees (getFeeForMessage)
	ok(rpcapi.MethodGetFees, ``, at("value.feeCalculator.lamportsPerSignature", `5000`), atLeast("value.lastValidBlockHeight", "1")),
	ok(rpcapi.MethodGetFees, `[{"commitment":"processed"}]`),
	badCommitment(rpcapi.MethodGetFees, `[%s]`),

	// getRecentBlockhash (getLatestBlockhash)
	ok(rpcapi.MethodGetRecentBlockhash, ``, at("value.feeCalculator.lamportsPerSignature", `5000`)),
	ok(rpcapi.MethodGetRecentBlockhash, `[{"commitment":"confirmed"}]`),
	badCommitment(rpcapi.MethodGetRecentBlockhash, `[%s]`),
)
