package suite

import (
	"context"
	"time"

	"ledgerd/generated/rpcapi"
)

// Subscriptions (over -ws). A valid subscribe must answer an id, then the notifications the case names must
// arrive, each valid against the method's x-notification schema; the suite then unsubscribes. Triggers make the
// node notify: sendTx submits this case's {{tx}} (a transfer from {{wallet}} to {{recipient}}) after subscribing.

// sendTx is the trigger that submits the case's transfer.
func sendTx(ctx context.Context, c *Call) error { return c.Send(ctx, "tx") }

// subscribed is a Setup that subscribes over the case's connection and sets {{sub}} to the id.
func subscribed(method, params string) func(ctx context.Context, c *Call) error {
	return func(ctx context.Context, c *Call) error {
		p, err := c.fill(ctx, params)
		if err != nil {
			return err
		}
		id, err := c.Subscribe(ctx, method, p)
		if err != nil {
			return err
		}
		c.Vars["sub"] = id
		return nil
	}
}

// unsubscribeCases: unsubscribing a live subscription answers true; an id never given out is -32602.
func unsubscribeCases(method, subscribe, params string) []Case {
	return []Case{
		ok(method, `[{{sub}}]`, exact(`true`)).with(subscribed(subscribe, params)).named("a live subscription"),
		bad(method, `[987654321]`, -32602, "Invalid subscription id.").named("an id never given out"),
		badParams(method, `["x"]`),
	}
}

var subscriptionCases = group(
	// accountSubscribe
	ok(rpcapi.MethodAccountSubscribe, `["{{recipient}}",{"commitment":"confirmed","encoding":"base64"}]`).
		notifies(Notify{Min: 1, Trigger: sendTx}),
	ok(rpcapi.MethodAccountSubscribe, `["{{recipient}}"]`).notifies(Notify{Min: 1, Trigger: sendTx}).named("defaults: finalized, binary"),
	bad(rpcapi.MethodAccountSubscribe, `["1111"]`, -32602, "Invalid Request: Invalid pubkey provided"),
	badParams(rpcapi.MethodAccountSubscribe, `["{{recipient}}",{"encoding":"hex"}]`),
	unsubscribeCases(rpcapi.MethodAccountUnsubscribe, rpcapi.MethodAccountSubscribe, `["{{fresh}}"]`),

	// programSubscribe
	ok(rpcapi.MethodProgramSubscribe, `["{{systemProgram}}",{"commitment":"confirmed","encoding":"base64","filters":[{"dataSize":0}]}]`).
		notifies(Notify{Min: 1, Trigger: sendTx}),
	bad(rpcapi.MethodProgramSubscribe, `["0OIl"]`, -32602, "Invalid Request: Invalid pubkey provided"),
	bad(rpcapi.MethodProgramSubscribe, `["{{systemProgram}}",{"filters":[{"dataSize":1},{"dataSize":1},{"dataSize":1},{"dataSize":1},{"dataSize":1}]}]`,
		-32602, "Invalid params: Too many filters provided; max 4").named("five filters"),
	unsubscribeCases(rpcapi.MethodProgramUnsubscribe, rpcapi.MethodProgramSubscribe, `["{{fresh}}"]`),

	// logsSubscribe
	ok(rpcapi.MethodLogsSubscribe, `[{"mentions":["{{recipient}}"]},{"commitment":"confirmed"}]`).notifies(Notify{Min: 1, Trigger: sendTx}),
	ok(rpcapi.MethodLogsSubscribe, `["all"]`).notifies(Notify{Min: 1, Trigger: sendTx}),
	bad(rpcapi.MethodLogsSubscribe, `[{"mentions":[]}]`, -32602, "Invalid Request: Only 1 address supported"),
	bad(rpcapi.MethodLogsSubscribe, `[{"mentions":["0OIl"]}]`, -32602, "Invalid Request: Invalid mentions provided"),
	unsubscribeCases(rpcapi.MethodLogsUnsubscribe, rpcapi.MethodLogsSubscribe, `["allWithVotes"]`),

	// signatureSubscribe: removed by the node after its first processed notification
	ok(rpcapi.MethodSignatureSubscribe, `["{{txSig}}",{"commitment":"confirmed"}]`).notifies(Notify{Min: 1, Trigger: sendTx, Final: true}),
	ok(rpcapi.MethodSignatureSubscribe, `["{{txSig}}",{"commitment":"processed","enableReceivedNotification":true}]`).
		notifies(Notify{Min: 1, Trigger: sendTx}),
	bad(rpcapi.MethodSignatureSubscribe, `["0OIl"]`, -32602, "Invalid Request: Invalid signature provided"),
	unsubscribeCases(rpcapi.MethodSignatureUnsubscribe, rpcapi.MethodSignatureSubscribe, `["{{freshSig}}"]`),

	// slotSubscribe, rootSubscribe, slotsUpdatesSubscribe: the chain notifies by itself
	ok(rpcapi.MethodSlotSubscribe, ``).notifies(Notify{Min: 2}),
	badParams(rpcapi.MethodSlotSubscribe, `[1]`),
	unsubscribeCases(rpcapi.MethodSlotUnsubscribe, rpcapi.MethodSlotSubscribe, ``),
	ok(rpcapi.MethodRootSubscribe, ``).notifies(Notify{Min: 2}),
	badParams(rpcapi.MethodRootSubscribe, `[1]`),
	unsubscribeCases(rpcapi.MethodRootUnsubscribe, rpcapi.MethodRootSubscribe, ``),
	ok(rpcapi.MethodSlotsUpdatesSubscribe, ``).notifies(Notify{Min: 3}),
	badParams(rpcapi.MethodSlotsUpdatesSubscribe, `[1]`),
	unsubscribeCases(rpcapi.MethodSlotsUpdatesUnsubscribe, rpcapi.MethodSlotsUpdatesSubscribe, ``),

	// blockSubscribe (unstable; -32601 where disabled)
	ok(rpcapi.MethodBlockSubscribe, `["all",{"commitment":"confirmed","encoding":"json","maxSupportedTransactionVersion":0}]`).
		notifies(Notify{Min: 1, Trigger: sendTx}),
	ok(rpcapi.MethodBlockSubscribe, `[{"mentionsAccountOrProgram":"{{recipient}}"},{"transactionDetails":"signatures","showRewards":true}]`).
		notifies(Notify{Min: 1, Trigger: sendTx}),
	bad(rpcapi.MethodBlockSubscribe, `["all",{"commitment":"processed"}]`, -32602, "Method does not support commitment below `confirmed`"),
	bad(rpcapi.MethodBlockSubscribe, `[{"mentionsAccountOrProgram":"0OIl"}]`, -32602, "Invalid Request: Invalid mentions_account_or_program provided"),
	unsubscribeCases(rpcapi.MethodBlockUnsubscribe, rpcapi.MethodBlockSubscribe, `["all"]`),

	// voteSubscribe (unstable; -32601 where disabled). A node may have no votes to send in a short window.
	ok(rpcapi.MethodVoteSubscribe, ``).notifies(Notify{Min: 0, Within: time.Second}),
	badParams(rpcapi.MethodVoteSubscribe, `[1]`),
	unsubscribeCases(rpcapi.MethodVoteUnsubscribe, rpcapi.MethodVoteSubscribe, ``),
)
