package suite

import (
	"fmt"

	"ledgerd/generated/rpcapi"
)

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
	ok(rpcapi.MethodRequestAirdrop, `["{{fresh2}}",1000000000]`),
	ok(rpcapi.MethodRequestAirdrop, `["{{fresh2}}",1000000000,{"commitment":"confirmed"}]`),
	badKeys(rpcapi.MethodRequestAirdrop, `["%s",1000000000]`),
	badParams(rpcapi.MethodRequestAirdrop, `["{{fresh2}}","lots"]`),
	badParams(rpcapi.MethodRequestAirdrop, `["{{fresh2}}"]`).named("no lamports"),

	// sendTransaction
	ok(rpcapi.MethodSendTransaction, `["{{tx}}"]`, exact(`"{{txSig}}"`)).named("base58 (the default)"),
	ok(rpcapi.MethodSendTransaction, `["{{tx64}}",{"encoding":"base64","preflightCommitment":"confirmed"}]`, exact(`"{{txSig}}"`)),
	ok(rpcapi.MethodSendTransaction, `["{{tx64}}",{"encoding":"base64","skipPreflight":true,"maxRetries":0}]`, exact(`"{{txSig}}"`)),
	bad(rpcapi.MethodSendTransaction, `["{{badSigTx}}"]`, -32002, "Transaction simulation failed: Transaction did not pass signature verification",
		at("data.err", `"SignatureFailure"`), at("data.fee", `null`)).named("a bad signature fails the preflight (3.x and later)"),
	bad(rpcapi.MethodSendTransaction, `["{{overdraftTx}}"]`, -32002,
		"Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1",
		at("data.err", `{"InstructionError":[0,{"Custom":1}]}`), contains("data.logs", "", "Program 11111111111111111111111111111111 invoke [1]")).
		named("preflight failure carries the simulation, logs included"),
	bad(rpcapi.MethodSendTransaction, `["{{staleTx}}"]`, -32002, "Transaction simulation failed: Blockhash not found", at("data.err", `"BlockhashNotFound"`),
		at("data.fee", `null`), at("data.preBalances", `null`), at("data.loadedAddresses", `null`)),
	badLike(rpcapi.MethodSendTransaction, `["0OIl"]`, -32602, `^invalid base58 encoding`),
	badLike(rpcapi.MethodSendTransaction, `["!!!!",{"encoding":"base64"}]`, -32602, `^invalid base64 encoding`),
	minContextSlot(rpcapi.MethodSendTransaction, `["{{tx}}",%s]`),

	// simulateTransaction
	ok(rpcapi.MethodSimulateTransaction, `["{{tx}}"]`, at("value.err", `null`), contains("value.logs", "", systemSuccess),
		at("value.accounts", `null`), at("value.replacementBlockhash", `null`), at("value.fee", `5000`),
		length("value.preBalances", 3), length("value.postBalances", 3), at("value.preTokenBalances", `[]`),
		at("value.postTokenBalances", `[]`), at("value.loadedAddresses", `{"readonly":[],"writable":[]}`)).
		named("the fee, balances and loaded addresses of 3.x and later"),
	ok(rpcapi.MethodSimulateTransaction, `["{{tx64}}",{"encoding":"base64","commitment":"processed","sigVerify":true}]`, at("value.err", `null`)),
	ok(rpcapi.MethodSimulateTransaction, `["{{staleTx}}"]`, at("value.err", `"BlockhashNotFound"`)).named("an unknown blockhash is an err in the result"),
	ok(rpcapi.MethodSimulateTransaction, `["{{staleTx}}",{"replaceRecentBlockhash":true}]`, at("value.err", `null`),
		matches("value.replacementBlockhash.blockhash", `^[1-9A-HJ-NP-Za-km-z]{32,44}$`)),
	ok(rpcapi.MethodSimulateTransaction, `["{{tx}}",{"accounts":{"addresses":["{{recipient}}","{{fresh}}"],"encoding":"base64"}}]`,
		length("value.accounts", 2), at("value.accounts.1", `null`)),
	ok(rpcapi.MethodSimulateTransaction, `["{{tx}}",{"innerInstructions":true}]`, at("value.innerInstructions", `[]`)),
	bad(rpcapi.MethodSimulateTransaction, `["{{tx}}",{"sigVerify":true,"replaceRecentBlockhash":true}]`, -32602,
		"sigVerify may not be used with replaceRecentBlockhash"),
	ok(rpcapi.MethodSimulateTransaction, `["{{badSigTx}}",{"sigVerify":true}]`, at("value.err", `"SignatureFailure"`)).
		named("a bad signature under sigVerify is the result's err (3.x and later)"),
	badLike(rpcapi.MethodSimulateTransaction, `["0OIl"]`, -32602, `^invalid base58 encoding`),
	bad(rpcapi.MethodSimulateTransaction, `["{{tx}}",{"accounts":{"addresses":["{{recipient}}"],"encoding":"base58"}}]`, -32602, "base58 encoding not supported"),
	minContextSlot(rpcapi.MethodSimulateTransaction, `["{{tx}}",%s]`),

	// getSignatureStatuses
	ok(rpcapi.MethodGetSignatureStatuses, `[["{{transferSig}}","{{freshSig}}"]]`, at("value.0.slot", `{{transferSlot}}`), at("value.0.err", `null`),
		at("value.0.status", `{"Ok":null}`), at("value.1", `null`)),
	ok(rpcapi.MethodGetSignatureStatuses, `[["{{airdropSig}}"],{"searchTransactionHistory":true}]`,
		at("value.0.confirmationStatus", `"finalized"`), at("value.0.confirmations", `null`)),
	ok(rpcapi.MethodGetSignatureStatuses, "["+repeated("{{freshSig}}", 256)+"]", length("value", 256)).named("256 signatures, the limit"),
	bad(rpcapi.MethodGetSignatureStatuses, "["+repeated("{{freshSig}}", 257)+"]", -32602, "Too many inputs provided; max 256").named("257 signatures"),
	badKeys(rpcapi.MethodGetSignatureStatuses, `[["%s"]]`),

	// getTransaction
	ok(rpcapi.MethodGetTransaction, `["{{transferSig}}"]`, at("slot", `{{transferSlot}}`), at("meta.fee", `5000`), at("meta.err", `null`),
		at("transaction.signatures.0", `"{{transferSig}}"`)),
	ok(rpcapi.MethodGetTransaction, `["{{transferSig}}",{"encoding":"jsonParsed","maxSupportedTransactionVersion":0}]`,
		at("version", `"legacy"`), at("transaction.message.instructions.0.program", `"system"`),
		at("transaction.message.instructions.0.parsed.type", `"transfer"`),
		at("transaction.message.instructions.0.parsed.info.lamports", fmt.Sprint(transferLamports))),
	ok(rpcapi.MethodGetTransaction, `["{{transferSig}}",{"encoding":"base64","commitment":"confirmed"}]`, at("transaction.1", `"base64"`)),
	ok(rpcapi.MethodGetTransaction, `["{{transferSig}}","base58"]`, at("transaction.1", `"base58"`)).named("the encoding as a bare string"),
	ok(rpcapi.MethodGetTransaction, `["{{freshSig}}"]`, exact(`null`)).named("an unknown signature is null"),
	ok(rpcapi.MethodGetTransaction, `["{{v0Sig}}",{"maxSupportedTransactionVersion":0}]`, at("version", `0`)).named("a version 0 transaction"),
	bad(rpcapi.MethodGetTransaction, `["{{v0Sig}}"]`, -32015, v0Unsupported).named("a version 0 transaction without maxSupportedTransactionVersion"),
	processedRejected(rpcapi.MethodGetTransaction, `["{{transferSig}}",%s]`),
	badKeys(rpcapi.MethodGetTransaction, `["%s"]`),

	// getSignaturesForAddress
	ok(rpcapi.MethodGetSignaturesForAddress, `["{{wallet}}"]`, contains("", "signature", "{{transferSig}}"), contains("", "signature", "{{airdropSig}}")),
	ok(rpcapi.MethodGetSignaturesForAddress, `["{{wallet}}",{"limit":1,"commitment":"confirmed"}]`, length("", 1)),
	ok(rpcapi.MethodGetSignaturesForAddress, `["{{wallet}}",{"before":"{{transferSig}}"}]`, contains("", "signature", "{{airdropSig}}")),
	ok(rpcapi.MethodGetSignaturesForAddress, `["{{fresh}}"]`, exact(`[]`)),
	bad(rpcapi.MethodGetSignaturesForAddress, `["{{wallet}}",{"limit":1001}]`, -32602, "Invalid limit; max 1000"),
	bad(rpcapi.MethodGetSignaturesForAddress, `["{{wallet}}",{"limit":0}]`, -32602, "Invalid limit; max 1000"),
	processedRejected(rpcapi.MethodGetSignaturesForAddress, `["{{wallet}}",%s]`),
	badKeys(rpcapi.MethodGetSignaturesForAddress, `["%s"]`),
	minContextSlot(rpcapi.MethodGetSignaturesForAddress, `["{{wallet}}",%s]`),
)
