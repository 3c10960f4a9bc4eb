package suite

import (
	"context"
	"time"
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
	ok("accountSubscribe", `["{{recipient}}",{"commitment":"confirmed","encoding":"base64"}]`).
		notifies(Notify{Min: 1, Trigger: sendTx}),
	ok("accountSubscribe", `["{{recipient}}"]`).notifies(Notify{Min: 1, Trigger: sendTx}).named("defaults: finalized, binary"),
	bad("accountSubscribe", `["1111"]`, -32602, "Invalid Request: Invalid pubkey provided"),
	badParams("accountSubscribe", `["{{recipient}}",{"encoding":"hex"}]`),
	unsubscribeCases("accountUnsubscribe", "accountSubscribe", `["{{fresh}}"]`),

	// programSubscribe
	ok("programSubscribe", `["{{systemProgram}}",{"commitment":"confirmed","encoding":"base64","filters":[{"dataSize":0}]}]`).
		notifies(Notify{Min: 1, Trigger: sendTx}),
	bad("programSubscribe", `["0OIl"]`, -32602, "Invalid Request: Invalid pubkey provided"),
	bad("programSubscribe", `["{{systemProgram}}",{"filters":[{"dataSize":1},{"dataSize":1},{"dataSize":1},{"dataSize":1},{"dataSize":1}]}]`,
		-32602, "Invalid params: Too many filters provided; max 4").named("five filters"),
	unsubscribeCases("programUnsubscribe", "programSubscribe", `["{{fresh}}"]`),

	// logsSubscribe
	ok("logsSubscribe", `[{"mentions":["{{recipient}}"]},{"commitment":"confirmed"}]`).notifies(Notify{Min: 1, Trigger: sendTx}),
	ok("logsSubscribe", `["all"]`).notifies(Notify{Min: 1, Trigger: sendTx}),
	bad("logsSubscribe", `[{"mentions":[]}]`, -32602, "Invalid Request: Only 1 address supported"),
	bad("logsSubscribe", `[{"mentions":["0OIl"]}]`, -32602, "Invalid Request: Invalid mentions provided"),
	unsubscribeCases("logsUnsubscribe", "logsSubscribe", `["allWithVotes"]`),

	// signatureSubscribe: removed by the node after its first processed notification
	ok("signatureSubscribe", `["{{txSig}}",{"commitment":"confirmed"}]`).notifies(Notify{Min: 1, Trigger: sendTx, Final: true}),
	ok("signatureSubscribe", `["{{txSig}}",{"commitment":"processed","enableReceivedNotification":true}]`).
		notifies(Notify{Min: 1, Trigger: sendTx}),
	bad("signatureSubscribe", `["0OIl"]`, -32602, "Invalid Request: Invalid signature provided"),
	unsubscribeCases("signatureUnsubscribe", "signatureSubscribe", `["{{freshSig}}"]`),

	// slotSubscribe, rootSubscribe, slotsUpdatesSubscribe: the chain notifies by itself
	ok("slotSubscribe", ``).notifies(Notify{Min: 2}),
	badParams("slotSubscribe", `[1]`),
	unsubscribeCases("slotUnsubscribe", "slotSubscribe", ``),
	ok("rootSubscribe", ``).notifies(Notify{Min: 2}),
	badParams("rootSubscribe", `[1]`),
	unsubscribeCases("rootUnsubscribe", "rootSubscribe", ``),
	ok("slotsUpdatesSubscribe", ``).notifies(Notify{Min: 3}),
	badParams("slotsUpdatesSubscribe", `[1]`),
	unsubscribeCases("slotsUpdatesUnsubscribe", "slotsUpdatesSubscribe", ``),

	// blockSubscribe (unstable; -32601 where disabled)
	ok("blockSubscribe", `["all",{"commitment":"confirmed","encoding":"json","maxSupportedTransactionVersion":0}]`).
		notifies(Notify{Min: 1, Trigger: sendTx}),
	ok("blockSubscribe", `[{"mentionsAccountOrProgram":"{{recipient}}"},{"transactionDetails":"signatures","showRewards":true}]`).
		notifies(Notify{Min: 1, Trigger: sendTx}),
	bad("blockSubscribe", `["all",{"commitment":"processed"}]`, -32602, "Method does not support commitment below `confirmed`"),
	bad("blockSubscribe", `[{"mentionsAccountOrProgram":"0OIl"}]`, -32602, "Invalid Request: Invalid mentions_account_or_program provided"),
	unsubscribeCases("blockUnsubscribe", "blockSubscribe", `["all"]`),

	// voteSubscribe (unstable; -32601 where disabled). A node may have no votes to send in a short window.
	ok("voteSubscribe", ``).notifies(Notify{Min: 0, Within: time.Second}),
	badParams("voteSubscribe", `[1]`),
	unsubscribeCases("voteUnsubscribe", "voteSubscribe", ``),
)
