package rpc

import (
	"context"

	"ledgerd/generated/rpcapi"
	"ledgerd/impl/encoding"
	"ledgerd/impl/jsonrpc"
)

// keyedAccountOverhead is a lower bound on the JSON of one keyed account besides its data: two base-58 keys
// (pubkey and owner, 32 to 44 characters each), the field names and the smallest numbers.
const keyedAccountOverhead = 150

// replyGuard bounds what a scan collects by the reply budget of the call (jsonrpc.ReplyBudget): it adds up a lower
// bound of each collected account's encoded size and says stop once the sum passes the budget. The scan then
// answers "response too large" instead of holding, and then encoding, a result that could not be sent; a node
// with a million accounts would otherwise build gigabytes for one unfiltered getProgramAccounts.
type replyGuard struct {
	budget, used int64
	enc          rpcapi.AccountEncoding
	slice        *rpcapi.DataSlice
}

func newReplyGuard(ctx context.Context, enc rpcapi.AccountEncoding, slice *rpcapi.DataSlice) *replyGuard {
	return &replyGuard{budget: jsonrpc.ReplyBudget(ctx), enc: enc, slice: slice}
}

// add counts an account of dataLen bytes and reports whether the result still fits.
func (g *replyGuard) add(dataLen int) bool {
	n := int64(dataLen)
	if g.slice != nil {
		n = max(0, min(n-int64(min(g.slice.Offset, uint64(n))), int64(min(g.slice.Length, uint64(n)))))
	}
	switch g.enc {
	case encoding.Binary, encoding.Base58:
		n = n * 4 / 3 // base 58 takes log(256)/log(58) = 1.37 characters a byte
	case encoding.Base64Zstd:
		// Compressed size is unknown before compressing; a quarter of the raw bytes still bounds the memory the
		// collected accounts hold to four times the budget.
		n /= 4
	default: // base64, and jsonParsed, whose fallback is base64 and whose parsed forms are larger
		n = (n + 2) / 3 * 4
	}
	g.used += keyedAccountOverhead + n
	return g.used <= g.budget
}

// tooLarge is the error of a scan the guard stopped.
func (g *replyGuard) tooLarge() error { return rpcapi.NewResponseTooLargeError() }
