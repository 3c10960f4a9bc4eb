package suite

import "ledgerd/generated/rpcapi"

// Cluster, staking, inflation and snapshots. {{identity}} is the node's identity, {{voteAccount}} and
// {{stakeAccount}} are found among the node's accounts (a test validator's genesis has both). A node without
// snapshots answers the snapshot methods with -32008, which the schema declares and the cases accept.

var clusterCases = group(
	// getClusterNodes
	ok(rpcapi.MethodGetClusterNodes, ``, atLeast("0.shredVersion", "0")),
	noParams(rpcapi.MethodGetClusterNodes),

	// getSlotLeader, getSlotLeaders, getLeaderSchedule
	ok(rpcapi.MethodGetSlotLeader, ``),
	ok(rpcapi.MethodGetSlotLeader, `[{"commitment":"processed"}]`),
	minContextSlot(rpcapi.MethodGetSlotLeader, `[%s]`),
	ok(rpcapi.MethodGetSlotLeaders, `[{{transferSlot}},10]`, length("", 10)),
	bad(rpcapi.MethodGetSlotLeaders, `[0,5001]`, -32602, "Invalid limit; max 5000"),
	badParams(rpcapi.MethodGetSlotLeaders, `[0]`).named("no limit"),
	ok(rpcapi.MethodGetLeaderSchedule, ``),
	ok(rpcapi.MethodGetLeaderSchedule, `[null,{"identity":"{{identity}}"}]`),
	ok(rpcapi.MethodGetLeaderSchedule, `[1000000000000]`, exact(`null`)).named("an epoch without a schedule is null"),
	badKeys(rpcapi.MethodGetLeaderSchedule, `[null,{"identity":"%s"}]`),

	// getBlockCommitment, getBlockProduction
	ok(rpcapi.MethodGetBlockCommitment, `[{{transferSlot}}]`, atLeast("totalStake", "0")),
	badParams(rpcapi.MethodGetBlockCommitment, `["x"]`),
	ok(rpcapi.MethodGetBlockProduction, ``),
	ok(rpcapi.MethodGetBlockProduction, `[{"identity":"{{identity}}","commitment":"confirmed"}]`),
	bad(rpcapi.MethodGetBlockProduction, `[{"range":{"firstSlot":10,"lastSlot":5}}]`, -32602, "lastSlot, 5, cannot be less than firstSlot, 10"),
	badKeys(rpcapi.MethodGetBlockProduction, `[{"identity":"%s"}]`),

	// getVoteAccounts, getStakeActivation, getStakeMinimumDelegation
	ok(rpcapi.MethodGetVoteAccounts, ``),
	ok(rpcapi.MethodGetVoteAccounts, `[{"votePubkey":"{{voteAccount}}"}]`, contains("current", "votePubkey", "{{voteAccount}}")),
	badKeys(rpcapi.MethodGetVoteAccounts, `[{"votePubkey":"%s"}]`),
	ok(rpcapi.MethodGetStakeActivation, `["{{stakeAccount}}"]`),
	badKeys(rpcapi.MethodGetStakeActivation, `["%s"]`),
	minContextSlot(rpcapi.MethodGetStakeActivation, `["{{stakeAccount}}",%s]`),
	ok(rpcapi.MethodGetStakeMinimumDelegation, ``),
	minContextSlot(rpcapi.MethodGetStakeMinimumDelegation, `[%s]`),

	// getInflationGovernor, getInflationRate, getInflationReward
	ok(rpcapi.MethodGetInflationGovernor, ``),
	ok(rpcapi.MethodGetInflationGovernor, `[{"commitment":"confirmed"}]`),
	badCommitment(rpcapi.MethodGetInflationGovernor, `[%s]`),
	ok(rpcapi.MethodGetInflationRate, ``),
	noParams(rpcapi.MethodGetInflationRate),
	ok(rpcapi.MethodGetInflationReward, `[["{{wallet}}"]]`, length("", 1)).orError(-32004).
		named("a wallet without rewards (or -32004 before the first epoch boundary)"),
	badKeys(rpcapi.MethodGetInflationReward, `[["%s"]]`),
	processedRejected(rpcapi.MethodGetInflationReward, `[["{{wallet}}"],%s]`),

	// getSnapshotSlot, getHighestSnapshotSlot
	ok(rpcapi.MethodGetSnapshotSlot, ``).orError(-32008),
	noParams(rpcapi.MethodGetSnapshotSlot),
	ok(rpcapi.MethodGetHighestSnapshotSlot, ``).orError(-32008),
	noParams(rpcapi.MethodGetHighestSnapshotSlot),
)
