package main

import (
	"flag"

	"ledgerd/impl/jsonrpc"
)

// rpcLimitFlags registers the bounds on one JSON-RPC request's work (the names follow the reference's
// --rpc-max-request-body-size).
func rpcLimitFlags(fs *flag.FlagSet, l *jsonrpc.Limits) {
	fs.IntVar(&l.MaxBatchItems, "rpc-max-batch-size", jsonrpc.DefaultMaxBatchItems, "most calls in one JSON-RPC batch; a larger batch is refused whole")
	fs.Int64Var(&l.MaxResponseBytes, "rpc-max-response-size", jsonrpc.DefaultMaxResponseBytes, "largest reply to one JSON-RPC request or batch in bytes; calls past it get \"response too large\"")
	fs.DurationVar(&l.CallTimeout, "rpc-call-timeout", jsonrpc.DefaultCallTimeout, "longest run of one JSON-RPC request or batch; calls past it get \"request timed out\"")
}
