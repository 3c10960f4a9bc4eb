package suite

import (
	"fmt"

	"ledgerd/generated/rpcapi"
)

// Blocks: the block of the prepared transfer ({{transferSlot}}, finalized before the cases run) in each encoding
// and detail level, block lists, heights and times. A slot far beyond the tip (1e12) is a block no node has.

var blockCases = group(
	// getBlock
	ok(rpcapi.MethodGetBlock, `[{{transferSlot}},{"maxSupportedTransactionVersion":0}]`, blockHas("{{transferSig}}"),
		at("transactions.0.version", `"legacy"`)).named("json, full details"),
	ok(rpcapi.MethodGetBlock, `[{{transferSlot}},{"encoding":"jsonParsed","maxSupportedTransactionVersion":0}]`, blockHas("{{transferSig}}")),
	ok(rpcapi.MethodGetBlock, `[{{transferSlot}},{"encoding":"base64","maxSupportedTransactionVersion":0}]`, at("transactions.0.transaction.1", `"base64"`)),
	ok(rpcapi.MethodGetBlock, `[{{transferSlot}},{"encoding":"base58","commitment":"confirmed"}]`, at("transactions.0.transaction.1", `"base58"`)),
	ok(rpcapi.MethodGetBlock, `[{{transferSlot}},{"transactionDetails":"signatures","rewards":false}]`, contains("signatures", "", "{{transferSig}}")),
	ok(rpcapi.MethodGetBlock, `[{{transferSlot}},{"transactionDetails":"accounts","maxSupportedTransactionVersion":0}]`,
		blockHas("{{transferSig}}")),
	ok(rpcapi.MethodGetBlock, `[{{transferSlot}},{"transactionDetails":"none"}]`, matches("blockhash", `^[1-9A-HJ-NP-Za-km-z]{32,44}$`)),
	ok(rpcapi.MethodGetBlock, `[{{transferSlot}},"json"]`, blockHas("{{transferSig}}")).named("the encoding as a bare string"),
	ok(rpcapi.MethodGetBlock, `[{{v0Slot}},{"maxSupportedTransactionVersion":0}]`, blockHas("{{v0Sig}}")).named("a block with a version 0 transaction"),
	bad(rpcapi.MethodGetBlock, `[{{v0Slot}}]`, -32015, v0Unsupported).named("a version 0 transaction without maxSupportedTransactionVersion"),
	processedRejected(rpcapi.MethodGetBlock, `[{{transferSlot}},%s]`),
	bad(rpcapi.MethodGetBlock, `[1000000000000]`, -32004, "Block not available for slot 1000000000000"),
	badParams(rpcapi.MethodGetBlock, `["x"]`),
	badParams(rpcapi.MethodGetBlock, `[{{transferSlot}},{"transactionDetails":"most"}]`),

	// getBlockHeight
	ok(rpcapi.MethodGetBlockHeight, ``, atLeast("", "1")),
	ok(rpcapi.MethodGetBlockHeight, `[{"commitment":"processed"}]`, atLeast("", "1")),
	minContextSlot(rpcapi.MethodGetBlockHeight, `[%s]`),
	badCommitment(rpcapi.MethodGetBlockHeight, `[%s]`),

	// getBlocks
	ok(rpcapi.MethodGetBlocks, `[{{airdropSlot}},{{transferSlot}}]`, contains("", "", "{{airdropSlot}}"), contains("", "", "{{transferSlot}}")),
	ok(rpcapi.MethodGetBlocks, `[{{transferSlot}}]`, contains("", "", "{{transferSlot}}")).named("no end slot"),
	ok(rpcapi.MethodGetBlocks, `[{{transferSlot}},{"commitment":"confirmed"}]`, contains("", "", "{{transferSlot}}")).named("the config in the end slot's place"),
	ok(rpcapi.MethodGetBlocks, `[1000000000000]`, exact(`[]`)).named("a range beyond the tip is empty"),
	processedRejected(rpcapi.MethodGetBlocks, `[{{transferSlot}},{{transferSlot}},%s]`),
	badParams(rpcapi.MethodGetBlocks, `["x"]`),

	// getBlocksWithLimit
	ok(rpcapi.MethodGetBlocksWithLimit, `[{{transferSlot}},1]`, exact(`[{{transferSlot}}]`)),
	ok(rpcapi.MethodGetBlocksWithLimit, `[{{airdropSlot}},1000,{"commitment":"confirmed"}]`, contains("", "", "{{transferSlot}}")),
	bad(rpcapi.MethodGetBlocksWithLimit, `[0,500001]`, -32602, "Limit too large; max 500000"),
	processedRejected(rpcapi.MethodGetBlocksWithLimit, `[0,1,%s]`),
	badParams(rpcapi.MethodGetBlocksWithLimit, `[0]`).named("no limit"),

	// getBlockTime
	ok(rpcapi.MethodGetBlockTime, `[{{transferSlot}}]`, atLeast("", "1600000000")).named("a block time, in seconds since 1970"),
	bad(rpcapi.MethodGetBlockTime, `[1000000000000]`, -32004, "Block not available for slot 1000000000000"),
	badParams(rpcapi.MethodGetBlockTime, `["x"]`),

	// getFirstAvailableBlock, minimumLedgerSlot
	ok(rpcapi.MethodGetFirstAvailableBlock, ``, atMost("", "{{airdropSlot}}")),
	noParams(rpcapi.MethodGetFirstAvailableBlock),
	ok(rpcapi.MethodMinimumLedgerSlot, ``, atMost("", "{{airdropSlot}}")),
	noParams(rpcapi.MethodMinimumLedgerSlot),
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
