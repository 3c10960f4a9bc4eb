package suite

import "ledgerd/generated/rpcapi"

// Chain: slots, epochs, blockhashes, fees, identity and version. {{blockhash}} is asked for just before the case
// runs; {{msg64}} is the message of a transfer signed over it; {{staleMsg64}} one over a blockhash no node made.

var chainCases = group(
	// getSlot
	ok("getSlot", ``, atLeast("", "{{transferSlot}}")),
	ok("getSlot", `[{"commitment":"processed"}]`, atLeast("", "{{transferSlot}}")),
	minContextSlot("getSlot", `[%s]`),
	badCommitment("getSlot", `[%s]`),

	// getEpochInfo
	ok("getEpochInfo", ``, typed("slotIndex < slotsInEpoch", func(v rpcapi.GetEpochInfoResult, _ Vars) error {
		if v.SlotIndex >= v.SlotsInEpoch {
			return errorf("slotIndex %d is not below slotsInEpoch %d", v.SlotIndex, v.SlotsInEpoch)
		}
		return nil
	}), atLeast("absoluteSlot", "{{transferSlot}}")),
	ok("getEpochInfo", `[{"commitment":"confirmed"}]`),
	minContextSlot("getEpochInfo", `[%s]`),
	badCommitment("getEpochInfo", `[%s]`),

	// getEpochSchedule
	ok("getEpochSchedule", ``, atLeast("slotsPerEpoch", "32")),
	noParams("getEpochSchedule"),

	// getTransactionCount
	ok("getTransactionCount", ``, atLeast("", "2")).named("at least the prepared airdrop and transfer"),
	ok("getTransactionCount", `[{"commitment":"processed"}]`, atLeast("", "2")),
	minContextSlot("getTransactionCount", `[%s]`),
	badCommitment("getTransactionCount", `[%s]`),

	// getLatestBlockhash
	ok("getLatestBlockhash", ``, atLeast("value.lastValidBlockHeight", "1")),
	ok("getLatestBlockhash", `[{"commitment":"processed"}]`),
	minContextSlot("getLatestBlockhash", `[%s]`),
	badCommitment("getLatestBlockhash", `[%s]`),

	// isBlockhashValid
	ok("isBlockhashValid", `["{{blockhash}}"]`, value(`true`)),
	ok("isBlockhashValid", `["{{blockhash}}",{"commitment":"processed"}]`, value(`true`)),
	ok("isBlockhashValid", `["{{freshHash}}"]`, value(`false`)).named("a blockhash the node never made"),
	bad("isBlockhashValid", `["xyz"]`, -32602, "WrongSize").named("a hash that does not parse (no prefix, as the reference)"),
	minContextSlot("isBlockhashValid", `["{{blockhash}}",%s]`),

	// getFeeForMessage
	ok("getFeeForMessage", `["{{msg64}}"]`, value(`5000`)).named("one signature: 5000 lamports"),
	ok("getFeeForMessage", `["{{msg64}}",{"commitment":"processed"}]`, value(`5000`)),
	ok("getFeeForMessage", `["{{staleMsg64}}"]`, value(`null`)).named("an unknown blockhash gives null"),
	badParams("getFeeForMessage", `["!!!"]`).named("not base64"),
	minContextSlot("getFeeForMessage", `["{{msg64}}",%s]`),

	// getRecentPrioritizationFees
	ok("getRecentPrioritizationFees", ``),
	ok("getRecentPrioritizationFees", `[["{{wallet}}"]]`),
	ok("getRecentPrioritizationFees", "["+repeated("{{fresh}}", 128)+"]").named("128 keys, the limit"),
	bad("getRecentPrioritizationFees", "["+repeated("{{fresh}}", 129)+"]", -32602, "Too many inputs provided; max 128").named("129 keys"),
	badKeys("getRecentPrioritizationFees", `[["%s"]]`),

	// getRecentPerformanceSamples
	ok("getRecentPerformanceSamples", ``),
	ok("getRecentPerformanceSamples", `[5]`, where("at most 5 samples", func(g *Got) error {
		n, err := g.Len("")
		if err == nil && n > 5 {
			return errorf("%d samples", n)
		}
		return err
	})),
	bad("getRecentPerformanceSamples", `[721]`, -32602, "Invalid limit; max 720"),
	badParams("getRecentPerformanceSamples", `["x"]`),

	// getGenesisHash, getIdentity, getVersion, getHealth
	ok("getGenesisHash", ``),
	noParams("getGenesisHash"),
	ok("getIdentity", ``),
	noParams("getIdentity"),
	ok("getVersion", ``, matches("solana-core", `^\d+\.\d+\.\d+`)),
	ok("getVersion", ``, matches("solana-core", `^\d+\.\d+\.\d+`)).overWS().named("over the WebSocket"),
	noParams("getVersion"),
	ok("getHealth", ``, exact(`"ok"`)),
	noParams("getHealth"),

	// getMaxRetransmitSlot, getMaxShredInsertSlot
	ok("getMaxRetransmitSlot", ``, atLeast("", "{{transferSlot}}")),
	noParams("getMaxRetransmitSlot"),
	ok("getMaxShredInsertSlot", ``, atLeast("", "{{transferSlot}}")),
	noParams("getMaxShredInsertSlot"),
)
