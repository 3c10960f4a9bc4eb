package suite

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// The developer's methods (surfnet_*, ledgerd_*). A node that does not serve them (a reference node, or ledgerd
// bound beyond loopback without --enable-cheats) answers -32601, which every case accepts. The cases change only
// accounts no other case reads, and undo what would disturb the others: the clock paused by one case is resumed
// by its own Setup's helper, and no snapshot is reverted (a revert would erase the other cases' fixtures), so
// ledgerd_revert is called with an id never handed out.

// Two addresses no other case touches (SHA-256 of a label).
const (
	cheatAccount = "DyaNDJF4MbV2sYYGXGHp3JmVGPq8RkSKSVDMdNehgJi3"
	cheatOwner   = "GeA41fvkBgo2C7PiXKBTutJD71S6h95SrhuHkVJM5RuW"
	cheatProgram = "86cjCdfoH5yemDKvpFVStzhfnTZS2iyush4Y5VmTYGwy"
	cheatClone   = "BrG457kmtQbMkkY2sXeHv8aQAVnzvTgyzbBWjnfZRasq"
)

// writeCheatProgram makes cheatProgram an upgradeable program (an ELF's first bytes: never run) for the cases
// that need one, whatever order they run in.
func writeCheatProgram(ctx context.Context, c *Call) error {
	_, _, err := c.Env.http.post(ctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"surfnet_writeProgram","params":["`+cheatProgram+`","7f454c46",0]}`))
	return err
}

// soonVars sets {{soon}} to a unix time in milliseconds two seconds ahead, so a time travel moves the chain's
// clock by little.
func soonVars(ctx context.Context, c *Call) error {
	c.Vars["soon"] = strconv.FormatInt(time.Now().Add(2*time.Second).UnixMilli(), 10)
	return nil
}

// resumeSoon makes sure a paused clock runs again: it resumes the clock a few times over the next seconds, so
// the pause reaches the node first, however late.
func resumeSoon(ctx context.Context, c *Call) error {
	go func() {
		for range 20 {
			time.Sleep(100 * time.Millisecond)
			rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			_, _, _ = c.Env.http.post(rctx, []byte(`{"jsonrpc":"2.0","id":1,"method":"surfnet_resumeClock"}`))
			cancel()
		}
	}()
	return nil
}

var cheatCases = group(
	ok("surfnet_setAccount", `["`+cheatAccount+`",{"lamports":1000000,"data":"0102ff","owner":"11111111111111111111111111111111"}]`,
		at("value", `null`)).orError(-32601),
	bad("surfnet_setAccount", `["`+cheatAccount+`",{"data":"xyz"}]`, -32602, "").orError(-32601).named("data that is not hex"),
	badKeys("surfnet_setAccount", `["%s",{"lamports":1}]`),

	ok("surfnet_setTokenAccount", `["`+cheatOwner+`","{{mint}}",{"amount":0}]`, at("value", `null`)).orError(-32601),
	bad("surfnet_setTokenAccount", `["`+cheatOwner+`","{{wallet}}",{"amount":1}]`, -32602, "").orError(-32601).
		named("a mint that is not one"),
	badKeys("surfnet_setTokenAccount", `["%s","{{mint}}",{"amount":1}]`),

	ok("surfnet_timeTravel", `[{"absoluteTimestamp":{{soon}}}]`, atLeast("slotsInEpoch", "1")).with(soonVars).orError(-32601),
	bad("surfnet_timeTravel", `[{"absoluteSlot":0}]`, -32602, "").orError(-32601).named("a slot in the past"),

	ok("surfnet_pauseClock", ``, atLeast("slotsInEpoch", "1")).with(resumeSoon).orError(-32601),
	noParams("surfnet_pauseClock").orError(-32601),
	ok("surfnet_resumeClock", ``, atLeast("slotsInEpoch", "1")).orError(-32601),
	noParams("surfnet_resumeClock").orError(-32601),

	ok("surfnet_resetAccount", `["`+cheatAccount+`",{"includeOwnedAccounts":false}]`, at("value", `null`)).orError(-32601),
	badKeys("surfnet_resetAccount", `["%s"]`),

	ok("surfnet_getSurfnetInfo", ``, at("value", `{"runbookExecutions":[]}`)).orError(-32601),
	noParams("surfnet_getSurfnetInfo").orError(-32601),

	ok("ledgerd_advanceSlots", `[1]`).orError(-32601),
	bad("ledgerd_advanceSlots", `[0]`, -32602, "Invalid count; 1 to 10000").orError(-32601),
	ok("ledgerd_snapshot", ``).orError(-32601),
	noParams("ledgerd_snapshot").orError(-32601),
	ok("ledgerd_revert", `[18446744073709551615]`, exact(`false`)).orError(-32601).named("an id never handed out"),
	badParams("ledgerd_revert", `["x"]`).orError(-32601),

	// Impersonating an address no other case signs with changes nothing they see; verification and the blockhash
	// check are only ever set on (their default), as turning them off would change other cases' answers.
	ok("ledgerd_impersonate", `["`+cheatOwner+`"]`, at("value", `null`)).orError(-32601),
	badKeys("ledgerd_impersonate", `["%s"]`),
	ok("ledgerd_stopImpersonating", `["`+cheatAccount+`"]`, exact(`false`)).orError(-32601).named("an address never impersonated"),
	badKeys("ledgerd_stopImpersonating", `["%s"]`),
	ok("ledgerd_setSigVerify", `[true]`, exact(`true`)).orError(-32601),
	badParams("ledgerd_setSigVerify", `["yes"]`).orError(-32601),
	ok("ledgerd_setBlockhashCheck", `[true]`, exact(`true`)).orError(-32601),
	badParams("ledgerd_setBlockhashCheck", `[1]`).orError(-32601),

	ok("surfnet_writeProgram", `["`+cheatProgram+`","7f454c46",0]`, at("value", `null`)).orError(-32601),
	bad("surfnet_writeProgram", `["`+cheatProgram+`","xyz",0]`, -32602, "").orError(-32601).named("data that is not hex"),
	bad("surfnet_writeProgram", `["`+cheatProgram+`","00",10485760]`, -32602, "").orError(-32601).named("past the largest program"),
	badKeys("surfnet_writeProgram", `["%s","00",0]`),
	ok("surfnet_setProgramAuthority", `["`+cheatProgram+`","`+cheatOwner+`"]`, at("value", `null`)).with(writeCheatProgram).orError(-32601),
	bad("surfnet_setProgramAuthority", `["`+cheatAccount+`"]`, -32602, "").orError(-32601).named("an account that is not a program"),
	badKeys("surfnet_setProgramAuthority", `["%s"]`),
	ok("surfnet_cloneProgramAccount", `["`+cheatProgram+`","`+cheatClone+`"]`, at("value", `null`)).with(writeCheatProgram).orError(-32601),
	bad("surfnet_cloneProgramAccount", `["`+cheatAccount+`","`+cheatClone+`"]`, -32602, "").orError(-32601).named("a source that is not a program"),
	badKeys("surfnet_cloneProgramAccount", `["%s","`+cheatClone+`"]`),

	// The suite's node forks nothing: the exclusion is recorded and changes nothing else.
	ok("surfnet_offlineAccount", `["`+cheatOwner+`",{"includeOwnedAccounts":true}]`, at("value", `null`)).orError(-32601),
	ok("surfnet_offlineAccount", `["`+cheatOwner+`"]`, at("value", `null`)).orError(-32601).named("without a config"),
	badKeys("surfnet_offlineAccount", `["%s"]`),

	// An empty update overrides nothing, so getSupply's own cases see the chain's figures.
	ok("surfnet_setSupply", `[{}]`, at("value", `null`)).orError(-32601),
	badKeys("surfnet_setSupply", `[{"non_circulating_accounts":["%s"]}]`),

	// The whole-chain methods. surfnet_resetNetwork takes every other case's fixtures with it, so it runs last;
	// a profile runs the transfer without sending it; a dump is written under the temporary directory (the suite
	// may talk to a node on another machine, so it cannot remove its own; see dumpDirVars).
	ok("surfnet_resetNetwork", ``, at("value", `null`)).orError(-32601).last(),
	noParams("surfnet_resetNetwork").orError(-32601),
	ok("surfnet_exportSnapshot", ``, atLeast("context.slot", "0")).orError(-32601).named("without params"),
	ok("surfnet_exportSnapshot", `[{"includeParsedAccounts":true,"filter":{"includeProgramAccounts":true,"excludeAccounts":["`+cheatOwner+`"]},"scope":"network"}]`,
		atLeast("context.slot", "0")).orError(-32601),
	bad("surfnet_exportSnapshot", `[{"scope":{"preTransaction":"{{txSig}}"}}]`, -32602, "").orError(-32601).named("the preTransaction scope"),
	badKeys("surfnet_exportSnapshot", `[{"filter":{"excludeAccounts":["%s"]}}]`),
	ok("surfnet_profileTransaction", `["{{tx64}}","conformance",{"encoding":"base64","depth":"instruction"}]`,
		atLeast("value.transactionProfile.computeUnitsConsumed", "1")).orError(-32601),
	bad("surfnet_profileTransaction", `["{{badSigTx64}}",null]`, -32602, "Transaction signature verification failure").orError(-32601).named("a bad signature"),
	badParams("surfnet_profileTransaction", `["{{tx64}}",null,{"depth":"everything"}]`).orError(-32601).named("an unknown depth"),
	ok("surfnet_getProfileResultsByTag", `["a tag never used"]`, at("value", `null`)).orError(-32601),
	badParams("surfnet_getProfileResultsByTag", `[]`).orError(-32601).named("no tag"),
	ok("surfnet_getTransactionProfile", `["00000000-0000-4000-8000-000000000000",{"encoding":"jsonParsed"}]`, at("value", `null`)).orError(-32601),
	badParams("surfnet_getTransactionProfile", `["00000000-0000-4000-8000-000000000000",{"encoding":"bogus"}]`).orError(-32601).named("an unknown encoding"),
	ok("ledgerd_dumpState", `["{{dumpDir}}"]`, at("path", `"{{dumpDir}}"`)).with(dumpDirVars).orError(-32601),
	bad("ledgerd_dumpState", `[""]`, -32602, "").orError(-32601).named("no path"),
	badParams("ledgerd_dumpState", `[1]`).orError(-32601),
)

// dumpDirVars sets {{dumpDir}} to a path that does not exist yet under one directory of the temporary
// directory, where it first removes the dumps of runs older than an hour (a node on this machine wrote them).
func dumpDirVars(ctx context.Context, c *Call) error {
	parent := filepath.Join(os.TempDir(), "ledgerd-conformance-dumps")
	if entries, err := os.ReadDir(parent); err == nil {
		for _, e := range entries {
			if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > time.Hour {
				_ = os.RemoveAll(filepath.Join(parent, e.Name()))
			}
		}
	}
	c.Vars["dumpDir"] = filepath.Join(parent, fmt.Sprintf("dump-%d", time.Now().UnixNano()))
	return os.MkdirAll(parent, 0o755)
}
