package suite

import "ledgerd/generated/rpcapi"

// Chain: slots, epochs, blockhashes, fees, identity and version. {{blockhash}} is asked for just before the case
// runs; {{msg64}} is the message of a transfer signed over it; {{staleMsg64}} one over a blockhash no node made.

var chainCases = group(
	// getSlot
	ok(rpcapi.MethodGetSlot, ``, atLeast("", "{{transferSlot}}")),
	ok(rpcapi.MethodGetSlot, `[{"commitment":"processed"}]`, atLeast("", "{{transferSlot}}")),
	minContextSlot(rpcapi.MethodGetSlot, `[%s]`),
	badCommitment(rpcapi.MethodGetSlot, `[%s]`),

	// getEpochInfo
	ok(rpcapi.MethodGetEpochInfo, ``, typed("slotIndex < slotsInEpoch", func(v rpcapi.GetEpochInfoResult, _ Vars) error {
		if v.SlotIndex >= v.SlotsInEpoch {
			return errorf("slotIndex %d is not below slotsInEpoch %d", v.SlotIndex, v.SlotsInEpoch)
		}
		return nil
	}), atLeast("absoluteSlot", "{{transferSlot}}")),
	ok(rpcapi.MethodGetEpochInfo, `[{"commitment":"confirmed"}]`),
	minContextSlot(rpcapi.MethodGetEpochInfo, `[%s]`),
	badCommitment(rpcapi.MethodGetEpochInfo, `[%s]`),

	// getEpochSchedule
	ok(rpcapi.MethodGetEpochSchedule, ``, atLeast("slotsPerEpoch", "32")),
	noParams(rpcapi.MethodGetEpochSchedule),

	// getTransactionCount
	ok(rpcapi.MethodGetTransactionCount, ``, atLeast("", "2")).named("at least the prepared airdrop and transfer"),
	ok(rpcapi.MethodGetTransactionCount, `[{"commitment":"processed"}]`, atLeast("", "2")),
	minContextSlot(rpcapi.MethodGetTransactionCount, `[%s]`),
	badCommitment(rpcapi.MethodGetTransactionCount, `[%s]`),

	// getLatestBlockhash
	ok(rpcapi.MethodGetLatestBlockhash, ``, atLeast("value.lastValidBlockHeight", "1")),
	ok(rpcapi.MethodGetLatestBlockhash, `[{"commitment":"processed"}]`),
	minContextSlot(rpcapi.MethodGetLatestBlockhash, `[%s]`),
	badCommitment(rpcapi.MethodGetLatestBlockhash, `[%s]`),

	// isBlockhashValid
	ok(rpcapi.MethodIsBlockhashValid, `["{{blockhash}}"]`, value(`true`)),
	ok(rpcapi.MethodIsBlockhashValid, `["{{blockhash}}",{"commitment":"processed"}]`, value(`true`)),
	ok(rpcapi.MethodIsBlockhashValid, `["{{freshHash}}"]`, value(`false`)).named("a blockhash the node never made"),
	bad(rpcapi.MethodIsBlockhashValid, `["xyz"]`, -32602, "WrongSize").named("a hash that does not parse (no prefix, as the reference)"),
	minContextSlot(rpcapi.MethodIsBlockhashValid, `["{{blockhash}}",%s]`),

	// getFeeForMessage
	ok(rpcapi.MethodGetFeeForMessage, `["{{msg64}}"]`, value(`5000`)).named("one signature: 5000 lamports"),
	ok(rpcapi.MethodGetFeeForMessage, `["{{msg64}}",{"commitment":"processed"}]`, value(`5000`)),
	ok(rpcapi.MethodGetFeeForMessage, `["{{staleMsg64}}"]`, value(`null`)).named("an unknown blockhash gives null"),
	badParams(rpcapi.MethodGetFeeForMessage, `["!!!"]`).named("not base64"),
	minContextSlot(rpcapi.MethodGetFeeForMessage, `["{{msg64}}",%s]`),

	// getRecentPrioritizationFees
	ok(rpcapi.MethodGetRecentPrioritizationFees, ``),
	ok(rpcapi.MethodGetRecentPrioritizationFees, `[["{{wallet}}"]]`),
	ok(rpcapi.MethodGetRecentPrioritizationFees, "["+repeated("{{fresh}}", 128)+"]").named("128 keys, the limit"),
	bad(rpcapi.MethodGetRecentPrioritizationFees, "["+repeated("{{fresh}}", 129)+"]", -32602, "Too many inputs provided; max 128").named("129 keys"),
	badKeys(rpcapi.MethodGetRecentPrioritizationFees, `[["%s"]]`),

	// getRecentPerformanceSamples
	ok(rpcapi.MethodGetRecentPerformanceSamples, ``),
	ok(rpcapi.MethodGetRecentPerformanceSamples, `[5]`, where("at most 5 samples", func(g *Got) error {
		n, err := g.Len("")
		if err == nil && n > 5 {
			return errorf("%d samples", n)
		}
		return err
	})),
	bad(rpcapi.MethodGetRecentPerformanceSamples, `[721]`, -32602, "Invalid limit; max 720"),
	badParams(rpcapi.MethodGetRecentPerformanceSamples, `["x"]`),

	// getGenesisHash, getIdentity, getVersion, getHealth
	ok(rpcapi.MethodGetGenesisHash, ``),
	noParams(rpcapi.MethodGetGenesisHash),
	ok(rpcapi.MethodGetIdentity, ``),
	noParams(rpcapi.MethodGetIdentity),
	ok(rpcapi.MethodGetVersion, ``, matches("solana-core", `^\d+\.\d+\.\d+`)),
	ok(rpcapi.MethodGetVersion, ``, matches("solana-core", `^\d+\.\d+\.\d+`)).overWS().named("over the WebSocket"),
	noParams(rpcapi.MethodGetVersion),
	ok(rpcapi.MethodGetHealth, ``, exact(`"ok"`)),
	noParams(rpcapi.MethodGetHealth),

	// getMaxRetransmitSlot, getMaxShredInsertSlot
	ok(rpcapi.MethodGetMaxRetransmitSlot, ``, atLeast("", "{{transferSlot}}")),
	noParams(rpcapi.MethodGetMaxRetransmitSlot),
	ok(rpcapi.MethodGetMaxShredInsertSlot, ``, atLeast("", "{{transferSlot}}")),
	noParams(rpcapi.MethodGetMaxShredInsertSlot),
)
