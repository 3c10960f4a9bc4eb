package suite

// The replication methods a follower reads its leader with (ledgerd --follow). A node that does not serve them (a
// reference node) answers -32601, which every case accepts.
var replicaCases = group(
	ok("ledgerd_getGenesis", ``, atLeast("finalityDepth", "0")).orError(-32601),
	noParams("ledgerd_getGenesis").orError(-32601),

	ok("ledgerd_getBlockRecords", `[{{transferSlot}},1]`, atLeast("confirmedSlot", "1")).orError(-32601),
	bad("ledgerd_getBlockRecords", `[0,0]`, -32602, "Invalid limit; 1 to 1000").orError(-32601).named("a limit of 0"),
	badParams("ledgerd_getBlockRecords", `["x"]`).orError(-32601),
)
