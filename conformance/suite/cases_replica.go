package suite

import "ledgerd/generated/rpcapi"

// The replication methods a follower reads its leader with (ledgerd --follow). A node that does not serve them (a
// reference node) answers -32601, which every case accepts.
var replicaCases = group(
	ok(rpcapi.MethodLedgerdGetGenesis, ``, atLeast("finalityDepth", "0")).orError(-32601),
	noParams(rpcapi.MethodLedgerdGetGenesis).orError(-32601),

	ok(rpcapi.MethodLedgerdGetBlockRecords, `[{{transferSlot}},1]`, atLeast("confirmedSlot", "1")).orError(-32601),
	bad(rpcapi.MethodLedgerdGetBlockRecords, `[0,0]`, -32602, "Invalid limit; 1 to 1000").orError(-32601).named("a limit of 0"),
	badParams(rpcapi.MethodLedgerdGetBlockRecords, `["x"]`).orError(-32601),
)
