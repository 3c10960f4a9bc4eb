package suite

import "fmt"

// Transactions: the faucet, sending, simulating, statuses and history. {{tx}} / {{tx64}} is a transfer of about
// 1000 lamports from {{wallet}} to {{recipient}}, signed over a fresh blockhash for each case and not yet sent;
// {{badSigTx}} has a spoiled signature, {{overdraftTx}} sends more than the wallet holds, {{staleTx}} names a
// blockhash no node made.

const (
	systemSuccess = "Program 11111111111111111111111111111111 success"
	v0Unsupported = `Transaction version (0) is not supported by the requesting client. ` +
		`Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0`
)

var transactionCases = group(
	// requestAirdrop
	ok("requestAirdrop", `["{{fresh2}}",1000000000]`),
	ok("requestAirdrop", `["{{fresh2}}",1000000000,{"commitment":"confirmed"}]`),
	badKeys("requestAirdrop", `["%s",1000000000]`),
	badParams("requestAirdrop", `["{{fresh2}}","lots"]`),
	badParams("requestAirdrop", `["{{fresh2}}"]`).named("no lamports"),

	// sendTransaction
	ok("sendTransaction", `["{{tx}}"]`, exact(`"{{txSig}}"`)).named("base58 (the default)"),
	ok("sendTransaction", `["{{tx64}}",{"encoding":"base64","preflightCommitment":"confirmed"}]`, exact(`"{{txSig}}"`)),
	ok("sendTransaction", `["{{tx64}}",{"encoding":"base64","skipPreflight":true,"maxRetries":0}]`, exact(`"{{txSig}}"`)),
	bad("sendTransaction", `["{{badSigTx}}"]`, -32002, "Transaction simulation failed: Transaction did not pass signature verification",
		at("data.err", `"SignatureFailure"`), at("data.fee", `null`)).named("a bad signature fails the preflight (3.x and later)"),
	bad("sendTransaction", `["{{overdraftTx}}"]`, -32002,
		"Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1",
		at("data.err", `{"InstructionError":[0,{"Custom":1}]}`), contains("data.logs", "", "Program 11111111111111111111111111111111 invoke [1]")).
		named("preflight failure carries the simulation, logs included"),
	bad("sendTransaction", `["{{staleTx}}"]`, -32002, "Transaction simulation failed: Blockhash not found", at("data.err", `"BlockhashNotFound"`),
		at("data.fee", `null`), at("data.preBalances", `null`), at("data.loadedAddresses", `null`)),
	badLike("sendTransaction", `["0OIl"]`, -32602, `^invalid base58 encoding`),
	badLike("sendTransaction", `["!!!!",{"encoding":"base64"}]`, -32602, `^invalid base64 encoding`),
	minContextSlot("sendTransaction", `["{{tx}}",%s]`),

	// simulateTransaction
	ok("simulateTransaction", `["{{tx}}"]`, at("value.err", `null`), contains("value.logs", "", systemSuccess),
		at("value.accounts", `null`), at("value.replacementBlockhash", `null`), at("value.fee", `5000`),
		length("value.preBalances", 3), length("value.postBalances", 3), at("value.preTokenBalances", `[]`),
		at("value.postTokenBalances", `[]`), at("value.loadedAddresses", `{"readonly":[],"writable":[]}`)).
		named("the fee, balances and loaded addresses of 3.x and later"),
	ok("simulateTransaction", `["{{tx64}}",{"encoding":"base64","commitment":"processed","sigVerify":true}]`, at("value.err", `null`)),
	ok("simulateTransaction", `["{{staleTx}}"]`, at("value.err", `"BlockhashNotFound"`)).named("an unknown blockhash is an err in the result"),
	ok("simulateTransaction", `["{{staleTx}}",{"replaceRecentBlockhash":true}]`, at("value.err", `null`),
		matches("value.replacementBlockhash.blockhash", `^[1-9A-HJ-NP-Za-km-z]{32,44}$`)),
	ok("simulateTransaction", `["{{tx}}",{"accounts":{"addresses":["{{recipient}}","{{fresh}}"],"encoding":"base64"}}]`,
		length("value.accounts", 2), at("value.accounts.1", `null`)),
	ok("simulateTransaction", `["{{tx}}",{"innerInstructions":true}]`, at("value.innerInstructions", `[]`)),
	bad("simulateTransaction", `["{{tx}}",{"sigVerify":true,"replaceRecentBlockhash":true}]`, -32602,
		"sigVerify may not be used with replaceRecentBlockhash"),
	ok("simulateTransaction", `["{{badSigTx}}",{"sigVerify":true}]`, at("value.err", `"SignatureFailure"`)).
		named("a bad signature under sigVerify is the result's err (3.x and later)"),
	badLike("simulateTransaction", `["0OIl"]`, -32602, `^invalid base58 encoding`),
	bad("simulateTransaction", `["{{tx}}",{"accounts":{"addresses":["{{recipient}}"],"encoding":"base58"}}]`, -32602, "base58 encoding not supported"),
	minContextSlot("simulateTransaction", `["{{tx}}",%s]`),

	// getSignatureStatuses
	ok("getSignatureStatuses", `[["{{transferSig}}","{{freshSig}}"]]`, at("value.0.slot", `{{transferSlot}}`), at("value.0.err", `null`),
		at("value.0.status", `{"Ok":null}`), at("value.1", `null`)),
	ok("getSignatureStatuses", `[["{{airdropSig}}"],{"searchTransactionHistory":true}]`,
		at("value.0.confirmationStatus", `"finalized"`), at("value.0.confirmations", `null`)),
	ok("getSignatureStatuses", "["+repeated("{{freshSig}}", 256)+"]", length("value", 256)).named("256 signatures, the limit"),
	bad("getSignatureStatuses", "["+repeated("{{freshSig}}", 257)+"]", -32602, "Too many inputs provided; max 256").named("257 signatures"),
	badKeys("getSignatureStatuses", `[["%s"]]`),

	// getTransaction
	ok("getTransaction", `["{{transferSig}}"]`, at("slot", `{{transferSlot}}`), at("meta.fee", `5000`), at("meta.err", `null`),
		at("transaction.signatures.0", `"{{transferSig}}"`)),
	ok("getTransaction", `["{{transferSig}}",{"encoding":"jsonParsed","maxSupportedTransactionVersion":0}]`,
		at("version", `"legacy"`), at("transaction.message.instructions.0.program", `"system"`),
		at("transaction.message.instructions.0.parsed.type", `"transfer"`),
		at("transaction.message.instructions.0.parsed.info.lamports", fmt.Sprint(transferLamports))),
	ok("getTransaction", `["{{transferSig}}",{"encoding":"base64","commitment":"confirmed"}]`, at("transaction.1", `"base64"`)),
	ok("getTransaction", `["{{transferSig}}","base58"]`, at("transaction.1", `"base58"`)).named("the encoding as a bare string"),
	ok("getTransaction", `["{{freshSig}}"]`, exact(`null`)).named("an unknown signature is null"),
	ok("getTransaction", `["{{v0Sig}}",{"maxSupportedTransactionVersion":0}]`, at("version", `0`)).named("a version 0 transaction"),
	bad("getTransaction", `["{{v0Sig}}"]`, -32015, v0Unsupported).named("a version 0 transaction without maxSupportedTransactionVersion"),
	processedRejected("getTransaction", `["{{transferSig}}",%s]`),
	badKeys("getTransaction", `["%s"]`),

	// getSignaturesForAddress
	ok("getSignaturesForAddress", `["{{wallet}}"]`, contains("", "signature", "{{transferSig}}"), contains("", "signature", "{{airdropSig}}")),
	ok("getSignaturesForAddress", `["{{wallet}}",{"limit":1,"commitment":"confirmed"}]`, length("", 1)),
	ok("getSignaturesForAddress", `["{{wallet}}",{"before":"{{transferSig}}"}]`, contains("", "signature", "{{airdropSig}}")),
	ok("getSignaturesForAddress", `["{{fresh}}"]`, exact(`[]`)),
	bad("getSignaturesForAddress", `["{{wallet}}",{"limit":1001}]`, -32602, "Invalid limit; max 1000"),
	bad("getSignaturesForAddress", `["{{wallet}}",{"limit":0}]`, -32602, "Invalid limit; max 1000"),
	processedRejected("getSignaturesForAddress", `["{{wallet}}",%s]`),
	badKeys("getSignaturesForAddress", `["%s"]`),
	minContextSlot("getSignaturesForAddress", `["{{wallet}}",%s]`),
)
