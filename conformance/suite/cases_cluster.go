package suite

// Cluster, staking, inflation and snapshots. {{identity}} is the node's identity, {{voteAccount}} and
// {{stakeAccount}} are found among the node's accounts (a test validator's genesis has both). A node without
// snapshots answers the snapshot methods with -32008, which the schema declares and the cases accept.

var clusterCases = group(
	// getClusterNodes
	ok("getClusterNodes", ``, atLeast("0.shredVersion", "0")),
	noParams("getClusterNodes"),

	// getSlotLeader, getSlotLeaders, getLeaderSchedule
	ok("getSlotLeader", ``),
	ok("getSlotLeader", `[{"commitment":"processed"}]`),
	minContextSlot("getSlotLeader", `[%s]`),
	ok("getSlotLeaders", `[{{transferSlot}},10]`, length("", 10)),
	bad("getSlotLeaders", `[0,5001]`, -32602, "Invalid limit; max 5000"),
	badParams("getSlotLeaders", `[0]`).named("no limit"),
	ok("getLeaderSchedule", ``),
	ok("getLeaderSchedule", `[null,{"identity":"{{identity}}"}]`),
	ok("getLeaderSchedule", `[1000000000000]`, exact(`null`)).named("an epoch without a schedule is null"),
	badKeys("getLeaderSchedule", `[null,{"identity":"%s"}]`),

	// getBlockCommitment, getBlockProduction
	ok("getBlockCommitment", `[{{transferSlot}}]`, atLeast("totalStake", "0")),
	badParams("getBlockCommitment", `["x"]`),
	ok("getBlockProduction", ``),
	ok("getBlockProduction", `[{"identity":"{{identity}}","commitment":"confirmed"}]`),
	bad("getBlockProduction", `[{"range":{"firstSlot":10,"lastSlot":5}}]`, -32602, "lastSlot, 5, cannot be less than firstSlot, 10"),
	badKeys("getBlockProduction", `[{"identity":"%s"}]`),

	// getVoteAccounts, getStakeActivation, getStakeMinimumDelegation
	ok("getVoteAccounts", ``),
	ok("getVoteAccounts", `[{"votePubkey":"{{voteAccount}}"}]`, contains("current", "votePubkey", "{{voteAccount}}")),
	badKeys("getVoteAccounts", `[{"votePubkey":"%s"}]`),
	ok("getStakeActivation", `["{{stakeAccount}}"]`),
	badKeys("getStakeActivation", `["%s"]`),
	minContextSlot("getStakeActivation", `["{{stakeAccount}}",%s]`),
	ok("getStakeMinimumDelegation", ``),
	minContextSlot("getStakeMinimumDelegation", `[%s]`),

	// getInflationGovernor, getInflationRate, getInflationReward
	ok("getInflationGovernor", ``),
	ok("getInflationGovernor", `[{"commitment":"confirmed"}]`),
	badCommitment("getInflationGovernor", `[%s]`),
	ok("getInflationRate", ``),
	noParams("getInflationRate"),
	ok("getInflationReward", `[["{{wallet}}"]]`, length("", 1)).orError(-32004).
		named("a wallet without rewards (or -32004 before the first epoch boundary)"),
	badKeys("getInflationReward", `[["%s"]]`),
	processedRejected("getInflationReward", `[["{{wallet}}"],%s]`),

	// getSnapshotSlot, getHighestSnapshotSlot
	ok("getSnapshotSlot", ``).orError(-32008),
	noParams("getSnapshotSlot"),
	ok("getHighestSnapshotSlot", ``).orError(-32008),
	noParams("getHighestSnapshotSlot"),
)
