package suite

import "fmt"

// Blocks: the block of the prepared transfer ({{transferSlot}}, finalized before the cases run) in each encoding
// and detail level, block lists, heights and times. A slot far beyond the tip (1e12) is a block no node has.

var blockCases = group(
	// getBlock
	ok("getBlock", `[{{transferSlot}},{"maxSupportedTransactionVersion":0}]`, blockHas("{{transferSig}}"),
		at("transactions.0.version", `"legacy"`)).named("json, full details"),
	ok("getBlock", `[{{transferSlot}},{"encoding":"jsonParsed","maxSupportedTransactionVersion":0}]`, blockHas("{{transferSig}}")),
	ok("getBlock", `[{{transferSlot}},{"encoding":"base64","maxSupportedTransactionVersion":0}]`, at("transactions.0.transaction.1", `"base64"`)),
	ok("getBlock", `[{{transferSlot}},{"encoding":"base58","commitment":"confirmed"}]`, at("transactions.0.transaction.1", `"base58"`)),
	ok("getBlock", `[{{transferSlot}},{"transactionDetails":"signatures","rewards":false}]`, contains("signatures", "", "{{transferSig}}")),
	ok("getBlock", `[{{transferSlot}},{"transactionDetails":"accounts","maxSupportedTransactionVersion":0}]`,
		blockHas("{{transferSig}}")),
	ok("getBlock", `[{{transferSlot}},{"transactionDetails":"none"}]`, matches("blockhash", `^[1-9A-HJ-NP-Za-km-z]{32,44}$`)),
	ok("getBlock", `[{{transferSlot}},"json"]`, blockHas("{{transferSig}}")).named("the encoding as a bare string"),
	ok("getBlock", `[{{v0Slot}},{"maxSupportedTransactionVersion":0}]`, blockHas("{{v0Sig}}")).named("a block with a version 0 transaction"),
	bad("getBlock", `[{{v0Slot}}]`, -32015, v0Unsupported).named("a version 0 transaction without maxSupportedTransactionVersion"),
	processedRejected("getBlock", `[{{transferSlot}},%s]`),
	bad("getBlock", `[1000000000000]`, -32004, "Block not available for slot 1000000000000"),
	badParams("getBlock", `["x"]`),
	badParams("getBlock", `[{{transferSlot}},{"transactionDetails":"most"}]`),

	// getBlockHeight
	ok("getBlockHeight", ``, atLeast("", "1")),
	ok("getBlockHeight", `[{"commitment":"processed"}]`, atLeast("", "1")),
	minContextSlot("getBlockHeight", `[%s]`),
	badCommitment("getBlockHeight", `[%s]`),

	// getBlocks
	ok("getBlocks", `[{{airdropSlot}},{{transferSlot}}]`, contains("", "", "{{airdropSlot}}"), contains("", "", "{{transferSlot}}")),
	ok("getBlocks", `[{{transferSlot}}]`, contains("", "", "{{transferSlot}}")).named("no end slot"),
	ok("getBlocks", `[{{transferSlot}},{"commitment":"confirmed"}]`, contains("", "", "{{transferSlot}}")).named("the config in the end slot's place"),
	ok("getBlocks", `[1000000000000]`, exact(`[]`)).named("a range beyond the tip is empty"),
	processedRejected("getBlocks", `[{{transferSlot}},{{transferSlot}},%s]`),
	badParams("getBlocks", `["x"]`),

	// getBlocksWithLimit
	ok("getBlocksWithLimit", `[{{transferSlot}},1]`, exact(`[{{transferSlot}}]`)),
	ok("getBlocksWithLimit", `[{{airdropSlot}},1000,{"commitment":"confirmed"}]`, contains("", "", "{{transferSlot}}")),
	bad("getBlocksWithLimit", `[0,500001]`, -32602, "Limit too large; max 500000"),
	processedRejected("getBlocksWithLimit", `[0,1,%s]`),
	badParams("getBlocksWithLimit", `[0]`).named("no limit"),

	// getBlockTime
	ok("getBlockTime", `[{{transferSlot}}]`, atLeast("", "1600000000")).named("a block time, in seconds since 1970"),
	bad("getBlockTime", `[1000000000000]`, -32004, "Block not available for slot 1000000000000"),
	badParams("getBlockTime", `["x"]`),

	// getFirstAvailableBlock, minimumLedgerSlot
	ok("getFirstAvailableBlock", ``, atMost("", "{{airdropSlot}}")),
	noParams("getFirstAvailableBlock"),
	ok("minimumLedgerSlot", ``, atMost("", "{{airdropSlot}}")),
	noParams("minimumLedgerSlot"),
)

// blockHas: a block (json or jsonParsed, full details) holds the transaction with signature sig.
func blockHas(sig string) Check {
	return where("the block holds "+sig, func(g *Got) error {
		want := g.Vars.fill(sig)
		n, err := g.Len("transactions")
		if err != nil {
			return err
		}
		for i := range n {
			if s, err := g.Str(fmt.Sprintf("transactions.%d.transaction.signatures.0", i)); err == nil && s == want {
				return nil
			}
		}
		return fmt.Errorf("none of the %d transactions has signature %s", n, want)
	})
}
