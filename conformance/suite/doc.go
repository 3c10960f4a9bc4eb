// Package suite is the conformance suite: it checks any JSON-RPC endpoint of the protocol against the OpenRPC
// document in generated/openrpc.json and the reference node's behaviour.
//
// It owns four things: the schema view (result, error and notification schemas compiled out of the document), the
// cases (data: a method, JSON params with {{var}} placeholders, and what must hold), the fixtures it prepares
// through the endpoint itself (airdrops, transfers, ...), and the report (a table per method, JSON and HTML).
//
// A case is one entry in one of the cases_*.go files:
//
//	ok(rpcapi.MethodGetBalance, `["{{fresh}}"]`, value(`0`))                   // a valid call, schema-checked, then exact
//	bad(rpcapi.MethodGetBalance, `["xyz"]`, -32602, "Invalid param: WrongSize") // an invalid call and the error it must get
//
// Every method of the document must have at least one valid and one invalid case; the suite reports a method
// without them as a failure, so a method added to the schema shows up here until someone writes its cases.
package suite
